/**
 * Internal: readers over a driver's cursor or rows (see src/Reader.ts for the public side). The server cursor is
 * released when the stream ends, fails or is interrupted, when the reader's scope closes, and before its connection.
 */
import * as Arrow from "apache-arrow"
import { Cause, Effect, Exit, Option, Scope, Stream } from "effect"
import { type AdbcError, adbcError, invalidState } from "../AdbcError.ts"
import { BatchAssembler, type ColumnBuilder, type Page } from "../arrow/index.ts"
import type { DriverCursor, DriverRows, OutValues } from "../Driver.ts"
import type { Session } from "./session.ts"
import { Attr, batchBytes, type BatchTracker, currentBatchTracker, type SpanAttributes } from "./telemetry.ts"
import type { BatchCap, ReaderShape } from "../Reader.ts"

/**
 * Internal: a cursor whose rows carry OUT-parameter values as extra columns: the first row holds the values, later
 * rows NULL. An empty result becomes one row (NULL in the result's columns) so the values are never lost.
 *
 * @category constructors
 * @since 0.1.0
 */
export const withOutColumns = (cursor: DriverCursor, out: OutValues): DriverCursor => {
  const width = cursor.schema.fields.length
  let pending = true
  let exhausted = false
  const appendOut = (builders: ReadonlyArray<ColumnBuilder>, rows: number) => {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < out.values.length; c++) builders[width + c]!.append(pending ? out.values[c] : null)
      pending = false
    }
  }
  const wrap = (page: Page): Page => {
    const appendRowsWithin = page.appendRowsWithin
    const wrapped: Page = {
      appendRows(builders, maxRows) {
        const rows = page.appendRows(builders.slice(0, width), maxRows)
        appendOut(builders, rows)
        return rows
      }
    }
    if (appendRowsWithin === undefined) return wrapped
    return {
      ...wrapped,
      appendRowsWithin(builders, maxRows, budget) {
        const rows = appendRowsWithin.call(page, builders.slice(0, width), maxRows, budget)
        appendOut(builders, rows)
        return rows
      }
    }
  }
  const onlyRow: Page = {
    appendRows(builders, maxRows) {
      if (!pending || maxRows < 1) return 0
      for (let c = 0; c < width; c++) builders[c]!.append(null)
      appendOut(builders, 1)
      return 1
    }
  }
  return {
    schema: new Arrow.Schema([...cursor.schema.fields, ...out.schema.fields], cursor.schema.metadata),
    nextPage: Effect.suspend(() => {
      if (exhausted) return Effect.succeed(undefined)
      return Effect.map(cursor.nextPage, (page) => {
        if (page !== undefined) return wrap(page)
        exhausted = true
        return pending ? onlyRow : undefined
      })
    }),
    close: cursor.close
  }
}

/**
 * Internal: a cursor over no columns and no rows, for OUT values of a call that returned no result set.
 *
 * @category constructors
 * @since 0.1.0
 */
export const emptyCursor: DriverCursor = {
  schema: new Arrow.Schema([]),
  nextPage: Effect.succeed(undefined),
  close: Effect.void
}

/**
 * Internal: wraps an open driver result, registered as an active reader of `session` until released. Exposes the
 * first result set (with OUT values appended as columns); further result sets are closed unread on release.
 *
 * @category constructors
 * @since 0.1.0
 * @internal
 */
export const fromRows = (
  session: Session,
  rows: Omit<DriverRows, "_tag">,
  cap: BatchCap,
  attributes: SpanAttributes = session.telemetry.attributes
): Effect.Effect<ReaderShape, never, Scope.Scope> => {
  const more = rows.more ?? []
  const first = rows.out === undefined ? rows.cursor : withOutColumns(rows.cursor, rows.out)
  const cursor: DriverCursor = more.length === 0 ? first : {
    ...first,
    close: first.close.pipe(Effect.ensuring(Effect.forEach(more, (c) => c.close, { discard: true })))
  }
  return fromCursor(session, cursor, cap, attributes)
}

/**
 * Internal: wraps an open driver cursor, registered as an active reader of `session` until released. Reading runs
 * in a `fetch` span with the statement's `attributes`, an event per batch and the rows returned so far.
 *
 * @category constructors
 * @since 0.1.0
 * @internal
 */
