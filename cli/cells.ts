/**
 * Arrow cells as plain values for printing: exact text for decimals and 64-bit integers beyond 2^53, ISO text for
 * dates and times, hex for binary, so CSV, JSON lines and the table show what the database holds.
 */
import * as Arrow from "apache-arrow"
import { formatDecimal, readDecimalWords } from "../src/arrow/index.ts"

/** A printable cell. */
export type Cell = null | string | number | boolean | ReadonlyArray<unknown> | { readonly [key: string]: unknown }

const DAY_MS = 86_400_000

const isoDate = (days: number): string => new Date(days * DAY_MS).toISOString().slice(0, 10)

const UNIT_PER_SECOND = [1n, 1_000n, 1_000_000n, 1_000_000_000n] as const
const UNIT_DIGITS = [0, 3, 6, 9] as const

/** `value` in `unit` since the epoch as ISO text with the unit's fractional digits. */
const isoTimestamp = (value: bigint, unit: Arrow.TimeUnit, zoned: boolean): string => {
  const perSecond = UNIT_PER_SECOND[unit]
  let seconds = value / perSecond
  let fraction = value % perSecond
  if (fraction < 0n) {
    fraction += perSecond
    seconds -= 1n
  }
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19)
  const digits = UNIT_DIGITS[unit]
  return `${base}${digits > 0 ? `.${fraction.toString().padStart(digits, "0")}` : ""}${zoned ? "Z" : ""}`
}

const timeOfDay = (value: bigint, unit: Arrow.TimeUnit): string => isoTimestamp(value, unit, false).slice(11)

const plain = (value: unknown): unknown => {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex")
  if (value !== null && typeof value === "object" && "toJSON" in value) return plain((value as { toJSON(): unknown }).toJSON())
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

/** A reader of row `i` of `data` (one column chunk) as a {@link Cell}. */
export const cellReader = (data: Arrow.Data): (i: number) => Cell => {
  const type = data.type
  const nullable = (f: (i: number) => Cell) => data.nullCount > 0 ? (i: number) => (data.getValid(i) ? f(i) : null) : f
  // apache-arrow slices value buffers with the Data: row i is at index i.
  if (Arrow.DataType.isInt(type)) {
    const values = data.values as ArrayLike<number | bigint>
    return nullable((i) => {
      const v = values[i]!
      return typeof v === "bigint" ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v
    })
  }
  if (Arrow.DataType.isDecimal(type)) {
    const words = type.bitWidth / 32
    const values = data.values as Uint32Array
    return nullable((i) => formatDecimal(readDecimalWords(values, i * words, words), type.scale))
  }
  if (Arrow.DataType.isFloat(type)) {
    const values = data.values as Float32Array | Float64Array
    return nullable((i) => (Number.isFinite(values[i]!) ? values[i]! : String(values[i])))
  }
  if (Arrow.DataType.isDate(type)) {
    const values = data.values as Int32Array | BigInt64Array
    const perDay = type.unit === Arrow.DateUnit.DAY ? 1 : DAY_MS
    return nullable((i) => isoDate(Math.floor(Number(values[i]) / perDay)))
  }
  if (Arrow.DataType.isTimestamp(type)) {
    const values = data.values as BigInt64Array
    const zoned = type.timezone !== null && type.timezone !== undefined
    return nullable((i) => isoTimestamp(values[i]!, type.unit, zoned))
  }
  if (Arrow.DataType.isTime(type)) {
    const values = data.values as Int32Array | BigInt64Array
    return nullable((i) => timeOfDay(BigInt(values[i]!), type.unit))
  }
  if (Arrow.DataType.isUtf8(type) || Arrow.DataType.isLargeUtf8(type)) {
    const offsets = data.valueOffsets as Int32Array | BigInt64Array
    const bytes = data.values as Uint8Array
    return nullable((i) => Buffer.from(bytes.buffer, bytes.byteOffset + Number(offsets[i]), Number(offsets[i + 1]) - Number(offsets[i])).toString("utf8"))
  }
  const vector = Arrow.makeVector(data)
  return nullable((i) => plain(vector.get(i)) as Cell)
}

/** Readers of every column of `batch`. */
export const rowReaders = (batch: Arrow.RecordBatch): Array<(i: number) => Cell> =>
  batch.schema.fields.map((_, c) => cellReader(batch.getChildAt(c)!.data[0]!))

/** A cell as text: empty for NULL, JSON for nested values. */
export const cellText = (cell: Cell): string =>
  cell === null ? "" : typeof cell === "object" ? JSON.stringify(cell) : String(cell)

/** The rows of a struct or list value (GetObjects' nested lists) as plain objects; none for NULL. */
export const rowsOf = (value: unknown): Array<Record<string, unknown>> =>
  value === null || value === undefined
    ? []
    : [...(value as Iterable<{ toJSON(): Record<string, unknown> }>)].map((r) => r.toJSON())
