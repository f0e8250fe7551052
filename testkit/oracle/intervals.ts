/**
 * INTERVAL DAY TO SECOND and INTERVAL YEAR TO MONTH values at Oracle's full declared ranges.
 *
 * DuckDB's INTERVAL keeps microseconds and 32-bit months, while Oracle keeps up to nanoseconds
 * (`INTERVAL DAY(9) TO SECOND(9)`) and up to 999,999,999 years (`INTERVAL YEAR(9) TO MONTH`). Columns declared
 * beyond what DuckDB's INTERVAL holds are stored exactly instead (see `types.ts`): DAY TO SECOND with 7-9 fraction
 * digits as DECIMAL(38,9) seconds, YEAR(9) TO MONTH as BIGINT months. A bound interval keeps its exact value here
 * until the statement it is bound to shows which storage the parameter goes to.
 *
 * Wire layouts: node_modules/oracledb/lib/impl/datahandlers/buffer.js (parseOracleIntervalDS / parseOracleIntervalYM):
 * DS = UInt32BE days + 2^31, hours + 60, minutes + 60, seconds + 60, UInt32BE nanoseconds + 2^31 (11 bytes);
 * YM = UInt32BE years + 2^31, months + 60 (5 bytes); every field carries the sign of the whole value.
 */
import { decimalValue, DuckDBIntervalValue, DuckDBTypeId, intervalValue } from "@duckdb/node-api"
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import { ora, OraError } from "./errors.ts"
import type { WriteBuffer } from "./wire.ts"

const NS_PER_SECOND = 1_000_000_000n
const NS_PER_DAY = 86_400n * NS_PER_SECOND
const INT32_MAX = 2_147_483_647

/** The exact value behind a bound interval: nanoseconds (DAY TO SECOND) or months (YEAR TO MONTH). */
type Exact = { readonly nanos: bigint } | { readonly months: number }

const exactOfBind = new WeakMap<DuckDBIntervalValue, Exact>()

/** Total nanoseconds of an 11-byte INTERVAL DAY TO SECOND wire value. */
export const nanosOfIntervalDs = (b: Uint8Array): bigint => {
  const v = Buffer.from(b.buffer, b.byteOffset, b.length)
  const days = BigInt(v.readUInt32BE(0) - 0x80000000)
  const secs = BigInt((v[4]! - 60) * 3600 + (v[5]! - 60) * 60 + (v[6]! - 60))
  const ns = BigInt(v.readUInt32BE(7) - 0x80000000)
  return days * NS_PER_DAY + secs * NS_PER_SECOND + ns
}

/** Total months of a 5-byte INTERVAL YEAR TO MONTH wire value. */
export const monthsOfIntervalYm = (b: Uint8Array): number => {
  const v = Buffer.from(b.buffer, b.byteOffset, b.length)
  return (v.readUInt32BE(0) - 0x80000000) * 12 + (v[4]! - 60)
}

/** Writes an INTERVAL DAY TO SECOND (length byte + 11 bytes) from total nanoseconds. */
export const writeIntervalDsNanos = (w: WriteBuffer, total: bigint): void => {
  const negative = total < 0n
  const a = negative ? -total : total
  const days = Number(a / NS_PER_DAY)
  const inDay = a % NS_PER_DAY
  const secs = Number(inDay / NS_PER_SECOND)
  const ns = Number(inDay % NS_PER_SECOND)
  const sg = negative ? -1 : 1
  w.u8(11)
  w.u32be((0x80000000 + sg * days) >>> 0)
  w.u8(60 + sg * Math.floor(secs / 3600))
  w.u8(60 + sg * (Math.floor(secs / 60) % 60))
  w.u8(60 + sg * (secs % 60))
  w.u32be((0x80000000 + sg * ns) >>> 0)
}

/** Writes an INTERVAL YEAR TO MONTH (length byte + 5 bytes) from total months. */
export const writeIntervalYmMonths = (w: WriteBuffer, months: number): void => {
  const sg = months < 0 ? -1 : 1
  const a = Math.abs(months)
  w.u8(5)
  w.u32be((0x80000000 + sg * Math.floor(a / 12)) >>> 0)
  w.u8(60 + sg * (a % 12))
}

/** Nanoseconds of a DuckDB INTERVAL (a month counts 30 days, as DuckDB's own comparisons do). */
export const nanosOfDuckInterval = (months: number, days: number, micros: bigint): bigint =>
  (BigInt(months) * 30n + BigInt(days)) * NS_PER_DAY + micros * 1000n

const duckIntervalOfNanos = (nanos: bigint): DuckDBIntervalValue => {
  const days = nanos / NS_PER_DAY
  return intervalValue(0, Number(days), (nanos - days * NS_PER_DAY) / 1000n)
}

