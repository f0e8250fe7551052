import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { OracleTestServer, VERIFIED_ORACLEDB_VERSION } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"
import { startRoundTripProxy } from "./oracle/proxy.ts"

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

  it("offers the 12c password verifier (0x4815, PBKDF2) and checks passwords case-sensitively", async () => {
    const { server, connect } = await withServer({ users: [{ name: "app", password: "S3cret!" }] })
    const proxy = await startRoundTripProxy(server.port)
    try {
      const conn = await oracledb.getConnection({ user: "app", password: "S3cret!", connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
      await conn.close()
      const bytes = proxy.serverBytes()
      // phase-one reply: AUTH_VFR_DATA's key/value flags carry the verifier type (UB4 0x4815 = 02 48 15), and the
      // PBKDF2 parameters that only the 12c verifier uses are present (node-oracledb lib/thin/protocol/messages/auth.js)
      const at = bytes.indexOf("AUTH_VFR_DATA")
      expect(at).toBeGreaterThan(0)
      expect(bytes.subarray(at, at + 120).indexOf(Buffer.from([0x02, 0x48, 0x15]))).toBeGreaterThan(0)
      expect(bytes.includes("AUTH_PBKDF2_VGEN_COUNT")).toBe(true)
      expect(bytes.includes("AUTH_PBKDF2_CSK_SALT")).toBe(true)
      // the password never crosses the wire in clear text
      expect(bytes.includes("S3cret!")).toBe(false)
      expect(oraCode(await failure(() => connect("APP", "s3cret!")))).toBe("ORA-01017")
      expect(oraCode(await failure(() => connect("APP", "S3cret")))).toBe("ORA-01017")
      const ok = await connect("app", "S3cret!")
      await ok.close()
    } finally {
      await proxy.close()
      await server.close()
    }
  })

  it("refuses an unknown SID like the listener (ORA-12505)", async () => {
    const { server } = await withServer()
    try {
      const e = await failure(() =>
        oracledb.getConnection({
          user: server.user,
          password: server.password,
          connectString: `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=${server.port}))(CONNECT_DATA=(SID=NOSUCHSID)))`
        })
      )
      expect(e.message).toContain("NJS-519")
      expect(e.message).toContain("NOSUCHSID")
    } finally {
      await server.close()
    }
  })

  it("accepts Easy Connect Plus and descriptor forms the listener knows, refuses the others as Oracle's listener does", async () => {
    const { server } = await withServer()
    const at = (cs: string) => oracledb.getConnection({ user: server.user, password: server.password, connectString: cs })
    const descriptor = (data: string) => `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=${server.port}))(CONNECT_DATA=${data}))`
    try {
      for (const cs of [
        `127.0.0.1:${server.port}/FREEPDB1`,
        `127.0.0.1:${server.port}/freepdb1:dedicated`,
        `127.0.0.1:${server.port}/FREEPDB1:dedicated/FREE`,
        descriptor("(SERVICE_NAME=FREEPDB1)(SERVER=DEDICATED)"),
        descriptor("(SID=FREE)")
      ]) {
        const c = await at(cs)
        expect((await c.execute("SELECT 1 FROM DUAL")).rows).toEqual([[1]])
        await c.close()
      }
      // an instance the listener does not know
      expect((await failure(() => at(`127.0.0.1:${server.port}/FREEPDB1:dedicated/OTHER`))).message).toContain("ORA-12521")
      // a pluggable database is a service, not an instance: its name is not a SID
      expect((await failure(() => at(descriptor("(SID=FREEPDB1)")))).message).toContain("NJS-519")
      expect(server.sessionCount()).toBe(0)
    } finally {
      await server.close()
    }
  })

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

  it("refuses the logons a refuseLogins predicate picks with ORA-01017, and lets the others in", async () => {
    const { server, connect } = await withServer({
      users: [{ name: "TEST", password: "test" }, { name: "OTHER", password: "other" }],
      faults: { refuseLogins: (user) => user === "OTHER" }
    })
    try {
      expect(oraCode(await failure(() => connect("other", "other")))).toBe("ORA-01017")
      const conn = await connect()
      await conn.ping()
      await conn.close()
      server.faults.refuseLogins = undefined
      const other = await connect("other", "other")
      await other.ping()
      await other.close()
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

  it.effect("closes the server and frees its port when the layer's scope ends", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(
        Effect.gen(function* () {
          const server = yield* OracleTestServer
          const conn: Conn = yield* Effect.promise((): Promise<Conn> => oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString }))
          expect((yield* Effect.promise((): Promise<any> => conn.execute("SELECT 1 FROM DUAL"))).rows).toEqual([[1]])
          return server.port
        }).pipe(Effect.provide(OracleTestServer.layer()))
      )
      const refused = yield* Effect.promise(() =>
        failure(() => oracledb.getConnection({ user: "TEST", password: "test", connectString: `127.0.0.1:${port}/FREEPDB1`, connectTimeout: 2 }))
      )
      expect(refused.message).toMatch(/NJS-503|NJS-500|NJS-510|ECONNREFUSED/)
    })
  )
})
