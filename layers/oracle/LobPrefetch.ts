/**
 * LOB prefetch for the driver's connections: the define of a CLOB, NCLOB or BLOB result column asks the server to
 * send the first `redo.connection.lob_prefetch_length` characters (default 4000, the size the driver's fetch memory estimate assumes for a LOB column) (CLOB) or bytes (BLOB) of each LOB with its locator, so that
 * a LOB no longer than that is read without a LOB read round trip, while an empty LOB still arrives as a locator of
 * length 0 (not NULL) and a longer LOB is read through its locator as before.
 *
 * node-oracledb thin defines LOB columns with the LOB prefetch flag but a prefetch length of 0
 * (lib/thin/protocol/messages/withData.js `writeColumnMetadata`), so it receives each LOB's length and chunk size
 * but no data; its own `lobPrefetchSize` setting is a thick-mode one. It does request prefetched data for JSON and
 * VECTOR columns (LOB-stored types), with the define's buffer size equal to the prefetch length, and reads such a
 * value as: UB4 locator length (0: NULL), UB8 LOB length, UB4 chunk size, the data, the locator
 * (lib/thin/protocol/packet.js `readOson`, `readVector`). A CLOB's data is preceded by its character set: a flag
 * byte (1: a UB2 character set id follows) and the character set form, as the go-ora thin client reads prefetched
 * CLOBs (github.com/sijms/go-ora v2/parameter.go `decodeColumnValue`). OCI has the same feature as
 * OCI_ATTR_LOBPREFETCH_SIZE / OCI_ATTR_DEFAULT_LOBPREFETCH_SIZE (Oracle Call Interface Developer's Guide, "LOB
 * Prefetching"), JDBC as `oracle.jdbc.defaultLobPrefetchSize`.
 *
 * The define and row hooks act only on connections whose protocol capabilities carry {@link LOB_PREFETCH} (set by
 * the driver's connect), and only on the defines and fetched rows of queries; binds and other users of oracledb are
 * untouched. The result-set hook ({@link hookLobIndices}) acts only on columns whose converter is a
 * {@link lobConverter}. The wire order above is not checked against a real server here (the test server implements
 * it as described); a server that answered a prefetch define otherwise would fail the row decoding of LOB columns.
 *
 * @since 0.1.0
 */

/**
 * Key of the protocol capabilities of a connection whose LOB defines ask for prefetched data; its value is the
 * prefetch length.
 *
 * @category internals
 * @since 0.1.0
 */
export const LOB_PREFETCH: unique symbol = Symbol.for("effect-adbc/oracle/lob-prefetch")

import { createRequire } from "node:module"

const require = createRequire(import.meta.url)

/** The whole value of a LOB that arrived complete with its locator. */
const PREFETCHED: unique symbol = Symbol.for("effect-adbc/oracle/lob-prefetched")

/** oracledb thin constants (lib/thin/protocol/constants.js) the define and the row reading use. */
const TNS = {
  DATA_TYPE_CLOB: 112,
  DATA_TYPE_BLOB: 113,
  BIND_USE_INDICATORS: 0x0001,
  LOB_PREFETCH_FLAG: 0x2000000,
  CHARSET_UTF8: 873,
  CHARSET_UTF16: 2000,
  CSFRM_NCHAR: 2,
  FIELD_VERSION_12_2: 8
} as const

interface DbType {
  readonly _oraTypeNum: number
  readonly _csfrm: number
}

interface Variable {
  readonly type: DbType
  readonly maxSize: number
  readonly isArray?: boolean
  readonly objType?: unknown
}

interface WritePacket {
  readonly caps?: Record<PropertyKey, unknown> & { ttcFieldVersion?: number }
  writeUInt8(v: number): void
  writeUB2(v: number): void
  writeUB4(v: number): void
}

interface ReadPacket {
  readonly caps?: Record<PropertyKey, unknown> & { maxStringSize?: number }
  readUInt8(): number
  readUB2(): number
  readUB4(): number
  readUB8(): number
  readBytesWithLength(): Uint8Array | null
  skipSB4(): void
  skipUB4(): void
}

interface Message {
  readonly inFetch?: boolean
  readonly connection?: unknown
  readonly statement?: { readonly queryVars?: ReadonlyArray<Variable> }
}

type LobImplClass = new() => { init(conn: unknown, locator: Buffer, dbType: DbType, length: number, chunkSize: number): void }

