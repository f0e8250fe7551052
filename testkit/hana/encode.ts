/**
 * Value encodings of the HANA wire format (result cells; metadata parts: metadata.ts), written straight from the engine's
 * column vectors into a {@link ByteWriter}. Layouts: hdb lib/protocol/Reader.js.
 */
import type { ColumnVector } from "../engine/index.ts"
import { TypeCode } from "./types.ts"
import type { WireType } from "./types.ts"
import { ByteWriter } from "./wire.ts"
import { wireWkb } from "./spatial.ts"
import { DATE_OUT_OF_RANGE, HanaError } from "./errors.ts"
import { epochDayOfHanaDay, hanaDayOfEpochDay, hanaDayShift } from "./datetime.ts"
import { civilFromDays } from "../common/civil.ts"
import { fieldsOfTicks } from "./longdate.ts"
import { TWO_32 } from "../../src/arrow/Words.ts"
import { asCesu8, cesu8 } from "./cesu8.ts"
import {
  checkBeforeYear10000,
  dateDays,
  exactMicros,
  floorDays,
  LONGDATE_K,
  relabelledLongdate,
  SAFE_HIGH,
  timestampMicros,
  US_PER_DAY,
  US_PER_DAY_BIG
} from "./timestamp-cells.ts"

/** DAYDATE's NULL value, the day number of 10000-01-01 (hdb lib/protocol/Reader.js readDayDate). */
const DAYDATE_NULL = 3652062

const EPOCH_SECONDS = 719164 * 86400
/** High 32-bit word below which a µs timestamp may lie before 1582-10-15 (-141427 days). */
const BEFORE_GREGORIAN_HIGH = Math.floor((-141427 * US_PER_DAY) / TWO_32) + 1
// LONGDATE_K split in 32-bit limbs to stay exact in doubles.
const K_LO = Number(LONGDATE_K & 0xffffffffn)
const K_HI = Number(LONGDATE_K >> 32n)

/** Copies UTF-8 bytes as CESU-8. */
const writeCesu = (w: ByteWriter, bytes: Uint8Array): void => {
  const data = asCesu8(bytes)
  w.lengthIndicator(data.length)
  w.bytes(data)
}

/** Writes one cell of row `r`. */
export type CellWriter = (w: ByteWriter, r: number) => void

/** Registers a LOB value and returns its 8-byte locator id. */
export type LobRegistry = (value: string | Buffer, kind: "BLOB" | "CLOB" | "NCLOB") => Buffer

/** How many leading bytes of a LOB travel inline with the row. */
export const LOB_INLINE_BYTES = 1024

const int32View = (col: ColumnVector): Int32Array =>
  new Int32Array(col.data.buffer, col.data.byteOffset, col.length * 2)

/** Unscaled decimal of row r as bigint (decimal layouts). */
const unscaledBig = (col: ColumnVector, r: number): bigint => {
  switch (col.info.layout) {
    case "decimal128": {
      const d = col.data as BigInt64Array
      return (d[2 * r + 1]! << 64n) | BigInt.asUintN(64, d[2 * r]!)
    }
    case "decimal64":
    case "int64":
    case "uint64":
      return BigInt((col.data as BigInt64Array)[r]!)
    default:
      return BigInt((col.data as Int32Array)[r]!)
  }
}

/** Writes the 16-byte decimal128 of mantissa·10^exponent (34 significant digits at most). */
export const writeDecimal128 = (w: ByteWriter, mantissa: bigint, exponent: number): void => {
  w.ensure(16)
  const neg = mantissa < 0n
  let m = neg ? -mantissa : mantissa
  while (m >= 1n << 113n) {
    m /= 10n
    exponent += 1
  }
  const buf = w.buf
  const o = w.pos
  for (let i = 0; i < 15; i++) {
    buf[o + i] = Number(m & 0xffn)
    m >>= 8n
  }
  const biased = exponent + 6176
  buf[o + 14] = (buf[o + 14]! & 0x01) | ((biased & 0x7f) << 1)
  buf[o + 15] = (neg ? 0x80 : 0) | ((biased >> 7) & 0x7f)
  w.pos += 16
}

