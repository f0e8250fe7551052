/**
 * DuckDB scalar functions that count days as HANA numbers them (datetime.ts: Julian labels before 1582-10-15), so
 * that ADD_DAYS, ADD_SECONDS, ADD_NANO100, DAYS_BETWEEN, NANO100_BETWEEN and WEEKDAY across October 1582 agree with
 * a real HANA (1582-10-04 + 1 day = 1582-10-15). The session macros of those functions (session-macros.ts) convert
 * the arguments as HANA does implicitly and call these. `hana_shift_days` keeps the date's type in the result (DATE,
 * SECONDDATE = TIMESTAMP_S, TIMESTAMP).
 */
import { BIGINT, DATE, DECIMAL, DOUBLE, DuckDBScalarFunction, INTEGER, TIME, TIMESTAMP, TIMESTAMP_S, UBIGINT, VARCHAR, dateValue, timestampSecondsValue, timestampValue } from "@duckdb/node-api"
import type {
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampValue,
  DuckDBValue
} from "@duckdb/node-api"
import { rowwise, rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { julianCivilFromDays } from "../common/civil.ts"
import { datetimeFormatFunctions } from "./datetime-formats.ts"
import { EPOCH_DAYDATE, epochDayOfHanaDay, hanaDayOfEpochDay } from "./datetime.ts"
import { TICKS_PER_DAY, longdateFunctions, shiftTicks } from "./longdate.ts"

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

/** Seconds in microseconds, as `CAST(n * 1000000 AS BIGINT)` rounds a DECIMAL(38, 7): half away from zero. */
const microsOfSeconds = (v: DuckDBValue): bigint => {
  const tenthsOfMicros = (v as DuckDBDecimalValue).value
  return tenthsOfMicros < 0n ? -((-tenthsOfMicros + 5n) / 10n) : (tenthsOfMicros + 5n) / 10n
}

const SECONDS = DECIMAL(38, 7)

/** Microseconds since HANA's 1970-01-01 of the TIMESTAMP DuckDB stores as `micros`, its day numbered as HANA does. */
const hanaMicros = (micros: bigint): bigint => {
  const day = floorDiv(micros, MICROS_PER_DAY)
  return BigInt(hanaDayOfEpochDay(Number(day)) - EPOCH_DAYDATE) * MICROS_PER_DAY + (micros - day * MICROS_PER_DAY)
}

/** The functions, by the names the session macros (session-macros.ts) call them after converting the arguments. */
/**
 * `hana_clock_ms(row)`: the wall clock in milliseconds, read anew for every row (volatile, and its argument keeps
 * DuckDB from folding it into a constant). SLEEP_SECONDS's macro loops over rows until it passes a deadline.
 */
const clockFunction = (): DuckDBScalarFunction =>
  DuckDBScalarFunction.create({
    name: "hana_clock_ms",
    parameterTypes: [BIGINT],
    returnType: DOUBLE,
    volatile: true,
    mainFunction: rowwise(() => Date.now())
  })

const functions = (): Array<DuckDBScalarFunction> => [
  fn("hana_shift_days", [DATE, INTEGER], DATE, ([d, n]) => dateValue(addHanaDays((d as DuckDBDateValue).days, Number(n)))),
  // A TIMESTAMP's ticks (longdate.ts), a function overload so that DuckDB picks it by the bound argument's type.
  fn("hana_shift_days", [UBIGINT, INTEGER], UBIGINT, ([d, n]) => shiftTicks(d as bigint, BigInt(Number(n)) * TICKS_PER_DAY)),
  fn("hana_shift_days", [TIMESTAMP_S, INTEGER], TIMESTAMP_S, ([d, n]) => {
    const t = (d as DuckDBTimestampSecondsValue).seconds
    return timestampSecondsValue(moved(t, t + BigInt(Number(n)) * SECONDS_PER_DAY, SECONDS_PER_DAY))
  }),
  fn("hana_shift_days", [TIMESTAMP, INTEGER], TIMESTAMP, ([d, n]) => {
    const t = (d as DuckDBTimestampValue).micros
    return timestampValue(moved(t, t + BigInt(Number(n)) * MICROS_PER_DAY, MICROS_PER_DAY))
  }),
  fn("hana_shift_seconds", [TIMESTAMP, SECONDS], TIMESTAMP, ([d, n]) => {
    const t = (d as DuckDBTimestampValue).micros
    return timestampValue(moved(t, t + microsOfSeconds(n!), MICROS_PER_DAY))
  }),
  // A TIMESTAMP holds microseconds (README, "Differences"): n 100 ns units move it by floor(n / 10) microseconds, the
  // value HANA's result has once its seventh fraction digit is truncated.
  fn("hana_shift_nano100", [TIMESTAMP, BIGINT], TIMESTAMP, ([d, n]) => {
    const t = (d as DuckDBTimestampValue).micros
    return timestampValue(moved(t, t + floorDiv(n as bigint, 10n), MICROS_PER_DAY))
  }),
  fn("hana_nano100_span", [TIMESTAMP, TIMESTAMP], BIGINT, ([a, b]) =>
    (hanaMicros((b as DuckDBTimestampValue).micros) - hanaMicros((a as DuckDBTimestampValue).micros)) * 10n),
  fn("hana_day_span", [DATE, DATE], BIGINT, ([a, b]) =>
    BigInt(hanaDayOfEpochDay((b as DuckDBDateValue).days) - hanaDayOfEpochDay((a as DuckDBDateValue).days))),
  // The type of SECOND(x) (function-types.ts), a type source for cast_to_type: DuckDB resolves a function overload
  // on the bound argument type, which a macro overload cannot for an aggregate. Never called for a value.
  ...[UBIGINT, TIMESTAMP, VARCHAR].map((t) => fn("hana_second_type", [t], DECIMAL(9, 7), () => null)),
  ...[TIMESTAMP_S, TIME, DATE].map((t) => fn("hana_second_type", [t], INTEGER, () => null)),
  // Monday = 0
  fn("hana_day_of_week", [DATE], INTEGER, ([d]) => (hanaDayOfEpochDay((d as DuckDBDateValue).days) + JDN_OF_DAY_ZERO) % 7)
]

/** Registers the functions in the database `connection` belongs to (DuckDB keeps them in its system catalog). */
export const registerDatetimeFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
  for (const f of datetimeFormatFunctions()) connection.registerScalarFunction(f)
  for (const f of longdateFunctions()) connection.registerScalarFunction(f)
  connection.registerScalarFunction(clockFunction())
}
