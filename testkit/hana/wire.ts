/**
 * Byte-level framing of the SAP HANA SQL Command Network Protocol as spoken by hdb 2.30.1:
 * packet header (32 B), segment header (24 B), part header (16 B), option lists and "Fields".
 * Layouts: as hdb's lib/protocol reads and writes them (node_modules/hdb/lib/protocol).
 */
import { GrowableBuffer } from "../common/GrowableBuffer.ts"

/** Message types of request segments (hdb lib/protocol/common/MessageType.js). */
export const MessageType = {
  EXECUTE_DIRECT: 2,
  PREPARE: 3,
  EXECUTE: 13,
  READ_LOB: 16,
  WRITE_LOB: 17,
  AUTHENTICATE: 65,
  CONNECT: 66,
  COMMIT: 67,
  ROLLBACK: 68,
  CLOSE_RESULT_SET: 69,
  DROP_STATEMENT_ID: 70,
  FETCH_NEXT: 71,
  DISCONNECT: 77,
  DB_CONNECT_INFO: 82,
  CLIENT_PING: 94
} as const

/** Part kinds (hdb lib/protocol/common/PartKind.js); the server only sends kinds hdb can name. */
export const PartKind = {
  COMMAND: 3,
  RESULT_SET: 5,
  ERROR: 6,
  STATEMENT_ID: 10,
  TRANSACTION_ID: 11,
  ROWS_AFFECTED: 12,
  RESULT_SET_ID: 13,
  READ_LOB_REQUEST: 17,
  READ_LOB_REPLY: 18,
  WRITE_LOB_REQUEST: 28,
  CLIENT_CONTEXT: 29,
  WRITE_LOB_REPLY: 30,
  PARAMETERS: 32,
  AUTHENTICATION: 33,
  CLIENT_ID: 35,
  STATEMENT_CONTEXT: 39,
  OUTPUT_PARAMETERS: 41,
  CONNECT_OPTIONS: 42,
  COMMIT_OPTIONS: 43,
  FETCH_OPTIONS: 44,
  FETCH_SIZE: 45,
  PARAMETER_METADATA: 47,
  RESULT_SET_METADATA: 48,
  CLIENT_INFO: 57,
  TRANSACTION_FLAGS: 64,
  DB_CONNECT_INFO: 67,
  CLIENT_PING: 82
} as const

/** Function codes of reply segments (hdb lib/protocol/common/FunctionCode.js). */
export const FunctionCode = {
  NIL: 0,
  DDL: 1,
  INSERT: 2,
  UPDATE: 3,
  DELETE: 4,
  SELECT: 5,
  SELECT_FOR_UPDATE: 6,
  DB_PROCEDURE_CALL: 8,
  DB_PROCEDURE_CALL_WITH_RESULT_SET: 9,
  FETCH: 10,
  COMMIT: 11,
  ROLLBACK: 12,
  DISCONNECT: 18
} as const

/** Segment kinds. */
export const SegmentKind = { REQUEST: 1, REPLY: 2, ERROR: 5 } as const

export const PACKET_HEADER_LENGTH = 32
export const SEGMENT_HEADER_LENGTH = 24
export const PART_HEADER_LENGTH = 16

/** One part of a request segment. */
export interface RequestPart {
  readonly kind: number
  readonly attributes: number
  readonly argc: number
  readonly data: Buffer
}

/** A decoded request packet (hdb sends exactly one segment per packet). */
export interface Request {
  readonly sessionId: bigint
  readonly packetCount: number
  readonly messageType: number
  readonly commit: boolean
  readonly commandOptions: number
  readonly parts: readonly RequestPart[]
}

/** Thrown for bytes that do not form a valid request: the session is closed. */
export class MalformedPacket extends Error {
  override readonly name = "MalformedPacket"
}

/**
 * Whether a request packet holds more bytes (header VARPARTLENGTH, offset 12) than the buffer size its own header
 * declares (VARPARTSIZE, offset 16: hdb writes its packetSizeLimit less the 32-byte header, PhysicalConnection.send).
 * A client that splits its data wrongly sends such a packet. HANA refuses it with error 1033 "error while parsing
 * protocol: invalid communication buffer structure" (SQLSTATE HY000): hdb before its packet-size check sent a 144 KB
 * statement in a packet declaring 128 KiB and got exactly that, and the same request passed once the declared size
 * was raised (SAP/node-hdb issues #15 and #19; PyHDB issue #113 saw the same with its 128 KiB message size).
 */
