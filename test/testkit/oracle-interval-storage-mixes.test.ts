import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows as plain, openConnection, ym } from "./oracle/helpers.ts"

// Exact interval columns (INTERVAL DAY(9) TO SECOND(9), YEAR(9) TO MONTH, stored as numbers) where a query passes them
// on: subqueries and WITH blocks, set operations mixing them with DAY TO SECOND(0-6) / YEAR(2) TO MONTH columns and
// literals, views and CREATE TABLE AS. Oracle's set operations convert the branches' values to one type of the kind
// ("The UNION [ALL], INTERSECT, MINUS Operators", SQL Language Reference), and views and CTAS give what their query gives.
const DS = "INTERVAL DAY TO SECOND"
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)

describe("Oracle test server: exact intervals passed on by subqueries, set operations, views and CTAS (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => plain((await conn.execute(sql)).rows)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ivm (id NUMBER, d9 INTERVAL DAY(9) TO SECOND(9), d6 INTERVAL DAY(2) TO SECOND(6), y9 INTERVAL YEAR(9) TO MONTH, y2 INTERVAL YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivm VALUES (1, INTERVAL '1 00:00:00.123456789' DAY(9) TO SECOND(9), INTERVAL '2 00:00:00' DAY TO SECOND, INTERVAL '999999999-11' YEAR(9) TO MONTH, INTERVAL '1-2' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivm VALUES (2, INTERVAL '0 00:00:00.000000001' DAY(9) TO SECOND(9), NULL, INTERVAL '5-1' YEAR(9) TO MONTH, NULL)")
    await conn.execute("INSERT INTO ivm VALUES (3, NULL, INTERVAL '3 00:00:00' DAY TO SECOND, NULL, INTERVAL '0-3' YEAR TO MONTH)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("orders a subquery's aliased exact interval and reads a one-column subquery or WITH block by the column's name (were ORA-00902 / ORA-00904)", async () => {
    expect(await rows("SELECT x FROM (SELECT d9 x FROM ivm WHERE d9 IS NOT NULL) ORDER BY x")).toEqual([[ds(0, 0, 0, 0, 1)], [ds(1, 0, 0, 0, 123456789)]])
    expect(await rows("SELECT x FROM (SELECT y9 x FROM ivm WHERE y9 IS NOT NULL) ORDER BY x DESC")).toEqual([[ym(999999999, 11)], [ym(5, 1)]])
    expect(await rows("SELECT d9 FROM (SELECT d9 FROM ivm) WHERE d9 IS NOT NULL ORDER BY d9")).toEqual([[ds(0, 0, 0, 0, 1)], [ds(1, 0, 0, 0, 123456789)]])
    expect(await rows("WITH w AS (SELECT d9 FROM ivm) SELECT MAX(d9) FROM w")).toEqual([[ds(1, 0, 0, 0, 123456789)]])
    expect(await rows("WITH w AS (SELECT y9 FROM ivm) SELECT MIN(y9) FROM w")).toEqual([[ym(5, 1)]])
  })

  it("mixes exact and DuckDB-stored intervals and literals in UNION [ALL], INTERSECT and MINUS, on every digit (were ORA-01722 / ORA-00932)", async () => {
    const all = await conn.execute("SELECT d9 FROM ivm WHERE id = 1 UNION ALL SELECT d6 FROM ivm WHERE id = 1")
    expect(plain(all.rows)).toEqual([[ds(1, 0, 0, 0, 123456789)], [ds(2, 0, 0, 0, 0)]])
    expect(typeNames(all)).toEqual([DS])
    expect(await rows("SELECT y9 FROM ivm WHERE id = 1 UNION ALL SELECT y2 FROM ivm WHERE id = 1")).toEqual([[ym(999999999, 11)], [ym(1, 2)]])
    expect(await rows("SELECT d6 x FROM ivm WHERE id = 1 UNION SELECT d9 FROM ivm WHERE d9 IS NOT NULL UNION SELECT INTERVAL '1' DAY FROM dual ORDER BY 1")).toEqual([
      [ds(0, 0, 0, 0, 1)],
      [ds(1, 0, 0, 0, 0)],
      [ds(1, 0, 0, 0, 123456789)],
      [ds(2, 0, 0, 0, 0)]
    ])
    // a value of one storage equal to a value of the other meets it
    await conn.execute("INSERT INTO ivm (id, d9, d6) VALUES (4, INTERVAL '2' DAY, INTERVAL '0 00:00:00.5' DAY TO SECOND)")
    // set operations take NULLs as equal
    expect(await rows("SELECT d9 FROM ivm INTERSECT SELECT d6 FROM ivm ORDER BY 1")).toEqual([[ds(2, 0, 0, 0, 0)], [null]])
    expect(await rows("SELECT d6 FROM ivm WHERE d6 IS NOT NULL MINUS SELECT d9 FROM ivm ORDER BY 1")).toEqual([[ds(0, 0, 0, 0, 500000000)], [ds(3, 0, 0, 0, 0)]])
    await conn.rollback()
  })

  it("computes with a scalar subquery of an exact interval as an operand of arithmetic (was ORA-00932)", async () => {
    expect(await rows("SELECT (SELECT d9 FROM ivm WHERE id = 1) + INTERVAL '1' DAY, (SELECT MAX(y9) FROM ivm) - INTERVAL '1' MONTH, (SELECT d9 FROM ivm WHERE id = 2) * 2 FROM dual")).toEqual([
      [ds(2, 0, 0, 0, 123456789), ym(999999999, 10), ds(0, 0, 0, 0, 2)]
    ])
    expect(await rows("SELECT id FROM ivm WHERE d9 < (SELECT d9 FROM ivm WHERE id = 2) + INTERVAL '1' SECOND")).toEqual([[2]])
  })

  it("gives LAG, LEAD, FIRST_VALUE and LAST_VALUE of an exact interval as the interval (was its stored NUMBER)", async () => {
    const r = await conn.execute("SELECT LAG(d9) OVER (ORDER BY id), FIRST_VALUE(d9) OVER (ORDER BY id), LEAD(y9, 1) OVER (ORDER BY id), LAST_VALUE(y9 IGNORE NULLS) OVER (ORDER BY id) FROM ivm WHERE id < 3 ORDER BY id")
    expect(typeNames(r)).toEqual([DS, DS, "INTERVAL YEAR TO MONTH", "INTERVAL YEAR TO MONTH"])
    expect(plain(r.rows)).toEqual([
      [null, ds(1, 0, 0, 0, 123456789), ym(5, 1), ym(999999999, 11)],
      [ds(1, 0, 0, 0, 123456789), ds(1, 0, 0, 0, 123456789), null, ym(5, 1)]
    ])
    // with a default of the other storage or a literal
    const d = await conn.execute("SELECT LAG(d9, 1, INTERVAL '1' DAY) OVER (ORDER BY id), LEAD(d9, 1, d6) OVER (ORDER BY id), LAG(y9, 1, INTERVAL '1' MONTH) OVER (ORDER BY id) FROM ivm WHERE id < 3 ORDER BY id")
    expect(typeNames(d)).toEqual([DS, DS, "INTERVAL YEAR TO MONTH"])
    expect(plain(d.rows)).toEqual([
      [ds(1, 0, 0, 0, 0), ds(0, 0, 0, 0, 1), ym(0, 1)],
      [ds(1, 0, 0, 0, 123456789), null, ym(999999999, 11)]
    ])
  })

  it("gives views and CREATE TABLE AS the exact values their queries give (were ORA-00932 / ORA-01722)", async () => {
    await conn.execute("CREATE VIEW ivm_u AS SELECT d9 x FROM ivm UNION ALL SELECT d6 FROM ivm")
    expect(await rows("SELECT x FROM ivm_u WHERE x IS NOT NULL ORDER BY x")).toEqual([[ds(0, 0, 0, 0, 1)], [ds(1, 0, 0, 0, 123456789)], [ds(2, 0, 0, 0, 0)], [ds(3, 0, 0, 0, 0)]])
    await conn.execute("CREATE VIEW ivm_c AS SELECT id, COALESCE(d9, d6) c FROM ivm")
    expect(await rows("SELECT c + INTERVAL '1' SECOND FROM ivm_c ORDER BY id")).toEqual([[ds(1, 0, 0, 1, 123456789)], [ds(0, 0, 0, 1, 1)], [ds(3, 0, 0, 1, 0)]])
    await conn.execute("CREATE TABLE ivm_t AS SELECT id, NVL(d9, d6) x, d9 + d6 s, y9 - INTERVAL '1' MONTH m FROM ivm")
    expect(await rows("SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'IVM_T' AND column_name <> 'ID' ORDER BY column_id")).toEqual([
      ["X", "INTERVAL DAY(9) TO SECOND(9)"],
      ["S", "INTERVAL DAY(9) TO SECOND(9)"],
      ["M", "INTERVAL YEAR(9) TO MONTH"]
    ])
    expect(await rows("SELECT x, s, m FROM ivm_t ORDER BY id")).toEqual([
      [ds(1, 0, 0, 0, 123456789), ds(3, 0, 0, 0, 123456789), ym(999999999, 10)],
      [ds(0, 0, 0, 0, 1), null, ym(5, 0)],
      [ds(3, 0, 0, 0, 0), null, null]
    ])
  })
})
