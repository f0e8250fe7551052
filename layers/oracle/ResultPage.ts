/**
 * Decodes a page of oracledb rows (arrays) into Arrow column builders, column by column, with one decoder per
 * {@link CellKind}. Values arrive as node-oracledb hands them over with this driver's fetch settings: NUMBER as its
 * exact decimal digits (fetched as STRING), dates and timestamps as their wire bytes ({@link RawTemporal}),
 * intervals as oracledb's IntervalDS / IntervalYM (exact: nanoseconds are integers), LOBs fetched as string or
 * Buffer, JSON as JS values.
 *
 * Wire layout of dates (Oracle Call Interface Programmer's Guide, "DATE" external datatype, and node-oracledb
 * impl/datahandlers/buffer.js): century+100, year+100, month, day, hour+1, minute+1, second+1, then a big-endian
 * uint32 of nanoseconds for TIMESTAMP, then time zone hour+20 and minute+60 for TIMESTAMP WITH TIME ZONE (whose
 * date and time are UTC); OracleDb.ts's hook turns them into {@link RawTemporal} seconds and nanoseconds.
 *
 * @since 0.1.0
 */
import type { ColumnBuilder, Page } from "../../src/arrow/index.ts"
import { ArrowAssemblyError } from "../../src/arrow/index.ts"
import { RawTemporal } from "./OracleDb.ts"
import type { CellKind, MappedColumn } from "./Types.ts"

/** Any builder; the decoder knows each column's concrete class from its kind. */
type AnyBuilder = ColumnBuilder & {
  appendNumber(v: number): void
  appendBigInt(v: bigint): void
  appendBoolean(v: boolean): void
  appendString(v: string): void
  appendBytes(v: Uint8Array): void
  appendSecondsAndNanos(seconds: number, nanos: number): void
  appendDayTime(days: number, milliseconds: number): void
  appendMonthDayNano(months: number, days: number, nanoseconds: number | bigint): void
}

interface IntervalDS {
  readonly days: number
  readonly hours: number
  readonly minutes: number
  readonly seconds: number
  readonly fseconds: number
}
interface IntervalYM {
  readonly years: number
  readonly months: number
}

const INT32_MAX = 2 ** 31 - 1
const INT32_MIN = -(2 ** 31)
const NANOS_PER_DAY = 86_400_000_000_000n

const invalid = (column: MappedColumn, message: string) => new ArrowAssemblyError(message, column.field.name)

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

const DURATION_UNIT_NANOS = [1_000_000_000n, 1_000_000n, 1_000n, 1n] as const

const dsNanos = (v: IntervalDS): bigint =>
  BigInt(v.days) * NANOS_PER_DAY + BigInt(v.hours * 3600 + v.minutes * 60 + v.seconds) * 1_000_000_000n +
  BigInt(v.fseconds)

const integerText = /^-?\d+$/

/** Appends one non-null value of `column`; `row` counts from the start of the result (for messages). */
const appendValue = (builder: AnyBuilder, column: MappedColumn, kind: CellKind, value: unknown, row: number): void => {
  switch (kind) {
    case "int64": {
      const n = typeof value === "number" ? value : Number(value)
      if (Number.isSafeInteger(n)) return builder.appendNumber(n)
      const text = String(value)
      if (!integerText.test(text)) {
        throw invalid(column, `row ${row}: NUMBER value ${text} is not an integer, so it does not fit int64`)
      }
      return builder.appendBigInt(BigInt(text))
    }
    case "float64":
    case "float32":
      return builder.appendNumber(typeof value === "number" ? value : Number(value))
    case "decimal":
    case "number-string":
      return builder.appendString(typeof value === "string" ? value : String(value))
    case "string":
    case "rowid":
    case "xml":
      return typeof value === "string" ? builder.appendString(value) : builder.appendString(String(value))
    case "json":
    case "object-json":
      return builder.appendString(typeof value === "string" ? value : JSON.stringify(value))
    case "binary":
    case "geometry":
      if (value instanceof Uint8Array) return builder.appendBytes(value)
      throw invalid(column, `row ${row}: expected bytes`)
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
      return builder.appendSecondsAndNanos(seconds, value.nanos)
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
      return builder.appendBigInt(dsNanos(v) / DURATION_UNIT_NANOS[unit])
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
    }
  }
}