export const exceedsDeclaredSize = (packet: Buffer): boolean =>
  packet.length >= PACKET_HEADER_LENGTH && packet.readUInt32LE(12) > packet.readUInt32LE(16)

/** The request's first part of `kind`, if any. */
export const requestPart = (request: Request, kind: number): RequestPart | undefined => request.parts.find((p) => p.kind === kind)

/** Decodes one request packet (header + varpart). */
export const decodeRequest = (packet: Buffer): Request => {
  if (packet.length < PACKET_HEADER_LENGTH + SEGMENT_HEADER_LENGTH) throw new MalformedPacket("packet too short")
  const sessionId = packet.readBigInt64LE(0)
  const packetCount = packet.readUInt32LE(8)
  const varpartLength = packet.readUInt32LE(12)
  const segments = packet.readInt16LE(20)
  if (packet[22]! & 2) throw new MalformedPacket("compressed packets are not supported")
  if (segments < 1 || varpartLength + PACKET_HEADER_LENGTH > packet.length) throw new MalformedPacket("bad packet header")
  const seg = PACKET_HEADER_LENGTH
  const segmentLength = packet.readInt32LE(seg)
  const noOfParts = packet.readInt16LE(seg + 8)
  if (segmentLength < SEGMENT_HEADER_LENGTH || seg + segmentLength > packet.length || noOfParts < 0) {
    throw new MalformedPacket("bad segment header")
  }
  const messageType = packet.readInt8(seg + 13)
  const commit = packet[seg + 14] !== 0
  const commandOptions = packet[seg + 15]!
  const parts: RequestPart[] = []
  let offset = seg + SEGMENT_HEADER_LENGTH
  const end = seg + segmentLength
  for (let i = 0; i < noOfParts; i++) {
    if (offset + PART_HEADER_LENGTH > end) throw new MalformedPacket("part header beyond segment")
    const kind = packet[offset]!
    const attributes = packet[offset + 1]!
    let argc = packet.readInt16LE(offset + 2)
    if (argc === -1) argc = packet.readInt32LE(offset + 4)
    const length = packet.readInt32LE(offset + 8)
    const start = offset + PART_HEADER_LENGTH
    if (length < 0 || start + length > end) throw new MalformedPacket("part data beyond segment")
    parts.push({ kind, attributes, argc, data: packet.subarray(start, start + length) })
    offset = start + align8(length)
  }
  return { sessionId, packetCount, messageType, commit, commandOptions, parts }
}

/** Rounds up to a multiple of 8. */
export const align8 = (n: number): number => (n + 7) & ~7

/** A growable byte buffer with little-endian writers; hot loops may use `buf`/`pos` directly after `ensure`. */
export class ByteWriter extends GrowableBuffer {
  constructor(initial = 4096) {
    super(initial)
  }
  i16(v: number): void {
    this.ensure(2)
    this.buf.writeInt16LE(v, this.pos)
    this.pos += 2
  }
  i32(v: number): void {
    this.ensure(4)
    this.buf.writeInt32LE(v, this.pos)
    this.pos += 4
  }
  u32(v: number): void {
    this.ensure(4)
    this.buf.writeUInt32LE(v >>> 0, this.pos)
    this.pos += 4
  }
  i64(v: bigint): void {
    this.ensure(8)
    this.buf.writeBigInt64LE(v, this.pos)
    this.pos += 8
  }
  f64(v: number): void {
    this.ensure(8)
    this.buf.writeDoubleLE(v, this.pos)
    this.pos += 8
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length)
    this.buf.set(b, this.pos)
    this.pos += b.length
  }
  zeros(n: number): void {
    this.ensure(n)
    this.buf.fill(0, this.pos, this.pos + n)
    this.pos += n
  }
  /** Length indicator used by strings/binaries in result sets and Fields-less values. */
  lengthIndicator(n: number): void {
    if (n <= 245) this.u8(n)
    else if (n <= 32767) {
      this.u8(246)
      this.i16(n)
    } else {
      this.u8(247)
      this.i32(n)
    }
  }
  result(): Buffer {
    return this.buf.subarray(0, this.pos)
  }
}

