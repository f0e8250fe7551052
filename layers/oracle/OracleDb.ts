/**
 * A thin Effect wrapper over node-oracledb 26 in thin mode (pure JavaScript, no Oracle Client libraries): connect,
 * execute, fetch pages of rows, executeMany, transactions, break, and a bounded close and abort.
 *
 * Narrow hooks into oracledb's thin protocol code keep full precision where its JS values lose it and let batch
 * mode skip them altogether; they only act on connections (their protocol capabilities carry
 * {@link RAW_TEMPORAL}) or result sets this driver opened, so other users of oracledb in the same process see its
 * normal behaviour:
 * - Row data (batch mode): `processRowData` keeps each fetched row's TTC bytes ({@link WireRows}) for the result
 *   set a {@link RowCapture} was installed for, instead of decoding a JS value per cell (see ResultPage.ts).
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
import { Effect, Option } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { epochDayOf, formatEpochNanos } from "../common/ArrowCells.ts"
import { fromOracleError } from "./Errors.ts"
import { hookLobIndices, hookLobPrefetch, LOB_PREFETCH } from "./LobPrefetch.ts"
import { LobPrefetchLength } from "./OracleOptions.ts"
import { offsetOfZoneBytes } from "./TimeZones.ts"

const require = createRequire(import.meta.url)

/** node-oracledb's module (typed loosely: the driver uses a small, stable part of it). @category internals @since 0.1.0 */
export const oracledb: OracleDbModule = require("oracledb")

/** oracledb's thin Statement: `_prepare` classifies a SQL text as oracledb does (lib/thin/statement.js Parser). */
const { Statement: StatementClass } = require("oracledb/lib/thin/statement.js") as {
  Statement?: {
    new(): { _prepare(sql: string): void; isQuery: boolean; isDml: boolean; isPlSql: boolean }
    prototype: Record<string, unknown>
  }
}

/** oracledb's execute message (lib/thin/protocol/messages/execute.js), for the define call of a parsed query. */
const { ExecuteMessage } = require("oracledb/lib/thin/protocol/messages/index.js") as {
  ExecuteMessage?: new(connection: unknown, statement: ThinStatement, options: Record<string, unknown>) => unknown
}

/** What oracledb's public getStatementInfo adds to each column (lib/util.js): its type name. */
const { addTypeProperties } = require("oracledb/lib/util.js") as {
  addTypeProperties: (metaData: object, attribute: string) => void
}

/** The parts of node-oracledb's module this driver uses. @category models @since 0.1.0 */
export interface OracleDbModule {
  readonly getConnection: (attributes: Record<string, unknown>) => Promise<OracleConnection>
  readonly OUT_FORMAT_ARRAY: number
  readonly STRING: DbType
  readonly BUFFER: DbType
  readonly BIND_IN: number
  readonly BIND_OUT: number
  readonly BIND_INOUT: number
  readonly versionString: string
  readonly thin: boolean
  readonly IntervalDS: new (fields: { days: number; hours: number; minutes: number; seconds: number; fseconds: number }) => unknown
  readonly IntervalYM: new (fields: { years: number; months: number }) => unknown
  readonly [dbType: `DB_TYPE_${string}`]: DbType
}

/** An oracledb DbType. @category models @since 0.1.0 */
export interface DbType {
  readonly num: number
  readonly name: string
  readonly columnTypeName: string
}

/** Column metadata as oracledb reports it, with the hook's raw precision and scale. @category models @since 0.1.0 */
export interface OracleMetaData {
  readonly name: string
  readonly dbType: DbType
  readonly dbTypeName?: string
  readonly precision?: number
  readonly scale?: number
  readonly byteSize?: number
  readonly nullable: boolean
  readonly isJson?: boolean
  readonly dbTypeClass?: { readonly fqn?: string; readonly isCollection?: boolean }
  readonly adbcPrecision?: number
  readonly adbcScale?: number
}

/** oracledb's ResultSet. @category models @since 0.1.0 */
export interface OracleResultSet {
  readonly metaData: ReadonlyArray<OracleMetaData>
  getRows(n: number): Promise<Array<Array<unknown>>>
  close(): Promise<void>
}

/** What `connection.execute` returns. @category models @since 0.1.0 */
export interface OracleExecuteResult {
  readonly metaData?: ReadonlyArray<OracleMetaData>
  readonly resultSet?: OracleResultSet
  readonly rows?: Array<Array<unknown>>
  readonly rowsAffected?: number
  readonly outBinds?: unknown
  readonly implicitResults?: ReadonlyArray<OracleResultSet>
}

