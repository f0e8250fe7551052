/**
 * Named-type values on the wire: the pickled images of OBJECT and collection values (what node-oracledb thin unpacks
 * into a DbObject), the XMLType image, the DbObject wrapper of a column or bind value, and the type descriptor
 * segment (TDS) that describes a type's attributes.
 *
 * Layouts learnt from node-oracledb 26 thin: lib/thin/dbObject.js (DbObjectPickleBuffer readHeader/writeHeader,
 * _packData/_unpackDataFromBuf, _packValue/_unpackValue, readXML), lib/impl/datahandlers/buffer.js
 * (readDbObject/writeDbObject), lib/thin/connection.js (_parseTDS, _parseTDSAttr) and the TNS_OBJ_* constants of
 * lib/thin/protocol/constants.js.
 *
 * Values are held as JsonNode trees (see oson.ts): an object is an array of its attribute values in declared order,
 * a collection an array of its elements, an atomically null object or collection is JSON null.
 */
import { decodeNumber, writeNumberString } from "./number.ts"
import { decimalOf, fitToPrecision, fixedText } from "./decimal.ts"
import { oracleBytesOf, parseDatetimeText, utcNanos } from "./datetime.ts"
import { decodeBinaryDouble, decodeBinaryFloat, encodeBinaryDouble, encodeBinaryFloat, type JsonNode } from "./oson.ts"
import type { Member, NamedType, OraType } from "./type-shapes.ts"
import { WriteBuffer } from "./wire.ts"
import { OraError } from "./errors.ts"

export type { Attribute, Member, NamedType } from "./type-shapes.ts"

const Image = {
  IS_VERSION_81: 0x80,
  IS_COLLECTION: 0x08,
  NO_PREFIX_SEG: 0x04,
  VERSION: 1,
  ATOMIC_NULL: 253,
  NULL_LENGTH: 255,
  LONG_LENGTH: 254,
  MAX_SHORT_LENGTH: 245
} as const

/** TDS type codes (TNS_OBJ_TDS_TYPE_*). */
const Tds = {
  CHAR: 1,
  DATE: 2,
  FLOAT: 5,
  NUMBER: 6,
  VARCHAR: 7,
  BOOLEAN: 8,
  RAW: 19,
  TIMESTAMP: 21,
  TIMESTAMP_TZ: 23,
  OBJ: 27,
  COLL: 28,
  CLOB: 29,
  BLOB: 30,
  TIMESTAMP_LTZ: 33,
  BINARY_FLOAT: 37,
  BINARY_DOUBLE: 45
} as const

/** Collection kinds in the TDS (TNS_OBJ_PLSQL_INDEX_TABLE, TNS_OBJ_NESTED_TABLE, TNS_OBJ_VARRAY). */
const COLLECTION_CODE = { indexed: 1, table: 2, varray: 3 } as const

/** Collection flags of an index-by table's image (TNS_OBJ_HAS_INDEXES): each element follows its 4-byte subscript. */
const HAS_INDEXES = 0x10

const XML_TYPE_STRING = 0x0004
const EXTENT_OID = Buffer.from("00000000000000000000000000010001", "hex")

const isCollection = (t: NamedType) => t.kind === "varray" || t.kind === "table"

/** The TOID sent with a value: a 4-byte prefix, the type OID and the extent OID (dbObject.js constructor). */
export const toidOf = (t: NamedType): Buffer => Buffer.concat([Buffer.from([0, 0x22, 0x02, 0x08]), t.oid, EXTENT_OID])

// ------------------------------------------------------------------------------------------------ TDS

/** The type descriptor segment of a type (what dbms_pickler.get_type_shape returns as TDS). */
export const typeDescriptor = (t: NamedType): Buffer => {
  const w = new WriteBuffer(128)
  w.u32be(0) // end offset, patched below
  w.u8(1) // version op code
  w.u8(1) // version
  w.u16be(0)
  const numAttrs = isCollection(t) ? 1 : t.kind === "xmltype" ? 0 : t.attributes.length
  w.u16be(numAttrs)
  w.u8(0) // TDS attributes
  w.u8(0x26) // start ADT op code
  w.u16be(0) // ADT number
  const indexAt = w.pos
  w.u32be(0) // offset to the index table, patched below
  if (isCollection(t)) {
    w.u8(Tds.COLL)
    const elementAt = w.pos
    w.u32be(0)
    w.u32be(t.limit)
    w.u8(t.indexed === true ? COLLECTION_CODE.indexed : COLLECTION_CODE[t.kind as "varray" | "table"])
    w.buf.writeUInt32BE(w.pos, elementAt)
    writeTdsMember(w, t.element!)
  } else for (const a of t.attributes) writeTdsMember(w, a.member)
  w.buf.writeUInt32BE(w.pos, indexAt)
  w.buf.writeUInt32BE(w.pos, 0)
  return w.bytes()
}