/** A part to send. */
export interface ReplyPart {
  readonly kind: number
  readonly attributes?: number
  readonly argc: number
  readonly data: Uint8Array
}

/** Encodes a reply packet with one segment. */
export const encodeReply = (
  sessionId: bigint,
  packetCount: number,
  segmentKind: number,
  functionCode: number,
  parts: readonly ReplyPart[]
): Buffer => {
  let segmentLength = SEGMENT_HEADER_LENGTH
  for (const p of parts) segmentLength += PART_HEADER_LENGTH + align8(p.data.length)
  const out = Buffer.alloc(PACKET_HEADER_LENGTH + segmentLength)
  out.writeBigInt64LE(sessionId, 0)
  out.writeUInt32LE(packetCount, 8)
  out.writeUInt32LE(segmentLength, 12)
  out.writeUInt32LE(segmentLength, 16)
  out.writeInt16LE(1, 20)
  let o = PACKET_HEADER_LENGTH
  out.writeInt32LE(segmentLength, o)
  out.writeInt32LE(0, o + 4)
  out.writeInt16LE(parts.length, o + 8)
  out.writeInt16LE(1, o + 10)
  out.writeInt8(segmentKind, o + 12)
  out.writeInt16LE(functionCode, o + 14)
  o += SEGMENT_HEADER_LENGTH
  for (const p of parts) {
    out[o] = p.kind
    out[o + 1] = p.attributes ?? 0
    if (p.argc > 32767) {
      out.writeInt16LE(-1, o + 2)
      out.writeInt32LE(p.argc, o + 4)
    } else {
      out.writeInt16LE(p.argc, o + 2)
    }
    out.writeInt32LE(p.data.length, o + 8)
    out.writeInt32LE(align8(p.data.length), o + 12)
    out.set(p.data, o + PART_HEADER_LENGTH)
    o += PART_HEADER_LENGTH + align8(p.data.length)
  }
  return out
}

/** Option value types (hdb lib/protocol/data/Options.js). */
export const OptionType = { BOOLEAN: 28, INT: 3, BIGINT: 4, DOUBLE: 7, STRING: 29, BSTRING: 33 } as const

/** One option of an option-list part. */
export type OptionValue =
  | { readonly name: number; readonly type: 28; readonly value: boolean }
  | { readonly name: number; readonly type: 3; readonly value: number }
  | { readonly name: number; readonly type: 4; readonly value: bigint }
  | { readonly name: number; readonly type: 7; readonly value: number }
  | { readonly name: number; readonly type: 29; readonly value: string }
  | { readonly name: number; readonly type: 33; readonly value: Buffer }

/** Decodes an option list part (`argc` options). */
export const decodeOptions = (part: RequestPart): Map<number, OptionValue["value"]> => {
  const out = new Map<number, OptionValue["value"]>()
  const b = part.data
  let o = 0
  for (let i = 0; i < part.argc && o + 2 <= b.length; i++) {
    const name = b[o]!
    const type = b[o + 1]!
    o += 2
    switch (type) {
      case OptionType.BOOLEAN:
        out.set(name, b[o] !== 0)
        o += 1
        break
      case OptionType.INT:
        out.set(name, b.readInt32LE(o))
        o += 4
        break
      case OptionType.BIGINT:
        out.set(name, b.readBigInt64LE(o))
        o += 8
        break
      case OptionType.DOUBLE:
        out.set(name, b.readDoubleLE(o))
        o += 8
        break
      case OptionType.STRING:
      case OptionType.BSTRING: {
        const len = b.readInt16LE(o)
        o += 2
        out.set(name, type === OptionType.STRING ? b.toString("utf8", o, o + len) : Buffer.from(b.subarray(o, o + len)))
        o += len
        break
      }
      default:
        throw new MalformedPacket(`unknown option type ${type}`)
    }
  }
  return out
}