/**
 * Nanoseconds rounded half away from zero to whole microseconds, DuckDB INTERVAL's unit: Oracle rounds a fraction to
 * the declared fractional seconds precision ("INTERVAL '30.12345' SECOND(2,4)" is 30.1235 seconds, SQL Language
 * Reference, "Interval Literals"; ODP.NET's OracleIntervalDS.SetPrecision rounds likewise).
 */
const roundedToMicros = (nanos: bigint): bigint => {
  const magnitude = ((nanos < 0n ? -nanos : nanos) + 500n) / 1000n * 1000n
  return nanos < 0n ? -magnitude : magnitude
}

/** A bound INTERVAL DAY TO SECOND: a DuckDB INTERVAL (microseconds) that remembers its nanoseconds. */
export const intervalDsBind = (nanos: bigint): DuckDBIntervalValue => {
  const v = duckIntervalOfNanos(nanos)
  exactOfBind.set(v, { nanos })
  return v
}

/** A bound INTERVAL YEAR TO MONTH: a DuckDB INTERVAL that remembers months beyond DuckDB's 32-bit range. */
export const intervalYmBind = (months: number): DuckDBIntervalValue => {
  const v = intervalValue(Math.max(-INT32_MAX, Math.min(INT32_MAX, months)), 0, 0n)
  exactOfBind.set(v, { months })
  return v
}

/** The value of an interval for a column stored as `type` (DuckDB INTERVAL, DECIMAL seconds or BIGINT months). */
export const intervalStorageValue = (exact: Exact, type: DuckDBType): DuckDBValue => {
  switch (type.typeId) {
    case DuckDBTypeId.DECIMAL: {
      const { width, scale } = type as DuckDBType & { width: number; scale: number }
      const nanos = "nanos" in exact ? exact.nanos : BigInt(exact.months) * 30n * NS_PER_DAY
      return decimalValue(nanos / 10n ** BigInt(9 - scale), width, scale)
    }
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.INTEGER:
      return "months" in exact ? BigInt(exact.months) : exact.nanos / NS_PER_DAY
    case DuckDBTypeId.VARCHAR:
      // a value fitted to a written column's precisions (interval-functions.ts ora_ds_fit_* / ora_ym_fit_*): exact text
      return "nanos" in exact ? exactSecondsText(exact.nanos) : String(exact.months)
    case DuckDBTypeId.INTERVAL:
      // a DAY TO SECOND(0-6) column: the bind's nanoseconds rounded, not cut
      if ("nanos" in exact) return duckIntervalOfNanos(roundedToMicros(exact.nanos))
      if (Math.abs(exact.months) > INT32_MAX) throw new RangeError("interval out of range")
      return intervalValue(exact.months, 0, 0n)
    default:
      return "nanos" in exact ? duckIntervalOfNanos(exact.nanos) : intervalValue(exact.months, 0, 0n)
  }
}

/**
 * A DAY TO SECOND(7-9) column's stored seconds (DECIMAL text) as the DuckDB INTERVAL datetime arithmetic takes:
 * ORA-00932 for digits below the microsecond, which DuckDB's INTERVAL and TIMESTAMP cannot carry, unless `forDate`
 * (a DATE operand loses the fraction anyway: "If the other operand has a fractional seconds value, then the
 * fractional seconds value is lost", SQL Language Reference, "Datetime/Interval Arithmetic").
 */
export const durationOfExactSeconds = (text: string, forDate: boolean): DuckDBIntervalValue => {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim())
  if (m === null) throw ora.inconsistentTypes(`INTERVAL DAY TO SECOND value ${text}`)
  const nanos = BigInt(m[2] || "0") * NS_PER_SECOND + BigInt((m[3] ?? "").padEnd(9, "0").slice(0, 9))
  if (nanos % 1000n !== 0n && !forDate) throw ora.inconsistentTypes("datetime arithmetic with the nanoseconds of an INTERVAL DAY TO SECOND(7-9) is not supported")
  const micros = nanos - (nanos % 1000n)
  return duckIntervalOfNanos(m[1] === "-" ? -micros : micros)
}

/** A YEAR(9) TO MONTH column's stored months as a DuckDB INTERVAL; ORA-01841 beyond any datetime's reach. */
export const durationOfExactMonths = (months: bigint): DuckDBIntervalValue => {
  if (months > BigInt(INT32_MAX) || months < -BigInt(INT32_MAX)) throw new OraError(1841, "(full) year must be between -4713 and +9999, and not be 0")
  return intervalValue(Number(months), 0, 0n)
}

/**
 * An INTERVAL OUT value of a PL/SQL block in wire form: a bound interval keeps its exact value, a DuckDB INTERVAL
 * counts a month as 30 days for DAY TO SECOND (as {@link nanosOfDuckInterval}), DECIMAL seconds (DAY TO SECOND(7-9)
 * storage) and BIGINT months (YEAR(9) TO MONTH storage) are taken as they are. False for a value of another kind.
 */
