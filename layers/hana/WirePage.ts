/**
 * Decodes HANA result rows straight from the RESULT_SET part bytes into Arrow column builders: no JS row objects,
 * no intermediate strings for numbers, dates or timestamps. Cell layouts (no per-cell type byte; hdb
 * lib/protocol/Reader.js):
 * - TINYINT/SMALLINT/INT/BIGINT: [indicator 0 = NULL][value LE]; REAL/DOUBLE: IEEE LE, all 0xFF = NULL
 * - FIXED8/12/16: [indicator][8/12/16-byte two's complement unscaled LE]; DECIMAL: 16-byte decimal128
 * - character/binary: length indicator (≤245 one byte, 246 + i16, 247 + i32, 255 NULL) + bytes (CESU-8 text)
 * - BOOLEAN: 0 false, 1 NULL, 2 true
 * - DAYDATE u32 (NULL 3652062/0), SECONDTIME i32 (NULL 86402/0), SECONDDATE i64 (NULL 315538070401/0),
 *   LONGDATE i64 100 ns ticks since 0001-01-01 + 1 (NULL 3155380704000000001/0); DATE/TIME/TIMESTAMP: legacy 4/4/8
 * - LOBs: a descriptor with an inline chunk; content the chunk lacks is read beforehand ({@link scanLobs}).
 *
 * @since 0.1.0
 */
import type { ColumnBuilder, Page } from "../../src/arrow/index.ts"
import { ArrowAssemblyError } from "../../src/arrow/index.ts"
import { epochDayOf } from "../common/ArrowCells.ts"
import { TWO_32 } from "../common/Int64Words.ts"
import { decodeCesu8 } from "./DbCalls.ts"
import type { LobCell } from "./DbTypes.ts"
import type { CellKind, MappedColumn } from "./ReadTypes.ts"

const K: Record<CellKind, number> = {
  tinyint: 0,
  smallint: 1,
  int: 2,
  bigint: 3,
  real: 4,
  double: 5,
  decimal: 6,
  fixed8: 7,
  fixed12: 8,
  fixed16: 9,
  boolean: 10,
  string: 11,
  alphanum: 12,
  binary: 13,
  date: 14,
  daydate: 15,
  time: 16,
  secondtime: 17,
  timestamp: 18,
  longdate: 19,
  seconddate: 20,
  blob: 21,
  clob: 22
}

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

/** Any builder; the decoder knows each column's concrete class from its kind. */
type AnyBuilder = ColumnBuilder & {
  appendNumber(v: number): void
  appendBigInt(v: bigint): void
  appendBoolean(v: boolean): void
  appendString(v: string): void
  appendBytes(v: Uint8Array): void
  appendBytesRange(source: Uint8Array, start: number, end: number): void
  appendUnscaledNumber(v: number): void
}

/** The default LOB source type of a LOB column (1 BLOB, 2 CLOB, 3 NCLOB). */
const defaultLobType = (column: MappedColumn): number => {
  const name = column.field.metadata.get("hana.type-name")
  return name === "BLOB" || name === "LOCATOR" ? 1 : name === "CLOB" ? 2 : 3
}

/** Offset after a length-indicated value starting at `o`, and its data start and length (length -1 = NULL). */
const lengthAt = (buf: Buffer, o: number): { start: number; length: number } => {
  const b = buf[o]!
  if (b <= 245) return { start: o + 1, length: b }
  if (b === 246) return { start: o + 3, length: buf.readInt16LE(o + 1) }
  if (b === 247) return { start: o + 5, length: buf.readInt32LE(o + 1) }
  if (b === 255) return { start: o + 1, length: -1 }
  throw new ArrowAssemblyError(`invalid length indicator ${b} in a HANA result row`)
}

/** Byte size of a non-LOB cell at `o` (used to skip cells while looking for LOB descriptors). */
const skipCell = (kind: number, buf: Buffer, o: number): number => {
  switch (kind) {
    case K.tinyint:
      return buf[o] === 0 ? o + 1 : o + 2
    case K.smallint:
      return buf[o] === 0 ? o + 1 : o + 3
    case K.int:
      return buf[o] === 0 ? o + 1 : o + 5
    case K.bigint:
    case K.fixed8:
      return buf[o] === 0 ? o + 1 : o + 9
    case K.fixed12:
      return buf[o] === 0 ? o + 1 : o + 13
    case K.fixed16:
      return buf[o] === 0 ? o + 1 : o + 17
    case K.real:
    case K.date:
    case K.time:
    case K.daydate:
    case K.secondtime:
      return o + 4
    case K.double:
    case K.timestamp:
    case K.longdate:
    case K.seconddate:
      return o + 8
    case K.decimal:
      return o + 16
    case K.boolean:
      return o + 1
    default: {
      const { start, length } = lengthAt(buf, o)
      return length < 0 ? start : start + length
    }
  }
}

