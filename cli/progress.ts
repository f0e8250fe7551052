/**
 * Progress of long steps (ingest, copy, verification): a bar redrawn in place when the output is a terminal, plain
 * lines otherwise. Steps report rows and Arrow bytes per batch; the finished step's figures (rows/s, MB/s) feed the
 * summary table. Everything goes through the {@link Progress} service, so the rendering can be swapped (or fed by
 * the library's telemetry) without touching the steps.
 */
import type * as Arrow from "apache-arrow"
import { Context, Effect, Layer, Stream } from "effect"

/** Figures of one finished step. */
export interface StepFigures {
  readonly step: string
  readonly rows: number
  readonly bytes: number
  readonly seconds: number
}

/** A step in progress. */
export interface ProgressTask {
  /** Counts `rows` more rows and `bytes` more bytes. */
  readonly advance: (rows: number, bytes: number) => void
  /** Ends the step and returns its figures. */
  readonly finish: () => StepFigures
}

/** Starts steps and renders their progress. */
export class Progress extends Context.Service<Progress, {
  /** Starts a step; `totalRows` (when known) lets the bar show a percentage. */
  readonly start: (step: string, totalRows?: number) => ProgressTask
}>()("effect-adbc/cli/Progress") {}

/** Where progress goes: text written as is (`\r` redraws a terminal line). */
export interface ProgressSink {
  readonly write: (text: string) => void
  /** Whether the sink is a terminal (bars) or not (plain lines). */
  readonly isTerminal: boolean
  /** Terminal width in columns. */
  readonly columns?: number | undefined
}

const BAR_WIDTH = 28
const REDRAW_MS = 100

const rate = (count: number, seconds: number): number => (seconds > 0 ? count / seconds : 0)

/** `1,234,567` */
export const formatCount = (n: number): string => Math.round(n).toLocaleString("en-US")

/** `12.3` MB (10^6 bytes). */
export const formatMegabytes = (bytes: number): string => (bytes / 1e6).toFixed(1)

const bar = (done: number, total: number | undefined): string => {
  if (total === undefined || total <= 0) return ""
  const filled = Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH))
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${Math.min(100, Math.floor((done / total) * 100))
    .toString()
    .padStart(3)}% `
}

/** A {@link Progress} writing to `sink`: bars on a terminal, one line per step start and end otherwise. */
export const make = (sink: ProgressSink): Progress["Service"] => ({
  start: (step, totalRows) => {
    const started = performance.now()
    let rows = 0
    let bytes = 0
    let lastDraw = 0
    const elapsed = () => (performance.now() - started) / 1000
    const line = () =>
      `${step}: ${bar(rows, totalRows)}${formatCount(rows)}${totalRows !== undefined ? `/${formatCount(totalRows)}` : ""} rows, ${
        formatCount(rate(rows, elapsed()))
      } rows/s`
    const draw = () => {
      const text = line()
      sink.write(`\r${text.slice(0, Math.max(20, (sink.columns ?? 80) - 1)).padEnd(Math.min(text.length, 79))}`)
    }
    if (!sink.isTerminal) sink.write(`${step}: started\n`)
    return {
      advance: (n, b) => {
        rows += n
        bytes += b
        if (!sink.isTerminal) return
        const now = performance.now()
        if (now - lastDraw >= REDRAW_MS) {
          lastDraw = now
          draw()
        }
      },
      finish: () => {
        const seconds = elapsed()
        if (sink.isTerminal) {
          draw()
          sink.write("\n")
        } else {
          sink.write(`${step}: ${formatCount(rows)} rows in ${seconds.toFixed(2)} s\n`)
        }
        return { step, rows, bytes, seconds }
      }
    }
  }
})

/** Progress on the process's stdout: bars when it is a terminal, plain lines otherwise. */
export const layerStdout: Layer.Layer<Progress> = Layer.sync(Progress, () =>
  make({
    write: (text) => void process.stdout.write(text),
    isTerminal: process.stdout.isTTY === true,
    columns: process.stdout.columns
  }))

/**
 * Runs `stream` as the step `step`, counting each batch's rows and Arrow bytes as it passes; `onFinish` receives
 * the step's figures when the stream completes.
 */
export const tracked = <E, R>(
  step: string,
  stream: Stream.Stream<Arrow.RecordBatch, E, R>,
  options: { readonly totalRows?: number | undefined; readonly onFinish: (figures: StepFigures) => void }
): Stream.Stream<Arrow.RecordBatch, E, R | Progress> =>
  Stream.unwrap(Effect.map(Progress, (progress) => {
    const task = progress.start(step, options.totalRows)
    return stream.pipe(
      Stream.tap((batch) => Effect.sync(() => task.advance(batch.numRows, batch.data.byteLength))),
      Stream.onEnd(Effect.sync(() => options.onFinish(task.finish())))
    )
  }))
