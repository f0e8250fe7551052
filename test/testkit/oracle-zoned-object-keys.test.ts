import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * Objects of a type without a MAP or ORDER method compare attribute by attribute (Object-Relational Developer's
 * Guide, "Comparing Objects"), so a TIMESTAMP WITH TIME ZONE attribute two object levels down (`o.d.i.at`) compares
 * as its instant, as two values at the same instant in UTC are identical whatever their offsets (SQL Language
 * Reference, "TIMESTAMP WITH TIME ZONE Data Type", "Datetime Comparisons"): in `a = b`, MEMBER OF / IS A SET, IN
 * lists, IN (subquery), DISTINCT, GROUP BY and UNION / INTERSECT / MINUS, through raw node-oracledb against the
 * Oracle test server.
 */
describe("Oracle test server: a zoned attribute two object levels down compares by instant", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  /** A zk_out whose innermost zoned attribute is `ts` (a TIMESTAMP WITH TIME ZONE literal's text). */
  const out = (k: number, ts: string, s = "x") => `zk_out(${k}, zk_mid(${k}, zk_in(TIMESTAMP '${ts}', '${s}')))`
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE zk_in AS OBJECT (at TIMESTAMP WITH TIME ZONE, s VARCHAR2(5))")
    await conn.execute("CREATE TYPE zk_mid AS OBJECT (m NUMBER, i zk_in)")
    await conn.execute("CREATE TYPE zk_out AS OBJECT (k NUMBER, d zk_mid)")
    await conn.execute("CREATE TYPE zk_outs AS TABLE OF zk_out")
    await conn.execute("CREATE TABLE zk (id NUMBER, a zk_out, b zk_out, e zk_outs) NESTED TABLE e STORE AS zk_e")
    // row 1: one instant written at +01:00 and at +00:00; row 2: two instants
    await conn.execute(`INSERT INTO zk VALUES (1, ${out(1, "2024-01-01 10:00:00 +01:00")}, ${out(1, "2024-01-01 09:00:00 +00:00")},
      zk_outs(${out(1, "2024-01-01 10:00:00 +01:00")}, ${out(1, "2024-01-01 09:00:00 +00:00")}))`)
    await conn.execute(`INSERT INTO zk VALUES (2, ${out(2, "2024-07-01 12:00:00 Europe/Berlin")}, ${out(2, "2024-07-01 12:00:00 +00:00")},
      zk_outs(${out(2, "2024-07-01 12:00:00 Europe/Berlin")}, ${out(2, "2024-07-01 12:00:00 +00:00")}))`)
    await conn.execute("CREATE TABLE zkd (id NUMBER, o zk_out)")
    await conn.execute(`INSERT INTO zkd VALUES (1, ${out(1, "2024-01-01 10:00:00 +01:00")})`)
    await conn.execute(`INSERT INTO zkd VALUES (2, ${out(1, "2024-01-01 04:00:00 -05:00")})`)
    await conn.execute(`INSERT INTO zkd VALUES (3, ${out(1, "2024-01-01 10:00:00 +00:00")})`)
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async (sql: string, binds: Record<string, unknown> = {}) =>
    (await conn.execute(sql, binds, { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows as Array<Array<unknown>>
  const ids = async (sql: string) => (await rows(sql)).map((r) => r[0])

  it("takes one instant written at two offsets as one value in a = b", async () => {
    expect(await ids("SELECT id FROM zk WHERE a = b ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM zk t WHERE t.a <> t.b ORDER BY id")).toEqual([2])
    expect(await ids(`SELECT id FROM zk WHERE a = ${out(2, "2024-07-01 10:00:00 +00:00")} ORDER BY id`)).toEqual([2])
  })

  it("takes one instant written at two offsets as one value in MEMBER OF and IS A SET", async () => {
    expect(await ids(`SELECT id FROM zk WHERE ${out(1, "2024-01-01 08:00:00 -01:00")} MEMBER OF e ORDER BY id`)).toEqual([1])
    expect(await ids(`SELECT id FROM zk WHERE ${out(1, "2024-01-01 08:00:00 -01:00")} NOT MEMBER OF e ORDER BY id`)).toEqual([2])
    expect(await ids("SELECT id FROM zk WHERE e IS A SET ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM zk WHERE e IS NOT A SET ORDER BY id")).toEqual([1])
  })

  it("takes one instant written at two offsets as one value in an IN list", async () => {
    expect(await ids(`SELECT id FROM zk WHERE a IN (${out(9, "2024-01-01 09:00:00 +00:00")}, ${out(1, "2024-01-01 11:00:00 +02:00")}) ORDER BY id`)).toEqual([1])
    expect(await ids(`SELECT id FROM zk WHERE a NOT IN (${out(1, "2024-01-01 11:00:00 +02:00")}) ORDER BY id`)).toEqual([2])
    expect(await ids(`SELECT id FROM zkd WHERE o IN (${out(1, "2024-01-01 09:00:00 +00:00")}) ORDER BY id`)).toEqual([1, 2])
  })

  it("takes one instant written at two offsets as one value in IN (subquery)", async () => {
    expect(await ids("SELECT id FROM zk WHERE a IN (SELECT b FROM zk) ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM zkd WHERE o IN (SELECT t.a FROM zk t WHERE t.id = 1) ORDER BY id")).toEqual([1, 2])
    expect(await ids("SELECT id FROM zkd WHERE o NOT IN (SELECT b FROM zk) ORDER BY id")).toEqual([3])
    // each query of a set operation chain in the subquery selects its objects' keys
    expect(await ids("SELECT id FROM zkd WHERE o IN (SELECT a FROM zk WHERE id = 9 UNION SELECT b FROM zk WHERE id = 1) ORDER BY id")).toEqual([1, 2])
    expect(await ids("SELECT id FROM zkd WHERE o IN (SELECT o FROM zkd WHERE id = 1 INTERSECT SELECT o FROM zkd WHERE id = 2) ORDER BY id")).toEqual([1, 2])
  })

  it("takes one instant written at two offsets as one value in DISTINCT", async () => {
    expect(await rows("SELECT COUNT(*) FROM (SELECT DISTINCT o FROM zkd)")).toEqual([[2]])
    const distinct = await rows("SELECT DISTINCT o FROM zkd")
    expect(distinct).toHaveLength(2)
    expect((distinct[0]![0] as { K: number }).K).toBe(1)
  })

  it("takes one instant written at two offsets as one value in GROUP BY", async () => {
    expect(await ids("SELECT COUNT(*) FROM zkd GROUP BY o ORDER BY 1")).toEqual([1, 2])
    const grouped = await rows("SELECT o, COUNT(*) n FROM zkd GROUP BY o ORDER BY n")
    expect(grouped.map((r) => r[1])).toEqual([1, 2])
    expect((grouped[1]![0] as { D: { I: { S: string } } }).D.I.S).toBe("x")
  })

  it("takes one instant written at two offsets as one value in UNION, INTERSECT and MINUS", async () => {
    expect(await rows("SELECT o FROM zkd WHERE id = 1 UNION SELECT o FROM zkd WHERE id = 2")).toHaveLength(1)
    expect(await rows("SELECT o FROM zkd WHERE id = 1 UNION SELECT o FROM zkd WHERE id = 3")).toHaveLength(2)
    expect(await rows("SELECT o FROM zkd WHERE id = 1 INTERSECT SELECT a FROM zk WHERE id = 1")).toHaveLength(1)
    expect(await rows("SELECT o FROM zkd WHERE id = 1 INTERSECT SELECT b FROM zk WHERE id = 1")).toHaveLength(1)
    expect(await rows("SELECT o FROM zkd MINUS SELECT b FROM zk")).toHaveLength(1)
  })

  it("compares a TIMESTAMP(9) WITH TIME ZONE attribute to the nanosecond", async () => {
    await conn.execute("CREATE TYPE zk_nin AS OBJECT (at TIMESTAMP(9) WITH TIME ZONE)")
    await conn.execute("CREATE TYPE zk_nout AS OBJECT (i zk_nin)")
    await conn.execute("CREATE TABLE zkn (id NUMBER, a zk_nout, b zk_nout)")
    const nout = (ts: string) => `zk_nout(zk_nin(TIMESTAMP '${ts}'))`
    await conn.execute(`INSERT INTO zkn VALUES (1, ${nout("2024-01-01 10:00:00.123456789 +01:00")}, ${nout("2024-01-01 09:00:00.123456788 +00:00")})`)
    await conn.execute(`INSERT INTO zkn VALUES (2, ${nout("2024-01-01 10:00:00.123456789 +01:00")}, ${nout("2024-01-01 09:00:00.123456789 +00:00")})`)
    expect(await ids("SELECT id FROM zkn WHERE a = b ORDER BY id")).toEqual([2])
    expect(await rows("SELECT COUNT(*) FROM (SELECT DISTINCT b FROM zkn)")).toEqual([[2]])
  })

  it("compares them so in a PL/SQL block's SQL too", async () => {
    const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING }
    const block = `DECLARE n NUMBER; s VARCHAR2(40); BEGIN
        SELECT COUNT(*) INTO n FROM (SELECT DISTINCT o FROM zkd); s := n;
        SELECT COUNT(*) INTO n FROM (SELECT o FROM zkd GROUP BY o); s := s || ' ' || n;
        SELECT COUNT(*) INTO n FROM zkd WHERE o IN (SELECT a FROM zk WHERE id = 1); s := s || ' ' || n;
        SELECT COUNT(*) INTO n FROM (SELECT o FROM zkd UNION SELECT b FROM zk); s := s || ' ' || n;
        SELECT COUNT(*) INTO n FROM zk WHERE a = b; :s := s || ' ' || n; END;`
    expect((await conn.execute(block, { s: out })).outBinds.s).toBe("2 2 2 3 1")
  })
})
