/**
 * Column encoders: DuckDB column vectors (testkit/engine) -> Oracle wire values in ROW_DATA messages,
 * read straight from the vectors' typed arrays where possible.
 *
 * Wire layouts: node_modules/oracledb/lib/thin/protocol/messages/withData.js processColumnData and
 * lib/impl/datahandlers/buffer.js (parseOracleDate, parseBinaryDouble, parseOracleIntervalDS/YM, readBool).
 */
import type { ColumnVector } from "../engine/index.ts"
import { civilFromDays } from "../common/civil.ts"
import { civilFromMicros, type Civil, microsFromCivil as microsOfCivil, oracleBytesOf, parseDatetimeText, utcNanos, zoneBytes } from "./datetime.ts"
import { ora } from "./errors.ts"
import { nanosOfDuckInterval, parseDuckInterval, writeIntervalDsNanos, writeIntervalYmMonths } from "./intervals.ts"
import { writeNumber, writeNumberString, writeScaledBigInt, writeScaledInt } from "./number.ts"
import { writeNamedValue } from "./named-types.ts"
import { fromExtendedJson, osonOfStoredJson } from "./extended-json.ts"
import { plainJson } from "./json-functions.ts"
import { fieldsOfRowNumber, rowidFields, urowidBytes } from "./rowid-bytes.ts"
import { clobType, type OraType } from "./types.ts"
import { vectorText } from "./vector-text.ts"
import { encodeVector } from "./vector-images.ts"
import type { WriteBuffer } from "./wire.ts"
import { TWO_32 } from "../../src/arrow/Words.ts"

/** Writes one column value of row `i` (including the NULL case). */
export type ColumnEncoder = (w: WriteBuffer, col: ColumnVector, i: number) => void

/** How LOB columns travel: as locators (fetched as Lob objects) or inline as LONG data (fetched as string/Buffer). */
export type LobMode = "locator" | "inline"

/** Server-side LOB registry hook: returns the locator for a LOB value of row `row` of the current chunk. */
export type LobRegistrar = (value: string | Uint8Array, type: OraType, row: number) => Buffer

const EMPTY = new Uint8Array(0)

/**
 * The 64-bit values of a column viewed as little-endian 32-bit halves, for one column encoder: it sees one result
 * column chunk after chunk, so the view of the last chunk column is kept (one comparison per value).
 */
class Int64Halves {
  private col: ColumnVector | undefined = undefined
  private h: Int32Array = new Int32Array(0)
  of(col: ColumnVector): Int32Array {
    if (col !== this.col) {
      const d = col.data as BigInt64Array
      this.h = new Int32Array(d.buffer, d.byteOffset, d.length * 2)
      this.col = col
    }
    return this.h
  }
}

/** Microseconds of a timestamp row as a JS number (exact within 2^53, about 1685-2255). */
const microsNumber = (h: Int32Array, i: number): number => h[2 * i + 1]! * TWO_32 + (h[2 * i]! >>> 0)

/** True when the int64 of row `i` is a safe integer (its high word within +-2^21). */
const safeInt64 = (h: Int32Array, i: number): boolean => {
  const hi = h[2 * i + 1]!
  return hi >= -2097152 && hi < 2097152
}

/**
 * The four date bytes of Oracle's DATE / TIMESTAMP layout (century + 100, year of century + 100, month, day) of a day
 * number, memoised in a direct-mapped table of 4,096 days: a column's dates mostly repeat or lie close together, and
 * the calendar arithmetic costs more than the rest of the value's encoding.
 */
const DAY_SLOTS = 4096
const dayKeys = new Float64Array(DAY_SLOTS).fill(Number.NaN)
const dayBytes = new Uint8Array(DAY_SLOTS * 4)
/** The slot of `dayBytes` holding the day's four bytes (at 4 * slot), filled when needed. */
const daySlot = (days: number): number => {
  const slot = days & (DAY_SLOTS - 1)
  if (dayKeys[slot] !== days) {
    const d = civilFromDays(days)
    const o = slot * 4
    dayBytes[o] = Math.trunc(d.year / 100) + 100
    dayBytes[o + 1] = (d.year % 100) + 100
    dayBytes[o + 2] = d.month
    dayBytes[o + 3] = d.day
    dayKeys[slot] = days
  }
  return slot
}

