import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Every INTERVAL precision at its extremes, each in a table that also has columns of every other precision (some kept
// as DuckDB INTERVAL, some in exact storage, testkit/oracle/intervals.ts): a literal is written in the storage of the
// column it goes to, whatever the table's other columns. Ranges: "DAY(p) TO SECOND(s)": p and s 0-9, "YEAR(p) TO
// MONTH": p 0-9 (SQL Language Reference, "Interval Literals" and "Data Types": INTERVAL DAY TO SECOND, INTERVAL YEAR
// TO MONTH, https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html).
const PRECISIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
const dsColumn = (p: number, s: number) => `DS_${p}_${s}`
const ymColumn = (p: number) => `YM_${p}`
const nines = (n: number) => "9".repeat(n)
/** The largest value of DAY(p) TO SECOND(s), as literal text without sign. */
/** `x` with the sign `m` (0 stays +0, as node-oracledb reads a zero field). */
const signed = (m: number, x: number) => (x === 0 ? 0 : m * x)
const dsExtreme = (p: number, s: number) => `${p === 0 ? "0" : nines(p)} 23:59:59${s === 0 ? "" : "." + nines(s)}`

describe("Oracle test server: interval literals are exact per column, whatever the table's other columns (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    const columns = [
      "id NUMBER",
      ...PRECISIONS.flatMap((p) => PRECISIONS.map((s) => `${dsColumn(p, s)} INTERVAL DAY(${p}) TO SECOND(${s})`)),
      ...PRECISIONS.map((p) => `${ymColumn(p)} INTERVAL YEAR(${p}) TO MONTH`)
    ]
    await conn.execute(`CREATE TABLE all_ivl (${columns.join(", ")})`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("writes a zero DAY(9) TO SECOND(9) literal into its column of a table with DAY TO SECOND(0-6) columns (was ORA-01722)", async () => {
    await conn.execute("INSERT INTO all_ivl (id, ds_9_9, ds_2_6) VALUES (1, INTERVAL '0 00:00:00' DAY(9) TO SECOND(9), INTERVAL '0 00:00:00' DAY(9) TO SECOND(9))")
    const r = await conn.execute("SELECT ds_9_9, ds_2_6 FROM all_ivl WHERE id = 1 AND ds_9_9 = INTERVAL '0 00:00:00' DAY TO SECOND AND INTERVAL '0' SECOND = ds_2_6")
    expect(r.rows).toHaveLength(1)
    expect({ ...r.rows![0]![0] }).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: 0 })
    await conn.execute("INSERT INTO all_ivl (id, ds_9_9, ds_2_6, ym_9, ym_2) SELECT 2, INTERVAL '1 00:00:00' DAY TO SECOND, INTERVAL '1' DAY, INTERVAL '1-0' YEAR TO MONTH, INTERVAL '1' YEAR FROM dual")
    const selected = await conn.execute("SELECT ds_9_9, ds_2_6, ym_9, ym_2 FROM all_ivl WHERE id = 2 AND ym_9 = INTERVAL '12' MONTH AND ds_9_9 <> INTERVAL '2' DAY")
    expect(selected.rows!.map((row: Array<object>) => row.map((v) => ({ ...v })))).toEqual([
      [{ days: 1, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, { days: 1, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, { years: 1, months: 0 }, { years: 1, months: 0 }]
    ])
    await conn.rollback()
  })

  it("round-trips every DAY(p) TO SECOND(s) at its extremes and a small value (±), by INSERT, UPDATE and comparison", async () => {
    let id = 10
    for (const p of PRECISIONS)
      for (const s of PRECISIONS)
        for (const sign of ["", "-"])
          for (const [text, days, fraction] of [[dsExtreme(p, s), p === 0 ? 0 : 10 ** p - 1, s === 0 ? 0 : (10 ** s - 1) * 10 ** (9 - s)], [`${p === 0 ? 0 : 1} 23:59:59${s === 0 ? "" : ".5"}`, p === 0 ? 0 : 1, s === 0 ? 0 : 500_000_000]] as const) {
            const column = dsColumn(p, s)
            const literal = `INTERVAL '${sign}${text}' DAY(${p}) TO SECOND(${s})`
            await conn.execute(`INSERT INTO all_ivl (id, ${column}) VALUES (${++id}, ${literal})`)
            await conn.execute(`UPDATE all_ivl SET ${column} = ${literal} WHERE id = ${id}`)
            const r = await conn.execute(`SELECT ${column} FROM all_ivl WHERE id = ${id} AND ${column} = ${literal}`)
            const m = sign === "-" ? -1 : 1
            expect(r.rows?.length, literal).toBe(1)
            expect({ ...r.rows![0]![0] }, literal).toEqual({ days: signed(m, days), hours: m * 23, minutes: m * 59, seconds: m * 59, fseconds: signed(m, fraction) })
          }
    await conn.rollback()
  })

  it("round-trips every YEAR(p) TO MONTH at its extremes and a small value (±), by INSERT, UPDATE and comparison", async () => {
    let id = 1000
    for (const p of PRECISIONS)
      for (const sign of ["", "-"])
        for (const years of [p === 0 ? 0 : 10 ** p - 1, p === 0 ? 0 : 1]) {
          const literal = `INTERVAL '${sign}${years}-11' YEAR(${p}) TO MONTH`
          await conn.execute(`INSERT INTO all_ivl (id, ${ymColumn(p)}) VALUES (${++id}, ${literal})`)
          await conn.execute(`UPDATE all_ivl SET ${ymColumn(p)} = ${literal} WHERE id = ${id}`)
          const r = await conn.execute(`SELECT ${ymColumn(p)} FROM all_ivl WHERE id = ${id} AND ${literal} = ${ymColumn(p)}`)
          const m = sign === "-" ? -1 : 1
          expect(r.rows?.length, literal).toBe(1)
          expect({ ...r.rows![0]![0] }, literal).toEqual({ years: signed(m, years), months: m * 11 })
        }
    await conn.rollback()
  })

  // SQL Language Reference, "Datetime/Interval Arithmetic": when interval arithmetic returns a datetime, the result
  // must be an actual datetime value, else the database returns an error; its examples are 31-AUG-2004 + TO_YMINTERVAL('0-1')
  // and 29-FEB-2004 + TO_YMINTERVAL('1-0') (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html);
  // the error is ORA-01839 "date not valid for month specified". ADD_MONTHS, by contrast, goes to the month's last day.
  it("raises ORA-01839 where datetime + YEAR TO MONTH lands on a day the month lacks; valid days still add", async () => {
    for (const sql of [
      "SELECT DATE '2024-01-31' + INTERVAL '1' MONTH FROM dual",
      "SELECT DATE '2024-02-29' + INTERVAL '1' YEAR FROM dual",
      "SELECT TIMESTAMP '2024-03-31 10:00:00' - INTERVAL '1' MONTH FROM dual",
      "SELECT TIMESTAMP '2024-01-31 10:00:00 +02:00' + INTERVAL '0-1' YEAR TO MONTH FROM dual",
      "SELECT TIMESTAMP '2024-01-31 10:00:00.123456789' + INTERVAL '1' MONTH FROM dual"
    ])
      expect(oraCode(await failure(() => conn.execute(sql))), sql).toBe("ORA-01839")
    await conn.execute("INSERT INTO all_ivl (id, ym_2, ym_9) VALUES (5000, INTERVAL '0-1' YEAR TO MONTH, INTERVAL '0-1' YEAR TO MONTH)")
    for (const column of ["ym_2", "ym_9"])
      expect(oraCode(await failure(() => conn.execute(`SELECT DATE '2024-01-31' + ${column} FROM all_ivl WHERE id = 5000`))), column).toBe("ORA-01839")
    const ok = await conn.execute(
      "SELECT TO_CHAR(DATE '2024-01-29' + INTERVAL '1' MONTH, 'YYYY-MM-DD'), TO_CHAR(DATE '2024-01-31' + INTERVAL '2' MONTH, 'YYYY-MM-DD'), TO_CHAR(DATE '2024-02-29' + INTERVAL '4' YEAR, 'YYYY-MM-DD'), TO_CHAR(ADD_MONTHS(DATE '2024-01-31', 1), 'YYYY-MM-DD') FROM dual"
    )
    expect(ok.rows).toEqual([["2024-02-29", "2024-03-31", "2028-02-29", "2024-02-29"]])
    await conn.rollback()
  })
})
