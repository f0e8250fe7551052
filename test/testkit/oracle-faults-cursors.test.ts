import { describe, expect, it } from "@effect/vitest"
import { type Conn, oracledb, withServer } from "./oracle/helpers.ts"

/** The session id of a raw connection. */
const sidOf = async (conn: Conn): Promise<number> =>
  Number((await conn.execute("SELECT SYS_CONTEXT('USERENV', 'SID') FROM DUAL")).rows[0][0])

/** 'opened cursors current' of session `sid`, read by another session, as Oracle's V$SESSTAT shows it. */
const openedCursorsCurrent = async (watcher: Conn, sid: number): Promise<number> =>
  Number(
    (await watcher.execute(
      "SELECT s.value FROM v$sesstat s JOIN v$statname n ON n.statistic# = s.statistic# WHERE n.name = 'opened cursors current' AND s.sid = :1",
      [sid]
    )).rows[0][0]
  )

/** SQL_TEXT of the cursors V$OPEN_CURSOR lists for session `sid`. */
const openCursorTexts = async (watcher: Conn, sid: number): Promise<Array<string>> =>
  (await watcher.execute("SELECT sql_text FROM v$open_cursor WHERE sid = :1 ORDER BY sql_text", [sid])).rows.map(
    (r: Array<string>) => r[0]
  )

const seed = async (conn: Conn, rows: number) => {
  await conn.execute("CREATE TABLE t (n NUMBER(10))")
  await conn.executeMany("INSERT INTO t VALUES (:1)", Array.from({ length: rows }, (_, i) => [i]))
  await conn.commit()
}

describe("Oracle test server: open cursors per session", () => {
  it("V$SESSTAT 'opened cursors current' and V$OPEN_CURSOR count a result set left open, and drop it once the client closes its cursor", async () => {
    const { server, connect } = await withServer()
    try {
      // without a statement cache oracledb closes a statement's cursor (CLOSE_CURSORS) on its next round trip
      const runner = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString, stmtCacheSize: 0 })
      await seed(runner, 500)
      const watcher = await connect()
      const sid = await sidOf(runner)
      await runner.ping()
      const before = await openedCursorsCurrent(watcher, sid)
      const rs = (await runner.execute("SELECT n FROM t ORDER BY n", [], { resultSet: true, fetchArraySize: 10, prefetchRows: 10 })).resultSet
      expect((await rs.getRows(10)).length).toBe(10)
      expect(await openedCursorsCurrent(watcher, sid)).toBe(before + 1)
      expect(await openCursorTexts(watcher, sid)).toContain("SELECT n FROM t ORDER BY n")
      expect(server.openResultSets()).toBe(1)
      await rs.close()
      await runner.ping()
      expect(await openedCursorsCurrent(watcher, sid)).toBe(before)
      expect(await openCursorTexts(watcher, sid)).not.toContain("SELECT n FROM t ORDER BY n")
      expect(server.openResultSets()).toBe(0)
      await runner.close()
      await watcher.close()
    } finally {
      await server.close()
    }
  })

  it("a cached statement closed part-read keeps its cursor but its result is cancelled (CANCEL_CURSORS); executing it again reads from the start", async () => {
    const { server, connect } = await withServer()
    try {
      const runner = await connect()
      await seed(runner, 500)
      const watcher = await connect()
      const sid = await sidOf(runner)
      const sql = "SELECT n FROM t ORDER BY n"
      const rs = (await runner.execute(sql, [], { resultSet: true, fetchArraySize: 10, prefetchRows: 10 })).resultSet
      expect((await rs.getRows(10)).length).toBe(10)
      expect(server.openResultSets()).toBe(1)
      await rs.close()
      await runner.ping()
      expect(server.openResultSets()).toBe(0)
      // the statement cache keeps the cursor: Oracle still lists it as open
      expect(await openCursorTexts(watcher, sid)).toContain(sql)
      const all = await runner.execute(sql, [], { fetchArraySize: 100 })
      expect(all.rows.map((r: Array<number>) => r[0])).toEqual(Array.from({ length: 500 }, (_, i) => i))
      expect(server.openResultSets()).toBe(0)
      await runner.close()
      await watcher.close()
    } finally {
      await server.close()
    }
  })

  it("result sets never closed stay open, one cursor each, until the session ends", async () => {
    const { server, connect } = await withServer()
    try {
      const runner = await connect()
      await seed(runner, 500)
      const watcher = await connect()
      const sid = await sidOf(runner)
      const before = await openedCursorsCurrent(watcher, sid)
      const leaked: Array<Conn> = []
      for (let i = 0; i < 3; i++) {
        const rs = (await runner.execute("SELECT n FROM t", [], { resultSet: true, fetchArraySize: 10, prefetchRows: 10 })).resultSet
        await rs.getRows(10)
        leaked.push(rs)
      }
      await runner.ping()
      expect(server.openResultSets()).toBe(3)
      expect(await openedCursorsCurrent(watcher, sid)).toBeGreaterThanOrEqual(before + 3)
      expect((await openCursorTexts(watcher, sid)).filter((t) => t === "SELECT n FROM t")).toHaveLength(3)
      await runner.close()
      // the server ends the session once the client's EOF arrives
      for (let i = 0; i < 100 && server.sessionCount() > 1; i++) await new Promise((r) => setTimeout(r, 10))
      expect(server.openResultSets()).toBe(0)
      // the ended session is gone from the views
      expect(await openCursorTexts(watcher, sid)).toEqual([])
      await watcher.close()
    } finally {
      await server.close()
    }
  })

  it("a result set fetched to the end holds no open result", async () => {
    const { server, connect } = await withServer()
    try {
      const runner = await connect()
      await seed(runner, 30)
      const rs = (await runner.execute("SELECT n FROM t", [], { resultSet: true, fetchArraySize: 100 })).resultSet
      expect((await rs.getRows(100)).length).toBe(30)
      expect(server.openResultSets()).toBe(0)
      await rs.close()
      await runner.close()
    } finally {
      await server.close()
    }
  })
})
