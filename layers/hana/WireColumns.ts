/**
 * One decoder per HANA cell kind, chosen once per result set for each column (WirePage.ts): it appends a whole
 * column of a chunk of rows, whose cell offsets are already known, to that column's builder. Each loop sees one cell
 * layout and one builder class, so there is no per-cell switch and V8 can inline the builder's append.
 * Cell layouts: WirePage.ts.
 *
 * @since 0.3.0
 */
import type { ColumnBuilder } from "../../src/arrow/index.ts"
import { ArrowAssemblyError } from "../../src/arrow/index.ts"
import { epochDayOf } from "../common/ArrowCells.ts"
import { TWO_32 } from "../common/Int64Words.ts"
import { decodeCesu8 } from "./DbCalls.ts"
import type { LobCell } from "./DbTypes.ts"
import type { CellKind, MappedColumn } from "./ReadTypes.ts"

/**
 * Unix epoch in LONGDATE microseconds: 719164 days after day 1 (0001-01-01 in HANA's calendar, Julian before
 * 1582-10-15, hence 2 days more than the proleptic Gregorian 719162; hdb lib/util/calendar.js).
 */
const EPOCH_MICROS = 62135769600000000
const EPOCH_MICROS_BIG = 62135769600000000n
/** Unix epoch in SECONDDATE seconds (719164 days). */
const EPOCH_SECONDS = 62135769600
/** Unix epoch as a DAYDATE. */
const EPOCH_DAYDATE = 719165
const LONGDATE_NULL_HI = Math.floor(3155380704000000001 / TWO_32)
const LONGDATE_NULL = 3155380704000000001n
const SECONDDATE_NULL = 315538070401
const SAFE = 2 ** 52
/** HANA day number of 1582-10-15, the first Gregorian day; earlier day numbers count Julian calendar days. */
const GREGORIAN_START = 577738
/** The same day as days since 1970-01-01. */
const GREGORIAN_START_EPOCH = GREGORIAN_START - 719165

/**
 * Days since 1970-01-01 (Arrow's proleptic Gregorian date32) of the calendar date a HANA day number stands for.
 * HANA counts day 1 = 0001-01-01 and labels days before 1582-10-15 in the Julian calendar (hdb
 * lib/util/calendar.js), so such dates are converted label for label.
 *
 * @category decoding
 * @since 0.1.0
 */
export const epochDayOfHanaDay = (dayNumber: number): number => {
  if (dayNumber >= GREGORIAN_START) return dayNumber - 719165
  // Julian calendar date of a Julian Day Number (JDN of Julian 0001-01-01 is 1721424).
  const c = dayNumber + 1721423 + 32082
  const d = Math.floor((4 * c + 3) / 1461)
  const e = c - Math.floor((1461 * d) / 4)
  const m = Math.floor((5 * e + 2) / 153)
  const day = e - Math.floor((153 * m + 2) / 5) + 1
  const month = m + 3 - 12 * Math.floor(m / 10)
  const year = d - 4800 + Math.floor(m / 10)
  return epochDayOf(year, month, day)
}

/** Microseconds since the epoch of a LONGDATE/SECONDDATE's linear microseconds, relabelling pre-1582 days. */
const relabelMicros = (linear: bigint): bigint => {
  const DAY = 86_400_000_000n
  let days = linear / DAY
  let rest = linear - days * DAY
  if (rest < 0n) {
    rest += DAY
    days -= 1n
  }
  const epochDays = Number(days)
  if (epochDays >= GREGORIAN_START_EPOCH) return linear
  return BigInt(epochDayOfHanaDay(epochDays + 719165)) * DAY + rest
}

/** Any builder; each decoder knows its column's concrete class from its kind. */
type AnyBuilder = ColumnBuilder & {
  appendNumber(v: number): void
  appendBigInt(v: bigint): void
  appendBoolean(v: boolean): void
  appendString(v: string): void
  appendBytes(v: Uint8Array): void
  appendBytesRange(source: Uint8Array, start: number, end: number): void
  appendUnscaledNumber(v: number): void
}

/**
 * Reads a LOB descriptor at `o`: the cell (null for a NULL value) and whether its content is all in the descriptor.
 *
 * @category decoding
 * @since 0.3.0
 */
export const lobAt = (buf: Buffer, o: number, defaultType: number): { cell: LobCell | null; complete: boolean } => {
  const type = buf[o]! || defaultType
  const options = buf[o + 1]!
  if (options & 1) return { cell: null, complete: true }
  const charLength = buf.readUInt32LE(o + 4) + buf.readInt32LE(o + 8) * TWO_32
  const byteLength = buf.readUInt32LE(o + 12) + buf.readInt32LE(o + 16) * TWO_32
  const locatorId = Buffer.from(buf.subarray(o + 20, o + 28))
  const chunkLength = buf.readInt32LE(o + 28)
  const chunk = buf.subarray(o + 32, o + 32 + Math.max(0, chunkLength))
  return { cell: { type, options, charLength, byteLength, locatorId, chunk, defaultType }, complete: (options & 4) !== 0 }
}

