import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { startInChildProcess } from "../../testkit/common/child-process.ts"
import { call, closeQuietly, connect, exec } from "./hana/client.ts"
import type { HdbStatement } from "./hana/client.ts"

const startCli = (args: readonly string[]) => {
  // node with tsx as a loader, as startInChildProcess runs it: the tsx wrapper process relays a signal to the process
  // running the CLI and, when that one does not acknowledge it within 30 ms (a loaded machine), kills it and exits 143
  const child = spawn(process.execPath, ["--import", "tsx", "testkit/cli.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] })
  let stderr = ""
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = ""
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString()
      const nl = out.indexOf("\n")
      if (nl >= 0) resolve(out.slice(0, nl))
    })
    child.once("exit", (code) => reject(new Error(`cli exited early with ${code}: ${stderr}`)))
  })
  // Marked handled: a test that expects an early exit never awaits the URI.
  firstLine.catch(() => undefined)
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, firstLine, exited, stderr: () => stderr }
}

describe("npm run testkit -- hana", () => {
  it("prints the URI, serves hdb, and stops on SIGTERM", async () => {
    const cli = startCli(["hana", "--port", "0"])
    const uri = new URL(await cli.firstLine)
    expect(uri.protocol).toBe("hdb:")
    const c = await connect({ host: uri.hostname, port: Number(uri.port), user: decodeURIComponent(uri.username), password: decodeURIComponent(uri.password) })
    expect(await exec(c, "SELECT 1 AS ONE FROM DUMMY")).toEqual([{ ONE: 1 }])
    closeQuietly(c)
    cli.child.kill("SIGTERM")
    expect(await cli.exited).toBe(0)
  })

  it("serves TLS with --tls and writes the test CA to a file", async () => {
    const cli = startCli(["hana", "--tls"])
    const uri = new URL(await cli.firstLine)
    await new Promise((r) => setTimeout(r, 100))
    const caFile = /in (\S+\.pem)/.exec(cli.stderr())?.[1]
    expect(caFile).toBeDefined()
    const c = await connect({
      host: uri.hostname, port: Number(uri.port), user: "SYSTEM", password: "Manager1", ca: [readFileSync(caFile!, "utf8")], sslHanaCloudCertificates: false
    })
    expect(await exec(c, "SELECT CURRENT_USER FROM DUMMY")).toEqual([{ CURRENT_USER: "SYSTEM" }])
    closeQuietly(c)
    cli.child.kill("SIGINT")
    expect(await cli.exited).toBe(0)
  })

  it("rejects an unknown server name with usage", async () => {
    const cli = startCli(["nosuchdb"])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain("usage: npm run testkit --")
  })
})

describe("startInChildProcess", () => {
  it("runs the HANA server in a child process that reports its work counters and exits on close", async () => {
    const server = await startInChildProcess("hana")
    try {
      expect(server.pid).not.toBe(process.pid)
      const uri = new URL(server.uri)
      const c = await connect({ host: uri.hostname, port: Number(uri.port), user: "SYSTEM", password: "Manager1" })
      await exec(c, "CREATE TABLE child_t (id INTEGER)")
      const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO child_t VALUES (?)", cb))
      await call((cb) => st.exec([[1], [2], [3]], cb))
      expect(await exec(c, "SELECT id FROM child_t ORDER BY id")).toEqual([{ ID: 1 }, { ID: 2 }, { ID: 3 }])
      closeQuietly(c)
      const stats = await server.stats()
      expect(stats?.insertRows).toBe(3)
      expect(stats?.insertCalls).toBe(1)
      expect(stats?.encodedRows).toBe(3)
    } finally {
      await server.close()
    }
    expect(() => process.kill(server.pid, 0)).toThrow()
  })
})
