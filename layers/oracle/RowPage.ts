/**
 * The row-mode page: oracledb's JS row arrays decoded into Arrow column builders ({@link oraclePage}), for row mode
 * and for result types the batch-mode wire decoder (WirePage.ts) does not read, column by column with one decoder per
 * {@link CellKind}, plus the interval and JSON text helpers. Values arrive as node-oracledb hands them over with this
 * driver's fetch settings: NUMBER as its exact decimal digits (fetched as STRING), dates and timestamps as their wire
 * bytes ({@link RawTemporal}, DbPatches.ts), intervals as oracledb's IntervalDS / IntervalYM (exact: nanoseconds are
 * integers), LOBs fetched as string or Buffer, JSON as JS values.
 *
 * @since 0.1.0
 */
import type { ColumnBuilder, Page } from "../../src/arrow/index.ts"
import { ArrowAssemblyError, rowValueBytes } from "../../src/arrow/index.ts"
import { formatEpochTicks } from "../common/ArrowCells.ts"
import { type SdoGeometry, sdoGeometryToWkb } from "./SdoGeometry.ts"
import { RawTemporal, WireDecimal } from "./DbPatches.ts"
import { type CellKind, type MappedColumn, TYPE_NAME_METADATA } from "./ReadTypes.ts"

/** Any builder; the decoder knows each column's concrete class from its kind. */
export type AnyBuilder = ColumnBuilder & {
  appendNumber(v: number): void
  appendBigInt(v: bigint): void
  appendBoolean(v: boolean): void
  appendString(v: string): void
  appendBytes(v: Uint8Array): void
  appendSecondsAndNanos(seconds: number, nanos: number): void
  appendDayTime(days: number, milliseconds: number): void
  appendMonthDayNano(months: number, days: number, nanoseconds: number | bigint): void
  appendUnscaledNumber(v: number): void
  appendBytesRange(source: Uint8Array, start: number, end: number): void
}

export interface IntervalDS {
  readonly days: number
  readonly hours: number
  readonly minutes: number
  readonly seconds: number
  readonly fseconds: number
}
export interface IntervalYM {
  readonly years: number
  readonly months: number
}

const INT32_MAX = 2 ** 31 - 1
const INT32_MIN = -(2 ** 31)
const NANOS_PER_DAY = 86_400_000_000_000n

export const invalid = (column: MappedColumn, message: string) => new ArrowAssemblyError(message, column.field.name)

const isoSeconds = (seconds: number, nanos: number, digits: number): string => {
  const whole = String(seconds)
  if (digits === 0 || nanos === 0) return whole
  const fraction = String(nanos).padStart(9, "0").slice(0, Math.max(digits, 1)).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}

/** ISO 8601 duration text of a day-to-second interval (`P1DT2H3M4.5S`, `-PT0.000001S`, `PT0S`). */
export const isoDayToSecond = (v: IntervalDS, digits: number): string => {
  const negative = v.days < 0 || v.hours < 0 || v.minutes < 0 || v.seconds < 0 || v.fseconds < 0
  const d = Math.abs(v.days)
  const h = Math.abs(v.hours)
  const m = Math.abs(v.minutes)
  const s = Math.abs(v.seconds)
  const ns = Math.abs(v.fseconds)
  let time = ""
  if (h !== 0) time += `${h}H`
  if (m !== 0) time += `${m}M`
  if (s !== 0 || ns !== 0) time += `${isoSeconds(s, ns, digits)}S`
  let text = "P"
  if (d !== 0) text += `${d}D`
  if (time !== "") text += `T${time}`
  if (text === "P") text = "PT0S"
  return negative ? `-${text}` : text
}

/** ISO 8601 duration text of a year-to-month interval (`P1Y2M`, `-P3M`, `P0M`). */
export const isoYearToMonth = (v: IntervalYM): string => {
  const negative = v.years < 0 || v.months < 0
  const y = Math.abs(v.years)
  const m = Math.abs(v.months)
  let text = "P"
  if (y !== 0) text += `${y}Y`
  if (m !== 0 || y === 0) text += `${m}M`
  return negative ? `-${text}` : text
}

const isIntervalDS = (v: unknown): v is IntervalDS =>
  typeof v === "object" && v !== null && "fseconds" in v && "days" in v
const isIntervalYM = (v: unknown): v is IntervalYM =>
  typeof v === "object" && v !== null && "years" in v && "months" in v && !("days" in v)

/** `JSON.rawJSON` (Node 21+; the package requires Node 22.19): a value JSON.stringify writes as the given text. */
const rawJson = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON

