/**
 * Decoding of the PARAMETERS part hdb sends with EXECUTE: per row, per parameter `[type][value]`, NULL as
 * `type | 0x80`, LOBs as `[type][options][i32 length][i32 position]` with their bytes after the row's fields.
 * Layout: hdb lib/protocol/Writer.js (parameter encodings).
 */
import { blobValue } from "@duckdb/node-api"
import type { EngineValue } from "../engine/index.ts"
import { civilFromDays } from "../common/civil.ts"
import { epochDayOfHanaDay, EPOCH_DAYDATE } from "./datetime.ts"
import { cesu8Text } from "./cesu8-check.ts"
import { TypeCode } from "./types.ts"
import { lengthIndicatorSize, MalformedPacket, NULL_LENGTH, readLengthPrefixed } from "./wire.ts"

/** A LOB parameter whose data is still arriving through WRITE_LOB. */
export interface PendingLob {
  readonly index: number
  readonly kind: "BLOB" | "CLOB" | "NCLOB"
  chunks: Buffer[]
  done: boolean
}

/** One decoded parameter row. */
export interface ParameterRow {
  readonly values: EngineValue[]
  /** LOB parameters not complete yet (the row can only run once they are). */
  readonly pendingLobs: PendingLob[]
}

const pad = (n: number, w = 2): string => String(n).padStart(w, "0")

