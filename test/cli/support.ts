/**
 * Runs the `adbc` command line and collects its output and exit code: in-process (the CLI's own Effect program with
 * its stdout and stderr captured, exit code as `adbc.ts` computes it) or in a child process (the built bin, for what
 * only a process shows: the bin itself, signals, exit codes).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PassThrough, Readable } from "node:stream"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { ConfigProvider, Effect, Fiber, Layer } from "effect"
import { describeExit } from "../../cli/errors.ts"
import { isVerbose, runAdbc } from "../../cli/program.ts"
import { CliStdio } from "../../cli/stdio.ts"

/** The repository root. */
export const root = fileURLToPath(new URL("../..", import.meta.url))

/** What a finished run printed and how it ended. */
export interface CliRun {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  /** stdout as bytes (binary output such as Arrow IPC). */
  readonly stdoutBytes: Buffer
  readonly stderr: string
}

/** A running `adbc`. */
export interface CliProcess {
  readonly child: ChildProcess
  /** Everything printed on stdout so far. */
  readonly stdout: () => string
  /** Resolves when stdout has printed text matching `pattern`. */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>
  readonly done: Promise<CliRun>
}

/** Options of {@link startCli} and {@link runInProcess}. */
export interface CliOptions {
  /** Environment on top of the test's (which loses HANA_URI / ORACLE_URI and every ADBC_ variable). */
  readonly env?: Record<string, string | undefined>
  readonly stdin?: string
  /** In-process runs only: whether stdout counts as a terminal (progress bars); default false, as a pipe. */
  readonly terminal?: boolean
}

/** The test's environment without what would point the CLI at another database, plus `extra`. */
const environment = (extra: Record<string, string | undefined> = {}): Record<string, string> => {
  const env: Record<string, string | undefined> = { ...process.env, HANA_URI: undefined, ORACLE_URI: undefined }
  for (const key of Object.keys(env)) if (key.startsWith("ADBC_")) delete env[key]
  Object.assign(env, extra)
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
  return env as Record<string, string>
}

/** `adbc` running in this process. */
export interface InProcessCli {
  /** Everything printed on stdout so far. */
  readonly stdout: () => string
  /** Everything printed on stderr so far. */
  readonly stderr: () => string
  /** Resolves when stdout or stderr has printed text matching `pattern`. */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>
  /** Interrupts the program (as SIGINT does in the bin) and waits for its end. */
  readonly interrupt: () => Promise<CliRun>
  readonly done: Promise<CliRun>
}

/**
 * Starts `adbc ...args` in this process: the same program as the bin (`cli/program.ts`) with its environment read from
 * `options.env` through Effect Config, its stdout and stderr captured, and, when it ends, the exit code and error
 * lines `adbc.ts` would print.
 */
export const startInProcess = (args: ReadonlyArray<string>, options: CliOptions = {}): InProcessCli => {
  const chunks: Array<Buffer> = []
  let stdout = ""
  let stderr = ""
  const watchers = new Set<() => void>()
  const out = new PassThrough()
  const err = new PassThrough()
  out.on("data", (chunk: Buffer) => {
    chunks.push(chunk)
    stdout += chunk.toString("utf8")
    for (const watcher of [...watchers]) watcher()
  })
  err.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
    for (const watcher of [...watchers]) watcher()
  })
  const stdio = Layer.succeed(CliStdio, {
    stdin: Readable.from([options.stdin ?? ""]),
    stdout: out,
    stderr: err,
    isTerminal: options.terminal ?? false,
    columns: undefined
  })
  const fiber = Effect.runFork(runAdbc(args, "0.0.0-test").pipe(
    Effect.provide(Layer.merge(NodeServices.layer, stdio)),
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: environment(options.env) }))
  ))
  const done = Effect.runPromise(Fiber.await(fiber)).then(async (exit) => {
    const { code, lines } = describeExit(exit, isVerbose(args))
    for (const line of lines) err.write(`${line}\n`)
    await new Promise((resolve) => setImmediate(resolve))
    const bytes = Buffer.concat(chunks)
    return { code, signal: null, stdout: bytes.toString("utf8"), stdoutBytes: bytes, stderr }
  })
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    interrupt: () => Effect.runPromise(Fiber.interrupt(fiber)).then(() => done),
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(check)
          reject(new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`))
        }, timeoutMs)
        function check() {
          if (pattern.test(stdout) || pattern.test(stderr)) {
            clearTimeout(timer)
            watchers.delete(check)
            resolve()
          }
        }
        watchers.add(check)
        check()
      })
  }
}

/** Runs `adbc ...args` in this process to the end (see {@link startInProcess}). */
export const runInProcess = (args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliRun> =>
  startInProcess(args, options).done

let built: Promise<string> | undefined

/**
 * The bin as `npm pack` ships it: `tsc -p tsconfig.build.json` (emit only; `npm run typecheck` checks the types) into
 * a scratch package, once per test file; resolves to the path of its `dist/cli/main.js`. The build runs in a child
 * process, so the test servers in this process keep answering meanwhile.
 */
export const buildBin = (): Promise<string> => {
  built ??= (async () => {
    const pkg = mkdtempSync(join(tmpdir(), "adbc-bin-"))
    copyFileSync(join(root, "package.json"), join(pkg, "package.json"))
    symlinkSync(join(root, "node_modules"), join(pkg, "node_modules"))
    await promisify(execFile)(process.execPath, [
      join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json"), "--outDir", join(pkg, "dist"),
      "--noCheck", "--declaration", "false", "--declarationMap", "false", "--sourceMap", "false", "--inlineSources", "false"
    ], { cwd: root })
    return join(pkg, "dist/cli/main.js")
  })()
  return built
}

/** Starts the built bin (`bin` from {@link buildBin}) as `adbc ...args` in a child process. */
export const startCli = (bin: string, args: ReadonlyArray<string>, options: CliOptions = {}): CliProcess => {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: environment(options.env), stdio: ["pipe", "pipe", "pipe"] })
  const chunks: Array<Buffer> = []
  let stdout = ""
  let stderr = ""
  const watchers: Array<() => void> = []
  child.stdout!.on("data", (chunk: Buffer) => {
    chunks.push(chunk)
    stdout += chunk.toString("utf8")
    for (const watcher of [...watchers]) watcher()
  })
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk))
  child.stdin!.end(options.stdin ?? "")
  const done = new Promise<CliRun>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout: Buffer.concat(chunks).toString("utf8"), stdoutBytes: Buffer.concat(chunks), stderr }))
  )
  return {
    child,
    stdout: () => stdout,
    done,
    waitFor: (pattern, timeoutMs = 120_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`)), timeoutMs)
        const check = () => {
          if (pattern.test(stdout)) {
            clearTimeout(timer)
            watchers.splice(watchers.indexOf(check), 1)
            resolve()
          }
        }
        watchers.push(check)
        void done.then(() => {
          if (!pattern.test(stdout)) {
            clearTimeout(timer)
            reject(new Error(`adbc ended before printing ${pattern}; stdout: ${stdout}; stderr: ${stderr}`))
          }
        })
        check()
      })
  }
}

/** Runs the built bin as `adbc ...args` to the end. */
export const runBin = (bin: string, args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliRun> =>
  startCli(bin, args, options).done
