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
  /** Rows to copy, when known: the progress bar's total, and the batch size follows it ({@link copyBatchRows}). */
  readonly totalRows?: number | undefined
  readonly onFinish: (figures: StepFigures) => void
  /** Statement options of the source query (fetch sizes, …); default {@link copyReadOptions} for its driver. */
  readonly readOptions?: Readonly<Record<string, string>> | undefined
  /** Options set on the target connection before the ingest; default {@link copyWriteOptions} for its driver. */
  readonly writeOptions?: Readonly<Record<string, string>> | undefined
  /**
   * Options the caller set on the source and the target (`adbc copy --from-option`, `--to-option`): the defaults
   * above leave those keys alone.
   */
  readonly callerOptions?: {
    readonly from?: Readonly<Record<string, string>> | undefined
    readonly to?: Readonly<Record<string, string>> | undefined
  } | undefined
}

/**
 * Rows per batch of a copy of unknown size (`adbc copy`): one source fetch, one Arrow batch, one insert call on the
 * target. Fewer, larger calls cost both test servers less CPU per row (measured: 100,000-row batches about 10% less
 * CPU across client and servers than 50,000), and the memory they hold stays constant whatever the table's size.
 */
export const COPY_BATCH_ROWS = 100_000

/** The smallest batch {@link copyBatchRows} picks: below it the per-call round trips dominate. */
export const MIN_COPY_BATCH_ROWS = 1_000

/**
 * The largest batch of a copy of known size: a 32nd of a 1,000,000-row table, rounded up to 2^15. Past 1,048,576 rows
 * the batches stop growing, so a copy's memory (up to four batches at once) is bounded whatever the table's size.
 */
export const MAX_SIZED_COPY_BATCH_ROWS = 32_768

/**
 * Rows per batch of a copy of `totalRows` rows, when the caller knows them (the main job, its benchmark): a 32nd of
 * the table, between {@link MIN_COPY_BATCH_ROWS} and {@link MAX_SIZED_COPY_BATCH_ROWS}. A copy holds up to four
 * batches at once (the one the source is filling, two read ahead, the one being inserted), so a 32nd keeps the rows
 * in memory to about an eighth of a small table (with {@link COPY_BATCH_ROWS} alone, the main job's default 200,000
 * rows would be two batches, all of the table in memory at once), and the cap keeps a large table's copy at the
 * memory of a 1,000,000-row one. Unknown size: {@link COPY_BATCH_ROWS}.
 */
export const copyBatchRows = (totalRows: number | undefined): number =>
  totalRows === undefined
    ? COPY_BATCH_ROWS
    : Math.min(MAX_SIZED_COPY_BATCH_ROWS, Math.max(MIN_COPY_BATCH_ROWS, Math.ceil(totalRows / 32)))

/**
 * How a copy reads its source, per driver: HANA in `batchRows`-row fetches handed on as batches of that size, so each
 * batch costs one fetch round trip; the first insert starts after one fetch, and the later fetches overlap inserts.
 */
export const copyReadOptions = (batchRows: number): Readonly<Record<string, Readonly<Record<string, string>>>> => ({
  hana: { "dba.statement.fetch_size": String(batchRows), "dba.statement.read_batch_rows": String(batchRows) }
})

/**
 * How a copy writes its target, per driver: Oracle inserts each batch in one executeMany call rather than in its
 * default 65,536-row chunks, which would split large batches. The cap is twice the batch size because HANA's
 * read_batch_rows is best effort: its batches end on a fetch boundary and run a few rows over.
 */
export const copyWriteOptions = (batchRows: number): Readonly<Record<string, Readonly<Record<string, string>>>> => ({
  oracle: { "redo.statement.insert_batch_rows": String(2 * batchRows) }
})

/** `defaults` without the keys the caller set itself. */
export const unlessSet = (
  defaults: Readonly<Record<string, string>> | undefined,
  set: Readonly<Record<string, string>> | undefined
): Record<string, string> =>
  Object.fromEntries(Object.entries(defaults ?? {}).filter(([key]) => set?.[key] === undefined))

/**
 * Runs `sql` on `from` and ingests its rows into `to` as `ingest` says; returns the rows inserted. The write options
 * stay set on `to` afterwards (the CLI and the main job open `to` for the copy alone).
 */
export const copyQuery = (
  from: ConnectionShape,
  to: ConnectionShape,
  sql: string,
  ingest: IngestOptions,
  options: CopyOptions
): Effect.Effect<number, AdbcError, Progress> =>
  Effect.scoped(Effect.gen(function*() {
    const batchRows = copyBatchRows(options.totalRows)
    const writeOptions = options.writeOptions ?? unlessSet(copyWriteOptions(batchRows)[to.driverName], options.callerOptions?.to)
    for (const [key, value] of Object.entries(writeOptions)) yield* to.setOption(key, value)
    const reader = yield* from.executeQuery(
      sql,
      options.readOptions ?? unlessSet(copyReadOptions(batchRows)[from.driverName], options.callerOptions?.from)
    )
    // Up to two batches read ahead: the source fetches the next batch while the target inserts the last one.
    const batches = reader.batches.pipe(Stream.buffer({ capacity: 2 }))
    return yield* to.ingest({ schema: reader.schema, batches }, ingest)
  }).pipe(tracked(options.step, { ...options, operation: "ingest" })))
