/**
 * OSON, the binary image in which JSON column values and DB_TYPE_JSON binds travel (Oracle 21c+ native JSON type), and
 * the BINARY_DOUBLE / BINARY_FLOAT byte forms it shares with pickled images. The text kept in DuckDB is
 * extended-json.ts's.
 *
 * Image layout, as node-oracledb 26 thin reads and writes it (lib/impl/datahandlers/oson.js OsonDecoder/OsonEncoder,
 * constants in lib/impl/datahandlers/constants.js TNS_JSON_*): magic FF 4A 5A, version (1: field names up to 255
 * bytes, 3: up to 65535), UInt16BE flags, for containers a header with the number of field names and the sizes of the
 * field-name segments, the tree segment size, a UInt16 count of tiny nodes, the field names (hash ids, offsets,
 * length-prefixed names sorted by hash id, length and name), then the tree segment: container nodes (objects 0x84,
 * arrays 0xC0, with child-count and offset widths in their low bits) whose children are offsets into the tree
 * segment, and scalar nodes.
 */
import { OraError } from "./errors.ts"
import { decodeNumber, writeNumberString } from "./number.ts"
import { WriteBuffer } from "./wire.ts"

/** A JSON value with OSON's scalar types kept apart. */
export type JsonNode =
  | { readonly kind: "null" }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "string"; readonly value: string }
  /** Oracle NUMBER, as exact decimal text. */
  | { readonly kind: "number"; readonly text: string }
  | { readonly kind: "double" | "float"; readonly value: number }
  /** DATE, TIMESTAMP and TIMESTAMP WITH TIME ZONE as Oracle's 7, 11 and 13 byte forms. */
  | { readonly kind: "date" | "timestamp" | "timestamptz"; readonly bytes: Uint8Array }
  | { readonly kind: "binary"; readonly bytes: Uint8Array }
  /** INTERVAL YEAR TO MONTH (5 bytes) and DAY TO SECOND (11 bytes) in Oracle's wire form. */
  | { readonly kind: "intervalym" | "intervalds"; readonly bytes: Uint8Array }
  | { readonly kind: "array"; readonly items: ReadonlyArray<JsonNode> }
  | { readonly kind: "object"; readonly fields: ReadonlyArray<readonly [string, JsonNode]> }

const MAGIC = [0xff, 0x4a, 0x5a] as const
const VERSION_SHORT_NAMES = 1
const VERSION_LONG_NAMES = 3

/** Primary header flags. */
const Flag = {
  REL_OFFSET_MODE: 0x01,
  INLINE_LEAF: 0x02,
  LEN_IN_PCODE: 0x04,
  NUM_FNAMES_UINT32: 0x08,
  IS_SCALAR: 0x10,
  HASH_ID_UINT8: 0x100,
  NUM_FNAMES_UINT16: 0x400,
  FNAMES_SEG_UINT32: 0x800,
  TREE_SEG_UINT32: 0x1000,
  TINY_NODES_STAT: 0x2000
} as const
const SEC_FNAMES_SEG_UINT16 = 0x100

/** Scalar node types. */
const Node = {
  NULL: 0x30,
  TRUE: 0x31,
  FALSE: 0x32,
  STRING_UINT8: 0x33,
  NUMBER_UINT8: 0x34,
  BINARY_DOUBLE: 0x36,
  STRING_UINT16: 0x37,
  STRING_UINT32: 0x38,
  TIMESTAMP: 0x39,
  BINARY_UINT16: 0x3a,
  BINARY_UINT32: 0x3b,
  DATE: 0x3c,
  INTERVAL_YM: 0x3d,
  INTERVAL_DS: 0x3e,
  TIMESTAMP_TZ: 0x7c,
  TIMESTAMP7: 0x7d,
  BINARY_FLOAT: 0x7f,
  OBJECT: 0x84,
  ARRAY: 0xc0,
  EXTENDED: 0x7b,
  ID: 0x7e
} as const

const unsupported = (what: string) => new OraError(40569, `unsupported JSON scalar in OSON image: ${what}`)

// ------------------------------------------------------------------------------------------------ decoding

