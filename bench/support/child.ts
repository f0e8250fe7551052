/**
 * Memory benchmarks measure in a child process of their own: this runs a benchmark module again as a child
 * (`node --expose-gc --import tsx FILE`, with extra environment variables) and returns the JSON object the child
 * prints as the last line of its output.
 */
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

/** What a memory child reports: rows handled, RSS before and at its peak. */
export interface ChildRss {
  readonly rows: number
  readonly baseline_rss: number
  readonly peak_rss: number
}

/** Runs `moduleUrl` (a benchmark's `import.meta.url`) in a child with `env` added; resolves its last output line. */
export const runInChild = (moduleUrl: string, env: Record<string, string>): Promise<ChildRss> =>
  new Promise((resolve, reject) => {
    const tsx = createRequire(moduleUrl).resolve("tsx")
    const proc = spawn(process.execPath, ["--expose-gc", "--import", tsx, fileURLToPath(moduleUrl)], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString()
    })
    proc.on("error", reject)
    proc.on("exit", (code) => {
      const line = out.trim().split("\n").pop() ?? ""
      if (code !== 0) return reject(new Error(`child exited with ${code}: ${line}`))
      resolve(JSON.parse(line) as ChildRss)
    })
  })

/**
 * RSS sampling in a memory child: collects garbage (`--expose-gc`), takes the baseline, then samples every 5 ms and
 * whenever `sample` is called; `stop` ends the sampling and returns the figures the child prints.
 */
export const sampleRss = (): { readonly sample: () => void; readonly stop: (rows: number) => ChildRss } => {
  ;(globalThis as { gc?: () => void }).gc?.()
  const baseline = process.memoryUsage.rss()
  let peak = baseline
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }
  const timer = setInterval(sample, 5)
  return {
    sample,
    stop: (rows) => {
      clearInterval(timer)
      sample()
      return { rows, baseline_rss: baseline, peak_rss: peak }
    }
  }
}
