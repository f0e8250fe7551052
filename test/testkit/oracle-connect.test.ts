import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { OracleTestServer, VERIFIED_ORACLEDB_VERSION } from "../../testkit/oracle/index.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: TNS connect and O5LOGON", () => {
  it("is verified against the installed node-oracledb", () => {
    expect(oracledb.versionString).toBe(VERIFIED_ORACLEDB_VERSION)
    expect(oracledb.thin).toBe(true)
  })

  for (const version of ["23ai", "19c"] as const) {
    it(`logs on with the 12c verifier and reports the ${version} release`, async () => {
      const { server, connect } = await withServer({ version, users: [{ name: "app", password: "S3cret!" }] })
      try {
        expect(server.connectString).toBe(`127.0.0.1:${server.port}/FREEPDB1`)
        expect(server.uri).toBe(`oracle://APP:${encodeURIComponent("S3cret!")}@127.0.0.1:${server.port}/FREEPDB1`)
        const conn = await connect()
        expect(conn.oracleServerVersionString.startsWith(version === "23ai" ? "23." : "19.")).toBe(true)
        const r = await conn.execute("SELECT USER, SYS_CONTEXT('USERENV','CON_NAME') FROM DUAL")
        expect(r.rows).toEqual([["APP", "FREEPDB1"]])
        await conn.close()
      } finally {
        await server.close()
      }
    })

    it(`rejects a wrong password with ORA-01017 in the ${version} layout`, async () => {
      const { server, connect } = await withServer({ version })
      try {
        const e = await failure(() => connect(server.user, "wrong"))
        expect(oraCode(e)).toBe("ORA-01017")
        if (version === "23ai") expect(e.message).toContain("ORA-01017: invalid credential or not authorized; logon denied")
        else expect(e.message).toContain("ORA-01017: invalid username/password; logon denied")
        // node-oracledb thin appends the help URL itself; the server must not send a second one
        expect(e.message.split("Help:").length).toBe(2)
        const unknown = await failure(() => connect("NOBODY", "x"))
        expect(oraCode(unknown)).toBe("ORA-01017")
        const sys = await failure(() => connect("SYS", "sys"))
        expect(oraCode(sys)).toBe("ORA-01017")
      } finally {
        await server.close()
      }
    })
  }

  it("refuses an unknown service name like the listener (ORA-12514)", async () => {
    const { server } = await withServer()
    try {
      const e = await failure(() =>
        oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${server.port}/NOSUCHPDB` })
      )
      expect(e.message).toContain("NJS-518")
      expect(e.message).toContain("NOSUCHPDB")
      expect(server.sessionCount()).toBe(0)
    } finally {
      await server.close()
    }
  })

  it("refuses logins when the fault is switched on, and accepts them again afterwards", async () => {
    const { server, connect } = await withServer({ faults: { refuseLogins: true } })
    try {
      const e = await failure(() => connect())
      expect(e.message).toContain("ORA-12516")
      server.faults.refuseLogins = false
      const conn = await connect()
      await conn.ping()
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it.effect("is available as a scoped Effect service", () =>
    Effect.gen(function* () {
      const server = yield* OracleTestServer
      const rows = yield* Effect.promise(async () => {
        const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
        try {
          return (await conn.execute("SELECT 42 FROM DUAL")).rows
        } finally {
          await conn.close()
        }
      })
      expect(rows).toEqual([[42]])
    }).pipe(Effect.provide(OracleTestServer.layer({ version: "19c" })))
  )
})