/**
 * JSON text of a JSON column value or an OBJECT / VARRAY value as node-oracledb decoded it with this driver's hooks
 * (DbPatches.ts). NUMBERs ({@link WireDecimal}) are written unquoted with every digit. The scalars JSON text lacks
 * are written as strings: dates and timestamps in ISO 8601 (the hooks' text), binary in base 16 (as Oracle's JDBC
 * `OracleJsonBinary.getString()` does), intervals as ISO 8601 durations, a NaN or infinite double as `"NaN"`,
 * `"Infinity"`, `"-Infinity"`.
 *
 * @category decoding
 * @since 0.1.0
 */
export const jsonText = (value: unknown): string =>
  JSON.stringify(value, function(this: Record<string, unknown>, key: string, converted: unknown) {
    const raw = this[key]
    if (raw instanceof WireDecimal) return rawJson(plainNumberText(raw.text))
    // a BINARY_DOUBLE / BINARY_FLOAT NaN or infinity, which JSON.stringify would silently write as null
    if (typeof raw === "number" && !Number.isFinite(raw)) return String(raw)
    if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("hex").toUpperCase()
    if (isIntervalDS(raw)) return isoDayToSecond(raw, 9)
    if (isIntervalYM(raw)) return isoYearToMonth(raw)
    return converted
  })

const DURATION_UNIT_NANOS = [1_000_000_000n, 1_000_000n, 1_000n, 1n] as const

const dsNanos = (v: IntervalDS): bigint =>
  BigInt(v.days) * NANOS_PER_DAY + BigInt(v.hours * 3600 + v.minutes * 60 + v.seconds) * 1_000_000_000n +
  BigInt(v.fseconds)

const integerText = /^-?\d+$/

/** `v` when int64 holds it; otherwise an error naming the column and row (never a wrapped value). */
export const int64Of = (v: bigint, column: MappedColumn, row: number): bigint => {
  if (BigInt.asIntN(64, v) === v) return v
  throw invalid(column, `row ${row}: NUMBER value ${v} is outside the int64 range [-2^63, 2^63)`)
}

/**
 * Appends a DATE / TIMESTAMP value given as seconds and nanoseconds since the epoch. A value the column's unit cannot
 * hold (timestamp[ns] is an int64 of nanoseconds: 1677-09-21 .. 2262-04-11) fails naming the column and row; it is
 * never wrapped or clamped.
 */
export const appendTimestamp = (builder: AnyBuilder, column: MappedColumn, seconds: number, nanos: number, row: number): void => {
  try {
    builder.appendSecondsAndNanos(seconds, nanos)
  } catch (e) {
    if (!(e instanceof ArrowAssemblyError)) throw e
    const value = formatEpochTicks(BigInt(seconds) * 1_000_000_000n + BigInt(nanos), 1e9)
    throw invalid(
      column,
      `row ${row}: ${column.field.metadata.get(TYPE_NAME_METADATA) ?? "TIMESTAMP"} value ${value} is outside the range of ${column.field.type} (1677-09-21 to 2262-04-11 for nanoseconds); select it as CAST(... AS TIMESTAMP(6)) for microseconds, which cover every Oracle year`
    )
  }
}

/** An OBJECT value with its NUMBERs (exact {@link WireDecimal} text from the DbObject hook) as JS numbers. */
const withDoubles = (value: unknown): unknown => {
  if (value instanceof WireDecimal) return Number(value.text)
  if (Array.isArray(value)) return value.map(withDoubles)
  if (value === null || typeof value !== "object") return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDoubles(v)]))
}

/** oracledb writes fractions below one without the leading zero (`.5`, `-.5`); the Arrow text has it. */
const plainNumberText = (text: string): string =>
  text.startsWith(".") ? `0${text}` : text.startsWith("-.") ? `-0${text.slice(1)}` : text

