/**
 * Value checks for bulk ingest: values that a column would store changed (digits or decimal places lost, a number out
 * of range, text that is not valid UTF-8) are refused with INVALID_DATA naming the column and the row, instead of
 * being truncated, rounded or replaced by U+FFFD on the server.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { isUtf8 } from "node:buffer"
import { Result } from "effect"
import { type AdbcError, adbcError } from "../AdbcError.ts"

/** Checks one column of a batch; returns the problem with the first bad value (row index in the batch) or undefined. */
type ValueCheck = (data: Arrow.Data) => { readonly row: number; readonly problem: string } | undefined

interface ColumnCheck {
  readonly index: number
  readonly name: string
  readonly check: ValueCheck
}

/**
 * Builds the checker for a batch stream of `schema` (dictionary columns already decoded). `existing` is the target
 * table's schema on append; its columns decide which numbers would lose digits. The result checks one batch whose
 * first row is row `firstRow` (0-based) of the whole ingest and fails INVALID_DATA naming column and row (1-based).
 *
 * @category internals
 * @since 0.1.0
 */
export const valueChecker = (
  schema: Arrow.Schema,
  existing: Arrow.Schema | undefined
): (batch: Arrow.RecordBatch, firstRow: number) => Result.Result<void, AdbcError> => {
  const targets = new Map(existing?.fields.map((f) => [f.name, f.type]))
  const checks: Array<ColumnCheck> = []
  schema.fields.forEach((field, index) => {
    const target = targets.get(field.name)
    const check = isUtf8Type(field.type)
      ? checkUtf8
      : field.type.typeId === Arrow.Type.Utf8View
      ? checkUtf8View
      : target === undefined
      ? undefined
      : numberCheck(field.type, target)
    if (check !== undefined) checks.push({ index, name: field.name, check })
  })
  return (batch, firstRow) => {
    for (const { check, index, name } of checks) {
      const data = batch.data.children[index]
      const bad = data === undefined ? undefined : check(data)
      if (bad !== undefined) {
        return Result.fail(adbcError("INVALID_DATA", `column ${name}, row ${firstRow + bad.row + 1}: ${bad.problem}`))
      }
    }
    return Result.void
  }
}

const isUtf8Type = (type: Arrow.DataType): boolean => Arrow.DataType.isUtf8(type) || Arrow.DataType.isLargeUtf8(type)

const isValid = (data: Arrow.Data, row: number) => data.nullCount === 0 || data.getValid(row)

const UTF8_PROBLEM = "the bytes are not valid UTF-8; a utf8 column must hold UTF-8 text (decode the source with its own " +
  "encoding first, or ingest the bytes as a binary column)"

/**
 * Valid UTF-8 in every value. Fast path: the whole data buffer is valid and no value starts inside a character
 * (on a continuation byte), so every value is; only otherwise is each value checked on its own.
 */
const checkUtf8: ValueCheck = (data) => {
  const offsets = data.valueOffsets as Int32Array | BigInt64Array
  const bytes = data.values as Uint8Array
  const at = (i: number) => Number(offsets[i]!)
  const start = at(0)
  const end = at(data.length)
  if (isUtf8(bytes.subarray(start, end))) {
    let splitsCharacter = false
    for (let i = 1; i < data.length && !splitsCharacter; i++) {
      const offset = at(i)
      splitsCharacter = offset < end && (bytes[offset]! & 0xc0) === 0x80
    }
    if (!splitsCharacter) return undefined
  }
  for (let row = 0; row < data.length; row++) {
    if (isValid(data, row) && !isUtf8(bytes.subarray(at(row), at(row + 1)))) return { row, problem: UTF8_PROBLEM }
  }
  return undefined
}

/**
 * Valid UTF-8 in every value of a string_view column. Each 16-byte view is an int32 length, then the bytes inline
 * (12 or fewer) or a 4-byte prefix, the index of a variadic buffer and the offset in it (Arrow columnar format,
 * "Variable-size Binary View Layout").
 */
