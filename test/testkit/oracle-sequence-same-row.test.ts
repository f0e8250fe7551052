import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// SQL Language Reference, "Sequence Pseudocolumns": "Within a single SQL statement containing a reference to NEXTVAL,
// Oracle increments the sequence once: for each row returned by the outer query block of a SELECT statement ... If a
// statement contains references to both CURRVAL and NEXTVAL, Oracle increments the sequence and returns the same
// value for both CURRVAL and NEXTVAL regardless of their order within the statement."
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Sequence-Pseudocolumns.html
describe("Oracle test server: NEXTVAL and CURRVAL of one sequence in one row give the same new value", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    for (const sql of [
      "CREATE SEQUENCE sr_s START WITH 1",
      "CREATE SEQUENCE sr_m START WITH 100",
      "CREATE TABLE sr_src (n NUMBER)",
      "INSERT INTO sr_src VALUES (1)",
      "INSERT INTO sr_src VALUES (2)",
      "INSERT INTO sr_src VALUES (3)",
      "CREATE TABLE sr_dst (n NUMBER, a NUMBER, b NUMBER, c NUMBER)"
    ]) await conn.execute(sql)
  })
  afterAll(() => closeConnection(opened))

  it("SELECT s.CURRVAL, s.NEXTVAL FROM dual gives the new value twice, under Oracle's headings", async () => {
    expect((await conn.execute("SELECT sr_s.NEXTVAL FROM dual")).rows).toEqual([[1]])
    const both = await conn.execute("SELECT sr_s.CURRVAL, sr_s.NEXTVAL FROM dual")
    expect(both.rows).toEqual([[2, 2]])
    expect(both.metaData.map((m: { name: string }) => m.name)).toEqual(["CURRVAL", "NEXTVAL"])
    expect((await conn.execute("SELECT sr_s.NEXTVAL, sr_s.CURRVAL, sr_s.NEXTVAL x FROM dual")).rows).toEqual([[3, 3, 3]])
    expect((await conn.execute("SELECT sr_s.CURRVAL FROM dual")).rows).toEqual([[3]])
  })

  it("INSERT ... SELECT of a 3-row table with NEXTVAL and CURRVAL advances once per row", async () => {
    expect((await conn.execute("SELECT sr_m.NEXTVAL FROM dual")).rows).toEqual([[100]])
    await conn.execute("INSERT INTO sr_dst (n, a, b, c) SELECT n, sr_m.CURRVAL, sr_m.NEXTVAL, sr_m.CURRVAL + 0 FROM sr_src WHERE n > 0")
    const rows = (await conn.execute("SELECT n, a, b, c FROM sr_dst ORDER BY n")).rows as Array<Array<number>>
    // one new value per row, the same in every column of the row, 101..103 between the rows
    expect(rows.map((r) => r[1] === r[2] && r[2] === r[3])).toEqual([true, true, true])
    expect(rows.map((r) => r[1]).sort()).toEqual([101, 102, 103])
    expect((await conn.execute("SELECT sr_m.CURRVAL FROM dual")).rows).toEqual([[103]])
  })

  it("a query of a 3-row table with NEXTVAL and CURRVAL gives each row its own new value", async () => {
    const rows = (await conn.execute("SELECT s.n, sr_m.NEXTVAL, sr_m.CURRVAL FROM sr_src s")).rows as Array<Array<number>>
    expect(rows.map((r) => r[1] === r[2])).toEqual([true, true, true])
    expect(rows.map((r) => r[0]).sort()).toEqual([1, 2, 3])
    expect(rows.map((r) => r[1]).sort()).toEqual([104, 105, 106])
  })

  it("INSERT ... VALUES with CURRVAL before NEXTVAL stores the new value in both", async () => {
    const before = ((await conn.execute("SELECT sr_s.NEXTVAL FROM dual")).rows as Array<Array<number>>)[0]![0]!
    await conn.execute("INSERT INTO sr_dst (n, a, b) VALUES (10, sr_s.CURRVAL, sr_s.NEXTVAL)")
    expect((await conn.execute("SELECT a, b FROM sr_dst WHERE n = 10")).rows).toEqual([[before + 1, before + 1]])
  })

  it("the rows of such an INSERT ... SELECT keep their values when a later statement of the transaction fails", async () => {
    await conn.execute("INSERT INTO sr_dst (n, a, b, c) SELECT n + 20, sr_m.NEXTVAL, sr_m.CURRVAL, 0 FROM sr_src")
    const seen = (await conn.execute("SELECT n, a, b FROM sr_dst WHERE n > 20 ORDER BY n")).rows as Array<Array<number>>
    await expect(conn.execute("INSERT INTO sr_dst (n) VALUES ('not a number')")).rejects.toThrow(/ORA-01722/)
    expect((await conn.execute("SELECT n, a, b FROM sr_dst WHERE n > 20 ORDER BY n")).rows).toEqual(seen)
    expect((await conn.execute("SELECT sr_m.CURRVAL FROM dual")).rows).toEqual([[109]])
    await conn.rollback()
  })

  it("over a join (JOIN ... ON, a comma list, an outer join) each joined row gets its own value, in NEXTVAL and CURRVAL alike", async () => {
    await conn.execute("CREATE SEQUENCE sr_j START WITH 1")
    const joined = await conn.execute("SELECT a.n, sr_j.CURRVAL, b.n bn, sr_j.NEXTVAL FROM sr_src a JOIN sr_src b ON a.n = b.n")
    expect(joined.metaData.map((m: { name: string }) => m.name)).toEqual(["N", "CURRVAL", "BN", "NEXTVAL"])
    const rows = joined.rows as Array<Array<number>>
    expect(rows.map((r) => r[1] === r[3] && r[0] === r[2])).toEqual([true, true, true])
    expect(rows.map((r) => r[3]).sort()).toEqual([1, 2, 3])
    const comma = (await conn.execute("SELECT a.n, sr_j.NEXTVAL + 0, sr_j.CURRVAL FROM sr_src a, sr_src b WHERE a.n = b.n AND a.n < 3")).rows as Array<Array<number>>
    expect(comma.map((r) => r[1] === r[2])).toEqual([true, true])
    expect(comma.map((r) => r[1]).sort()).toEqual([4, 5])
    // (ORDER BY is not allowed beside NEXTVAL: ORA-02287)
    const outer = ((await conn.execute("SELECT a.n, b.n, sr_j.CURRVAL, sr_j.NEXTVAL FROM sr_src a LEFT JOIN sr_src b ON b.n = a.n + 1")).rows as Array<Array<number | null>>).sort((x, y) => x[0]! - y[0]!)
    expect(outer.map((r) => [r[0], r[1], r[2] === r[3]])).toEqual([[1, 2, true], [2, 3, true], [3, null, true]])
    expect(outer.map((r) => r[3]).sort()).toEqual([6, 7, 8])
    // a view joined to a table: its rows carried through by their columns
    await conn.execute("CREATE VIEW sr_v AS SELECT n FROM sr_src")
    const viewed = (await conn.execute("SELECT a.n, sr_j.CURRVAL, sr_j.NEXTVAL, v.n FROM sr_src a JOIN sr_v v ON a.n = v.n")).rows as Array<Array<number>>
    expect(viewed.map((r) => r[1] === r[2] && r[0] === r[3])).toEqual([true, true, true])
    expect(viewed.map((r) => r[2]!).sort((x, y) => x - y)).toEqual([9, 10, 11])
    await conn.execute("DROP SEQUENCE sr_j")
    await conn.execute("CREATE SEQUENCE sr_j START WITH 9")
    const outerView = ((await conn.execute("SELECT v.*, sr_j.CURRVAL, sr_j.NEXTVAL FROM sr_src a LEFT JOIN sr_v v ON v.n = a.n + 1")).rows as Array<Array<number | null>>).sort((x, y) => (x[0] ?? 9) - (y[0] ?? 9))
    expect(outerView.map((r) => [r[0], r[1] === r[2]])).toEqual([[2, true], [3, true], [null, true]])
    expect(outerView.map((r) => r[2]!).sort((x, y) => x - y)).toEqual([9, 10, 11])
    await conn.execute("DROP SEQUENCE sr_j")
    await conn.execute("CREATE SEQUENCE sr_j START WITH 9")
    await conn.execute("INSERT INTO sr_dst (n, a, b) SELECT a.n + 40, sr_j.CURRVAL, sr_j.NEXTVAL FROM sr_src a JOIN sr_src b ON a.n = b.n")
    const inserted = (await conn.execute("SELECT a, b FROM sr_dst WHERE n > 40")).rows as Array<Array<number>>
    expect(inserted.map((r) => r[0] === r[1])).toEqual([true, true, true])
    expect(inserted.map((r) => r[0]!).sort((x, y) => x - y)).toEqual([9, 10, 11])
    await conn.rollback()
  })

  it("beside x.*, the row's columns under their own names and one value per row", async () => {
    await conn.execute("CREATE SEQUENCE sr_x START WITH 1")
    const star = await conn.execute("SELECT s.*, sr_x.CURRVAL, sr_x.NEXTVAL FROM sr_src s WHERE s.n < 3")
    expect(star.metaData.map((m: { name: string }) => m.name)).toEqual(["N", "CURRVAL", "NEXTVAL"])
    const rows = star.rows as Array<Array<number>>
    expect(rows.map((r) => r[1] === r[2])).toEqual([true, true])
    expect(rows.map((r) => r[1]).sort()).toEqual([1, 2])
  })

  it("INSERT ... VALUES ... RETURNING with CURRVAL before NEXTVAL stores and returns the new value in both", async () => {
    await conn.execute("CREATE SEQUENCE sr_r START WITH 50")
    const out = await conn.execute("INSERT INTO sr_dst (n, a, b) VALUES (60, sr_r.CURRVAL, sr_r.NEXTVAL) RETURNING a, b INTO :a, :b", {
      a: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      b: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    })
    expect(out.outBinds).toEqual({ a: [50], b: [50] })
    expect((await conn.execute("SELECT a, b FROM sr_dst WHERE n = 60")).rows).toEqual([[50, 50]])
    const again = await conn.execute("INSERT INTO sr_dst (n, a, b) VALUES (:n, sr_r.NEXTVAL, sr_r.CURRVAL) RETURNING a, b INTO :a, :b", {
      n: 61,
      a: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      b: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    })
    expect(again.outBinds).toEqual({ a: [51], b: [51] })
    const many = await conn.executeMany("INSERT INTO sr_dst (n, a, b) VALUES (:n, sr_r.NEXTVAL, sr_r.CURRVAL) RETURNING a, b INTO :a, :b", [{ n: 62 }, { n: 63 }], {
      bindDefs: { n: { type: oracledb.NUMBER }, a: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, b: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    })
    expect(many.outBinds).toEqual([{ a: [52], b: [52] }, { a: [53], b: [53] }])
    await conn.rollback()
  })

  it("in a PL/SQL block's INSERT ... VALUES (also per FORALL iteration) CURRVAL before NEXTVAL gives the new value", async () => {
    await conn.execute("CREATE SEQUENCE sr_p START WITH 1")
    await conn.execute(`BEGIN
  INSERT INTO sr_dst (n, a, b) VALUES (70, sr_p.CURRVAL, sr_p.NEXTVAL);
  FORALL i IN 1..2 INSERT INTO sr_dst (n, a, b, c) VALUES (70 + i, sr_p.NEXTVAL, sr_p.CURRVAL, sr_p.CURRVAL * 10);
END;`)
    expect((await conn.execute("SELECT n, a, b, c FROM sr_dst WHERE n >= 70 ORDER BY n")).rows).toEqual([
      [70, 1, 1, null],
      [71, 2, 2, 20],
      [72, 3, 3, 30]
    ])
    expect((await conn.execute("SELECT sr_p.CURRVAL FROM dual")).rows).toEqual([[3]])
    await conn.rollback()
  })

  it("over a subquery, a synonym, a NATURAL join and a join with USING each row gets its own value, in NEXTVAL and CURRVAL alike", async () => {
    await conn.execute("CREATE SEQUENCE sr_f START WITH 1")
    await conn.execute("CREATE SYNONYM sr_syn FOR sr_src")
    const perRow = async (sql: string) => {
      const rows = (await conn.execute(sql)).rows as Array<Array<number>>
      expect(rows.map((r) => r[1] === r[2])).toEqual([true, true, true])
      return rows.map((r) => r[1]!).sort((x, y) => x - y)
    }
    expect(await perRow("SELECT x.n, sr_f.CURRVAL, sr_f.NEXTVAL FROM (SELECT n FROM sr_src) x")).toEqual([1, 2, 3])
    expect(await perRow("SELECT n, sr_f.CURRVAL, sr_f.NEXTVAL FROM (SELECT n FROM sr_src)")).toEqual([4, 5, 6])
    expect(await perRow("SELECT a.n, sr_f.CURRVAL, sr_f.NEXTVAL FROM sr_src a JOIN sr_syn b ON a.n = b.n")).toEqual([7, 8, 9])
    expect(await perRow("SELECT n, sr_f.CURRVAL, sr_f.NEXTVAL FROM sr_src a JOIN sr_syn b USING (n)")).toEqual([10, 11, 12])
    expect(await perRow("SELECT n, sr_f.CURRVAL, sr_f.NEXTVAL FROM sr_src a NATURAL JOIN sr_src b")).toEqual([13, 14, 15])
    const usingOuter = ((await conn.execute("SELECT n, sr_f.CURRVAL, sr_f.NEXTVAL FROM sr_src a NATURAL LEFT JOIN sr_syn b")).rows as Array<Array<number>>).sort((x, y) => x[0]! - y[0]!)
    expect(usingOuter.map((r) => [r[0], r[1] === r[2]])).toEqual([[1, true], [2, true], [3, true]])
    await conn.execute("DROP SYNONYM sr_syn")
    await conn.execute("DROP SEQUENCE sr_f")
  })

  it("INSERT ... SELECT DISTINCT with NEXTVAL is refused as the SELECT alone is (ORA-02287)", async () => {
    await expect(conn.execute("INSERT INTO sr_dst (n, a) SELECT DISTINCT n, sr_s.NEXTVAL FROM sr_src")).rejects.toThrow(/ORA-02287/)
    await expect(conn.execute("INSERT INTO sr_dst (n, a) SELECT n, sr_s.NEXTVAL FROM sr_src UNION ALL SELECT 1, 1 FROM dual")).rejects.toThrow(/ORA-02287/)
  })

  it("in a PL/SQL block's cursor loop and INSERT ... SELECT, CURRVAL before NEXTVAL gives each row's new value", async () => {
    await conn.execute("CREATE SEQUENCE sr_b START WITH 1")
    await conn.execute(`BEGIN
  FOR r IN (SELECT n, sr_b.CURRVAL c, sr_b.NEXTVAL x FROM sr_src) LOOP
    INSERT INTO sr_dst (n, a, b) VALUES (80 + r.c, r.c, r.x);
  END LOOP;
  INSERT INTO sr_dst (n, a, b) SELECT n + 90, sr_b.CURRVAL, sr_b.NEXTVAL FROM sr_src;
END;`)
    const rows = (await conn.execute("SELECT n, a, b FROM sr_dst WHERE n > 80 ORDER BY n")).rows as Array<Array<number>>
    expect(rows.map((r) => r[1] === r[2])).toEqual([true, true, true, true, true, true])
    expect(rows.map((r) => r[1]!).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6])
    await conn.rollback()
    await conn.execute("DROP SEQUENCE sr_b")
  })

  it("over every other FROM clause (a joined subquery or table function, views of any column type, NATURAL / USING with views, commas beside USING) each row gets one value", async () => {
    await conn.execute("CREATE SEQUENCE sr_g START WITH 1")
    await conn.execute("CREATE TABLE sr_wide (n NUMBER, c CHAR(3), z TIMESTAMP WITH TIME ZONE, i INTERVAL DAY TO SECOND, b BINARY_DOUBLE, r RAW(4))")
    await conn.execute("INSERT INTO sr_wide SELECT n, 'c' || n, TIMESTAMP '2024-01-01 10:00:00 +02:00', INTERVAL '1' DAY, n / 2, HEXTORAW('0A') FROM sr_src")
    await conn.execute("CREATE VIEW sr_wv AS SELECT * FROM sr_wide")
    const values: Array<number> = []
    const perRow = async (sql: string, at: [number, number], rows = 3) => {
      const got = (await conn.execute(sql)).rows as Array<Array<unknown>>
      expect(got.length).toBe(rows)
      expect(got.map((r) => r[at[0]] === r[at[1]])).toEqual(got.map(() => true))
      values.push(...got.map((r) => r[at[1]] as number))
      return got
    }
    await perRow("SELECT a.n, sr_g.CURRVAL, sr_g.NEXTVAL, x.n FROM sr_src a JOIN (SELECT n FROM sr_src) x ON a.n = x.n", [1, 2])
    await perRow("SELECT a.n, sr_g.CURRVAL, sr_g.NEXTVAL, x.column_value FROM sr_src a, TABLE(sys.odcinumberlist(1, 2, 3)) x WHERE a.n = x.column_value", [1, 2])
    const wide = await perRow("SELECT w.*, sr_g.CURRVAL, sr_g.NEXTVAL FROM sr_src a JOIN sr_wv w ON a.n = w.n", [6, 7])
    expect(wide.map((r) => [r[0], r[1], r[4], r[5]]).sort((x, y) => (x[0] as number) - (y[0] as number))).toEqual([1, 2, 3].map((n) => [n, `c${n} `, n / 2, Buffer.from([10])]))
    await perRow("SELECT n, sr_g.CURRVAL, sr_g.NEXTVAL FROM sr_src a JOIN sr_wv w USING (n)", [1, 2])
    await perRow("SELECT n, sr_g.CURRVAL, sr_g.NEXTVAL FROM sr_wide NATURAL JOIN sr_wv", [1, 2])
    await perRow("SELECT b.n, sr_g.CURRVAL, sr_g.NEXTVAL FROM sr_src a, sr_src b JOIN sr_src c USING (n) WHERE a.n = b.n", [1, 2])
    // a scalar subquery beside the sequence in one item
    const beside = await perRow("SELECT a.n, sr_g.NEXTVAL + (SELECT COUNT(*) FROM sr_src) - 3, sr_g.CURRVAL FROM sr_src a JOIN (SELECT n FROM sr_src) x ON a.n = x.n", [1, 2])
    expect(beside.map((r) => r[0]).sort()).toEqual([1, 2, 3])
    expect(values.sort((x, y) => x - y)).toEqual(Array.from({ length: 21 }, (_, k) => k + 1))
    // INSERT ... SELECT and a PL/SQL block's query and INSERT alike
    await conn.execute("INSERT INTO sr_dst (n, a, b) SELECT a.n + 100, sr_g.CURRVAL, sr_g.NEXTVAL FROM sr_src a JOIN (SELECT n FROM sr_src) x ON a.n = x.n")
    await conn.execute(`BEGIN
  INSERT INTO sr_dst (n, a, b) SELECT a.n + 110, sr_g.CURRVAL, sr_g.NEXTVAL FROM sr_src a JOIN (SELECT n FROM sr_src) x ON a.n = x.n;
  FOR r IN (SELECT a.n, sr_g.CURRVAL c, sr_g.NEXTVAL v FROM sr_src a JOIN sr_wv w USING (n)) LOOP
    INSERT INTO sr_dst (n, a, b) VALUES (r.n + 120, r.c, r.v);
  END LOOP;
END;`)
    const written = (await conn.execute("SELECT a, b FROM sr_dst WHERE n > 100")).rows as Array<Array<number>>
    expect(written.map((r) => r[0] === r[1])).toEqual(written.map(() => true))
    expect(written.map((r) => r[0]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 9 }, (_, k) => k + 22))
    await conn.rollback()
  })
})