/** Writes a wall-clock timestamp given in microseconds since the epoch (DATE: 7 bytes, else 11). */
const writeMicros = (w: WriteBuffer, us: number, withFraction: boolean, fractionUnitNs: number): void => {
  let days = Math.floor(us / 86_400_000_000)
  let rem = us - days * 86_400_000_000
  if (rem < 0) {
    rem += 86_400_000_000
    days -= 1
  }
  const o = daySlot(days) * 4
  // 0 <= secs < 86,400: int32 arithmetic from here
  const secs = Math.floor(rem / 1_000_000)
  w.ensure(12)
  const b = w.buf
  let p = w.pos
  b[p++] = withFraction ? 11 : 7
  b[p++] = dayBytes[o]!
  b[p++] = dayBytes[o + 1]!
  b[p++] = dayBytes[o + 2]!
  b[p++] = dayBytes[o + 3]!
  b[p++] = ((secs / 3600) | 0) + 1
  b[p++] = (((secs / 60) | 0) % 60) + 1
  b[p++] = (secs % 60) + 1
  if (withFraction) {
    const ns = (rem - secs * 1_000_000) * 1000
    // below 10^9, so within int32
    const v = Math.floor(ns / fractionUnitNs) * fractionUnitNs
    b[p++] = v >>> 24
    b[p++] = (v >>> 16) & 0xff
    b[p++] = (v >>> 8) & 0xff
    b[p++] = v & 0xff
  }
  w.pos = p
}

const writeDateParts = (w: WriteBuffer, c: Civil, withFraction: boolean): void => {
  w.ensure(12)
  const b = w.buf
  let p = w.pos
  b[p++] = withFraction ? 11 : 7
  b[p++] = Math.trunc(c.year / 100) + 100
  b[p++] = (c.year % 100) + 100
  b[p++] = c.month
  b[p++] = c.day
  b[p++] = c.hour + 1
  b[p++] = c.minute + 1
  b[p++] = c.second + 1
  if (withFraction) {
    b.writeUInt32BE(c.nanos, p)
    p += 4
  }
  w.pos = p
}

/** Wall-clock microseconds of a temporal column row, or undefined for non-temporal layouts. */
const microsOf = (col: ColumnVector, i: number): bigint | undefined => {
  const d = col.data
  switch (col.info.layout) {
    case "timestamp":
      return (d as BigInt64Array)[i]!
    case "date":
      return BigInt((d as Int32Array)[i]!) * 86_400_000_000n
    case "timestamp_s":
      return (d as BigInt64Array)[i]! * 1_000_000n
    case "timestamp_ms":
      return (d as BigInt64Array)[i]! * 1000n
    case "timestamp_ns": {
      // floor, not truncation: 8 ns before the epoch is in the microsecond before it
      const ns = (d as BigInt64Array)[i]!
      const us = ns / 1000n
      return us * 1000n > ns ? us - 1n : us
    }
    default:
      return undefined
  }
}

const civilOf = (col: ColumnVector, i: number, shiftMinutes = 0): Civil | undefined => {
  if (col.info.layout === "date" && shiftMinutes === 0) {
    const d = civilFromDays((col.data as Int32Array)[i]!)
    return { ...d, hour: 0, minute: 0, second: 0, nanos: 0 }
  }
  let us = microsOf(col, i)
  if (us === undefined) {
    const v = col.value(i)
    if (v === null) return undefined
    const ms = Date.parse(String(v).replace(" ", "T") + (/[zZ+]|-\d\d:?\d\d$/.test(String(v)) ? "" : "Z"))
    if (Number.isNaN(ms)) return undefined
    us = BigInt(ms) * 1000n
  }
  const c = civilFromMicros(us + BigInt(shiftMinutes) * 60_000_000n)
  if (col.info.layout === "timestamp_ns") c.nanos = Number(((col.data as BigInt64Array)[i]! % 1_000_000_000n + 1_000_000_000n) % 1_000_000_000n)
  return c
}

const utf16be = (s: string): Buffer => Buffer.from(s, "utf16le").swap16()

