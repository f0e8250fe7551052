import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { oraCode, oracledb, withSessions } from "./oracle/helpers.ts"

// A cursor FOR UPDATE SKIP LOCKED locks its rows as they are fetched, not when it is executed or opened (a plain FOR
// UPDATE cursor locks them all then): https://yeahexp.com/select-for-update-skip-locked/ and D. Nikiforov, "SKIP
// LOCKED and the locking moment" (http://dnikiforov.blogspot.com/2009/03/skip-locked-and-locking-moment.html). A row
// the server sends is fetched: oracledb asks for prefetchRows rows with the execute and fetchArraySize rows per fetch.
// So two workers reading the same queue page by page share its rows: each gets and locks the rows the other has not
// fetched yet.
describe("Oracle test server: SKIP LOCKED cursors lock the rows each fetch sends", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  let c: Conn
  beforeAll(async () => {
    env = await withSessions(3)
    ;[a, b, c] = env.sessions
    for (const t of ["sf_rs", "sf_lob", "sf_dyn", "sf_dyn_out", "sf_rc", "sf_commit"]) {
      await a.execute(`CREATE TABLE ${t} (id NUMBER PRIMARY KEY, doc CLOB)`)
      await a.executeMany(`INSERT INTO ${t} VALUES (:1, :2)`, [1, 2, 3, 4, 5, 6].map((id) => [id, `doc ${id}`]), { autoCommit: true })
    }
  })
  afterAll(() => env?.close())

  /** Whether session c's NOWAIT lock of row `id` fails (ORA-00054: another session holds it). */
  const heldByOther = async (table: string, id: number): Promise<boolean> => {
    try {
      await c.execute(`SELECT id FROM ${table} WHERE id = :1 FOR UPDATE NOWAIT`, [id])
      return false
    } catch (e) {
      if (oraCode(e) === "ORA-00054") return true
      throw e
    } finally {
      await c.rollback()
    }
  }
  const held = async (table: string): Promise<Array<number>> => {
    const out: Array<number> = []
    for (const id of [1, 2, 3, 4, 5, 6]) if (await heldByOther(table, id)) out.push(id)
    return out
  }
  const ids = (rows: ReadonlyArray<ReadonlyArray<unknown>>) => rows.map((r) => r[0])

  it("a client's query through a result set locks the rows of each page it fetches; another session's SKIP LOCKED query gets the rest (was: every row at execute)", async () => {
    const sql = "SELECT id FROM sf_rs ORDER BY id FOR UPDATE SKIP LOCKED"
    const opened = await a.execute(sql, [], { resultSet: true, prefetchRows: 2, fetchArraySize: 2 })
    const rs = opened.resultSet
    // the execute sent two rows (prefetchRows), the first getRows a further page
    expect(ids(await rs.getRows(2))).toEqual([1, 2])
    expect(ids(await rs.getRows(2))).toEqual([3, 4])
    expect(await held("sf_rs")).toEqual([1, 2, 3, 4])
    // the rows a has not fetched are free: b takes them
    expect(ids((await b.execute(sql)).rows)).toEqual([5, 6])
    // and a's next fetch skips them
    expect(await rs.getRows(2)).toEqual([])
    await rs.close()
    await b.rollback()
    expect(await held("sf_rs")).toEqual([1, 2, 3, 4])
    await a.rollback()
    expect(await held("sf_rs")).toEqual([])
  })

  // a stream reads ahead of its consumer only up to its buffer (16 rows) and a page: far fewer than the table holds
  it("a client's queryStream and another session's SKIP LOCKED query share the rows, each row once (was: the stream locked every row at execute)", async () => {
    await a.execute("CREATE TABLE sf_stream (id NUMBER PRIMARY KEY)")
    await a.executeMany("INSERT INTO sf_stream VALUES (:1)", Array.from({ length: 60 }, (_, k) => [k + 1]), { autoCommit: true })
    const sql = "SELECT id FROM sf_stream ORDER BY id FOR UPDATE SKIP LOCKED"
    const rows = a.queryStream(sql, [], { prefetchRows: 2, fetchArraySize: 2 })[Symbol.asyncIterator]()
    const mine = [(await rows.next()).value[0]]
    const taken = ids((await b.execute(sql)).rows)
    expect(taken.length).toBeGreaterThan(30)
    for (let r = await rows.next(); r.done !== true; r = await rows.next()) mine.push(r.value[0])
    // the stream may still be fetching while b's query runs: the two share the rows between them, each row once
    expect(mine.slice(0, 2)).toEqual([1, 2])
    expect([...mine, ...taken].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1))
    await a.rollback()
    await b.rollback()
  })

  it("a query with a LOB column locks as it fetches too, and its locators still read their rows", async () => {
    const sql = "SELECT id, doc FROM sf_lob ORDER BY id FOR UPDATE SKIP LOCKED"
    const rs = (await a.execute(sql, [], { resultSet: true, prefetchRows: 2, fetchArraySize: 2, fetchInfo: { DOC: { type: oracledb.STRING } } })).resultSet
    expect(await rs.getRows(2)).toEqual([
      [1, "doc 1"],
      [2, "doc 2"]
    ])
    expect(ids((await b.execute("SELECT id FROM sf_lob ORDER BY id FOR UPDATE SKIP LOCKED", [], { maxRows: 0 })).rows)).toEqual([3, 4, 5, 6])
    expect(await rs.getRows(2)).toEqual([])
    await rs.close()
    await a.rollback()
    await b.rollback()
    // more rows than the define call sends (prefetchRows): the fetch after it brings the rest
    const lobs = await a.execute("SELECT id, doc FROM sf_lob WHERE id >= 2 ORDER BY id FOR UPDATE SKIP LOCKED")
    expect(await Promise.all(lobs.rows.map(async ([id, lob]: [number, { getData(): Promise<string> }]) => [id, await lob.getData()]))).toEqual([2, 3, 4, 5, 6].map((id) => [id, `doc ${id}`]))
    expect(await held("sf_lob")).toEqual([2, 3, 4, 5, 6])
    await a.rollback()
  })

  it("a dynamic OPEN FOR 'text' fetched once in a block locks one row (was: every row at OPEN)", async () => {
    await a.execute(`DECLARE rc SYS_REFCURSOR; v NUMBER;
BEGIN
  OPEN rc FOR 'SELECT id FROM sf_dyn WHERE id > :lo ORDER BY id FOR UPDATE SKIP LOCKED' USING 1;
  FETCH rc INTO v;
  CLOSE rc;
END;`)
    expect(await held("sf_dyn")).toEqual([2])
    await a.rollback()
  })

  it("a dynamic OPEN FOR 'text' returned to the client locks nothing at OPEN and skips a row another session locked meanwhile (was: every row at OPEN)", async () => {
    const opened = await a.execute("BEGIN OPEN :rc FOR 'SELECT id FROM sf_dyn_out ORDER BY id FOR UPDATE SKIP LOCKED'; END;", { rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } })
    expect((await b.execute("SELECT id FROM sf_dyn_out WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[1]])
    const rc = opened.outBinds.rc
    expect(ids(await rc.getRows())).toEqual([2, 3, 4, 5, 6])
    await rc.close()
    await b.rollback()
    expect(await held("sf_dyn_out")).toEqual([2, 3, 4, 5, 6])
    await a.rollback()
  })

  it("a REF CURSOR the client fetches page by page locks the rows sent, not those the server read ahead (was: a whole read chunk)", async () => {
    const opened = await a.execute("BEGIN OPEN :rc FOR SELECT id FROM sf_rc ORDER BY id FOR UPDATE SKIP LOCKED; END;", { rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } }, { fetchArraySize: 2 })
    const rc = opened.outBinds.rc
    expect(ids(await rc.getRows(2))).toEqual([1, 2])
    expect(await held("sf_rc")).toEqual([1, 2])
    expect(ids((await b.execute("SELECT id FROM sf_rc ORDER BY id FOR UPDATE SKIP LOCKED")).rows)).toEqual([3, 4, 5, 6])
    expect(await rc.getRows(2)).toEqual([])
    await rc.close()
    await a.rollback()
    await b.rollback()
  })

  it("with autoCommit the rows the execute sent are released by its commit", async () => {
    const rs = (await a.execute("SELECT id FROM sf_commit ORDER BY id FOR UPDATE SKIP LOCKED", [], { resultSet: true, prefetchRows: 2, fetchArraySize: 2, autoCommit: true })).resultSet
    expect(ids(await rs.getRows(2))).toEqual([1, 2])
    expect(await held("sf_commit")).toEqual([])
    await rs.close()
    await a.rollback()
  })

  // "If the cursor has been opened with the FOR UPDATE clause, fetching after a COMMIT has been issued will return the
  // error" (Database Error Messages, ORA-01002 "fetch out of sequence"); the rows are not locked in a new transaction
  it("a fetch after the transaction the cursor locked its rows in ended is ORA-01002, and locks nothing", async () => {
    // texts of their own: oracledb thin sends no commit option when it re-executes a cached query and fetches
    // (lib/thin/protocol/messages/execute.js, TNS_FUNC_REEXECUTE_AND_FETCH)
    const sql = "SELECT id after_commit FROM sf_commit ORDER BY id FOR UPDATE SKIP LOCKED"
    const auto = (await a.execute("SELECT id after_autocommit FROM sf_commit ORDER BY id FOR UPDATE SKIP LOCKED", [], { resultSet: true, prefetchRows: 2, fetchArraySize: 2, autoCommit: true })).resultSet
    expect(ids(await auto.getRows(2))).toEqual([1, 2])
    expect(oraCode(await auto.getRows(2).then(() => undefined, (e: unknown) => e))).toBe("ORA-01002")
    expect(await held("sf_commit")).toEqual([])
    await auto.close().catch(() => undefined)
    const committed = (await a.execute(sql, [], { resultSet: true, prefetchRows: 2, fetchArraySize: 2 })).resultSet
    expect(ids(await committed.getRows(2))).toEqual([1, 2])
    await a.commit()
    expect(oraCode(await committed.getRows(2).then(() => undefined, (e: unknown) => e))).toBe("ORA-01002")
    expect(await held("sf_commit")).toEqual([])
    await committed.close().catch(() => undefined)
    // a PL/SQL cursor loop committing inside, the classic shape of the error
    const loop = a.execute(`BEGIN FOR r IN (SELECT id FROM sf_commit ORDER BY id FOR UPDATE SKIP LOCKED) LOOP COMMIT; END LOOP; END;`)
    expect(oraCode(await loop.then(() => undefined, (e: unknown) => e))).toBe("ORA-01002")
    await a.rollback()
  })
})