/** Reads a LOB descriptor at `o`: the cell, whether it is complete, and the next offset. */
const lobAt = (buf: Buffer, o: number, defaultType: number): { cell: LobCell | null; complete: boolean; next: number } => {
  const type = buf[o]! || defaultType
  const options = buf[o + 1]!
  if (options & 1) return { cell: null, complete: true, next: o + 2 }
  const charLength = buf.readUInt32LE(o + 4) + buf.readInt32LE(o + 8) * TWO_32
  const byteLength = buf.readUInt32LE(o + 12) + buf.readInt32LE(o + 16) * TWO_32
  const locatorId = Buffer.from(buf.subarray(o + 20, o + 28))
  const chunkLength = buf.readInt32LE(o + 28)
  const chunk = buf.subarray(o + 32, o + 32 + Math.max(0, chunkLength))
  const complete = (options & 4) !== 0
  return {
    cell: { type, options, charLength, byteLength, locatorId, chunk, defaultType },
    complete,
    next: o + 32 + Math.max(0, chunkLength)
  }
}

/**
 * Finds, in row order, the LOB cells of a page whose content is not complete in the row (they need READ_LOB).
 *
 * @category decoding
 * @since 0.1.0
 */
export const scanLobs = (buf: Buffer, rows: number, columns: ReadonlyArray<MappedColumn>): Array<LobCell> => {
  const kinds = columns.map((c) => K[c.kind])
  const defaults = columns.map(defaultLobType)
  const out: Array<LobCell> = []
  let o = 0
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < kinds.length; c++) {
      const kind = kinds[c]!
      if (kind === K.blob || kind === K.clob) {
        const lob = lobAt(buf, o, defaults[c]!)
        if (lob.cell !== null && !lob.complete) out.push(lob.cell)
        o = lob.next
      } else {
        o = skipCell(kind, buf, o)
      }
    }
  }
  return out
}

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

/**
 * A page of `rows` rows in `buf`, decoded into builders on demand. `lobs` holds, in row order, the full content of
 * the LOB cells {@link scanLobs} reported.
 *
 * @category decoding
 * @since 0.1.0
 */