const numberOf = (col: ColumnVector, i: number): number => {
  const d = col.data
  switch (col.info.layout) {
    case "int64":
    case "uint64":
      return Number((d as BigInt64Array)[i]!)
    case "decimal16":
    case "decimal32":
      return (d as Int32Array)[i]! / 10 ** col.info.scale
    case "decimal64":
      return Number((d as BigInt64Array)[i]!) / 10 ** col.info.scale
    case "boolean":
      return d[i] !== 0 ? 1 : 0
    case "varchar":
    case "other":
    case "decimal128":
      return Number(col.value(i))
    default:
      return Number(d[i]!)
  }
}

/** The unscaled value of a DECIMAL row stored as 64 or 128 bits. */
const decimalUnscaled = (col: ColumnVector, i: number): bigint => {
  const a = col.data as BigInt64Array
  return col.info.layout === "decimal128" ? (a[2 * i + 1]! << 64n) | BigInt.asUintN(64, a[2 * i]!) : a[i]!
}

const writeBinary = (w: WriteBuffer, v: number, double: boolean): void => {
  const n = double ? 8 : 4
  w.ensure(n + 1)
  w.buf[w.pos++] = n
  const p = w.pos
  if (double) w.buf.writeDoubleBE(v, p)
  else w.buf.writeFloatBE(v, p)
  if ((w.buf[p]! & 0x80) === 0) w.buf[p] = w.buf[p]! | 0x80
  else for (let k = 0; k < n; k++) w.buf[p + k] = ~w.buf[p + k]! & 0xff
  w.pos += n
}

/** Options that affect encoding. */
export interface EncodeOptions {
  readonly dbTzOffsetMinutes: number
  readonly lobMode: LobMode
  /** LOB prefetch length the client's define asked for (0: locators only); see {@link writeLocator}. */
  readonly lobPrefetch: number
  /** A VECTOR column the client defined as CLOB: sent as a CLOB of its text. */
  readonly vectorAsClob?: boolean
  /** True when the client expects the SB4 indicator + UB4 return code after each value (LONG-like columns). */
  readonly trailer: boolean
  readonly registerLob: LobRegistrar
}

/** Builds the encoder of one result column. */
export const columnEncoder = (type: OraType, opts: EncodeOptions): ColumnEncoder => {
  const base = baseEncoder(type, opts)
  if (!opts.trailer) return base
  return (w, col, i) => {
    base(w, col, i)
    w.u8(0) // SB4 indicator
    w.u8(0) // UB4 return code
  }
}

const nullGuard =
  (f: ColumnEncoder): ColumnEncoder =>
  (w, col, i) => {
    if (col.validity !== null && col.isNull(i)) w.u8(0)
    else f(w, col, i)
  }