const checkUtf8View: ValueCheck = (data) => {
  const views = data.values as Uint8Array
  const view = new DataView(views.buffer, views.byteOffset, views.byteLength)
  for (let row = 0; row < data.length; row++) {
    if (!isValid(data, row)) continue
    const at = row * 16
    const size = view.getInt32(at, true)
    const offset = view.getInt32(at + 12, true)
    const bytes = size <= 12
      ? views.subarray(at + 4, at + 4 + size)
      : data.variadicBuffers[view.getInt32(at + 8, true)]?.subarray(offset, offset + size)
    if (bytes === undefined || !isUtf8(bytes)) return { row, problem: UTF8_PROBLEM }
  }
  return undefined
}

/** The values of a numeric column as exact numbers: bigint for integers and decimals (unscaled), number for floats. */
type Exact = { readonly kind: "int"; readonly value: bigint } | { readonly kind: "float"; readonly value: number } | {
  readonly kind: "decimal"
  readonly unscaled: bigint
  readonly scale: number
}

const readerOf = (type: Arrow.DataType): ((data: Arrow.Data, row: number) => Exact) | undefined => {
  if (Arrow.DataType.isInt(type)) {
    return (data, row) => ({ kind: "int", value: BigInt((data.values as ArrayLike<number | bigint>)[row]!) })
  }
  if (Arrow.DataType.isFloat(type) && type.precision !== Arrow.Precision.HALF) {
    return (data, row) => ({ kind: "float", value: (data.values as Float32Array | Float64Array)[row]! })
  }
  if (Arrow.DataType.isDecimal(type)) {
    const words = type.bitWidth / 32
    return (data, row) => {
      const values = data.values as Uint32Array
      let unscaled = 0n
      for (let w = words - 1; w >= 0; w--) unscaled = (unscaled << 32n) | BigInt(values[row * words + w]!)
      return { kind: "decimal", unscaled: BigInt.asIntN(type.bitWidth, unscaled), scale: type.scale }
    }
  }
  return undefined
}

/** A decimal string of a float (JavaScript's shortest round-trip form) as unscaled digits and a scale. */
const floatAsDecimal = (value: number): { readonly unscaled: bigint; readonly scale: number } => {
  const [mantissa = "0", exponent = "0"] = value.toExponential().split("e")
  const [whole = "0", fraction = ""] = mantissa.split(".")
  const scale = fraction.length - Number(exponent)
  const digits = BigInt(whole + fraction)
  return scale >= 0 ? { unscaled: digits, scale } : { unscaled: digits * 10n ** BigInt(-scale), scale: 0 }
}

/** The value as unscaled digits at exactly `scale` decimal places, or undefined when it has more places than that. */
const atScale = (value: Exact, scale: number): bigint | undefined => {
  const { unscaled, scale: own } = value.kind === "int"
    ? { unscaled: value.value, scale: 0 }
    : value.kind === "decimal"
    ? value
    : floatAsDecimal(value.value)
  if (own <= scale) return unscaled * 10n ** BigInt(scale - own)
  const factor = 10n ** BigInt(own - scale)
  return unscaled % factor === 0n ? unscaled / factor : undefined
}

const show = (value: Exact): string => {
  if (value.kind === "int") return String(value.value)
  if (value.kind === "float") return String(value.value)
  const negative = value.unscaled < 0n
  const digits = (negative ? -value.unscaled : value.unscaled).toString().padStart(value.scale + 1, "0")
  const text = value.scale === 0 ? digits : `${digits.slice(0, -value.scale)}.${digits.slice(-value.scale)}`
  return (negative ? "-" : "") + text
}

/** What a target column can hold without change, as an inclusive range of unscaled values at a scale. */
interface Capacity {
  readonly scale: number
  readonly min: bigint
  readonly max: bigint
  readonly describe: string
}

const capacityOf = (type: Arrow.DataType): Capacity | undefined => {
  if (Arrow.DataType.isInt(type)) {
    const bits = BigInt(type.bitWidth)
    const [min, max] = type.isSigned ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n]
    return { scale: 0, min, max, describe: `${type} (whole numbers from ${min} to ${max})` }
  }
  if (Arrow.DataType.isDecimal(type)) {
    const max = 10n ** BigInt(type.precision) - 1n
    return {
      scale: type.scale,
      min: -max,
      max,
      describe: `DECIMAL(${type.precision},${type.scale}) (at most ${type.precision - type.scale} digits before the ` +
        `point and ${type.scale} after)`
    }
  }
  return undefined
}