const writeTdsMember = (w: WriteBuffer, m: Member): void => {
  if ("named" in m) {
    w.u8(Tds.OBJ)
    w.raw(Buffer.alloc(5))
    return
  }
  const t = m.scalar
  switch (t.kind) {
    case "number":
      if (t.dictName === "FLOAT") {
        w.u8(Tds.FLOAT)
        w.u8(t.precision)
      } else {
        w.u8(Tds.NUMBER)
        w.u8(t.precision & 0xff)
        w.u8(t.scale & 0xff)
      }
      return
    case "varchar":
    case "nvarchar":
      w.u8(t.dty === 96 ? Tds.CHAR : Tds.VARCHAR)
      w.u16be(t.charSize)
      w.u8(t.csfrm)
      w.u16be(t.csfrm === 2 ? 2000 : 873)
      return
    case "raw":
      w.u8(Tds.RAW)
      w.u16be(t.maxSize)
      return
    case "date":
      return w.u8(Tds.DATE)
    case "timestamp":
    case "timestamptz":
    case "timestampltz":
      w.u8(t.kind === "timestamp" ? Tds.TIMESTAMP : t.kind === "timestamptz" ? Tds.TIMESTAMP_TZ : Tds.TIMESTAMP_LTZ)
      w.u8(t.scale)
      return
    case "float":
      return w.u8(Tds.BINARY_FLOAT)
    case "double":
      return w.u8(Tds.BINARY_DOUBLE)
    case "boolean":
      return w.u8(Tds.BOOLEAN)
    case "clob":
    case "nclob":
      return w.u8(Tds.CLOB)
    case "blob":
      return w.u8(Tds.BLOB)
    default:
      throw new OraError(22800, `invalid user-defined type: attribute type ${t.dictName} is not supported`)
  }
}

/** Whether an attribute or element type can be held by named-type values here. */
export const supportedMember = (t: OraType): boolean =>
  ["number", "varchar", "nvarchar", "raw", "date", "timestamp", "timestamptz", "timestampltz", "float", "double"].includes(t.kind)

// ------------------------------------------------------------------------------------------------ images

const writeLength = (w: WriteBuffer, n: number): void => {
  if (n <= Image.MAX_SHORT_LENGTH) w.u8(n)
  else {
    w.u8(Image.LONG_LENGTH)
    w.u32be(n)
  }
}

const writeBytesWithLength = (w: WriteBuffer, b: Uint8Array): void => {
  writeLength(w, b.length)
  w.raw(b)
}

/**
 * The pickled image of a non-null OBJECT or collection value (TIMESTAMP WITH LOCAL TIME ZONE values in the database
 * time zone, `dbTzOffsetMinutes` east of UTC).
 */
export const packImage = (t: NamedType, value: JsonNode, dbTzOffsetMinutes: number): Buffer => {
  const w = new WriteBuffer(256)
  const collection = isCollection(t)
  w.u8(Image.IS_VERSION_81 | (collection ? Image.IS_COLLECTION : Image.NO_PREFIX_SEG))
  w.u8(Image.VERSION)
  w.u8(Image.LONG_LENGTH)
  w.u32be(0) // total length, patched below
  if (collection) {
    w.u8(1) // prefix segment length
    w.u8(1) // prefix segment
  }
  packBody(w, t, value, dbTzOffsetMinutes)
  w.buf.writeUInt32BE(w.pos, 3)
  return w.bytes()
}

const itemsOf = (t: NamedType, value: JsonNode): ReadonlyArray<JsonNode> => {
  if (value.kind !== "array") throw new OraError(932, `inconsistent datatypes: expected ${t.schema}.${t.name} got ${value.kind}`)
  return value.items
}