/** Decodes an OSON image. */
export const decodeOson = (image: Uint8Array): JsonNode => {
  const b = Buffer.from(image.buffer, image.byteOffset, image.byteLength)
  if (b.length < 6 || b[0] !== MAGIC[0] || b[1] !== MAGIC[1] || b[2] !== MAGIC[2]) throw new OraError(40441, "JSON syntax error: not an OSON image")
  const version = b[3]!
  if (version !== VERSION_SHORT_NAMES && version !== VERSION_LONG_NAMES) throw new OraError(40441, `JSON syntax error: OSON version ${version}`)
  const flags = b.readUInt16BE(4)
  let pos = 6
  const treeSizeWidth = (flags & Flag.TREE_SEG_UINT32) !== 0 ? 4 : 2
  const treeSize = (at: number) => (treeSizeWidth === 4 ? b.readUInt32BE(at) : b.readUInt16BE(at))
  if ((flags & Flag.IS_SCALAR) !== 0) {
    const base = pos + treeSizeWidth
    if (base + treeSize(pos) > b.length) throw truncated()
    return new TreeReader(b, base, [], 1, false).node(base)
  }
  const fieldIdWidth = (flags & Flag.NUM_FNAMES_UINT32) !== 0 ? 4 : (flags & Flag.NUM_FNAMES_UINT16) !== 0 ? 2 : 1
  const numShort = fieldIdWidth === 4 ? b.readUInt32BE(pos) : fieldIdWidth === 2 ? b.readUInt16BE(pos) : b[pos]!
  pos += fieldIdWidth
  const shortOffsetWidth = (flags & Flag.FNAMES_SEG_UINT32) !== 0 ? 4 : 2
  const shortSegSize = shortOffsetWidth === 4 ? b.readUInt32BE(pos) : b.readUInt16BE(pos)
  pos += shortOffsetWidth
  let numLong = 0
  let longSegSize = 0
  let longOffsetWidth = 4
  if (version === VERSION_LONG_NAMES) {
    longOffsetWidth = (b.readUInt16BE(pos) & SEC_FNAMES_SEG_UINT16) !== 0 ? 2 : 4
    numLong = b.readUInt32BE(pos + 2)
    longSegSize = b.readUInt32BE(pos + 6)
    pos += 10
  }
  const declaredTreeSize = treeSize(pos)
  pos += treeSizeWidth + 2 // tree segment size, tiny node count
  const names: Array<string> = []
  const readNames = (count: number, hashWidth: number, offsetWidth: number, segSize: number, lengthWidth: number) => {
    const offsets = pos + count * hashWidth
    const seg = offsets + count * offsetWidth
    for (let i = 0; i < count; i++) {
      const at = seg + (offsetWidth === 2 ? b.readUInt16BE(offsets + 2 * i) : b.readUInt32BE(offsets + 4 * i))
      const len = lengthWidth === 1 ? b.readUInt8(at) : b.readUInt16BE(at)
      if (at + lengthWidth + len > b.length) throw truncated()
      names.push(b.toString("utf8", at + lengthWidth, at + lengthWidth + len))
    }
    pos = seg + segSize
  }
  if (numShort > 0) readNames(numShort, 1, shortOffsetWidth, shortSegSize, 1)
  if (numLong > 0) readNames(numLong, 2, longOffsetWidth, longSegSize, 2)
  if (pos + declaredTreeSize > b.length) throw truncated()
  return new TreeReader(b, pos, names, fieldIdWidth, (flags & Flag.REL_OFFSET_MODE) !== 0).node(pos)
}

const truncated = () => new OraError(40441, "JSON syntax error: truncated OSON image")

/** Reads nodes of a tree segment starting at `base`. */
class TreeReader {
  constructor(
    private readonly b: Buffer,
    private readonly base: number,
    private readonly names: ReadonlyArray<string>,
    private readonly fieldIdWidth: number,
    private readonly relative: boolean
  ) {}

  /** Bytes [from, to) of the image; a range beyond its end is a truncated image. */
  private bytes(from: number, to: number): Buffer {
    if (to > this.b.length) throw truncated()
    return this.b.subarray(from, to)
  }

  private text(from: number, to: number): string {
    return this.bytes(from, to).toString("utf8")
  }

