/**
 * Spans, debug log lines and progress for one connection's work, named after OpenTelemetry's semantic conventions
 * for database client calls (opentelemetry.io/docs/specs/semconv/db/database-spans, db/sql, db/oracledb and the
 * attribute registry, registry/attributes/db). Everything here is per call or per batch, never per row.
 */
import type * as Arrow from "apache-arrow"
import { Cause, Clock, Effect, Exit, LogLevel, Metric } from "effect"
import type { Tracer } from "effect"
import type { AdbcError } from "../AdbcError.ts"
import type { DriverShape } from "../Driver.ts"
import type { ResolvedOptions } from "../Options.ts"
import {
  CurrentProgressListener,
  ingestRows,
  operationDuration,
  type Progress,
  type ProgressListener,
  QueryText,
  returnedRows
} from "../Telemetry.ts"

/** Attribute names: the conventions' where they define one, ours (`adbc.*`) where they do not. */
export const Attr = {
  systemName: "db.system.name",
  namespace: "db.namespace",
  serverAddress: "server.address",
  serverPort: "server.port",
  operationName: "db.operation.name",
  collectionName: "db.collection.name",
  queryText: "db.query.text",
  returnedRows: "db.response.returned_rows",
  statusCode: "db.response.status_code",
  errorType: "error.type",
  /**
   * The conventions define no rows-affected attribute (a proposal, open-telemetry/semantic-conventions#3094, is
   * open), so it lives in our namespace rather than a guessed `db.*` name.
   */
  affectedRows: "adbc.response.affected_rows",
  ingestMode: "adbc.ingest.mode",
  batchRows: "adbc.batch.rows",
  batchBytes: "adbc.batch.bytes"
} as const

/** Internal: span attributes and log annotations. */
export type SpanAttributes = Readonly<Record<string, string | number>>

/** Internal: what every span and log line of one connection says about where it goes. */
export interface ConnectionTelemetry {
  readonly attributes: SpanAttributes
  readonly statusCode: (vendorCode: number) => string
}

/** Internal: the telemetry facts of a connection opened with `options` (validated, so the endpoint reads cleanly). */
export const connectionTelemetry = (driver: DriverShape, options: ResolvedOptions): ConnectionTelemetry => {
  const hook = driver.telemetry
  const endpoint = hook?.endpoint(options) ?? {}
  const attributes: Record<string, string | number> = { [Attr.systemName]: hook?.systemName ?? driver.name }
  if (endpoint.namespace !== undefined && endpoint.namespace !== "") attributes[Attr.namespace] = endpoint.namespace
  if (endpoint.address !== undefined && endpoint.address !== "") attributes[Attr.serverAddress] = endpoint.address
  if (endpoint.port !== undefined) attributes[Attr.serverPort] = endpoint.port
  for (const [key, value] of Object.entries(endpoint.attributes ?? {})) if (value !== "") attributes[key] = value
  return { attributes, statusCode: hook?.statusCode ?? String }
}

/** Internal: the connection's telemetry once connected, with the namespace the server reported, if any. */
export const connectedTelemetry = (telemetry: ConnectionTelemetry, namespace: string | undefined): ConnectionTelemetry =>
  namespace === undefined || namespace === ""
    ? telemetry
    : { ...telemetry, attributes: { ...telemetry.attributes, [Attr.namespace]: namespace } }

const LEADING_NOISE = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*/
const FIRST_WORD = /^[A-Za-z]+/

/**
 * Internal: the statement's operation, its first keyword as written (`SELECT`, `insert`, `BEGIN`, `CALL`), or
 * undefined when it has none. The conventions allow taking it from the query text when a call runs one statement
 * ("The operation name SHOULD NOT be extracted from db.query.text, when the database system supports query text
 * with multiple operations in non-batch operations", registry/attributes/db): HANA and Oracle run one statement (or
 * one PL/SQL block) per call.
 */
export const operationName = (sql: string): string | undefined => {
  const rest = sql.replace(LEADING_NOISE, "")
  return FIRST_WORD.exec(rest)?.[0]
}

