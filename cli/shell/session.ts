/**
 * The interactive loop of `adbc shell` on one connection: Node's readline (line editing, history), statements that
 * end with `;` (or a procedural block with a `/` line) over as many lines as they take, backslash commands, and
 * Ctrl-C: during a statement it interrupts the fiber running it (the driver cancels the server call) and the prompt
 * comes back; at the prompt it clears the line, and a second one at an empty prompt ends the session.
 */
import { performance } from "node:perf_hooks"
import * as readline from "node:readline"
import type { Writable } from "node:stream"
import { Cause, Effect, Exit, Fiber, Queue } from "effect"
import type { ConnectionShape } from "../../src/Connection.ts"
import { errorLine } from "../errors.ts"
import { openSink } from "../output.ts"
import { splitScript } from "../script.ts"
import { CliStdio } from "../stdio.ts"
import { runBackslash, type ShellSettings } from "./commands.ts"
import { HISTORY_SIZE, loadHistory, saveHistory } from "./history.ts"
import { runStatement, type ShellFormat, type ShellOutput } from "./run.ts"

/** Options of {@link runShell}. */
export interface ShellOptions {
  /** The name the prompt shows (the driver's). */
  readonly name: string
  readonly format: ShellFormat
  readonly maxRows: number
  readonly maxWidth: number
  /** The history file; none keeps no history. */
  readonly historyFile: string | undefined
}

/** What the terminal sends: a line, Ctrl-C, or the end of input (Ctrl-D, end of a piped script). */
type Input = { readonly _tag: "line"; readonly text: string } | { readonly _tag: "interrupt" } | { readonly _tag: "end" }

const elapsed = (ms: number): string => `Time: ${ms.toFixed(3)} ms`

/** Runs the shell on `conn` until `\q`, Ctrl-D or end of input. */
export const runShell = (conn: ConnectionShape, options: ShellOptions) =>
  Effect.gen(function*() {
    const stdio = yield* CliStdio
    const interactive = (stdio.stdin as { isTTY?: boolean }).isTTY === true
    const history = options.historyFile === undefined || !interactive ? [] : yield* loadHistory(options.historyFile)
    const inputs = yield* Queue.unbounded<Input>()
    const prompt = `${options.name}> `
    const continuation = `${"-".padStart(options.name.length)}> `
    let latestHistory: ReadonlyArray<string> = history
    const rl = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const rl = readline.createInterface({
          input: stdio.stdin,
          // A piped script gets no prompts: only what its statements print.
          ...(interactive ? { output: stdio.stdout } : {}),
          terminal: interactive,
          history,
          historySize: HISTORY_SIZE,
          removeHistoryDuplicates: true,
          prompt
        })
        rl.on("line", (text) => Queue.offerUnsafe(inputs, { _tag: "line", text }))
        rl.on("SIGINT", () => Queue.offerUnsafe(inputs, { _tag: "interrupt" }))
        rl.on("close", () => Queue.offerUnsafe(inputs, { _tag: "end" }))
        rl.on("history", (entries: Array<string>) => void (latestHistory = [...entries]))
        return rl
      }),
      (rl) =>
        Effect.gen(function*() {
          rl.close()
          if (options.historyFile !== undefined && interactive) {
            const failure = yield* saveHistory(options.historyFile, latestHistory)
            if (failure !== undefined) stdio.stderr.write(`warning: history not saved: ${failure}\n`)
          }
        })
    )
    const out = yield* openSink(undefined)
    const err = { write: (chunk: string | Uint8Array) => Effect.sync(() => void stdio.stderr.write(chunk)) }
    const settings: ShellSettings = { format: options.format, timing: false }
    const output = (): ShellOutput => ({ format: settings.format, maxRows: options.maxRows, maxWidth: options.maxWidth, out, err })
    const say = (stream: Writable, line: string) => Effect.sync(() => void stream.write(`${line}\n`))

    /** Lines and ends that came while a statement ran. */
    const stashed: Array<Input> = []
    const nextInput = Effect.suspend(() => {
      const first = stashed.shift()
      return first === undefined ? Queue.take(inputs) : Effect.succeed(first)
    })

    /**
     * Runs `work` in a fiber of its own that a Ctrl-C interrupts; lines typed meanwhile wait in the queue. Prints the
     * error line of a failure and the time taken when `\timing` is on.
     */
    const interruptible = <A>(work: Effect.Effect<A, unknown>, timed: boolean) =>
      Effect.gen(function*() {
        const started = performance.now()
        const fiber = yield* Effect.forkChild(work)
        let exit: Exit.Exit<A, unknown> | undefined
        while (exit === undefined) {
          const next = yield* Effect.raceFirst(
            Effect.map(Fiber.await(fiber), (done) => ({ _tag: "done" as const, done })),
            Effect.map(Queue.take(inputs), (input) => ({ _tag: "input" as const, input }))
          )
          if (next._tag === "done") exit = next.done
          else if (next.input._tag === "interrupt") {
            yield* Fiber.interrupt(fiber)
            exit = yield* Fiber.await(fiber)
          } else stashed.push(next.input) // read once the prompt is back, in order
        }
        if (Exit.isSuccess(exit)) {
          if (timed && settings.timing) yield* say(stdio.stdout, elapsed(performance.now() - started))
          return exit.value
        }
        if (Exit.hasInterrupts(exit)) yield* say(stdio.stderr, "cancelled")
        else yield* say(stdio.stderr, errorLine(Cause.squash(exit.cause)))
        return undefined
      })

    let buffer = ""
    let lastWasEmptyInterrupt = false
    const showPrompt = () =>
      Effect.sync(() => {
        rl.setPrompt(buffer.trim() === "" ? prompt : continuation)
        rl.prompt()
      })
    if (interactive) yield* say(stdio.stdout, `adbc shell on ${options.name}: statements end with ;  \\? for help, \\q to quit`)
    yield* showPrompt()
    for (;;) {
      const input = yield* nextInput
      if (input._tag === "end") {
        // A piped script's last statement may lack its `;`.
        if (!interactive && buffer.trim() !== "") yield* interruptible(runStatement(conn, buffer.trim(), output()), true)
        if (interactive) yield* say(stdio.stdout, "")
        return
      }
      if (input._tag === "interrupt") {
        const pending = buffer.trim() !== "" || rl.line !== ""
        if (!pending && lastWasEmptyInterrupt) {
          yield* say(stdio.stdout, "")
          return
        }
        lastWasEmptyInterrupt = !pending
        buffer = ""
        // Ctrl-E then Ctrl-U: the cursor to the end of the line, then the line deleted.
        yield* Effect.sync(() => {
          stdio.stdout.write(pending ? "^C\n" : "^C (Ctrl-C again, Ctrl-D or \\q to quit)\n")
          rl.setPrompt(prompt)
          rl.write(null, { ctrl: true, name: "e" })
          rl.write(null, { ctrl: true, name: "u" })
        })
        yield* showPrompt()
        continue
      }
      lastWasEmptyInterrupt = false
      if (buffer.trim() === "" && input.text.trim().startsWith("\\")) {
        const outcome = yield* interruptible(runBackslash(input.text, conn, settings, output()), false)
        if (outcome === "quit") return
        yield* showPrompt()
        continue
      }
      buffer += `${input.text}\n`
      const { rest, statements } = splitScript(buffer)
      buffer = rest.trim() === "" ? "" : rest
      for (const statement of statements) yield* interruptible(runStatement(conn, statement.sql, output()), true)
      yield* showPrompt()
    }
  }).pipe(Effect.scoped)

