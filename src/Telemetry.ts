/**
 * What effect-adbc reports about its work: the option that puts query text on spans, and the progress of long
 * operations (rows and bytes so far of a fetch or an ingest), which a caller observes by providing a listener.
 *
 * Spans and metrics follow OpenTelemetry's semantic conventions for database client calls; spans go to whatever Tracer
 * the program provides, metrics to Effect's metric registry, debug lines to Effect's logger. docs/telemetry.md lists
 * span names, metrics, attributes, events and log lines.
 *
 * @since 0.1.0
 */
import { Context, Effect, Metric, Stream } from "effect"
import { dual } from "effect/Function"
import { ALL_LEVELS, option, OptionSchemas } from "./Options.ts"

/**
 * Put the SQL text of each statement on its span (`db.query.text`) and its debug log lines. The text
 * is the statement as written: bound values are never part of it, but literals written into the SQL are, so turn
 * it on only where query text may be recorded.
 *
 * @category options
 * @since 0.1.0
 */
export const QueryText = option({
  key: "telemetry.query_text",
  schema: OptionSchemas.boolean,
  accepted: "`true` or `false`",
  levels: ALL_LEVELS,
  default: false
})

/**
 * Every telemetry option key.
 *
 * @category constants
 * @since 0.1.0
 */
export const TelemetryOptions = [QueryText] as const

/**
 * The progress of one long operation so far. `fetch` counts the rows and Arrow bytes of the batches a reader has
 * yielded; `ingest` those of the batches sent to the database. `done` is true in the last report of a completed
 * operation (an operation that fails or is interrupted simply stops reporting).
 *
 * @category models
 * @since 0.1.0
 */
export interface Progress {
  readonly operation: "fetch" | "ingest"
  /** The ingest's target table (schema-qualified when a schema was given); absent for a fetch. */
  readonly target?: string | undefined
  readonly rows: number
  readonly bytes: number
  readonly batches: number
  readonly done: boolean
}

/**
 * Receives progress reports, one per batch and one when the operation completes.
 *
 * @category models
 * @since 0.1.0
 */
export type ProgressListener = (progress: Progress) => Effect.Effect<void>

/**
 * The listener of the current fiber; none by default, so nothing is reported unless a caller asks.
 *
 * @category services
 * @since 0.1.0
 */
export const CurrentProgressListener = Context.Reference<ProgressListener | undefined>(
  "effect-adbc/Telemetry/CurrentProgressListener",
  { defaultValue: () => undefined }
)

/**
 * Reports the progress of every fetch and ingest `self` runs to `listener`. With a `SubscriptionRef`, a progress
 * bar can follow its `changes`: `withProgress(program, (p) => SubscriptionRef.set(ref, p))`.
 *
 * @category combinators
 * @since 0.1.0
 */
export const withProgress: {
  (listener: ProgressListener): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, listener: ProgressListener): Effect.Effect<A, E, R>
} = dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, listener: ProgressListener): Effect.Effect<A, E, R> =>
    Effect.provideService(self, CurrentProgressListener, listener)
)

/**
 * Reports the progress of the fetches a stream runs (`Connection.query`) to `listener`.
 *
 * @category combinators
 * @since 0.1.0
 */
export const withProgressStream = (listener: ProgressListener) =>
<A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> =>
  Stream.provideService(self, CurrentProgressListener, listener)

/** OpenTelemetry's recommended bucket boundaries for `db.client.operation.duration`, in seconds. */
const DURATION_BOUNDARIES = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]

/**
 * `db.client.operation.duration` (seconds): one value per statement call (until its reader is open or its count is
 * there) and per ingest, with the span's attributes (never `db.query.text`) and `error.type` on failure.
 *
 * @category metrics
 * @since 0.1.0
 */
export const operationDuration: Metric.Histogram<number> = Metric.histogram("db.client.operation.duration", {
  description: "Duration of database client operations (s)",
  boundaries: DURATION_BOUNDARIES
})

/**
 * `db.client.response.returned_rows`: the rows of one query result, recorded when its reader has been read to the end.
 *
 * @category metrics
 * @since 0.1.0
 */
export const returnedRows: Metric.Histogram<number> = Metric.histogram("db.client.response.returned_rows", {
  description: "The actual number of records returned by the database operation",
  // OpenTelemetry's recommended boundaries for this metric
  boundaries: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
})

/**
 * `db.client.ingest.rows` (ours, not an OpenTelemetry name): rows a bulk ingest inserted, added once it committed.
 *
 * @category metrics
 * @since 0.1.0
 */
export const ingestRows: Metric.Counter<number> = Metric.counter("db.client.ingest.rows", {
  description: "Rows inserted by bulk ingest (effect-adbc)",
  incremental: true
})

/**
 * `db.client.connection.count`: connections of a pool by `db.client.connection.state` (`idle` or `used`), an
 * up-down counter per `db.client.connection.pool.name`.
 *
 * @category metrics
 * @since 0.1.0
 */
export const connectionCount: Metric.Counter<number> = Metric.counter("db.client.connection.count", {
  description: "The number of connections that are currently in state described by the state attribute"
})

/**
 * `db.client.connection.max`: the most connections a pool may open, per `db.client.connection.pool.name`.
 *
 * @category metrics
 * @since 0.1.0
 */
export const connectionMax: Metric.Counter<number> = Metric.counter("db.client.connection.max", {
  description: "The maximum number of open connections allowed"
})

/**
 * `db.client.connection.wait_time` (seconds): how long each borrow from a pool waited for a usable connection.
 *
 * @category metrics
 * @since 0.1.0
 */
export const connectionWaitTime: Metric.Histogram<number> = Metric.histogram("db.client.connection.wait_time", {
  description: "The time it took to obtain an open connection from the pool (s)",
  boundaries: DURATION_BOUNDARIES
})