/** Byte size of a LOB descriptor at `o`. */
export const lobSize = (buf: Buffer, o: number): number => (buf[o + 1]! & 1 ? 2 : 32 + Math.max(0, buf.readInt32LE(o + 28)))

/** The default LOB source type of a LOB column (1 BLOB, 2 CLOB, 3 NCLOB). */
export const defaultLobType = (column: MappedColumn): number => {
  const name = column.field.metadata.get("hana.type-name")
  return name === "BLOB" || name === "LOCATOR" ? 1 : name === "CLOB" ? 2 : 3
}

/** Offset of the data of a length-indicated cell at `o` (its end is the next cell's start); -1 for NULL. */
const dataStart = (buf: Buffer, o: number): number => {
  const b = buf[o]!
  return b <= 245 ? o + 1 : b === 255 ? -1 : b === 246 ? o + 3 : o + 5
}

/**
 * How a cell of `kind` is sized: n > 0 bytes always; -n: a NULL indicator byte (0 = NULL, one byte in all), else n
 * bytes after it; {@link VARIABLE}: a length indicator; {@link LOB}: a LOB descriptor.
 *
 * @category decoding
 * @since 0.3.0
 */
export const cellStep = (kind: CellKind): number => STEPS[kind]

/** Step of length-indicated cells. @category decoding @since 0.3.0 */
export const VARIABLE = 0
/** Step of LOB descriptors. @category decoding @since 0.3.0 */
export const LOB = -100

const STEPS: Record<CellKind, number> = {
  tinyint: -1,
  smallint: -2,
  int: -4,
  bigint: -8,
  fixed8: -8,
  fixed12: -12,
  fixed16: -16,
  real: 4,
  date: 4,
  time: 4,
  daydate: 4,
  secondtime: 4,
  double: 8,
  timestamp: 8,
  longdate: 8,
  seconddate: 8,
  decimal: 16,
  boolean: 1,
  string: VARIABLE,
  alphanum: VARIABLE,
  binary: VARIABLE,
  blob: LOB,
  clob: LOB
}

/**
 * The cells of one chunk of rows: `starts[r * width + c]` is where row r's cell c begins, and the entry after the
 * last cell is where the chunk ends; `lobRefs` gives each LOB cell its index in `lobs` (-1: complete in the row).
 *
 * @category models
 * @since 0.3.0
 */
export interface Chunk {
  readonly buf: Buffer
  readonly starts: Int32Array
  readonly width: number
  readonly lobRefs: Int32Array
  readonly lobs: ReadonlyArray<Buffer>
}

/**
 * Appends column `c` of `count` rows of a chunk to builder `b`.
 *
 * @category models
 * @since 0.3.0
 */
export type ColumnDecoder = (b: AnyBuilder, chunk: Chunk, c: number, count: number) => void

/** Whether CESU-8 bytes contain an encoded surrogate (0xED 0xA0..0xBF), i.e. differ from UTF-8. */
const hasSurrogate = (buf: Buffer, start: number, end: number): boolean => {
  for (let i = start; i < end - 1; i++) {
    if (buf[i] === 0xed && buf[i + 1]! >= 0xa0) return true
  }
  return false
}

/**
 * The two's complement integer of `words` little-endian 32-bit words at `o` as a number, when it is a safe integer
 * (every word above the lowest two a sign extension); undefined when it needs a bigint.
 */
const safeWords = (buf: Buffer, o: number, words: number): number | undefined => {
  const hi = buf.readInt32LE(o + 4)
  if (hi <= -2097152 || hi >= 2097152) return undefined
  const extension = hi < 0 ? -1 : 0
  for (let k = 2; k < words; k++) if (buf.readInt32LE(o + 4 * k) !== extension) return undefined
  return hi * TWO_32 + buf.readUInt32LE(o)
}

