/**
 * Everything that reaches into node-oracledb 26's thin-mode internals, kept apart from the plain calls (DbCalls.ts):
 * the release check, the hooks and the exact values they produce. The row capture is RowCapture.ts, the parse-ahead
 * of a statement ParseAhead.ts.
 *
 * Narrow hooks into oracledb's thin protocol code keep full precision where its JS values lose it and let batch
 * mode skip them altogether; they only act on connections (their protocol capabilities carry
 * {@link RAW_TEMPORAL}) or result sets this driver opened, so other users of oracledb in the same process see its
 * normal behaviour:
 * - Row data (batch mode): `processRowData` keeps each fetched row's TTC bytes ({@link WireRows}) for the result
 *   set a {@link RowCapture} was installed for, instead of decoding a JS value per cell (see WirePage.ts).
 * - Binds: `writeOracleDate` encodes {@link WireTimestamp} values exactly (seconds + nanoseconds, UTC wall clock);
 *   the bind-value check (`transformer.transformValueIn`) lets a {@link WireDecimal} through as a NUMBER, whose
 *   decimal text oracledb's own `writeOracleNumber` then encodes digit for digit (no JS double, no NLS).
 * - DATE / TIMESTAMP / TIMESTAMP WITH [LOCAL] TIME ZONE: oracledb builds a JS Date in milliseconds, and DATE /
 *   TIMESTAMP in the *process's* local time zone (impl/datahandlers/buffer.js `parseOracleDate`). The hook returns
 *   the wire bytes instead ({@link RawTemporal}: century, year, month, day, hour, minute, second, nanoseconds), which
 *   the decoder turns into exact Arrow values independent of the Node process's TZ.
 * - Column describe info: oracledb keeps precision/scale only for NUMBER and TIMESTAMP (thin/protocol/messages/
 *   base.js `processColumnInfo`). The hook records both raw bytes on every column (`adbcPrecision`,
 *   `adbcScale`), which gives the fractional-second and leading precision of INTERVAL columns.
 * - JSON (OSON) scalars and OBJECT / VARRAY attributes: oracledb makes every NUMBER a JS double and every date a
 *   local-time JS Date there; the hooks keep NUMBERs as {@link WireDecimal} text and dates as ISO 8601 text
 *   (`hookJsonScalars`, `hookObjectAttributes`).
 * - JSON binds: a {@link WireJson} value passes oracledb's bind transform as it is, and the OSON encoder writes its
 *   {@link WireDecimal} numbers digit for digit (`hookJsonNumberBinds`).
 * - TIMESTAMP WITH TIME ZONE binds: a {@link WireTimestamp} carries its zone bytes (TimeZones.ts), which the date
 *   write hook sends instead of oracledb's +00:00.
 * - LOB columns: defined with LOB prefetch, so that small LOBs arrive with their locators, and handed to the
 *   driver's LOB converter without oracledb's per-LOB stream (LobPrefetch.ts).
 * NUMBER columns need no hook: fetched as STRING, thin mode returns the exact decimal digits of the wire value.
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { epochDayOf, formatEpochNanos } from "../common/ArrowCells.ts"
import type { OracleConnection, OracleDbModule, ThinStatement } from "./DbTypes.ts"
import { hookLobIndices, hookLobPrefetch } from "./LobPrefetch.ts"
import { type ReadPacket, ROW_CAPTURE, type RowCapture } from "./RowCapture.ts"
import { offsetOfZoneBytes } from "./TimeZones.ts"

const require = createRequire(import.meta.url)

/** node-oracledb's module (typed loosely: the driver uses a small, stable part of it). @category internals @since 0.1.0 */
export const oracledb: OracleDbModule = require("oracledb")

/** oracledb's thin Statement: `_prepare` classifies a SQL text as oracledb does (lib/thin/statement.js Parser). @category internals @since 0.1.0 */
export const { Statement: StatementClass } = require("oracledb/lib/thin/statement.js") as {
  Statement?: {
    new(): { _prepare(sql: string): void; isQuery: boolean; isDml: boolean; isPlSql: boolean }
    prototype: Record<string, unknown>
  }
}