export const hanaPage = (
  buf: Buffer,
  rows: number,
  columns: ReadonlyArray<MappedColumn>,
  lobs: ReadonlyArray<Buffer> = []
): Page => {
  const kinds = Int8Array.from(columns.map((c) => K[c.kind]))
  const scales = columns.map((c) => c.scale)
  const defaults = columns.map(defaultLobType)
  const names = columns.map((c) => c.field.name)
  const width = kinds.length
  // A page without any 0xED byte cannot hold a CESU-8 surrogate: its text bytes are UTF-8 as they are.
  const mayHaveSurrogates = buf.indexOf(0xed) >= 0
  let offset = 0
  let row = 0
  let lobIndex = 0

  const appendText = (b: AnyBuilder, start: number, end: number) => {
    if (mayHaveSurrogates && hasSurrogate(buf, start, end)) b.appendString(decodeCesu8(buf.subarray(start, end)))
    else b.appendBytesRange(buf, start, end)
  }

  return {
    appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number {
      const count = Math.min(maxRows, rows - row)
      const bs = builders as ReadonlyArray<AnyBuilder>
      let o = offset
      for (let r = 0; r < count; r++) {
        for (let c = 0; c < width; c++) {
          const b = bs[c]!
          switch (kinds[c]) {
            case K.tinyint:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                b.appendNumber(buf[o + 1]!)
                o += 2
              }
              break
            case K.smallint:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                b.appendNumber(buf.readInt16LE(o + 1))
                o += 3
              }
              break
            case K.int:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                b.appendNumber(buf.readInt32LE(o + 1))
                o += 5
              }
              break
            case K.bigint:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                const hi = buf.readInt32LE(o + 5)
                if (hi >= -2097152 && hi < 2097152) b.appendNumber(hi * TWO_32 + buf.readUInt32LE(o + 1))
                else b.appendBigInt(buf.readBigInt64LE(o + 1))
                o += 9
              }
              break
            case K.real:
              if (buf.readInt32LE(o) === -1) b.appendNull()
              else b.appendNumber(buf.readFloatLE(o))
              o += 4
              break
            case K.double:
              if (buf.readInt32LE(o) === -1 && buf.readInt32LE(o + 4) === -1) b.appendNull()
              else b.appendNumber(buf.readDoubleLE(o))
              o += 8
              break
            case K.decimal: {
              const v = decimal128Unscaled(buf, o, scales[c]!, names[c]!)
              if (v === null) b.appendNull()
              else b.appendBigInt(v)
              o += 16
              break
            }
            case K.fixed8:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                // a safe integer needs no bigint (most decimal values)
                const v = safeWords(buf, o + 1, 2)
                if (v !== undefined) b.appendUnscaledNumber(v)
                else b.appendBigInt(buf.readBigInt64LE(o + 1))
                o += 9
              }
              break
            case K.fixed12:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                const v = safeWords(buf, o + 1, 3)
                if (v !== undefined) b.appendUnscaledNumber(v)
                else b.appendBigInt((BigInt(buf.readInt32LE(o + 9)) << 64n) | buf.readBigUInt64LE(o + 1))
                o += 13
              }
              break
            case K.fixed16:
              if (buf[o] === 0) {
                b.appendNull()
                o += 1
              } else {
                const v = safeWords(buf, o + 1, 4)
                if (v !== undefined) b.appendUnscaledNumber(v)
                else b.appendBigInt((buf.readBigInt64LE(o + 9) << 64n) | buf.readBigUInt64LE(o + 1))
                o += 17
              }
              break
            case K.boolean: {
              const v = buf[o]!
              if (v === 1) b.appendNull()
              else b.appendBoolean(v === 2)
              o += 1
              break
            }
            case K.string:
            case K.binary: {
              let start: number
              let length: number
              const ind = buf[o]!
              if (ind <= 245) {
                start = o + 1
                length = ind
              } else if (ind === 255) {
                b.appendNull()
                o += 1
                break
              } else {
                const at = lengthAt(buf, o)
                start = at.start
                length = at.length
              }
              if (kinds[c] === K.string) appendText(b, start, start + length)
              else b.appendBytesRange(buf, start, start + length)
              o = start + length
              break
            }
            case K.alphanum: {
              const { start, length } = lengthAt(buf, o)
              if (length < 0) {
                b.appendNull()
                o = start
                break
              }
              const flags = buf[start]!
              let text = decodeCesu8(buf.subarray(start + 1, start + length))
              const declared = flags & 0x7f
              if (flags & 0x80 && declared > text.length) text = "0".repeat(declared - text.length) + text
              b.appendString(text)
              o = start + length
              break
            }
            case K.daydate: {
              const v = buf.readUInt32LE(o)
              if (v === 3652062 || v === 0) b.appendNull()
              else b.appendNumber(v >= GREGORIAN_START ? v - EPOCH_DAYDATE : epochDayOfHanaDay(v))
              o += 4
              break
            }
            case K.secondtime: {
              const v = buf.readInt32LE(o)
              if (v === 86402 || v === 0) b.appendNull()
              else b.appendNumber((v - 1) * 1e6)
              o += 4
              break
            }
            case K.seconddate: {
              const v = buf.readUInt32LE(o) + buf.readInt32LE(o + 4) * TWO_32
              if (v === SECONDDATE_NULL || v === 0) b.appendNull()
              else {
                const seconds = v - 1 - EPOCH_SECONDS
                if (Math.abs(seconds) < 9e9) b.appendNumber(seconds * 1e6)
                else b.appendBigInt(relabelMicros(BigInt(seconds) * 1_000_000n))
              }
              o += 8
              break
            }
            case K.longdate: {
              const lo = buf.readUInt32LE(o)
              const hi = buf.readInt32LE(o + 4)
              if ((hi === 0 && lo === 0) || (hi === LONGDATE_NULL_HI && buf.readBigInt64LE(o) === LONGDATE_NULL)) {
                b.appendNull()
              } else {
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
              o += 8
              break
            }
            case K.date: {
              const high = buf[o + 1]!
              if (!(high & 0x80)) b.appendNull()
              else b.appendNumber(epochDayOf(buf[o]! | ((high & 0x3f) << 8), buf[o + 2]! + 1, buf[o + 3]!))
              o += 4
              break
            }
            case K.time: {
              const hour = buf[o]!
              if (!(hour & 0x80)) b.appendNull()
              else b.appendNumber((((hour & 0x7f) * 60 + buf[o + 1]!) * 60_000 + buf.readUInt16LE(o + 2)) * 1000)
              o += 4
              break
            }
            case K.timestamp: {
              const high = buf[o + 1]!
              const hour = buf[o + 4]!
              if (!(high & 0x80) && !(hour & 0x80)) b.appendNull()
              else {
                const days = high & 0x80
                  ? epochDayOf(buf[o]! | ((high & 0x3f) << 8), buf[o + 2]! + 1, buf[o + 3]!)
                  : epochDayOf(1, 1, 1)
                const ms = hour & 0x80 ? ((hour & 0x7f) * 60 + buf[o + 5]!) * 60_000 + buf.readUInt16LE(o + 6) : 0
                const micros = days * 86_400_000_000 + ms * 1000
                if (Math.abs(micros) < SAFE) b.appendNumber(micros)
                else b.appendBigInt(BigInt(days) * 86_400_000_000n + BigInt(ms) * 1000n)
              }
              o += 8
              break
            }
            case K.blob:
            case K.clob: {
              const lob = lobAt(buf, o, defaults[c]!)
              o = lob.next
              if (lob.cell === null) {
                b.appendNull()
                break
              }
              const content = lob.complete ? lob.cell.chunk : lobs[lobIndex++]
              if (content === undefined) throw new ArrowAssemblyError("LOB content missing", names[c])
              if (kinds[c] === K.blob) b.appendBytes(content)
              else b.appendString(decodeCesu8(content))
              break
            }
            default:
              throw new ArrowAssemblyError(`no decoder for column kind ${kinds[c]}`, names[c])
          }
        }
      }
      offset = o
      row += count
      return count
    }
  }
}
