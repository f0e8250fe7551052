import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server fidelity (stored datetimes, literal describe, ORDER BY, TO_CHAR), through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("refuses to change a non-empty character column to TIMESTAMP(9) (ORA-01439), so no text that is no datetime is stored there", async () => {
    // TIMESTAMP(7-9) is stored as text and writes refuse text that is no datetime; changing a character column's type
    // would keep its text, and Oracle refuses that unless the column is empty (ORA-01439)
    await conn.execute("CREATE TABLE ts9 (id NUMBER PRIMARY KEY, t VARCHAR2(40))")
    await conn.execute("INSERT INTO ts9 VALUES (1, '2024-01-01 10:00:00.123456789')")
    await conn.execute("INSERT INTO ts9 VALUES (2, 'not a timestamp')")
    const e = await failure(() => conn.execute("ALTER TABLE ts9 MODIFY (t TIMESTAMP(9))"))
    expect(e.message).not.toMatch(/NJS-/)
    expect(oraCode(e)).toBe("ORA-01439")
    const kept = await conn.execute("SELECT id, t FROM ts9 ORDER BY id")
    expect(kept.rows).toEqual([[1, "2024-01-01 10:00:00.123456789"], [2, "not a timestamp"]])
  })

  it("describes every bare NUMBER literal as a constant: precision 0, scale -127, with or without a fraction, sign or alias", async () => {
    const r = await conn.execute("SELECT 1, 1.5, -0.25 AS q, 2.50 r, 1.5d FROM dual")
    expect(r.metaData.map((m: any) => [m.dbTypeName, m.precision, m.scale])).toEqual([
      ["NUMBER", 0, -127],
      ["NUMBER", 0, -127],
      ["NUMBER", 0, -127],
      ["NUMBER", 0, -127],
      ["BINARY_DOUBLE", undefined, undefined]
    ])
    expect(r.rows).toEqual([[1, 1.5, -0.25, 2.5, 1.5]])
  })

  it("orders by the alias of a CASE over an unbounded NUMBER column: numerically for a NUMBER result, as text for a text one", async () => {
    await conn.execute("CREATE TABLE cn (id NUMBER(3), n NUMBER)")
    for (const [id, n] of [[1, "10.5"], [2, "9"], [3, "100"]]) await conn.execute(`INSERT INTO cn VALUES (${id}, ${n})`)
    const numeric = await conn.execute("SELECT id, CASE WHEN n > 9.5 THEN n ELSE 0 END AS k FROM cn ORDER BY k DESC")
    expect(numeric.rows).toEqual([[3, 100], [1, 10.5], [2, 0]])
    const text = await conn.execute("SELECT id, CASE WHEN n > 9.5 THEN 'big' ELSE 'small' END k FROM cn ORDER BY k, id")
    expect(text.rows).toEqual([[1, "big"], [3, "big"], [2, "small"]])
    // the same through a subquery's alias
    const nested = await conn.execute("SELECT k FROM (SELECT CASE WHEN n > 9.5 THEN 'big' ELSE 'small' END k FROM cn) ORDER BY k")
    expect(nested.rows).toEqual([["big"], ["big"], ["small"]])
  })

  it("TO_CHAR with SYYYY signs BC years with a minus and AD years with a blank (none under FM); YYYY is the absolute year", async () => {
    const r = await conn.execute(
      "SELECT TO_CHAR(DATE '1500-03-04', 'SYYYY-MM-DD'), TO_CHAR(DATE '-4712-01-01', 'SYYYY YYYY'), TO_CHAR(DATE '2024-01-01', 'FMSYYYY'), " +
        "TO_CHAR(TIMESTAMP '-0044-03-15 10:00:00.123456789', 'SYYYY YYYY FF9'), TO_CHAR(TIMESTAMP '2024-03-15 10:00:00 +01:00', 'SYYYY TZH:TZM') FROM dual"
    )
    expect(r.rows).toEqual([[" 1500-03-04", "-4712 4712", "2024", "-0044 0044 123456789", " 2024 +01:00"]])
  })

  it("TO_TIMESTAMP_TZ(text, format) reads the text's offset or region, else the session time zone, and refuses text that does not match", async () => {
    const r = await conn.execute(
      "SELECT TO_CHAR(TO_TIMESTAMP_TZ('2024-03-15 10:20:30.123 Europe/Paris', 'YYYY-MM-DD HH24:MI:SS.FF TZR'), 'YYYY-MM-DD HH24:MI:SS.FF3 TZR'), " +
        "TO_CHAR(TO_TIMESTAMP_TZ('15-MAR-2024 01:02:03 PM -08:00', 'DD-MON-YYYY HH:MI:SS AM TZH:TZM'), 'YYYY-MM-DD HH24:MI:SS TZH:TZM'), " +
        "TO_TIMESTAMP_TZ('2024-03-15 10:20:30 +05:30', 'YYYY-MM-DD HH24:MI:SS TZH:TZM') FROM dual"
    )
    expect(r.rows[0].slice(0, 2)).toEqual(["2024-03-15 10:20:30.123 Europe/Paris", "2024-03-15 13:02:03 -08:00"])
    expect((r.rows[0][2] as Date).toISOString()).toBe("2024-03-15T04:50:30.000Z")
    expect(r.metaData[2].dbTypeName).toBe("TIMESTAMP WITH TIME ZONE")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+02:00'")
    try {
      const zoneless = await conn.execute("SELECT TO_CHAR(TO_TIMESTAMP_TZ('2024-03-15 10:20', 'YYYY-MM-DD HH24:MI'), 'HH24:MI TZH:TZM') FROM dual")
      expect(zoneless.rows).toEqual([["10:20 +02:00"]])
    } finally {
      await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    }
    // YYYY meets a letter: ORA-01858 "a non-numeric character was found where a numeric was expected"
    expect(oraCode(await failure(() => conn.execute("SELECT TO_TIMESTAMP_TZ('not a time', 'YYYY-MM-DD') FROM dual")))).toBe("ORA-01858")
  })

  it("sorts NULL as the largest value: last ascending, first descending, unless NULLS FIRST / LAST says otherwise", async () => {
    await conn.execute("CREATE TABLE nulls_order (id NUMBER(3), n NUMBER, m NUMBER(5), s VARCHAR2(5))")
    await conn.execute("INSERT INTO nulls_order VALUES (1, NULL, NULL, NULL)")
    await conn.execute("INSERT INTO nulls_order VALUES (2, 9, 9, 'a')")
    const ids = async (order: string) => (await conn.execute(`SELECT id FROM nulls_order ORDER BY ${order}`)).rows.map((r: Array<number>) => r[0])
    expect(await ids("n DESC")).toEqual([1, 2])
    expect(await ids("m DESC")).toEqual([1, 2])
    expect(await ids("s DESC")).toEqual([1, 2])
    expect(await ids("s")).toEqual([2, 1])
    expect(await ids("m DESC NULLS LAST")).toEqual([2, 1])
    expect(await ids("m NULLS FIRST")).toEqual([1, 2])
  })
})