const packBody = (w: WriteBuffer, t: NamedType, value: JsonNode, dbTz: number): void => {
  if (t.indexed === true && value.kind === "object") {
    // an index-by table: its elements by subscript (dbObject.js _packData / _unpackDataFromBuf)
    w.u8(HAS_INDEXES)
    writeLength(w, value.fields.length)
    for (const [key, item] of value.fields) {
      w.u32be(Number(key) >>> 0)
      packValue(w, t.element!, item, true, dbTz)
    }
    return
  }
  const items = itemsOf(t, value)
  if (isCollection(t)) {
    if (t.kind === "varray" && t.limit > 0 && items.length > t.limit) throw new OraError(22909, "exceeded maximum VARRAY limit")
    w.u8(0) // collection flags
    writeLength(w, items.length)
    for (const item of items) packValue(w, t.element!, item, true, dbTz)
    return
  }
  t.attributes.forEach((a, i) => packValue(w, a.member, items[i] ?? { kind: "null" }, false, dbTz))
}

const packValue = (w: WriteBuffer, m: Member, v: JsonNode, inCollection: boolean, dbTz: number): void => {
  if ("named" in m) {
    const t = m.named
    if (v.kind === "null") return w.u8(isCollection(t) ? Image.NULL_LENGTH : Image.ATOMIC_NULL)
    // collections, and objects held by collections, are embedded as images of their own; objects inside objects inline
    if (isCollection(t) || inCollection) return writeBytesWithLength(w, packImage(t, v, dbTz))
    return packBody(w, t, v, dbTz)
  }
  if (v.kind === "null") return w.u8(Image.NULL_LENGTH)
  writeBytesWithLength(w, scalarBytes(m.scalar, v, dbTz))
}

const text = (v: JsonNode): string => {
  switch (v.kind) {
    case "string":
      return v.value
    case "number":
      return v.text
    case "double":
    case "float":
      return String(v.value)
    case "boolean":
      return v.value ? "1" : "0"
    default:
      throw new OraError(932, `inconsistent datatypes: unexpected ${v.kind}`)
  }
}

const scratch = new WriteBuffer(32)

/**
 * RAW bytes of text: hex digits, as Oracle converts character data to RAW, or DuckDB's text of a BLOB (`\xCA\xFE`,
 * printable bytes as themselves), which is what a BLOB bind inside a constructor call becomes.
 */
const rawOfText = (s: string): Buffer => {
  if (!s.includes("\\x") && /^([0-9A-Fa-f]{2})*$/.test(s)) return Buffer.from(s, "hex")
  const out: Array<number> = []
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && s[i + 1] === "x") {
      out.push(parseInt(s.slice(i + 2, i + 4), 16))
      i += 3
    } else out.push(s.charCodeAt(i))
  }
  return Buffer.from(out)
}

/**
 * Bytes of a datetime attribute given as text (a constructor argument: a literal's stored text with its offset or
 * region, or DuckDB's rendering of a datetime). DATE and TIMESTAMP keep the wall clock and drop a zone, as Oracle
 * converts TIMESTAMP WITH TIME ZONE to them; TIMESTAMP WITH TIME ZONE keeps the offset or region (zoneless text as
 * UTC); TIMESTAMP WITH LOCAL TIME ZONE holds the instant as the wall clock of the database time zone, which is what
 * node-oracledb thin expects inside objects (lib/impl/datahandlers/buffer.js parseOracleDate: "returned in the database
 * time zone"), as Oracle stores such values normalised to the database time zone and shows them in the session's
 * (Oracle Database Utilities 12.1, "TIMESTAMP WITH LOCAL TIME ZONE":
 * https://docs.oracle.com/cd/E57425_01/121/SUTIL/GUID-CB5D2124-D9AE-4C71-A83D-DFE071FE3542.htm).
 */
const datetimeBytes = (kind: "date" | "timestamp" | "timestamptz" | "timestampltz", s: string, dbTzOffsetMinutes: number): Buffer => {
  const parsed = parseDatetimeText(s)
  if (parsed === undefined) throw new OraError(1861, "literal does not match format string")
  switch (kind) {
    case "date":
      return oracleBytesOf({ wall: parsed.wall }, false, 9).subarray(0, 7)
    case "timestamp":
      return oracleBytesOf({ wall: parsed.wall }, false, 9)
    case "timestamptz":
      return oracleBytesOf(parsed.offsetMinutes === undefined ? { wall: parsed.wall, offsetMinutes: 0 } : parsed, true, 9)
    case "timestampltz":
      return oracleBytesOf({ wall: parsed.offsetMinutes === undefined ? parsed.wall : utcNanos(parsed) + BigInt(dbTzOffsetMinutes) * 60_000_000_000n }, false, 9)
  }
}

