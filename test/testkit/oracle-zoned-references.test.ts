import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

// TIMESTAMP WITH TIME ZONE columns resolved where Oracle resolves them (raw node-oracledb): a plain TIMESTAMP column of
// the same name in another table of the statement stays a TIMESTAMP. Oracle compares a TIMESTAMP with a TIMESTAMP WITH
// TIME ZONE in the session time zone and such values by their UTC instants (Database Globalization Support Guide,
// "Datetime Comparisons").
describe("Oracle test server: zoned columns resolved per table", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  const boundRows = async (sql: string, binds: Record<string, unknown>) => (await conn.execute(sql, binds)).rows
  const typesOf = (r: { metaData: Array<{ dbType: unknown }> }) => r.metaData.map((m) => m.dbType)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zr_z (id NUMBER, t TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE TABLE zr_p (id NUMBER, t TIMESTAMP)")
    // one instant, 10:00 UTC, in two zones
    await conn.execute("INSERT INTO zr_z VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00')")
    await conn.execute("INSERT INTO zr_z VALUES (2, TIMESTAMP '2024-01-01 05:00:00 -05:00')")
    await conn.execute("INSERT INTO zr_p VALUES (1, TIMESTAMP '2024-01-01 10:00:00')")
    await conn.execute("INSERT INTO zr_p VALUES (2, TIMESTAMP '2024-01-01 12:00:00')")
    await conn.commit()
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+02:00'")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("CURRENT_TIMESTAMP among a zoned DECODE's or NVL2's results is in the session time zone (was +00:00, or ORA-00932 when first)", async () => {
    expect(await rows("SELECT TO_CHAR(DECODE(id, 2, t, CURRENT_TIMESTAMP), 'TZR'), TO_CHAR(DECODE(id, 1, CURRENT_TIMESTAMP, t), 'TZR'), TO_CHAR(NVL2(t, CURRENT_TIMESTAMP, t), 'TZR') FROM zr_z WHERE id = 1")).toEqual([["+02:00", "+02:00", "+02:00"]])
    const r = await conn.execute("SELECT DECODE(id, 1, CURRENT_TIMESTAMP, t), DECODE(id, 1, CURRENT_TIMESTAMP, t) FROM zr_z ORDER BY id")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(r.rows[1]).toEqual([new Date("2024-01-01T10:00:00Z"), new Date("2024-01-01T10:00:00Z")])
  })

  it("a TIMESTAMP column named like a zoned column of another table keeps its type and wall clock (was a TIMESTAMP WITH TIME ZONE in the session time zone)", async () => {
    const at = (wall: string) => new Date(`${wall}Z`)
    const expr = await conn.execute("SELECT p.t + INTERVAL '1' HOUR, TO_CHAR(p.t + INTERVAL '1' HOUR, 'HH24:MI') FROM zr_p p, zr_z z WHERE p.id = z.id AND p.id = 1")
    expect(typesOf(expr)).toEqual([oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_VARCHAR])
    expect(expr.rows).toEqual([[at("2024-01-01T11:00:00"), "11:00"]])
    // a derived table's, a WITH query's and a scalar subquery's item of it: TIMESTAMP (was described TIMESTAMP WITH TIME ZONE)
    for (const sql of [
      "SELECT x.t FROM (SELECT t FROM zr_p) x, zr_z WHERE zr_z.id = 1 ORDER BY 1",
      "SELECT m FROM (SELECT t m FROM zr_p), zr_z WHERE zr_z.id = 1 ORDER BY m",
      "WITH w AS (SELECT t FROM zr_p) SELECT w.t FROM w, zr_z WHERE zr_z.id = 1 ORDER BY 1",
      "WITH w (t, n) AS (SELECT t, id FROM zr_p) SELECT t FROM w WHERE n IN (SELECT id FROM zr_z) ORDER BY 1"
    ]) {
      const r = await conn.execute(sql)
      expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP])
      expect(r.rows).toEqual([[at("2024-01-01T10:00:00")], [at("2024-01-01T12:00:00")]])
    }
    // a WITH query's column list names it
    const listed = await conn.execute("WITH w (t, n) AS (SELECT t, id FROM zr_p) SELECT t + INTERVAL '1' HOUR FROM w WHERE n IN (SELECT id FROM zr_z) ORDER BY 1")
    expect(typesOf(listed)).toEqual([oracledb.DB_TYPE_TIMESTAMP])
    expect(listed.rows).toEqual([[at("2024-01-01T11:00:00")], [at("2024-01-01T13:00:00")]])
    // a derived table's item that is an expression of it, under the zoned column's name (was zoned by that name)
    const derived = await conn.execute("SELECT TO_CHAR(x.t), y.t + INTERVAL '1' MINUTE FROM (SELECT p.t + INTERVAL '1' HOUR t FROM zr_p p WHERE id = 1) x, (SELECT MAX(t) t FROM zr_p) y, zr_z WHERE zr_z.id = 1")
    expect(typesOf(derived)).toEqual([oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_TIMESTAMP])
    expect(derived.rows).toEqual([["01-JAN-24 11.00.00.000000 AM", at("2024-01-01T12:01:00")]])
    const zonedDerived = await conn.execute("SELECT x.t FROM (SELECT t + INTERVAL '1' HOUR t FROM zr_z WHERE id = 2) x, zr_p WHERE zr_p.id = 1")
    expect(typesOf(zonedDerived)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(zonedDerived.rows).toEqual([[new Date("2024-01-01T11:00:00Z")]])
    const scalar = await conn.execute("SELECT (SELECT MAX(t) FROM zr_p) m FROM zr_z WHERE id = 1")
    expect(typesOf(scalar)).toEqual([oracledb.DB_TYPE_TIMESTAMP])
    expect(scalar.rows).toEqual([[at("2024-01-01T12:00:00")]])
    // grouped and made DISTINCT by its own values (was ORA-00918, or grouped as zoned)
    const distinct = await conn.execute("SELECT DISTINCT p.t FROM zr_p p, zr_z z ORDER BY 1")
    expect(typesOf(distinct)).toEqual([oracledb.DB_TYPE_TIMESTAMP])
    expect(distinct.rows).toEqual([[at("2024-01-01T10:00:00")], [at("2024-01-01T12:00:00")]])
    const grouped = await conn.execute("SELECT p.t, COUNT(*) FROM zr_p p, zr_z z GROUP BY p.t ORDER BY 1")
    expect(typesOf(grouped)).toEqual([oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_NUMBER])
    expect(grouped.rows).toEqual([[at("2024-01-01T10:00:00"), 2], [at("2024-01-01T12:00:00"), 2]])
    // the zoned column itself still by instant: one group of the two zones
    expect(await rows("SELECT COUNT(DISTINCT p.t), COUNT(DISTINCT z.t) FROM zr_p p, zr_z z")).toEqual([[2, 1]])
  })

  it("a TIMESTAMP compared with a zoned column, directly, by IN or ANY over a subquery, is read in the session time zone (IN matched none)", async () => {
    await conn.execute("CREATE TABLE zr_u (u TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO zr_u VALUES (TIMESTAMP '2024-01-01 07:00:00 -03:00')")
    expect(await rows("SELECT p.id FROM zr_p p WHERE p.t IN (SELECT u FROM zr_u)")).toEqual([[2]])
    expect(await rows("SELECT p.id FROM zr_p p WHERE p.t NOT IN (SELECT u FROM zr_u)")).toEqual([[1]])
    // 12:00 at +02:00 is 10:00 UTC, the instant of both zoned rows
    expect(await rows("SELECT p.id, z.id FROM zr_p p, zr_z z WHERE p.t = z.t ORDER BY 2")).toEqual([[2, 1], [2, 2]])
    expect(await rows("SELECT p.id FROM zr_p p WHERE p.t IN (SELECT t FROM zr_z)")).toEqual([[2]])
    expect(await rows("SELECT p.id FROM zr_p p WHERE p.t >= ANY (SELECT z.t FROM zr_z z)")).toEqual([[2]])
    expect(await rows("SELECT id FROM zr_p p WHERE EXISTS (SELECT 1 FROM zr_z WHERE zr_z.t < p.t) ORDER BY id")).toEqual([])
    // a zoned column under an alias a TIMESTAMP column of another table also has
    const r = await conn.execute("SELECT p.t x, s.x FROM zr_p p, (SELECT t x FROM zr_z WHERE id = 2) s ORDER BY 1")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(r.rows).toEqual([
      [new Date("2024-01-01T10:00:00Z"), new Date("2024-01-01T10:00:00Z")],
      [new Date("2024-01-01T12:00:00Z"), new Date("2024-01-01T10:00:00Z")]
    ])
  })

  it("SELECT * over a USING / NATURAL join by a zoned column mixed with ON, CROSS, RIGHT or FULL joins or commas matches rows by instant (matched the text: no row)", async () => {
    await conn.execute("CREATE TABLE zr_c (t TIMESTAMP WITH TIME ZONE, z NUMBER, k NUMBER)")
    await conn.execute("CREATE TABLE zr_b (k NUMBER, y NUMBER)")
    // the instant of both zr_z rows, 10:00 UTC, in a third zone
    await conn.execute("INSERT INTO zr_c VALUES (TIMESTAMP '2024-01-01 11:00:00 +01:00', 3, 1)")
    await conn.execute("INSERT INTO zr_b VALUES (1, 2)")
    const at10 = new Date("2024-01-01T10:00:00Z")
    const named = async (sql: string) => {
      const r = await conn.execute(sql)
      return [r.metaData.map((m: { name: string }) => m.name), r.rows]
    }
    // join by join, as the SQL standard orders them: a USING / NATURAL join's columns, the left side's others, the right
    // table's others; an ON or CROSS join's both sides; a comma's items in turn
    const usingThenOthers = [["T", "ID", "Z", "K", "K_1", "Y"], [[at10, 1, 3, 1, 1, 2], [at10, 2, 3, 1, 1, 2]]]
    expect(await named("SELECT * FROM zr_z JOIN zr_c USING (t) CROSS JOIN zr_b ORDER BY id")).toEqual(usingThenOthers)
    expect(await named("SELECT * FROM zr_z NATURAL JOIN zr_c JOIN zr_b ON zr_b.k = zr_c.k ORDER BY id")).toEqual(usingThenOthers)
    expect(await named("SELECT * FROM zr_z JOIN zr_c USING (t), zr_b ORDER BY id")).toEqual(usingThenOthers)
    expect(await named("SELECT * FROM zr_z FULL JOIN zr_c USING (t) CROSS JOIN zr_b ORDER BY id")).toEqual(usingThenOthers)
    expect(await named("SELECT * FROM zr_b, zr_z JOIN zr_c USING (t) ORDER BY id")).toEqual([["K", "Y", "T", "ID", "Z", "K_1"], [[1, 2, at10, 1, 3, 1], [1, 2, at10, 2, 3, 1]]])
    expect(await named("SELECT * FROM zr_b CROSS JOIN zr_z JOIN zr_c USING (t) ORDER BY id")).toEqual([["T", "K", "Y", "ID", "Z", "K_1"], [[at10, 1, 2, 1, 3, 1], [at10, 1, 2, 2, 3, 1]]])
    expect(await named("SELECT * FROM zr_z RIGHT JOIN zr_c USING (t) JOIN zr_b USING (k) ORDER BY id")).toEqual([["K", "T", "ID", "Z", "Y"], [[1, at10, 1, 3, 2], [1, at10, 2, 3, 2]]])
    expect(await rows("SELECT * FROM zr_z LEFT JOIN zr_c USING (t) LEFT JOIN zr_b ON zr_b.y = zr_c.z ORDER BY id")).toEqual([[at10, 1, 3, 1, null, null], [at10, 2, 3, 1, null, null]])
    expect(await rows("SELECT * FROM zr_z NATURAL JOIN (SELECT 1 k, TIMESTAMP '2024-01-01 11:00:00 +01:00' t FROM DUAL) JOIN zr_b ON 1 = 1 ORDER BY id")).toEqual([[at10, 1, 1, 1, 2], [at10, 2, 1, 1, 2]])
  })

  it("DUMP of a TIMESTAMP WITH TIME ZONE bind shows its 13 bytes, Typ=181, as of a column (was its text, Typ=1)", async () => {
    const bind = { val: new Date("2024-01-01T10:00:00Z"), type: oracledb.DB_TYPE_TIMESTAMP_TZ }
    // 2024-01-01 10:00 UTC: century and year + 100, hour + 1, minute + 1, second + 1, fraction 0, offset +00:00 as 20, 60
    expect(await boundRows("SELECT DUMP(:b), DUMP(t) FROM zr_z WHERE id = 1", { b: bind })).toEqual([["Typ=181 Len=13: 120,124,1,1,11,1,1,0,0,0,0,20,60", "Typ=181 Len=13: 120,124,1,1,11,1,1,0,0,0,0,20,60"]])
  })

  it("in PL/SQL too, such a TIMESTAMP column is read as a TIMESTAMP (TO_CHAR showed the session time zone)", async () => {
    const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 80 }
    const into = await conn.execute("DECLARE v VARCHAR2(80); BEGIN SELECT TO_CHAR(p.t) INTO v FROM zr_p p, zr_z z WHERE p.id = z.id AND p.id = 1; :r := v; END;", { r: out })
    expect(into.outBinds).toEqual({ r: "01-JAN-24 10.00.00.000000 AM" })
    const loop = await conn.execute("DECLARE v VARCHAR2(80); BEGIN FOR c IN (SELECT p.t + INTERVAL '1' HOUR x FROM zr_p p, zr_z z WHERE p.id = z.id AND p.id = 1) LOOP v := TO_CHAR(c.x); END LOOP; :r := v; END;", { r: out })
    expect(loop.outBinds).toEqual({ r: "01-JAN-24 11.00.00.000000 AM" })
  })
})