/** Decimal128 (IEEE 754-2008 BID as HANA sends it) to its unscaled value at `scale`. */
const decimal128Unscaled = (buf: Buffer, o: number, scale: number, column: string): bigint | null => {
  const b15 = buf[o + 15]!
  if ((b15 & 0x70) === 0x70) return null
  const b14 = buf[o + 14]!
  const exponent = (((b15 & 0x7f) << 7) | (b14 >> 1)) - 6176
  let mantissa = BigInt(b14 & 1)
  for (let k = 13; k >= 0; k--) mantissa = (mantissa << 8n) | BigInt(buf[o + k]!)
  if (b15 & 0x80) mantissa = -mantissa
  const shift = exponent + scale
  if (shift >= 0) return mantissa * 10n ** BigInt(shift)
  const divisor = 10n ** BigInt(-shift)
  if (mantissa % divisor !== 0n) {
    throw new ArrowAssemblyError(
      `a DECIMAL value has more than ${scale} fractional digits; cast the column to DECIMAL(p,s) in SQL`,
      column
    )
  }
  return mantissa / divisor
}

const tinyint: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else b.appendNumber(buf[o + 1]!)
  }
}

const smallint: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else b.appendNumber(buf.readInt16LE(o + 1))
  }
}

const int: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else b.appendNumber(buf.readInt32LE(o + 1))
  }
}

const bigint: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else {
      const hi = buf.readInt32LE(o + 5)
      if (hi >= -2097152 && hi < 2097152) b.appendNumber(hi * TWO_32 + buf.readUInt32LE(o + 1))
      else b.appendBigInt(buf.readBigInt64LE(o + 1))
    }
  }
}

const real: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf.readInt32LE(o) === -1) b.appendNull()
    else b.appendNumber(buf.readFloatLE(o))
  }
}

const double: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf.readInt32LE(o) === -1 && buf.readInt32LE(o + 4) === -1) b.appendNull()
    else b.appendNumber(buf.readDoubleLE(o))
  }
}

const decimal = (scale: number, name: string): ColumnDecoder => (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const v = decimal128Unscaled(buf, starts[i]!, scale, name)
    if (v === null) b.appendNull()
    else b.appendBigInt(v)
  }
}

const fixed8: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else {
      // a safe integer needs no bigint (most decimal values)
      const v = safeWords(buf, o + 1, 2)
      if (v !== undefined) b.appendUnscaledNumber(v)
      else b.appendBigInt(buf.readBigInt64LE(o + 1))
    }
  }
}

const fixed12: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else {
      const v = safeWords(buf, o + 1, 3)
      if (v !== undefined) b.appendUnscaledNumber(v)
      else b.appendBigInt((BigInt(buf.readInt32LE(o + 9)) << 64n) | buf.readBigUInt64LE(o + 1))
    }
  }
}

const fixed16: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    if (buf[o] === 0) b.appendNull()
    else {
      const v = safeWords(buf, o + 1, 4)
      if (v !== undefined) b.appendUnscaledNumber(v)
      else b.appendBigInt((buf.readBigInt64LE(o + 9) << 64n) | buf.readBigUInt64LE(o + 1))
    }
  }
}

const boolean: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const v = buf[starts[i]!]!
    if (v === 1) b.appendNull()
    else b.appendBoolean(v === 2)
  }
}

const string: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  // The next 0xED byte at or after the current cell (Infinity: none): only a cell holding one can hold a CESU-8
  // surrogate; cells without one are UTF-8 as they are, copied without looking at their bytes.
  let ed = -1
  for (let r = 0, i = c; r < count; r++, i += width) {
    const start = dataStart(buf, starts[i]!)
    if (start < 0) {
      b.appendNull()
      continue
    }
    const end = starts[i + 1]!
    if (ed < start) {
      const at = buf.indexOf(0xed, start)
      ed = at < 0 ? Infinity : at
    }
    if (ed < end && hasSurrogate(buf, ed, end)) b.appendString(decodeCesu8(buf.subarray(start, end)))
    else b.appendBytesRange(buf, start, end)
  }
}

const binary: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const start = dataStart(buf, starts[i]!)
    if (start < 0) b.appendNull()
    else b.appendBytesRange(buf, start, starts[i + 1]!)
  }
}

const alphanum: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const start = dataStart(buf, starts[i]!)
    if (start < 0) {
      b.appendNull()
      continue
    }
    const flags = buf[start]!
    let text = decodeCesu8(buf.subarray(start + 1, starts[i + 1]!))
    const declared = flags & 0x7f
    if (flags & 0x80 && declared > text.length) text = "0".repeat(declared - text.length) + text
    b.appendString(text)
  }
}

const daydate: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const v = buf.readUInt32LE(starts[i]!)
    if (v === 3652062 || v === 0) b.appendNull()
    else b.appendNumber(v >= GREGORIAN_START ? v - EPOCH_DAYDATE : epochDayOfHanaDay(v))
  }
}

const secondtime: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const v = buf.readInt32LE(starts[i]!)
    if (v === 86402 || v === 0) b.appendNull()
    else b.appendNumber((v - 1) * 1e6)
  }
}