/** oracledb's execute message (lib/thin/protocol/messages/execute.js), for the define call of a parsed query. @category internals @since 0.1.0 */
export const { ExecuteMessage } = require("oracledb/lib/thin/protocol/messages/index.js") as {
  ExecuteMessage?: new(connection: unknown, statement: ThinStatement, options: Record<string, unknown>) => unknown
}

/** Capability flag marking this driver's connections for the precision hooks. @category internals @since 0.1.0 */
export const RAW_TEMPORAL: unique symbol = Symbol.for("effect-adbc/oracle/raw-temporal")

/** The zone bytes of +00:00 (hours + 20, minutes + 60). */
const TZ_OFFSET_BYTES = [20, 60] as const

/**
 * A DATE / TIMESTAMP / TIMESTAMP WITH [LOCAL] TIME ZONE value decoded from its wire bytes (7 bytes for DATE, 11
 * with nanoseconds, 13 with a time zone, whose date and time are then UTC): `seconds` since 1970-01-01 of the
 * wall clock read as UTC, and `nanos`. LOCAL TIME ZONE values are in the database time zone, `dbTzOffsetMinutes`
 * ahead of UTC.
 *
 * @category models
 * @since 0.1.0
 */
export class RawTemporal {
  constructor(
    readonly seconds: number,
    readonly nanos: number,
    readonly dbTzOffsetMinutes: number,
    /** A TIMESTAMP WITH TIME ZONE's own offset east of UTC at its instant (its zone bytes), in minutes. */
    readonly zoneOffsetMinutes = 0
  ) {}

  /**
   * Decodes the wire bytes (century+100, year+100, month, day, hour+1, minute+1, second+1, [u32 BE nanos], [two
   * zone bytes]).
   */
  static fromWire(b: Uint8Array, dbTzOffsetMinutes: number): RawTemporal {
    const year = (b[0]! - 100) * 100 + b[1]! - 100
    const seconds = epochDayOf(year, b[2]!, b[3]!) * 86_400 + (b[4]! - 1) * 3600 + (b[5]! - 1) * 60 + (b[6]! - 1)
    const nanos = b.length >= 11 ? ((b[7]! << 24) >>> 0) + (b[8]! << 16) + (b[9]! << 8) + b[10]! : 0
    const zone = b.length >= 13 ? offsetOfZoneBytes(b[11]!, b[12]!, seconds * 1000) : 0
    return new RawTemporal(seconds, nanos, dbTzOffsetMinutes, zone)
  }

  /**
   * ISO 8601 text, with as many fraction digits as the value needs (up to nanoseconds): `wall` the date and time as
   * stored (`2024-01-01T00:00:00.5`, DATE / TIMESTAMP), `utc` a TIMESTAMP WITH TIME ZONE (whose wire date and time
   * are UTC) in its own zone (`…Z` for +00:00, else its offset at that instant: `2024-07-01T14:00:00+02:00`), `local`
   * a TIMESTAMP WITH LOCAL TIME ZONE (database time zone) as its UTC instant.
   */
  isoText(zone: "wall" | "utc" | "local"): string {
    const shift = zone === "local" ? -this.dbTzOffsetMinutes : zone === "utc" ? this.zoneOffsetMinutes : 0
    const seconds = this.seconds + shift * 60
    const [whole, fraction = ""] = formatEpochNanos(BigInt(seconds) * 1_000_000_000n + BigInt(this.nanos)).split(".")
    const digits = fraction.replace(/0+$/, "")
    const text = `${whole!.replace(" ", "T")}${digits === "" ? "" : `.${digits}`}`
    if (zone === "wall") return text
    if (zone === "local" || this.zoneOffsetMinutes === 0) return `${text}Z`
    const m = Math.abs(this.zoneOffsetMinutes)
    return `${text}${this.zoneOffsetMinutes < 0 ? "-" : "+"}${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`
  }
}

/**
 * A DATE / TIMESTAMP bind value carrying exact seconds and nanoseconds. It is a Date (so oracledb accepts it as a
 * bind value), but the write hook encodes `seconds` / `nanos` itself: as a UTC wall clock for DATE and TIMESTAMP
 * (never the process's local time, which oracledb would otherwise use), as the UTC instant for TIMESTAMP WITH TIME
 * ZONE, and shifted into the database time zone for TIMESTAMP WITH LOCAL TIME ZONE.
 *
 * @category models
 * @since 0.1.0
 */
