/**
 * Runs the `adbc` command line in a child process, from the TypeScript sources through tsx (or the built bin), and
 * collects its output and exit code.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

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

/** Options of {@link startCli}. */
export interface CliOptions {
  readonly env?: Record<string, string | undefined>
  /** Run `dist/cli/main.js` with plain node instead of the sources. */
  readonly built?: boolean
  readonly stdin?: string
}

/** Starts `adbc ...args`. Environment: the test's, minus HANA_URI / ORACLE_URI unless given. */
export const startCli = (args: ReadonlyArray<string>, options: CliOptions = {}): CliProcess => {
  const entry = options.built === true ? ["dist/cli/main.js"] : ["--import", "tsx", "cli/main.ts"]
  const env: Record<string, string | undefined> = { ...process.env, HANA_URI: undefined, ORACLE_URI: undefined, ...options.env }
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
  const child = spawn(process.execPath, [...entry, ...args], { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] })
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

/** Runs `adbc ...args` to the end. */
export const runCli = (args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliRun> =>
  startCli(args, options).done