/** Encodes an option list. */
export const encodeOptions = (options: readonly OptionValue[]): Buffer => {
  const w = new ByteWriter(256)
  for (const opt of options) {
    w.u8(opt.name)
    w.u8(opt.type)
    switch (opt.type) {
      case OptionType.BOOLEAN:
        w.u8(opt.value ? 1 : 0)
        break
      case OptionType.INT:
        w.i32(opt.value)
        break
      case OptionType.BIGINT:
        w.i64(opt.value)
        break
      case OptionType.DOUBLE:
        w.f64(opt.value)
        break
      case OptionType.STRING: {
        const b = Buffer.from(opt.value, "utf8")
        w.i16(b.length)
        w.bytes(b)
        break
      }
      case OptionType.BSTRING:
        w.i16(opt.value.length)
        w.bytes(opt.value)
        break
    }
  }
  return Buffer.from(w.result())
}

/** What {@link readLengthIndicator} returns for 255, the indicator of a NULL value. */
export const NULL_LENGTH = -1

/** Bytes the length indicator starting with byte `first` takes: 3 for 246 (u16 follows), 5 for 247 (u32), else 1. */
export const lengthIndicatorSize = (first: number): number => (first === 246 ? 3 : first === 247 ? 5 : 1)

/**
 * The length announced by the length indicator of a string or binary value at `data[offset]` (the form
 * {@link ByteWriter.lengthIndicator} writes: up to 245 in the byte itself, 246 + u16, 247 + u32), or
 * {@link NULL_LENGTH} for 255. Lengths are unsigned, so a corrupt indicator cannot move a reader backwards. The caller
 * checks that {@link lengthIndicatorSize} bytes are there. Allocation-free: it is on the bulk-insert hot path.
 */
export const readLengthIndicator = (data: Buffer, offset: number): number => {
  const first = data[offset]!
  if (first === 246) return data.readUInt16LE(offset + 1)
  if (first === 247) return data.readUInt32LE(offset + 1)
  return first === 255 ? NULL_LENGTH : first
}

/**
 * The length of the string or binary value whose length indicator is at `data[offset]` ({@link readLengthIndicator}),
 * after checking that the indicator and the value lie within `data`; the value starts
 * {@link lengthIndicatorSize}(data[offset]) bytes further. Allocation-free: it is on the bulk-insert hot path.
 */
export const readLengthPrefixed = (data: Buffer, offset: number): number => {
  if (offset >= data.length) throw new MalformedPacket("parameter data truncated")
  const indicator = lengthIndicatorSize(data[offset]!)
  if (offset + indicator > data.length) throw new MalformedPacket("parameter data truncated")
  const len = readLengthIndicator(data, offset)
  if (len !== NULL_LENGTH && offset + indicator + len > data.length) throw new MalformedPacket("parameter data truncated")
  return len
}

/** Decodes "Fields" (u16 count, then length-prefixed fields; hdb lib/protocol/data/Fields.js). */
export const decodeFields = (b: Buffer): Buffer[] => {
  if (b.length < 2) throw new MalformedPacket("fields too short")
  const count = b.readUInt16LE(0)
  let o = 2
  const out: Buffer[] = []
  for (let i = 0; i < count; i++) {
    if (o >= b.length) throw new MalformedPacket("fields truncated")
    let len = b[o]!
    o += 1
    if (len === 246) {
      len = b.readUInt16LE(o)
      o += 2
    } else if (len === 247) {
      len = b.readUInt32LE(o)
      o += 4
    } else if (len === 255) {
      len = b.readUInt16BE(o)
      o += 2
    }
    if (o + len > b.length) throw new MalformedPacket("field beyond data")
    out.push(b.subarray(o, o + len))
    o += len
  }
  return out
}

/** Encodes "Fields". */
export const encodeFields = (fields: readonly Uint8Array[]): Buffer => {
  const w = new ByteWriter(256)
  w.ensure(2)
  w.buf.writeUInt16LE(fields.length, 0)
  w.pos = 2
  for (const f of fields) {
    if (f.length <= 245) w.u8(f.length)
    else if (f.length <= 0xffff) {
      w.u8(246)
      w.ensure(2)
      w.buf.writeUInt16LE(f.length, w.pos)
      w.pos += 2
    } else {
      w.u8(247)
      w.u32(f.length)
    }
    w.bytes(f)
  }
  return Buffer.from(w.result())
}