/** {@link writeDecimal128} for a mantissa that is a safe integer (no BigInt arithmetic). */
const writeDecimal128Safe = (w: ByteWriter, mantissa: number, exponent: number): void => {
  w.ensure(16)
  const buf = w.buf
  const o = w.pos
  const neg = mantissa < 0
  let m = neg ? -mantissa : mantissa
  for (let i = 0; i < 14; i++) {
    buf[o + i] = m % 256
    m = Math.floor(m / 256)
  }
  const biased = exponent + 6176
  buf[o + 14] = (biased & 0x7f) << 1
  buf[o + 15] = (neg ? 0x80 : 0) | ((biased >> 7) & 0x7f)
  w.pos += 16
}

/** Locator of a LOB sent whole inline: hdb never reads it, so nothing is registered. */
const NO_LOCATOR = Buffer.alloc(8)

const NULL_DECIMAL = Buffer.from("00000000000000000000000000000070", "hex")

const doubleToDecimal = (v: number): [bigint, number] => {
  const [mant, expPart] = v.toExponential().split("e") as [string, string]
  const digits = mant.replace(".", "").replace("-", "")
  const frac = mant.includes(".") ? mant.split(".")[1]!.length : 0
  return [BigInt((v < 0 ? "-" : "") + digits), Number(expPart) - frac]
}

const writeTimeParts = (w: ByteWriter, usOfDay: number): void => {
  const ms = Math.floor(usOfDay / 1000)
  const h = Math.floor(ms / 3_600_000)
  const mi = Math.floor((ms % 3_600_000) / 60_000)
  const msOfMinute = ms % 60_000
  const b = w.buf
  b[w.pos] = h | 0x80
  b[w.pos + 1] = mi
  b.writeUInt16LE(msOfMinute, w.pos + 2)
  w.pos += 4
}

/** Days since 1970-01-01 of 1582-10-05 and 1582-10-15: the ten labels HANA's day numbering has no day for. */
const GAP_START = -141437
const GAP_END = -141427

const writeDateParts = (w: ByteWriter, days: number): void => {
  // A stored label in the gap is a Julian date to HANA (1582-10-10 Julian = 1582-10-20 Gregorian): DATE/TIMESTAMP
  // (data format versions 1-3) carry the label its day number has, as DAYDATE does at 4 and later.
  const { year: y, month: m, day: d } = civilFromDays(days >= GAP_START && days < GAP_END ? epochDayOfHanaDay(hanaDayOfEpochDay(days)) : days)
  const b = w.buf
  b.writeUInt16LE((y & 0x3fff) | 0x8000, w.pos)
  b[w.pos + 2] = m - 1
  b[w.pos + 3] = d
  w.pos += 4
}

/** A TIMESTAMP stored as ticks (longdate.ts) in the TIMESTAMP layout of data format versions 1-3 (milliseconds). */
const writeTicksAsTimestamp = (w: ByteWriter, ticks: bigint): void => {
  const f = fieldsOfTicks(ticks)
  const b = w.buf
  b.writeUInt16LE((f.year & 0x3fff) | 0x8000, w.pos)
  b[w.pos + 2] = f.month - 1
  b[w.pos + 3] = f.day
  w.pos += 4
  writeTimeParts(w, ((f.hour * 60 + f.minute) * 60 + f.second) * 1_000_000 + Math.floor(f.fraction / 10))
}

/**
 * A writer for one result column at its wire type. `lob` registers LOB values (needed only for LOB types).
 */