/** Internal: the attributes of a statement's span; the SQL text only when the user opted in. */
export const statementAttributes = (
  telemetry: ConnectionTelemetry,
  options: ResolvedOptions,
  sql: string
): Record<string, string | number> => {
  const attributes: Record<string, string | number> = { ...telemetry.attributes }
  const operation = operationName(sql)
  if (operation !== undefined) attributes[Attr.operationName] = operation
  if (options.value(QueryText)) attributes[Attr.queryText] = sql
  return attributes
}

/**
 * Internal: a span name per the conventions: `{db.operation.name} {target}`, `{db.operation.name}` without a
 * target, `{db.system.name}` without either.
 */
export const spanName = (attributes: Readonly<Record<string, unknown>>, target?: string): string => {
  const operation = attributes[Attr.operationName]
  if (typeof operation !== "string") return String(attributes[Attr.systemName])
  return target === undefined ? operation : `${operation} ${target}`
}

/** Internal: `error.type` (the ADBC status) and `db.response.status_code` (the vendor code) of a failure. */
export const errorAttributes = (telemetry: ConnectionTelemetry, error: AdbcError): SpanAttributes =>
  error.vendorCode === undefined
    ? { [Attr.errorType]: error.status }
    : { [Attr.errorType]: error.status, [Attr.statusCode]: telemetry.statusCode(error.vendorCode) }

/**
 * Internal: runs `effect` in a CLIENT span with `attributes`, and logs its start and end at debug level with the same
 * attributes. A failure adds the error attributes to both; `outcome` adds attributes of a success (rows affected).
 */
export const traced = <A, R>(
  telemetry: ConnectionTelemetry,
  name: string,
  attributes: SpanAttributes,
  effect: Effect.Effect<A, AdbcError, R>,
  outcome: (value: A) => SpanAttributes = () => ({})
): Effect.Effect<A, AdbcError, R> =>
  Effect.logDebug(`adbc: ${name} started`).pipe(
    Effect.andThen(effect),
    Effect.tapError((error) => annotated(`adbc: ${name} failed`, errorAttributes(telemetry, error))),
    Effect.tap((value) => annotated(`adbc: ${name} finished`, outcome(value))),
    Effect.annotateLogs(attributes),
    Effect.withSpan(name, { kind: "client", attributes })
  )

/**
 * Internal: metric attributes of an operation: its span's, as text, without `db.query.text` (SQL may hold literals,
 * and metric series must stay few).
 */
export const metricAttributes = (attributes: SpanAttributes): Record<string, string> => {
  const result: Record<string, string> = {}
  for (const key in attributes) if (key !== Attr.queryText) result[key] = String(attributes[key])
  return result
}

/** `error.type` (and the vendor code) of an operation that did not succeed; an interruption reads as `CANCELLED`. */
const failureAttributes = (telemetry: ConnectionTelemetry, cause: Cause.Cause<AdbcError>): SpanAttributes => {
  const error = Cause.findErrorOption(cause)
  if (error._tag === "Some") return errorAttributes(telemetry, error.value)
  return { [Attr.errorType]: Cause.hasInterruptsOnly(cause) ? "CANCELLED" : "_OTHER" }
}

/**
 * Internal: runs `effect` and records its duration in seconds in `db.client.operation.duration` with the operation's
 * metric attributes, and `error.type` when it did not succeed. One histogram update per operation.
 */
export const measured = <A, R>(
  telemetry: ConnectionTelemetry,
  attributes: SpanAttributes,
  effect: Effect.Effect<A, AdbcError, R>
): Effect.Effect<A, AdbcError, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.onExit(effect, (exit) => {
      const seconds = (performance.now() - start) / 1000
      const tags = Exit.isSuccess(exit)
        ? metricAttributes(attributes)
        : metricAttributes({ ...attributes, ...failureAttributes(telemetry, exit.cause) })
      return Metric.update(Metric.withAttributes(operationDuration, tags), seconds)
    })
  })

