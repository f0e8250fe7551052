/**
 * The batch-mode wire page: TTC row bytes ({@link WireRows}, RowCapture.ts) decoded straight into Arrow column
 * builders ({@link WireDecoder}), no JS value per cell; {@link canDecodeWire} says which results it reads.
 *
 * Wire layout of dates (Oracle Call Interface Programmer's Guide, "DATE" external datatype, and node-oracledb
 * impl/datahandlers/buffer.js): century+100, year+100, month, day, hour+1, minute+1, second+1, then a big-endian
 * uint32 of nanoseconds for TIMESTAMP, then time zone hour+20 and minute+60 for TIMESTAMP WITH TIME ZONE (whose
 * date and time are UTC); DbPatches.ts's hook turns them into {@link RawTemporal} seconds and nanoseconds.
 *
 * @since 0.1.0
 */
import type { ColumnBuilder, Page } from "../../src/arrow/index.ts"
import { RawTemporal } from "./DbPatches.ts"
import { isDuplicate, type WireColumn, type WireRows } from "./RowCapture.ts"
import type { CellKind, MappedColumn } from "./ReadTypes.ts"
import { type AnyBuilder, appendTimestamp, appendValue, int64Of, type IntervalDS, type IntervalYM, invalid } from "./RowPage.ts"
import { wireDay } from "./WireDays.ts"

// ---------------------------------------------------------------------------------------------------------------

/** Oracle type numbers of the defines the wire decoder reads (oracledb lib/thin/protocol/constants.js). */
const ORA = {
  VARCHAR: 1,
  NUMBER: 2,
  DATE: 12,
  RAW: 23,
  CHAR: 96,
  BINARY_FLOAT: 100,
  BINARY_DOUBLE: 101,
  TIMESTAMP: 180,
  TIMESTAMP_TZ: 181,
  INTERVAL_YM: 182,
  INTERVAL_DS: 183,
  TIMESTAMP_LTZ: 231,
  BOOLEAN: 252
} as const

/** The wire types each kind may arrive as; a column outside this table keeps oracledb's decoding. */
const WIRE_TYPES: Partial<Record<CellKind, ReadonlyArray<number>>> = {
  "int64": [ORA.NUMBER],
  "float64": [ORA.NUMBER, ORA.BINARY_DOUBLE],
  "float32": [ORA.BINARY_FLOAT],
  "decimal": [ORA.NUMBER],
  "number-string": [ORA.NUMBER],
  "string": [ORA.VARCHAR, ORA.CHAR],
  "binary": [ORA.RAW],
  "bool": [ORA.BOOLEAN],
  "date32": [ORA.DATE, ORA.TIMESTAMP],
  "date-timestamp": [ORA.DATE, ORA.TIMESTAMP],
  "timestamp": [ORA.DATE, ORA.TIMESTAMP],
  "timestamp-tz": [ORA.TIMESTAMP_TZ],
  "timestamp-ltz": [ORA.TIMESTAMP_LTZ],
  "interval-ds-daytime": [ORA.INTERVAL_DS],
  "interval-ds-monthdaynano": [ORA.INTERVAL_DS],
  "interval-ds-duration": [ORA.INTERVAL_DS],
  "interval-ds-string": [ORA.INTERVAL_DS],
  "interval-ym": [ORA.INTERVAL_YM],
  "interval-ym-monthdaynano": [ORA.INTERVAL_YM],
  "interval-ym-string": [ORA.INTERVAL_YM]
}

/** Longest define oracledb reads without a trailing indicator (its `caps.maxStringSize` is at least this). */
const MAX_PLAIN_DEFINE = 4000

/**
 * Whether every column can be decoded from its wire bytes: a kind of {@link WIRE_TYPES} arriving as one of its
 * types, with a define size that makes the server send a plain length-prefixed value.
 *
 * @category decoding
 * @since 0.1.0
 */
