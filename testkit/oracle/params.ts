/**
 * Bind values: decoding what node-oracledb writes for each bind type
 * (lib/thin/protocol/messages/withData.js writeBindParamsColumn) into DuckDB values, and encoding OUT values
 * (PL/SQL) in the type the client declared.
 */
import { blobValue, type DuckDBTimestampNanosecondsValue, intervalValue, listValue, timestampNanosValue, timestampTZValue, timestampValue } from "@duckdb/node-api"
import type { DuckDBValue } from "@duckdb/node-api"
import { civilFromMicros, datetimeOfOracle, datetimeText, microsOfOracle, nanosOfOracle, oracleBytesOf, parseDatetimeText } from "./datetime.ts"
import { decodeVector, encodeVector } from "./vector-images.ts"
import { intervalDsBind, intervalYmBind, monthsOfIntervalYm, nanosOfIntervalDs, parseDuckInterval, writeIntervalOut } from "./intervals.ts"
import { decodeNumber, decodeNumberFast, writeNumber, writeNumberString } from "./number.ts"
import { readNamedBind, writeNamedOutValue } from "./named-types.ts"
import { storedJsonOfOson } from "./extended-json.ts"
import type { BindSpec } from "./statement.ts"
import { Dty } from "./types.ts"
import { NULL_LENGTH_INDICATOR, type ReadBuffer, type WriteBuffer } from "./wire.ts"

/** Looks up the contents of a LOB locator sent as a bind (temporary LOBs). */
export type LobResolver = (locator: Buffer) => string | Uint8Array | null

const utf16be = (b: Buffer): string => Buffer.from(b).swap16().toString("utf16le")

/** Converts an Oracle NUMBER's decimal text to the value bound to DuckDB. */
export const numberValue = (text: string): DuckDBValue => {
  const digits = text.replace(/^-/, "").replace(".", "").replace(/^0+/, "")
  return digits.length <= 15 ? Number(text) : text
}

/** Reads one bind value of the given type. */
export const readBind = (r: ReadBuffer, spec: BindSpec, dbOffsetMinutes: number, lobs: LobResolver): DuckDBValue => {
  switch (spec.dty) {
    case Dty.BOOLEAN: {
      const n = r.u8()
      if (n === 0xfd) {
        r.u8()
        return null
      }
      if (n === 0 || n === NULL_LENGTH_INDICATOR) return null
      const b = r.take(n)
      return b[0] === 1
    }
    case Dty.CLOB:
    case Dty.BLOB: {
      const len = r.ub()
      if (len === 0) return null
      const loc = r.bytesWithLength()
      if (loc === null) return null
      const v = lobs(Buffer.from(loc))
      if (v === null) return null
      return typeof v === "string" ? (v.length === 0 ? null : v) : blobValue(v)
    }
    case Dty.INT_NAMED:
      return readNamedBind(r, dbOffsetMinutes)
    case Dty.JSON: {
      const len = r.ub()
      if (len === 0) return null
      r.bytesWithLength() // QLocator
      const img = r.bytesWithLength()
      if (img === null) return null
      return storedJsonOfOson(img)
    }
    case Dty.VECTOR: {
      const len = r.ub()
      if (len === 0) return null
      r.bytesWithLength() // QLocator
      const img = r.bytesWithLength()
      if (img === null) return null
      const arr = decodeVector(Buffer.from(img)) as ArrayLike<number>
      return listValue(Array.from(arr))
    }
    case Dty.CURSOR: {
      const present = r.ub()
      if (present === 1) r.ub()
      return null
    }
  }
  const b = r.bytesWithLength()
  if (b === null) return null
  switch (spec.dty) {
    case Dty.NUMBER:
    case 3:
      return decodeNumberFast(b) ?? numberValue(decodeNumber(b))
    case Dty.VARCHAR:
    case Dty.CHAR:
    case Dty.LONG: {
      const s = spec.csfrm === 2 ? utf16be(b) : b.toString("utf8")
      return s.length === 0 ? null : s
    }
    case Dty.RAW:
    case Dty.LONG_RAW:
      return blobValue(Buffer.from(b))
    case Dty.DATE:
    case Dty.TIMESTAMP:
      return subMicros(b) ?? timestampValue(microsOfOracle(b))
    case Dty.TIMESTAMP_TZ:
      // the server's text form of a zoned value keeps the zone the bytes carry (datetime-functions.ts)
      return datetimeText(datetimeOfOracle(b))
    case Dty.TIMESTAMP_LTZ: {
      // digits below the microsecond: the instant as zoned text, which TIMESTAMP(7-9) WITH LOCAL TIME ZONE columns keep
      // (datetime-functions.ts) and the others read as their instant
      if (b.length >= 11 && b.readUInt32BE(7) % 1000 !== 0) return datetimeText({ wall: nanosOfOracle(b) - BigInt(dbOffsetMinutes) * 60_000_000_000n, offsetMinutes: 0 })
      return timestampTZValue(microsOfOracle(b) - BigInt(dbOffsetMinutes) * 60_000_000n)
    }
    case Dty.BINARY_DOUBLE:
    case Dty.BINARY_FLOAT: {
      const c = Buffer.from(b)
      if ((c[0]! & 0x80) !== 0) c[0] = c[0]! & 0x7f
      else for (let k = 0; k < c.length; k++) c[k] = ~c[k]! & 0xff
      return c.length === 8 ? c.readDoubleBE(0) : c.readFloatBE(0)
    }
    case Dty.INTERVAL_YM:
      return intervalYmBind(monthsOfIntervalYm(b))
    case Dty.INTERVAL_DS:
      return intervalDsBind(nanosOfIntervalDs(b))
    default:
      return b.toString("utf8")
  }
}

