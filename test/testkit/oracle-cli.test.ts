import { spawn } from "node:child_process"
import * as net from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { startInChildProcess } from "../../testkit/common/child-process.ts"
import { oracledb } from "./oracle/helpers.ts"

describe("npm run testkit -- oracle", () => {
  it("prints the URI, serves node-oracledb, and frees the port on SIGTERM", async () => {
    // node with tsx as a loader, not the tsx wrapper process, which kills a CLI slow to acknowledge a signal (hana-cli.test.ts)
    const child = spawn(process.execPath, ["--import", "tsx", "testkit/cli.ts", "oracle", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let out = ""
        child.stdout.on("data", (b: Buffer) => {
          out += b.toString()
          const nl = out.indexOf("\n")
          if (nl >= 0) resolve(out.slice(0, nl))
        })
        child.once("exit", (code) => reject(new Error(`cli exited early with ${code}: ${stderr}`)))
      })
      const uri = new URL(firstLine)
      expect(uri.protocol).toBe("oracle:")
      expect(uri.hostname).toBe("127.0.0.1")
      expect(uri.pathname).toBe("/FREEPDB1")
      const conn = await oracledb.getConnection({
        user: decodeURIComponent(uri.username),
        password: decodeURIComponent(uri.password),
        connectString: `${uri.hostname}:${uri.port}${uri.pathname}`
      })
      expect((await conn.execute("SELECT SYS_CONTEXT('USERENV','CON_NAME') FROM DUAL")).rows).toEqual([["FREEPDB1"]])
      await conn.close()
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      const probe = net.createServer()
      await new Promise<void>((resolve, reject) => {
        probe.once("error", reject)
        probe.listen(Number(uri.port), "127.0.0.1", () => resolve())
      })
      await new Promise<void>((resolve) => probe.close(() => resolve()))
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  })
})

describe("startInChildProcess", () => {
  it("runs the Oracle server in a child process that counts executeMany rows and encoded rows, and exits on close", async () => {
    const server = await startInChildProcess("oracle")
    try {
      expect(server.pid).not.toBe(process.pid)
      const uri = new URL(server.uri)
      const conn = await oracledb.getConnection({
        user: decodeURIComponent(uri.username),
        password: decodeURIComponent(uri.password),
        connectString: `${uri.hostname}:${uri.port}${uri.pathname}`
      })
      try {
        await conn.execute("CREATE TABLE child_t (id NUMBER(10), amount NUMBER(18,2), name VARCHAR2(10), ts TIMESTAMP)")
        const ts = new Date(Date.UTC(2024, 1, 29, 12, 30, 15, 250))
        await conn.executeMany("INSERT INTO child_t VALUES (:1, :2, :3, :4)", [
          [1, 12.34, "a", ts],
          [2, -0.05, null, null],
          [3, 1e15, "ccc", ts]
        ])
        const rows = (await conn.execute("SELECT id, amount, name, ts FROM child_t ORDER BY id")).rows
        expect(rows).toEqual([
          [1, 12.34, "a", ts],
          [2, -0.05, null, null],
          [3, 1e15, "ccc", ts]
        ])
      } finally {
        await conn.close()
      }
      const stats = await server.stats()
      expect(stats?.insertRows).toBe(3)
      expect(stats?.insertCalls).toBe(1)
      expect(stats?.insertMs).toBeGreaterThan(0)
      expect(stats?.encodedRows).toBe(3)
    } finally {
      await server.close()
    }
    expect(() => process.kill(server.pid, 0)).toThrow()
  })
})
