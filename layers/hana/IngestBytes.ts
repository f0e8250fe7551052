/**
 * The encoded EXECUTE's text and binary column encoders, in the layouts hdb 2.30.1 writes (lib/protocol/Writer.js):
 * a length indicator (≤ 245 one byte, else 246 + int16 or 247 + int32) and the bytes, text in CESU-8 (a 4-byte
 * UTF-8 sequence becomes two 3-byte surrogates), from offsets, fixed-size and view columns alike.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { isAscii } from "node:buffer"
import { type Maker, writeInt32 } from "./IngestColumns.ts"
import { TypeCode, typeCodeName } from "./ReadTypes.ts"

const writeHeader = (out: Buffer, pos: number, type: number, n: number): number => {
  out[pos] = type
  if (n <= 245) {
    out[pos + 1] = n
    return pos + 2
  }
  if (n <= 32767) {
    out[pos + 1] = 246
    out[pos + 2] = n
    out[pos + 3] = n >>> 8
    return pos + 4
  }
  out[pos + 1] = 247
  writeInt32(out, pos + 2, n)
  return pos + 6
}

const copyBytes = (source: Uint8Array, start: number, end: number, out: Buffer, pos: number): number => {
  const n = end - start
  if (n < 32) for (let i = 0; i < n; i++) out[pos + i] = source[start + i]!
  else out.set(source.subarray(start, end), pos)
  return pos + n
}

const hasFourByteSequence = (bytes: Uint8Array): boolean => {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0xf0) return true
  return false
}

/** CESU-8 bytes of the valid UTF-8 `source[start, end)`: 4-byte sequences become two 3-byte surrogates. */
const cesu8Length = (source: Uint8Array, start: number, end: number): number => {
  let n = end - start
  for (let i = start; i < end; i++) if (source[i]! >= 0xf0) n += 2
  return n
}

const writeCesu8 = (source: Uint8Array, start: number, end: number, out: Buffer, pos: number): number => {
  let i = start
  while (i < end) {
    const b = source[i]!
    if (b < 0xf0) {
      out[pos++] = b
      i++
      continue
    }
    const cp = ((b & 0x07) << 18) | ((source[i + 1]! & 0x3f) << 12) | ((source[i + 2]! & 0x3f) << 6) | (source[i + 3]! & 0x3f)
    const v = cp - 0x10000
    const high = 0xd800 | (v >> 10)
    const low = 0xdc00 | (v & 0x3ff)
    out[pos++] = 0xe0 | (high >> 12)
    out[pos++] = 0x80 | ((high >> 6) & 0x3f)
    out[pos++] = 0x80 | (high & 0x3f)
    out[pos++] = 0xe0 | (low >> 12)
    out[pos++] = 0x80 | ((low >> 6) & 0x3f)
    out[pos++] = 0x80 | (low & 0x3f)
    i += 4
  }
  return pos
}

/** Value bytes of row `row`: [start, end) in `source`. */
interface Slices {
  readonly source: (row: number) => Uint8Array
  readonly start: (row: number) => number
  readonly end: (row: number) => number
}

const slicesOf = (data: Arrow.Data): Slices | undefined => {
  switch (data.type.typeId) {
    case Arrow.Type.Utf8:
    case Arrow.Type.Binary: {
      const values = data.values as Uint8Array
      const offsets = data.valueOffsets as Int32Array
      return { source: () => values, start: (row) => offsets[row]!, end: (row) => offsets[row + 1]! }
    }
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.LargeBinary: {
      const values = data.values as Uint8Array
      const offsets = data.valueOffsets as unknown as BigInt64Array
      return { source: () => values, start: (row) => Number(offsets[row]!), end: (row) => Number(offsets[row + 1]!) }
    }
    case Arrow.Type.FixedSizeBinary: {
      const values = data.values as Uint8Array
      const width = (data.type as Arrow.FixedSizeBinary).byteWidth
      return { source: () => values, start: (row) => row * width, end: (row) => (row + 1) * width }
    }
    case Arrow.Type.Utf8View:
    case Arrow.Type.BinaryView: {
      // 16-byte views: int32 length, then the bytes inline (≤ 12) or a prefix, buffer index and offset.
      const views = data.values as Uint8Array
      const view = new DataView(views.buffer, views.byteOffset, views.byteLength)
      const buffers = data.variadicBuffers
      const size = (row: number) => Math.max(0, view.getInt32(row * 16, true))
      return {
        source: (row) => (size(row) <= 12 ? views : buffers[view.getInt32(row * 16 + 8, true)]!),
        start: (row) => (size(row) <= 12 ? row * 16 + 4 : view.getInt32(row * 16 + 12, true)),
        end: (row) => (size(row) <= 12 ? row * 16 + 4 + size(row) : view.getInt32(row * 16 + 12, true) + size(row))
      }
    }
    default:
      return undefined
  }
}

export const texts: Maker = (data, _column, _parameter, target) => {
  if (target !== TypeCode.STRING && target !== TypeCode.NSTRING) return `${data.type} to ${typeCodeName(target)}`
  const slices = slicesOf(data)!
  const { source, start, end } = slices
  const view = data.type.typeId === Arrow.Type.Utf8View
  // Text without 4-byte sequences is its own CESU-8; one check of the whole buffer spares the per-value scan.
  const values = data.values as Uint8Array
  const plain = !view && (isAscii(values) || !hasFourByteSequence(values))
  if (plain) {
    return {
      maxBytes: (row) => end(row) - start(row) + 6,
      write: (row, out, pos) => {
        const s = start(row)
        const e = end(row)
        return copyBytes(values, s, e, out, writeHeader(out, pos, target, e - s))
      }
    }
  }
  return {
    maxBytes: (row) => Math.ceil((end(row) - start(row)) * 1.5) + 6,
    write: (row, out, pos) => {
      const bytes = source(row)
      const s = start(row)
      const e = end(row)
      return writeCesu8(bytes, s, e, out, writeHeader(out, pos, target, cesu8Length(bytes, s, e)))
    }
  }
}

export const binaries: Maker = (data, _column, _parameter, target) => {
  if (target !== TypeCode.BINARY) return `${data.type} to ${typeCodeName(target)}`
  const { source, start, end } = slicesOf(data)!
  return {
    maxBytes: (row) => end(row) - start(row) + 6,
    write: (row, out, pos) => {
      const s = start(row)
      const e = end(row)
      return copyBytes(source(row), s, e, out, writeHeader(out, pos, target, e - s))
    }
  }
}