/** DuckDB's nanosecond timestamps (int64) reach from 1677-09-21 to 2262-04-11. */
const NS_MIN = -(2n ** 63n) + 1n
const NS_MAX = 2n ** 63n - 1n

/**
 * A bound TIMESTAMP with digits below the microsecond as a DuckDB nanosecond timestamp (its wall clock), so
 * TIMESTAMP(7-9) columns keep them; undefined otherwise.
 */
const subMicros = (b: Buffer): DuckDBTimestampNanosecondsValue | string | undefined => {
  if (b.length < 11 || b.readUInt32BE(7) % 1000 === 0) return undefined
  const ns = nanosOfOracle(b)
  // beyond DuckDB's nanosecond range: the text TIMESTAMP(7-9) columns store (datetime-functions.ts)
  return ns < NS_MIN || ns > NS_MAX ? datetimeText({ wall: ns }) : timestampNanosValue(ns)
}

const writeDate = (w: WriteBuffer, text: string, dty: number): void => {
  if (dty === Dty.TIMESTAMP_TZ) {
    // the value's own zone (a zoneless DuckDB rendering is UTC, the engine's time zone)
    const v = parseDatetimeText(text, "+00:00")
    if (v === undefined) w.u8(0)
    else w.bytesWithLength(oracleBytesOf(v, true, 9))
    return
  }
  const m = text.match(/^(-?\d+)-(\d+)-(\d+)(?:[ T](\d+):(\d+):(\d+)(?:\.(\d+))?)?/)
  if (m === null) {
    w.u8(0)
    return
  }
  const ns = Number((m[7] ?? "").padEnd(9, "0").slice(0, 9) || "0")
  const y = Number(m[1])
  const parts = [Math.trunc(y / 100) + 100, (y % 100) + 100, Number(m[2]), Number(m[3]), Number(m[4] ?? 0) + 1, Number(m[5] ?? 0) + 1, Number(m[6] ?? 0) + 1]
  if (dty === Dty.DATE) {
    w.u8(7)
    for (const p of parts) w.u8(p)
    return
  }
  w.u8(dty === Dty.TIMESTAMP_TZ ? 13 : 11)
  for (const p of parts) w.u8(p)
  w.u32be(ns)
  if (dty === Dty.TIMESTAMP_TZ) {
    w.u8(20)
    w.u8(60)
  }
}