export class WireTimestamp extends Date {
  constructor(
    readonly seconds: number,
    readonly nanos: number,
    /** The zone bytes of a TIMESTAMP WITH TIME ZONE (TimeZones.ts); +00:00 without. */
    readonly zone: readonly [number, number] = TZ_OFFSET_BYTES
  ) {
    super(seconds * 1000 + Math.floor(nanos / 1_000_000))
  }
}

/**
 * A NUMBER as its exact decimal text (`-123.4500`, or oracledb's `.5`), never through a JS double.
 *
 * As a bind value, a scaled decimal reaches the wire with every digit: oracledb writes a NUMBER bind as
 * `writeOracleNumber(value.toString())` (thin/protocol/messages/withData.js `writeBindParamsColumn`), which parses
 * that text itself; the hook only has to let this object pass oracledb's bind-value check, which accepts numbers
 * and bigints alone. As a read value, it is a NUMBER inside a JSON document or an OBJECT / VARRAY value (see the
 * OSON and DbObject hooks), which RowPage.ts `jsonText` writes into the JSON text unquoted, digit for digit.
 *
 * @category models
 * @since 0.1.0
 */
export class WireDecimal {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text
  }
}

/**
 * A JSON bind value parsed from JSON text into the shape oracledb's OSON encoder takes (objects as `{fields,
 * values}`, arrays, strings, booleans, null, numbers, {@link WireDecimal} for numbers a double cannot hold), passed
 * to the encoder as it is.
 *
 * @category models
 * @since 0.1.0
 */
export class WireJson {
  constructor(readonly value: unknown) {}
}


/**
 * The one node-oracledb release whose thin-mode internals the hooks were written against (package.json pins it).
 *
 * @category constants
 * @since 0.1.0
 */
export const SUPPORTED_ORACLEDB_VERSION = "26.0.0"

/**
 * Why this oracledb cannot be used (a version other than {@link SUPPORTED_ORACLEDB_VERSION}, or a hooked internal
 * missing), or undefined. The hooks patch private functions, so another release could decode values wrongly
 * instead of failing: the driver refuses it up front.
 *
 * @category internals
 * @since 0.1.0
 */
export const unsupportedOracledb = (version: string, missing: ReadonlyArray<string> = []): AdbcError | undefined => {
  if (version !== SUPPORTED_ORACLEDB_VERSION) {
    return adbcError(
      "INTERNAL",
      `node-oracledb ${version} is installed, but the Oracle driver supports exactly oracledb ${SUPPORTED_ORACLEDB_VERSION} (it hooks thin-mode internals that change between releases); install oracledb@${SUPPORTED_ORACLEDB_VERSION}`
    )
  }
  if (missing.length > 0) {
    return adbcError("INTERNAL", `node-oracledb ${version} lacks the internals the Oracle driver hooks (${missing.join(", ")}); reinstall oracledb@${SUPPORTED_ORACLEDB_VERSION}`)
  }
  return undefined
}

let hooksInstalled: { readonly error: AdbcError | undefined } | undefined

/**
 * Installs the hooks once per process (see the module comment), after checking the oracledb release; returns the
 * reason it cannot, which `connect` fails with before any network I/O.
 *
 * @category internals
 * @since 0.1.0
 */
