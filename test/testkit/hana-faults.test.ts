import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HanaTestServer, startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"

describe("HANA test server: cancel and fault injection with the raw hdb client", () => {
  let server: HanaTestServerHandle
  const login = () => connect({ host: server.host, port: server.port, user: server.user, password: server.password })
  beforeAll(async () => {
    server = await startHanaTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it("SLEEP_SECONDS(n) lasts n seconds of wall clock, however fast the machine", async () => {
    const c = await login()
    try {
      const started = Date.now()
      await exec(c, "SELECT SLEEP_SECONDS(1) AS X FROM DUMMY")
      // a lower bound only: a loaded machine makes it longer, never shorter
      expect(Date.now() - started).toBeGreaterThanOrEqual(990)
    } finally {
      closeQuietly(c)
    }
  })

  it("ALTER SYSTEM CANCEL SESSION stops a running statement with HANA's cancel error", async () => {
    const worker = await login()
    const admin = await login()
    try {
      const started = Date.now()
      const running = failure(
        exec(worker, "SELECT COUNT(*) FROM SERIES_GENERATE_INTEGER(1, 0, 200000) a, SERIES_GENERATE_INTEGER(1, 0, 200000) b")
      )
      await new Promise((r) => setTimeout(r, 300))
      const cancels = server.stats.cancels
      await exec(admin, `ALTER SYSTEM CANCEL SESSION '${worker.connectOptions.connectionId}'`)
      // the server counts the cancel request (ServerStats.cancels)
      expect(server.stats.cancels).toBe(cancels + 1)
      const err = await running
      expect(err.code).toBe(139)
      expect(err.sqlState).toBe("HY000")
      expect(err.message).toMatch(/cancelled by request/)
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(await exec(worker, "SELECT 'still here' AS S FROM DUMMY")).toEqual([{ S: "still here" }])
      expect((await failure(exec(admin, "ALTER SYSTEM CANCEL SESSION '999'"))).code).toBe(2)
    } finally {
      closeQuietly(worker)
      closeQuietly(admin)
    }
  })

  it("close() interrupts running statements and returns promptly", async () => {
    const other = await startHanaTestServer()
    const c = await connect({ host: other.host, port: other.port, user: other.user, password: other.password })
    const running = failure(exec(c, "SELECT COUNT(*) FROM SERIES_GENERATE_INTEGER(1, 0, 200000) a, SERIES_GENERATE_INTEGER(1, 0, 200000) b"))
    await new Promise((r) => setTimeout(r, 200))
    const started = Date.now()
    await other.close()
    expect(Date.now() - started).toBeLessThan(3000)
    expect(String((await running).code)).toMatch(/^EHDB/)
    closeQuietly(c)
  })

  it("refuses logins while refuseLogins is set", async () => {
    server.faults.refuseLogins = true
    try {
      expect((await failure(login())).code).toBe(10)
    } finally {
      server.faults.refuseLogins = undefined
    }
    closeQuietly(await login())
  })

  it("delays replies by replyDelayMs", async () => {
    const c = await login()
    try {
      server.faults.replyDelayMs = 150
      const start = Date.now()
      await exec(c, "SELECT 1 AS X FROM DUMMY")
      expect(Date.now() - start).toBeGreaterThanOrEqual(140)
    } finally {
      server.faults.replyDelayMs = undefined
      closeQuietly(c)
    }
  })

  it("holds the replies of the chosen message types until released, telling the test when one is held", async () => {
    const c = await login()
    let release!: () => void
    const until = new Promise<void>((resolve) => {
      release = resolve
    })
    let heldTypes: Array<number> = []
    let onHeld!: () => void
    const held = new Promise<void>((resolve) => {
      onHeld = resolve
    })
    try {
      // 2 = EXECUTE_DIRECT, hdb's message type for exec
      server.faults.holdReplies = {
        messageTypes: [2],
        until,
        onHeld: (type) => {
          heldTypes = [...heldTypes, type]
          onHeld()
        }
      }
      let answered = false
      const running = exec(c, "SELECT 1 AS X FROM DUMMY").then((rows) => {
        answered = true
        return rows
      })
      await held
      expect(heldTypes).toEqual([2])
      expect(answered).toBe(false)
      server.faults.holdReplies = undefined
      release()
      expect(await running).toEqual([{ X: 1 }])
    } finally {
      server.faults.holdReplies = undefined
      release()
      closeQuietly(c)
    }
  })

  it("drops a session after N replies", async () => {
    const c = await login()
    const closed = new Promise<void>((resolve) => c.on("close", () => resolve()))
    server.faults.dropAfterReplies = 2
    try {
      await exec(c, "SELECT 1 AS X FROM DUMMY")
      await exec(c, "SELECT 2 AS X FROM DUMMY")
      await closed
      const err = await failure(exec(c, "SELECT 3 AS X FROM DUMMY"))
      expect(String(err.code)).toMatch(/^EHDB/)
    } finally {
      server.faults.dropAfterReplies = undefined
      closeQuietly(c)
    }
  })

  it("drops a session in the middle of a result", async () => {
    const c: HdbClient = await login()
    try {
      server.faults.dropMidResult = true
      const err = await failure(exec(c, "SELECT * FROM SERIES_GENERATE_INTEGER(1, 0, 100)"))
      expect(String(err.code)).toMatch(/^EHDB/)
    } finally {
      server.faults.dropMidResult = undefined
      closeQuietly(c)
    }
    const other = await login()
    expect(await exec(other, "SELECT 1 AS X FROM DUMMY")).toEqual([{ X: 1 }])
    closeQuietly(other)
  })
})

describe("HanaTestServer layer", () => {
  it.effect("starts the server for the layer's scope and closes it afterwards", () =>
    Effect.gen(function* () {
      let port = 0
      yield* Effect.gen(function* () {
        const running = yield* HanaTestServer
        port = running.port
        const c = yield* Effect.promise(() => connect({ host: running.host, port: running.port, user: running.user, password: running.password }))
        const rows = yield* Effect.promise(() => exec(c, "SELECT CURRENT_USER FROM DUMMY"))
        expect(rows).toEqual([{ CURRENT_USER: "SYSTEM" }])
        closeQuietly(c)
      }).pipe(Effect.provide(HanaTestServer.layer()))
      const refused = yield* Effect.promise(() => failure(connect({ host: "127.0.0.1", port, user: "SYSTEM", password: "Manager1" })))
      expect(refused.code).toBe("EHDBOPENCONN")
    })
  )
})
