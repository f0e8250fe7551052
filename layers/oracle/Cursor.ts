/**
 * The Oracle driver's cursor: paging a result (batch mode's wire decoding or row mode's JS rows), closing it with its
 * server cursor released, and a read that Connection.cancel cancelled; and how a query's result is fetched: the
 * execute options (`queryOptions`: fetch sizes, the fetch type handler reading LOBs whole), the first round trip's
 * rows under `redo.statement.prefetch_bytes` (`prefetchRowsFor`), the columns mapped to Arrow (`mapColumns`).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { Page } from "../../src/arrow/index.ts"
import type { DriverCursor } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import type { Cancellation } from "../common/Cancellation.ts"
import { makeCursorLifecycle } from "../common/CursorLifecycle.ts"
import * as DbCalls from "./DbCalls.ts"
import * as DbPatches from "./DbPatches.ts"
import type * as DbTypes from "./DbTypes.ts"
import { fromOracleError } from "./Errors.ts"
import { lobConverter } from "./LobPrefetch.ts"
import * as Opt from "./OracleOptions.ts"
import { arrowColumns, columnMetadata, type MappedColumn, mappingOptions } from "./ReadTypes.ts"
import * as RowCapture from "./RowCapture.ts"
import { oraclePage } from "./RowPage.ts"
import { canDecodeWire, WireDecoder } from "./WirePage.ts"

/**
 * The error of a read from a result that Connection.cancel cancelled between two reads: ORA-01013, what a break gives
 * the call it aborts, a fetch included (OCI Programmer's Guide, OCIBreak(): "an immediate (asynchronous) abort of any
 * currently executing OCI function", docs.oracle.com/cd/B10500_01/appdev.920/a96584/oci16m96.htm).
 */
const cancelledRead = () => fromOracleError({ errorNum: 1013, message: "ORA-01013: user requested cancel of current operation" })

/**
 * A cursor over consecutive result sets of one shape, read `fetchArraySize` rows at a time. With `wire` (batch
 * mode), once oracledb's buffered rows (the first round trip's) are read, the rows of each later round trip are
 * kept as TTC bytes and decoded straight into the Arrow builders (WirePage.ts `WireDecoder`), provided every
 * column has a wire decoder; otherwise, and in row mode, oracledb decodes each row into JS values first.
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeCursor = (
  connection: DbTypes.OracleConnection,
  cancellation: Cancellation,
  first: DbTypes.OracleResultSet,
  columns: ReadonlyArray<MappedColumn>,
  fetchArraySize: number,
  more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError>,
  wire: boolean
): DriverCursor => {
  const schema = new Arrow.Schema(columns.map((c) => c.field))
  // Connection.cancel breaks a fetch in flight (ORA-01013); between two reads it marks the cursor cancelled
  const token = cancellation.reader()
  let current: DbTypes.OracleResultSet | undefined = first
  let decoder: WireDecoder | undefined
  let rowsSeen = 0
  /** Closes the current result set; one closed before its end has its server cursor released now. */
  const closeCurrent = (exhausted: boolean) =>
    Effect.suspend(() => {
      const rs = current
      current = undefined
      decoder = undefined
      if (rs === undefined) return Effect.void
      RowCapture.stopCapture(rs)
      return Effect.flatMap(DbCalls.closeResultSet(rs), (wasOpen) => wasOpen && !exhausted ? DbCalls.releaseCursors(connection) : Effect.void)
    })
  /** The wire decoder for `rs` once its buffered rows are read, when every column has one. */
  const wireDecoder = (rs: DbTypes.OracleResultSet): WireDecoder | undefined => {
    if (!wire || RowCapture.bufferedRowCount(rs) !== 0) return undefined
    if (decoder !== undefined) return decoder
    const wireColumns = RowCapture.wireColumns(rs)
    if (wireColumns === undefined || !canDecodeWire(columns, wireColumns)) return undefined
    // A region as database time zone leaves LOCAL TIME ZONE values to oracledb, which refuses them clearly.
    const offset = DbPatches.dbTzOffsetMinutes(connection)
    if (offset === undefined && columns.some((c) => c.kind === "timestamp-ltz")) return undefined
    decoder = new WireDecoder(columns, wireColumns, offset ?? 0, RowCapture.lastDecodedValues(rs))
    return decoder
  }
  // a cancelled read closes the result set (its server cursor released), then ORA-01013; close runs once
  const lifecycle = makeCursorLifecycle({ token, closeCurrent: closeCurrent(false), cancelledError: cancelledRead })
  const failCancelled = lifecycle.failCancelled
  const fetchRows = <A>(run: () => Promise<A>) => cancellation.running(DbCalls.call(connection, run))
  const nextPage: Effect.Effect<Page | undefined, AdbcError> = Effect.gen(function*() {
    while (!lifecycle.closed() && current !== undefined) {
      if (token.cancelled()) return yield* failCancelled
      const rs: DbTypes.OracleResultSet = current
      const firstRow = rowsSeen
      const fast = rowsSeen === 0 ? undefined : wireDecoder(rs)
      if (fast !== undefined) {
        const rows = yield* fetchRows(() => RowCapture.fetchWireRows(rs, fetchArraySize))
        // a cancel during a fetch the server answered before the break reached it
        if (token.cancelled()) return yield* failCancelled
        if (rows.length > 0) {
          rowsSeen += rows.length
          return fast.page(rows, firstRow)
        }
      } else {
        const rows = yield* fetchRows(() => rs.getRows(fetchArraySize))
        if (token.cancelled()) return yield* failCancelled
        if (rows.length > 0) {
          rowsSeen += rows.length
          return oraclePage(rows, columns, firstRow)
        }
      }
      yield* closeCurrent(true)
      current = yield* cancellation.running(more)
    }
    return undefined
  })
  return {
    schema,
    nextPage,
    close: lifecycle.close
  }
}