/** Writes an OUT bind value (a generic value from the engine) in the declared bind type. */
export const writeOutValue = (
  w: WriteBuffer,
  spec: BindSpec,
  v: unknown,
  /** The database time zone, east of UTC (TIMESTAMP WITH LOCAL TIME ZONE attributes of objects are written in it). */
  dbTzOffsetMinutes: number,
  /** Registers a temporary LOB holding the value and returns its locator (CLOB/NCLOB/BLOB OUT binds). */
  lob?: (value: string | Uint8Array, blob: boolean) => Buffer
): void => {
  if (v === null || v === undefined) {
    if (spec.dty === Dty.BOOLEAN) {
      w.u8(0xfd)
      w.u8(1)
    } else if (spec.dty === Dty.INT_NAMED) writeNamedOutValue(w, spec, null, dbTzOffsetMinutes)
    else w.u8(0)
    return
  }
  switch (spec.dty) {
    case Dty.INT_NAMED:
      writeNamedOutValue(w, spec, typeof v === "string" ? v : String(v), dbTzOffsetMinutes)
      return
    case Dty.NUMBER:
    case 3:
      if (typeof v === "number") writeNumber(w, v)
      else if (typeof v === "boolean") writeNumber(w, v ? 1 : 0)
      else writeNumberString(w, String(v))
      return
    case Dty.BINARY_DOUBLE:
    case Dty.BINARY_FLOAT: {
      const n = Number(v)
      const dbl = spec.dty === Dty.BINARY_DOUBLE
      const c = Buffer.alloc(dbl ? 8 : 4)
      if (dbl) c.writeDoubleBE(n)
      else c.writeFloatBE(n)
      if ((c[0]! & 0x80) === 0) c[0] = c[0]! | 0x80
      else for (let k = 0; k < c.length; k++) c[k] = ~c[k]! & 0xff
      w.bytesWithLength(c)
      return
    }
    case Dty.BOOLEAN: {
      const t = v === true || v === 1 || v === "true" || v === "1"
      w.u8(1)
      w.u8(t ? 1 : 0)
      return
    }
    case Dty.RAW:
    case Dty.LONG_RAW:
      w.bytesWithLength(v instanceof Uint8Array ? v : Buffer.from(String(v), "utf8"))
      return
    case Dty.CLOB:
    case Dty.BLOB:
      if (lob !== undefined) {
        // same layout as a LOB column value: UB4 locator length, UB8 length (characters for CLOB), UB4 chunk size, locator
        const blob = spec.dty === Dty.BLOB
        const value = blob ? (v instanceof Uint8Array ? v : Buffer.from(String(v), "utf8")) : v instanceof Uint8Array ? Buffer.from(v).toString("utf8") : String(v)
        const locator = lob(value, blob)
        w.ub(locator.length)
        w.ub(value.length)
        w.ub(8132)
        w.bytesWithLength(locator)
        return
      }
      writeOutText(w, spec, v)
      return
    case Dty.DATE:
    case Dty.TIMESTAMP:
    case Dty.TIMESTAMP_TZ:
    case Dty.TIMESTAMP_LTZ:
      if (typeof v === "bigint") {
        const c = civilFromMicros(v)
        writeDate(w, `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}:${c.second}.${String(c.nanos).padStart(9, "0")}`, spec.dty)
      } else writeDate(w, String(v), spec.dty)
      return
    case Dty.INTERVAL_DS:
    case Dty.INTERVAL_YM:
    {
      // PL/SQL expressions yield DuckDB's interval rendering ("-3 years -7 months") or DECIMAL seconds
      const value = typeof v === "string" ? duckInterval(v) : v
      if (!writeIntervalOut(w, value, spec.dty === Dty.INTERVAL_YM)) writeOutText(w, spec, v)
      return
    }
    case Dty.VECTOR: {
      // the layout of a VECTOR column value (encode.ts): lengths, chunk size, the vector image, an empty locator
      const items = typeof v === "object" && v !== null && "items" in v ? (v as { items: ReadonlyArray<unknown> }).items : String(v).replace(/^\[|\]$/g, "").split(",").filter((x) => x.trim() !== "")
      const img = encodeVector(Float64Array.from(items, Number))
      w.ub(img.length)
      w.ub(img.length)
      w.ub(8060)
      w.bytesWithLength(img)
      w.u8(0)
      return
    }
    default:
      writeOutText(w, spec, v)
  }
}

/** DuckDB's rendering of an INTERVAL as the value, or the text itself when it is not one. */
const duckInterval = (text: string): unknown => {
  try {
    const p = parseDuckInterval(text)
    return intervalValue(p.months, p.days, p.micros)
  } catch {
    return text
  }
}

const writeOutText = (w: WriteBuffer, spec: BindSpec, v: unknown): void => {
  const s = v instanceof Uint8Array ? Buffer.from(v).toString("hex").toUpperCase() : String(v)
  if (s.length === 0) w.u8(0)
  else if (spec.csfrm === 2) w.bytesWithLength(Buffer.from(s, "utf16le").swap16())
  else w.str(s)
}