/** oracledb's Connection. @category models @since 0.1.0 */
export interface OracleConnection {
  execute(sql: string, binds: unknown, options: Record<string, unknown>): Promise<OracleExecuteResult>
  executeMany(sql: string, binds: unknown, options: Record<string, unknown>): Promise<{ rowsAffected?: number }>
  getStatementInfo(sql: string): Promise<StatementInfo>
  commit(): Promise<void>
  rollback(): Promise<void>
  close(): Promise<void>
  breakExecution(): Promise<void>
  ping(): Promise<void>
  currentSchema: string
  readonly oracleServerVersionString: string
  /** The instance the session is bound to, from the logon reply (thin mode). */
  readonly instanceName?: string | undefined
  readonly transactionInProgress: boolean
  isHealthy(): boolean
  readonly _impl?: {
    readonly _protocol?: { readonly caps?: Record<PropertyKey, unknown> }
    /** Thin mode's network session: `forceDisconnect` destroys its socket (what oracledb's pool does to a hung connection). */
    readonly nscon?: { forceDisconnect?: (error?: Error) => void }
    /** Thin mode's statement cache (lib/thin/statementCache.js): statements by SQL text, with their cursor ids. */
    readonly statementCache?: {
      readonly _cachedStatements?: ReadonlyMap<string, ThinStatement>
      readonly _maxSize?: number
      /** Queues the statement's cursor for closing (sent with the next round trip) and forgets its id. */
      clearCursor?(statement: ThinStatement): void
    }
    /** The parse-only call behind `getStatementInfo`, taking the execute options (`keepInStmtCache` among them). */
    getStatementInfo?(sql: string, options: Record<string, unknown>): Promise<StatementInfo>
    /** Takes `sql`'s statement from the cache (in use until returned) as an execute with `options` would. */
    _prepare?(sql: string, options: Record<string, unknown>): ThinStatement
    /** Sends the define call a statement that `requiresDefine` needs (a full execute message with only DEFINE set). */
    _handleDefines?(statement: ThinStatement, message: unknown): Promise<void>
    _returnStatement?(statement: ThinStatement): void
  }
}

/** A statement of oracledb's thin statement cache (lib/thin/statement.js). @category models @since 0.1.0 */
export interface ThinStatement {
  readonly cursorId: number
  readonly inUse: boolean
  /** Whether the text is a PL/SQL block, as `_prepare` classified it. */
  readonly isPlSql?: boolean
  /** Set by a describe that found a LOB or JSON column: the next call on the cursor only defines, not executes. */
  readonly requiresDefine?: boolean
  _clearAllState?(): void
}

/** What a parse-only call (`getStatementInfo`) reports. @category models @since 0.1.0 */
export interface StatementInfo {
  readonly metaData?: ReadonlyArray<OracleMetaData>
  readonly statementType: number
  readonly bindNames: Array<string>
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
 * OSON and DbObject hooks), which ResultPage.ts `jsonText` writes into the JSON text unquoted, digit for digit.
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

/** Wire facts of one fetched column, from oracledb's statement variables. @category models @since 0.1.0 */
export interface WireColumn {
  /** Oracle type number of the define (2 NUMBER, 1 VARCHAR2, 12 DATE, 180 TIMESTAMP, …). */
  readonly oraTypeNum: number
  /** Character set form: 1 database character set (UTF-8), 2 national (UTF-16BE). */
  readonly csfrm: number
  /** Define buffer size; 0 means the server sends no bytes for the column. */
  readonly maxSize: number
}

/**
 * Rows of one fetch kept as their TTC wire bytes: row `r` starts at byte `starts[r]` of `bufs[r]` (a network
 * packet, or a copy when the row spans packets) with each sent column as a length-prefixed value (one length byte
 * ≤ 252, 0 or 255 for NULL, 254 for chunks of UB4 length + bytes ending with a zero length). `vectors` holds the
 * duplicate-column bit vectors of the rows that had one (a clear bit: the column was not sent, its value is the
 * previous row's).
 *
 * @category models
 * @since 0.1.0
 */
export class WireRows {
  readonly bufs: Array<Uint8Array> = []
  readonly starts: Array<number> = []
  readonly vectors = new Map<number, Uint8Array>()

  get length(): number {
    return this.starts.length
  }
}

/** The parts of oracledb's ReadPacket the row capture uses. */
interface ReadPacket {
  buf: Uint8Array
  pos: number
  size: number
  readBytesWithLength(): Uint8Array | null
}

