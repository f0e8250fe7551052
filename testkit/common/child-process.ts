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

/** Starts `server` ("hana", "oracle") through the CLI in a child process; resolves once it listens. */
export const startInChildProcess = (server: string, options: { readonly port?: number } = {}): Promise<ChildServer> =>
  new Promise((resolve, reject) => {
    const child = fork(cliPath, [server, "--port", String(options.port ?? 0)], {
      execArgv: ["--import", "tsx", ...cpuProfileArgs(process.env["TESTKIT_CHILD_CPU_PROF"])],
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
