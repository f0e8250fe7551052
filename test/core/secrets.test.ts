import { describe, expect, it } from "@effect/vitest"
import { inspect } from "node:util"
import { Effect, Exit, Layer, Result, Stream, Tracer } from "effect"
import { redact } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { maskUri, OptionStore } from "../../src/Options.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

const PASSWORD = "hunter2-Secret!"
const URI_PASSWORD = "p@ss:w0rd/x"
const TOKEN = "tok-eyJhbGciOiJSUzI1NiJ9.secret"
const uri = `mem://user:${encodeURIComponent(URI_PASSWORD)}@host:1`
const secrets = [PASSWORD, URI_PASSWORD, encodeURIComponent(URI_PASSWORD), TOKEN, uri]

const capture = () => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  const dump = () =>
    JSON.stringify(
      spans.map((s) => ({ name: s.name, attributes: [...s.attributes], status: String(s.status._tag === "Ended" ? s.status.exit : ""), events: s.events })),
      (_, v) => (typeof v === "bigint" ? String(v) : v)
    )
  return { tracer, dump, spans }
}

const layerFor = (server: MemoryServer) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri, password: PASSWORD, "mem.token": TOKEN })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server)))
  )

const assertClean = (text: string) => {
  for (const secret of secrets) expect(text).not.toContain(secret)
}

describe("secrets", () => {
  it("redact removes plain and percent-encoded forms", () => {
    expect(redact(`a ${URI_PASSWORD} b ${encodeURIComponent(URI_PASSWORD)} c`, [URI_PASSWORD])).toBe("a <redacted> b <redacted> c")
  })

  it.effect("a failed login names what failed but none of the secrets, in the error and in spans", () => {
    const server = new MemoryServer()
    server.connectFailure = `authentication failed for user with password ${PASSWORD}, uri ${uri}, decoded ${URI_PASSWORD}, token ${TOKEN}`
    const { tracer, dump, spans } = capture()
    return Effect.gen(function*() {
      const exit = yield* Effect.exit(Layer.build(layerFor(server)).pipe(Effect.scoped))
      expect(Exit.isFailure(exit)).toBe(true)
      const text = String(Exit.isFailure(exit) ? exit.cause : "")
      expect(text).toContain("authentication failed")
      expect(text).toContain("<redacted>")
      assertClean(text)
      expect(spans.map((s) => s.name)).toContain("connect")
      assertClean(dump())
    }).pipe(Effect.provideService(Tracer.Tracer, tracer))
  })

  it.effect("statement errors carrying a secret are redacted, spans too", () => {
    const server = new MemoryServer()
    const { tracer, dump, spans } = capture()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const exit = yield* Effect.exit(conn.execute(`FAIL bad password ${PASSWORD} in ${uri}`))
      const text = String(Exit.isFailure(exit) ? exit.cause : "")
      expect(text).toContain("bad password <redacted>")
      assertClean(text)
      const queryExit = yield* Effect.exit(Stream.runCollect(conn.query(`FAIL ${TOKEN}`)))
      assertClean(String(Exit.isFailure(queryExit) ? queryExit.cause : ""))
      expect(spans.map((s) => s.name)).toContain("FAIL")
      assertClean(dump())
    }).pipe(Effect.provide(layerFor(server)), Effect.provideService(Tracer.Tracer, tracer))
  })

  it.effect("GetOption never reads a secret back: NOT_FOUND for secret keys, the URI with its password masked", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const db = yield* Database.Database
      const conn = yield* Connection.Connection
      for (const get of [db.getOption, conn.getOption]) {
        const password = yield* Effect.flip(get("password"))
        expect(password.status).toBe("NOT_FOUND")
        expect(password.message).toContain("secret")
        expect((yield* Effect.flip(get("mem.token"))).status).toBe("NOT_FOUND")
        const shown = yield* get("uri")
        expect(shown).toBe("mem://user:***@host:1")
        assertClean(shown)
      }
      const stmt = yield* Effect.scoped(Effect.flatMap(conn.statement(), (s) => Effect.flip(s.getOption("password"))))
      expect(stmt.status).toBe("NOT_FOUND")
    }).pipe(Effect.provide(layerFor(server)))
  })

  it("a store holds secrets as Redacted: printing or serialising it shows none of them", () => {
    const registry = Database.registryFor(memoryDriver(new MemoryServer()))
    const store = Result.getOrThrow(OptionStore.make(registry, "database", { uri, password: PASSWORD, "mem.token": TOKEN }))
    assertClean(JSON.stringify(store))
    assertClean(inspect(store, { depth: 5 }))
    expect(store.raw("password")).toBe(PASSWORD)
  })

  it("maskUri masks userinfo and query passwords", () => {
    expect(maskUri("hdb://SYSTEM:Manager1@h:1?x=1")).toBe("hdb://SYSTEM:***@h:1?x=1")
    expect(maskUri("hdb://h:1?user=A&password=B&z=1")).toBe("hdb://h:1?user=A&password=***&z=1")
    expect(maskUri("hdb://h:1")).toBe("hdb://h:1")
  })
})