const isLob = (type: DbType | undefined): boolean =>
  type !== undefined && (type._oraTypeNum === TNS.DATA_TYPE_CLOB || type._oraTypeNum === TNS.DATA_TYPE_BLOB)

const prefetchLengthOf = (caps: Record<PropertyKey, unknown> | undefined): number => {
  const length = caps?.[LOB_PREFETCH]
  return typeof length === "number" && length > 0 ? length : 0
}

/** Writes the define of one LOB column with LOB prefetch (the field order of oracledb's `writeColumnMetadata`). */
const writeLobDefine = (buf: WritePacket, type: DbType, length: number): void => {
  buf.writeUInt8(type._oraTypeNum)
  buf.writeUInt8(TNS.BIND_USE_INDICATORS)
  buf.writeUInt8(0) // precision
  buf.writeUInt8(0) // scale
  buf.writeUB4(length) // buffer size: the prefetch length, as oracledb defines JSON and VECTOR
  buf.writeUB4(0) // max array elements
  buf.writeUB4(TNS.LOB_PREFETCH_FLAG)
  buf.writeUB4(0) // type OID
  buf.writeUB2(0) // type version
  buf.writeUB2(type._csfrm !== 0 ? TNS.CHARSET_UTF8 : 0)
  buf.writeUInt8(type._csfrm)
  buf.writeUB4(length) // LOB prefetch length
  if ((buf.caps?.ttcFieldVersion ?? 0) >= TNS.FIELD_VERSION_12_2) buf.writeUB4(0) // oaccolid
}

/** Text of prefetched CLOB data in character set `id` (0: the form's, AL32UTF8 or AL16UTF16), or undefined. */
const decodeText = (data: Uint8Array, id: number, form: number): string | undefined => {
  const charset = id !== 0 ? id : form === TNS.CSFRM_NCHAR ? TNS.CHARSET_UTF16 : TNS.CHARSET_UTF8
  if (charset === TNS.CHARSET_UTF8) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8")
  if (charset === TNS.CHARSET_UTF16 && data.length % 2 === 0) return Buffer.from(data).swap16().toString("utf16le")
  return undefined
}

/**
 * Reads a LOB column value sent with prefetched data: a Lob (oracledb's ThinLobImpl) carrying its whole value when
 * the data is the whole LOB, or null.
 */
const readPrefetchedLob = (buf: ReadPacket, LobImpl: LobImplClass, connection: unknown, type: DbType): unknown => {
  if (buf.readUB4() === 0) return null
  const length = buf.readUB8()
  const chunkSize = buf.readUB4()
  let id = 0
  let form = 0
  const clob = type._oraTypeNum === TNS.DATA_TYPE_CLOB
  if (clob) {
    if (buf.readUInt8() === 1) id = buf.readUB2()
    form = buf.readUInt8()
  }
  const data = buf.readBytesWithLength() ?? new Uint8Array(0)
  const value: string | Buffer | undefined = clob ? decodeText(data, id, form) : Buffer.from(data)
  const locator = Buffer.from(buf.readBytesWithLength() ?? new Uint8Array(0))
  const lob = new LobImpl()
  lob.init(connection, locator, type, length, chunkSize)
  // a longer LOB arrives with its first part only: it is read through the locator
  if (value !== undefined && value.length === length) (lob as { [PREFETCHED]?: string | Buffer })[PREFETCHED] = value
  return lob
}

/**
 * Installs the define and row-reading hooks on oracledb's MessageWithData prototype (see the module comment).
 *
 * @category internals
 * @since 0.1.0
 */
