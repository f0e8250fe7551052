/**
 * Progress of long steps (ingest, copy, verification): a bar redrawn in place when the output is a terminal, plain
 * lines otherwise. The rows and Arrow bytes come from the library's own progress reports (`Telemetry.withProgress`,
 * one per fetched or ingested batch); the finished step's figures (rows/s, MB/s) feed the summary table. Rendering
 * goes through the {@link Progress} service, so it can be swapped without touching the steps.
 */
import { Context, Effect, Layer } from "effect"
import * as Telemetry from "../src/Telemetry.ts"
import { CliStdio } from "./stdio.ts"

/** Figures of one finished step. */
export interface StepFigures {
  readonly step: string
  readonly rows: number
  readonly bytes: number
  readonly seconds: number
}

/** A step in progress. */
export interface ProgressTask {
  /** The step has handled `rows` rows and `bytes` Arrow bytes so far. */
  readonly update: (rows: number, bytes: number) => void
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

const BAR_WIDTH = 20
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
        formatMegabytes(bytes)
      } MB, ${formatCount(rate(rows, elapsed()))} rows/s`
    const draw = () => {
      const text = line()
      // A terminal that reports no width (0) gets 80 columns; the line is cut one short of the width.
      const width = sink.columns !== undefined && sink.columns > 20 ? sink.columns - 1 : 79
      sink.write(`\r${text.slice(0, width).padEnd(Math.min(text.length, width))}`)
    }
    if (!sink.isTerminal) sink.write(`${step}: started\n`)
    return {
      update: (n, b) => {
        rows = n
        bytes = b
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

/** Progress on the command line's stdout: bars when it is a terminal, plain lines otherwise. */
export const layerStdout: Layer.Layer<Progress, never, CliStdio> = Layer.effect(Progress)(
  Effect.map(CliStdio, (stdio) =>
    make({
      write: (text) => void stdio.stdout.write(text),
      isTerminal: stdio.isTerminal,
      columns: stdio.columns
    }))
)

/** Progress that draws nothing (`--quiet`): steps still measure their figures. */
export const layerSilent: Layer.Layer<Progress> = Layer.succeed(Progress)(make({ write: () => {}, isTerminal: false }))

/**
 * Progress on stdout as {@link layerStdout}, but only where it cannot mix with results: stdout is a terminal and the
 * results go elsewhere (`adbc query --output FILE`); otherwise {@link layerSilent}.
 */
export const layerTerminalOnly: Layer.Layer<Progress, never, CliStdio> = Layer.unwrap(
  Effect.map(CliStdio, (stdio) => (stdio.isTerminal ? layerStdout : layerSilent))
)

/** Options of {@link tracked}. */
export interface TrackOptions {
  /** Which of the library's progress reports count for the step: a fetch's or an ingest's. */
  readonly operation: Telemetry.Progress["operation"]
  readonly totalRows?: number | undefined
  /** Receives the step's figures when it completes. */
  readonly onFinish: (figures: StepFigures) => void
}

/**
 * Runs `effect` as the step `step`: the library's progress reports of its fetches or ingests (per `operation`) move
 * the step's bar; `onFinish` receives the step's figures when the effect succeeds.
 */
export const tracked = (step: string, options: TrackOptions) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Progress> =>
  Effect.flatMap(Progress, (progress) => {
    const task = progress.start(step, options.totalRows)
    return effect.pipe(
      Telemetry.withProgress((report) =>
        Effect.sync(() => {
          if (report.operation === options.operation) task.update(report.rows, report.bytes)
        })
      ),
      Effect.tap(() => Effect.sync(() => options.onFinish(task.finish())))
    )
  })