  node(at: number): JsonNode {
    const b = this.b
    const type = b.readUInt8(at)
    if ((type & 0x80) !== 0) return this.container(at, type)
    const p = at + 1
    switch (type) {
      case Node.NULL:
        return { kind: "null" }
      case Node.TRUE:
        return { kind: "boolean", value: true }
      case Node.FALSE:
        return { kind: "boolean", value: false }
      case Node.DATE:
        return { kind: "date", bytes: this.bytes(p, p + 7) }
      case Node.TIMESTAMP7:
        return { kind: "timestamp", bytes: this.bytes(p, p + 7) }
      case Node.TIMESTAMP:
        return { kind: "timestamp", bytes: this.bytes(p, p + 11) }
      case Node.TIMESTAMP_TZ:
        return { kind: "timestamptz", bytes: this.bytes(p, p + 13) }
      case Node.BINARY_FLOAT:
        return { kind: "float", value: decodeBinaryFloat(this.bytes(p, p + 4)) }
      case Node.BINARY_DOUBLE:
        return { kind: "double", value: decodeBinaryDouble(this.bytes(p, p + 8)) }
      case Node.INTERVAL_YM:
        return { kind: "intervalym", bytes: this.bytes(p, p + 5) }
      case Node.INTERVAL_DS:
        return { kind: "intervalds", bytes: this.bytes(p, p + 11) }
      case Node.STRING_UINT8:
        return { kind: "string", value: this.text(p + 1, p + 1 + b.readUInt8(p)) }
      case Node.STRING_UINT16:
        return { kind: "string", value: this.text(p + 2, p + 2 + b.readUInt16BE(p)) }
      case Node.STRING_UINT32:
        return { kind: "string", value: this.text(p + 4, p + 4 + b.readUInt32BE(p)) }
      case Node.NUMBER_UINT8:
        return { kind: "number", text: decodeNumber(this.bytes(p + 1, p + 1 + b.readUInt8(p))) }
      case Node.BINARY_UINT16:
        return { kind: "binary", bytes: this.bytes(p + 2, p + 2 + b.readUInt16BE(p)) }
      case Node.BINARY_UINT32:
        return { kind: "binary", bytes: this.bytes(p + 4, p + 4 + b.readUInt32BE(p)) }
      case Node.ID:
        throw unsupported("document id")
      case Node.EXTENDED:
        throw unsupported(`extended type ${b[p]}`)
    }
    const high = type & 0xf0
    // numbers with their length in the node type: 0x20 / 0x60 families carry length - 1, 0x40 / 0x50 the length
    if (high === 0x20 || high === 0x60) return { kind: "number", text: decodeNumber(this.bytes(p, p + (type & 0x0f) + 1)) }
    if (high === 0x40 || high === 0x50) return { kind: "number", text: decodeNumber(this.bytes(p, p + (type & 0x0f))) }
    // short strings: the node type is the length (0..31)
    if ((type & 0xe0) === 0) return { kind: "string", value: this.text(p, p + type) }
    throw unsupported(`node type 0x${type.toString(16)}`)
  }

  private container(at: number, type: number): JsonNode {
    const b = this.b
    const isObject = (type & 0x40) === 0
    const offsetWidth = (type & 0x20) !== 0 ? 4 : 2
    const readOffset = (p: number) => (offsetWidth === 4 ? b.readUInt32BE(p) : b.readUInt16BE(p))
    let p = at + 1
    let count: number
    let fieldIdsAt: number
    let offsetsAt: number
    const countBits = type & 0x18
    if (countBits === 0x18) {
      // the field ids are shared with another object: an offset to that object's node
      const shared = this.base + readOffset(p)
      p += offsetWidth
      const sharedType = b.readUInt8(shared)
      const sharedBits = sharedType & 0x18
      count = sharedBits === 0 ? b.readUInt8(shared + 1) : sharedBits === 0x08 ? b.readUInt16BE(shared + 1) : b.readUInt32BE(shared + 1)
      fieldIdsAt = shared + 1 + (sharedBits === 0 ? 1 : sharedBits === 0x08 ? 2 : 4)
      offsetsAt = p
    } else {
      const width = countBits === 0 ? 1 : countBits === 0x08 ? 2 : 4
      count = width === 1 ? b.readUInt8(p) : width === 2 ? b.readUInt16BE(p) : b.readUInt32BE(p)
      p += width
      fieldIdsAt = p
      offsetsAt = isObject ? p + count * this.fieldIdWidth : p
    }
    const containerOffset = at - this.base
    const child = (i: number) => {
      const off = readOffset(offsetsAt + i * offsetWidth) + (this.relative ? containerOffset : 0)
      return this.node(this.base + off)
    }
    if (!isObject) return { kind: "array", items: Array.from({ length: count }, (_, i) => child(i)) }
    const fields: Array<readonly [string, JsonNode]> = []
    for (let i = 0; i < count; i++) {
      const idAt = fieldIdsAt + i * this.fieldIdWidth
      const id = this.fieldIdWidth === 1 ? b.readUInt8(idAt) : this.fieldIdWidth === 2 ? b.readUInt16BE(idAt) : b.readUInt32BE(idAt)
      const name = this.names[id - 1]
      if (name === undefined) throw new OraError(40441, `JSON syntax error: OSON field id ${id} out of range`)
      fields.push([name, child(i)])
    }
    return { kind: "object", fields }
  }
}

