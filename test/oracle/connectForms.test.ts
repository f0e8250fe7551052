import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Connection from "../../src/Connection.ts"
import { installHooks, SUPPORTED_ORACLEDB_VERSION, unsupportedOracledb } from "../../layers/oracle/DbPatches.ts"
import { realOracle, useServer, withConnection } from "./support.ts"

const server = useServer({ users: [{ name: "TEST", password: "test" }, { name: "ODD", password: "p@ss:w/rd%" }] })

/** Host, port, service and credentials of the server's URI (the test server, or ORACLE_URI's real database). */
const parts = () => {
  const u = new URL(server.uri)
  return {
    host: u.hostname,
    port: u.port === "" ? "1521" : u.port,
    service: decodeURIComponent(u.pathname.slice(1)),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password)
  }
}

const currentUser = Effect.flatMap(Connection.Connection, (conn) =>
  Effect.map(conn.queryTable("SELECT USER AS U, SYS_CONTEXT('USERENV', 'SERVICE_NAME') AS S FROM DUAL"), (t) => t.get(0)!.toJSON()))

const descriptor = (p: ReturnType<typeof parts>) =>
  `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=${p.host})(PORT=${p.port}))(CONNECT_DATA=(SERVICE_NAME=${p.service})))`

describe("connecting through the driver with every connect-string form", () => {
  it.effect("an Easy Connect Plus URI path /service:serverType connects", () =>
    Effect.gen(function*() {
      const p = parts()
      const uri = `oracle://${encodeURIComponent(p.user)}:${encodeURIComponent(p.password)}@${p.host}:${p.port}/${p.service}:dedicated`
      expect((yield* withConnection(uri, currentUser))["U"]).toBe(p.user.toUpperCase())
    }))

  it.effect("a full connect descriptor with username and password options connects", () =>
    Effect.gen(function*() {
      const p = parts()
      const row = yield* withConnection(descriptor(p), currentUser, { username: p.user, password: p.password })
      expect(row["U"]).toBe(p.user.toUpperCase())
    }))

  it.effect("a tnsnames.ora alias with configDir connects (oracle://user:password@/ALIAS?configDir=...)", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        const dir = mkdtempSync(join(tmpdir(), "tns-"))
        writeFileSync(join(dir, "tnsnames.ora"), `MYDB_TEST =\n  ${descriptor(parts())}\n`)
        return dir
      }),
      (dir) =>
        Effect.gen(function*() {
          const p = parts()
          const uri = `oracle://${encodeURIComponent(p.user)}:${encodeURIComponent(p.password)}@/MYDB_TEST?configDir=${encodeURIComponent(dir)}`
          expect((yield* withConnection(uri, currentUser))["U"]).toBe(p.user.toUpperCase())
          const missing = yield* Effect.flip(withConnection(uri.replace("MYDB_TEST", "NO_SUCH_ALIAS"), currentUser))
          expect(missing.message).toContain("NO_SUCH_ALIAS")
        }),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ))

  it.effect.skipIf(realOracle)("percent-encoded URI credentials are decoded ('@', ':', '/' and '%' in a password)", () =>
    Effect.gen(function*() {
      const p = parts()
      const uri = `oracle://ODD:${encodeURIComponent("p@ss:w/rd%")}@${p.host}:${p.port}/${p.service}`
      expect((yield* withConnection(uri, currentUser))["U"]).toBe("ODD")
    }))
})

describe("the oracledb release", () => {
  it("package.json pins exactly the release the hooks were written for, as peer and dev dependency", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Record<string, Record<string, string>>
    expect(pkg["peerDependencies"]!["oracledb"]).toBe(SUPPORTED_ORACLEDB_VERSION)
    expect(pkg["devDependencies"]!["oracledb"]).toBe(SUPPORTED_ORACLEDB_VERSION)
  })

  it("another release, or one lacking a hooked internal, is refused with INTERNAL naming the supported release", () => {
    const other = unsupportedOracledb("26.1.0")
    expect(other?.status).toBe("INTERNAL")
    expect(other?.message).toContain("26.1.0")
    expect(other?.message).toContain(`oracledb@${SUPPORTED_ORACLEDB_VERSION}`)
    const lacking = unsupportedOracledb(SUPPORTED_ORACLEDB_VERSION, ["BaseBuffer.parseOracleDate"])
    expect(lacking?.status).toBe("INTERNAL")
    expect(lacking?.message).toContain("BaseBuffer.parseOracleDate")
    expect(unsupportedOracledb(SUPPORTED_ORACLEDB_VERSION)).toBeUndefined()
    // the installed release passes the check, hooks included
    expect(installHooks()).toBeUndefined()
  })
})