/** Adds `attributes` to the current span and logs `message` at debug level with them. */
const annotated = (message: string, attributes: SpanAttributes) =>
  Effect.annotateCurrentSpan(attributes).pipe(
    Effect.andThen(Effect.logDebug(message).pipe(Effect.annotateLogs(attributes)))
  )

/** Internal: the Arrow buffer bytes of a batch (an estimate of the data it holds; sliced batches count whole buffers). */
export const batchBytes = (batch: Arrow.RecordBatch): number => batch.data.byteLength

/**
 * Internal: per-batch bookkeeping of a fetch or an ingest: a span event, the span's row count, the progress
 * listener and a debug line, all once per batch.
 */
export interface BatchTracker {
  readonly batch: (rows: number, bytes: number) => Effect.Effect<void>
  readonly done: Effect.Effect<void>
}

/** Internal: what a batch tracker works with, read once when the operation starts. */
export interface TrackerContext {
  readonly span: Tracer.Span | undefined
  readonly listener: ProgressListener | undefined
  readonly clock: Clock.Clock
  /** Whether debug lines would be written; when not, no per-batch log effect is built. */
  readonly debug: boolean
}

/**
 * Internal: a tracker for one operation, reporting to the context's span and listener. `rowsAttribute`, if given, is
 * set on the span after every batch, so it holds the rows seen when the span ends, however it ends.
 */
export const batchTracker = (
  context: TrackerContext,
  base: Pick<Progress, "operation" | "target">,
  rowsAttribute: string | undefined,
  annotations: SpanAttributes
): BatchTracker => {
  const { clock, debug, listener, span } = context
  const eventName = `adbc.${base.operation}.batch`
  const logMessage = `adbc: ${base.operation} batch`
  let rows = 0
  let bytes = 0
  let batches = 0
  const report = (done: boolean) =>
    listener === undefined ? Effect.void : listener({ ...base, rows, bytes, batches, done })
  return {
    batch: (batchRows, batchBytes) =>
      Effect.suspend(() => {
        rows += batchRows
        bytes += batchBytes
        batches++
        const event = { [Attr.batchRows]: batchRows, [Attr.batchBytes]: batchBytes }
        if (span !== undefined) {
          span.event(eventName, clock.currentTimeNanosUnsafe(), event)
          if (rowsAttribute !== undefined) span.attribute(rowsAttribute, rows)
        }
        if (!debug) return report(false)
        const line = Effect.logDebug(logMessage).pipe(
          Effect.annotateLogs({ ...annotations, ...event, "adbc.rows_so_far": rows, "adbc.bytes_so_far": bytes })
        )
        return listener === undefined ? line : Effect.andThen(report(false), line)
      }),
    // A fetch read to its end records its rows in `db.client.response.returned_rows`; a committed ingest adds its
    // rows to `db.client.ingest.rows`: one metric update per operation, none per batch.
    done: Effect.suspend(() => {
      if (rowsAttribute !== undefined) span?.attribute(rowsAttribute, rows)
      const metric: Metric.Metric<number, unknown> = base.operation === "fetch" ? returnedRows : ingestRows
      return Effect.andThen(Metric.update(Metric.withAttributes(metric, metricAttributes(annotations)), rows), report(true))
    })
  }
}

/** Internal: a tracker for the current span, progress listener, clock and log level. */
export const currentBatchTracker = (
  base: Pick<Progress, "operation" | "target">,
  rowsAttribute: string | undefined,
  annotations: SpanAttributes
): Effect.Effect<BatchTracker> =>
  Effect.map(
    Effect.all([Effect.option(Effect.currentSpan), CurrentProgressListener, Clock.Clock, LogLevel.isEnabled("Debug")]),
    ([span, listener, clock, debug]) =>
      batchTracker(
        { span: span._tag === "Some" ? span.value : undefined, listener, clock, debug },
        base,
        rowsAttribute,
        annotations
      )
  )
