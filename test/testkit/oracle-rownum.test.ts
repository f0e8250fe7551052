import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// ROWNUM as the SQL Language Reference describes it ("ROWNUM Pseudocolumn",
// https://docs.oracle.com/cd/B13789_01/server.101/b10759/pseudocolumns008.htm): numbered as rows pass the WHERE
// clause, before grouping and ORDER BY; "Conditions testing for ROWNUM values greater than a positive integer are
// always false"; an ORDER BY in a subquery orders the rows the enclosing query numbers (the top-N and pagination
// idioms); `UPDATE my_table SET column1 = ROWNUM` numbers the rows it updates. Through raw node-oracledb.
let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string, binds: ReadonlyArray<unknown> = []) => (await conn.execute(sql, binds)).rows as Array<Array<unknown>>
const column = async (sql: string, binds: ReadonlyArray<unknown> = []) => (await rows(sql, binds)).map((r) => r[0])

describe("Oracle test server: ROWNUM in select lists, subqueries, aggregates and DML, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE rn_t (n NUMBER, s VARCHAR2(10))")
    await conn.executeMany("INSERT INTO rn_t VALUES (:1, :2)", Array.from({ length: 50 }, (_, i) => [(i * 37) % 50, i % 2 === 0 ? "even" : "odd"]))
    await conn.execute("CREATE TABLE rn_copy (n NUMBER, s VARCHAR2(10))")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("numbers the rows of a select list 1..n, headed ROWNUM, before the query's ORDER BY", async () => {
    const r = await conn.execute("SELECT ROWNUM, n FROM rn_t")
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["ROWNUM", "N"])
    expect(r.rows.map((x: Array<number>) => x[0])).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    // numbered first, then sorted: the numbers follow the rows, not the order
    const sorted = await rows("SELECT ROWNUM rn, n FROM rn_t ORDER BY n")
    expect(sorted.map((x) => x[1])).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(sorted.map((x) => x[0]).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    expect(await column("SELECT MOD(ROWNUM, 2) FROM rn_t WHERE ROWNUM <= 4")).toEqual([1, 0, 1, 0])
    expect(await column("SELECT ROWNUM FROM dual")).toEqual([1])
  })

  it("numbers the rows of an ordered subquery in its order: top-N and the pagination idiom", async () => {
    expect(await column("SELECT n FROM (SELECT n FROM rn_t ORDER BY n DESC) WHERE ROWNUM <= 3")).toEqual([49, 48, 47])
    const page = await rows("SELECT * FROM (SELECT a.*, ROWNUM rn FROM (SELECT n FROM rn_t ORDER BY n) a WHERE ROWNUM <= 20) WHERE rn > 10")
    expect(page).toEqual(Array.from({ length: 10 }, (_, i) => [10 + i, 11 + i]))
    expect(await rows("SELECT * FROM (SELECT ROWNUM rn, n FROM (SELECT n FROM rn_t ORDER BY n DESC)) WHERE rn = 2")).toEqual([[2, 48]])
  })

  it("limits a subquery's rows, also with a bind, and keeps a scalar subquery's heading as written", async () => {
    expect(await column("SELECT COUNT(*) FROM (SELECT n FROM rn_t WHERE s = 'odd' AND ROWNUM <= 7)")).toEqual([7])
    expect(await column("SELECT COUNT(*) FROM (SELECT n FROM rn_t WHERE ROWNUM <= :lim)", [4])).toEqual([4])
    const scalar = await conn.execute("SELECT (SELECT s FROM rn_t WHERE n = 3 AND ROWNUM = 1) FROM dual")
    expect(scalar.metaData[0].name).toBe("(SELECTSFROMRN_TWHEREN=3ANDROWNUM=1)")
    expect(scalar.rows).toEqual([["odd"]])
  })

  it("counts, aggregates, groups and de-duplicates only the rows the ROWNUM condition lets through", async () => {
    expect(await column("SELECT COUNT(*) FROM rn_t WHERE ROWNUM <= 1")).toEqual([1])
    expect(await column("SELECT COUNT(*) FROM rn_t WHERE s = 'even' AND ROWNUM < 6")).toEqual([5])
    expect(await column("SELECT SUM(c) FROM (SELECT s, COUNT(*) c FROM rn_t WHERE ROWNUM <= 9 GROUP BY s)")).toEqual([9])
    expect(await column("SELECT COUNT(*) FROM (SELECT DISTINCT n FROM rn_t WHERE ROWNUM <= 6)")).toEqual([6])
    // each branch of a set operation is limited on its own
    expect(await column("SELECT COUNT(*) FROM (SELECT n FROM rn_t WHERE ROWNUM <= 2 UNION ALL SELECT n FROM rn_t WHERE ROWNUM <= 3)")).toEqual([5])
    // numbered and limited first, then sorted: the numbers are 1..3
    const ordered = await rows("SELECT ROWNUM, n FROM rn_t WHERE ROWNUM <= 3 ORDER BY n")
    expect(ordered.map((x) => x[0]).sort()).toEqual([1, 2, 3])
  })

  it("reads conditions that can never or always hold as Oracle does", async () => {
    for (const condition of ["ROWNUM > 1", "ROWNUM = 2", "ROWNUM >= 2", "ROWNUM < 1", "ROWNUM <= 0.5", "ROWNUM BETWEEN 2 AND 5", "ROWNUM <> 1"])
      expect(await column(`SELECT COUNT(*) FROM (SELECT n FROM rn_t WHERE ${condition})`), condition).toEqual([0])
    for (const [condition, count] of [["ROWNUM > 0", 50], ["ROWNUM >= 1", 50], ["ROWNUM <> 4", 3], ["ROWNUM BETWEEN 1 AND 2", 2], ["ROWNUM <= 2.7", 2], ["ROWNUM < 2.2", 2], ["ROWNUM <= '3'", 3]] as const)
      expect(await column(`SELECT COUNT(*) FROM (SELECT n FROM rn_t WHERE ${condition})`), condition).toEqual([count])
    expect(await column("SELECT n FROM rn_t WHERE ROWNUM > 1")).toEqual([])
    expect(oraCode(await failure(() => conn.execute("SELECT n FROM rn_t WHERE ROWNUM <= 'x'")))).toBe("ORA-01722")
  })

  it("INSERT ... SELECT, DELETE and UPDATE write only the first rows the condition selects", async () => {
    expect((await conn.execute("INSERT INTO rn_copy SELECT n, s FROM rn_t WHERE s = 'odd' AND ROWNUM <= 4")).rowsAffected).toBe(4)
    expect(await column("SELECT COUNT(*) FROM rn_copy WHERE s = 'odd'")).toEqual([4])
    expect((await conn.execute("UPDATE rn_t SET s = 'picked' WHERE s = 'even' AND ROWNUM <= 3")).rowsAffected).toBe(3)
    expect(await column("SELECT COUNT(*) FROM rn_t WHERE s = 'picked'")).toEqual([3])
    expect((await conn.execute("DELETE FROM rn_t WHERE ROWNUM <= 5 AND s = 'picked'")).rowsAffected).toBe(3)
    expect((await conn.execute("DELETE FROM rn_t WHERE ROWNUM <= :k", [2])).rowsAffected).toBe(2)
    expect(await column("SELECT COUNT(*) FROM rn_t")).toEqual([45])
    await conn.rollback()
    expect(await column("SELECT COUNT(*) FROM rn_t")).toEqual([50])
  })

  it("UPDATE ... SET c = ROWNUM numbers the rows it updates 1..k", async () => {
    expect((await conn.execute("UPDATE rn_t SET n = ROWNUM")).rowsAffected).toBe(50)
    expect(await column("SELECT n FROM rn_t ORDER BY n")).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    expect((await conn.execute("UPDATE rn_t x SET x.n = ROWNUM * 100 WHERE x.s = 'odd'")).rowsAffected).toBe(25)
    expect(await column("SELECT n FROM rn_t WHERE s = 'odd' ORDER BY n")).toEqual(Array.from({ length: 25 }, (_, i) => (i + 1) * 100))
    await conn.rollback()
  })

  it("refuses ROWNUM where it is not modelled with ORA-03001, never a wrong answer", async () => {
    for (const sql of [
      "SELECT n FROM rn_t WHERE ROWNUM <= 1 OR n = 5",
      "SELECT ROWNUM, COUNT(*) FROM rn_t GROUP BY ROWNUM",
      "SELECT COUNT(*) FROM rn_t a, rn_copy b WHERE ROWNUM <= 1"
    ]) expect(oraCode(await failure(() => conn.execute(sql))), sql).toBe("ORA-03001")
  })
})