/**
 * A fetched LOB's whole value: a CLOB / NCLOB as a string, a BLOB as bytes, an empty LOB (EMPTY_CLOB(),
 * EMPTY_BLOB()) as a zero-length value without a round trip. LOBs are fetched as locators because inline (as
 * LONG) an empty LOB arrives as a zero-length value, which Oracle's row data cannot tell from NULL, while
 * "an empty LOB is not the same as a null LOB" (SQL Language Reference, EMPTY_BLOB, EMPTY_CLOB). oracledb runs
 * this converter inside getRows, so a cancel or an interruption of the fetch covers the reads too. A LOB no longer
 * than the LOB prefetch length came whole with its locator and needs no read (LobPrefetch.ts). The Lob is then
 * released (a temporary LOB's free is sent with the next call).
 */
const readLob = (blob: boolean) =>
  lobConverter(async (lob) => {
    try {
      if (lob.length === 0) return blob ? Buffer.alloc(0) : ""
      return (await lob.getData()) ?? (blob ? Buffer.alloc(0) : "")
    } finally {
      lob.destroy()
    }
  })
const readClob = readLob(false)
const readBlob = readLob(true)

/** fetchTypeHandler: NUMBER as exact digits, LOBs read whole (CLOB/NCLOB as strings, BLOB as bytes). */
const fetchTypeHandler = (m: DbTypes.OracleMetaData): { type: DbTypes.DbType } | { converter: typeof readClob } | undefined => {
  switch (m.dbType.name) {
    case "DB_TYPE_NUMBER":
      return { type: DbPatches.oracledb.STRING }
    case "DB_TYPE_CLOB":
    case "DB_TYPE_NCLOB":
      return { converter: readClob }
    case "DB_TYPE_BLOB":
      return { converter: readBlob }
    default:
      return undefined
  }
}

/** Define buffer bytes of fixed-size types (Oracle's internal lengths; a LOB counts its locator and prefetch). */
const FIXED_DEFINE_BYTES: Readonly<Record<string, number>> = {
  DB_TYPE_NUMBER: 22,
  DB_TYPE_BINARY_INTEGER: 22,
  DB_TYPE_DATE: 7,
  DB_TYPE_TIMESTAMP: 11,
  DB_TYPE_TIMESTAMP_LTZ: 11,
  DB_TYPE_TIMESTAMP_TZ: 13,
  DB_TYPE_BINARY_DOUBLE: 8,
  DB_TYPE_BINARY_FLOAT: 4,
  DB_TYPE_BOOLEAN: 4,
  DB_TYPE_INTERVAL_DS: 11,
  DB_TYPE_INTERVAL_YM: 5,
  DB_TYPE_ROWID: 18
}
/** Bytes assumed for a column of unbounded size (LOB locator plus prefetched data, JSON, objects). */
const UNBOUNDED_DEFINE_BYTES = 4000

/**
 * Rows of the first round trip: `redo.statement.prefetch_rows`, lowered so that the rows fit in
 * `redo.statement.prefetch_bytes` when that is set (whichever limit is reached first; at least one row). A row
 * counts its define buffer sizes (declared byte sizes, fixed sizes of the other types), the upper bound Oracle
 * Call Interface's prefetch memory limit also works with.
 *
 * @category options
 * @since 0.1.0
 */
export const prefetchRowsFor = (
  metaData: ReadonlyArray<DbTypes.OracleMetaData> | undefined,
  options: ResolvedOptions
): number => {
  const rows = options.value(Opt.PrefetchRows)
  const bytes = options.get(Opt.PrefetchBytes)
  if (bytes === undefined || metaData === undefined || metaData.length === 0) return rows
  const rowBytes = metaData.reduce(
    (n, m) => n + (FIXED_DEFINE_BYTES[m.dbType.name] ?? (m.byteSize !== undefined && m.byteSize > 0 ? m.byteSize : UNBOUNDED_DEFINE_BYTES)),
    0
  )
  return Math.max(1, Math.min(rows, Math.floor(bytes / rowBytes)))
}

/** oracledb execute options of a query: a result set of arrays, the fetch sizes, the fetch type handler. @category options @since 0.1.0 */
export const queryOptions = (options: ResolvedOptions, prefetchRows: number): Record<string, unknown> => ({
  resultSet: true,
  outFormat: DbPatches.oracledb.OUT_FORMAT_ARRAY,
  fetchArraySize: options.value(Opt.FetchArraySize),
  prefetchRows,
  fetchTypeHandler,
  // OBJECT / VARRAY / SDO_GEOMETRY values as plain objects and arrays (JSON text, WKB) rather than DbObject proxies.
  dbObjectAsPojo: true
})

/** A result's columns mapped to Arrow with the type mapping options in force. @category mapping @since 0.1.0 */
export const mapColumns = (metaData: ReadonlyArray<DbTypes.OracleMetaData>, options: ResolvedOptions) =>
  Effect.fromResult(arrowColumns(metaData.map(columnMetadata), mappingOptions(options)))