export const installHooks = (): AdbcError | undefined => {
  if (hooksInstalled !== undefined) return hooksInstalled.error
  const { BaseBuffer } = require("oracledb/lib/impl/datahandlers/buffer.js") as {
    BaseBuffer: { prototype: Record<string, unknown> }
  }
  const transformer = require("oracledb/lib/transformer.js") as {
    transformValueIn: (info: { type?: unknown }, value: unknown, options: unknown) => unknown
  }
  const MessageWithData = require("oracledb/lib/thin/protocol/messages/withData.js") as {
    prototype: Record<string, unknown>
  }
  const Message = require("oracledb/lib/thin/protocol/messages/base.js") as { prototype: Record<string, unknown> }
  const ThinConnection = require("oracledb/lib/thin/connection.js") as { prototype: Record<string, unknown> }
  const StatementCache = require("oracledb/lib/thin/statementCache.js") as { prototype: Record<string, unknown> }
  const { ReadPacket } = require("oracledb/lib/thin/protocol/packet.js") as { ReadPacket?: { prototype: Record<string, unknown> } }
  const { OsonDecoder, OsonEncoder } = require("oracledb/lib/impl/datahandlers/oson.js") as {
    OsonDecoder?: { prototype: Record<string, unknown> }
    OsonEncoder?: new() => { encode(value: unknown, maxFieldNameSize?: number): Buffer }
  }
  const BaseDbObject = require("oracledb/lib/dbObject.js") as { prototype?: Record<string, unknown> }
  const ThinLobImpl = require("oracledb/lib/thin/lob.js") as Parameters<typeof hookLobPrefetch>[1]
  const ResultSetImpl = require("oracledb/lib/impl/resultset.js") as { prototype?: Record<string, unknown> }
  const hooked: Record<string, unknown> = {
    "ThinConnectionImpl.getStatementInfo": ThinConnection.prototype?.["getStatementInfo"],
    "StatementCache.clearCursor": StatementCache.prototype?.["clearCursor"],
    "Statement._prepare": StatementClass?.prototype["_prepare"],
    "Statement._clearAllState": StatementClass?.prototype["_clearAllState"],
    "ThinConnectionImpl._prepare": ThinConnection.prototype?.["_prepare"],
    "ThinConnectionImpl._handleDefines": ThinConnection.prototype?.["_handleDefines"],
    "ThinConnectionImpl._returnStatement": ThinConnection.prototype?.["_returnStatement"],
    ExecuteMessage,
    "BaseBuffer.parseOracleDate": BaseBuffer?.prototype["parseOracleDate"],
    "BaseBuffer.writeOracleDate": BaseBuffer?.prototype["writeOracleDate"],
    "transformer.transformValueIn": transformer.transformValueIn,
    "MessageWithData.processRowData": MessageWithData.prototype?.["processRowData"],
    "MessageWithData.writeColumnMetadata": MessageWithData.prototype?.["writeColumnMetadata"],
    "MessageWithData.processColumnData": MessageWithData.prototype?.["processColumnData"],
    ThinLobImpl,
    "ResultSetImpl._setup": ResultSetImpl.prototype?.["_setup"],
    "Message.processColumnInfo": Message.prototype?.["processColumnInfo"],
    "ReadPacket.readOson": ReadPacket?.prototype["readOson"],
    "OsonDecoder._decodeNode": OsonDecoder?.prototype["_decodeNode"],
    OsonEncoder,
    "BaseDbObject._transformValueOut": BaseDbObject.prototype?.["_transformValueOut"]
  }
  const error = unsupportedOracledb(
    oracledb.versionString,
    Object.keys(hooked).filter((name) => typeof hooked[name] !== "function")
  )
  hooksInstalled = { error }
  if (error !== undefined) return error
  const parseOracleDate = BaseBuffer.prototype["parseOracleDate"] as (this: unknown, ...args: Array<unknown>) => unknown
  BaseBuffer.prototype["parseOracleDate"] = function(
    this: { caps?: Record<PropertyKey, unknown> },
    buf: Buffer,
    ...rest: Array<unknown>
  ) {
    // rest = [useLocalTime, useDbTz]: LOCAL TIME ZONE values in a region-named database time zone are left to
    // oracledb, which refuses them (NJS-201) rather than guessing an offset.
    if (this.caps?.[RAW_TEMPORAL] === true && !(rest[1] === true && typeof this.caps["dbTzRegion"] === "string")) {
      return RawTemporal.fromWire(buf, typeof this.caps["dbTzOffset"] === "number" ? this.caps["dbTzOffset"] : 0)
    }
    return parseOracleDate.call(this, buf, ...rest)
  }
  const writeOracleDate = BaseBuffer.prototype["writeOracleDate"] as (this: unknown, ...args: Array<unknown>) => void
  BaseBuffer.prototype["writeOracleDate"] = function(
    this: {
      caps?: Record<PropertyKey, unknown>
      buf: Buffer
      writeUInt8: (v: number) => void
      reserveBytes: (n: number) => number
    },
    date: unknown,
    type: { _bufferSizeFactor: number; _oraTypeNum: number },
    writeLength = true
  ) {
    if (!(date instanceof WireTimestamp)) return writeOracleDate.call(this, date, type, writeLength)
    const length = type._bufferSizeFactor
    // 231 = TIMESTAMP WITH LOCAL TIME ZONE: sent in the database time zone.
    const shift = type._oraTypeNum === 231 && typeof this.caps?.["dbTzOffset"] === "number"
      ? this.caps["dbTzOffset"] * 60
      : 0
    const d = new Date((date.seconds + shift) * 1000)
    if (writeLength) this.writeUInt8(length)
    const pos = this.reserveBytes(length)
    const year = d.getUTCFullYear()
    this.buf[pos] = Math.trunc(year / 100) + 100
    this.buf[pos + 1] = (year % 100) + 100
    this.buf[pos + 2] = d.getUTCMonth() + 1
    this.buf[pos + 3] = d.getUTCDate()
    this.buf[pos + 4] = d.getUTCHours() + 1
    this.buf[pos + 5] = d.getUTCMinutes() + 1
    this.buf[pos + 6] = d.getUTCSeconds() + 1
    if (length > 7) this.buf.writeUInt32BE(date.nanos, pos + 7)
    if (length > 11) {
      this.buf[pos + 11] = date.zone[0]
      this.buf[pos + 12] = date.zone[1]
    }
  }
  const transformValueIn = transformer.transformValueIn
  transformer.transformValueIn = function(info, value, options) {
    if (value instanceof WireDecimal && info.type === oracledb.DB_TYPE_NUMBER) return value
    // parsed JSON text: already plain JSON values (oracledb's transform would copy a WireDecimal into an object)
    if (value instanceof WireJson && info.type === oracledb.DB_TYPE_JSON) return value.value
    return transformValueIn(info, value, options)
  }
  const processRowData = MessageWithData.prototype["processRowData"] as (this: unknown, buf: unknown) => void
  MessageWithData.prototype["processRowData"] = function(
    this: {
      inFetch: boolean
      resultSet?: unknown
      bitVector?: Uint8Array | null
      statement?: { isReturning?: boolean; [ROW_CAPTURE]?: RowCapture | undefined }
    },
    buf: ReadPacket
  ) {
    const capture = this.statement?.[ROW_CAPTURE]
    // Only the fetches of the one result set the capture was made for (a cached statement is reused later).
    if (capture === undefined || !this.inFetch || this.statement?.isReturning === true || capture.owner !== this.resultSet) {
      return processRowData.call(this, buf)
    }
    capture.capture(buf, this.bitVector ?? null)
    this.bitVector = null
  }
  const processColumnInfo = Message.prototype["processColumnInfo"] as (this: unknown, ...args: Array<unknown>) => {
    fetchInfo: Record<string, unknown>
  }
  Message.prototype["processColumnInfo"] = function(
    this: unknown,
    buf: { caps?: Record<PropertyKey, unknown>; readInt8: () => number },
    ...rest: Array<unknown>
  ) {
    if (buf.caps?.[RAW_TEMPORAL] !== true) return processColumnInfo.call(this, buf, ...rest)
    // processColumnInfo reads exactly two signed bytes, precision then scale, right after the type and flags.
    const captured: Array<number> = []
    const own = Object.prototype.hasOwnProperty.call(buf, "readInt8")
    const readInt8 = buf.readInt8
    buf.readInt8 = function(this: unknown) {
      const value = readInt8.call(this)
      captured.push(value)
      return value
    }
    try {
      const result = processColumnInfo.call(this, buf, ...rest)
      result.fetchInfo["adbcPrecision"] = captured[0]
      result.fetchInfo["adbcScale"] = captured[1]
      return result
    } finally {
      if (own) buf.readInt8 = readInt8
      else delete (buf as { readInt8?: unknown }).readInt8
    }
  }
  hookJsonScalars(ReadPacket!.prototype, OsonDecoder!.prototype)
  const encodeError = hookJsonNumberBinds(BaseBuffer.prototype, OsonEncoder!)
  if (encodeError !== undefined) {
    hooksInstalled = { error: encodeError }
    return encodeError
  }
  hookObjectAttributes(BaseDbObject.prototype!)
  hookLobPrefetch(MessageWithData.prototype, ThinLobImpl)
  hookLobIndices(ResultSetImpl.prototype!)
  return undefined
}