export const hookLobPrefetch = (messageWithData: Record<string, unknown>, LobImpl: LobImplClass): void => {
  const writeColumnMetadata = messageWithData["writeColumnMetadata"] as (this: Message, buf: WritePacket, vars: ReadonlyArray<Variable>) => void
  messageWithData["writeColumnMetadata"] = function(this: Message, buf: WritePacket, vars: ReadonlyArray<Variable>) {
    const length = prefetchLengthOf(buf.caps)
    if (length === 0 || vars !== this.statement?.queryVars) return writeColumnMetadata.call(this, buf, vars)
    for (const v of vars) {
      if (isLob(v.type) && v.isArray !== true && v.objType === undefined) writeLobDefine(buf, v.type, length)
      else writeColumnMetadata.call(this, buf, [v])
    }
  }
  const processColumnData = messageWithData["processColumnData"] as (this: Message, buf: ReadPacket, v: Variable, pos: unknown) => unknown
  // called for every fetched cell oracledb decodes: the LOB type test first, and no rest arguments
  messageWithData["processColumnData"] = function(this: Message, buf: ReadPacket, v: Variable, pos: unknown) {
    if (
      !isLob(v.type) || this.inFetch !== true || v.maxSize === 0 || prefetchLengthOf(buf.caps) === 0 ||
      this.statement?.queryVars?.includes(v) !== true
    ) return processColumnData.call(this, buf, v, pos)
    const value = readPrefetchedLob(buf, LobImpl, this.connection, v.type)
    // what oracledb reads after a fetched value whose buffer exceeds the longest string (processColumnData)
    if (v.maxSize > (buf.caps?.maxStringSize ?? Infinity)) {
      buf.skipSB4()
      buf.skipUB4()
    }
    return value
  }
}

/** Marks a converter that takes oracledb's internal LOB (see {@link lobConverter}). */
const TAKES_LOB_IMPL: unique symbol = Symbol.for("effect-adbc/oracle/takes-lob-impl")

/** The parts of oracledb's internal LOB (lib/thin/lob.js ThinLobImpl) a converter uses. */
export interface LobImpl {
  readonly _isTempLob?: boolean
  readonly [PREFETCHED]?: string | Buffer
}

/** The parts of oracledb's user-facing Lob (lib/lob.js) that reading one through its locator uses. */
export interface LobStream {
  readonly length: number
  getData(): Promise<string | Buffer | null>
  destroy(): void
}

/**
 * A fetchTypeHandler converter of LOB columns that receives oracledb's internal LOB instead of a `Lob` stream:
 * `whole` when the value came with its locator (a temporary LOB is then closed: oracledb sends its free with the
 * next call; a table LOB's locator holds nothing on the server, and oracledb's own close sends nothing for it),
 * else `read(lob)` with a `Lob` stream made only then. oracledb makes a `Lob` (a Node.js Duplex stream) of every
 * fetched LOB before converters run (lib/resultset.js); the {@link hookLobPrefetch} hook leaves that out for the
 * columns of such a converter, which saves most of the client's cost of a small LOB.
 *
 * @category internals
 * @since 0.1.0
 */
export const lobConverter = <A>(
  read: (lob: LobStream) => Promise<A>
): (impl: LobImpl | null) => string | Buffer | null | Promise<A> => {
  const convert = (impl: LobImpl | null): string | Buffer | null | Promise<A> => {
    if (impl === null) return null
    const whole = impl[PREFETCHED]
    if (whole === undefined) return read(lobStreamOf(impl))
    if (impl._isTempLob !== false) (impl as { close?: () => void }).close?.()
    return whole
  }
  ;(convert as { [TAKES_LOB_IMPL]?: boolean })[TAKES_LOB_IMPL] = true
  return convert
}

let LobClass: (new() => LobStream & { _setup(impl: LobImpl, autoClose: boolean): void }) | undefined

const lobStreamOf = (impl: LobImpl): LobStream => {
  LobClass ??= require("oracledb/lib/lob.js") as typeof LobClass
  const lob = new LobClass!()
  lob._setup(impl, true)
  return lob
}

/**
 * Leaves the columns of a {@link lobConverter} out of oracledb's `Lob` wrapping, on its ResultSetImpl prototype.
 *
 * @category internals
 * @since 0.1.0
 */
export const hookLobIndices = (resultSetImpl: Record<string, unknown>): void => {
  const setup = resultSetImpl["_setup"] as (this: ResultSetImplFields, ...args: Array<unknown>) => unknown
  resultSetImpl["_setup"] = function(this: ResultSetImplFields, ...args: Array<unknown>) {
    const result = setup.apply(this, args)
    if (this.lobIndices.length > 0) {
      this.lobIndices = this.lobIndices.filter((i) =>
        (this.metaData[i]?.converter as { [TAKES_LOB_IMPL]?: boolean } | undefined)?.[TAKES_LOB_IMPL] !== true
      )
    }
    return result
  }
}

interface ResultSetImplFields {
  lobIndices: Array<number>
  readonly metaData: ReadonlyArray<{ readonly converter?: unknown }>
}