/** Bytes of one scalar attribute or element value. */
const scalarBytes = (t: OraType, v: JsonNode, dbTzOffsetMinutes: number): Uint8Array => {
  switch (t.kind) {
    case "number": {
      scratch.pos = 0
      writeNumberString(scratch, text(v))
      return Buffer.from(scratch.buf.subarray(1, scratch.pos))
    }
    case "varchar":
      // CHAR(n) values are blank-padded to their length
      return Buffer.from(t.dty === 96 ? text(v).padEnd(t.charSize, " ") : text(v), "utf8")
    case "nvarchar":
      return Buffer.from(t.dty === 96 ? text(v).padEnd(t.charSize, " ") : text(v), "utf16le").swap16()
    case "raw":
      return v.kind === "binary" ? v.bytes : rawOfText(text(v))
    case "date":
    case "timestamp":
    case "timestamptz":
    case "timestampltz": {
      const length = t.kind === "date" ? 7 : t.kind === "timestamptz" ? 13 : 11
      if (v.kind === "date" || v.kind === "timestamp" || v.kind === "timestamptz") {
        const b = Buffer.alloc(length)
        Buffer.from(v.bytes).copy(b, 0, 0, Math.min(length, v.bytes.length))
        if (length === 13 && v.bytes.length < 13) {
          b[11] = 20
          b[12] = 60
        }
        return b
      }
      return datetimeBytes(t.kind, text(v), dbTzOffsetMinutes)
    }
    case "double":
      return encodeBinaryDouble(Number(text(v)))
    case "float":
      return encodeBinaryFloat(Number(text(v)))
    case "boolean": {
      // inside an object a BOOLEAN is a 4-byte big-endian 0 or 1 (buffer.js readBool(fromDBObject), dbObject.js _packValue)
      const b = Buffer.alloc(4)
      b.writeUInt32BE(text(v) === "0" || text(v).toUpperCase() === "FALSE" ? 0 : 1)
      return b
    }
    default:
      throw new OraError(932, `inconsistent datatypes: ${t.dictName} attribute`)
  }
}

/** Reads an image the client pickled (a bind value) back into a value tree. */
export const unpackImage = (t: NamedType, image: Uint8Array): JsonNode => {
  const r = new ImageReader(Buffer.from(image.buffer, image.byteOffset, image.byteLength))
  r.header()
  return r.body(t)
}

class ImageReader {
  pos = 0
  constructor(private readonly b: Buffer) {}

  u8(): number {
    return this.b.readUInt8(this.pos++)
  }

  length(): number {
    const n = this.u8()
    if (n !== Image.LONG_LENGTH) return n
    const v = this.b.readUInt32BE(this.pos)
    this.pos += 4
    return v
  }