/** OSON node types of the scalars the JSON hook decodes itself (oracledb lib/impl/datahandlers/constants.js). */
const OSON = { NUMBER_LENGTH_UINT8: 0x34, DATE: 0x3c, TIMESTAMP7: 0x7d, TIMESTAMP: 0x39, TIMESTAMP_TZ: 0x7c } as const

/** The OSON date and time scalars: their byte length and how their text is written. */
const OSON_TEMPORALS: ReadonlyMap<number, readonly [bytes: number, zone: "wall" | "utc"]> = new Map([
  [OSON.DATE, [7, "wall"]],
  [OSON.TIMESTAMP7, [7, "wall"]],
  [OSON.TIMESTAMP, [11, "wall"]],
  [OSON.TIMESTAMP_TZ, [13, "utc"]]
])

/**
 * JSON column values (OSON) of this driver's connections keep their scalars exact. oracledb's OSON decoder
 * (impl/datahandlers/oson.js `_decodeNode`) turns every NUMBER into a JS double (`parseFloat`) and every date and
 * timestamp into a JS Date in the *process's* local time zone, and it offers no option to do otherwise (the
 * equivalent of ODPI-C's DPI_JSON_OPT_NUMBER_AS_STRING does not exist in node-oracledb). So, while a fetch of a
 * driver connection decodes an OSON image (`ReadPacket.readOson`, synchronous, hence the flag), NUMBER scalars
 * become {@link WireDecimal} text and date / timestamp scalars ISO 8601 text ({@link RawTemporal.isoText}); all
 * other nodes are oracledb's. Node types: 0x34 a number with a length byte, 0x20 / 0x60 families a number with
 * length - 1 in the low nibble, 0x40 / 0x50 families an integer with its length in the low nibble (the same
 * decision order as `_decodeNode`, whose fixed node types lie outside those families).
 */
