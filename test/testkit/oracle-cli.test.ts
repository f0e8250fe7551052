import { spawn } from "node:child_process"
import * as net from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { oracledb } from "./oracle/helpers.ts"

describe("npm run testkit -- oracle", () => {
  it("prints the URI, serves node-oracledb, and frees the port on SIGTERM", async () => {
    const child = spawn("node_modules/.bin/tsx", ["testkit/cli.ts", "oracle", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] })
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
