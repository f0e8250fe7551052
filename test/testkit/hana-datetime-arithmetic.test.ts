import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

/** hdb's type code of LONGDATE, HANA's TIMESTAMP at data format version 4 and later. */
const LONGDATE = 61

/**
 * A TIMESTAMP is no number. HANA's arithmetic operators work on numeric values (SAP HANA Reference, "Operators",
 * help.sap.com/hana/html/_esql_operators.html), days and seconds are added with ADD_DAYS & co., and SUM / AVG take
 * a numeric column (SAP Learning, "SAP HANA SQLScript Basics", "Aggregating Data"). The server stores a TIMESTAMP as
 * 100 ns ticks in a DuckDB UBIGINT (testkit/hana/longdate.ts), which must never be computed on as a number: `ts + 1`
 * fails with 266 as a DATE argument of SUM does, instead of being 100 ns later.
 */
describe("HANA test server: TIMESTAMP fields, arithmetic and numeric functions (raw hdb client, data format version 8)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE COLUMN TABLE ar (id INTEGER, ts TIMESTAMP, sd SECONDDATE, n DECIMAL(10,2), i INTEGER)",
      "INSERT INTO ar VALUES (1, '2024-01-02 03:04:05.1234567', '2024-01-02 03:04:05', 1.25, 3)",
      "INSERT INTO ar VALUES (2, '2023-12-31 23:59:59.9999999', '2023-12-31 23:59:59', 2.5, 4)"
    ]
  }, (opened) => (c = opened.client))

  const code = async (sql: string): Promise<number | string> => (await failure(exec(c, sql))).code

  it("EXTRACT takes every field of a TIMESTAMP column; SECOND keeps the fraction as SECOND(ts) does", async () => {
    expect(
      await exec(
        c,
        "SELECT EXTRACT(YEAR FROM ts) AS Y, EXTRACT(MONTH FROM ts) AS MO, EXTRACT(DAY FROM ts) AS D, EXTRACT(HOUR FROM ts) AS H, " +
          "EXTRACT(MINUTE FROM ts) AS MI, EXTRACT(SECOND FROM ts) AS S, EXTRACT(SECOND FROM sd) AS SS FROM ar ORDER BY id"
      )
    ).toEqual([
      { Y: 2024, MO: 1, D: 2, H: 3, MI: 4, S: "5.1234567", SS: 5 },
      { Y: 2023, MO: 12, D: 31, H: 23, MI: 59, S: "59.9999999", SS: 59 }
    ])
    expect(await exec(c, "SELECT EXTRACT(SECOND FROM MAX(ts)) AS S FROM ar")).toEqual([{ S: "5.1234567" }])
  })

  it("arithmetic on a TIMESTAMP fails with 266 (ADD_DAYS, ADD_SECONDS, ADD_NANO100 move it); numbers compute as before", async () => {
    for (const sql of [
      "SELECT ts + 1 AS X FROM ar",
      "SELECT ts - 1 AS X FROM ar",
      "SELECT 1 + ts AS X FROM ar",
      "SELECT -ts AS X FROM ar",
      "SELECT ts - ts AS X FROM ar",
      "SELECT ts * 2 AS X FROM ar",
      "SELECT MAX(ts) + 0 AS X FROM ar",
      "UPDATE ar SET ts = ts + 1"
    ]) {
      expect([sql, await code(sql)]).toEqual([sql, 266])
    }
    expect(await exec(c, "SELECT ADD_DAYS(ts, 1) AS D, ADD_SECONDS(ts, 1) AS S, ADD_NANO100(ts, 1) AS N FROM ar WHERE id = 1")).toEqual([
      { D: "2024-01-03 03:04:05.123456700", S: "2024-01-02 03:04:06.123456700", N: "2024-01-02 03:04:05.123456800" }
    ])
    expect(await exec(c, "SELECT n + 1 AS A, i * 2 AS B, -n AS C, 2 * (i + 1) AS D, n - i AS E FROM ar ORDER BY id")).toEqual([
      { A: "2.25", B: 6, C: "-1.25", D: 8, E: "-1.75" },
      { A: "3.50", B: 8, C: "-2.50", D: 10, E: "-1.50" }
    ])
  })

  it("SUM, AVG, ABS, ROUND, CEIL, FLOOR, MOD and POWER of a TIMESTAMP fail with 266; of numbers they keep HANA's types", async () => {
    for (const sql of [
      "SELECT SUM(ts) AS X FROM ar",
      "SELECT AVG(ts) AS X FROM ar",
      "SELECT AVG(DISTINCT ts) AS X FROM ar",
      "SELECT SUM(ts) OVER () AS X FROM ar",
      "SELECT ABS(ts) AS X FROM ar",
      "SELECT ROUND(ts) AS X FROM ar",
      "SELECT ROUND(ts, 2) AS X FROM ar",
      "SELECT CEIL(ts) AS X FROM ar",
      "SELECT FLOOR(MAX(ts)) AS X FROM ar",
      "SELECT MOD(ts, 2) AS X FROM ar",
      "SELECT POWER(2, ts) AS X FROM ar"
    ]) {
      expect([sql, await code(sql)]).toEqual([sql, 266])
    }
    expect(await exec(c, "SELECT SUM(n) AS S, AVG(i) AS A, AVG(n) AS AN, ROUND(SUM(n), 1) AS R, ABS(-MAX(i)) AS B, SUM(i * 2 + 1) AS T, MOD(SUM(i), 4) AS M FROM ar")).toEqual([
      { S: "3.75", A: "3.500000", AN: "1.88", R: "3.8", B: 4, T: 16, M: 3 }
    ])
  })

  it("every other numeric function of a TIMESTAMP (SIN, BITAND, UMINUS, …) fails with 266; of numbers they compute as before", async () => {
    for (const sql of [
      "SELECT SIN(ts) AS X FROM ar",
      "SELECT COS(MAX(ts)) AS X FROM ar",
      "SELECT ATAN2(1, ts) AS X FROM ar",
      "SELECT BITAND(ts, 1) AS X FROM ar",
      "SELECT BITCOUNT(ts) AS X FROM ar",
      "SELECT BITSET(ts, 1, 1) AS X FROM ar",
      "SELECT NDIV0(ts, 1) AS X FROM ar",
      "SELECT UMINUS(ts) AS X FROM ar",
      "SELECT TANH(ts) AS X FROM ar"
    ]) {
      expect([sql, await code(sql)]).toEqual([sql, 266])
    }
    expect(await exec(c, "SELECT BITAND(i, 6) AS B, UMINUS(n) AS U, SIGN(SIN(i)) AS S FROM ar ORDER BY id")).toEqual([
      { B: 2, U: "-1.25", S: 1 },
      { B: 4, U: "-2.50", S: -1 }
    ])
  })

  it("a number written into a TIMESTAMP column is no ticks count: it fails with 303 on every write path", async () => {
    expect(await code("INSERT INTO ar (id, ts) VALUES (3, 5)")).toBe(303)
    expect(await code("INSERT INTO ar (id, ts) VALUES (3, -5)")).toBe(303)
    expect(await code("UPDATE ar SET ts = 7 WHERE id = 1")).toBe(303)
    await exec(c, "CREATE COLUMN TABLE ar_key (id INTEGER PRIMARY KEY, ts TIMESTAMP)")
    expect(await code("UPSERT ar_key VALUES (1, 8) WITH PRIMARY KEY")).toBe(303)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM ar_key")).toEqual([{ N: 0 }])
    expect(await code("INSERT INTO ar (id, ts) SELECT 3, i FROM ar WHERE id = 1")).toBe(303)
    expect(await exec(c, "SELECT id, ts FROM ar ORDER BY id")).toEqual([
      { ID: 1, TS: "2024-01-02 03:04:05.123456700" },
      { ID: 2, TS: "2023-12-31 23:59:59.999999900" }
    ])
  })

  it("ADD_DAYS, ADD_MONTHS and ADD_YEARS of a character column take it as a TIMESTAMP, all seven digits kept, as ADD_SECONDS does", async () => {
    await exec(c, "CREATE COLUMN TABLE ar_text (id INTEGER, s NVARCHAR(40))")
    await exec(c, "INSERT INTO ar_text VALUES (1, '2024-01-31'), (2, '2024-01-31 10:11:12.1234567')")
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT ADD_DAYS(s, 1) AS D, ADD_MONTHS(s, 1) AS M, ADD_YEARS(MAX(s), 1) AS Y, ADD_SECONDS(s, 1) AS S FROM ar_text GROUP BY id, s ORDER BY id", cb))
    expect(rs.metadata.map((m) => m.dataType)).toEqual([LONGDATE, LONGDATE, LONGDATE, LONGDATE])
    expect(await call((cb) => rs.fetch(cb))).toEqual([
      { D: "2024-02-01 00:00:00.000000000", M: "2024-02-29 00:00:00.000000000", Y: "2025-01-31 00:00:00.000000000", S: "2024-01-31 00:00:01.000000000" },
      { D: "2024-02-01 10:11:12.123456700", M: "2024-02-29 10:11:12.123456700", Y: "2025-01-31 10:11:12.123456700", S: "2024-01-31 10:11:13.123456700" }
    ])
    // a parameter there is still a TIMESTAMP parameter
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT ADD_DAYS(?, 1) AS D FROM DUMMY", cb))
    expect(st.parameterMetadata.map((m) => m.dataType)).toEqual([LONGDATE])
    expect(await call((cb) => st.exec(["2024-01-31 10:11:12.1234567"], cb))).toEqual([{ D: "2024-02-01 10:11:12.123456700" }])
    // a text that is no datetime fails as it does written into a TIMESTAMP
    await exec(c, "INSERT INTO ar_text VALUES (3, 'abc')")
    expect(await code("SELECT ADD_MONTHS(s, 1) AS M FROM ar_text")).toBe(303)
  })

  it("a TIMESTAMP inside a larger expression compared with a text converts the text; text that is no datetime written into a TIMESTAMP fails with 303", async () => {
    expect(await exec(c, "SELECT COUNT(*) AS N FROM ar HAVING COALESCE(MAX(ts), MIN(ts)) > '2024-01-02 03:04:05.1234566'")).toEqual([{ N: 2 }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM ar HAVING (MAX(ts)) <= '2024-01-02 03:04:05.1234566'")).toEqual([])
    expect(await exec(c, "SELECT id FROM ar WHERE CASE WHEN id = 1 THEN ts ELSE sd END >= '2024-01-02 03:04:05.1234567'")).toEqual([{ ID: 1 }])
    // a TIMESTAMP is no number, whatever it is compared with
    expect(await code("SELECT COUNT(*) AS N FROM ar HAVING MAX(ts) + 0 > '2024-01-01'")).toBe(266)
    // SAP HANA SQL Reference, "SQL Error Codes": 303 ERR_SQL_INV_DATETIME_VAL "invalid DATE, TIME or TIMESTAMP value"
    expect(await code("INSERT INTO ar (id, ts) VALUES (3, 'abc')")).toBe(303)
    expect(await code("INSERT INTO ar (id, ts) VALUES (3, ' x2024-01-01')")).toBe(303)
    expect(await code("UPDATE ar SET ts = 'abc' WHERE id = 1")).toBe(303)
    expect(await code("INSERT INTO ar (id, ts) SELECT 3, s FROM (SELECT 'abc' AS s FROM DUMMY)")).toBe(303)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM ar")).toEqual([{ N: 2 }])
  })
  it("a TIMESTAMP compared with a number fails with 266 instead of comparing ticks; numbers compared with numbers are left alone", async () => {
    // SAP HANA SQL Reference, "Data Type Conversion": TIMESTAMP has the highest precedence, so the number would be
    // converted to it, and the datetime conversion table has no conversion from a number to a TIMESTAMP.
    for (const sql of [
      "SELECT id FROM ar WHERE ts > 5",
      "SELECT id FROM ar WHERE 5 < ar.ts",
      "SELECT id FROM ar WHERE ts BETWEEN 1 AND 2",
      "SELECT id FROM ar WHERE ts IN (1, 2)",
      "SELECT id FROM ar WHERE ts = 2.5"
    ]) {
      expect([sql, await code(sql)]).toEqual([sql, 266])
    }
    expect(await exec(c, "SELECT id FROM ar WHERE i > 3 AND n < 3 AND id IN (1, 2) AND i BETWEEN 3 AND 4 ORDER BY id")).toEqual([{ ID: 2 }])
    expect(await exec(c, "SELECT id FROM ar WHERE ts > '2024-01-01' AND 3 = i")).toEqual([{ ID: 1 }])
  })
})
