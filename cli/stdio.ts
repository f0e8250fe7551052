/**
 * Where the command line reads and writes: its stdin (scripts), its stdout (results, progress, summaries), its stderr (error lines), whether stdout
 * is a terminal and how wide. Every command writes through this service (and through the Console built on it), never
 * to `process.stdout` directly, so the same program runs in a test with its output captured.
 */
import { Console as NodeConsole } from "node:console"
import type { Readable, Writable } from "node:stream"
import { Console, Context, Effect, Layer } from "effect"

/** The command line's output streams. */
export class CliStdio extends Context.Service<CliStdio, {
  /** Standard input (`adbc query -f -` reads its script there). */
  readonly stdin: Readable
  readonly stdout: Writable
  readonly stderr: Writable
  /** Whether stdout is a terminal (progress bars) or not (plain lines). */
  readonly isTerminal: boolean
  /** Terminal width in columns, when stdout is a terminal that says. */
  readonly columns: number | undefined
}>()("effect-adbc/cli/CliStdio") {}

/** The process's own stdout and stderr. */
export const layerProcess: Layer.Layer<CliStdio> = Layer.sync(CliStdio, () => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  isTerminal: process.stdout.isTTY === true,
  columns: process.stdout.columns
}))

/** Effect's Console (what `Console.log` and effect/cli's help and usage errors use) on the {@link CliStdio} streams. */
export const layerConsole: Layer.Layer<never, never, CliStdio> = Layer.effect(Console.Console)(
  Effect.map(CliStdio, (stdio) => new NodeConsole({ stdout: stdio.stdout, stderr: stdio.stderr }))
)
