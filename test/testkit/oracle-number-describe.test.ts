import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/** [type name, precision, scale] of each result column, as node-oracledb reads Oracle's describe information. */
const described = async (sql: string) =>
  (await conn.execute(sql, [], numbersAsText)).metaData.map((m: { dbTypeName: string; precision: number; scale: number }) => [m.dbTypeName, m.precision, m.scale])

// What Oracle sends (testkit/oracle/number-describe.ts cites each): a value computed over columns (arithmetic,
// functions, CASE, COUNT / SUM / AVG, COUNT(*)) precision 0 and scale 0 (JDBC: `X1 / X2`, `COUNT(*)`, `AVG(bar)`);
// a constant (`0.1`, `1/10`) precision 0 and scale -127, as NUMBER without precision; a subquery's column keeps its
// item's description (JDBC: `X1` of `SELECT X1 FROM (SELECT 1 AS X1 FROM DUAL)` is 0, -127).
const COMPUTED = ["NUMBER", 0, 0]
const UNBOUNDED = ["NUMBER", 0, -127]

describe("Oracle test server: NUMBER expressions described as Oracle describes them, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nd (id NUMBER(3), v NUMBER, p NUMBER(10,2))")
    await conn.execute("INSERT INTO nd VALUES (1, 2.5, 12.25)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("describes COUNT(*), SUM, AVG, functions and CASE over columns with precision 0 and scale 0", async () => {
    expect(await described("SELECT COUNT(*), SUM(v), SUM(p), AVG(p) a, COUNT(p) FROM nd")).toEqual(Array(5).fill(COMPUTED))
    expect(await described("SELECT ROUND(p, 1), TRUNC(p), ABS(v), NVL(p, 0) n, CASE WHEN id = 1 THEN p ELSE 0 END, DECODE(id, 1, p, 2) FROM nd")).toEqual(Array(6).fill(COMPUTED))
    expect(await described("SELECT SUM(p) OVER (), COUNT(*) OVER () FROM nd")).toEqual([COMPUTED, COMPUTED])
    // CAST gives its declared type; MIN / MAX their argument's; a column its own
    expect(await described("SELECT CAST(p AS NUMBER(5,1)), CAST(p AS NUMBER), p FROM nd")).toEqual([["NUMBER", 5, 1], UNBOUNDED, ["NUMBER", 10, 2]])
    expect(await described("SELECT MAX(p), MIN(v) FROM nd")).toEqual([["NUMBER", 10, 2], UNBOUNDED])
  })

  it("describes a literal with a fraction, and constants, as NUMBER without precision (precision 0, scale -127)", async () => {
    expect(await described("SELECT 1.5, -1.5 x, 1/10, ROUND(1.5) FROM dual")).toEqual(Array(4).fill(UNBOUNDED))
  })

  it("describes a FROM subquery's columns as the subquery's items, read through SELECT *, by name or qualified", async () => {
    expect(await described("SELECT * FROM (SELECT 1.5 l, SUM(p) s, ROUND(p, 1) r, p, id FROM nd GROUP BY p, id)")).toEqual([UNBOUNDED, COMPUTED, COMPUTED, ["NUMBER", 10, 2], ["NUMBER", 3, 0]])
    expect(await described("SELECT r, l, id FROM (SELECT 1.5 l, ROUND(p, 1) r, id FROM nd)")).toEqual([COMPUTED, UNBOUNDED, ["NUMBER", 3, 0]])
    expect(await described("SELECT q.*, nd.p FROM (SELECT COUNT(*) c, 0.25 f FROM nd) q, nd")).toEqual([COMPUTED, UNBOUNDED, ["NUMBER", 10, 2]])
    // nested subqueries pass their items' descriptions on
    expect(await described("SELECT * FROM (SELECT * FROM (SELECT 1.5 x, p FROM nd))")).toEqual([UNBOUNDED, ["NUMBER", 10, 2]])
    // and a table's declared columns through a subquery's SELECT * (VARCHAR2(10), not the engine's VARCHAR2(4000))
    await conn.execute("CREATE TABLE nds (s VARCHAR2(10), p NUMBER(10,2))")
    const r = await conn.execute("SELECT s, x.* FROM (SELECT * FROM nds) x")
    expect(r.metaData.map((m: { dbTypeName: string; byteSize?: number; precision?: number }) => [m.dbTypeName, m.byteSize ?? m.precision])).toEqual([["VARCHAR2", 10], ["VARCHAR2", 10], ["NUMBER", 10]])
  })
})
