/**
 * DuckDB scalar functions that count days as HANA numbers them (datetime.ts: Julian labels before 1582-10-15), so
 * that ADD_DAYS, ADD_SECONDS, DAYS_BETWEEN and WEEKDAY across October 1582 agree with a real HANA
 * (1582-10-04 + 1 day = 1582-10-15). The translator (translate.ts FUNCTIONS) calls them by these names. Overloads
 * keep the argument's type in the result (DATE, SECONDDATE = TIMESTAMP_S, TIMESTAMP); a DATE or SECONDDATE given
 * where only a TIMESTAMP is taken is widened by DuckDB.
 */
import { BIGINT, DATE, DECIMAL, DOUBLE, INTEGER, TIMESTAMP, TIMESTAMP_S, dateValue, timestampSecondsValue, timestampValue } from "@duckdb/node-api"
import type {
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBScalarFunction,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampValue,
  DuckDBValue
} from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { julianCivilFromDays } from "../common/civil.ts"
import { EPOCH_DAYDATE, epochDayOfHanaDay, hanaDayOfEpochDay } from "./datetime.ts"

const MICROS_PER_DAY = 86_400_000_000n
const SECONDS_PER_DAY = 86_400n
/** Julian Day Number of HANA day 0 (day 1, 0001-01-01, is JDN 1721424, a Saturday). */
const JDN_OF_DAY_ZERO = 1721423

/**
 * The date DuckDB stores for HANA day `dayNumber`. A Julian-only leap day (1500-02-29) has no proleptic Gregorian
 * label, so it fails (as an invalid number, 339) instead of becoming the next day's label.
 */
const dateOfHanaDay = (dayNumber: number): number => {
  const epochDay = epochDayOfHanaDay(dayNumber)
  if (hanaDayOfEpochDay(epochDay) !== dayNumber) {
    const { year, month, day } = julianCivilFromDays(dayNumber - EPOCH_DAYDATE)
    throw new Error(`Date out of range: ${year}-${month}-${day}`)
  }
  return epochDay
}

/** The date `n` HANA days after the one DuckDB stores as `epochDay`. */
const addHanaDays = (epochDay: number, n: number): number => dateOfHanaDay(hanaDayOfEpochDay(epochDay) + n)

const floorDiv = (a: bigint, b: bigint): bigint => a / b - (a % b !== 0n && a < 0n !== b < 0n ? 1n : 0n)

/** `t` (in units of `perDay` a day) moved to `s`, relabelled so that the days moved count as HANA numbers them. */
const moved = (t: bigint, s: bigint, perDay: bigint): bigint => {
  const from = floorDiv(t, perDay)
  const to = floorDiv(s, perDay)
  return BigInt(addHanaDays(Number(from), Number(to - from))) * perDay + (s - to * perDay)
}

/** HANA day number of a timestamp's day. */
const dayOfMicros = (micros: bigint): number => hanaDayOfEpochDay(Number(floorDiv(micros, MICROS_PER_DAY)))

/** A day count as `CAST(n AS INTEGER)` gives it: rounded half away from zero, within INTEGER's range. */
const wholeDays = (v: DuckDBValue): number => {
  const n = Number(v)
  const whole = Math.sign(n) * Math.round(Math.abs(n))
  if (!(Math.abs(whole) <= 2_147_483_647)) {
    throw new Error(`Type DOUBLE with value ${n} can't be cast because the value is out of range for the destination type INT32`)
  }
  return whole
}

const roundHalfAway = (a: bigint, b: bigint): bigint => (a < 0n ? -((-a * 2n + b) / (2n * b)) : (a * 2n + b) / (2n * b))

/** A number of seconds in microseconds, as `CAST(CAST(n AS DECIMAL(38, 7)) * 1000000 AS BIGINT)` gives it. */
const microsOfDecimal = (v: DuckDBValue): bigint => roundHalfAway((v as DuckDBDecimalValue).value, 10n)
const microsOfDouble = (v: DuckDBValue): bigint => roundHalfAway(BigInt(Math.sign(Number(v)) * Math.round(Math.abs(Number(v)) * 1e7)), 10n)

const SECONDS = DECIMAL(38, 7)

/** The functions, by the names the translator uses. */
const functions = (): Array<DuckDBScalarFunction> => [
  fn("hana_add_days", [DATE, DOUBLE], DATE, ([d, n]) => dateValue(addHanaDays((d as DuckDBDateValue).days, wholeDays(n!)))),
  fn("hana_add_days", [TIMESTAMP_S, DOUBLE], TIMESTAMP_S, ([d, n]) => {
    const t = (d as DuckDBTimestampSecondsValue).seconds
    return timestampSecondsValue(moved(t, t + BigInt(wholeDays(n!)) * SECONDS_PER_DAY, SECONDS_PER_DAY))
  }),
  fn("hana_add_days", [TIMESTAMP, DOUBLE], TIMESTAMP, ([d, n]) => {
    const t = (d as DuckDBTimestampValue).micros
    return timestampValue(moved(t, t + BigInt(wholeDays(n!)) * MICROS_PER_DAY, MICROS_PER_DAY))
  }),
  fn("hana_add_seconds", [TIMESTAMP, SECONDS], TIMESTAMP, ([d, n]) => {
    const t = (d as DuckDBTimestampValue).micros
    return timestampValue(moved(t, t + microsOfDecimal(n!), MICROS_PER_DAY))
  }),
  fn("hana_add_seconds", [TIMESTAMP, DOUBLE], TIMESTAMP, ([d, n]) => {
    const t = (d as DuckDBTimestampValue).micros
    return timestampValue(moved(t, t + microsOfDouble(n!), MICROS_PER_DAY))
  }),
  fn("hana_days_between", [TIMESTAMP, TIMESTAMP], BIGINT, ([a, b]) =>
    BigInt(dayOfMicros((b as DuckDBTimestampValue).micros) - dayOfMicros((a as DuckDBTimestampValue).micros))),
  // Monday = 0
  fn("hana_weekday", [TIMESTAMP], INTEGER, ([d]) => (dayOfMicros((d as DuckDBTimestampValue).micros) + JDN_OF_DAY_ZERO) % 7)
]

/** Registers the functions in the database `connection` belongs to (DuckDB keeps them in its system catalog). */
export const registerDatetimeFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
}
