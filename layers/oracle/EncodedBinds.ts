/**
 * The seam through which the ingest fast path's encoded bind rows (IngestEncoder.ts) reach the wire inside
 * node-oracledb's own executeMany, for node-oracledb 26.0.0 thin mode (pinned exactly in package.json).
 *
 * `executeManyEncoded` calls `connection.executeMany(sql, rowCount, { bindDefs })`: oracledb parses, binds (its bind
 * variables then hold no values), writes the execute message with the bind metadata of `bindDefs`, and runs the
 * request, the reply, errors, transaction state and statement caching as for any executeMany. For each row it calls
 * `MessageWithData.prototype.writeBindParamsRow(buf, params, pos)` (lib/thin/protocol/messages/execute.js `encode`,
 * after writing the ROW_DATA byte, checking the socket's back-pressure between rows); the hook installed here
 * writes row `pos + offset` of the encoded rows instead of oracledb's per-value encoding, only for the execute of
 * the statement registered for this connection (keyed by oracledb's connection implementation, `this.connection` of
 * the message), and leaves every other message to oracledb.
 *
 * Wire order: oracledb writes binds whose `maxSize` exceeds the connection's `caps.maxStringSize` after the others
 * (withData.js `writeBindParamsRow`, "foundLong"); {@link wireOrder} gives the same order for the encoder, and the hook
 * checks it against oracledb's bind variables before the first row. test/oracle/ingestSeam.test.ts fails when
 * oracledb's version or the internals used here change.
 *
 * Row errors: a failed array DML reports in its error's "row number" field how many rows were processed, which is
 * the failing row's offset in the call (python-oracledb thin sets `cursor.rowcount` from it after an error,
 * src/oracledb/impl/thin/messages.pyx `_process_error_info`); oracledb keeps it to itself, so a hook copies it onto
 * the Error as `rowOffset` for the executeMany calls of both ingest paths ({@link executeManyEncoded},
 * {@link executeManyRows}).
 *
 * The HANA driver has no module of this name: its counterpart is `startEncodedExecute` in layers/hana/DbCalls.ts, which
 * hands an encoded PARAMETERS part to hdb's request queue without a hook, as hdb's request segments accept one.
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"
import type { EncodedRows } from "./IngestEncoder.ts"
import type { OracleConnection } from "./DbTypes.ts"

const require = createRequire(import.meta.url)

/** The node-oracledb version this seam was written against. @category internals @since 0.1.0 */
export const SEAM_ORACLEDB_VERSION = "26.0.0"

/** oracledb's write buffer (lib/thin/protocol/packet.js WritePacket) as the hook uses it. */
interface WritePacket {
  buf: Buffer
  pos: number
  numBytesLeft(): number
  writeBytes(value: Buffer): void
  readonly caps: { readonly maxStringSize: number }
}

interface BindInfo {
  readonly isReturnBind?: boolean
  readonly bindVar: { readonly maxSize: number; readonly isArray?: boolean }
}

interface Registered {
  readonly sql: string
  readonly rows: EncodedRows
  /** Per bind (in bind order): whether the encoder placed it among the long binds at the end of each row. */
  readonly long: ReadonlyArray<boolean>
  written: number
  checked: boolean
  /** Called once every row is in oracledb's packets (the request may still be on its way and the reply to come). */
  readonly onWritten: (() => void) | undefined
}

/** The encoded rows of the executeMany in flight, per oracledb connection implementation. */
const registered = new WeakMap<object, Registered>()

/** oracledb connection implementations with an ingest executeMany in flight (either path): errors get `rowOffset`. */
const ingesting = new WeakSet<object>()

/** Rows written through the seam since the process started (tests read it to see which path ran). */
let rowsThroughSeam = 0

/** Rows written through the seam so far. @category internals @since 0.1.0 */
export const encodedRowsSent = (): number => rowsThroughSeam

