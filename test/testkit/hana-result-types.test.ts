import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet } from "./hana/client.ts"

/** hdb's type codes (node_modules/hdb/lib/protocol/common/TypeCode.js). */
const INT = 3
const BIGINT = 4
const SMALLINT = 2

/** Result types as HANA gives them, seen through the raw hdb client's result metadata. */
describe("HANA test server: result types of functions, aggregates and joins (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE TABLE rt_a (id INTEGER NOT NULL, name NVARCHAR(10), big BIGINT, data BLOB)",
      "CREATE TABLE rt_b (id SMALLINT, label NVARCHAR(5))",
      "INSERT INTO rt_a VALUES (1, 'abc', 9000000000000000000, X'A1B2C3')",
      "INSERT INTO rt_a VALUES (2, 'de', 9000000000000000000, NULL)",
      "INSERT INTO rt_b VALUES (1, 'one')"
    ]
  }, (opened) => (c = opened.client))

  const metadata = async (sql: string) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => ({ name: m.columnDisplayName, type: m.dataType, table: m.tableName }))
  }

  /** Each result column's type code, precision (length) and scale (fraction) as hdb reads them. */
  const typeShapes = async (sql: string) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => {
      const col = m as unknown as { length: number; fraction: number }
      return [m.dataType, col.length, col.fraction]
    })
  }

  it("LENGTH is INTEGER (bytes of a BLOB), and SUM over integers is BIGINT", async () => {
    // SAP HANA SQL Reference: LENGTH returns INTEGER; sums of integers are BIGINT.
    expect(await metadata("SELECT LENGTH(name) AS L, SUM(LENGTH(name)) AS S, SUM(id) AS I, COUNT(*) AS C FROM rt_a GROUP BY name")).toEqual([
      { name: "L", type: INT, table: undefined },
      { name: "S", type: BIGINT, table: undefined },
      { name: "I", type: BIGINT, table: undefined },
      { name: "C", type: BIGINT, table: undefined }
    ])
    expect(await exec(c, "SELECT SUM(LENGTH(name)) AS S FROM rt_a")).toEqual([{ S: 5 }])
    expect(await exec(c, "SELECT LENGTH(data) AS L FROM rt_a ORDER BY id")).toEqual([{ L: 3 }, { L: null }])
  })

  it("AVG of an integer is a DECIMAL with six fraction digits, of the precision HANA gives each integer type", async () => {
    // SAP HANA SQL Reference, "AVG Function (Aggregate)", result type based on input: TINYINT → DECIMAL(9,6),
    // SMALLINT → DECIMAL(11,6), INTEGER → DECIMAL(16,6), BIGINT → DECIMAL(25,6); REAL and DOUBLE stay as they are.
    await exec(c, "CREATE TABLE rt_avg (t TINYINT, s SMALLINT, i INTEGER, b BIGINT, d DOUBLE)")
    await exec(c, "INSERT INTO rt_avg VALUES (1, 1, 1, 1, 1)")
    await exec(c, "INSERT INTO rt_avg VALUES (2, 2, 2, 4, 2)")
    const sql = "SELECT AVG(t) AS T, AVG(s) AS S, AVG(i) AS I, AVG(b) AS B, AVG(d) AS D FROM rt_avg"
    const shapes = await typeShapes(sql)
    // At data format version 8 a DECIMAL(p,s) travels as FIXED8 (81) up to 18 digits, FIXED12 (82) up to 28.
    expect(shapes.map(([t, p, f]) => [t, p, f])).toEqual([
      [81, 9, 6],
      [81, 11, 6],
      [81, 16, 6],
      [82, 25, 6],
      [7, expect.anything(), expect.anything()]
    ])
    expect(await exec(c, sql)).toEqual([{ T: "1.500000", S: "1.500000", I: "1.500000", B: "2.500000", D: 1.5 }])
    // Not an aggregate call: the window form and AVG(DISTINCT …) keep DuckDB's AVG.
    expect(await exec(c, "SELECT AVG(DISTINCT i) AS A FROM rt_avg")).toHaveLength(1)
    expect(await exec(c, "SELECT AVG(i) OVER (ORDER BY i) AS A FROM rt_avg ORDER BY i")).toHaveLength(2)
  })

  it("AVG of a DECIMAL(p,s) is a DECIMAL(p,s), not DuckDB's DOUBLE", async () => {
    // SAP HANA SQL Reference, "AVG Function (Aggregate)", result type based on input: DECIMAL(p,s) → DECIMAL(p,s).
    await exec(c, "CREATE TABLE rt_avgd (d DECIMAL(10,2), w DECIMAL(30,5))")
    await exec(c, "INSERT INTO rt_avgd VALUES (1.25, 1.25)")
    await exec(c, "INSERT INTO rt_avgd VALUES (2.50, 2.50)")
    const sql = "SELECT AVG(d) AS D, AVG(w) AS W FROM rt_avgd"
    const shapes = await typeShapes(sql)
    // FIXED8 (81) up to 18 digits, FIXED16 (76) beyond 28 at data format version 8.
    expect(shapes).toEqual([
      [81, 10, 2],
      [76, 30, 5]
    ])
    // The mean 1.875 at scale 2 (the mean is DuckDB's DOUBLE cast to the column's DECIMAL, which rounds half up).
    expect(await exec(c, sql)).toEqual([{ D: "1.88", W: "1.87500" }])
  })

  it("a sum beyond BIGINT fails with 314 numeric overflow instead of widening, and the session goes on", async () => {
    const err = await failure(exec(c, "SELECT SUM(big) AS S FROM rt_a"))
    expect([err.code, err.message]).toEqual([314, "numeric overflow: 18000000000000000000 is out of range for BIGINT"])
    expect(await exec(c, "SELECT SUM(id) AS S FROM rt_a")).toEqual([{ S: 3 }])
  })

  it("LPAD and RPAD take numbers and an optional pattern", async () => {
    expect(await exec(c, "SELECT LPAD(id, 5, '0') AS P, RPAD(id, 3) AS R, LPAD(name, 2) AS T, LPAD(12.5, 6, '*') AS D FROM rt_a ORDER BY id")).toEqual([
      { P: "00001", R: "1  ", T: "ab", D: "**12.5" },
      { P: "00002", R: "2  ", T: "de", D: "**12.5" }
    ])
  })

  it("SELECT * over a join reports every column under its own table, also for a name both tables have", async () => {
    expect(await metadata("SELECT * FROM rt_b JOIN rt_a ON rt_a.id = rt_b.id")).toEqual([
      { name: "ID", type: SMALLINT, table: "RT_B" },
      { name: "LABEL", type: 11, table: "RT_B" },
      { name: "ID", type: INT, table: "RT_A" },
      { name: "NAME", type: 11, table: "RT_A" },
      { name: "BIG", type: BIGINT, table: "RT_A" },
      { name: "DATA", type: 27, table: "RT_A" }
    ])
    expect((await metadata("SELECT b.*, a.id FROM rt_a a, rt_b b")).map((m) => `${m.table}.${m.name}`)).toEqual(["RT_B.ID", "RT_B.LABEL", "RT_A.ID"])
    // A star over the optional side of an outer join is nullable (mode 2) even for a NOT NULL column (mode 1).
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT * FROM rt_b LEFT JOIN rt_a ON rt_a.id = rt_b.id", cb))
    rs.close()
    expect(rs.metadata.map((m) => `${m.tableName}.${m.columnDisplayName}:${(m as unknown as { mode: number }).mode}`).slice(0, 3)).toEqual([
      "RT_B.ID:2",
      "RT_B.LABEL:2",
      "RT_A.ID:2"
    ])
    const inner = await call<HdbResultSet>((cb) => c.execute("SELECT * FROM rt_b JOIN rt_a ON rt_a.id = rt_b.id", cb))
    inner.close()
    expect((inner.metadata[2] as unknown as { mode: number }).mode).toBe(1)
    expect((await metadata("SELECT a.id, b.id FROM rt_a a JOIN rt_b b ON a.id = b.id")).map((m) => [m.table, m.type])).toEqual([
      ["RT_A", INT],
      ["RT_B", SMALLINT]
    ])
  })
})