export const canDecodeWire = (columns: ReadonlyArray<MappedColumn>, wire: ReadonlyArray<WireColumn>): boolean =>
  columns.length === wire.length &&
  columns.every((c, i) => {
    const w = wire[i]!
    return (WIRE_TYPES[c.kind]?.includes(w.oraTypeNum) ?? false) && w.maxSize > 0 && w.maxSize <= MAX_PLAIN_DEFINE
  })

const K = {
  int64: 0,
  float64: 1,
  float32: 2,
  decimal: 3,
  numberString: 4,
  string: 5,
  nstring: 6,
  binary: 7,
  bool: 8,
  date32: 9,
  timestamp: 10,
  timestampLtz: 11,
  doubleNumber: 12,
  other: 13
} as const

const kindCode = (column: MappedColumn, wire: WireColumn): number => {
  switch (column.kind) {
    case "int64":
      return K.int64
    case "float64":
      return wire.oraTypeNum === ORA.BINARY_DOUBLE ? K.float64 : K.doubleNumber
    case "float32":
      return K.float32
    case "decimal":
      return K.decimal
    case "number-string":
      return K.numberString
    case "string":
      return wire.csfrm === 2 ? K.nstring : K.string
    case "binary":
      return K.binary
    case "bool":
      return K.bool
    case "date32":
      return K.date32
    case "date-timestamp":
    case "timestamp":
    case "timestamp-tz":
      return K.timestamp
    case "timestamp-ltz":
      return K.timestampLtz
    default:
      return K.other
  }
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k)
const scratch = new DataView(new ArrayBuffer(8))

/**
 * NUMBER bytes `b[p, p + len)`: sign, base-100 exponent of the first digit, and the digit bytes `[start, end)`
 * (each digit is byte − 1, or 101 − byte when negative; a negative number may end in a 102 terminator). Oracle
 * Call Interface Programmer's Guide, "NUMBER" external data type; node-oracledb buffer.js `parseOracleNumber`.
 */
class NumberParts {
  negative = false
  exponent = 0
  start = 0
  end = 0

  read(b: Uint8Array, p: number, len: number): void {
    const e0 = b[p]!
    this.negative = (e0 & 0x80) === 0
    this.exponent = (this.negative ? e0 ^ 0xff : e0) - 193
    let end = p + len
    if (this.negative && len > 1 && b[end - 1] === 102) end--
    this.start = p + 1
    this.end = end
  }

  digit(b: Uint8Array, i: number): number {
    return this.negative ? 101 - b[i]! : b[i]! - 1
  }

  /** Decimal exponent of the last digit pair: value = ±mantissa × 10^this. */
  get decimalExponent(): number {
    return 2 * (this.exponent - (this.end - this.start) + 1)
  }

  /** A mantissa of at most 7 base-100 digits (below 2^53) as a number; otherwise -1. */
  smallMantissa(b: Uint8Array): number {
    if (this.end - this.start > 7) return -1
    let m = 0
    for (let i = this.start; i < this.end; i++) m = m * 100 + this.digit(b, i)
    return m
  }

  bigMantissa(b: Uint8Array): bigint {
    let m = 0n
    for (let i = this.start; i < this.end; i++) m = m * 100n + BigInt(this.digit(b, i))
    return m
  }

  /** ±mantissa × 10^(decimalExponent + scale) when that is an integer, else undefined. */
  unscaled(b: Uint8Array, scale: number): number | bigint | undefined {
    if (this.end === this.start) return this.negative ? undefined : 0
    const shift = this.decimalExponent + scale
    const digits = 2 * (this.end - this.start)
    const m = this.smallMantissa(b)
    if (m >= 0 && shift >= 0 && digits + shift <= 15) return (this.negative ? -m : m) * POW10[shift]!
    if (m >= 0 && shift < 0) {
      const divisor = POW10[-shift]
      if (divisor === undefined || m % divisor !== 0) return undefined
      const v = m / divisor
      return this.negative ? -v : v
    }
    let big = this.bigMantissa(b)
    if (shift >= 0) big *= 10n ** BigInt(shift)
    else {
      const divisor = 10n ** BigInt(-shift)
      if (big % divisor !== 0n) return undefined
      big /= divisor
    }
    return this.negative ? -big : big
  }