const hookJsonScalars = (readPacket: Record<string, unknown>, osonDecoder: Record<string, unknown>): void => {
  let decodingForDriver = false
  const readOson = readPacket["readOson"] as (this: unknown) => unknown
  readPacket["readOson"] = function(this: { caps?: Record<PropertyKey, unknown> }) {
    if (this.caps?.[RAW_TEMPORAL] !== true) return readOson.call(this)
    decodingForDriver = true
    try {
      return readOson.call(this)
    } finally {
      decodingForDriver = false
    }
  }
  const decodeNode = osonDecoder["_decodeNode"] as (this: unknown) => unknown
  osonDecoder["_decodeNode"] = function(this: {
    pos: number
    readUInt8(): number
    readBytes(n: number): Buffer
    readOracleNumber(): string | null
    parseOracleNumber(b: Buffer): string
  }) {
    if (!decodingForDriver) return decodeNode.call(this)
    const nodeType = this.readUInt8()
    const temporal = OSON_TEMPORALS.get(nodeType)
    if (temporal !== undefined) return RawTemporal.fromWire(this.readBytes(temporal[0]), 0).isoText(temporal[1])
    if (nodeType === OSON.NUMBER_LENGTH_UINT8) {
      const text = this.readOracleNumber()
      return text === null ? null : new WireDecimal(text)
    }
    const family = nodeType & 0xf0
    if (family === 0x20 || family === 0x60) return new WireDecimal(this.parseOracleNumber(this.readBytes((nodeType & 0x0f) + 1)))
    if (family === 0x40 || family === 0x50) return new WireDecimal(this.parseOracleNumber(this.readBytes(nodeType & 0x0f)))
    this.pos -= 1
    return decodeNode.call(this)
  }
}

