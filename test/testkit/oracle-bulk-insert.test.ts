import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"
import { laidOut } from "../../testkit/oracle/bulk-insert.ts"

/**
 * executeMany requests from 256 KiB on are decoded while they arrive, and a plain INSERT's bind rows go straight from
 * their TTC bytes into column-wise chunks (testkit/oracle/bind-row-decoder.ts BindRowDecoder). These tests send such large
 * requests with the raw oracledb client and compare with the same rows sent in small requests (decoded into bind
 * values first), so the two decoders must agree value for value.
 */

/** Rows per large request: well above the incremental threshold and spanning several 25,000-row chunks. */
const ROWS = 60_000
/** Rows per request of the reference inserts: small requests take the general decoding. */
const SMALL = 200

const columns = "id NUMBER(10), amount NUMBER(18,2), big NUMBER(38), tiny NUMBER(1), ratio BINARY_DOUBLE, day DATE, ts TIMESTAMP, name VARCHAR2(40), nv NVARCHAR2(20), flag BOOLEAN"
const bindDefs = () => [
  { type: oracledb.NUMBER },
  { type: oracledb.NUMBER },
  { type: oracledb.NUMBER },
  { type: oracledb.NUMBER },
  { type: oracledb.DB_TYPE_BINARY_DOUBLE },
  { type: oracledb.DATE },
  { type: oracledb.DB_TYPE_TIMESTAMP },
  { type: oracledb.STRING, maxSize: 40 },
  { type: oracledb.DB_TYPE_NVARCHAR, maxSize: 20 },
  { type: oracledb.DB_TYPE_BOOLEAN }
]

/** Edge values, cycled through the rows: NULLs, signs, scale limits, >15 digits, pre-1970 and far dates, Unicode. */
const amounts = [0, -0.01, 0.01, 1234567890123456.7, -99999999999999.99, 12.5, null, 100, -1e15]
const bigs = [0, 1e20, -1e37, 123456789012345680000, 2 ** 53 + 2, null, -1, 7]
const ratios = [0, -0, 1.5, -2.25e-300, 1.7976931348623157e308, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null, Math.PI]
const days = [Date.UTC(1970, 0, 1), Date.UTC(1899, 11, 31, 23, 59, 59), Date.UTC(2038, 0, 19, 3, 14, 8), Date.parse("0100-03-01T00:00:00Z"), Date.UTC(9999, 11, 31, 23, 59, 59), null]
const stamps = [Date.UTC(2020, 1, 29, 12, 0, 0, 1), Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(1582, 9, 4, 1, 2, 3, 4), Date.UTC(9999, 11, 31, 23, 59, 59, 999), null]
const names = ["", "x", "twelve chars", "thirteen char", "ü€𝄞 multi-byte", "a".repeat(40), null, "trailing  "]
const nvs = ["", "ñandú", "𝄞 clef", null, "z".repeat(20)]

const at = <T,>(values: ReadonlyArray<T>, i: number): T => values[i % values.length]!
const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms))

const row = (i: number): Array<unknown> => [
  i,
  at(amounts, i),
  at(bigs, i),
  i % 3 === 2 ? null : i % 2,
  at(ratios, i),
  dateOf(at(days, i)),
  dateOf(at(stamps, i)),
  at(names, i),
  at(nvs, i),
  i % 3 === 0 ? null : i % 3 === 1
]