const dateString = (days: number): string => {
  const { year: y, month: m, day: d } = civilFromDays(days)
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`
}

const decimal128ToString = (b: Buffer, o: number): string => {
  let m = 0n
  for (let i = 14; i >= 0; i--) m = (m << 8n) | BigInt(i === 14 ? b[o + i]! & 0x01 : b[o + i]!)
  const exp = (((b[o + 15]! & 0x7f) << 7) | (b[o + 14]! >> 1)) - 6176
  const neg = (b[o + 15]! & 0x80) !== 0
  return scaledString(neg ? -m : m, -exp)
}

const scaledString = (unscaled: bigint, scale: number): string => {
  const neg = unscaled < 0n
  let digits = (neg ? -unscaled : unscaled).toString()
  if (scale <= 0) return (neg ? "-" : "") + digits + "0".repeat(-scale)
  digits = digits.padStart(scale + 1, "0")
  return (neg ? "-" : "") + digits.slice(0, digits.length - scale) + "." + digits.slice(digits.length - scale)
}

const fixedToString = (b: Buffer, o: number, size: number, fraction: number): string => {
  let v = 0n
  for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!)
  v = BigInt.asIntN(size * 8, v)
  return scaledString(v, fraction)
}

/** Decodes `rows` parameter rows; `fractions[i]` is the declared scale of parameter i (for FIXED types). */
export const decodeParameters = (
  data: Buffer,
  rows: number,
  count: number,
  fractions: readonly number[]
): ParameterRow[] => {
  const out: ParameterRow[] = []
  let o = 0
  const need = (n: number): void => {
    if (o + n > data.length) throw new MalformedPacket("parameter data truncated")
  }
  for (let row = 0; row < rows; row++) {
    const rowStart = o
    let rowEnd = o
    const values: EngineValue[] = []
    const pendingLobs: PendingLob[] = []
    for (let p = 0; p < count; p++) {
      need(1)
      const type = data[o++]!
      if (type & 0x80) {
        values.push(null)
        continue
      }
      switch (type) {
        case TypeCode.TINYINT:
          need(1)
          values.push(data[o]!)
          o += 1
          break
        case TypeCode.SMALLINT:
          need(2)
          values.push(data.readInt16LE(o))
          o += 2
          break
        case TypeCode.INT:
          need(4)
          values.push(data.readInt32LE(o))
          o += 4
          break
        case TypeCode.BIGINT:
          need(8)
          values.push(data.readBigInt64LE(o))
          o += 8
          break
        case TypeCode.DECIMAL:
          need(16)
          values.push(decimal128ToString(data, o))
          o += 16
          break
        case TypeCode.FIXED8:
        case TypeCode.FIXED12:
        case TypeCode.FIXED16: {
          const size = type === TypeCode.FIXED8 ? 8 : type === TypeCode.FIXED12 ? 12 : 16
          need(size)
          values.push(fixedToString(data, o, size, fractions[p] ?? 0))
          o += size
          break
        }
        case TypeCode.REAL:
          need(4)
          values.push(data.readFloatLE(o))
          o += 4
          break
        case TypeCode.DOUBLE:
          need(8)
          values.push(data.readDoubleLE(o))
          o += 8
          break
        case TypeCode.BOOLEAN:
          need(1)
          values.push(data[o] === 1 ? null : data[o] === 2)
          o += 1
          break
        case TypeCode.STRING:
        case TypeCode.NSTRING:
        case TypeCode.VARCHAR:
        case TypeCode.NVARCHAR:
        case TypeCode.CHAR:
        case TypeCode.NCHAR:
        case TypeCode.SHORTTEXT:
        case TypeCode.ALPHANUM:
        case TypeCode.BINARY:
        case TypeCode.VARBINARY:
        case TypeCode.BSTRING: {
          const len = readLengthPrefixed(data, o)
          o += lengthIndicatorSize(data[o]!)
          if (len === NULL_LENGTH) {
            values.push(null)
            break
          }
          const bytes = data.subarray(o, o + len)
          o += len
          const binary = type === TypeCode.BINARY || type === TypeCode.VARBINARY || type === TypeCode.BSTRING
          values.push(binary ? blobValue(new Uint8Array(bytes)) : cesu8Text(bytes, `parameter ${p + 1}${rows > 1 ? ` of row ${row + 1}` : ""}`))
          break
        }
        case TypeCode.DATE: {
          need(4)
          const year = data.readUInt16LE(o) & 0x3fff
          values.push(`${pad(year, 4)}-${pad(data[o + 2]! + 1)}-${pad(data[o + 3]!)}`)
          o += 4
          break
        }
        case TypeCode.TIME: {
          need(4)
          const ms = data.readUInt16LE(o + 2)
          values.push(`${pad(data[o]! & 0x7f)}:${pad(data[o + 1]!)}:${pad(Math.floor(ms / 1000))}.${pad(ms % 1000, 3)}`)
          o += 4
          break
        }
        case TypeCode.TIMESTAMP: {
          need(8)
          const year = data.readUInt16LE(o) & 0x3fff
          const ms = data.readUInt16LE(o + 6)
          values.push(
            `${pad(year, 4)}-${pad(data[o + 2]! + 1)}-${pad(data[o + 3]!)} ${pad(data[o + 4]! & 0x7f)}:${pad(data[o + 5]!)}:${pad(Math.floor(ms / 1000))}.${pad(ms % 1000, 3)}`
          )
          o += 8
          break
        }
        case TypeCode.DAYDATE: {
          need(4)
          const v = data.readUInt32LE(o)
          values.push(v === 0 || v === 3652062 ? null : dateString(epochDayOfHanaDay(v)))
          o += 4
          break
        }
        case TypeCode.SECONDTIME: {
          need(4)
          const v = data.readInt32LE(o)
          if (v === 0 || v === 86402) values.push(null)
          else {
            const s = v - 1
            values.push(`${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`)
          }
          o += 4
          break
        }
        case TypeCode.SECONDDATE:
        case TypeCode.LONGDATE: {
          need(8)
          const v = data.readBigInt64LE(o)
          o += 8
          if (v === 0n || v === 315538070401n || v === 3155380704000000001n) {
            values.push(null)
            break
          }
          const ticks = type === TypeCode.SECONDDATE ? (v - 1n) * 10_000_000n : v - 1n
          const epochTicks = 719164n * 86400n * 10_000_000n
          const rel = ticks - epochTicks
          const dayTicks = 86400n * 10_000_000n
          let days = rel / dayTicks
          let rem = rel % dayTicks
          if (rem < 0n) {
            rem += dayTicks
            days -= 1n
          }
          const secs = Number(rem / 10_000_000n)
          const frac = Number(rem % 10_000_000n)
          values.push(
            `${dateString(epochDayOfHanaDay(Number(days) + EPOCH_DAYDATE))} ${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}.${pad(frac, 7)}`
          )
          break
        }
        case TypeCode.BLOB:
        case TypeCode.CLOB:
        case TypeCode.NCLOB: {
          need(9)
          const options = data[o]!
          const length = data.readInt32LE(o + 1)
          const position = data.readInt32LE(o + 5)
          o += 9
          const kind = type === TypeCode.BLOB ? "BLOB" : type === TypeCode.CLOB ? "CLOB" : "NCLOB"
          const start = rowStart + position - 1
          const chunk = position > 0 && length > 0 ? data.subarray(start, start + length) : Buffer.alloc(0)
          if (start + length > data.length) throw new MalformedPacket("LOB data beyond part")
          rowEnd = Math.max(rowEnd, start + length)
          const lob: PendingLob = { index: p, kind, chunks: [Buffer.from(chunk)], done: (options & 4) !== 0 }
          values.push(null)
          pendingLobs.push(lob)
          break
        }
        default:
          throw new MalformedPacket(`unsupported parameter type code ${type}`)
      }
    }
    o = Math.max(o, rowEnd)
    const complete = pendingLobs.filter((l) => l.done)
    for (const lob of complete) values[lob.index] = lobValue(lob)
    out.push({ values, pendingLobs: pendingLobs.filter((l) => !l.done) })
  }
  return out
}

/** The bind value of a completed LOB. */
export const lobValue = (lob: PendingLob): EngineValue => {
  const bytes = Buffer.concat(lob.chunks)
  return lob.kind === "BLOB" ? blobValue(new Uint8Array(bytes)) : cesu8Text(bytes, `the ${lob.kind} of parameter ${lob.index + 1}`)
}