const baseEncoder = (type: OraType, opts: EncodeOptions): ColumnEncoder => {
  switch (type.kind) {
    case "number": {
      const halves = new Int64Halves()
      return nullGuard((w, col, i) => {
        const d = col.data
        switch (col.info.layout) {
          case "int8":
          case "uint8":
          case "int16":
          case "uint16":
          case "int32":
          case "uint32":
          case "float32":
          case "float64":
            writeNumber(w, d[i] as number)
            return
          case "int64": {
            const h = halves.of(col)
            const lo = h[2 * i]!
            const hi = h[2 * i + 1]!
            if (hi >= -2097152 && hi < 2097152) writeNumber(w, hi * TWO_32 + (lo >>> 0))
            else writeNumberString(w, (d as BigInt64Array)[i]!.toString())
            return
          }
          case "uint64": {
            const b = (d as BigUint64Array)[i]!
            if (b <= 9007199254740991n) writeNumber(w, Number(b))
            else writeNumberString(w, b.toString())
            return
          }
          case "decimal16":
          case "decimal32":
            writeScaledInt(w, (d as Int32Array | Int16Array)[i]!, col.info.scale)
            return
          case "decimal64": {
            // read the int64 as two 32-bit halves to avoid a BigInt per value
            const h = halves.of(col)
            const lo = h[2 * i]!
            const hi = h[2 * i + 1]!
            if (hi >= -2097152 && hi < 2097152) writeScaledInt(w, hi * TWO_32 + (lo >>> 0), col.info.scale)
            else writeScaledBigInt(w, (d as BigInt64Array)[i]!, col.info.scale)
            return
          }
          case "decimal128":
            writeScaledBigInt(w, decimalUnscaled(col, i), col.info.scale)
            return
          case "boolean":
            writeNumber(w, d[i] !== 0 ? 1 : 0)
            return
          default: {
            const v = col.value(i)
            if (v === null) w.u8(0)
            else writeNumberString(w, String(v))
          }
        }
      })
    }
    case "float":
    case "double": {
      const dbl = type.kind === "double"
      return nullGuard((w, col, i) => writeBinary(w, numberOf(col, i), dbl))
    }
    case "varchar":
    case "long":
    case "clob": {
      if (type.kind === "clob" && opts.lobMode === "locator")
        return nullGuard((w, col, i) => writeLocator(w, col.string(i) ?? "", type, opts, i))
      // CHAR / NCHAR values are stored blank-padded (char-writes.ts) and sent as they are
      return (w, col, i) => {
        if (col.info.layout === "varchar") {
          // copied by range from DuckDB's vector: no view per value
          const length = col.locate(i)
          if (length <= 0) w.u8(0)
          else w.bytesRangeWithLength(col.located, col.locatedStart, col.locatedStart + length)
          return
        }
        let s = col.info.layout === "blob" ? null : col.string(i)
        if (col.info.layout === "blob") {
          const b = col.bytes(i)
          s = b === null ? null : Buffer.from(b).toString("hex").toUpperCase()
        }
        if (s === null || s.length === 0) {
          w.u8(0)
          return
        }
        w.str(s)
      }
    }
    case "nvarchar":
    case "nclob": {
      if (type.kind === "nclob" && opts.lobMode === "locator")
        return nullGuard((w, col, i) => writeLocator(w, col.string(i) ?? "", type, opts, i))
      return (w, col, i) => {
        const s = col.string(i)
        if (s === null || s.length === 0) {
          w.u8(0)
          return
        }
        w.bytesWithLength(utf16be(s))
      }
    }
    case "raw":
    case "longraw":
    case "blob": {
      if (type.kind === "blob" && opts.lobMode === "locator")
        return nullGuard((w, col, i) => writeLocator(w, col.bytes(i) ?? EMPTY, type, opts, i))
      return (w, col, i) => {
        const b = col.info.layout === "varchar" ? (col.string(i) === null ? null : Buffer.from(col.string(i)!, "utf8")) : col.bytes(i)
        if (b === null || b.length === 0) w.u8(0)
        else w.bytesWithLength(b)
      }
    }
    case "date": {
      const halves = new Int64Halves()
      return nullGuard((w, col, i) => {
        if (col.info.layout === "timestamp") return writeMicros(w, microsNumber(halves.of(col), i), false, 1)
        if (col.info.layout === "timestamp_s") return writeMicros(w, microsNumber(halves.of(col), i) * 1_000_000, false, 1)
        const c = civilOf(col, i)
        if (c === undefined) w.u8(0)
        else writeDateParts(w, c, false)
      })
    }
    case "timestamp": {
      const halves = new Int64Halves()
      const fractionUnit = type.scale < 9 ? 10 ** (9 - type.scale) : 1
      return nullGuard((w, col, i) => {
        if (col.info.layout === "varchar") {
          // TIMESTAMP(7-9): the wall clock as text (datetime-functions.ts); a zoned text keeps its own wall clock
          const v = parseDatetimeText(col.string(i) ?? "")
          if (v === undefined) throw ora.literalMismatch()
          w.bytesWithLength(oracleBytesOf({ wall: v.wall }, false, type.scale))
          return
        }
        if (col.info.layout === "timestamp") {
          const h = halves.of(col)
          if (safeInt64(h, i)) return writeMicros(w, microsNumber(h, i), true, fractionUnit)
        }
        const c = civilOf(col, i)
        if (c === undefined) w.u8(0)
        else {
          if (type.scale < 9) {
            const unit = 10 ** (9 - type.scale)
            c.nanos = Math.floor(c.nanos / unit) * unit
          }
          writeDateParts(w, c, true)
        }
      })
    }
    case "timestampltz":
      return nullGuard((w, col, i) => {
        if (col.info.layout === "varchar") {
          // TIMESTAMP(7-9) WITH LOCAL TIME ZONE: the instant as zoned text (datetime-functions.ts), sent as the wall
          // clock of the database time zone like the others
          const v = parseDatetimeText(col.string(i) ?? "", "+00:00")
          if (v === undefined) throw ora.literalMismatch()
          w.bytesWithLength(oracleBytesOf({ wall: utcNanos(v) + BigInt(opts.dbTzOffsetMinutes) * 60_000_000_000n }, false, type.scale))
          return
        }
        const c = civilOf(col, i, opts.dbTzOffsetMinutes)
        if (c === undefined) w.u8(0)
        else writeDateParts(w, c, true)
      })
    case "timestamptz":
      return nullGuard((w, col, i) => {
        if (col.info.layout === "varchar") {
          // a column's text with the value's own zone (datetime-functions.ts); zoneless text is UTC (DuckDB's zone)
          const v = parseDatetimeText(col.string(i) ?? "", "+00:00")
          if (v === undefined) throw ora.literalMismatch()
          w.bytesWithLength(oracleBytesOf(v, true, type.scale))
          return
        }
        const c = civilOf(col, i)
        if (c === undefined) {
          w.u8(0)
          return
        }
        w.ensure(14)
        const b = w.buf
        let p = w.pos
        b[p++] = 13
        b[p++] = Math.trunc(c.year / 100) + 100
        b[p++] = (c.year % 100) + 100
        b[p++] = c.month
        b[p++] = c.day
        b[p++] = c.hour + 1
        b[p++] = c.minute + 1
        b[p++] = c.second + 1
        b.writeUInt32BE(c.nanos, p)
        p += 4
        if (type.zone === undefined) {
          b[p++] = 20 // UTC offset hours + 20
          b[p++] = 60 // offset minutes + 60
        } else {
          const [z0, z1] = zoneBytes(type.zone, Number(microsOfCivil(c) / 1000n))
          b[p++] = z0
          b[p++] = z1
        }
        w.pos = p
      })
    case "intervalds":
      return nullGuard((w, col, i) => {
        // DAY TO SECOND(7..9) columns hold DECIMAL seconds (intervals.ts), others DuckDB INTERVALs
        if (col.info.layout === "decimal64" || col.info.layout === "decimal128") {
          writeIntervalDsNanos(w, decimalUnscaled(col, i) * 10n ** BigInt(9 - col.info.scale))
          return
        }
        const v = col.value(i)
        if (v === null) {
          w.u8(0)
          return
        }
        const iv = parseDuckInterval(String(v))
        writeIntervalDsNanos(w, nanosOfDuckInterval(iv.months, iv.days, iv.micros))
      })
    case "intervalym":
      return nullGuard((w, col, i) => {
        // YEAR(9) TO MONTH columns hold BIGINT months (intervals.ts), others DuckDB INTERVALs
        if (col.info.layout === "int64") {
          writeIntervalYmMonths(w, Number((col.data as BigInt64Array)[i]!))
          return
        }
        const v = col.value(i)
        if (v === null) {
          w.u8(0)
          return
        }
        writeIntervalYmMonths(w, parseDuckInterval(String(v)).months)
      })
    case "boolean":
      return nullGuard((w, col, i) => {
        const truthy = col.info.layout === "boolean" ? col.data[i] !== 0 : numberOf(col, i) !== 0
        w.u8(1)
        w.u8(truthy ? 1 : 0)
      })
    case "json":
      // a JSON column the client defined as VARCHAR (oracledb's fetchTypeHandler / fetchInfo STRING): its standard
      // JSON text, as JSON_SERIALIZE writes it
      if (opts.lobMode === "inline") return nullGuard((w, col, i) => w.str(plainJson(fromExtendedJson(col.string(i) ?? "null"))))
      return (w, col, i) => {
        const s = col.string(i)
        if (s === null) {
          w.u8(0)
          return
        }
        const img = osonOfStoredJson(s)
        w.ub(img.length)
        w.ub(img.length)
        w.ub(8060)
        w.bytesWithLength(img)
        w.u8(0) // locator (unused by the client)
      }
    case "vector":
      return (w, col, i) => {
        const v = col.value(i)
        if (v === null) {
          w.u8(0)
          return
        }
        const numbers = String(v)
          .replace(/^\[|\]$/g, "")
          .split(",")
          .filter((x) => x.trim().length > 0)
          .map(Number)
        // a VECTOR the client defined as LONG (oracledb's fetch as string) or as CLOB: its text
        if (opts.lobMode === "inline" || opts.vectorAsClob === true) {
          const text = vectorText(numbers, type.scale === 2 ? "FLOAT32" : type.scale === 4 ? "INT8" : "FLOAT64")
          if (opts.lobMode === "inline") w.str(text)
          else writeLocator(w, text, clobType, opts, i)
          return
        }
        const img = encodeVector(type.scale === 2 ? Float32Array.from(numbers) : type.scale === 4 ? Int8Array.from(numbers) : Float64Array.from(numbers))
        w.ub(img.length)
        w.ub(img.length)
        w.ub(8060)
        w.bytesWithLength(img)
        w.u8(0) // locator (unused by the client)
      }
    case "object": {
      const named = type.named!
      return (w, col, i) => writeNamedValue(w, named, col.string(i), opts.dbTzOffsetMinutes)
    }
    case "rowid":
      return nullGuard((w, col, i) => {
        // the ROWID pseudocolumn is DuckDB's row id; a ROWID column holds rowid text (what ROWID reads as)
        const fields = col.info.layout === "int64" ? fieldsOfRowNumber((col.data as BigInt64Array)[i]!) : rowidFields(col.string(i) ?? "")
        w.u8(1)
        w.ub(fields?.object ?? 0)
        w.ub(fields?.file ?? 0)
        w.u8(0)
        w.ub(fields?.block ?? 0)
        w.ub(fields?.slot ?? 0)
      })
    case "urowid":
      return nullGuard((w, col, i) => {
        // The client ignores the first length-prefixed part and reads the rowid from the second
        // (node-oracledb lib/thin/protocol/packet.js readURowID).
        const rowid = urowidBytes(col.string(i) ?? "")
        const length = Buffer.alloc(4)
        length.writeUInt32BE(rowid.length)
        w.bytesWithLength(length)
        w.bytesWithLength(rowid)
      })
  }
}