/** Ingest executeMany calls (either path) since the process started (tests read it to count database calls). */
let ingestCalls = 0

/** Ingest executeMany calls made so far, on either path. @category internals @since 0.1.0 */
export const ingestCallsMade = (): number => ingestCalls

let installed = false

const install = (): void => {
  if (installed) return
  installed = true
  // The row an executeMany stopped at travels in the error's "row number" field (errorInfo.rowCount), which
  // oracledb does not copy onto the Error (its `offset` is the SQL text position): expose it as `rowOffset`.
  const Protocol = require("oracledb/lib/thin/protocol/protocol.js") as { prototype: Record<string, unknown> }
  const raiseException = Protocol.prototype["_raiseException"] as (this: unknown, message: unknown) => never
  Protocol.prototype["_raiseException"] = function(
    this: unknown,
    message: { connection?: object; errorInfo?: { rowCount?: unknown } }
  ) {
    try {
      return raiseException.call(this, message)
    } catch (e) {
      const rowCount = message.errorInfo?.rowCount
      if (
        e instanceof Error && message.connection !== undefined && ingesting.has(message.connection) &&
        (typeof rowCount === "number" || typeof rowCount === "bigint")
      ) {
        Object.assign(e, { rowOffset: Number(rowCount) })
      }
      throw e
    }
  }
  const MessageWithData = require("oracledb/lib/thin/protocol/messages/withData.js") as {
    prototype: Record<string, unknown>
  }
  const writeBindParamsRow = MessageWithData.prototype["writeBindParamsRow"] as (this: unknown, ...args: Array<unknown>) => void
  MessageWithData.prototype["writeBindParamsRow"] = function(
    this: { connection?: object; statement?: { sql?: string; isPlSql?: boolean }; offset?: number },
    buf: WritePacket,
    params: ReadonlyArray<BindInfo>,
    pos: number
  ) {
    const r = this.connection === undefined ? undefined : registered.get(this.connection)
    if (r === undefined || this.statement?.sql !== r.sql || this.statement.isPlSql === true) {
      return writeBindParamsRow.call(this, buf, params, pos)
    }
    if (!r.checked) {
      const binds = params.filter((p) => p.isReturnBind !== true)
      const matches = binds.length === r.long.length &&
        binds.every((p, i) => p.bindVar.isArray !== true && p.bindVar.maxSize > buf.caps.maxStringSize === r.long[i])
      if (!matches) throw new Error("oracledb's bind variables do not match the encoded ingest rows (see EncodedBinds.ts)")
      r.checked = true
    }
    const row = pos + (this.offset ?? 0)
    const start = r.rows.offsets[row]!
    const end = r.rows.offsets[row + 1]!
    if (end - start <= buf.numBytesLeft()) {
      r.rows.bytes.copy(buf.buf, buf.pos, start, end)
      buf.pos += end - start
    } else buf.writeBytes(r.rows.bytes.subarray(start, end))
    r.written++
    if (r.written === r.rows.rows) r.onWritten?.()
  }
}

interface ConnectionImpl {
  readonly _protocol?: { readonly caps?: { readonly maxStringSize?: number; readonly charsetId?: number } }
}

/** oracledb's connection implementation of a connection (thin mode). */
const implOf = (connection: OracleConnection): ConnectionImpl | undefined =>
  (connection as unknown as { _impl?: ConnectionImpl })._impl

/** What the fast path needs to know of a connection. @category models @since 0.1.0 */
export interface SeamInfo {
  /** The largest bind size oracledb writes in place (larger binds go at the end of each row). */
  readonly maxStringSize: number
  /** Whether the database character set is AL32UTF8 (id 873), so VARCHAR binds carry any Unicode text. */
  readonly utf8Database: boolean
}

/**
 * The seam's facts about a connection, or undefined when it cannot be used: not the node-oracledb version it was
 * written against, or not a thin connection.
 *
 * @category internals
 * @since 0.1.0
 */