export const writeIntervalOut = (w: WriteBuffer, v: unknown, yearToMonth: boolean): boolean => {
  const exact = v instanceof DuckDBIntervalValue ? exactOfBind.get(v) : undefined
  let nanos: bigint
  let months: number
  if (exact !== undefined) {
    nanos = "nanos" in exact ? exact.nanos : BigInt(exact.months) * 30n * NS_PER_DAY
    months = "months" in exact ? exact.months : 0
  } else if (v instanceof DuckDBIntervalValue) {
    nanos = nanosOfDuckInterval(v.months, v.days, v.micros)
    months = v.months
  } else if (typeof v === "bigint") {
    nanos = v * NS_PER_SECOND
    months = Number(v)
  } else if (typeof v === "number") {
    // DAY TO SECOND(7-9) arithmetic yields seconds as a double, whose shortest text carries the digits written
    const m = /^(-?)(\d+)(?:\.(\d{1,9}))?$/.exec(String(v))
    const magnitude = m === null ? BigInt(Math.round(Math.abs(v) * 1e9)) : BigInt(m[2]!) * NS_PER_SECOND + BigInt((m[3] ?? "").padEnd(9, "0"))
    nanos = v < 0 ? -magnitude : magnitude
    months = Math.trunc(v)
  } else if (v !== null && typeof v === "object" && "scale" in v && "value" in v && typeof v.value === "bigint") {
    nanos = (v.value * NS_PER_SECOND) / 10n ** BigInt(v.scale as number)
    months = Number(v.value)
  } else return false
  if (yearToMonth) writeIntervalYmMonths(w, months)
  else writeIntervalDsNanos(w, nanos)
  return true
}

/**
 * A bound INTERVAL DAY TO SECOND with digits below the microsecond as exact DECIMAL seconds text (the storage of
 * DAY TO SECOND(7-9), which PL/SQL expressions compute on); undefined for any other value.
 */
export const exactSecondsOfBind = (v: unknown): string | undefined => {
  const exact = v instanceof DuckDBIntervalValue ? exactOfBind.get(v) : undefined
  if (exact === undefined || !("nanos" in exact) || exact.nanos % 1000n === 0n) return undefined
  return exactSecondsText(exact.nanos)
}

/** Nanoseconds as DECIMAL seconds text (`-1.000000001`). */
const exactSecondsText = (nanos: bigint): string => {
  const a = nanos < 0n ? -nanos : nanos
  return `${nanos < 0n ? "-" : ""}${a / NS_PER_SECOND}.${(a % NS_PER_SECOND).toString().padStart(9, "0")}`
}

/** True when some parameter is a bound interval (whose storage value depends on the statement). */
export const hasIntervalBinds = (params: ReadonlyArray<DuckDBValue> | undefined): boolean =>
  params !== undefined && params.some((p) => p instanceof DuckDBIntervalValue && exactOfBind.has(p))

/** True when some row of an executeMany has a bound interval (a first row's NULL says nothing about the others). */
export const anyIntervalBinds = (rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): boolean => rows.some(hasIntervalBinds)

/**
 * Replaces bound intervals by the value their parameter's storage takes (`parameterType` is DuckDB's inference for
 * the prepared statement: the target column's type in INSERT / UPDATE SET / comparisons).
 */
export const intervalParamsFor = (
  params: ReadonlyArray<DuckDBValue>,
  parameterType: (i: number) => DuckDBType | undefined
): Array<DuckDBValue> =>
  params.map((p, i) => {
    const exact = p instanceof DuckDBIntervalValue ? exactOfBind.get(p) : undefined
    if (exact === undefined) return p
    const type = parameterType(i)
    return type === undefined ? p : intervalStorageValue(exact, type)
  })

/** Parses DuckDB's interval rendering ("1 year 2 months 3 days 04:05:06.123456", "-3 days -02:00:00"). */
export const parseDuckInterval = (s: string): { months: number; days: number; micros: bigint } => {
  let months = 0
  let days = 0
  let micros = 0n
  const re = /(-?\d+) (year|years|mon|mons|month|months|day|days)|(-?)(\d+):(\d+):(\d+)(?:\.(\d+))?/g
  let m: RegExpExecArray | null
  while ((m = re.exec(s)) !== null) {
    if (m[1] !== undefined) {
      const n = Number(m[1])
      if (m[2]!.startsWith("y")) months += n * 12
      else if (m[2]!.startsWith("mon")) months += n
      else days += n
    } else {
      const neg = m[3] === "-"
      const frac = (m[7] ?? "").padEnd(6, "0").slice(0, 6)
      const us = (BigInt(Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6])) * 1_000_000n) + BigInt(frac === "" ? 0 : Number(frac))
      micros += neg ? -us : us
    }
  }
  return { months, days, micros }
}
