import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { startCpuLoad } from "../../bench/support/cpu-load.ts"

const require = createRequire(import.meta.url)

/** Whether process `pid` still runs (a zombie counts as gone). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}

/** Resolves once none of `pids` runs, failing after `ms`. */
const gone = async (pids: ReadonlyArray<number>, ms: number): Promise<void> => {
  const deadline = Date.now() + ms
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`still running: ${pids.filter(alive).join(", ")}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("bench CPU load (BENCH_CPU_LOAD)", () => {
  it("starts busy processes that use CPU, and stop() ends them", async () => {
    const load = await startCpuLoad(2, 0)
    try {
      expect(load.processes).toBe(2)
      expect(load.pids).toHaveLength(2)
      expect(load.pids.every(alive)).toBe(true)
    } finally {
      load.stop()
    }
    await gone(load.pids, 5_000)
  })

  it("busy processes end on their own when the process that started them is killed", async () => {
    const script = fileURLToPath(new URL("./cpu-load-child.ts", import.meta.url))
    const child = spawn(process.execPath, ["--import", require.resolve("tsx"), script], { stdio: ["ignore", "pipe", "inherit"] })
    const pids = await new Promise<Array<number>>((resolve, reject) => {
      let out = ""
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const line = out.split("\n")[0]
        if (out.includes("\n")) resolve(JSON.parse(line!) as Array<number>)
      })
      child.once("exit", (code) => reject(new Error(`the child exited with ${code} before starting its load`)))
    })
    expect(pids).toHaveLength(2)
    expect(pids.every(alive)).toBe(true)
    child.kill("SIGKILL")
    await gone(pids, 5_000)
  })
})