// ------------------------------------------------------------------------------------------------ encoding

interface FieldName {
  readonly name: string
  readonly bytes: Buffer
  readonly hash: number
  id: number
  offset: number
}

/** FNV-1a (32 bit) of the name's UTF-8 bytes, low byte: OSON's field-name hash id. */
const hashId = (bytes: Uint8Array): number => {
  let h = 0x811c9dc5
  for (const c of bytes) h = Math.imul(h ^ c, 16777619) >>> 0
  return h & 0xff
}

/** Encodes a JSON value as an OSON image. */
export const encodeOson = (value: JsonNode): Buffer => {
  const isScalar = value.kind !== "object" && value.kind !== "array"
  const names = new Map<string, FieldName>()
  const collect = (n: JsonNode): void => {
    if (n.kind === "array") n.items.forEach(collect)
    else if (n.kind === "object")
      for (const [k, v] of n.fields) {
        if (!names.has(k)) {
          const bytes = Buffer.from(k, "utf8")
          if (bytes.length > 65535) throw new OraError(40478, "JSON field name longer than 65535 bytes")
          names.set(k, { name: k, bytes, hash: hashId(bytes), id: 0, offset: 0 })
        }
        collect(v)
      }
  }
  collect(value)
  // names sorted by hash id, then length, then name; field ids follow that order (short names first)
  const order = (a: FieldName, z: FieldName) => a.hash - z.hash || a.bytes.length - z.bytes.length || Buffer.compare(a.bytes, z.bytes)
  const short = [...names.values()].filter((f) => f.bytes.length <= 255).sort(order)
  const long = [...names.values()].filter((f) => f.bytes.length > 255).sort(order)
  ;[...short, ...long].forEach((f, i) => (f.id = i + 1))
  const total = names.size
  const fieldIdWidth = total > 65535 ? 4 : total > 255 ? 2 : 1
  let tree = encodeTree(value, names, fieldIdWidth, 2)
  if (tree.length > 65535) tree = encodeTree(value, names, fieldIdWidth, 4)

  const w = new WriteBuffer(tree.length + 64)
  w.raw(Uint8Array.from(MAGIC))
  w.u8(long.length > 0 ? VERSION_LONG_NAMES : VERSION_SHORT_NAMES)
  let flags: number = Flag.INLINE_LEAF | Flag.LEN_IN_PCODE
  if (tree.length > 65535) flags |= Flag.TREE_SEG_UINT32
  if (isScalar) {
    w.u16be(flags | Flag.IS_SCALAR)
    writeSize(w, tree.length)
    w.raw(tree)
    return w.bytes()
  }
  const shortSeg = nameSegment(short, 1)
  const longSeg = nameSegment(long, 2)
  flags |= Flag.HASH_ID_UINT8 | Flag.TINY_NODES_STAT
  if (fieldIdWidth === 4) flags |= Flag.NUM_FNAMES_UINT32
  else if (fieldIdWidth === 2) flags |= Flag.NUM_FNAMES_UINT16
  if (shortSeg.length > 65535) flags |= Flag.FNAMES_SEG_UINT32
  w.u16be(flags)
  if (fieldIdWidth === 4) w.u32be(short.length)
  else if (fieldIdWidth === 2) w.u16be(short.length)
  else w.u8(short.length)
  writeSize(w, shortSeg.length)
  if (long.length > 0) {
    w.u16be(longSeg.length <= 65535 ? SEC_FNAMES_SEG_UINT16 : 0)
    w.u32be(long.length)
    w.u32be(longSeg.length)
  }
  writeSize(w, tree.length)
  w.u16be(0) // tiny nodes
  writeNames(w, short, 1, shortSeg.length)
  w.raw(shortSeg)
  if (long.length > 0) {
    writeNames(w, long, 2, longSeg.length)
    w.raw(longSeg)
  }
  w.raw(tree)
  return w.bytes()
}

