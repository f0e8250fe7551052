/**
 * An order-independent checksum over every column of a result, comparable across databases: each value is reduced
 * to a canonical form before hashing (integers and decimals as their exact decimal text without trailing zeros,
 * dates as days, text as its UTF-8 bytes), so `NUMBER(19)` read back as decimal128 matches the int64 it came from.
 * Per column, the 32-bit FNV-1a hashes of its values are summed (two differently mixed sums and a NULL count); per
 * row, the column hashes are mixed and summed too, so values moved between rows are caught as well.
 */
import * as Arrow from "apache-arrow"
import { formatDecimal, readDecimalWords } from "../../src/arrow/index.ts"

/** The checksum of one column. */
export interface ColumnChecksum {
  readonly name: string
  readonly nulls: number
  /** Hex digest of the order-independent value sums. */
  readonly digest: string
}

/** The checksum of a whole result. */
export interface ResultChecksum {
  readonly rows: number
  readonly columns: ReadonlyArray<ColumnChecksum>
  /** Hex digest of the order-independent sum of row hashes. */
  readonly rowsDigest: string
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const NULL_HASH = 0x6e756c6c

const hashAscii = (text: string): number => {
  let h = FNV_OFFSET
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME)
  return h >>> 0
}

const hashBytes = (bytes: Uint8Array, start: number, end: number): number => {
  let h = FNV_OFFSET
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME)
  return h >>> 0
}

/** murmur3's finaliser: a second, independent-looking view of a hash. */
const mix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Decimal text without trailing fractional zeros: `12.50` → `12.5`, `7.00` → `7`. */
const canonicalDecimal = (text: string): string =>
  text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text

/** A function hashing row `i` of `data` (NULL included), by the data's Arrow type. */
const valueHasher = (data: Arrow.Data): (i: number) => number => {
  const type = data.type
  // apache-arrow slices the value and offset buffers with the Data, so row i is at index i (data.offset only
  // matters for the validity bitmap, which getValid handles).
  const isNull = (i: number) => data.nullCount > 0 && !data.getValid(i)
  const nullable = (f: (i: number) => number) => (i: number) => isNull(i) ? NULL_HASH : f(i)
  if (Arrow.DataType.isInt(type)) {
    const values = data.values as ArrayLike<number | bigint>
    return nullable((i) => hashAscii(String(values[i])))
  }
  if (Arrow.DataType.isDecimal(type)) {
    const words = type.bitWidth / 32
    const values = data.values as Uint32Array
    return nullable((i) => hashAscii(canonicalDecimal(formatDecimal(readDecimalWords(values, i * words, words), type.scale))))
  }
  if (Arrow.DataType.isDate(type)) {
    const values = data.values as Int32Array | BigInt64Array
    const perDay = type.unit === Arrow.DateUnit.DAY ? 1 : 86_400_000
    return nullable((i) => hashAscii(`d${Math.floor(Number(values[i]) / perDay)}`))
  }
  if (Arrow.DataType.isUtf8(type) || Arrow.DataType.isLargeUtf8(type) || Arrow.DataType.isBinary(type)) {
    const offsets = data.valueOffsets as Int32Array | BigInt64Array
    const bytes = data.values as Uint8Array
    return nullable((i) => hashBytes(bytes, Number(offsets[i]), Number(offsets[i + 1])))
  }
  if (Arrow.DataType.isFloat(type)) {
    const values = data.values as Float32Array | Float64Array
    return nullable((i) => hashAscii(String(values[i])))
  }
  const vector = Arrow.makeVector(data)
  return nullable((i) => hashAscii(String(vector.get(i))))
}

const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, "0")

/** Accumulates the checksum of a result batch by batch; batches may come in any order and any sizes. */
export class ChecksumAccumulator {
  private names: Array<string> | undefined
  private sums: Array<[number, number, number]> = []
  private rowSum = 0
  private rowMix = 0
  private rows = 0

  /** Adds every row of `batch`; columns are matched by position and must keep their names. */
  add(batch: Arrow.RecordBatch): void {
    const names = batch.schema.fields.map((f) => f.name)
    if (this.names === undefined) {
      this.names = names
      this.sums = names.map(() => [0, 0, 0])
    } else if (names.join("\u0000") !== this.names.join("\u0000")) {
      throw new Error(`batch columns ${names.join(", ")} differ from ${this.names.join(", ")}`)
    }
    const hashers = batch.schema.fields.map((_, c) => valueHasher(batch.getChildAt(c)!.data[0]!))
    const sums = this.sums
    for (let i = 0; i < batch.numRows; i++) {
      let row = 0
      for (let c = 0; c < hashers.length; c++) {
        const h = hashers[c]!(i)
        const sum = sums[c]!
        sum[0] = (sum[0] + h) >>> 0
        sum[1] = (sum[1] + mix(h)) >>> 0
        if (h === NULL_HASH) sum[2]++
        row = mix(row ^ Math.imul(h, c + 1))
      }
      this.rowSum = (this.rowSum + row) >>> 0
      this.rowMix = (this.rowMix + mix(row)) >>> 0
    }
    this.rows += batch.numRows
  }

  /** The checksum of everything added so far. */
  result(): ResultChecksum {
    return {
      rows: this.rows,
      columns: (this.names ?? []).map((name, c) => {
        const [a, b, nulls] = this.sums[c]!
        return { name, nulls, digest: hex(a) + hex(b) }
      }),
      rowsDigest: hex(this.rowSum) + hex(this.rowMix)
    }
  }
}

/**
 * The differences between two checksums, as readable lines (none when they match). Rows missing or extra change every
 * column's digest, so then the row count alone is reported.
 */
export const compareChecksums = (expected: ResultChecksum, actual: ResultChecksum): Array<string> => {
  if (expected.rows !== actual.rows) return [`row count ${actual.rows}, expected ${expected.rows}`]
  const problems: Array<string> = []
  const byName = new Map(actual.columns.map((c) => [c.name, c]))
  for (const column of expected.columns) {
    const other = byName.get(column.name)
    if (other === undefined) problems.push(`column ${column.name} is missing`)
    else if (other.digest !== column.digest || other.nulls !== column.nulls) {
      problems.push(`column ${column.name} differs (checksum ${other.digest}, expected ${column.digest})`)
    }
  }
  if (problems.length === 0 && expected.rowsDigest !== actual.rowsDigest) {
    problems.push(`row checksum ${actual.rowsDigest}, expected ${expected.rowsDigest}`)
  }
  return problems
}
