/**
 * HANA's TIMESTAMP (LONGDATE) with all seven fraction digits: a column is stored as a DuckDB UBIGINT of 100 ns ticks
 * since 0001-01-01 00:00:00, the day counted as HANA numbers it (datetime.ts: Julian labels before 1582-10-15), which
 * is the LONGDATE wire value minus 1 (SAP/node-hdb lib/protocol/Reader.js readLongDate: ticks + 1, NULL
 * 3155380704000000001; SAP HANA SQL Reference, "Datetime Data Types": TIMESTAMP's default format
 * `YYYY-MM-DD HH24:MI:SS.FF7`, 0001-01-01 .. 9999-12-31). DuckDB's TIMESTAMP_NS covers only 1677 .. 2262.
 *
 * UBIGINT is no other HANA type's storage (types.ts), so a ticks value is a TIMESTAMP wherever it turns up: a
 * column, MIN / MAX, CASE, a view, a subquery (results.ts reports it as TIMESTAMP and encode.ts sends the ticks).
 * Comparisons, ORDER BY, DISTINCT, GROUP BY, keys, MIN and MAX work on the ticks and so are exact. A ticks value
 * meeting a DuckDB TIMESTAMP or a text in a comparison is a DuckDB type error (never a silent wrong answer); the SQL
 * rewrite turns HANA's TIMESTAMP literals, CURRENT_TIMESTAMP and CAST(… AS TIMESTAMP) into ticks and a datetime
 * text compared with a ticks column into ticks (sql-rewrite.ts), and the session macros below take ticks in every
 * datetime function: exact where the function keeps the fraction (ADD_*, *_BETWEEN, TO_VARCHAR, SECOND), through
 * a microsecond TIMESTAMP where it does not (YEAR, TO_DATE, …).
 */
import { BIGINT, BLOB, BOOLEAN, DATE, DOUBLE, INTEGER, TIME, TIMESTAMP, TIMESTAMP_S, UBIGINT, VARCHAR, timestampValue } from "@duckdb/node-api"
import type { DuckDBScalarFunction, DuckDBTimestampValue } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { civilFromDays, daysFromCivil, daysFromJulianCivil, julianCivilFromDays } from "../common/civil.ts"
import { EPOCH_DAYDATE, epochDayOfHanaDay, hanaDayOfEpochDay } from "./datetime.ts"
import { DATE_OUT_OF_RANGE, HanaError } from "./errors.ts"
import { INVALID_DATETIME } from "./datetime-formats.ts"

/** 100 ns ticks in a day. */
export const TICKS_PER_DAY = 864_000_000_000n
/** The first tick after 9999-12-31 23:59:59.9999999 (HANA day 3652062, whose wire value + 1 is LONGDATE's NULL). */
export const TICKS_END = 3_652_061n * TICKS_PER_DAY
/** HANA day number of 1582-10-15, the first Gregorian day. */
const GREGORIAN_START_DAY = EPOCH_DAYDATE - 141_427
/** Microseconds from HANA's day 1 (0001-01-01, Julian) to 1970-01-01: a Gregorian TIMESTAMP's µs plus this, × 10, are its ticks. */
export const EPOCH_MICROS = BigInt(EPOCH_DAYDATE - 1) * 86_400_000_000n

const US_PER_DAY = 86_400_000_000n

const floorDiv = (a: bigint, b: bigint): bigint => a / b - (a % b !== 0n && a < 0n !== b < 0n ? 1n : 0n)

// HANA's 303 whether raised here on the JavaScript side or inside a DuckDB function (errors.ts maps its text).
const outOfRange = (what: string): Error => new HanaError(303, "22007", `${DATE_OUT_OF_RANGE}${what}`)

/** Ticks of a value checked to lie in 0001-01-01 .. 9999-12-31. */
const inRange = (ticks: bigint, what: () => string): bigint => {
  if (ticks < 0n || ticks >= TICKS_END) throw outOfRange(what())
  return ticks
}

/** The HANA day number of a date label (Julian before 1582-10-15, as HANA labels days). */
const hanaDayOfLabel = (year: number, month: number, day: number): number => {
  const julian = year < 1582 || (year === 1582 && (month < 10 || (month === 10 && day < 15)))
  return (julian ? daysFromJulianCivil(year, month, day) : daysFromCivil(year, month, day)) + EPOCH_DAYDATE
}

/** The label of a HANA day number. */
const labelOfHanaDay = (dayNumber: number): { year: number; month: number; day: number } =>
  dayNumber < GREGORIAN_START_DAY ? julianCivilFromDays(dayNumber - EPOCH_DAYDATE) : civilFromDays(dayNumber - EPOCH_DAYDATE)

/** Date and time fields of a tick count: year .. second, and the fraction in ticks. */
export const fieldsOfTicks = (ticks: bigint): { year: number; month: number; day: number; hour: number; minute: number; second: number; fraction: number } => {
  const dayNumber = Number(ticks / TICKS_PER_DAY) + 1
  const inDay = Number(ticks % TICKS_PER_DAY)
  const seconds = Math.floor(inDay / 10_000_000)
  return {
    ...labelOfHanaDay(dayNumber),
    hour: Math.floor(seconds / 3600),
    minute: Math.floor(seconds / 60) % 60,
    second: seconds % 60,
    fraction: inDay % 10_000_000
  }
}

