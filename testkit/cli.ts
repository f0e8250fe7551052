/**
 * `npm run testkit -- <server> [--port N] [--tls]`: starts a wire-compatible test server on 127.0.0.1, prints its
 * connection URI and serves until SIGINT/SIGTERM. Servers register in {@link starters}.
 */
import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startHanaTestServer } from "./hana/index.ts"
import { startOracleTestServer } from "./oracle/index.ts"
import type { ChildMessage } from "./common/child-process.ts"
import type { ServerStats } from "./common/stats.ts"

/** Options every test server accepts from the command line. */
export interface CliOptions {
  readonly port: number
  readonly tls: boolean
}

/** A started server as the CLI sees it. */
export interface CliServer {
  readonly uri: string
  /** Extra lines printed after the URI (e.g. where the TLS CA was written). */
  readonly notes: readonly string[]
  readonly close: () => Promise<void>
  /** The server's work counters, when it keeps them (sent to a parent that asks over IPC). */
  readonly stats?: () => ServerStats
}

/** Server name → starter. Add a server by adding an entry. */
export const starters: Record<string, (options: CliOptions) => Promise<CliServer>> = {
  hana: async ({ port, tls }) => {
    const server = await startHanaTestServer({ port, tls })
    const notes: string[] = []
    if (server.tls?.ca !== undefined) {
      const caFile = join(tmpdir(), `hana-test-ca-${server.port}.pem`)
      writeFileSync(caFile, server.tls.ca)
      notes.push(`TLS on: trust the test CA in ${caFile} (hdb option ca, servername localhost)`)
    }
    return { uri: server.uri, notes, close: server.close, stats: () => server.stats }
  },
  oracle: async ({ port }) => {
    const server = await startOracleTestServer({ port })
    const notes = [`oracledb thin: { user: "${server.user}", password: "${server.password}", connectString: "${server.connectString}" }`]
    return { uri: server.uri, notes, close: server.close, stats: () => server.stats }
  }
}

const usage = (): never => {
  process.stderr.write(`usage: npm run testkit -- <${Object.keys(starters).join("|")}> [--port N] [--tls]\n`)
  process.exit(2)
}

const parseArgs = (argv: readonly string[]): { name: string; options: CliOptions } => {
  const [name, ...rest] = argv
  if (name === undefined || !(name in starters)) return usage()
  let port = 0
  let tls = false
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    if (arg === "--tls") tls = true
    else if (arg === "--port") {
      const value = Number(rest[++i])
      if (!Number.isInteger(value) || value < 0 || value > 65535) return usage()
      port = value
    } else if (arg.startsWith("--port=")) {
      const value = Number(arg.slice("--port=".length))
      if (!Number.isInteger(value) || value < 0 || value > 65535) return usage()
      port = value
    } else return usage()
  }
  return { name, options: { port, tls } }
}

const main = async (): Promise<void> => {
  const { name, options } = parseArgs(process.argv.slice(2))
  const server = await starters[name]!(options)
  process.stdout.write(`${server.uri}\n`)
  for (const note of server.notes) process.stderr.write(`${note}\n`)
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    void server.close().then(() => process.exit(0))
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  // Forked by startInChildProcess: report readiness and answer stats requests over IPC.
  const send = process.send?.bind(process)
  if (send !== undefined) {
    const reply = (m: ChildMessage): void => void send(m)
    process.on("message", (m: { type?: string }) => {
      if (m.type === "stats") reply({ type: "stats", stats: server.stats?.() })
    })
    process.on("disconnect", stop)
    reply({ type: "ready", uri: server.uri })
  }
}

void main()