export const seamInfo = (connection: OracleConnection, oracledbVersion: string): SeamInfo | undefined => {
  const caps = implOf(connection)?._protocol?.caps
  if (oracledbVersion !== SEAM_ORACLEDB_VERSION || caps === undefined) return undefined
  const size = caps.maxStringSize
  if (typeof size !== "number" || size <= 0) return undefined
  return { maxStringSize: size, utf8Database: caps.charsetId === AL32UTF8 }
}

/** Oracle's character set id of AL32UTF8 (lib/thin/protocol/constants.js TNS_CHARSET_UTF8). */
const AL32UTF8 = 873

/**
 * The order in which oracledb sends binds of these sizes in a row of a SQL statement: those up to `maxStringSize`
 * in bind order, then the larger ones (withData.js `writeBindParamsRow`).
 *
 * @category internals
 * @since 0.1.0
 */
export const wireOrder = (maxSizes: ReadonlyArray<number>, maxStringSize: number): Array<number> => {
  const order: Array<number> = []
  for (let i = 0; i < maxSizes.length; i++) if (maxSizes[i]! <= maxStringSize) order.push(i)
  for (let i = 0; i < maxSizes.length; i++) if (maxSizes[i]! > maxStringSize) order.push(i)
  return order
}

/** Runs `run` (one executeMany of an ingest) with its errors carrying the row they stopped at as `rowOffset`. */
const namingRows = async <A>(impl: object, run: () => Promise<A>): Promise<A> => {
  ingestCalls++
  install()
  ingesting.add(impl)
  try {
    return await run()
  } finally {
    ingesting.delete(impl)
  }
}

/**
 * Runs `sql` once per encoded row through oracledb's executeMany, the row data written from `rows` (in the wire
 * order of {@link wireOrder} for `maxSizes`); `bindDefs` declare the binds to oracledb as usual. A row error carries
 * the row (0-based, within `rows`) as `rowOffset`. `onWritten` is called once oracledb has written the last row into
 * its packets: from then on the call only waits for the server, and the caller may encode the next call's rows.
 *
 * @category execution
 * @since 0.1.0
 */
export const executeManyEncoded = async (
  connection: OracleConnection,
  sql: string,
  rows: EncodedRows,
  bindDefs: ReadonlyArray<{ readonly maxSize?: number }>,
  maxStringSize: number,
  options: Record<string, unknown>,
  onWritten?: () => void
): Promise<{ rowsAffected?: number }> => {
  const impl = implOf(connection)
  if (impl === undefined) throw new Error("not a node-oracledb thin connection")
  const entry: Registered = {
    sql,
    rows,
    long: bindDefs.map((d) => (d.maxSize ?? 0) > maxStringSize),
    written: 0,
    checked: false,
    onWritten
  }
  registered.set(impl, entry)
  try {
    const result = await namingRows(impl, () => connection.executeMany(sql, rows.rows, { ...options, bindDefs }))
    if (entry.written !== rows.rows) {
      throw new Error(`oracledb sent ${entry.written} of ${rows.rows} encoded ingest rows (see EncodedBinds.ts)`)
    }
    return result
  } finally {
    registered.delete(impl)
    rowsThroughSeam += entry.written
  }
}

/**
 * oracledb's own executeMany of JS bind rows (the ingest path for batches the encoder does not take), its row
 * errors carrying the row (0-based, within `rows`) as `rowOffset` like {@link executeManyEncoded}'s.
 *
 * @category execution
 * @since 0.1.0
 */
export const executeManyRows = (
  connection: OracleConnection,
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  options: Record<string, unknown>
): Promise<{ rowsAffected?: number }> => {
  const impl = implOf(connection)
  if (impl !== undefined) return namingRows(impl, () => connection.executeMany(sql, rows, options))
  ingestCalls++
  return connection.executeMany(sql, rows, options)
}