const pad = (n: number, w = 2): string => String(n).padStart(w, "0")

/** HANA's default text of a TIMESTAMP: `YYYY-MM-DD HH24:MI:SS.FF7`. */
export const textOfTicks = (ticks: bigint): string => {
  const f = fieldsOfTicks(ticks)
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)} ${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}.${pad(f.fraction, 7)}`
}

/** A datetime text HANA reads as a TIMESTAMP: date, optional time, optional fraction (digits past the seventh are cut). */
const TEXT = /^\s*(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?)?\s*$/
/** The same as a DuckDB regular expression (sql macro `hana_ld`). */
const TEXT_SQL = "^\\s*\\d{1,4}-\\d{1,2}-\\d{1,2}([ T]\\d{1,2}:\\d{1,2}(:\\d{1,2}(\\.\\d*)?)?)?\\s*$"

/** Days in a month of a label (Julian leap years before 1582-10-15, as HANA labels them). */
const daysInMonth = (year: number, month: number): number => {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!
  const leap = year < 1582 ? year % 4 === 0 : (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return leap ? 29 : 28
}

/** Ticks of a text in {@link TEXT}'s form, or undefined for any other text; a field out of range fails with HANA's 303. */
export const ticksOfText = (text: string): bigint | undefined => {
  const m = TEXT.exec(text)
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((k) => Number(m[k] ?? 0)) as [number, number, number, number, number, number]
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw new HanaError(303, "22007", `${INVALID_DATETIME}: ${text.trim()}`)
  }
  const fraction = BigInt((m[7] ?? "").slice(0, 7).padEnd(7, "0"))
  const seconds = BigInt(hour * 3600 + minute * 60 + second)
  return BigInt(hanaDayOfLabel(year, month, day) - 1) * TICKS_PER_DAY + seconds * 10_000_000n + fraction
}

/** Ticks of the instant DuckDB stores as TIMESTAMP `micros` (its label read as HANA reads it). */
export const ticksOfMicros = (micros: bigint): bigint => {
  const epochDay = floorDiv(micros, US_PER_DAY)
  const dayNumber = hanaDayOfEpochDay(Number(epochDay))
  return inRange(BigInt(dayNumber - 1) * TICKS_PER_DAY + (micros - epochDay * US_PER_DAY) * 10n, () => String(micros))
}

/** The DuckDB TIMESTAMP (microseconds since 1970, proleptic Gregorian label) of ticks, the seventh digit cut. */
export const microsOfTicks = (ticks: bigint): bigint => {
  const dayNumber = Number(ticks / TICKS_PER_DAY) + 1
  const epochDay = epochDayOfHanaDay(dayNumber)
  if (hanaDayOfEpochDay(epochDay) !== dayNumber) {
    const { year, month, day } = labelOfHanaDay(dayNumber)
    throw new Error(`Date out of range: ${year}-${month}-${day}`)
  }
  return BigInt(epochDay) * US_PER_DAY + (ticks % TICKS_PER_DAY) / 10n
}

/** Ticks moved by n ticks, checked to stay in 0001-01-01 .. 9999-12-31 (303 otherwise). */
export const shiftTicks = (ticks: bigint, n: bigint): bigint => inRange(ticks + n, () => `${textOfTicks(ticks)} + ${String(n)} x 100 ns`)

/** The types `hana_cmp_type` has overloads for (any other argument is cast to one of them by DuckDB's overload resolution). */
const COMPARED_TYPES = [UBIGINT, DATE, TIME, TIMESTAMP_S, TIMESTAMP, VARCHAR, INTEGER, BIGINT, DOUBLE, BOOLEAN, BLOB]

/** The DuckDB functions behind the macros below. */
export const longdateFunctions = (): Array<DuckDBScalarFunction> => [
  // hana_ld_cmp's type source for cast_to_type (which drops it, so it never runs): UBIGINT when c is ticks, c's type
  // for a text s (as DuckDB casts a string literal to the type it is compared with: the cast makes s no literal), else
  // s's type. A function overload is resolved on the bound argument types, which a macro overload cannot for an aggregate.
  ...COMPARED_TYPES.flatMap((c) =>
    COMPARED_TYPES.map((s) => fn("hana_cmp_type", [c, s], c === UBIGINT ? UBIGINT : s === VARCHAR ? c : s, () => null))
  ),
  // hana_ld_text's: a BLOB stays one (`X'AB' || X'CD'` concatenates bytes), anything else is text.
  ...COMPARED_TYPES.map((x) => fn("hana_text_type", [x], x === BLOB ? BLOB : VARCHAR, () => null)),
  fn("hana_ticks_of_text", [VARCHAR], UBIGINT, ([t]) => {
    const ticks = ticksOfText(String(t))
    if (ticks === undefined) throw new Error(`${INVALID_DATETIME}: ${String(t)}`)
    return inRange(ticks, () => String(t))
  }),
  fn("hana_ticks_of_us", [TIMESTAMP], UBIGINT, ([t]) => ticksOfMicros((t as DuckDBTimestampValue).micros)),
  fn("hana_us_of_ticks", [UBIGINT], TIMESTAMP, ([t]) => timestampValue(microsOfTicks(t as bigint))),
  fn("hana_ticks_text", [UBIGINT], VARCHAR, ([t]) => textOfTicks(t as bigint)),
  fn("hana_ticks_shift", [UBIGINT, BIGINT], UBIGINT, ([t, n]) => shiftTicks(t as bigint, n as bigint))
]

/** CURRENT_TIMESTAMP / CURRENT_UTCTIMESTAMP as ticks (`now` is Gregorian, so no relabelling), plain SQL for DEFAULTs. */
export const nowTicks = (timestamp: string): string => `CAST((epoch_us(${timestamp}) + ${EPOCH_MICROS}) * 10 AS UBIGINT)`

/** `CASE WHEN typeof(x) = 'UBIGINT' THEN <ticks> ELSE <other> END`, the ticks being `CAST(x AS UBIGINT)`. */
export const onTicks = (x: string, ticks: (t: string) => string, other: string): string =>
  `CASE WHEN typeof(${x}) = 'UBIGINT' THEN ${ticks(`CAST(${x} AS UBIGINT)`)} ELSE ${other} END`

/**
 * Session macros: `hana_ld(x)` is x as ticks (a text read as HANA reads a TIMESTAMP, any DuckDB datetime by its
 * label, ticks as they are); `hana_ticks_ts(t)` is ticks as DuckDB's microsecond TIMESTAMP (for functions that do
 * not keep the seventh digit); `hana_as(x, t)` is x cast to the type of t, ticks through that TIMESTAMP (so ticks
 * cast to a number fail as a TIMESTAMP does); `hana_dt(x)` any datetime (ticks, DATE, SECONDDATE, text) as a DuckDB
 * TIMESTAMP; `hana_ld_text(x)` x as text (a BLOB as it is), ticks as the TIMESTAMP's text; `hana_ld_cmp(c, s)` is s as ticks when c
 * is ticks, a text s as c's type, else s as it is (a datetime text compared with a column).
 *
 * They tell ticks by `typeof(x)` in a CASE, not by a typed macro overload: DuckDB 1.5 picks a macro overload before
 * it knows the type of an aggregate, window function or subquery argument (`h(count(*))` took the `UBIGINT`
 * overload of `h(x UBIGINT) AS …, (x) AS …`), whereas typeof is bound with the argument and folded into a
 * constant, so the CASE leaves only the branch of the argument's type. Every branch is bound for every argument
 * type, hence the CASTs of x in the ticks branch (a cast DuckDB cannot do fails only when it runs).
 */
export const LONGDATE_MACROS: readonly string[] = [
  // Any other value by its text (a DuckDB datetime's text is its label).
  `CREATE OR REPLACE TEMP MACRO hana_ld(x) AS CASE WHEN typeof(x) = 'UBIGINT' THEN CAST(x AS UBIGINT) WHEN regexp_full_match(CAST(x AS VARCHAR), '${TEXT_SQL}') ` +
    `THEN hana_ticks_of_text(CAST(x AS VARCHAR)) ELSE hana_ticks_of_us(CAST(CAST(x AS VARCHAR) AS TIMESTAMP)) END`,
  `CREATE OR REPLACE TEMP MACRO hana_ticks_ts(t) AS CASE WHEN t >= ${BigInt(GREGORIAN_START_DAY - 1) * TICKS_PER_DAY} ` +
    `THEN make_timestamp(CAST(t // 10 AS BIGINT) - ${EPOCH_MICROS}) ELSE hana_us_of_ticks(t) END`,
  `CREATE OR REPLACE TEMP MACRO hana_as(x, t) AS ${onTicks("x", (u) => `cast_to_type(hana_ticks_ts(${u}), t)`, "cast_to_type(x, t)")}`,
  `CREATE OR REPLACE TEMP MACRO hana_dt(x) AS ${onTicks("x", (u) => `hana_ticks_ts(${u})`, "CAST(x AS TIMESTAMP)")}`,
  `CREATE OR REPLACE TEMP MACRO hana_ld_text(x) AS ${onTicks("x", (u) => `cast_to_type(hana_ticks_text(${u}), hana_text_type(x))`, "cast_to_type(x, hana_text_type(x))")}`,
  `CREATE OR REPLACE TEMP MACRO hana_ld_cmp(c, s) AS ${onTicks("c", () => "cast_to_type(hana_ld(s), hana_cmp_type(c, s))", "cast_to_type(s, hana_cmp_type(c, s))")}`,
  `CREATE OR REPLACE TEMP MACRO hana_now() AS ${nowTicks("CAST(now() AS TIMESTAMP)")}`
]

