/**
 * DBMS_SESSION.SLEEP and DBMS_LOCK.SLEEP: real wall-clock waits that a break (connection.break(), a call timeout) ends
 * at once with ORA-01013, the session usable afterwards. Synchronised on V$SESSION showing the sleeping call ACTIVE,
 * not on timers.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Conn, failure, oraCode, withServer } from "./oracle/helpers.ts"

/** Starts `sql` on `conn` and resolves once another session sees `conn`'s session ACTIVE in V$SESSION. */
const startActive = async (conn: Conn, watcher: Conn, sql: string) => {
  const sid = Number((await conn.execute("SELECT SYS_CONTEXT('USERENV', 'SID') FROM DUAL")).rows[0][0])
  let settled = false
  const running = conn.execute(sql).then(
    (r: unknown) => ((settled = true), r),
    (e: unknown) => ((settled = true), Promise.reject(e))
  )
  running.catch(() => undefined)
  for (;;) {
    const rows = (await watcher.execute("SELECT status FROM v$session WHERE sid = :1", [sid])).rows
    if (rows[0]?.[0] === "ACTIVE") break
    if (settled) throw new Error("the call ended before V$SESSION showed it ACTIVE")
  }
  // wrapped: an async function returning the promise itself would wait for it
  return { running: running as Promise<unknown> }
}

describe("Oracle test server: DBMS_SESSION.SLEEP and DBMS_LOCK.SLEEP", () => {
  it("sleep for at least the seconds asked, in hundredths", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      let t = Date.now()
      await conn.execute("BEGIN DBMS_SESSION.SLEEP(0.35); END;")
      expect(Date.now() - t).toBeGreaterThanOrEqual(340)
      t = Date.now()
      await conn.execute("BEGIN DBMS_LOCK.SLEEP(0.2); END;")
      expect(Date.now() - t).toBeGreaterThanOrEqual(190)
      // no wait for zero
      await conn.execute("BEGIN DBMS_SESSION.SLEEP(0); END;")
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("a sleeping call shows ACTIVE in V$SESSION and ends with ORA-01013 at connection.break(), the session usable", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      const watcher = await connect()
      for (const sleep of ["DBMS_SESSION.SLEEP(600)", "DBMS_LOCK.SLEEP(600)"]) {
        const { running } = await startActive(conn, watcher, `BEGIN ${sleep}; END;`)
        const t = Date.now()
        await conn.break()
        const e = await failure(() => running)
        expect(oraCode(e)).toBe("ORA-01013")
        // promptly: far below the 600 s asked for
        expect(Date.now() - t).toBeLessThan(30_000)
        expect((await conn.execute("SELECT 1 FROM DUAL")).rows).toEqual([[1]])
      }
      await watcher.close()
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("a call timeout ends the sleep (the client breaks the call) and the session stays usable", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      conn.callTimeout = 300
      const t = Date.now()
      const e = await failure(() => conn.execute("BEGIN DBMS_SESSION.SLEEP(600); END;"))
      // node-oracledb reports its own timeout error (NJS-123) once the server answered the break
      expect(e.message).toMatch(/NJS-123|ORA-01013|DPI-1067/)
      expect(Date.now() - t).toBeLessThan(30_000)
      conn.callTimeout = 0
      expect((await conn.execute("SELECT 2 FROM DUAL")).rows).toEqual([[2]])
      await conn.close()
    } finally {
      await server.close()
    }
  })
})
