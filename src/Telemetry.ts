/**
 * What effect-adbc reports about its work: the option that puts query text on spans, and the progress of long
 * operations (rows and bytes so far of a fetch or an ingest), which a caller observes by providing a listener.
 *
 * Spans follow OpenTelemetry's semantic conventions for database client calls and go to whatever Tracer the program
 * provides; debug lines go to Effect's logger. docs/telemetry.md lists span names, attributes, events and log lines.
 *
 * @since 0.3.0
 */
import { Context, Effect, Stream } from "effect"
import { dual } from "effect/Function"
import { ALL_LEVELS, option, OptionSchemas } from "./Options.ts"

/**
 * Put the SQL text of each statement on its span (`db.query.text`) and its debug log lines (default off). The text
 * is the statement as written: bound values are never part of it, but literals written into the SQL are, so turn
 * it on only where query text may be recorded.
 *
 * @category options
 * @since 0.3.0
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
 * @since 0.3.0
 */
export const TelemetryOptions = [QueryText] as const

/**
 * The progress of one long operation so far. `fetch` counts the rows and Arrow bytes of the batches a reader has
 * yielded; `ingest` those of the batches sent to the database. `done` is true in the last report of a completed
 * operation (an operation that fails or is interrupted simply stops reporting).
 *
 * @category models
 * @since 0.3.0
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
 * @since 0.3.0
 */
export type ProgressListener = (progress: Progress) => Effect.Effect<void>

/**
 * The listener of the current fiber; none by default, so nothing is reported unless a caller asks.
 *
 * @category services
 * @since 0.3.0
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
 * @since 0.3.0
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
 * @since 0.3.0
 */
export const withProgressStream = (listener: ProgressListener) =>
<A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> =>
  Stream.provideService(self, CurrentProgressListener, listener)