const NULL_LENGTH = 255
const LONG_LENGTH = 254
const MAX_SHORT_LENGTH = 252
/** TTC message type of a row (oracledb constants.js TNS_MSG_TYPE_ROW_DATA). */
const ROW_DATA_MESSAGE = 7

/** End offset of a chunked value whose first chunk length starts at `p`, or -1 when it runs past `size`. */
const chunkedEnd = (b: Uint8Array, p: number, size: number): number => {
  while (p < size) {
    const width = b[p]!
    if (width === 0) return p + 1
    if (p + width >= size) return -1
    let length = 0
    for (let k = 1; k <= width; k++) length = length * 256 + b[p + k]!
    p += 1 + width + length
  }
  return -1
}

/** Whether column `c` was left out of a row as a duplicate of the previous row's value. @category internals @since 0.1.0 */
export const isDuplicate = (vector: Uint8Array | undefined, c: number): boolean =>
  vector !== undefined && (vector[c >>> 3]! & (1 << (c & 7))) === 0

/**
 * Collects the rows oracledb receives for one result set as wire bytes instead of JS values (see the
 * `processRowData` hook). Only installed for result sets whose every column is a length-prefixed scalar.
 *
 * @category internals
 * @since 0.1.0
 */
export class RowCapture {
  rows = new WireRows()
  constructor(readonly owner: unknown, readonly width: number) {}

  take(): WireRows {
    const rows = this.rows
    this.rows = new WireRows()
    return rows
  }

  /**
   * Records the row at the read position and moves past it, then every further ROW_DATA message that lies wholly
   * in the same packet (so oracledb's per-message dispatch runs once per run of rows; a row that is not wholly
   * there is left to the next message, so a wait for packets never repeats a recorded row). Throws oracledb's
   * OutOfPacketsError unchanged, having recorded nothing.
   */
  capture(packet: ReadPacket, bitVector: Uint8Array | null): void {
    const vector = bitVector ?? undefined
    if (!this.captureInPacket(packet, packet.pos, vector)) this.captureAcrossPackets(packet, vector)
    const b = packet.buf
    while (packet.pos < packet.size && b[packet.pos] === ROW_DATA_MESSAGE) {
      if (!this.captureInPacket(packet, packet.pos + 1, undefined)) break
    }
  }

  /** Records the row starting at `start` if it ends within the current packet. */
  private captureInPacket(packet: ReadPacket, start: number, vector: Uint8Array | undefined): boolean {
    const b = packet.buf
    const size = packet.size
    let p = start
    for (let c = 0; c < this.width && p >= 0; c++) {
      if (vector !== undefined && isDuplicate(vector, c)) continue
      if (p >= size) p = -1
      else {
        const length = b[p]!
        p = length === 0 || length === NULL_LENGTH ? p + 1 : length === LONG_LENGTH ? chunkedEnd(b, p + 1, size) : p + 1 + length
      }
    }
    if (p < 0 || p > size) return false
    this.record(b, start, vector)
    packet.pos = p
    return true
  }

  private captureAcrossPackets(packet: ReadPacket, vector: Uint8Array | undefined): void {
    // The row spans packets: read it through oracledb (which waits for the next packet, or throws
    // OutOfPacketsError to have the whole row read again) and keep a contiguous copy.
    const values: Array<Uint8Array | null> = []
    let bytes = 0
    for (let c = 0; c < this.width; c++) {
      if (isDuplicate(vector, c)) continue
      const value = packet.readBytesWithLength()
      // Copied: chunked reads reuse oracledb's buffer.
      values.push(value === null ? null : Uint8Array.prototype.slice.call(value))
      bytes += value === null ? 1 : value.length + 8
    }
    const row = new Uint8Array(bytes)
    let o = 0
    for (const value of values) {
      if (value === null) row[o++] = 0
      else if (value.length <= MAX_SHORT_LENGTH) {
        row[o++] = value.length
        row.set(value, o)
        o += value.length
      } else {
        row[o++] = LONG_LENGTH
        row[o++] = 4
        new DataView(row.buffer).setUint32(o, value.length)
        row.set(value, o + 4)
        o += 4 + value.length
        row[o++] = 0
      }
    }
    this.record(row, 0, vector)
  }

  private record(buf: Uint8Array, start: number, vector: Uint8Array | undefined): void {
    const rows = this.rows
    if (vector !== undefined) rows.vectors.set(rows.starts.length, vector)
    rows.bufs.push(buf)
    rows.starts.push(start)
  }
}

