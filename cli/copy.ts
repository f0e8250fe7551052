/**
 * Copies a query's result from one connection into a table on another as a stream of Arrow batches: the source
 * reader's batches feed the target's bulk ingest, at most two read ahead, so memory holds a few batches, never the
 * table. Used by `adbc copy`, the main job and `npm run bench -- copy`.
 */
import { Effect, Stream } from "effect"
import type { AdbcError } from "../src/AdbcError.ts"
import type { ConnectionShape } from "../src/Connection.ts"
import type { IngestOptions } from "../src/Ingest.ts"
import { type Progress, type StepFigures, tracked } from "./progress.ts"

/** Options of {@link copyQuery}. */
export interface CopyOptions {
  /** Step name for progress and the summary. */
  readonly step: string
  readonly totalRows?: number | undefined
  readonly onFinish: (figures: StepFigures) => void
  /** Statement options of the source query (fetch sizes, …); default {@link copyReadOptions} for its driver. */
  readonly readOptions?: Readonly<Record<string, string>> | undefined
}

/**
 * How a copy reads its source, per driver: HANA in 50,000-row fetches handed on as 50,000-row batches (rather than
 * its default 100,000-row batches), so the target starts inserting after the first fetch and each later fetch
 * overlaps an insert; every batch becomes one insert call on the target (Oracle's insert_batch_rows is 65,536).
 */
export const copyReadOptions: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  hana: { "dba.statement.fetch_size": "50000", "dba.statement.read_batch_rows": "50000" }
}

/** Runs `sql` on `from` and ingests its rows into `to` as `ingest` says; returns the rows inserted. */
export const copyQuery = (
  from: ConnectionShape,
  to: ConnectionShape,
  sql: string,
  ingest: IngestOptions,
  options: CopyOptions
): Effect.Effect<number, AdbcError, Progress> =>
  Effect.scoped(Effect.gen(function*() {
    const reader = yield* from.executeQuery(sql, options.readOptions ?? copyReadOptions[from.driverName])
    // Up to two batches read ahead: the source fetches the next batch while the target inserts the last one.
    const batches = reader.batches.pipe(Stream.buffer({ capacity: 2 }))
    return yield* to.ingest({ schema: reader.schema, batches }, ingest)
  }).pipe(tracked(options.step, { ...options, operation: "ingest" })))
