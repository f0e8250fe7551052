/**
 * The Oracle driver's cursor: paging a result (batch mode's wire decoding or row mode's JS rows), closing it with its
 * server cursor released, and a read that Connection.cancel cancelled.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { Page } from "../../src/arrow/index.ts"
import type { DriverCursor } from "../../src/Driver.ts"
import type { Cancellation } from "../common/Cancellation.ts"
import { makeCursorLifecycle } from "../common/CursorLifecycle.ts"
import * as DbCalls from "./DbCalls.ts"
import * as DbPatches from "./DbPatches.ts"
import type * as DbTypes from "./DbTypes.ts"
import { fromOracleError } from "./Errors.ts"
import type { MappedColumn } from "./ReadTypes.ts"
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