/** The unscaled range of an incoming integer or decimal type, to skip checks when every value fits anyway. */
const rangeOf = (type: Arrow.DataType): Capacity | undefined =>
  Arrow.DataType.isInt(type) || Arrow.DataType.isDecimal(type) ? capacityOf(type) : undefined

const fitsWithin = (incoming: Capacity, target: Capacity): boolean =>
  incoming.scale <= target.scale &&
  incoming.min * 10n ** BigInt(target.scale - incoming.scale) >= target.min &&
  incoming.max * 10n ** BigInt(target.scale - incoming.scale) <= target.max

/** The scale of an exact value (0 for integers, the shortest decimal form's for floats). */
const scaleOf = (value: Exact): number =>
  value.kind === "int" ? 0 : value.kind === "decimal" ? value.scale : floatAsDecimal(value.value).scale

/** Whether the binary float `stored` reads back as exactly the value `value` (digit for digit). */
const sameNumber = (value: Exact, stored: number): boolean => {
  if (!Number.isFinite(stored)) return value.kind === "float" && Object.is(value.value, stored)
  const back: Exact = { kind: "float", value: stored }
  const scale = Math.max(scaleOf(value), scaleOf(back))
  return atScale(value, scale) === atScale(back, scale)
}

/**
 * The check for numbers appended into an existing floating-point column: integers beyond the float's exact range
 * (above 2^53 into DOUBLE, 2^24 into REAL), DOUBLE values REAL cannot hold, and decimals DOUBLE does not read back
 * digit for digit. Decimals into REAL are not checked (its shortest decimal form is not at hand).
 */
const floatCheck = (incoming: Arrow.DataType, target: Arrow.Float): ValueCheck | undefined => {
  const single = target.precision === Arrow.Precision.SINGLE
  const read = readerOf(incoming)
  if (read === undefined || target.precision === Arrow.Precision.HALF) return undefined
  if (Arrow.DataType.isInt(incoming) && incoming.bitWidth <= (single ? 16 : 32)) return undefined
  if (Arrow.DataType.isFloat(incoming) && (!single || incoming.precision !== Arrow.Precision.DOUBLE)) return undefined
  if (Arrow.DataType.isDecimal(incoming) && single) return undefined
  const name = single ? "REAL (Float32)" : "DOUBLE (Float64)"
  return (data) => {
    for (let row = 0; row < data.length; row++) {
      if (!isValid(data, row)) continue
      const value = read(data, row)
      const asDouble = value.kind === "float" ? value.value : Number(show(value))
      const stored = single ? Math.fround(asDouble) : asDouble
      if (!sameNumber(value, stored)) {
        return { row, problem: `${show(value)} would lose digits in the existing column of type ${name} (it would read back as ${stored})` }
      }
    }
    return undefined
  }
}

/**
 * The check for numbers of `incoming` type appended into an existing numeric column of `target` type: every value
 * must keep all its digits and decimal places. Undefined when no value can lose anything.
 */
const numberCheck = (incoming: Arrow.DataType, target: Arrow.DataType): ValueCheck | undefined => {
  if (Arrow.DataType.isFloat(target)) return floatCheck(incoming, target)
  const capacity = capacityOf(target)
  const read = readerOf(incoming)
  if (capacity === undefined || read === undefined) return undefined
  const range = rangeOf(incoming)
  if (range !== undefined && fitsWithin(range, capacity)) return undefined
  return (data) => {
    for (let row = 0; row < data.length; row++) {
      if (!isValid(data, row)) continue
      const value = read(data, row)
      if (value.kind === "float" && !Number.isFinite(value.value)) {
        return { row, problem: `${value.value} is not a number the existing column ${capacity.describe} can hold` }
      }
      const unscaled = atScale(value, capacity.scale)
      if (unscaled === undefined) {
        return {
          row,
          problem: `${show(value)} would lose decimal places in the existing column ${capacity.describe}; round the ` +
            `data or widen the column`
        }
      }
      if (unscaled < capacity.min || unscaled > capacity.max) {
        return { row, problem: `${show(value)} is out of range of the existing column ${capacity.describe}` }
      }
    }
    return undefined
  }
}