/** Appends one non-null value of `column`; `row` counts from the start of the result (for messages). */
export const appendValue = (builder: AnyBuilder, column: MappedColumn, kind: CellKind, value: unknown, row: number): void => {
  switch (kind) {
    case "int64": {
      const n = typeof value === "number" ? value : Number(value)
      if (Number.isSafeInteger(n)) return builder.appendNumber(n)
      const text = String(value)
      if (!integerText.test(text)) {
        throw invalid(column, `row ${row}: NUMBER value ${text} is not an integer, so it does not fit int64`)
      }
      return builder.appendBigInt(int64Of(BigInt(text), column, row))
    }
    case "float64":
    case "float32":
      return builder.appendNumber(typeof value === "number" ? value : Number(value))
    case "decimal":
      return builder.appendString(typeof value === "string" ? value : String(value))
    case "number-string":
      return builder.appendString(plainNumberText(String(value)))
    case "string":
    case "rowid":
    case "xml":
      return typeof value === "string" ? builder.appendString(value) : builder.appendString(String(value))
    case "json":
    case "object-json":
      return builder.appendString(typeof value === "string" ? value : jsonText(value))
    case "binary":
      if (value instanceof Uint8Array) return builder.appendBytes(value)
      throw invalid(column, `row ${row}: expected bytes`)
    case "geometry":
      if (value instanceof Uint8Array) return builder.appendBytes(value)
      try {
        return builder.appendBytes(sdoGeometryToWkb(withDoubles(value) as SdoGeometry))
      } catch (e) {
        throw invalid(column, `row ${row}: ${e instanceof Error ? e.message : String(e)}`)
      }
    case "bool":
      return builder.appendBoolean(value === true)
    case "date32":
    case "date-timestamp":
    case "timestamp":
    case "timestamp-tz":
    case "timestamp-ltz": {
      if (!(value instanceof RawTemporal)) {
        if (value instanceof Date) return builder.append(value)
        throw invalid(column, `row ${row}: expected a date or timestamp value`)
      }
      if (kind === "date32") return builder.appendNumber(Math.floor(value.seconds / 86_400))
      const seconds = kind === "timestamp-ltz" ? value.seconds - value.dbTzOffsetMinutes * 60 : value.seconds
      return appendTimestamp(builder, column, seconds, value.nanos, row)
    }
    case "interval-ds-daytime": {
      const v = value as IntervalDS
      const ms = (v.hours * 3600 + v.minutes * 60 + v.seconds) * 1000 + Math.trunc(v.fseconds / 1_000_000)
      return builder.appendDayTime(v.days, ms)
    }
    case "interval-ds-monthdaynano": {
      const v = value as IntervalDS
      const nanos = BigInt(v.hours * 3600 + v.minutes * 60 + v.seconds) * 1_000_000_000n + BigInt(v.fseconds)
      return builder.appendMonthDayNano(0, v.days, nanos)
    }
    case "interval-ds-duration": {
      const v = value as IntervalDS
      const unit = (column.field.type as { unit: 0 | 1 | 2 | 3 }).unit
      const ticks = dsNanos(v) / DURATION_UNIT_NANOS[unit]
      // an int64 of nanoseconds holds about 106,751 days, of microseconds about 106,751,991 days
      if (BigInt.asIntN(64, ticks) !== ticks) {
        throw invalid(
          column,
          `row ${row}: INTERVAL DAY TO SECOND value ${isoDayToSecond(v, 9)} overflows the int64 of ${column.field.type}; set redo.query.day_time_interval_type=monthdaynano or string`
        )
      }
      return builder.appendBigInt(ticks)
    }
    case "interval-ds-string":
      return builder.appendString(isoDayToSecond(value as IntervalDS, column.scale))
    case "interval-ym":
    case "interval-ym-monthdaynano": {
      const v = value as IntervalYM
      const months = v.years * 12 + v.months
      if (months > INT32_MAX || months < INT32_MIN) {
        throw invalid(
          column,
          `row ${row}: INTERVAL YEAR TO MONTH value ${isoYearToMonth(v)} overflows the 32-bit months of Arrow intervals; set redo.query.year_month_interval_type=string`
        )
      }
      return kind === "interval-ym" ? builder.appendNumber(months) : builder.appendMonthDayNano(months, 0, 0)
    }
    case "interval-ym-string":
      return builder.appendString(isoYearToMonth(value as IntervalYM))
  }
}

/**
 * A page over fetched rows. `firstRow` is the result-wide index of `rows[0]` (0-based), used in messages.
 *
 * @category decoding
 * @since 0.1.0
 */
export const oraclePage = (
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  columns: ReadonlyArray<MappedColumn>,
  firstRow: number
): Page => {
  let position = 0
  return {
    appendRows(builders, maxRows) {
      const count = Math.min(maxRows, rows.length - position)
      const end = position + count
      for (let c = 0; c < builders.length; c++) {
        const builder = builders[c]! as AnyBuilder
        const column = columns[c]!
        const kind = column.kind
        for (let r = position; r < end; r++) {
          const value = rows[r]![c]
          if (value === null || value === undefined) builder.appendNull()
          else appendValue(builder, column, kind, value, firstRow + r + 1)
        }
      }
      position = end
      return count
    },
    appendRowsWithin(builders, maxRows, budget) {
      const end = position + Math.min(maxRows, rows.length - position)
      const start = position
      while (position < end) {
        const row = rows[position]!
        if (!budget.admits(rowValueBytes(row))) break
        for (let c = 0; c < builders.length; c++) {
          const value = row[c]
          const column = columns[c]!
          if (value === null || value === undefined) builders[c]!.appendNull()
          else appendValue(builders[c]! as AnyBuilder, column, column.kind, value, firstRow + position + 1)
        }
        position++
        if (budget.full()) break
      }
      return position - start
    }
  }
}