  /** Plain decimal text (`-12.5`, `0.001`, `1000`). */
  text(b: Uint8Array): string {
    if (this.end === this.start) return this.negative ? "-1e126" : "0"
    let digits = ""
    for (let i = this.start; i < this.end; i++) {
      const d = this.digit(b, i)
      digits += d < 10 ? `0${d}` : String(d)
    }
    // digits holds 2 decimal digits per base-100 digit; the point sits after 2 × (exponent + 1) of them.
    let point = 2 * (this.exponent + 1)
    let lead = 0
    while (lead < digits.length - 1 && digits[lead] === "0") lead++
    digits = digits.slice(lead)
    point -= lead
    digits = digits.replace(/0+$/, "")
    let body: string
    if (digits === "") body = "0"
    else if (point <= 0) body = `0.${"0".repeat(-point)}${digits}`
    else if (point >= digits.length) body = digits + "0".repeat(point - digits.length)
    else body = `${digits.slice(0, point)}.${digits.slice(point)}`
    return this.negative ? `-${body}` : body
  }

  /** The nearest double, as parseFloat of the exact text gives it. */
  double(b: Uint8Array): number {
    if (this.end === this.start) return this.negative ? -1e126 : 0
    const m = this.smallMantissa(b)
    const e = this.decimalExponent
    // A mantissa below 2^53 and a power of ten up to 10^22 are exact doubles, so one IEEE operation rounds the
    // exact value correctly (Clinger's fast path).
    if (m >= 0 && e >= -22 && e <= 22) {
      const v = e >= 0 ? m * POW10[e]! : m / POW10[-e]!
      return this.negative ? -v : v
    }
    return Number(this.text(b))
  }
}

/** Big-endian unsigned 32-bit integer at `p`. */
const u32 = (b: Uint8Array, p: number): number => b[p]! * 16777216 + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!)

/** Seconds since the epoch of the wall clock in DATE / TIMESTAMP bytes at `p` (read as UTC). */
const wireSeconds = (b: Uint8Array, p: number): number =>
  wireDay(b, p) * 86_400 + (b[p + 4]! - 1) * 3600 + (b[p + 5]! - 1) * 60 + (b[p + 6]! - 1)

/** BINARY_DOUBLE bytes: sign bit set for positive values, all bits inverted for negative ones. */
const wireDouble = (b: Uint8Array, p: number): number => {
  const hi = u32(b, p)
  const lo = u32(b, p + 4)
  if (hi >= 0x80000000) {
    scratch.setUint32(0, hi - 0x80000000)
    scratch.setUint32(4, lo)
  } else {
    scratch.setUint32(0, ~hi >>> 0)
    scratch.setUint32(4, ~lo >>> 0)
  }
  return scratch.getFloat64(0)
}

const wireFloat = (b: Uint8Array, p: number): number => {
  const v = u32(b, p)
  scratch.setUint32(0, v >= 0x80000000 ? v - 0x80000000 : ~v >>> 0)
  return scratch.getFloat32(0)
}

/** A chunked value (length byte 254) at `p`: its bytes gathered, and the offset after it. */
const chunkedValue = (b: Uint8Array, p: number): { bytes: Uint8Array; next: number } => {
  const parts: Array<Uint8Array> = []
  let o = p + 1
  for (;;) {
    const width = b[o]!
    if (width === 0) {
      o += 1
      break
    }
    let length = 0
    for (let k = 1; k <= width; k++) length = length * 256 + b[o + k]!
    parts.push(b.subarray(o + 1 + width, o + 1 + width + length))
    o += 1 + width + length
  }
  return { bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts), next: o }
}

/** Where a wire value ends and how many value bytes it holds. */
interface Extent {
  bytes: number
  next: number
}