const writeSize = (w: WriteBuffer, n: number) => (n > 65535 ? w.u32be(n) : w.u16be(n))

/** The names of one segment, each prefixed by its length (1 or 2 bytes); records each name's offset. */
const nameSegment = (fields: ReadonlyArray<FieldName>, lengthWidth: number): Buffer => {
  const w = new WriteBuffer(256)
  for (const f of fields) {
    f.offset = w.pos
    if (lengthWidth === 1) w.u8(f.bytes.length)
    else w.u16be(f.bytes.length)
    w.raw(f.bytes)
  }
  return w.bytes()
}

/** Hash ids, then name offsets. */
const writeNames = (w: WriteBuffer, fields: ReadonlyArray<FieldName>, hashWidth: number, segSize: number): void => {
  for (const f of fields) {
    if (hashWidth === 1) w.u8(f.hash)
    else w.u16be(f.hash)
  }
  for (const f of fields) {
    if (segSize > 65535) w.u32be(f.offset)
    else w.u16be(f.offset)
  }
}

/** The tree segment, with container child offsets of `offsetWidth` bytes. */
const encodeTree = (root: JsonNode, names: ReadonlyMap<string, FieldName>, fieldIdWidth: number, offsetWidth: 2 | 4): Buffer => {
  const w = new WriteBuffer(1024)
  const writeOffset = (at: number, v: number) => (offsetWidth === 4 ? w.buf.writeUInt32BE(v, at) : w.buf.writeUInt16BE(v & 0xffff, at))
  const containerHeader = (type: number, count: number) => {
    let t = type | (offsetWidth === 4 ? 0x20 : 0)
    if (count > 65535) t |= 0x10
    else if (count > 255) t |= 0x08
    w.u8(t)
    if (count > 65535) w.u32be(count)
    else if (count > 255) w.u16be(count)
    else w.u8(count)
  }
  const reserve = (n: number) => {
    const at = w.pos
    w.ensure(n)
    w.pos += n
    return at
  }
  const node = (n: JsonNode): void => {
    switch (n.kind) {
      case "array": {
        containerHeader(Node.ARRAY, n.items.length)
        let slot = reserve(n.items.length * offsetWidth)
        for (const item of n.items) {
          writeOffset(slot, w.pos)
          slot += offsetWidth
          node(item)
        }
        return
      }
      case "object": {
        containerHeader(Node.OBJECT, n.fields.length)
        let idSlot = reserve(n.fields.length * fieldIdWidth)
        let slot = reserve(n.fields.length * offsetWidth)
        for (const [k, v] of n.fields) {
          const id = names.get(k)!.id
          if (fieldIdWidth === 1) w.buf[idSlot] = id
          else if (fieldIdWidth === 2) w.buf.writeUInt16BE(id, idSlot)
          else w.buf.writeUInt32BE(id, idSlot)
          idSlot += fieldIdWidth
          writeOffset(slot, w.pos)
          slot += offsetWidth
          node(v)
        }
        return
      }
      default:
        writeScalar(w, n)
    }
  }
  node(root)
  return w.bytes()
}

const numberScratch = new WriteBuffer(32)

/** Oracle NUMBER bytes of a decimal text. */
const numberBytes = (text: string): Buffer => {
  numberScratch.pos = 0
  writeNumberString(numberScratch, text)
  return Buffer.from(numberScratch.buf.subarray(1, numberScratch.pos))
}