export const fromCursor = Effect.fnUntraced(function*(
  session: Session,
  cursor: DriverCursor,
  cap: BatchCap,
  attributes: SpanAttributes = session.telemetry.attributes
): Effect.fn.Return<ReaderShape, never, Scope.Scope> {
  let released = false
  let started = false
  let scopeClosed = false
  let connectionClosed = false
  const release: Effect.Effect<void> = Effect.suspend(() => {
    if (released) return Effect.void
    released = true
    session.readers.release(releaseForConnection)
    return cursor.close
  })
  const releaseForConnection = Effect.suspend(() => {
    connectionClosed = true
    return release
  })
  session.readers.acquire(releaseForConnection)
  const connectionGone = () =>
    invalidState("the reader's connection was closed before its result was read to the end; read it inside the connection's scope")
  yield* Effect.addFinalizer(() =>
    Effect.suspend(() => {
      scopeClosed = true
      return release
    })
  )

  const assembler = new BatchAssembler(cursor.schema, { maxRows: cap.rows, mode: cap.mode, maxBytes: cap.bytes })
  // A value that does not fit its Arrow column (decimal overflow, bad text) is the data's fault, not a bug.
  const assemble = <A>(f: () => A) =>
    Effect.try({ try: f, catch: (e) => adbcError("INVALID_DATA", e instanceof Error ? e.message : String(e)) })
  let exhausted = false
  const counted = (tracker: BatchTracker, batches: ReadonlyArray<Arrow.RecordBatch>) =>
    batches.length === 1
      ? tracker.batch(batches[0]!.numRows, batchBytes(batches[0]!))
      : Effect.forEach(batches, (batch) => tracker.batch(batch.numRows, batchBytes(batch)), { discard: true })
  // The first failure of a read ends the reader for good: a consumer pulling again after it (Stream.toPull) gets the
  // same failure, never the rows buffered in the assembler or read on from the driver, which would be a partial tail.
  let failed: Cause.Cause<AdbcError> | undefined
  const remember = (cause: Cause.Cause<AdbcError>) =>
    Effect.sync(() => {
      failed ??= Cause.hasInterruptsOnly(cause)
        ? Cause.fail(invalidState("an earlier read of this reader was interrupted; its result cannot be read on"))
        : cause
    })
  const step = (tracker: BatchTracker) => (_: void): Effect.Effect<
    readonly [ReadonlyArray<Arrow.RecordBatch>, Option.Option<void>],
    AdbcError
  > =>
    failed !== undefined
      ? Effect.failCause(failed)
      : connectionClosed && !exhausted
      ? Effect.fail(connectionGone())
      : Effect.onError(readOn(tracker), remember)
  const readOn = (tracker: BatchTracker) =>
    Effect.gen(function*() {
      while (!exhausted) {
        const page = yield* session.request(cursor.nextPage)
        if (page === undefined) {
          exhausted = true
          break
        }
        const ready = yield* assemble(() => assembler.push(page))
        if (ready.length > 0) {
          yield* counted(tracker, ready)
          return [ready, Option.some(undefined)] as const
        }
      }
      const rest = yield* assemble(() => assembler.flush())
      yield* release
      const last = rest === undefined ? [] : [rest]
      yield* counted(tracker, last)
      yield* tracker.done
      return [last, Option.none<void>()] as const
    })
  // A second run, or a run after the scope closed, would yield nothing or the rest of a result: a short result
  // reported as success. Both fail instead.
  const begin = Effect.suspend(() => {
    if (connectionClosed) return Effect.fail(connectionGone())
    if (scopeClosed) return Effect.fail(invalidState("the reader's scope is closed; read its batches inside that scope"))
    if (started) return Effect.fail(invalidState("the reader's batches were already read; a reader's stream runs once"))
    started = true
    return Effect.void
  })
  const read = Effect.andThen(begin, currentBatchTracker({ operation: "fetch" }, Attr.returnedRows, attributes))
  const batches = Stream.unwrap(Effect.map(read, (tracker) => Stream.paginate(undefined as void, step(tracker)))).pipe(
    Stream.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : release),
    Stream.withSpan("fetch", { kind: "client", attributes })
  )
  return { schema: cursor.schema, batches }
})