/** Sets `extent` to the value bytes and end of the length-prefixed (or chunked) value at `o`, without copying it. */
const valueExtent = (b: Uint8Array, o: number, extent: Extent): void => {
  const len = b[o]!
  if (len === 0 || len === 255) {
    extent.bytes = 0
    extent.next = o + 1
    return
  }
  if (len !== 254) {
    extent.bytes = len
    extent.next = o + 1 + len
    return
  }
  let p = o + 1
  let bytes = 0
  for (;;) {
    const width = b[p]!
    if (width === 0) break
    let length = 0
    for (let k = 1; k <= width; k++) length = length * 256 + b[p + k]!
    bytes += length
    p += 1 + width + length
  }
  extent.bytes = bytes
  extent.next = p + 1
}

/**
 * Decodes {@link WireRows} of one result set into builders. It keeps, per column, where the last value was, since
 * a later row (also of a later fetch) may repeat it as a duplicate; `lastValues` are oracledb's own last values
 * for rows before the capture started.
 *
 * @category decoding
 * @since 0.1.0
 */
export class WireDecoder {
  private readonly kinds: Int8Array
  private readonly lastBufs: Array<Uint8Array | undefined>
  private readonly lastPos: Array<number>
  private readonly number = new NumberParts()
  private readonly extent: Extent = { bytes: 0, next: 0 }

  constructor(
    private readonly columns: ReadonlyArray<MappedColumn>,
    wire: ReadonlyArray<WireColumn>,
    private readonly dbTzOffsetMinutes: number,
    private readonly lastValues: ReadonlyArray<unknown>
  ) {
    this.kinds = Int8Array.from(columns.map((c, i) => kindCode(c, wire[i]!)))
    this.lastBufs = columns.map(() => undefined)
    this.lastPos = columns.map(() => 0)
  }

  /** A page over `rows`; `firstRow` is the result-wide index of its first row (for messages). */
  page(rows: WireRows, firstRow: number): Page {
    let position = 0
    return {
      appendRows: (builders, maxRows) => {
        const count = Math.min(maxRows, rows.length - position)
        const end = position + count
        this.decode(builders, rows, position, end, firstRow)
        position = end
        return count
      },
      appendRowsWithin: (builders, maxRows, budget) => {
        const end = position + Math.min(maxRows, rows.length - position)
        const start = position
        while (position < end) {
          if (!budget.admits(this.rowBytes(rows, position, builders.length))) break
          this.decode(builders, rows, position, position + 1, firstRow)
          position++
          if (budget.full()) break
        }
        return position - start
      }
    }
  }

  /** Appends rows `[from, to)` of `rows` to the builders; `firstRow` is the result-wide index of `rows[0]`. */
  private decode(builders: ReadonlyArray<ColumnBuilder>, rows: WireRows, from: number, to: number, firstRow: number): void {
    for (let r = from; r < to; r++) {
      const vector = rows.vectors.size === 0 ? undefined : rows.vectors.get(r)
      const b = rows.bufs[r]!
      let o = rows.starts[r]!
      for (let c = 0; c < builders.length; c++) {
        const builder = builders[c] as AnyBuilder
        if (isDuplicate(vector, c)) {
          const lastBuf = this.lastBufs[c]
          if (lastBuf === undefined) {
            const value = this.lastValues[c]
            if (value === null || value === undefined) builder.appendNull()
            else appendValue(builder, this.columns[c]!, this.columns[c]!.kind, value, firstRow + r + 1)
          } else this.cell(builder, c, lastBuf, this.lastPos[c]!, firstRow + r + 1)
          continue
        }
        this.lastBufs[c] = b
        this.lastPos[c] = o
        o = this.cell(builder, c, b, o, firstRow + r + 1)
      }
    }
  }

