/**
 * `ALTER TABLE ... MODIFY` of a TIMESTAMP or INTERVAL column to a smaller fractional second or leading field
 * precision, against the Oracle test server with raw node-oracledb. Oracle refuses it while the column holds values
 * with ORA-30082 "datetime/interval column to be modified must be empty to decrease fractional second or leading
 * field precision" ("Such columns are only allowed to increase the precisions": Database Error Messages, ORA-30082,
 * https://docs.oracle.com/en/error-help/db/ora-30082/); an empty column, or an increase, is changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const describedAs = async (table: string, column: string) =>
  ((await conn.execute(`SELECT data_type FROM user_tab_columns WHERE table_name = '${table}' AND column_name = '${column}'`)).rows as Array<[string]> | undefined)?.[0]?.[0]

describe("Oracle test server: MODIFY of datetime and interval precision", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE tp (
      id NUMBER, ts TIMESTAMP(6), tz TIMESTAMP(6) WITH TIME ZONE, ds INTERVAL DAY(4) TO SECOND(6), ym INTERVAL YEAR(4) TO MONTH)`)
    await conn.execute(`INSERT INTO tp VALUES (1, TIMESTAMP '2024-01-02 03:04:05.123456', TIMESTAMP '2024-01-02 03:04:05.5 +02:00',
      INTERVAL '1234 01:02:03.456789' DAY(4) TO SECOND(6), INTERVAL '1234-05' YEAR(4) TO MONTH)`)
    await conn.execute("CREATE TABLE te (ts TIMESTAMP(6), ds INTERVAL DAY(4) TO SECOND(6), ym INTERVAL YEAR(4) TO MONTH, d9 INTERVAL DAY(9) TO SECOND(9), y9 INTERVAL YEAR(9) TO MONTH, t9 TIMESTAMP(9))")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it.each([
    ["ts TIMESTAMP(3)"],
    ["ts TIMESTAMP(0)"],
    ["tz TIMESTAMP(3) WITH TIME ZONE"],
    ["ds INTERVAL DAY(2) TO SECOND(6)"],
    ["ds INTERVAL DAY(4) TO SECOND(2)"],
    ["ym INTERVAL YEAR(2) TO MONTH"]
  ])("refuses MODIFY (%s) over values with ORA-30082, the column unchanged", async (change) => {
    const e = await failure(() => conn.execute(`ALTER TABLE tp MODIFY (${change})`))
    expect(oraCode(e)).toBe("ORA-30082")
    expect(e.message).toContain("datetime/interval column to be modified must be empty to decrease fractional second or leading field precision")
    const [column] = change.split(" ")
    const before = { TS: "TIMESTAMP(6)", TZ: "TIMESTAMP(6) WITH TIME ZONE", DS: "INTERVAL DAY(4) TO SECOND(6)", YM: "INTERVAL YEAR(4) TO MONTH" }
    expect(await describedAs("TP", column!.toUpperCase())).toBe(before[column!.toUpperCase() as keyof typeof before])
    const row = await conn.execute("SELECT TO_CHAR(ts, 'YYYY-MM-DD HH24:MI:SS.FF6'), TO_CHAR(ds) FROM tp")
    expect(row.rows).toEqual([["2024-01-02 03:04:05.123456", "+1234 01:02:03.456789"]])
  })

  it("changes an empty column to a smaller precision", async () => {
    await conn.execute(`ALTER TABLE te MODIFY (ts TIMESTAMP(3), ds INTERVAL DAY(2) TO SECOND(3), ym INTERVAL YEAR(2) TO MONTH,
      d9 INTERVAL DAY(2) TO SECOND(6), y9 INTERVAL YEAR(2) TO MONTH, t9 TIMESTAMP(6))`)
    expect(await describedAs("TE", "TS")).toBe("TIMESTAMP(3)")
    expect(await describedAs("TE", "DS")).toBe("INTERVAL DAY(2) TO SECOND(3)")
    expect(await describedAs("TE", "YM")).toBe("INTERVAL YEAR(2) TO MONTH")
    expect(await describedAs("TE", "D9")).toBe("INTERVAL DAY(2) TO SECOND(6)")
    expect(await describedAs("TE", "Y9")).toBe("INTERVAL YEAR(2) TO MONTH")
    expect(await describedAs("TE", "T9")).toBe("TIMESTAMP(6)")
    await conn.execute("INSERT INTO te (d9, y9, t9) VALUES (INTERVAL '1 00:00:01.5' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH, TIMESTAMP '2024-01-01 00:00:00.25')")
    expect((await conn.execute("SELECT TO_CHAR(d9), TO_CHAR(y9), TO_CHAR(t9, 'FF6') FROM te")).rows).toEqual([["+01 00:00:01.500000", "+01-02", "250000"]])
  })

  it.each([
    ["TIMESTAMP(6)", "TIMESTAMP '2024-01-02 03:04:05.123456'", "TIMESTAMP(9)", "TO_CHAR(v, 'YYYY-MM-DD HH24:MI:SS.FF9')", "2024-01-02 03:04:05.123456000"],
    ["TIMESTAMP(3)", "TIMESTAMP '0001-01-01 00:00:00.5'", "TIMESTAMP(6)", "TO_CHAR(v, 'YYYY-MM-DD HH24:MI:SS.FF6')", "0001-01-01 00:00:00.500000"],
    ["TIMESTAMP(6) WITH TIME ZONE", "TIMESTAMP '2024-01-02 03:04:05.5 +02:00'", "TIMESTAMP(9) WITH TIME ZONE", "TO_CHAR(v, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM')", "2024-01-02 03:04:05.500000000 +02:00"],
    ["INTERVAL DAY(4) TO SECOND(6)", "INTERVAL '-1234 01:02:03.456789' DAY(4) TO SECOND(6)", "INTERVAL DAY(9) TO SECOND(9)", "TO_CHAR(v)", "-000001234 01:02:03.456789000"],
    ["INTERVAL DAY(2) TO SECOND(0)", "INTERVAL '12 01:02:03' DAY TO SECOND(0)", "INTERVAL DAY(3) TO SECOND(7)", "TO_CHAR(v)", "+012 01:02:03.0000000"],
    ["INTERVAL YEAR(4) TO MONTH", "INTERVAL '-1234-05' YEAR(4) TO MONTH", "INTERVAL YEAR(9) TO MONTH", "TO_CHAR(v)", "-000001234-05"]
  ])("widens %s holding a value to a larger precision, the value kept", async (from, value, to, read, expected) => {
    const table = `w${from.replace(/\W/g, "").slice(0, 20)}${to.replace(/\W/g, "").slice(0, 20)}`
    await conn.execute(`CREATE TABLE ${table} (v ${from})`)
    await conn.execute(`INSERT INTO ${table} VALUES (${value})`)
    await conn.execute(`ALTER TABLE ${table} MODIFY (v ${to})`)
    expect(await describedAs(table.toUpperCase(), "V")).toBe(to)
    expect((await conn.execute(`SELECT ${read} FROM ${table}`)).rows).toEqual([[expected]])
  })

  it("changes a column holding values to a larger precision, its values kept", async () => {
    await conn.execute("ALTER TABLE tp MODIFY (ts TIMESTAMP(9), ym INTERVAL YEAR(6) TO MONTH, ds INTERVAL DAY(6) TO SECOND(9))")
    expect(await describedAs("TP", "TS")).toBe("TIMESTAMP(9)")
    expect(await describedAs("TP", "YM")).toBe("INTERVAL YEAR(6) TO MONTH")
    const row = await conn.execute("SELECT TO_CHAR(ts, 'YYYY-MM-DD HH24:MI:SS.FF9'), TO_CHAR(ym), TO_CHAR(ds) FROM tp")
    expect(row.rows).toEqual([["2024-01-02 03:04:05.123456000", "+001234-05", "+001234 01:02:03.456789000"]])
  })
})