export const cellWriter = (col: ColumnVector, wire: WireType, lob: LobRegistry): CellWriter => {
  const layout = col.info.layout
  const data = col.data
  const isNull = (r: number): boolean => col.isNull(r)
  const i32 =
    layout === "timestamp" || layout === "timestamp_s" || layout === "timestamp_ms" || layout === "timestamp_ns" || layout === "time" || layout === "uint64"
      ? int32View(col)
      : undefined
  const num = (r: number): number => {
    if (layout === "boolean") return data[r] as number
    const v = data[r]!
    return typeof v === "bigint" ? Number(v) : v
  }
  switch (wire.code) {
    case TypeCode.TINYINT:
      return (w, r) => {
        w.ensure(2)
        if (isNull(r)) w.buf[w.pos++] = 0
        else {
          w.buf[w.pos] = 1
          w.buf[w.pos + 1] = num(r) & 0xff
          w.pos += 2
        }
      }
    case TypeCode.SMALLINT:
      return (w, r) => {
        w.ensure(3)
        if (isNull(r)) w.buf[w.pos++] = 0
        else {
          w.buf[w.pos] = 1
          w.buf.writeInt16LE(num(r), w.pos + 1)
          w.pos += 3
        }
      }
    case TypeCode.INT:
      return (w, r) => {
        w.ensure(5)
        if (isNull(r)) w.buf[w.pos++] = 0
        else {
          w.buf[w.pos] = 1
          w.buf.writeInt32LE(num(r), w.pos + 1)
          w.pos += 5
        }
      }
    case TypeCode.BIGINT: {
      const wide = layout === "int64" || layout === "uint64"
      const v32 = wide ? int32View(col) : undefined
      // A DuckDB HUGEINT (an integer sum) sent as HANA's BIGINT: its upper 64 bits must be the sign of the lower.
      const huge = layout === "decimal128" ? new Int32Array(col.data.buffer, col.data.byteOffset, col.length * 4) : undefined
      return (w, r) => {
        w.ensure(9)
        if (isNull(r)) w.buf[w.pos++] = 0
        else {
          w.buf[w.pos] = 1
          if (huge !== undefined) {
            const sign = huge[4 * r + 1]! < 0 ? -1 : 0
            if (huge[4 * r + 2] !== sign || huge[4 * r + 3] !== sign) {
              throw new HanaError(314, "22003", `numeric overflow: ${unscaledBig(col, r)} is out of range for BIGINT`)
            }
            w.buf.writeInt32LE(huge[4 * r]!, w.pos + 1)
            w.buf.writeInt32LE(huge[4 * r + 1]!, w.pos + 5)
          } else if (v32 !== undefined) {
            w.buf.writeInt32LE(v32[2 * r]!, w.pos + 1)
            w.buf.writeInt32LE(v32[2 * r + 1]!, w.pos + 5)
          } else {
            const v = num(r)
            w.buf.writeInt32LE(v | 0, w.pos + 1)
            w.buf.writeInt32LE(v < 0 ? -1 : 0, w.pos + 5)
          }
          w.pos += 9
        }
      }
    }
    case TypeCode.REAL:
      return (w, r) => {
        w.ensure(4)
        if (isNull(r)) w.buf.writeUInt32LE(0xffffffff, w.pos)
        else w.buf.writeFloatLE(num(r), w.pos)
        w.pos += 4
      }
    case TypeCode.DOUBLE:
      return (w, r) => {
        w.ensure(8)
        if (isNull(r)) {
          w.buf.writeUInt32LE(0xffffffff, w.pos)
          w.buf.writeUInt32LE(0xffffffff, w.pos + 4)
        } else w.buf.writeDoubleLE(num(r), w.pos)
        w.pos += 8
      }
    case TypeCode.DECIMAL: {
      const scale = col.info.scale
      const floating = layout === "float32" || layout === "float64"
      const small = layout === "decimal16" || layout === "decimal32" || layout === "int8" || layout === "uint8" || layout === "int16" || layout === "uint16" || layout === "int32" || layout === "uint32"
      const wide = layout === "decimal64" || layout === "int64" ? int32View(col) : undefined
      return (w, r) => {
        if (isNull(r)) return w.bytes(NULL_DECIMAL)
        if (floating) {
          const [m, e] = doubleToDecimal(num(r))
          return writeDecimal128(w, m, e)
        }
        if (small) return writeDecimal128Safe(w, data[r] as number, -scale)
        if (wide !== undefined) {
          const hi = wide[2 * r + 1]!
          if (hi >= -0x200000 && hi < 0x200000) return writeDecimal128Safe(w, hi * TWO_32 + (wide[2 * r]! >>> 0), -scale)
        }
        writeDecimal128(w, unscaledBig(col, r), -scale)
      }
    }
    case TypeCode.FIXED8:
    case TypeCode.FIXED12:
    case TypeCode.FIXED16: {
      const size = wire.code === TypeCode.FIXED8 ? 8 : wire.code === TypeCode.FIXED12 ? 12 : 16
      const shift = wire.fraction - col.info.scale
      const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      const rawSize = layout === "decimal128" ? 16 : layout === "decimal64" || layout === "int64" ? 8 : 0
      return (w, r) => {
        w.ensure(1 + size)
        if (isNull(r)) {
          w.buf[w.pos++] = 0
          return
        }
        w.buf[w.pos] = 1
        if (shift === 0 && rawSize >= size) {
          w.buf.set(raw.subarray(r * rawSize, r * rawSize + size), w.pos + 1)
        } else if (shift === 0 && (layout === "decimal16" || layout === "decimal32")) {
          const v = data[r] as number
          w.buf.writeInt32LE(v, w.pos + 1)
          w.buf.fill(v < 0 ? 0xff : 0, w.pos + 5, w.pos + 1 + size)
        } else {
          let v = floatingOrUnscaled(col, r)
          if (shift > 0) v *= 10n ** BigInt(shift)
          else if (shift < 0) v /= 10n ** BigInt(-shift)
          for (let i = 0; i < size; i++) {
            w.buf[w.pos + 1 + i] = Number(v & 0xffn)
            v >>= 8n
          }
        }
        w.pos += 1 + size
      }
    }
    case TypeCode.BOOLEAN:
      return (w, r) => {
        w.ensure(1)
        w.buf[w.pos++] = isNull(r) ? 1 : num(r) !== 0 ? 2 : 0
      }
    case TypeCode.DATE:
      return (w, r) => {
        w.ensure(4)
        if (isNull(r)) {
          w.buf.writeUInt32LE(0, w.pos)
          w.pos += 4
        } else {
          checkBeforeYear10000(col, r, i32)
          writeDateParts(w, dateDays(col, r, i32))
        }
      }
    case TypeCode.TIME:
      return (w, r) => {
        w.ensure(4)
        if (isNull(r)) {
          w.buf.writeUInt32LE(0, w.pos)
          w.pos += 4
        } else {
          // HANA's TIME holds whole seconds (SAP HANA SQL Reference, "Datetime Data Types"), also at DFV 1-3 where
          // the wire format has room for milliseconds.
          const us = i32![2 * r + 1]! * TWO_32 + (i32![2 * r]! >>> 0)
          writeTimeParts(w, us - (us % 1_000_000))
        }
      }
    case TypeCode.TIMESTAMP:
      return (w, r) => {
        w.ensure(8)
        if (isNull(r)) {
          w.buf.writeUInt32LE(0, w.pos)
          w.buf.writeUInt32LE(0, w.pos + 4)
          w.pos += 8
          return
        }
        checkBeforeYear10000(col, r, i32)
        if (layout === "date") {
          writeDateParts(w, (data as Int32Array)[r]!)
          writeTimeParts(w, 0)
          return
        }
        if (layout === "uint64") {
          writeTicksAsTimestamp(w, (data as BigUint64Array)[r]!)
          return
        }
        const high = i32![2 * r + 1]!
        if (layout !== "timestamp_ns" && high >= -SAFE_HIGH && high < SAFE_HIGH) {
          const us = timestampMicros(col, r, i32!)
          const days = Math.floor(us / US_PER_DAY)
          writeDateParts(w, days)
          writeTimeParts(w, us - days * US_PER_DAY)
          return
        }
        // Beyond 2^53 µs (after 2255, before 1685) a double rounds: 9999-12-31 23:59:59.999999 would read 10000-01-01.
        const us = exactMicros(col, r, i32!)
        const days = floorDays(us)
        writeDateParts(w, Number(days))
        writeTimeParts(w, Number(us - days * US_PER_DAY_BIG))
      }
    case TypeCode.DAYDATE:
      return (w, r) => {
        w.ensure(4)
        const day = isNull(r) ? DAYDATE_NULL : hanaDayOfEpochDay(dateDays(col, r, i32))
        // Day 3652062 (10000-01-01) is DAYDATE's NULL: a computed date beyond 9999-12-31 must not read as NULL.
        if (day >= DAYDATE_NULL && !isNull(r)) throw new HanaError(303, "22007", `${DATE_OUT_OF_RANGE}day ${day}`)
        w.buf.writeUInt32LE(day, w.pos)
        w.pos += 4
      }
    case TypeCode.SECONDTIME:
      return (w, r) => {
        w.ensure(4)
        w.buf.writeInt32LE(
          isNull(r) ? 86402 : Math.floor((i32![2 * r + 1]! * TWO_32 + (i32![2 * r]! >>> 0)) / 1_000_000) + 1,
          w.pos
        )
        w.pos += 4
      }
    case TypeCode.SECONDDATE:
      return (w, r) => {
        w.ensure(8)
        let v: number
        if (isNull(r)) v = 315538070401
        else {
          checkBeforeYear10000(col, r, i32)
          const seconds = layout === "date" ? (data as Int32Array)[r]! * 86400 : Math.floor(timestampMicros(col, r, i32!) / 1_000_000)
          v = seconds + hanaDayShift(Math.floor(seconds / 86400)) * 86400 + EPOCH_SECONDS + 1
        }
        w.buf.writeUInt32LE(v % TWO_32, w.pos)
        w.buf.writeUInt32LE(Math.floor(v / TWO_32), w.pos + 4)
        w.pos += 8
      }
    case TypeCode.LONGDATE:
      return (w, r) => {
        w.ensure(8)
        if (isNull(r)) {
          w.buf.writeBigInt64LE(3155380704000000001n, w.pos)
          w.pos += 8
          return
        }
        checkBeforeYear10000(col, r, i32)
        let lo: number
        let hi: number
        if (layout === "uint64") {
          // Ticks as stored (longdate.ts): the wire value is ticks + 1.
          lo = (i32![2 * r]! >>> 0) + 1
          const carry = lo === TWO_32 ? 1 : 0
          w.buf.writeUInt32LE(lo - carry * TWO_32, w.pos)
          w.buf.writeInt32LE(i32![2 * r + 1]! + carry, w.pos + 4)
          w.pos += 8
          return
        }
        if (layout !== "date" && i32![2 * r + 1]! < BEFORE_GREGORIAN_HIGH) {
          // Before 1582-10-15 (beyond 2^53 µs): exact, with HANA's Julian day labels.
          w.buf.writeBigInt64LE(relabelledLongdate(col, r, i32!), w.pos)
          w.pos += 8
          return
        }
        if (layout === "timestamp") {
          lo = i32![2 * r]! >>> 0
          hi = i32![2 * r + 1]!
        } else {
          const us = layout === "date" ? (data as Int32Array)[r]! * US_PER_DAY : timestampMicros(col, r, i32!)
          hi = Math.floor(us / TWO_32)
          lo = us - hi * TWO_32
        }
        const sumLo = lo * 10 + K_LO
        const carry = Math.floor(sumLo / TWO_32)
        w.buf.writeUInt32LE(sumLo - carry * TWO_32, w.pos)
        w.buf.writeInt32LE(hi * 10 + K_HI + carry, w.pos + 4)
        w.pos += 8
      }
    case TypeCode.ALPHANUM: {
      // HANA keeps a purely numeric ALPHANUM value as a number: it goes out without leading zeros, flagged numeric
      // (bit 7 of the byte before the text), and the client pads it with zeros to the declared length, so '123' and
      // '00123' in ALPHANUM(6) both read '000123' (hdb lib/protocol/Reader.js readBytes, ALPHANUM_NUMERIC_VALUE).
      const declared = wire.length & 0x7f
      return (w, r) => {
        const b = col.bytes(r)
        if (b === null) return w.u8(255)
        let digits = b.length > 0
        for (let k = 0; digits && k < b.length; k++) digits = b[k]! >= 0x30 && b[k]! <= 0x39
        if (!digits) {
          const text = asCesu8(b)
          w.lengthIndicator(text.length + 1)
          w.u8(declared)
          w.bytes(text)
          return
        }
        let start = 0
        while (start < b.length - 1 && b[start] === 0x30) start++
        w.lengthIndicator(b.length - start + 1)
        w.u8(0x80 | declared)
        w.bytes(b.subarray(start))
      }
    }
    case TypeCode.CHAR:
    case TypeCode.VARCHAR:
    case TypeCode.NCHAR:
    case TypeCode.NVARCHAR:
    case TypeCode.STRING:
    case TypeCode.NSTRING:
    case TypeCode.SHORTTEXT:
      return (w, r) => {
        const length = col.locate(r)
        if (length < 0) return w.u8(255)
        const source = col.located
        const start = col.locatedStart
        const end = start + length
        // text without 4-byte UTF-8 sequences is CESU-8 as it is: copied by range, no view per value
        for (let k = start; k < end; k++) if (source[k]! >= 0xf0) return writeCesu(w, col.bytes(r)!)
        w.lengthIndicator(length)
        w.ensure(length)
        const buf = w.buf
        let at = w.pos
        if (length <= 48) for (let k = start; k < end; k++) buf[at++] = source[k]!
        else buf.set(source.subarray(start, end), at)
        w.pos += length
      }
    case TypeCode.ST_GEOMETRY:
    case TypeCode.ST_POINT:
      return (w, r) => {
        const b = col.bytes(r)
        if (b === null) return w.u8(255)
        const wkb = wireWkb(b)
        w.lengthIndicator(wkb.length)
        w.bytes(wkb)
      }
    case TypeCode.REAL_VECTOR:
      // The test-only BIT and JSON (types.ts): the value's bytes as a vector of REALs, [i32 n][n × f32], the
      // layout hdb's Reader.readVector expects.
      return (w, r) => {
        const b = col.bytes(r)
        if (b === null) return w.u8(255)
        w.lengthIndicator(4 + 4 * b.length)
        w.i32(b.length)
        for (const byte of b) {
          w.ensure(4)
          w.buf.writeFloatLE(byte, w.pos)
          w.pos += 4
        }
      }
    case TypeCode.BINARY:
    case TypeCode.VARBINARY:
    case TypeCode.BSTRING:
      return (w, r) => {
        const b = col.bytes(r)
        if (b === null) return w.u8(255)
        w.lengthIndicator(b.length)
        w.bytes(b)
      }
    case TypeCode.CLOB:
    case TypeCode.NCLOB:
    case TypeCode.TEXT:
    case TypeCode.BINTEXT:
    case TypeCode.BLOB: {
      const kind = wire.code === TypeCode.BLOB ? "BLOB" : wire.code === TypeCode.CLOB ? "CLOB" : "NCLOB"
      const sourceType = kind === "BLOB" ? 1 : kind === "CLOB" ? 2 : 3
      return (w, r) => {
        if (isNull(r)) {
          w.u8(sourceType)
          w.u8(1)
          return
        }
        let byteLength: number
        let charLength: number
        let inline: Buffer
        let last: boolean
        let locator: Buffer
        if (kind === "BLOB") {
          const bytes = Buffer.from(col.bytes(r) ?? new Uint8Array(0))
          byteLength = charLength = bytes.length
          last = bytes.length <= LOB_INLINE_BYTES
          inline = last ? bytes : bytes.subarray(0, LOB_INLINE_BYTES)
          locator = last ? NO_LOCATOR : lob(bytes, kind)
        } else {
          const text = col.string(r) ?? ""
          const full = cesu8(text)
          byteLength = full.length
          charLength = text.length
          last = full.length <= LOB_INLINE_BYTES
          inline = last ? full : cesu8(text.slice(0, LOB_INLINE_BYTES / 4))
          locator = last ? NO_LOCATOR : lob(text, kind)
        }
        w.u8(sourceType)
        w.u8(last ? 6 : 2)
        w.zeros(2)
        w.i64(BigInt(charLength))
        w.i64(BigInt(byteLength))
        w.bytes(locator)
        w.i32(inline.length)
        w.bytes(inline)
      }
    }
    default:
      return (w, r) => {
        const s = col.string(r)
        if (s === null) return w.u8(255)
        const b = cesu8(s)
        w.lengthIndicator(b.length)
        w.bytes(b)
      }
  }
}

const floatingOrUnscaled = (col: ColumnVector, r: number): bigint => {
  const layout = col.info.layout
  if (layout === "float32" || layout === "float64") return BigInt(Math.round(col.data[r] as number))
  return unscaledBig(col, r)
}