  /**
   * The value bytes of row `r` on the wire (a repeated value counts where it was first sent), about its Arrow bytes
   * for a byte cap's decision to cut before it: text and binary are copied as they are, NCHAR text and numbers differ
   * by less than the row.
   */
  private rowBytes(rows: WireRows, r: number, width: number): number {
    const vector = rows.vectors.size === 0 ? undefined : rows.vectors.get(r)
    const b = rows.bufs[r]!
    let o = rows.starts[r]!
    let bytes = 0
    for (let c = 0; c < width; c++) {
      if (isDuplicate(vector, c)) {
        const lastBuf = this.lastBufs[c]
        if (lastBuf !== undefined) {
          valueExtent(lastBuf, this.lastPos[c]!, this.extent)
          bytes += this.extent.bytes
        }
        continue
      }
      valueExtent(b, o, this.extent)
      bytes += this.extent.bytes
      o = this.extent.next
    }
    return bytes
  }

  /** Appends the value at `o` of column `c` and returns the offset after it. */
  private cell(builder: AnyBuilder, c: number, b: Uint8Array, o: number, row: number): number {
    let len = b[o]!
    if (len === 0 || len === 255) {
      builder.appendNull()
      return o + 1
    }
    let p = o + 1
    let next = p + len
    if (len === 254) {
      const chunked = chunkedValue(b, o)
      b = chunked.bytes
      p = 0
      len = b.length
      next = chunked.next
    }
    switch (this.kinds[c]) {
      case K.int64: {
        const n = this.number
        n.read(b, p, len)
        const v = n.unscaled(b, 0)
        if (v === undefined) {
          throw invalid(this.columns[c]!, `row ${row}: NUMBER value ${n.text(b)} is not an integer, so it does not fit int64`)
        }
        if (typeof v === "number") builder.appendNumber(v)
        else builder.appendBigInt(int64Of(v, this.columns[c]!, row))
        break
      }
      case K.decimal: {
        const n = this.number
        n.read(b, p, len)
        const column = this.columns[c]!
        const v = n.unscaled(b, column.scale)
        if (v === undefined) builder.appendString(n.text(b))
        else if (typeof v === "number") builder.appendUnscaledNumber(v)
        else builder.appendBigInt(v)
        break
      }
      case K.doubleNumber:
        this.number.read(b, p, len)
        builder.appendNumber(this.number.double(b))
        break
      case K.numberString:
        this.number.read(b, p, len)
        builder.appendString(this.number.text(b))
        break
      case K.float64:
        builder.appendNumber(wireDouble(b, p))
        break
      case K.float32:
        builder.appendNumber(wireFloat(b, p))
        break
      case K.string:
      case K.binary:
        builder.appendBytesRange(b, p, p + len)
        break
      case K.nstring:
        builder.appendString(Buffer.from(b.subarray(p, p + len)).swap16().toString("utf16le"))
        break
      case K.bool:
        builder.appendBoolean(b[p] === 1)
        break
      case K.date32:
        builder.appendNumber(wireDay(b, p))
        break
      case K.timestamp:
        appendTimestamp(builder, this.columns[c]!, wireSeconds(b, p), len >= 11 ? u32(b, p + 7) : 0, row)
        break
      case K.timestampLtz:
        appendTimestamp(builder, this.columns[c]!, wireSeconds(b, p) - this.dbTzOffsetMinutes * 60, len >= 11 ? u32(b, p + 7) : 0, row)
        break
      default: {
        const column = this.columns[c]!
        appendValue(builder, column, column.kind, intervalOf(column.kind, b, p), row)
      }
    }
    return next
  }
}

const DURATION_MID = 0x80000000
const DURATION_OFFSET = 60

/** INTERVAL bytes as oracledb's IntervalDS / IntervalYM fields (buffer.js `parseOracleIntervalDS` / `YM`). */
const intervalOf = (kind: CellKind, b: Uint8Array, p: number): IntervalDS | IntervalYM =>
  kind.startsWith("interval-ym")
    ? { years: u32(b, p) - DURATION_MID, months: b[p + 4]! - DURATION_OFFSET }
    : {
      days: u32(b, p) - DURATION_MID,
      hours: b[p + 4]! - DURATION_OFFSET,
      minutes: b[p + 5]! - DURATION_OFFSET,
      seconds: b[p + 6]! - DURATION_OFFSET,
      fseconds: u32(b, p + 7) - DURATION_MID
    }