/** oracledb's internals of a result set, as far as the row capture needs them. */
interface ResultSetInternals {
  readonly _impl?: {
    readonly statement?: {
      readonly queryVars?: ReadonlyArray<{
        readonly type: { readonly _oraTypeNum: number; readonly _csfrm: number }
        readonly maxSize: number
        readonly values: ReadonlyArray<unknown>
      }>
      readonly bufferRowCount: number
      readonly bufferRowIndex: number
      readonly lastRowIndex: number
      [ROW_CAPTURE]?: RowCapture | undefined
    }
  }
}

const ROW_CAPTURE: unique symbol = Symbol.for("effect-adbc/oracle/row-capture")

const statementOf = (resultSet: OracleResultSet) => (resultSet as ResultSetInternals)._impl?.statement

/**
 * The wire columns of a result set, or undefined when oracledb's internals are not as expected (the caller then
 * keeps oracledb's own decoding).
 *
 * @category operations
 * @since 0.1.0
 */
export const wireColumns = (resultSet: OracleResultSet): ReadonlyArray<WireColumn> | undefined => {
  const vars = statementOf(resultSet)?.queryVars
  if (vars === undefined || vars.length !== resultSet.metaData.length) return undefined
  return vars.map((v) => ({ oraTypeNum: v.type._oraTypeNum, csfrm: v.type._csfrm, maxSize: v.maxSize }))
}

/** Rows oracledb has fetched for `resultSet` that `getRows` has not returned yet. @category operations @since 0.1.0 */
export const bufferedRowCount = (resultSet: OracleResultSet): number => {
  const statement = statementOf(resultSet)
  return statement === undefined ? 0 : statement.bufferRowCount - statement.bufferRowIndex
}

/**
 * The last value oracledb decoded for each column (a later wire row may repeat it as a duplicate).
 *
 * @category operations
 * @since 0.1.0
 */
export const lastDecodedValues = (resultSet: OracleResultSet): ReadonlyArray<unknown> => {
  const statement = statementOf(resultSet)
  return (statement?.queryVars ?? []).map((v) => v.values[statement!.lastRowIndex])
}

/**
 * Fetches up to `rows` rows of `resultSet` as wire bytes (see {@link WireRows}); an empty result means the result
 * set is exhausted. The first call installs the capture, which stays until {@link stopCapture}. oracledb's
 * buffered rows must have been read with `getRows` first.
 *
 * @category operations
 * @since 0.1.0
 */
export const fetchWireRows = async (resultSet: OracleResultSet, rows: number): Promise<WireRows> => {
  const statement = statementOf(resultSet)
  if (statement === undefined || bufferedRowCount(resultSet) !== 0) {
    throw new Error("fetchWireRows: the result set has rows buffered or no oracledb statement")
  }
  let capture = statement[ROW_CAPTURE]
  if (capture === undefined || capture.owner !== (resultSet as ResultSetInternals)._impl) {
    capture = new RowCapture((resultSet as ResultSetInternals)._impl, resultSet.metaData.length)
    statement[ROW_CAPTURE] = capture
  }
  capture.take()
  const decoded = await resultSet.getRows(rows)
  if (decoded.length !== 0) throw new Error("fetchWireRows: oracledb decoded rows while the capture was installed")
  return capture.take()
}

