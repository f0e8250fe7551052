/**
 * The HANA driver's cursor: one or more open result sets of one shape read page by page (`dba.statement.fetch_size`
 * rows per FETCH_NEXT, the next page fetched ahead while one is decoded), decoded by WirePage.ts; closing or a
 * cancel between two reads closes the server's result set.
 *
 * @since 0.2.0
 */
import * as Arrow from "apache-arrow"
import { Effect, type Exit, Fiber } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { Page } from "../../src/arrow/index.ts"
import type { DriverCursor, DriverResult } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import type { CancelToken } from "../common/Cancellation.ts"
import { makeCursorLifecycle } from "../common/CursorLifecycle.ts"
import { type ConnectionContext, tracked } from "./ConnectionContext.ts"
import * as Hdb from "./DbCalls.ts"
import type { HdbClient, HdbResultColumn, RawPage } from "./DbTypes.ts"
import { releasePage } from "./DbPatches.ts"
import { fromHdbError } from "./Errors.ts"
import { FetchSize } from "./HanaOptions.ts"
import { arrowColumns, fromResultMetadata, type MappedColumn } from "./ReadTypes.ts"
import { hanaPage, scanLobs } from "./WirePage.ts"

/** The Arrow columns of result metadata; an unsupported type fails NOT_IMPLEMENTED. @category mapping @since 0.2.0 */
export const mapColumns = (metadata: ReadonlyArray<HdbResultColumn>) =>
  Effect.fromResult(arrowColumns(fromResultMetadata(metadata)))

/**
 * The error of a read from a result that Connection.cancel cancelled between two reads: HANA's code of a cancelled
 * operation (139), as a cancel during a fetch gives it (nothing is rolled back here: no statement was running).
 */
const cancelledRead = () =>
  fromHdbError({ code: 139, sqlState: "HY008", message: "current operation cancelled by request (Connection.cancel)" })

/**
 * Source of results for a cursor: the first one is open, more may follow (one per parameter row).
 *
 * @category models
 * @since 0.2.0
 */
export type NextOutcome = Effect.Effect<Hdb.ExecuteOutcome | undefined, AdbcError>

/**
 * A cursor over one or more open result sets (all of the same shape), read in pages of `fetchSize` rows.
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeCursor = (
  client: HdbClient,
  first: Extract<Hdb.ExecuteOutcome, { _tag: "Rows" }>,
  columns: ReadonlyArray<MappedColumn>,
  fetchSize: number,
  more: NextOutcome,
  onClose: Effect.Effect<void>,
  track: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>,
  cancel: CancelToken
): DriverCursor => {
  const schema = new Arrow.Schema(columns.map((c) => c.field))
  const hasLobs = columns.some((c) => c.kind === "blob" || c.kind === "clob")
  let current: Extract<Hdb.ExecuteOutcome, { _tag: "Rows" }> | undefined = first
  let pending: RawPage | undefined = first.first
  let lastSeen = false
  let serverClosed = false
  /**
   * The next page's FETCH_NEXT, sent when a page is handed out so that the server encodes page n+1 while the reader
   * decodes page n (hdb's queue keeps it before any later request of the session). Not with LOB columns, whose pages
   * send READ_LOB calls of their own.
   */
  let ahead: Fiber.Fiber<Exit.Exit<RawPage, AdbcError>> | undefined

  const closeCurrent = Effect.suspend(() => {
    const rs = current
    current = undefined
    if (rs === undefined || serverClosed) return Effect.void
    return Hdb.closeResultSet(client, rs.id)
  })

  const pageOf = (raw: RawPage): Effect.Effect<Page, AdbcError> =>
    Effect.gen(function*() {
      const buffer = raw.buffer ?? Buffer.alloc(0)
      // the reply packet's memory is freed once its rows are in the builders (DbPatches.ts releasePage)
      const decoded = () => releasePage(buffer)
      if (!hasLobs) return hanaPage(buffer, raw.argumentCount, columns, [], decoded)
      const incomplete = scanLobs(buffer, raw.argumentCount, columns)
      const contents: Array<Buffer> = []
      for (const cell of incomplete) contents.push(yield* Hdb.readLob(client, cell))
      return hanaPage(buffer, raw.argumentCount, columns, contents, decoded)
    })

  /** Close and a cancelled read (the result set is closed on the server, then error 139). */
  const lifecycle = makeCursorLifecycle({ token: cancel, closeCurrent, cancelledError: cancelledRead, onClose })
  const failCancelled = lifecycle.failCancelled

  const nextPage: Effect.Effect<Page | undefined, AdbcError> = Effect.gen(function*() {
    while (!lifecycle.closed()) {
      if (current === undefined) return undefined
      if (cancel.cancelled()) return yield* failCancelled
      let raw: RawPage | undefined = pending
      pending = undefined
      if (raw === undefined) {
        if (lastSeen) {
          yield* closeCurrent
          const next = yield* more
          if (next === undefined || next._tag !== "Rows") return undefined
          current = next
          pending = next.first
          lastSeen = false
          serverClosed = false
          continue
        }
        const sent = ahead
        ahead = undefined
        raw = yield* track(sent === undefined ? Hdb.fetchNext(client, current.id, fetchSize) : Effect.flatten(Fiber.join(sent)))
        // a cancel during a fetch the server answered before the cancel reached it
        if (cancel.cancelled()) return yield* failCancelled
      }
      if (raw.attributes & 1) lastSeen = true
      if (raw.attributes & 16) serverClosed = true
      if (raw.argumentCount > 0) {
        if (!hasLobs && !lastSeen) ahead = Effect.runFork(Effect.exit(Hdb.fetchNext(client, current.id, fetchSize)))
        return yield* pageOf(raw)
      }
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
 * The result of an execute that opened a result set: its cursor, or, when a column has no Arrow mapping, the result
 * set closed and the error.
 *
 * @category constructors
 * @since 0.2.0
 */
export const cursorResult = (
  ctx: ConnectionContext,
  outcome: Extract<Hdb.ExecuteOutcome, { _tag: "Rows" }>,
  options: ResolvedOptions,
  more: NextOutcome,
  onClose: Effect.Effect<void>
): Effect.Effect<DriverResult, AdbcError> =>
  mapColumns([...outcome.metadata]).pipe(
    Effect.tapError(() => Hdb.closeResultSet(ctx.client, outcome.id).pipe(Effect.andThen(onClose))),
    Effect.map((columns) => ({
      _tag: "Rows" as const,
      cursor: makeCursor(
        ctx.client,
        outcome,
        columns,
        options.value(FetchSize),
        tracked(ctx, more),
        onClose,
        (effect) => tracked(ctx, effect),
        ctx.cancellation.reader()
      )
    }))
  )
