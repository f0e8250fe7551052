/**
 * Telemetry test support: an in-memory Tracer that keeps every span it creates, a Logger that keeps every line at
 * debug level and above with its annotations, and a progress listener that keeps every report.
 */
import * as Arrow from "apache-arrow"
import { Effect, Layer, Logger, References, Tracer } from "effect"
import type { Progress, ProgressListener } from "../../src/Telemetry.ts"

/** One captured log line. */
export interface LogLine {
  readonly level: string
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/** What a program run under {@link Recorder.layer} emitted. */
export interface Recorder {
  readonly spans: Array<Tracer.NativeSpan>
  readonly logs: Array<LogLine>
  /** Provides the recording Tracer and Logger, with the minimum log level at Debug. */
  readonly layer: Layer.Layer<never>
  /** Every span (name, attributes, events, exit) and log line as one text, for "never contains" checks. */
  readonly dump: () => string
  /** The ended spans called `name`. */
  readonly named: (name: string) => Array<Tracer.NativeSpan>
}

/** A fresh recorder. */
export const makeRecorder = (): Recorder => {
  const spans: Array<Tracer.NativeSpan> = []
  const logs: Array<LogLine> = []
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  const logger = Logger.make(({ fiber, logLevel, message }) => {
    const text = (Array.isArray(message) ? message : [message]).map(String).join(" ")
    logs.push({ level: logLevel, message: text, annotations: { ...fiber.getRef(References.CurrentLogAnnotations) } })
  })
  const layer = Layer.mergeAll(
    Layer.succeed(Tracer.Tracer, tracer),
    Layer.succeed(References.MinimumLogLevel, "Debug"),
    Logger.layer([logger])
  )
  const dump = () =>
    JSON.stringify(
      {
        spans: spans.map((s) => ({
          name: s.name,
          attributes: [...s.attributes],
          events: s.events,
          exit: s.status._tag === "Ended" ? String(s.status.exit) : "open"
        })),
        logs
      },
      (_, v) => (typeof v === "bigint" ? String(v) : v)
    )
  const named = (name: string) => spans.filter((s) => s.name === name && s.status._tag === "Ended")
  return { spans, logs, layer, dump, named }
}

/** A listener that keeps every progress report in `into`. */
export const collectProgress = (into: Array<Progress>): ProgressListener => (progress) =>
  Effect.sync(() => {
    into.push(progress)
  })

/** The events of a span called `name`, with their attributes. */
export const eventsOf = (span: Tracer.NativeSpan, name: string): Array<Record<string, unknown>> =>
  (span.events ?? []).filter(([eventName]) => eventName === name).map(([, , attributes]) => attributes)

/**
 * Checks that reports grow batch by batch and end with one `done` report holding `total` rows: the progress a
 * caller saw while the operation ran, not only at its end.
 */
export const expectGrowing = (reports: ReadonlyArray<Progress>, total: number, minReports: number) => {
  if (reports.length < minReports) throw new Error(`expected at least ${minReports} progress reports, got ${reports.length}`)
  for (let i = 1; i < reports.length; i++) {
    const [before, after] = [reports[i - 1]!, reports[i]!]
    if (after.rows < before.rows || after.bytes < before.bytes || after.batches < before.batches) {
      throw new Error(`progress went back: ${JSON.stringify(before)} then ${JSON.stringify(after)}`)
    }
  }
  const last = reports[reports.length - 1]!
  if (!last.done || last.rows !== total) throw new Error(`last report should be done with ${total} rows: ${JSON.stringify(last)}`)
  const early = reports.filter((r) => !r.done && r.rows > 0 && r.rows < total)
  if (early.length < minReports - 2) throw new Error(`expected intermediate reports, got ${JSON.stringify(reports)}`)
  if (reports.some((r) => r.bytes <= 0)) throw new Error(`every report should count bytes: ${JSON.stringify(reports)}`)
}

/** A table of `rows` rows (`ID` int32, `NAME` utf8) in batches of `batchRows` (or smaller, as Arrow cuts them). */
export const numberedTable = (rows: number, batchRows: number, secretAt?: { row: number; value: string }): Arrow.Table => {
  const batches: Array<Arrow.RecordBatch> = []
  for (let start = 0; start < rows; start += batchRows) {
    const n = Math.min(batchRows, rows - start)
    const ids = Int32Array.from({ length: n }, (_, i) => start + i)
    const names = Array.from({ length: n }, (_, i) =>
      secretAt !== undefined && start + i === secretAt.row ? secretAt.value : `name-${start + i}`)
    const slice = new Arrow.Table({ ID: Arrow.makeVector(ids), NAME: Arrow.vectorFromArray(names, new Arrow.Utf8()) })
    batches.push(...slice.batches)
  }
  return new Arrow.Table(batches)
}