/** Removes the row capture of `resultSet` (before it is closed and its statement cached). @category operations @since 0.1.0 */
export const stopCapture = (resultSet: OracleResultSet): void => {
  const statement = statementOf(resultSet)
  if (statement !== undefined) delete statement[ROW_CAPTURE]
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

/**
 * How long a break, a cursor release or a LOGOFF may wait for the server before the connection is given up
 * ({@link abort}): an interrupted fiber or a closing scope returns within about a second even when the server
 * stopped answering.
 *
 * @category constants
 * @since 0.1.0
 */
export const ANSWER_BUDGET_MS = 800

/**
 * Drops the connection at once without asking the server: its socket is destroyed (thin mode's
 * `NetworkSession.forceDisconnect`, which oracledb's own pool uses on a hung connection), calls in flight fail NJS-500
 * (IO) and the server rolls back what was open. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const abort = (connection: OracleConnection): Effect.Effect<void> =>
  Effect.sync(() => {
    try {
      connection._impl?.nscon?.forceDisconnect?.(
        new Error(`the driver dropped the connection: the server did not answer within ${ANSWER_BUDGET_MS} ms`)
      )
    } catch {
      // already closed
    }
  })

/**
 * Runs `effect` (interruptibly, even inside a finalizer); when the server has not answered within
 * {@link ANSWER_BUDGET_MS}, drops the connection instead. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const withinBudget = (
  connection: OracleConnection,
  effect: Effect.Effect<unknown, unknown>,
  budgetMs: number = ANSWER_BUDGET_MS
): Effect.Effect<void> =>
  Effect.interruptible(effect).pipe(
    Effect.timeoutOption(budgetMs),
    Effect.flatMap((answered) => Option.isNone(answered) ? abort(connection) : Effect.void),
    Effect.catchCause(() => Effect.void)
  )

/** How a call ended: its value, or its error. */
type Outcome<A> = { readonly _tag: "Value"; readonly value: A } | { readonly _tag: "Error"; readonly error: AdbcError }

/**
 * Stops a call whose caller was interrupted: a break (the call then fails ORA-01013 after the break/reset exchange),
 * then its end is awaited, so that the connection is idle again when the interrupted fiber returns. A call answered
 * before the break reached it has what it opened released (`release`, for result sets nobody will read). Then a
 * ping: it carries the cursor closes and cancels oracledb queued for the interrupted statement (otherwise sent with
 * the next call, whenever that comes), and takes a break that missed its call, which would fail the next call with
 * ORA-01013. A server that does not answer within {@link ANSWER_BUDGET_MS} gets the connection dropped.
 */
const interruptCall = <A>(
  connection: OracleConnection,
  ended: Promise<Outcome<A>>,
  release: ((value: A) => Promise<unknown>) | undefined,
  budgetMs: number = ANSWER_BUDGET_MS
): Effect.Effect<void> =>
  withinBudget(
    connection,
    Effect.promise(async () => {
      await connection.breakExecution().catch(() => undefined)
      const outcome = await ended
      if (outcome._tag === "Value") await release?.(outcome.value).catch(() => undefined)
      await connection.ping().catch(() => undefined)
    }),
    budgetMs
  )

/**
 * Runs one oracledb call. Interrupting the fiber breaks the running call on the server and waits (bounded) for it to
 * end, so an interrupted query never keeps running and the connection is ready for the next call; `release` closes
 * what a call answered after its caller was interrupted had opened.
 *
 * @category operations
 * @since 0.1.0
 */
export const call = <A>(
  connection: OracleConnection | undefined,
  run: () => Promise<A>,
  release?: ((value: A) => Promise<unknown>) | undefined
): Effect.Effect<A, AdbcError> =>
  callWith(run, connection === undefined ? undefined : (settled, ended) =>
    Effect.suspend(() => settled() ? Effect.void : interruptCall(connection, ended, release)))

/** Runs one oracledb call; `onInterrupt` (given whether the call ended, and its end) stops it for an interrupted caller. */
const callWith = <A>(
  run: () => Promise<A>,
  onInterrupt: ((settled: () => boolean, ended: Promise<Outcome<A>>) => Effect.Effect<void>) | undefined
): Effect.Effect<A, AdbcError> =>
  Effect.callback<A, AdbcError>((resume) => {
    let promise: Promise<A>
    try {
      promise = run()
    } catch (e) {
      resume(Effect.fail(fromOracleError(e)))
      return
    }
    let settled = false
    const ended = promise.then(
      (value): Outcome<A> => {
        settled = true
        resume(Effect.succeed(value))
        return { _tag: "Value", value }
      },
      (e): Outcome<A> => {
        settled = true
        const error = fromOracleError(e)
        resume(Effect.fail(error))
        return { _tag: "Error", error }
      }
    )
    if (onInterrupt === undefined) return
    return onInterrupt(() => settled, ended)
  })

/**
 * The kind of statement `sql` is, for the parse ahead: a query or DML keeps the cursor its parse opens; oracledb
 * caches no DDL, and runs a PL/SQL block's first execute as one iteration to settle its bind directions, which a
 * parse would skip.
 */
const statementKind = (sql: string): "query" | "dml" | "plsql" | "other" => {
  if (StatementClass === undefined) return "other"
  const statement = new StatementClass()
  statement._prepare(sql)
  return statement.isQuery ? "query" : statement.isDml ? "dml" : statement.isPlSql ? "plsql" : "other"
}

/** Whether `sql` is a PL/SQL block (BEGIN, DECLARE, CALL), as oracledb classifies it. @category operations @since 0.1.0 */
export const isPlsql = (sql: string): boolean => statementKind(sql) === "plsql"

/** Whether `sql` is DML (INSERT, UPDATE, DELETE, MERGE), as oracledb classifies it. @category operations @since 0.1.0 */
export const isDml = (sql: string): boolean => statementKind(sql) === "dml"

/**
 * Whether the reply to an execute of `sql` may name server cursors the client does not know yet: a text oracledb
 * holds no cursor for (DDL, which it never caches, and every text with `stmtCacheSize=0` among them) and a PL/SQL
 * block, whose implicit result sets are new cursors on every run.
 */
const repliesWithNewCursors = (connection: OracleConnection, sql: string): boolean => {
  const cached = connection._impl?.statementCache?._cachedStatements?.get(sql)
  return cached === undefined || cached.cursorId === 0 || cached.inUse || cached.isPlSql === true
}

/**
 * Runs an execute (or executeMany) of `sql` as {@link call} does; when its reply may name cursors the client does not
 * know yet, an interruption lets it end first ({@link callToEnd}), so a break never makes oracledb drop that reply
 * and orphan them.
 *
 * @category operations
 * @since 0.1.0
 */
export const callExecute = <A>(
  connection: OracleConnection,
  sql: string,
  run: () => Promise<A>,
  release?: ((value: A) => Promise<boolean>) | undefined
): Effect.Effect<A, AdbcError> =>
  Effect.suspend(() => repliesWithNewCursors(connection, sql) ? callToEnd(connection, run, release) : call(connection, run, release))

/**
 * Like {@link call}, for a call that should not be broken: an interrupted caller first waits (half of
 * {@link ANSWER_BUDGET_MS}) for the call to end by itself, and breaks it only when it does not, within the other half.
 * A call that ended has what it opened released (`release`, as for {@link call}), then the closes are sent.
 *
 * This is for a call whose reply alone names server cursors it opened (a new SQL text's cursor, implicit result
 * sets): oracledb drops a reply that a break crosses (see {@link openCursor}), and those cursors would stay open on
 * the server until the session ends. A break that reaches the call while the server still runs it is answered by
 * ORA-01013 naming the call's cursor, which oracledb then closes.
 *
 * @category operations
 * @since 0.1.0
 */
export const callToEnd = <A>(
  connection: OracleConnection,
  run: () => Promise<A>,
  release?: ((value: A) => Promise<boolean>) | undefined
): Effect.Effect<A, AdbcError> =>
  callWith(run, (_settled, ended) =>
    Effect.promise(() => ended).pipe(
      Effect.timeoutOption(ANSWER_BUDGET_MS / 2),
      Effect.flatMap((answered) => {
        if (Option.isNone(answered)) return interruptCall(connection, ended, release, ANSWER_BUDGET_MS / 2)
        const outcome = answered.value
        if (outcome._tag === "Error" || release === undefined) return Effect.void
        return withinBudget(
          connection,
          Effect.promise(async () => {
            if (await release(outcome.value).catch(() => false)) await connection.ping().catch(() => undefined)
          }),
          ANSWER_BUDGET_MS / 2
        )
      })
    ))

/**
 * Parses `sql` without executing it and reports its columns and binds (oracledb's `getStatementInfo`). A query or
 * DML statement stays in oracledb's statement cache with the server cursor the parse opened, so that its execute
 * reuses that cursor (see {@link openCursor}); oracledb's public `getStatementInfo` would close it instead.
 * `executeOptions` are those of the execute that follows (its fetch types decide how LOB and JSON columns are
 * defined). With `keepQuery` false a query's parsed cursor is closed as oracledb's `getStatementInfo` does: the
 * first execute of a query with bound parameters on a known cursor is a full one, which fetches
 * `fetchArraySize` rows instead of `prefetchRows` (lib/thin/protocol/messages/execute.js), so such a query is
 * parsed again by its execute. The parse, and the define as a call of its own, is not broken by an interruption
 * unless it outlasts half of {@link ANSWER_BUDGET_MS}.
 *
 * @category operations
 * @since 0.1.0
 */
export const statementInfo = (
  connection: OracleConnection,
  sql: string,
  executeOptions: Record<string, unknown> = {},
  keepQuery = true
): Effect.Effect<StatementInfo, AdbcError> => {
  const impl = connection._impl
  if (impl?.getStatementInfo === undefined) return call(connection, () => connection.getStatementInfo(sql))
  const parse = impl.getStatementInfo.bind(impl)
  const kind = statementKind(sql)
  const options = { ...executeOptions, connection, keepInStmtCache: kind === "dml" || (kind === "query" && keepQuery) }
  return Effect.map(
    // two calls, each awaited on its own: an interruption during the parse stops before the define, which the next
    // openCursor of the text then makes
    Effect.tap(callToEnd(connection, () => parse(sql, options)), () => callToEnd(connection, () => defineParsed(impl, sql, options))),
    (info) => {
      // what the public getStatementInfo adds (lib/connection.js): the type name of each column
      for (const m of info.metaData ?? []) addTypeProperties(m, "dbType")
      return info
    }
  )
}

/** Whether `sql`'s cached statement has a cursor that still needs its define (see {@link defineParsed}). */
const needsDefine = (impl: NonNullable<OracleConnection["_impl"]>, sql: string): boolean => {
  const cached = impl.statementCache?._cachedStatements?.get(sql)
  return cached !== undefined && cached.cursorId !== 0 && cached.requiresDefine === true && !cached.inUse
}

/**
 * The define call of a parsed query with a LOB, JSON or VECTOR column, whose cursor oracledb defines only after an
 * execute (lib/thin/connection.js `_handleDefines`); an execute of a cursor still marked `requiresDefine` sends
 * only the define and never executes (the fetch then fails ORA-01002). Defined here, the cursor is in the state
 * oracledb leaves a cached LOB query in after its first execute, and the execute reuses it. Without the internals
 * this needs, the parsed cursor is closed instead (its id is known) and the execute parses anew.
 */
const defineParsed = async (
  impl: NonNullable<OracleConnection["_impl"]>,
  sql: string,
  options: Record<string, unknown>
): Promise<void> => {
  if (!needsDefine(impl, sql)) return
  if (impl._prepare === undefined || impl._handleDefines === undefined || impl._returnStatement === undefined || ExecuteMessage === undefined) {
    const parsed = impl.statementCache?._cachedStatements?.get(sql)
    if (parsed !== undefined) {
      impl.statementCache?.clearCursor?.(parsed)
      parsed._clearAllState?.()
    }
    return
  }
  const statement = impl._prepare(sql, options)
  try {
    await impl._handleDefines(statement, new ExecuteMessage(impl, statement, options))
  } finally {
    impl._returnStatement(statement)
  }
}

/**
 * Makes sure the server cursor `sql` will execute on is one the client knows, before the execute runs.
 *
 * A statement oracledb has no cursor for is parsed and executed by one call, whose reply carries the new cursor's
 * id. A break that crosses that reply (the server answered before the break reached it) makes oracledb discard the
 * reply while it resets the connection (lib/thin/protocol/protocol.js `_decodeMessage`), so the client never learns
 * the cursor and the server keeps it open until the session ends (it stays in V$OPEN_CURSOR). So a query or DML text
 * without a cached cursor is first parsed by {@link statementInfo}, a call that is not broken, and the execute then
 * runs on the cursor that parse opened: a break of the execute leaves a cursor the client closes or reuses.
 * `executeOptions` are the execute's (see {@link statementInfo}). Not covered here: PL/SQL and DDL texts (see
 * `statementKind`), queries with bound parameters (see {@link statementInfo}) and everything when the statement
 * cache is off (`stmtCacheSize=0`); their executes go through {@link callExecute}.
 *
 * @category operations
 * @since 0.1.0
 */
export const openCursor = (
  connection: OracleConnection,
  sql: string,
  executeOptions: Record<string, unknown> = {}
): Effect.Effect<void, AdbcError> =>
  Effect.suspend(() => {
    const cache = connection._impl?.statementCache
    if (cache?._cachedStatements === undefined || (cache._maxSize ?? 0) <= 0) return Effect.void
    const impl = connection._impl!
    const options = { ...executeOptions, connection, keepInStmtCache: true }
    // a parse whose define an interruption stopped gets it now
    if (needsDefine(impl, sql)) return callToEnd(connection, () => defineParsed(impl, sql, options))
    const cached = cache._cachedStatements.get(sql)
    if (cached !== undefined && (cached.cursorId !== 0 || cached.inUse)) return Effect.void
    const kind = statementKind(sql)
    if (kind === "other" || kind === "plsql") return Effect.void
    return Effect.asVoid(statementInfo(connection, sql, executeOptions))
  })

/**
 * Opens a connection and marks it for the precision hooks and for LOB prefetch of `lobPrefetchLength` characters /
 * bytes (0: none). `timeoutMs` bounds the whole connect.
 *
 * @category operations
 * @since 0.1.0
 */
export const connect = (
  attributes: Record<string, unknown>,
  timeoutMs?: number | undefined,
  lobPrefetchLength: number = LobPrefetchLength.default
): Effect.Effect<OracleConnection, AdbcError> => {
  const unsupported = installHooks()
  if (unsupported !== undefined) return Effect.fail(unsupported)
  const open = Effect.callback<OracleConnection, AdbcError>((resume) => {
    let settled = false
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      if (settled) return
      settled = true
      resume(Effect.fail(adbcError("TIMEOUT", `connecting timed out after ${timeoutMs} ms`)))
    }, timeoutMs)
    oracledb.getConnection({ ...attributes }).then(
      (connection) => {
        if (settled) {
          connection.close().catch(() => undefined)
          return
        }
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        const caps = connection._impl?._protocol?.caps
        if (caps === undefined) {
          connection.close().catch(() => undefined)
          resume(Effect.fail(adbcError("INTERNAL", "node-oracledb is not in thin mode; the Oracle driver needs thin mode")))
          return
        }
        caps[RAW_TEMPORAL] = true
        caps[LOB_PREFETCH] = lobPrefetchLength
        resume(Effect.succeed(connection))
      },
      (e) => {
        if (settled) return
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        resume(Effect.fail(fromOracleError(e)))
      }
    )
    return Effect.sync(() => {
      settled = true
      if (timer !== undefined) clearTimeout(timer)
    })
  })
  return open
}

