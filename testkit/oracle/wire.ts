/**
 * TTC primitive encoders/decoders used by the Oracle test server.
 *
 * Layouts follow what node-oracledb 26.0.0 thin reads and writes
 * (node_modules/oracledb/lib/impl/datahandlers/buffer.js, lib/thin/protocol/packet.js):
 * UB2/UB4/UB8 are a length byte followed by big-endian bytes, "bytes with length" is a
 * length byte (<= 252) or 0xFE followed by UB4-prefixed chunks and a UB4 0 terminator.
 */

import { GrowableBuffer } from "../common/GrowableBuffer.ts"

/** Length byte announcing a chunked value. */
export const LONG_LENGTH_INDICATOR = 0xfe
/** Length byte announcing NULL. */
export const NULL_LENGTH_INDICATOR = 0xff
const MAX_SHORT_LENGTH = 252
const CHUNK_SIZE = 65536

/** Thrown when a request is shorter than its own structure says (malformed packet). */
export class TruncatedRequestError extends Error {
  constructor() {
    super("truncated TTC request")
  }
}

/** Growable output buffer with the TTC primitive writers. */
export class WriteBuffer extends GrowableBuffer {
  constructor(initialSize = 8192) {
    super(initialSize)
  }

  /** Continues from `other`'s bytes instead of its own, without copying them (`other` is not written to again). */
  adopt(other: WriteBuffer): void {
    this.buf = other.buf
    this.pos = other.pos
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos)
  }

  u16be(v: number): void {
    this.ensure(2)
    this.buf.writeUInt16BE(v, this.pos)
    this.pos += 2
  }

  u16le(v: number): void {
    this.ensure(2)
    this.buf.writeUInt16LE(v, this.pos)
    this.pos += 2
  }

  u32be(v: number): void {
    this.ensure(4)
    this.buf.writeUInt32BE(v >>> 0, this.pos)
    this.pos += 4
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length)
    this.buf.set(b, this.pos)
    this.pos += b.length
  }

  /** Variable-length unsigned integer (UB2/UB4/UB8 share one encoding). */
  ub(v: number): void {
    this.ensure(9)
    const b = this.buf
    if (v === 0) {
      b[this.pos++] = 0
    } else if (v <= 0xff) {
      b[this.pos++] = 1
      b[this.pos++] = v
    } else if (v <= 0xffff) {
      b[this.pos++] = 2
      b.writeUInt16BE(v, this.pos)
      this.pos += 2
    } else if (v <= 0xffffffff) {
      b[this.pos++] = 4
      b.writeUInt32BE(v, this.pos)
      this.pos += 4
    } else {
      b[this.pos++] = 8
      b.writeBigUInt64BE(BigInt(v), this.pos)
      this.pos += 8
    }
  }

  /** Signed variable-length integer (SB2/SB4): the length byte's high bit marks a negative value. */
  sb(v: number): void {
    if (v >= 0) {
      this.ub(v)
      return
    }
    const a = -v
    if (a <= 0xff) {
      this.u8(0x81)
      this.u8(a)
    } else if (a <= 0xffff) {
      this.u8(0x82)
      this.u16be(a)
    } else {
      this.u8(0x84)
      this.u32be(a)
    }
  }

  /** Bytes prefixed by their length; chunked when longer than 252 bytes. */
  bytesWithLength(b: Uint8Array): void {
    const n = b.length
    if (n <= MAX_SHORT_LENGTH) {
      this.ensure(n + 1)
      this.buf[this.pos++] = n
      this.buf.set(b, this.pos)
      this.pos += n
      return
    }
    this.u8(LONG_LENGTH_INDICATOR)
    let start = 0
    while (start < n) {
      const len = Math.min(CHUNK_SIZE, n - start)
      this.ub(len)
      this.raw(b.subarray(start, start + len))
      start += len
    }
    this.ub(0)
  }

  /** `source[start, end)` prefixed by its length, as {@link WriteBuffer.bytesWithLength}, without a view when short. */
  bytesRangeWithLength(source: Uint8Array, start: number, end: number): void {
    const n = end - start
    if (n > MAX_SHORT_LENGTH) return this.bytesWithLength(source.subarray(start, end))
    this.ensure(n + 1)
    const buf = this.buf
    let at = this.pos
    buf[at++] = n
    for (let k = start; k < end; k++) buf[at++] = source[k]!
    this.pos = at
  }

  /** UTF-8 string with length prefix (short strings are written without an intermediate Buffer). */
  str(s: string): void {
    if (s.length <= 84) {
      // at most 3 bytes per UTF-16 unit, so <= 252 bytes
      this.ensure(1 + s.length * 3)
      const n = this.buf.write(s, this.pos + 1, "utf8")
      this.buf[this.pos] = n
      this.pos += n + 1
      return
    }
    this.bytesWithLength(Buffer.from(s, "utf8"))
  }

  /** UB4 byte length followed by the string with length (the layout used for names in describe info). */
  strWithUb4Length(s: string | undefined): void {
    if (s === undefined || s.length === 0) {
      this.ub(0)
      return
    }
    const b = Buffer.from(s, "utf8")
    this.ub(b.length)
    this.bytesWithLength(b)
  }
}

/** Reader over one complete TTC request payload. */
export class ReadBuffer {
  pos: number

  constructor(readonly buf: Buffer, start = 0) {
    this.pos = start
  }

  remaining(): number {
    return this.buf.length - this.pos
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new TruncatedRequestError()
  }

  u8(): number {
    this.need(1)
    return this.buf[this.pos++]!
  }

  peek(): number {
    this.need(1)
    return this.buf[this.pos]!
  }

  u16be(): number {
    this.need(2)
    const v = this.buf.readUInt16BE(this.pos)
    this.pos += 2
    return v
  }

  u16le(): number {
    this.need(2)
    const v = this.buf.readUInt16LE(this.pos)
    this.pos += 2
    return v
  }

  u32be(): number {
    this.need(4)
    const v = this.buf.readUInt32BE(this.pos)
    this.pos += 4
    return v
  }

  take(n: number): Buffer {
    this.need(n)
    const b = this.buf.subarray(this.pos, this.pos + n)
    this.pos += n
    return b
  }

  skip(n: number): void {
    this.need(n)
    this.pos += n
  }

  /** Variable-length integer; negative when the length byte's high bit is set. */
  ub(): number {
    let size = this.u8()
    if (size === 0) return 0
    const negative = (size & 0x80) !== 0
    size &= 0x7f
    this.need(size)
    let v = 0
    for (let i = 0; i < size; i++) v = v * 256 + this.buf[this.pos++]!
    return negative ? -v : v
  }

  /** Bytes with length; `null` for a zero or NULL length. */
  bytesWithLength(): Buffer | null {
    const n = this.u8()
    if (n === 0 || n === NULL_LENGTH_INDICATOR) return null
    if (n !== LONG_LENGTH_INDICATOR) return this.take(n)
    const parts: Array<Buffer> = []
    for (;;) {
      const len = this.ub()
      if (len === 0) break
      parts.push(this.take(len))
    }
    return Buffer.concat(parts)
  }

  /** Key/value pair as written by WritePacket.writeKeyValue. */
  keyValue(): { key: string; value: string; flags: number } {
    const keyLen = this.ub()
    const key = keyLen > 0 ? (this.bytesWithLength()?.toString("utf8") ?? "") : ""
    const valLen = this.ub()
    const value = valLen > 0 ? (this.bytesWithLength()?.toString("utf8") ?? "") : ""
    const flags = this.ub()
    return { key, value, flags }
  }
}
