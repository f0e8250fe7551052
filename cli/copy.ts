/**
 * Copies a query's result from one connection into a table on another as a stream of Arrow batches: the source
 * reader's batches feed the target's bulk ingest one at a time, so memory holds a batch, never the table. Used by
 * `adbc copy` and the main job.
 */
import { Effect, Stream } from "effect"
import type { AdbcError } from "../src/AdbcError.ts"
import type { ConnectionShape } from "../src/Connection.ts"
import type { IngestOptions } from "../src/Ingest.ts"
import { Progress, type StepFigures, tracked } from "./progress.ts"

/** Options of {@link copyQuery}. */
export interface CopyOptions {
  /** Step name for progress and the summary. */
  readonly step: string
  readonly totalRows?: number | undefined
  readonly onFinish: (figures: StepFigures) => void
  /** Statement options of the source query (fetch sizes, …). */
  readonly readOptions?: Readonly<Record<string, string>> | undefined
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
    const reader = yield* from.executeQuery(sql, options.readOptions)
    const progress = yield* Progress
    const batches = tracked(options.step, reader.batches, options).pipe(Stream.provideService(Progress, progress))
    return yield* to.ingest({ schema: reader.schema, batches }, ingest)
  }))