describe("Oracle test server: executeMany bind rows decoded straight into columns", () => {
  let server: OracleTestServerHandle
  let conn: Conn

  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const selectAll = async (table: string) =>
    (
      await conn.execute(`SELECT * FROM ${table} ORDER BY id`, [], {
        fetchTypeHandler: (m: { dbType: unknown }) => (m.dbType === oracledb.DB_TYPE_NUMBER ? { type: oracledb.STRING } : undefined)
      })
    ).rows

  it("stores every edge value exactly as the general decoding does", async () => {
    await conn.execute(`CREATE TABLE fast_t (${columns})`)
    await conn.execute(`CREATE TABLE ref_t (${columns})`)
    const rows = Array.from({ length: ROWS }, (_, i) => row(i))
    const r = await conn.executeMany("INSERT INTO fast_t VALUES (:1, :2, :3, :4, :5, :6, :7, :8, :9, :10)", rows, { bindDefs: bindDefs(), dmlRowCounts: true })
    expect(r.rowsAffected).toBe(ROWS)
    expect(r.dmlRowCounts.length).toBe(ROWS)
    const sample = rows.slice(0, 2 * 9 * 8 * 6 * 5)
    for (let k = 0; k < sample.length; k += SMALL)
      await conn.executeMany("INSERT INTO ref_t VALUES (:1, :2, :3, :4, :5, :6, :7, :8, :9, :10)", sample.slice(k, k + SMALL), { bindDefs: bindDefs() })
    const fast = await selectAll(`fast_t WHERE id < ${sample.length}`)
    expect(fast).toEqual(await selectAll("ref_t"))
    // a few values spelled out, so that an error shared by both decodings shows too
    const byId = new Map<number, Array<unknown>>(fast.map((x: Array<unknown>) => [Number(x[0]), x]))
    const numbers = (id: number) => byId.get(id)!.slice(1, 4).map((v) => (v === null ? null : Number(v)))
    expect(numbers(3)).toEqual([1234567890123456.7, 123456789012345680000, 1])
    expect(numbers(4)).toEqual([-99999999999999.99, 2 ** 53 + 2, 0])
    expect(numbers(5)[2]).toBeNull()
    expect(byId.get(5)![4]).toBe(Number.POSITIVE_INFINITY)
    expect(byId.get(3)![5]).toEqual(new Date("0100-03-01T00:00:00Z"))
    expect(byId.get(3)![6]).toEqual(new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)))
    expect(byId.get(2)![6]).toEqual(new Date(Date.UTC(1582, 9, 4, 1, 2, 3, 4)))
    expect(byId.get(4)![7]).toBe("ü€𝄞 multi-byte")
    expect(byId.get(0)![7]).toBeNull() // '' is NULL in Oracle
    expect(byId.get(2)![8]).toBe("𝄞 clef")
    // BOOLEAN, NULL included (its NULL is the escape byte 0xFD and 1 on the wire)
    expect([0, 1, 2].map((id) => byId.get(id)![9])).toEqual([null, true, false])
    const counts = (await conn.execute("SELECT COUNT(*), COUNT(amount), COUNT(tiny), COUNT(name) FROM fast_t")).rows[0]
    expect(counts).toEqual([ROWS, ROWS - Math.ceil((ROWS - 6) / 9), ROWS - ROWS / 3, ROWS - ROWS / 8 - ROWS / 8])
    await conn.rollback()
  })

  it("takes a value the columns cannot hold exactly in the middle of a request through the general path", async () => {
    await conn.execute("CREATE TABLE round_t (id NUMBER(10), p NUMBER(10,2))")
    // 1.005 has more fraction digits than NUMBER(10,2) keeps: Oracle rounds it on insert
    const rows = Array.from({ length: ROWS }, (_, i) => [i, i === 37_123 ? 1.005 : i / 4])
    const r = await conn.executeMany("INSERT INTO round_t VALUES (:1, :2)", rows, { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.NUMBER }] })
    expect(r.rowsAffected).toBe(ROWS)
    const check = await conn.execute("SELECT COUNT(*), SUM(p) FROM round_t WHERE id <> 37123")
    expect(check.rows).toEqual([[ROWS - 1, rows.reduce((s, x) => s + (x[0] === 37_123 ? 0 : (x[1] as number)), 0)]])
    const rounded = await conn.execute("SELECT p FROM round_t WHERE id = 37123")
    expect([[1], [1.01]]).toContainEqual(rounded.rows[0])
    await conn.rollback()
  })

  it("a failed statement after several large calls keeps each call's rows as sent, though the server reuses its chunk buffers from call to call", async () => {
    await conn.execute("CREATE TABLE replay_t (id NUMBER(10) NOT NULL, name VARCHAR2(40))")
    const calls = ["first", "second", "third"]
    for (const [k, label] of calls.entries()) {
      const rows = Array.from({ length: ROWS }, (_, i) => [k * ROWS + i, i % 5 === 0 ? null : `${label} call row ${i}`])
      await conn.executeMany("INSERT INTO replay_t VALUES (:1, :2)", rows, { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 40 }] })
    }
    // ORA-01400 aborts the engine's transaction: the server rolls it back and replays the three calls' appends
    expect(oraCode(await failure(() => conn.execute("INSERT INTO replay_t VALUES (NULL, 'x')")))).toBe("ORA-01400")
    const n = calls.length * ROWS
    const summary = await conn.execute(
      "SELECT COUNT(*), SUM(id), COUNT(name), SUM(CASE WHEN name = SUBSTR(name, 1, INSTR(name, ' ') - 1) || ' call row ' || MOD(id, :1) THEN 1 ELSE 0 END) FROM replay_t",
      [ROWS]
    )
    expect(summary.rows).toEqual([[n, (n * (n - 1)) / 2, n - n / 5, n - n / 5]])
    const labels = await conn.execute("SELECT SUBSTR(name, 1, INSTR(name, ' ') - 1), MIN(id), MAX(id), COUNT(*) FROM replay_t WHERE name IS NOT NULL GROUP BY SUBSTR(name, 1, INSTR(name, ' ') - 1) ORDER BY 2")
    expect(labels.rows).toEqual(calls.map((label, k) => [label, k * ROWS + 1, k * ROWS + ROWS - 1, ROWS - ROWS / 5]))
    await conn.rollback()
  })

  it("fails at the offending row with Oracle's error and keeps the rows before it", async () => {
    await conn.execute("CREATE TABLE strict_t (id NUMBER(10) NOT NULL, small NUMBER(4), name VARCHAR2(10))")
    const cases = [
      { at: 17_001, value: [null, 1, "ok"], code: "ORA-01400" },
      { at: 30_002, value: [1, 1, "x".repeat(11)], code: "ORA-12899" },
      { at: 52_003, value: [1, 12_345, "ok"], code: "ORA-01438" }
    ]
    for (const c of cases) {
      const rows = Array.from({ length: ROWS }, (_, i) => (i === c.at ? c.value : [i, i % 1000, `n${i % 100}`]))
      const e = await failure(() =>
        conn.executeMany("INSERT INTO strict_t VALUES (:1, :2, :3)", rows, {
          bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }]
        })
      )
      expect(oraCode(e), e.message).toBe(c.code)
      expect((await conn.execute("SELECT COUNT(*), MAX(id) FROM strict_t")).rows).toEqual([[c.at, c.at - 1]])
      await conn.rollback()
      expect((await conn.execute("SELECT COUNT(*) FROM strict_t")).rows).toEqual([[0]])
    }
  })

  it("batchErrors in a large request report only the bad rows, each with its own ORA code, and keep the others", async () => {
    await conn.execute("CREATE TABLE batch_t (id NUMBER(10) NOT NULL, name VARCHAR2(10))")
    const bad = new Map<number, Array<unknown>>([
      [17_001, [null, "ok"]],
      [17_002, [17_002, "fine"]],
      [30_002, [30_002, "x".repeat(11)]]
    ])
    const rows = Array.from({ length: ROWS }, (_, i) => bad.get(i) ?? [i, `n${i % 100}`])
    const result = await conn.executeMany("INSERT INTO batch_t VALUES (:1, :2)", rows, {
      batchErrors: true,
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }]
    })
    const errors = (result.batchErrors as Array<{ offset: number; message: string }>).map((e) => [e.offset, oraCode(e)])
    expect(errors).toEqual([[17_001, "ORA-01400"], [30_002, "ORA-12899"]])
    expect(result.batchErrors[1].message).toContain('value too large for column "TEST"."BATCH_T"."NAME" (actual: 11, maximum: 10)')
    expect(result.rowsAffected).toBe(ROWS - 2)
    expect((await conn.execute("SELECT COUNT(*) FROM batch_t WHERE id IN (17000, 17002, 30001, 30003)")).rows).toEqual([[4]])
    await conn.rollback()
  })

  it("TIMESTAMP WITH TIME ZONE binds into a TIMESTAMP WITH TIME ZONE column are laid out column-wise and store what the general path does; DATE binds there still take the general path", async () => {
    // a session zone other than UTC, so that a DATE bind (no zone of its own) read in the wrong zone would show
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:30'")
    for (const t of ["tz_fast_t", "tz_ref_t", "tz_date_t"]) await conn.execute(`CREATE TABLE ${t} (id NUMBER(10), ts TIMESTAMP(6) WITH TIME ZONE)`)
    const rows = Array.from({ length: ROWS }, (_, i) => [i, dateOf(at(stamps, i))])
    const sql = (t: string) => `INSERT INTO ${t} VALUES (:1, :2)`
    const tstz = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP_TZ }]
    const before = laidOut.rows
    expect((await conn.executeMany(sql("tz_fast_t"), rows, { bindDefs: tstz })).rowsAffected).toBe(ROWS)
    expect(laidOut.rows - before).toBe(ROWS)
    // the reference: one row per execute, which the general path (ora_tstz in SQL) stores
    const sample = rows.slice(0, 4 * stamps.length)
    for (const r of sample) {
      await conn.execute(sql("tz_ref_t"), [r[0], { val: r[1], type: oracledb.DB_TYPE_TIMESTAMP_TZ }])
    }
    expect(laidOut.rows - before).toBe(ROWS)
    const text = (t: string, where = "") =>
      conn.execute(`SELECT id, TO_CHAR(ts, 'YYYY-MM-DD HH24:MI:SS.FF6 TZH:TZM') FROM ${t} ${where} ORDER BY id`).then((r: { rows: unknown }) => r.rows as Array<unknown>)
    const fast = await text("tz_fast_t", `WHERE id < ${sample.length}`)
    expect(fast).toEqual(await text("tz_ref_t"))
    // oracledb sends a Date as its UTC instant with offset +00:00
    expect(fast.slice(0, 2)).toEqual([[0, "2020-02-29 12:00:00.001000 +00:00"], [1, "1969-12-31 23:59:59.999000 +00:00"]])
    // DATE binds carry no zone: Oracle reads them in the session time zone, which only the general path applies
    const dates = await conn.executeMany(sql("tz_date_t"), rows, { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }] })
    expect(dates.rowsAffected).toBe(ROWS)
    expect(laidOut.rows - before).toBe(ROWS)
    expect(await text("tz_date_t", "WHERE id < 2")).toEqual([[0, "2020-02-29 12:00:00.001000 +05:30"], [1, "1969-12-31 23:59:59.999000 +05:30"]])
    await conn.rollback()
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
  })

  it("BINARY_DOUBLE binds into NUMBER(p,s) columns are decoded straight into the columns when the column holds them exactly, storing what the general path does", async () => {
    for (const t of ["bd_fast_t", "bd_ref_t"]) await conn.execute(`CREATE TABLE ${t} (id NUMBER(10), amount NUMBER(12,2), n NUMBER(10))`)
    const sql = (t: string) => `INSERT INTO ${t} VALUES (:1, :2, :3)`
    const defs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_BINARY_DOUBLE }, { type: oracledb.DB_TYPE_BINARY_DOUBLE }]
    const exact = Array.from({ length: ROWS }, (_, i) => [i, at([0, 0.07, -12.5, 1234567.89, null, 99999999.99], i), i])
    // the statement's first request may arrive whole before its append target is known (then it is decoded as values)
    await conn.executeMany(sql("bd_fast_t"), exact.slice(0, 10), { bindDefs: defs })
    await conn.execute("DELETE FROM bd_fast_t")
    const before = laidOut.straight
    expect((await conn.executeMany(sql("bd_fast_t"), exact, { bindDefs: defs })).rowsAffected).toBe(ROWS)
    expect(laidOut.straight - before).toBe(ROWS)
    const sample = exact.slice(0, 24)
    for (const r of sample) await conn.execute(sql("bd_ref_t"), r, { bindDefs: defs })
    expect(await selectAll(`bd_fast_t WHERE id < ${sample.length}`)).toEqual(await selectAll("bd_ref_t"))
    // values a column cannot hold exactly (0.1 + 0.2 and 1.005 at scale 2, 2.5 in NUMBER(10)) go the general path,
    // which rounds them
    await conn.execute("DELETE FROM bd_fast_t")
    await conn.execute("DELETE FROM bd_ref_t")
    const inexact = Array.from({ length: ROWS }, (_, i) => [i, at([0.07, 0.1 + 0.2, 1.005], i), i % 5 === 0 ? 2.5 : i])
    expect((await conn.executeMany(sql("bd_fast_t"), inexact, { bindDefs: defs })).rowsAffected).toBe(ROWS)
    for (const r of inexact.slice(0, 12)) await conn.execute(sql("bd_ref_t"), r, { bindDefs: defs })
    expect(await selectAll("bd_fast_t WHERE id < 12")).toEqual(await selectAll("bd_ref_t"))
    await conn.rollback()
  })
})
