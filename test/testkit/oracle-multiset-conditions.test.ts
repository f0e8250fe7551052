import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * Multiset conditions and CARDINALITY over a nested table column in a client's SQL (SQL Language Reference,
 * "Multiset Conditions": IS [NOT] EMPTY, IS [NOT] A SET and MEMBER OF are NULL for a NULL nested table; "CARDINALITY":
 * NULL for an empty or NULL one), through raw node-oracledb against the Oracle test server.
 */
describe("Oracle test server: multiset conditions over nested table columns", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE msc_strs AS TABLE OF VARCHAR2(10)")
    await conn.execute("CREATE TABLE msc (id NUMBER, c msc_strs) NESTED TABLE c STORE AS msc_c")
    await conn.execute("INSERT INTO msc VALUES (1, msc_strs('a', 'b', 'a'))")
    await conn.execute("INSERT INTO msc VALUES (2, msc_strs())")
    await conn.execute("INSERT INTO msc VALUES (3, NULL)")
    await conn.execute("INSERT INTO msc VALUES (4, msc_strs('b', 'c'))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const ids = async (sql: string, binds: Record<string, unknown> = {}) =>
    ((await conn.execute(sql, binds, { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows as Array<Array<unknown>>).map((r) => (r.length === 1 ? r[0] : r))

  it("filters by IS [NOT] EMPTY, IS [NOT] A SET and [NOT] MEMBER OF, and counts with CARDINALITY", async () => {
    expect(await ids("SELECT id FROM msc WHERE c IS EMPTY ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM msc WHERE c IS NOT EMPTY ORDER BY id")).toEqual([1, 4])
    expect(await ids("SELECT id FROM msc m WHERE m.c IS A SET ORDER BY id")).toEqual([2, 4])
    expect(await ids("SELECT id FROM msc WHERE c IS NOT A SET ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM msc WHERE 'b' MEMBER OF c ORDER BY id")).toEqual([1, 4])
    expect(await ids("SELECT id FROM msc WHERE :x MEMBER c ORDER BY id", { x: "a" })).toEqual([1])
    expect(await ids("SELECT id FROM msc WHERE 'a' NOT MEMBER OF c ORDER BY id")).toEqual([4])
    expect(await ids("SELECT id, CARDINALITY(c) FROM msc ORDER BY id")).toEqual([[1, 3], [2, null], [3, null], [4, 2]])
  })

  // NULL elements count as one value in IS A SET, in SQL as in a block's PL/SQL expression (plsql/multisets.ts);
  // "Multiset Conditions" does not say how NULL elements count (unconfirmed)
  it("counts NULL elements as one value in IS A SET, in SQL as in PL/SQL", async () => {
    await conn.execute("INSERT INTO msc VALUES (5, msc_strs('a', NULL))")
    await conn.execute("INSERT INTO msc VALUES (6, msc_strs(NULL, NULL))")
    expect(await ids("SELECT id FROM msc WHERE id >= 5 AND c IS A SET ORDER BY id")).toEqual([5])
    const out = await conn.execute(
      "DECLARE a msc_strs := msc_strs('a', NULL); b msc_strs := msc_strs(NULL, NULL); BEGIN :a := CASE WHEN a IS A SET THEN 'T' ELSE 'F' END; :b := CASE WHEN b IS A SET THEN 'T' ELSE 'F' END; END;",
      { a: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, b: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(out.outBinds).toEqual({ a: "T", b: "F" })
    await conn.execute("DELETE FROM msc WHERE id >= 5")
  })

  // "Multiset Conditions": the element types must be comparable, so elements compare as values of their type, not as
  // the text a column stores them in
  it("compares numbers, dates and timestamps by value in MEMBER OF and IS A SET", async () => {
    await conn.execute("CREATE TYPE msc_nums AS TABLE OF NUMBER")
    await conn.execute("CREATE TYPE msc_dates AS TABLE OF DATE")
    await conn.execute("CREATE TYPE msc_tss AS TABLE OF TIMESTAMP")
    await conn.execute(`CREATE TABLE msc_v (id NUMBER, price NUMBER(5,2), n msc_nums, d msc_dates, t msc_tss)
      NESTED TABLE n STORE AS msc_v_n NESTED TABLE d STORE AS msc_v_d NESTED TABLE t STORE AS msc_v_t`)
    await conn.execute("INSERT INTO msc_v VALUES (1, 1.5, msc_nums(1.50, 2), msc_dates(DATE '2024-01-01'), msc_tss(TIMESTAMP '2024-01-01 10:00:00.5'))")
    await conn.execute("INSERT INTO msc_v VALUES (2, 3, msc_nums(2.5), msc_dates(DATE '2024-01-02', TO_DATE('02.01.2024', 'DD.MM.YYYY')), msc_tss())")
    const dates = await conn.getDbObjectClass("MSC_DATES")
    const nums = await conn.getDbObjectClass("MSC_NUMS")
    await conn.execute("INSERT INTO msc_v (id, price, n, d) VALUES (3, 7, :n, :d)", { n: new nums([7, 8]), d: new dates([new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 3))]) })
    // a NUMBER(5,2) column's 1.50 is the element 1.5, a bound element 7 the column's 7.00
    expect(await ids("SELECT id FROM msc_v WHERE price MEMBER OF n ORDER BY id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM msc_v WHERE 2.50 MEMBER OF n ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM msc_v WHERE :x MEMBER OF n ORDER BY id", { x: 2 })).toEqual([1])
    // a DATE as any constructor or bind stored it
    expect(await ids("SELECT id FROM msc_v WHERE DATE '2024-01-01' MEMBER OF d ORDER BY id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM msc_v WHERE TO_DATE('2024-01-03', 'YYYY-MM-DD') NOT MEMBER OF d ORDER BY id")).toEqual([1, 2])
    expect(await ids("SELECT id FROM msc_v WHERE TIMESTAMP '2024-01-01 10:00:00.500' MEMBER OF t ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM msc_v WHERE d IS A SET ORDER BY id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM msc_v WHERE n IS A SET ORDER BY id")).toEqual([1, 2, 3])
  })

  // TIMESTAMP WITH TIME ZONE values at the same instant in UTC are identical whatever their offsets (SQL Language
  // Reference, "TIMESTAMP WITH TIME ZONE Data Type"); CHAR values compare with blank-padded semantics ("Data Type
  // Comparison Rules"); RAW values by their bytes
  it("compares TIMESTAMP WITH TIME ZONE elements as instants, CHAR elements blank-padded and RAW elements by their bytes", async () => {
    await conn.execute("CREATE TYPE msc_tzs AS TABLE OF TIMESTAMP WITH TIME ZONE")
    await conn.execute("CREATE TYPE msc_chars AS TABLE OF CHAR(5)")
    await conn.execute("CREATE TYPE msc_raws AS TABLE OF RAW(4)")
    await conn.execute(`CREATE TABLE msc_w (id NUMBER, tz msc_tzs, ch msc_chars, rw msc_raws)
      NESTED TABLE tz STORE AS msc_w_tz NESTED TABLE ch STORE AS msc_w_ch NESTED TABLE rw STORE AS msc_w_rw`)
    await conn.execute(`INSERT INTO msc_w VALUES (1, msc_tzs(TIMESTAMP '2024-01-01 10:00:00 +01:00', TIMESTAMP '2024-01-01 09:00:00 +00:00'),
      msc_chars('ab', 'ab   '), msc_raws(HEXTORAW('0a0b'), HEXTORAW('0A0B')))`)
    await conn.execute(`INSERT INTO msc_w VALUES (2, msc_tzs(TIMESTAMP '2024-07-01 12:00:00 Europe/Berlin'), msc_chars('cd'), msc_raws(HEXTORAW('FF')))`)
    const tzs = await conn.getDbObjectClass("MSC_TZS")
    const raws = await conn.getDbObjectClass("MSC_RAWS")
    await conn.execute("INSERT INTO msc_w (id, tz, rw) VALUES (3, :t, :r)", { t: new tzs([new Date(Date.UTC(2024, 0, 1, 9))]), r: new raws([Buffer.from([10, 11]), Buffer.from([255])]) })
    // one instant written at two offsets is one value; 'ab' and 'ab   ' in CHAR(5) are one value; 0a0b and 0A0B too
    expect(await ids("SELECT id FROM msc_w WHERE tz IS A SET ORDER BY id")).toEqual([2, 3])
    expect(await ids("SELECT id FROM msc_w WHERE ch IS A SET ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM msc_w WHERE rw IS NOT A SET ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM msc_w WHERE TIMESTAMP '2024-01-01 11:00:00 +02:00' MEMBER OF tz ORDER BY id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM msc_w WHERE TIMESTAMP '2024-07-01 10:00:00 +00:00' MEMBER OF tz ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM msc_w WHERE CAST('cd' AS CHAR(3)) MEMBER OF ch ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM msc_w WHERE HEXTORAW('0A0B') MEMBER OF rw ORDER BY id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM msc_w WHERE :r MEMBER OF rw ORDER BY id", { r: Buffer.from([255]) })).toEqual([2, 3])
  })
})