  bytes(n: number): Buffer {
    if (this.pos + n > this.b.length) throw new OraError(3137, "malformed TTC packet from client rejected: truncated object image")
    const out = this.b.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  header(): void {
    const flags = this.u8()
    this.u8() // image version
    this.length()
    if ((flags & Image.NO_PREFIX_SEG) === 0) this.bytes(this.length())
  }

  body(t: NamedType): JsonNode {
    if (t.indexed === true) {
      this.u8() // collection flags
      const n = this.length()
      const fields: Array<readonly [string, JsonNode]> = []
      for (let i = 0; i < n; i++) {
        const key = this.bytes(4).readInt32BE(0)
        fields.push([String(key), this.value(t.element!, true)])
      }
      return { kind: "object", fields }
    }
    if (isCollection(t)) {
      this.u8() // collection flags
      const n = this.length()
      const items: Array<JsonNode> = []
      for (let i = 0; i < n; i++) items.push(this.value(t.element!, true))
      return { kind: "array", items }
    }
    return { kind: "array", items: t.attributes.map((a) => this.value(a.member, false)) }
  }

  private value(m: Member, inCollection: boolean): JsonNode {
    const first = this.b.readUInt8(this.pos)
    if ("named" in m) {
      const t = m.named
      if (first === Image.ATOMIC_NULL || first === Image.NULL_LENGTH) {
        this.pos++
        return { kind: "null" }
      }
      if (isCollection(t) || inCollection) return unpackImage(t, this.bytes(this.length()))
      return this.body(t)
    }
    this.pos++
    if (first === 0 || first === Image.NULL_LENGTH) return { kind: "null" }
    this.pos--
    return scalarNode(m.scalar, this.bytes(this.length()))
  }
}

/**
 * A bound NUMBER(p,s) attribute's value as Oracle stores it: rounded to s places (half away from zero), and refused
 * with ORA-01438 when more than p - s digits remain left of the decimal point (as for a NUMBER(p,s) column).
 */
const boundedNumber = (t: OraType, text: string): string => {
  if (t.dictName !== "NUMBER" || t.precision <= 0) return text
  return fixedText(fitToPrecision(decimalOf(text), t.precision, t.scale))
}

/**
 * A bound VARCHAR2 / NVARCHAR2 attribute's text, refused with ORA-12899 when longer (bytes / characters) than
 * declared; a CHAR / NCHAR attribute's blank-padded to its length, as a CHAR column holds it (SQL Language
 * Reference, "Blank-Padded and Nonpadded Comparison Semantics": CHAR values are padded to the declared length).
 */
const boundedText = (t: OraType, value: string, length: number): string => {
  if (t.charSize > 0 && length > t.charSize) throw new OraError(12899, `value too large for column (actual: ${length}, maximum: ${t.charSize})`)
  return t.dty === 96 && t.charSize > length ? value + " ".repeat(t.charSize - length) : value
}

/** The value tree node of one scalar's bytes. */
const scalarNode = (t: OraType, b: Buffer): JsonNode => {
  switch (t.kind) {
    case "number":
      return { kind: "number", text: boundedNumber(t, decodeNumber(b)) }
    case "varchar":
      return { kind: "string", value: boundedText(t, b.toString("utf8"), b.length) }
    case "nvarchar": {
      const value = Buffer.from(b).swap16().toString("utf16le")
      return { kind: "string", value: boundedText(t, value, value.length) }
    }
    case "raw":
      return { kind: "binary", bytes: Buffer.from(b) }
    case "date":
      return { kind: "date", bytes: Buffer.from(b) }
    case "timestamp":
    case "timestampltz":
      return { kind: "timestamp", bytes: Buffer.from(b) }
    case "timestamptz":
      return { kind: "timestamptz", bytes: Buffer.from(b) }
    case "double":
      return { kind: "double", value: decodeBinaryDouble(b) }
    case "float":
      return { kind: "float", value: decodeBinaryFloat(b) }
    case "boolean":
      return { kind: "boolean", value: b[b.length - 1] === 1 }
    default:
      throw new OraError(932, `inconsistent datatypes: ${t.dictName} attribute`)
  }
}

/** The XMLType image of a document, fetched by thin clients as a string (dbObject.js readXML). */
export const xmlImage = (xml: string): Buffer => {
  const w = new WriteBuffer(xml.length + 16)
  w.u8(Image.IS_VERSION_81 | Image.NO_PREFIX_SEG)
  w.u8(Image.VERSION)
  w.u8(Image.LONG_LENGTH)
  w.u32be(0)
  w.u8(0)
  w.u32be(XML_TYPE_STRING)
  w.raw(Buffer.from(xml, "utf8"))
  w.buf.writeUInt32BE(w.pos, 3)
  return w.bytes()
}

/** Writes a named-type column value (readDbObject layout): TOID, OID, snapshot, version, image length, flags, image. */
export const writeDbObject = (w: WriteBuffer, t: NamedType, image: Buffer | null): void => {
  if (image === null) {
    for (let i = 0; i < 6; i++) w.ub(0)
    return
  }
  const toid = toidOf(t)
  w.ub(toid.length)
  w.bytesWithLength(toid)
  w.ub(0) // OID
  w.ub(0) // snapshot
  w.ub(0) // version
  w.ub(image.length)
  w.ub(0x01) // flags: top level
  w.bytesWithLength(image)
}