const seconddate: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    const v = buf.readUInt32LE(o) + buf.readInt32LE(o + 4) * TWO_32
    if (v === SECONDDATE_NULL || v === 0) b.appendNull()
    else {
      const seconds = v - 1 - EPOCH_SECONDS
      if (Math.abs(seconds) < 9e9) b.appendNumber(seconds * 1e6)
      else b.appendBigInt(relabelMicros(BigInt(seconds) * 1_000_000n))
    }
  }
}

const longdate: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    const lo = buf.readUInt32LE(o)
    const hi = buf.readInt32LE(o + 4)
    if ((hi === 0 && lo === 0) || (hi === LONGDATE_NULL_HI && buf.readBigInt64LE(o) === LONGDATE_NULL)) {
      b.appendNull()
      continue
    }
    // micros = (ticks - 1) / 10 - EPOCH_MICROS, exactly, in doubles where the result is small enough.
    let tlo = lo - 1
    let thi = hi
    if (tlo < 0) {
      tlo += TWO_32
      thi -= 1
    }
    const hq = Math.floor(thi / 10)
    const lq = Math.floor(((thi - hq * 10) * TWO_32 + tlo) / 10)
    const head = hq * TWO_32 - EPOCH_MICROS
    if (Math.abs(head) < SAFE) b.appendNumber(head + lq)
    else b.appendBigInt(relabelMicros((buf.readBigInt64LE(o) - 1n) / 10n - EPOCH_MICROS_BIG))
  }
}

const date: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    const high = buf[o + 1]!
    if (!(high & 0x80)) b.appendNull()
    else b.appendNumber(epochDayOf(buf[o]! | ((high & 0x3f) << 8), buf[o + 2]! + 1, buf[o + 3]!))
  }
}

const time: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    const hour = buf[o]!
    if (!(hour & 0x80)) b.appendNull()
    else b.appendNumber((((hour & 0x7f) * 60 + buf[o + 1]!) * 60_000 + buf.readUInt16LE(o + 2)) * 1000)
  }
}

const timestamp: ColumnDecoder = (b, { buf, starts, width }, c, count) => {
  for (let r = 0, i = c; r < count; r++, i += width) {
    const o = starts[i]!
    const high = buf[o + 1]!
    const hour = buf[o + 4]!
    if (!(high & 0x80) && !(hour & 0x80)) {
      b.appendNull()
      continue
    }
    const days = high & 0x80
      ? epochDayOf(buf[o]! | ((high & 0x3f) << 8), buf[o + 2]! + 1, buf[o + 3]!)
      : epochDayOf(1, 1, 1)
    const ms = hour & 0x80 ? ((hour & 0x7f) * 60 + buf[o + 5]!) * 60_000 + buf.readUInt16LE(o + 6) : 0
    const micros = days * 86_400_000_000 + ms * 1000
    if (Math.abs(micros) < SAFE) b.appendNumber(micros)
    else b.appendBigInt(BigInt(days) * 86_400_000_000n + BigInt(ms) * 1000n)
  }
}

const lob = (text: boolean, defaultType: number, name: string): ColumnDecoder => (b, chunk, c, count) => {
  const { buf, lobRefs, lobs, starts, width } = chunk
  for (let r = 0, i = c; r < count; r++, i += width) {
    const { cell, complete } = lobAt(buf, starts[i]!, defaultType)
    if (cell === null) {
      b.appendNull()
      continue
    }
    const content = complete ? cell.chunk : lobs[lobRefs[i]!]
    if (content === undefined) throw new ArrowAssemblyError("LOB content missing", name)
    if (text) b.appendString(decodeCesu8(content))
    else b.appendBytes(content)
  }
}

/**
 * The decoder of a column, chosen by its cell kind.
 *
 * @category decoding
 * @since 0.3.0
 */
export const columnDecoder = (column: MappedColumn): ColumnDecoder => {
  const name = column.field.name
  switch (column.kind) {
    case "tinyint":
      return tinyint
    case "smallint":
      return smallint
    case "int":
      return int
    case "bigint":
      return bigint
    case "real":
      return real
    case "double":
      return double
    case "decimal":
      return decimal(column.scale, name)
    case "fixed8":
      return fixed8
    case "fixed12":
      return fixed12
    case "fixed16":
      return fixed16
    case "boolean":
      return boolean
    case "string":
      return string
    case "alphanum":
      return alphanum
    case "binary":
      return binary
    case "date":
      return date
    case "daydate":
      return daydate
    case "time":
      return time
    case "secondtime":
      return secondtime
    case "timestamp":
      return timestamp
    case "longdate":
      return longdate
    case "seconddate":
      return seconddate
    case "blob":
      return lob(false, defaultLobType(column), name)
    case "clob":
      return lob(true, defaultLobType(column), name)
  }
}
