import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// INTERVAL variables in PL/SQL expressions, through raw node-oracledb: an interval times or divided by a number is an
// interval of its kind, a datetime ± an interval a datetime, an interval ± an interval an interval, and EXTRACT reads
// an interval's fields (SQL Language Reference, "Datetime/Interval Arithmetic" and "EXTRACT (datetime)"; PL/SQL
// Language Reference, "PL/SQL Data Types": PL/SQL's INTERVAL types are SQL's). They failed ORA-00932 / ORA-06502, the
// variable's value having been bound as the engine's interval text.
let server: OracleTestServerHandle
let conn: Conn

const declarations =
  "v INTERVAL DAY TO SECOND := INTERVAL '1 02:00:00' DAY TO SECOND; y INTERVAL YEAR TO MONTH := INTERVAL '1-2' YEAR TO MONTH; " +
  "d DATE := DATE '2024-01-31'; t TIMESTAMP := TIMESTAMP '2024-01-31 10:00:00.5'; z TIMESTAMP WITH TIME ZONE := TIMESTAMP '2024-01-31 10:00:00 +02:00';"

describe("Oracle test server: PL/SQL INTERVAL variables", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const text = async (expr: string): Promise<string> =>
    ((await conn.execute(`DECLARE ${declarations} BEGIN :s := ${expr}; END;`, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })).outBinds as { s: string }).s

  const dayToSecond = async (expr: string): Promise<unknown> =>
    ((await conn.execute(`DECLARE ${declarations} w INTERVAL DAY(9) TO SECOND; BEGIN w := ${expr}; :o := w; END;`, { o: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_DS } })).outBinds as { o: unknown }).o

  const yearToMonth = async (expr: string): Promise<unknown> =>
    ((await conn.execute(`DECLARE ${declarations} w INTERVAL YEAR(9) TO MONTH; BEGIN w := ${expr}; :o := w; END;`, { o: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_YM } })).outBinds as { o: unknown }).o

  const ds = (days: number, hours: number) => ({ days, hours, minutes: 0, seconds: 0, fseconds: 0 })

  it("an INTERVAL DAY TO SECOND variable times or divided by a number, plus or minus an interval, is an interval", async () => {
    expect(await dayToSecond("v * 1.5")).toEqual(ds(1, 15))
    expect(await dayToSecond("2 * v")).toEqual(ds(2, 4))
    expect(await dayToSecond("v / 2")).toEqual(ds(0, 13))
    expect(await dayToSecond("v + v")).toEqual(ds(2, 4))
    expect(await dayToSecond("v - INTERVAL '3' HOUR")).toEqual(ds(0, 23))
    expect(await dayToSecond("-v")).toEqual(ds(-1, -2))
  })

  it("an INTERVAL YEAR TO MONTH variable times or divided by a number, plus an interval, is a YEAR TO MONTH interval", async () => {
    expect(await yearToMonth("y * 2")).toEqual({ years: 2, months: 4 })
    // 14 months / 2: 7 months
    expect(await yearToMonth("y / 2")).toEqual({ years: 0, months: 7 })
    expect(await yearToMonth("y + y")).toEqual({ years: 2, months: 4 })
  })

  it("a DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE variable plus or minus an INTERVAL variable is a datetime", async () => {
    expect(await text("TO_CHAR(d + v, 'YYYY-MM-DD HH24:MI:SS')")).toBe("2024-02-01 02:00:00")
    expect(await text("TO_CHAR(d - v, 'YYYY-MM-DD HH24:MI:SS')")).toBe("2024-01-29 22:00:00")
    expect(await text("TO_CHAR(t + v, 'YYYY-MM-DD HH24:MI:SS.FF3')")).toBe("2024-02-01 12:00:00.500")
    expect(await text("TO_CHAR(t - v, 'YYYY-MM-DD HH24:MI:SS.FF3')")).toBe("2024-01-30 08:00:00.500")
    expect(await text("TO_CHAR(z + v, 'YYYY-MM-DD HH24:MI:SS TZH:TZM')")).toBe("2024-02-01 12:00:00 +02:00")
    expect(await text("TO_CHAR(d + v * 2, 'YYYY-MM-DD HH24:MI:SS')")).toBe("2024-02-02 04:00:00")
    // ADD_MONTHS-like month arithmetic of a YEAR TO MONTH interval: 2024-01-31 + 1-2 is 2025-03-31
    expect(await text("TO_CHAR(d + y, 'YYYY-MM-DD')")).toBe("2025-03-31")
    expect(await text("TO_CHAR(t + y, 'YYYY-MM-DD HH24:MI:SS')")).toBe("2025-03-31 10:00:00")
  })

  it("EXTRACT reads an INTERVAL variable's fields", async () => {
    expect(await text("EXTRACT(DAY FROM v) || ' ' || EXTRACT(HOUR FROM v) || ' ' || EXTRACT(MINUTE FROM v)")).toBe("1 2 0")
    expect(await text("EXTRACT(YEAR FROM y) || ' ' || EXTRACT(MONTH FROM y)")).toBe("1 2")
    // a variable holding 20 hours * 2 holds 1 day 16 hours (the hours field is below 24)
    const block = "DECLARE w INTERVAL DAY TO SECOND := INTERVAL '20' HOUR * 2; BEGIN :s := EXTRACT(DAY FROM w) || ' ' || EXTRACT(HOUR FROM w); END;"
    expect(((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } })).outBinds as { s: string }).s).toBe("1 16")
  })

  // TO_CHAR of an interval prints its sign, leading field at its precision and seconds at their fraction digits (SQL
  // Language Reference, "INTERVAL DAY TO SECOND Data Type" / "INTERVAL YEAR TO MONTH Data Type": PL/SQL's defaults are
  // DAY(2) TO SECOND(6) and YEAR(2)); it printed the engine's `1 day 02:00:00` / `1 year 2 months`
  it("TO_CHAR of an INTERVAL variable prints Oracle's interval form at the declared precisions", async () => {
    expect(await text("TO_CHAR(v)")).toBe("+01 02:00:00.000000")
    expect(await text("TO_CHAR(y)")).toBe("+01-02")
    // `||` converts an interval operand to VARCHAR2 as TO_CHAR does
    expect(await text("'[' || v || '] ' || y")).toBe("[+01 02:00:00.000000] +01-02")
    const block = async (decl: string): Promise<string> =>
      ((await conn.execute(`DECLARE w ${decl}; BEGIN :s := TO_CHAR(w); END;`, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 60 } })).outBinds as { s: string }).s
    expect(await block("INTERVAL DAY(3) TO SECOND(2) := INTERVAL '-5 04:03:02.25' DAY TO SECOND")).toBe("-005 04:03:02.25")
    expect(await block("INTERVAL DAY TO SECOND(3) := INTERVAL '1.5' SECOND")).toBe("+00 00:00:01.500")
    expect(await block("INTERVAL YEAR(4) TO MONTH := INTERVAL '12-11' YEAR TO MONTH")).toBe("+0012-11")
  })

  // "Datetime/Interval Arithmetic" (SQL Language Reference): TIMESTAMP - TIMESTAMP, TIMESTAMP - DATE and DATE -
  // TIMESTAMP are INTERVAL DAY TO SECOND, DATE - DATE a number of days; a TIMESTAMP variable's difference was a number
  // of days, which an INTERVAL variable took as seconds
  it("a TIMESTAMP variable minus a datetime is an INTERVAL DAY TO SECOND", async () => {
    const ds9 = (days: number, hours: number, fseconds: number) => ({ days, hours, minutes: 0, seconds: 0, fseconds })
    expect(await dayToSecond("t - TIMESTAMP '2023-01-01 00:00:00'")).toEqual(ds9(395, 10, 500_000_000))
    expect(await dayToSecond("t - DATE '2024-01-01'")).toEqual(ds9(30, 10, 500_000_000))
    expect(await dayToSecond("d - t")).toEqual(ds9(0, -10, -500_000_000))
    expect(await text("EXTRACT(DAY FROM (t - TIMESTAMP '2023-01-01 00:00:00'))")).toBe("395")
    // DATE - DATE stays a number of days
    expect(await text("TO_CHAR(d - DATE '2023-12-01')")).toBe("61")
    const block = "DECLARE t TIMESTAMP := LOCALTIMESTAMP - INTERVAL '2' DAY; w INTERVAL DAY(9) TO SECOND; BEGIN w := SYSTIMESTAMP - t; :s := EXTRACT(DAY FROM w); END;"
    expect(((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } })).outBinds as { s: string }).s).toBe("2")
  })

  it("a cursor row's interval field and a LOCAL TIME ZONE variable plus an INTERVAL variable are computed on too", async () => {
    await conn.execute("CREATE TABLE interval_rows (d INTERVAL DAY TO SECOND, y INTERVAL YEAR TO MONTH)")
    try {
      await conn.execute("INSERT INTO interval_rows VALUES (INTERVAL '1 02:00:00' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH)")
      const loop = `DECLARE ${declarations} BEGIN FOR r IN (SELECT d, y FROM interval_rows) LOOP
        :s := TO_CHAR(d + r.d * 1.5, 'YYYY-MM-DD HH24:MI') || ' ' || TO_CHAR(d + r.y, 'YYYY-MM-DD') || ' ' || EXTRACT(HOUR FROM r.d * 2); END LOOP; END;`
      expect(((await conn.execute(loop, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 60 } })).outBinds as { s: string }).s).toBe("2024-02-01 15:00 2025-03-31 4")
    } finally {
      await conn.execute("DROP TABLE interval_rows")
    }
    const block = "DECLARE l TIMESTAMP WITH LOCAL TIME ZONE := TIMESTAMP '2024-01-01 10:00:00 +00:00'; v INTERVAL DAY TO SECOND := INTERVAL '1' HOUR; BEGIN :s := TO_CHAR(l + v, 'HH24:MI'); END;"
    expect(((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } })).outBinds as { s: string }).s).toBe("11:00")
  })

  // a block's SQL knows its interval columns as a client's statement does: one in exact storage (DAY(9) TO
  // SECOND(9), YEAR(9) TO MONTH) plus an INTERVAL variable is computed in that storage (it failed ORA-01722), and
  // TO_CHAR of a column prints Oracle's interval form (it printed the stored seconds and months, `93600`, `14`)
  it("a block's SQL computes on its interval columns with INTERVAL variables", async () => {
    await conn.execute("CREATE TABLE interval_cols (d INTERVAL DAY(9) TO SECOND(9), y INTERVAL YEAR(9) TO MONTH, d2 INTERVAL DAY TO SECOND)")
    try {
      const block = `DECLARE ${declarations} BEGIN
        INSERT INTO interval_cols VALUES (v, y, v);
        UPDATE interval_cols SET d = d + v, y = interval_cols.y + y, d2 = d2 * 2;
        SELECT TO_CHAR(d) || ' ' || TO_CHAR(interval_cols.y) || ' ' || TO_CHAR(d2) INTO :s FROM interval_cols; END;`
      expect(((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds as { s: string }).s).toBe(
        "+000000002 04:00:00.000000000 +000000002-04 +02 04:00:00.000000"
      )
    } finally {
      await conn.execute("DROP TABLE interval_cols")
    }
  })

  // a collection's INTERVAL element is computed on as an interval (it failed ORA-06502), and NUMTODSINTERVAL /
  // NUMTOYMINTERVAL are PL/SQL's too (SQL functions PL/SQL expressions take: PL/SQL Language Reference, "SQL Functions
  // in PL/SQL Expressions"; they failed PLS-00201)
  it("a collection's INTERVAL element and NUMTODSINTERVAL / NUMTOYMINTERVAL in PL/SQL", async () => {
    const run = async (block: string): Promise<string> =>
      ((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds as { s: string }).s
    expect(await run("DECLARE TYPE t IS TABLE OF INTERVAL DAY TO SECOND; c t := t(INTERVAL '1' HOUR, INTERVAL '2' HOUR); BEGIN :s := TO_CHAR(DATE '2024-01-01' + c(2) * 2, 'HH24:MI'); END;")).toBe("04:00")
    expect(await run("DECLARE n NUMBER := 90; v INTERVAL DAY TO SECOND := NUMTODSINTERVAL(n, 'MINUTE'); y INTERVAL YEAR TO MONTH := NUMTOYMINTERVAL(14, 'MONTH'); BEGIN :s := TO_CHAR(v) || ' ' || TO_CHAR(y); END;")).toBe(
      "+00 01:30:00.000000 +01-02"
    )
  })
})