/**
 * JSON binds keep their numbers' digits: oracledb's OSON encoder writes a JS number as `writeOracleNumber(value.toString())`
 * (lib/impl/datahandlers/oson.js `OsonTreeSegment.encodeNode`), so a number parsed from JSON text would lose
 * digits beyond a double's. The driver passes such numbers as {@link WireDecimal} text (Params.ts), which the hook
 * writes as that same OSON NUMBER node from the text; every other value is oracledb's. The tree segment class is not
 * exported: its prototype is found by encoding one number with `writeUInt8` briefly wrapped (the node's type byte is
 * its first write).
 */
const hookJsonNumberBinds = (
  baseBuffer: Record<string, unknown>,
  encoder: new() => { encode(value: unknown, maxFieldNameSize?: number): Buffer }
): AdbcError | undefined => {
  const writeUInt8 = baseBuffer["writeUInt8"] as (this: object, n: number) => void
  let segment: Record<string, unknown> | undefined
  baseBuffer["writeUInt8"] = function(this: object, n: number) {
    const proto = Object.getPrototypeOf(this) as Record<string, unknown>
    if (segment === undefined && typeof proto["encodeNode"] === "function") segment = proto
    return writeUInt8.call(this, n)
  }
  try {
    new encoder().encode(1)
  } finally {
    baseBuffer["writeUInt8"] = writeUInt8
  }
  if (segment === undefined) return unsupportedOracledb(oracledb.versionString, ["OsonTreeSegment.encodeNode"])
  const encodeNode = segment["encodeNode"] as (this: unknown, value: unknown, encoder: unknown) => void
  segment["encodeNode"] = function(
    this: { writeUInt8(n: number): void; writeOracleNumber(text: string): void },
    value: unknown,
    encoder: unknown
  ) {
    if (!(value instanceof WireDecimal)) return encodeNode.call(this, value, encoder)
    this.writeUInt8(OSON.NUMBER_LENGTH_UINT8)
    this.writeOracleNumber(value.text)
  }
  return undefined
}

/**
 * OBJECT / VARRAY attribute and element values of this driver's connections keep their NUMBERs and dates exact.
 * oracledb unpickles a NUMBER attribute as its exact decimal text and then converts it with `parseFloat`
 * (lib/connection.js `defaultNumberConverter`, applied in lib/dbObject.js `_transformValueOut`); the only way to
 * change that converter is the process-wide `oracledb.dbObjectTypeHandler`, which would change every other
 * oracledb user in the process. Dates and timestamps reach `_transformValueOut` as the date hook's
 * {@link RawTemporal}. The hook, given the attribute's type, returns a NUMBER as {@link WireDecimal} and a date or
 * timestamp as ISO 8601 text, for objects of connections marked with {@link RAW_TEMPORAL}; everything else is
 * oracledb's.
 */
const hookObjectAttributes = (baseDbObject: Record<string, unknown>): void => {
  const transformValueOut = baseDbObject["_transformValueOut"] as (this: unknown, ...args: Array<unknown>) => unknown
  baseDbObject["_transformValueOut"] = function(
    this: { _objType?: { _connection?: { _protocol?: { caps?: Record<PropertyKey, unknown> } } } },
    value: unknown,
    cls: unknown,
    metaData: { type?: unknown } | undefined
  ) {
    if (this._objType?._connection?._protocol?.caps?.[RAW_TEMPORAL] === true) {
      const type = metaData?.type
      if (typeof value === "string" && type === oracledb.DB_TYPE_NUMBER) return new WireDecimal(value)
      if (value instanceof RawTemporal) {
        return value.isoText(
          type === oracledb.DB_TYPE_TIMESTAMP_TZ ? "utc" : type === oracledb.DB_TYPE_TIMESTAMP_LTZ ? "local" : "wall"
        )
      }
    }
    return transformValueOut.call(this, value, cls, metaData)
  }
}

/**
 * The database time zone's offset from UTC in minutes (TIMESTAMP WITH LOCAL TIME ZONE values are in it), or
 * undefined when the database time zone is a region (node-oracledb then refuses such values, NJS-201).
 *
 * @category operations
 * @since 0.1.0
 */
export const dbTzOffsetMinutes = (connection: OracleConnection): number | undefined => {
  const caps = connection._impl?._protocol?.caps
  if (typeof caps?.["dbTzRegion"] === "string") return undefined
  const offset = caps?.["dbTzOffset"]
  return typeof offset === "number" ? offset : 0
}