const writeScalar = (w: WriteBuffer, n: Exclude<JsonNode, { kind: "array" | "object" }>): void => {
  switch (n.kind) {
    case "null":
      return w.u8(Node.NULL)
    case "boolean":
      return w.u8(n.value ? Node.TRUE : Node.FALSE)
    case "string": {
      const b = Buffer.from(n.value, "utf8")
      if (b.length < 32) w.u8(b.length)
      else if (b.length < 256) {
        w.u8(Node.STRING_UINT8)
        w.u8(b.length)
      } else if (b.length < 65536) {
        w.u8(Node.STRING_UINT16)
        w.u16be(b.length)
      } else {
        w.u8(Node.STRING_UINT32)
        w.u32be(b.length)
      }
      return w.raw(b)
    }
    case "number": {
      const b = numberBytes(n.text)
      if (b.length <= 16) w.u8(0x20 | (b.length - 1))
      else {
        w.u8(Node.NUMBER_UINT8)
        w.u8(b.length)
      }
      return w.raw(b)
    }
    case "double":
      w.u8(Node.BINARY_DOUBLE)
      return w.raw(encodeBinaryDouble(n.value))
    case "float":
      w.u8(Node.BINARY_FLOAT)
      return w.raw(encodeBinaryFloat(n.value))
    case "date":
      w.u8(Node.DATE)
      return w.raw(n.bytes.subarray(0, 7))
    case "timestamp":
      // a timestamp without fraction travels in the 7-byte form
      if (n.bytes.length < 11 || Buffer.from(n.bytes.buffer, n.bytes.byteOffset, n.bytes.byteLength).readUInt32BE(7) === 0) {
        w.u8(Node.TIMESTAMP7)
        return w.raw(n.bytes.subarray(0, 7))
      }
      w.u8(Node.TIMESTAMP)
      return w.raw(n.bytes.subarray(0, 11))
    case "timestamptz":
      w.u8(Node.TIMESTAMP_TZ)
      return w.raw(n.bytes.subarray(0, 13))
    case "binary":
      if (n.bytes.length < 65536) {
        w.u8(Node.BINARY_UINT16)
        w.u16be(n.bytes.length)
      } else {
        w.u8(Node.BINARY_UINT32)
        w.u32be(n.bytes.length)
      }
      return w.raw(n.bytes)
    case "intervalym":
      w.u8(Node.INTERVAL_YM)
      return w.raw(n.bytes)
    case "intervalds":
      w.u8(Node.INTERVAL_DS)
      return w.raw(n.bytes)
  }
}

// ------------------------------------------------------------------------------------------------ IEEE scalars

/** Oracle's order-preserving BINARY_DOUBLE / BINARY_FLOAT byte forms (sign bit set for positives, all bits flipped for negatives). */
const toOracleIeee = (c: Buffer): Buffer => {
  if ((c[0]! & 0x80) === 0) c[0] = c[0]! | 0x80
  else for (let k = 0; k < c.length; k++) c[k] = ~c[k]! & 0xff
  return c
}
const fromOracleIeee = (b: Uint8Array): Buffer => {
  const c = Buffer.from(b)
  if ((c[0]! & 0x80) !== 0) c[0] = c[0]! & 0x7f
  else for (let k = 0; k < c.length; k++) c[k] = ~c[k]! & 0xff
  return c
}
/** BINARY_DOUBLE bytes of a number. */
export const encodeBinaryDouble = (v: number): Buffer => {
  const c = Buffer.alloc(8)
  c.writeDoubleBE(v)
  return toOracleIeee(c)
}
/** BINARY_FLOAT bytes of a number. */
export const encodeBinaryFloat = (v: number): Buffer => {
  const c = Buffer.alloc(4)
  c.writeFloatBE(v)
  return toOracleIeee(c)
}
/** The number of BINARY_DOUBLE bytes. */
export const decodeBinaryDouble = (b: Uint8Array): number => fromOracleIeee(b).readDoubleBE(0)
/** The number of BINARY_FLOAT bytes. */
export const decodeBinaryFloat = (b: Uint8Array): number => fromOracleIeee(b).readFloatBE(0)