/**
 * Closes a connection (rollback when a transaction is open, then LOGOFF); a server that does not answer within
 * {@link ANSWER_BUDGET_MS} gets the connection dropped. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const disconnect = (connection: OracleConnection): Effect.Effect<void> =>
  withinBudget(connection, Effect.promise(() => connection.close().catch(() => undefined)))

/** Result sets this driver closed (a result set is closed once, whichever of its owners gets there first). */
const closedResultSets = new WeakSet<OracleResultSet>()

/** Closes a result set on the client unless it was closed already; true when it was still open. */
const closeOnce = async (resultSet: OracleResultSet): Promise<boolean> => {
  if (closedResultSets.has(resultSet)) return false
  closedResultSets.add(resultSet)
  await resultSet.close().catch(() => undefined)
  return true
}

/**
 * Closes a result set on the client (once; never fails); true when it was still open. oracledb keeps the statement
 * for reuse and asks the server to close or cancel its cursor on the connection's next round trip
 * ({@link releaseCursors} makes that now).
 *
 * @category operations
 * @since 0.1.0
 */
export const closeResultSet = (resultSet: OracleResultSet): Effect.Effect<boolean> =>
  Effect.promise(() => closeOnce(resultSet))

/**
 * Closes the result sets of an execute's result (its result set and implicit results) that are still open, on the
 * client; true when one was. For results nobody will read: a call answered after its caller was interrupted.
 *
 * @category operations
 * @since 0.1.0
 */
