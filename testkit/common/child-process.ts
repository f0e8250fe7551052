/**
 * Runs a test server in a child Node process (the CLI, `testkit/cli.ts`, forked with an IPC channel), so that the
 * server's CPU time is not charged to the process that measures a client, e.g. in benchmarks.
 */
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { ServerStats } from "./stats.ts"

/** A test server running in a child process. */
export interface ChildServer {
  /** The server's connection URI, as the CLI prints it (`hdb://…`, `oracle://…`). */
  readonly uri: string
  /** Child process id. */
  readonly pid: number
  /** The server's work counters (undefined when that server keeps none). */
  readonly stats: () => Promise<ServerStats | undefined>
  /** Stops the server (SIGTERM) and waits for the child to exit. Idempotent. */
  readonly close: () => Promise<void>
}

/** Messages between the CLI and its parent. */
export type ChildMessage =
  | { readonly type: "ready"; readonly uri: string }
  | { readonly type: "stats"; readonly stats: ServerStats | undefined }

const cliPath = fileURLToPath(new URL("../cli.ts", import.meta.url))

/**
 * Node flags that write a V8 CPU profile of the child server into `dir` when it exits (it exits on SIGTERM, so
 * `close()` writes it): how the benchmarks' notes on server CPU were profiled. None without a directory.
 */
const cpuProfileArgs = (dir: string | undefined): Array<string> =>
  dir === undefined || dir === "" ? [] : ["--cpu-prof", `--cpu-prof-dir=${dir}`]

/**
 * V8 flags of every child server. `--single-threaded-gc` runs V8's garbage collection on the server's main thread
 * instead of also on its helper threads (concurrent marking, parallel scavenges): the servers' bulk inserts allocate
 * column buffers per call, and each old-generation collection then marks their whole live heap (about 45 MB under
 * tsx) on up to four helper threads besides the main thread's share. Measured on the Oracle server's insert of
 * 1,000,000 rows of the oracle-ingest table (BENCHMARKS.md, oracle-ingest): 0.85–0.93 CPU s with the helpers
 * (main thread about 0.5, helper threads about 0.3), 0.62–0.74 CPU s without (main thread about 0.57, helpers
 * about 0.02). Less CPU in all is what keeps a server's share of a busy machine; a quiet machine loses a little
 * main-thread time to collection.
 *
 * `--initial-old-space-size=128` (MB): a server's live heap is about 55–58 MB once it has loaded (tsx, the testkit's
 * modules) and served a bulk call, and V8 sets its first old-generation limits just above what is live, so every few
 * MB promoted or allocated as ArrayBuffers (counted against the same limit) started another full mark of the whole
 * heap: 5 and 9 mark-compacts over three 1,000,000-row ingests of the oracle-ingest table at load 13–18, 19–27% of the
 * server's busy time in its CPU profile, against 1 and 3% with the flag (BENCHMARKS.md, oracle-ingest). The servers behave
 * the same either way.
 */
export const CHILD_V8_FLAGS: ReadonlyArray<string> = ["--single-threaded-gc", "--initial-old-space-size=128"]

/** Starts `server` ("hana", "oracle") through the CLI in a child process; resolves once it listens. */
export const startInChildProcess = (server: string, options: { readonly port?: number } = {}): Promise<ChildServer> =>
  new Promise((resolve, reject) => {
    const child = fork(cliPath, [server, "--port", String(options.port ?? 0)], {
      execArgv: [...CHILD_V8_FLAGS, "--import", "tsx", ...cpuProfileArgs(process.env["TESTKIT_CHILD_CPU_PROF"])],
      stdio: ["ignore", "ignore", "inherit", "ipc"]
    })
    const waiting: Array<(stats: ServerStats | undefined) => void> = []
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    child.once("exit", (code) => reject(new Error(`test server ${server} exited with ${code} before listening`)))
    child.on("message", (m: ChildMessage) => {
      if (m.type === "stats") waiting.shift()?.(m.stats)
      else if (m.type === "ready") {
        resolve({
          uri: m.uri,
          pid: child.pid!,
          stats: () =>
            new Promise((answer) => {
              waiting.push(answer)
              child.send({ type: "stats" })
            }),
          close: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
            await exited
          }
        })
      }
    })
  })