/** Character set ids of prefetched CLOB data (AL32UTF8, AL16UTF16). */
const AL32UTF8 = 873
const AL16UTF16 = 2000

/**
 * A LOB column value as a locator: locator length, LOB length (characters of a CLOB, bytes of a BLOB), chunk size,
 * then the locator. With LOB prefetch (the define's LOB prefetch length > 0) the first that many characters or bytes
 * travel between chunk size and locator, a CLOB's preceded by its character set (flag 1, charset id, form), so that
 * the client needs no LOB read for a LOB no longer than that. Wire order as node-oracledb thin reads prefetched
 * JSON and VECTOR values (lib/thin/protocol/packet.js readOson, readVector: length, size, chunk size, data,
 * locator) and as the go-ora client reads prefetched CLOB and BLOB values (v2/parameter.go decodeColumnValue:
 * the character set flag, id and form of a CLOB before its data).
 */
const writeLocator = (w: WriteBuffer, value: string | Uint8Array, type: OraType, opts: EncodeOptions, row: number): void => {
  const locator = opts.registerLob(value, type, row)
  w.ub(locator.length)
  w.ub(value.length)
  w.ub(8132) // chunk size
  if (opts.lobPrefetch > 0) {
    if (typeof value === "string") {
      const national = type.kind === "nclob"
      w.u8(1)
      w.ub(national ? AL16UTF16 : AL32UTF8)
      w.u8(national ? 2 : 1)
      const prefix = value.length > opts.lobPrefetch ? value.slice(0, opts.lobPrefetch) : value
      w.bytesWithLength(national ? utf16be(prefix) : Buffer.from(prefix, "utf8"))
    } else {
      w.bytesWithLength(value.length > opts.lobPrefetch ? value.subarray(0, opts.lobPrefetch) : value)
    }
  }
  w.bytesWithLength(locator)
}