export const closeResults = async (result: OracleExecuteResult): Promise<boolean> => {
  let closed = false
  for (const rs of [result.resultSet, ...(result.implicitResults ?? [])]) {
    if (rs !== undefined && await closeOnce(rs)) closed = true
  }
  return closed
}

/**
 * Closes what a result still holds open (see {@link closeResults}) and releases the server cursors at once; the
 * finalizer of an execute, in case its result never reached a reader. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const releaseResults = (connection: OracleConnection, result: OracleExecuteResult): Effect.Effect<void> =>
  Effect.flatMap(Effect.promise(() => closeResults(result)), (closed) => closed ? releaseCursors(connection) : Effect.void)

/**
 * Sends the cursor closes and cancels oracledb holds back for the next round trip (piggybacked on a ping), so that a
 * result set closed before its end releases its server cursor now rather than at the next statement, which may
 * come much later. Bounded like every cleanup; never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const releaseCursors = (connection: OracleConnection): Effect.Effect<void> =>
  withinBudget(connection, Effect.promise(() => connection.ping().catch(() => undefined)))

/**
 * Runs a small internal query (catalog, session values) and returns all rows as arrays.
 *
 * @category operations
 * @since 0.1.0
 */
export const queryAll = (
  connection: OracleConnection,
  sql: string,
  binds: ReadonlyArray<unknown> = []
): Effect.Effect<Array<Array<unknown>>, AdbcError> =>
  Effect.map(
    call(connection, () => connection.execute(sql, [...binds], { outFormat: oracledb.OUT_FORMAT_ARRAY, maxRows: 0 })),
    (result) => result.rows ?? []
  )
