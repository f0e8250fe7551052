import { beforeAll, describe, expect, it } from "@effect/vitest"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { RawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

type Row = Record<string, unknown>

/** hdb's type code of LONGDATE, HANA's TIMESTAMP at data format version 4 and later. */
const LONGDATE = 61

/**
 * A TIMESTAMP meeting a DATE or a SECONDDATE in one expression: HANA converts the narrower value to the wider
 * datetime type (SAP HANA SQL Reference, "Data Type Conversion"), so the comparison and the result keep the
 * TIMESTAMP's seven fraction digits. The server stores a TIMESTAMP as 100 ns ticks (testkit/hana/longdate.ts),
 * which DuckDB's DATE and TIMESTAMP_S do not mix with (testkit/hana/datetime-mixing.ts).
 */
describe("HANA test server: TIMESTAMP mixed with DATE and SECONDDATE (raw hdb client, data format version 8)", () => {
  let c: HdbClient
  let session: RawHanaSession
  useRawHanaSession({ client: { dataFormatSupport: 8 }, setup: ["CREATE COLUMN TABLE mx (id INTEGER, ts TIMESTAMP, sd SECONDDATE, d DATE, s NVARCHAR(40), n DECIMAL(10,2))"] }, (opened) => {
    session = opened
    c = opened.client
  })
  beforeAll(async () => {
    // 100 ns after midnight, and 100 ns before it: only the seventh digit tells them from the DATE
    await exec(c, "INSERT INTO mx VALUES (1, '2024-01-02 00:00:00.0000001', '2024-01-02 00:00:00', '2024-01-02', 'abc', 1.25)")
    await exec(c, "INSERT INTO mx VALUES (2, '2024-01-02 23:59:59.9999999', '2024-01-03 00:00:00', '2024-01-03', 'de', 2.5)")
  })

  const ids = async (sql: string): Promise<unknown[]> => (await exec<Row[]>(c, sql)).map((r) => Object.values(r).join("/"))
  const typesOf = async (sql: string): Promise<number[]> => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => m.dataType)
  }

  it("compares a TIMESTAMP column with a DATE or SECONDDATE column to the 100 ns, in WHERE, ON, HAVING, BETWEEN and IN", async () => {
    expect(await ids("SELECT id FROM mx WHERE ts > d ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE d < ts ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE mx.ts <> mx.sd ORDER BY id")).toEqual(["1", "2"])
    expect(await ids("SELECT id FROM mx WHERE ts < sd ORDER BY id")).toEqual(["2"])
    expect(await ids("SELECT a.id AS A, b.id AS B FROM mx a JOIN mx b ON a.ts >= b.sd ORDER BY 1, 2")).toEqual(["1/1", "2/1"])
    expect(await ids("SELECT a.id AS A, b.id AS B FROM mx a JOIN mx b ON a.d = b.sd ORDER BY 1, 2")).toEqual(["1/1", "2/2"])
    expect(await ids("SELECT id FROM mx GROUP BY id HAVING MAX(ts) > MIN(d) ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE d BETWEEN ts AND sd ORDER BY id")).toEqual(["2"])
    expect(await ids("SELECT id FROM mx WHERE ts NOT BETWEEN d AND sd ORDER BY id")).toEqual(["1", "2"])
    expect(await ids("SELECT id FROM mx WHERE ts IN (d, sd) ORDER BY id")).toEqual([])
    expect(await ids("SELECT id FROM mx WHERE d IN (ts, sd) ORDER BY id")).toEqual(["1", "2"])
    // a DECIMAL compared with a DECIMAL stays exact
    expect(await ids("SELECT a.id FROM mx a JOIN mx b ON a.n = b.n ORDER BY 1")).toEqual(["1", "2"])
  })

  it("converts them beside an arithmetic operator, with a literal or a parameter in BETWEEN and IN, and beside AND / OR", async () => {
    expect(await ids("SELECT id FROM mx WHERE ts BETWEEN d AND '2024-01-02 12:00:00' ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE ts BETWEEN '2024-01-01' AND d ORDER BY id")).toEqual(["2"])
    expect(await ids("SELECT id FROM mx WHERE ts IN (d, '2024-01-02 00:00:00.0000001') ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE d IN (ts, '2024-01-02') ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE ts NOT IN (sd, d, '2024-01-02') ORDER BY id")).toEqual(["1", "2"])
    expect(await ids("SELECT id FROM mx WHERE ts > d + 1 OR d + 1 > ts AND id = 2 ORDER BY id")).toEqual(["2"])
    expect(await ids("SELECT id FROM mx WHERE ts BETWEEN d AND d + 1 ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE ts > d AND id = 1 ORDER BY id")).toEqual(["1"])
    // a parameter beside them is typed as the TIMESTAMP
    const inList = await call<HdbStatement>((cb) => c.prepare("SELECT id FROM mx WHERE ts IN (d, ?) ORDER BY id", cb))
    expect(inList.parameterMetadata.map((m) => m.dataType)).toEqual([LONGDATE])
    expect(await call((cb) => inList.exec(["2024-01-02 23:59:59.9999999"], cb))).toEqual([{ ID: 2 }])
    const between = await call<HdbStatement>((cb) => c.prepare("SELECT id FROM mx WHERE ts BETWEEN ? AND d ORDER BY id", cb))
    expect(await call((cb) => between.exec(["2024-01-01 00:00:00"], cb))).toEqual([{ ID: 2 }])
    // without a TIMESTAMP the values keep their own types
    expect(await ids("SELECT id FROM mx WHERE d BETWEEN sd AND '2024-01-02 12:00:00' ORDER BY id")).toEqual(["1"])
    expect(await ids("SELECT id FROM mx WHERE d IN (sd, '2024-01-02') ORDER BY id")).toEqual(["1", "2"])
    expect(await ids("SELECT id FROM mx WHERE n IN (1.25, id) ORDER BY id")).toEqual(["1"])
  })

  it("converts them in DDL: a table's and a column's CHECK, ALTER TABLE … ADD CHECK, a view's query, CREATE TABLE … AS", async () => {
    await exec(c, "CREATE COLUMN TABLE mx_ck (a TIMESTAMP, b DATE, sd SECONDDATE CHECK (sd <= a), CHECK (a >= b))")
    expect(await exec(c, "INSERT INTO mx_ck VALUES ('2024-01-02 00:00:00.0000001', '2024-01-02', '2024-01-02 00:00:00')")).toBe(1)
    // 100 ns before the DATE's midnight breaks the table's CHECK, and before the SECONDDATE the column's
    const early = await failure(exec(c, "INSERT INTO mx_ck VALUES ('2024-01-01 23:59:59.9999999', '2024-01-02', NULL)"))
    expect(early.code).toBe(677)
    expect(early.message).toContain("(A >= B)")
    expect((await failure(exec(c, "INSERT INTO mx_ck VALUES ('2024-01-02 00:00:00.0000001', '2024-01-02', '2024-01-02 00:00:01')"))).code).toBe(677)
    await exec(c, "ALTER TABLE mx_ck ADD CONSTRAINT mx_ck_range CHECK (a BETWEEN b AND '2024-12-31')")
    expect((await failure(exec(c, "INSERT INTO mx_ck VALUES ('2025-01-01 00:00:00', '2024-01-02', NULL)"))).code).toBe(677)
    // the catalog shows each condition as written, each column once
    expect(await exec(c, "SELECT COLUMN_NAME, CHECK_CONDITION FROM SYS.CONSTRAINTS WHERE TABLE_NAME = 'MX_CK' AND CHECK_CONDITION LIKE '%B%' ORDER BY CHECK_CONDITION, POSITION")).toEqual([
      { COLUMN_NAME: "A", CHECK_CONDITION: "(A >= B)" },
      { COLUMN_NAME: "B", CHECK_CONDITION: "(A >= B)" },
      { COLUMN_NAME: "A", CHECK_CONDITION: "(A BETWEEN B AND '2024-12-31')" },
      { COLUMN_NAME: "B", CHECK_CONDITION: "(A BETWEEN B AND '2024-12-31')" }
    ])

    await exec(c, "CREATE VIEW mx_v (i, c) AS SELECT id, COALESCE(ts, d) FROM mx WHERE ts > d OR ts IN (sd, '2024-01-02 23:59:59.9999999')")
    const expected = [
      { I: 1, C: "2024-01-02 00:00:00.000000100" },
      { I: 2, C: "2024-01-02 23:59:59.999999900" }
    ]
    expect(await exec(c, "SELECT * FROM mx_v ORDER BY i")).toEqual(expected)
    await exec(c, "CREATE COLUMN TABLE mx_ct AS (SELECT id, GREATEST(ts, d) AS g FROM mx WHERE ts BETWEEN d AND d + 1)")
    expect(await exec(c, "SELECT * FROM mx_ct")).toEqual([{ ID: 1, G: "2024-01-02 00:00:00.000000100" }])
    // another session reads the view and writes the table with the same conversions
    const other = await connect({ host: session.server.host, port: session.server.port, user: session.server.user, password: session.server.password, dataFormatSupport: 8 })
    try {
      expect(await exec(other, "SELECT * FROM mx_v ORDER BY i")).toEqual(expected)
      expect((await failure(exec(other, "INSERT INTO mx_ck VALUES ('2024-01-01 23:59:59.9999999', '2024-01-02', NULL)"))).code).toBe(677)
    } finally {
      closeQuietly(other)
    }
    // a view computing on a TIMESTAMP fails as the query does
    expect((await failure(exec(c, "CREATE VIEW mx_bad AS SELECT ts + 1 AS x FROM mx"))).code).toBe(266)
  })

  it("CASE, COALESCE, IFNULL, GREATEST and LEAST of a TIMESTAMP and a DATE or SECONDDATE are TIMESTAMPs with all seven digits", async () => {
    expect(await exec(c, "SELECT CASE WHEN id = 1 THEN ts ELSE d END AS X FROM mx ORDER BY id")).toEqual([
      { X: "2024-01-02 00:00:00.000000100" },
      { X: "2024-01-03 00:00:00.000000000" }
    ])
    expect(await exec(c, "SELECT COALESCE(ts, d) AS C, IFNULL(sd, ts) AS I, GREATEST(ts, d) AS G, LEAST(ts, sd) AS L FROM mx ORDER BY id")).toEqual([
      { C: "2024-01-02 00:00:00.000000100", I: "2024-01-02 00:00:00.000000000", G: "2024-01-02 00:00:00.000000100", L: "2024-01-02 00:00:00.000000000" },
      { C: "2024-01-02 23:59:59.999999900", I: "2024-01-03 00:00:00.000000000", G: "2024-01-03 00:00:00.000000000", L: "2024-01-02 23:59:59.999999900" }
    ])
    expect(await typesOf("SELECT CASE WHEN id = 1 THEN ts ELSE d END AS X, COALESCE(d, ts) AS C, GREATEST(sd, ts) AS G FROM mx")).toEqual([LONGDATE, LONGDATE, LONGDATE])
    // values that do not mix keep their own types
    expect(await exec(c, "SELECT GREATEST(n, 2) AS G, COALESCE(n, 0) AS C, CASE WHEN id = 1 THEN n ELSE 3 END AS X FROM mx ORDER BY id")).toEqual([
      { G: "2.00", C: "1.25", X: "1.25" },
      { G: "2.50", C: "2.50", X: "3.00" }
    ])
  })

  it("UNION, UNION ALL, INTERSECT and EXCEPT of a TIMESTAMP with a DATE or SECONDDATE column give TIMESTAMPs with all seven digits", async () => {
    expect(await exec(c, "SELECT ts FROM mx WHERE id = 1 UNION SELECT d FROM mx WHERE id = 1 ORDER BY 1")).toEqual([
      { TS: "2024-01-02 00:00:00.000000000" },
      { TS: "2024-01-02 00:00:00.000000100" }
    ])
    // the first branch names the column, whichever branch is converted
    expect(await exec(c, "SELECT d FROM mx WHERE id = 1 UNION ALL SELECT ts FROM mx WHERE id = 1")).toEqual([
      { D: "2024-01-02 00:00:00.000000000" },
      { D: "2024-01-02 00:00:00.000000100" }
    ])
    expect(await exec(c, "(SELECT id, sd AS X FROM mx) UNION ALL (SELECT id, ts FROM mx) ORDER BY 1, 2")).toEqual([
      { ID: 1, X: "2024-01-02 00:00:00.000000000" },
      { ID: 1, X: "2024-01-02 00:00:00.000000100" },
      { ID: 2, X: "2024-01-02 23:59:59.999999900" },
      { ID: 2, X: "2024-01-03 00:00:00.000000000" }
    ])
    expect(await typesOf("SELECT sd FROM mx UNION SELECT ts FROM mx")).toEqual([LONGDATE])
    // prepared, with parameters in the branches
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT ts AS X FROM mx WHERE id = ? UNION ALL SELECT d FROM mx WHERE id = ? AND ts > d", cb))
    expect(st.resultSetMetadata?.map((m) => m.dataType)).toEqual([LONGDATE])
    expect(await call((cb) => st.exec([2, 1], cb))).toEqual([{ X: "2024-01-02 23:59:59.999999900" }, { X: "2024-01-02 00:00:00.000000000" }])
    expect(await exec(c, "SELECT ts FROM mx INTERSECT SELECT d FROM mx")).toEqual([])
    expect(await exec(c, "SELECT ts FROM mx EXCEPT SELECT sd FROM mx ORDER BY 1")).toEqual([
      { TS: "2024-01-02 00:00:00.000000100" },
      { TS: "2024-01-02 23:59:59.999999900" }
    ])
  })

  it("converts set operations inside a subquery, a view, WITH and CREATE TABLE … AS, and with a * select item", async () => {
    const both1 = [{ X: "2024-01-02 00:00:00.000000000" }, { X: "2024-01-02 00:00:00.000000100" }]
    expect(await exec(c, "SELECT x FROM (SELECT ts AS x FROM mx WHERE id = 1 UNION ALL SELECT d FROM mx WHERE id = 1) ORDER BY 1")).toEqual(both1)
    expect(await exec(c, "SELECT COUNT(*) AS n FROM mx WHERE ts IN (SELECT ts FROM mx UNION SELECT d FROM mx)")).toEqual([{ N: 2 }])
    // nested: the inner set operation first, then the outer one
    expect(await exec(c, "SELECT x FROM (SELECT ts AS x FROM mx WHERE id = 1 UNION SELECT d FROM mx WHERE id = 1) UNION ALL SELECT sd FROM mx WHERE id = 2 ORDER BY 1")).toEqual([
      ...both1,
      { X: "2024-01-03 00:00:00.000000000" }
    ])
    // WITH: a WITH query, and a main query whose branch reads an earlier WITH query
    expect(await exec(c, "WITH u (x) AS (SELECT ts FROM mx WHERE id = 1 UNION ALL SELECT sd FROM mx WHERE id = 1) SELECT * FROM u ORDER BY 1")).toEqual(both1)
    expect(await exec(c, "WITH a AS (SELECT id, d FROM mx) SELECT ts AS x FROM mx WHERE id = 1 UNION ALL SELECT d FROM a WHERE id = 1 ORDER BY 1")).toEqual(both1)
    expect(await exec(c, "WITH a AS (SELECT id, d FROM mx), b AS (SELECT ts AS x FROM mx WHERE id = 1 UNION ALL SELECT d FROM a WHERE id = 1) SELECT * FROM b ORDER BY 1")).toEqual(both1)
    await exec(c, "CREATE VIEW mx_union AS SELECT ts AS x FROM mx WHERE id = 1 UNION ALL SELECT d FROM mx WHERE id = 1")
    expect(await exec(c, "SELECT * FROM mx_union ORDER BY 1")).toEqual(both1)
    expect(await typesOf("SELECT * FROM mx_union")).toEqual([LONGDATE])
    await exec(c, "CREATE COLUMN TABLE mx_union_t AS (SELECT ts AS x FROM mx WHERE id = 1 UNION SELECT sd FROM mx WHERE id = 1)")
    expect(await exec(c, "SELECT * FROM mx_union_t ORDER BY 1")).toEqual(both1)
    // a * item is written out as its columns, which keep their names
    expect(await exec(c, "SELECT * FROM mx WHERE id = 1 UNION ALL SELECT id, sd, ts, d, s, n FROM mx WHERE id = 1")).toEqual([
      { ID: 1, TS: "2024-01-02 00:00:00.000000100", SD: "2024-01-02 00:00:00.000000000", D: "2024-01-02", S: "abc", N: "1.25" },
      { ID: 1, TS: "2024-01-02 00:00:00.000000000", SD: "2024-01-02 00:00:00.000000100", D: "2024-01-02", S: "abc", N: "1.25" }
    ])
    expect(await exec(c, "SELECT id, d FROM mx WHERE id = 2 UNION ALL SELECT * FROM (SELECT id, ts FROM mx WHERE id = 2)")).toEqual([
      { ID: 2, D: "2024-01-03 00:00:00.000000000" },
      { ID: 2, D: "2024-01-02 23:59:59.999999900" }
    ])
  })

  it("UNION of a TIMESTAMP with a character column gives the TIMESTAMP's text in HANA's default format, not the stored ticks", async () => {
    expect(await exec(c, "SELECT ts FROM mx WHERE id = 1 UNION ALL SELECT s FROM mx WHERE id = 1")).toEqual([
      { TS: "2024-01-02 00:00:00.0000001" },
      { TS: "abc" }
    ])
    expect(await exec(c, "SELECT s AS V FROM mx WHERE id = 2 UNION SELECT ts FROM mx WHERE id = 2 ORDER BY 1")).toEqual([
      { V: "2024-01-02 23:59:59.9999999" },
      { V: "de" }
    ])
  })
})
