/**
 * Benchmark runner: `npm run bench -- NAME` imports `bench/NAME.ts`, calls its exported
 * `run(): Promise<Record<string, unknown>>` and prints the result as one JSON object on the LAST line of output.
 * Every result carries `bench` (its name) and `ratio` (ours / baseline, measured in the same run), and the 1-minute
 * load average when the benchmark started and ended (`load_avg_before`, `load_avg_after`).
 *
 * `BENCH_CPU_LOAD=N` runs the benchmark under a CPU load: N busy child processes (support/cpu-load.ts), started
 * before it and waited for until the load average reaches N (at most 3 minutes), killed when it ends or fails.
 *
 * Also exports small timing helpers for benchmark modules (importing this file does not run anything).
 */
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { loadAverage, startCpuLoad } from "./support/cpu-load.ts"

const benchDir = dirname(fileURLToPath(import.meta.url))

/** Names of the runnable benchmarks: every `bench/*.ts` except this runner. */
export const availableBenchmarks = (): Array<string> =>
  readdirSync(benchDir)
    .filter((file) => file.endsWith(".ts") && file !== "run.ts" && !file.endsWith(".d.ts"))
    .map((file) => file.slice(0, -3))
    .sort()

setFlagsFromString("--expose-gc")
const gcFunction: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined")

/** Runs a full garbage collection when the runtime allows it, so one sample's garbage does not bill the next. */
export const collectGarbage = (): void => {
  if (typeof gcFunction === "function") (gcFunction as () => void)()
}

/** Median of a non-empty list of numbers. */
export const median = (samples: ReadonlyArray<number>): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Options of {@link compare}. */
export interface CompareOptions {
  /** Untimed runs of each side before measuring (default 2). */
  readonly warmup?: number
  /** Timed runs of each side (default 7); the sides alternate so machine noise hits both alike. */
  readonly runs?: number
}

/** Timings of {@link compare}, in milliseconds. */
export interface Comparison {
  readonly ours_ms: number
  readonly baseline_ms: number
  /** ours_ms / baseline_ms (lower is better for us). */
  readonly ratio: number
  readonly ours_samples_ms: ReadonlyArray<number>
  readonly baseline_samples_ms: ReadonlyArray<number>
}

const time = (f: () => unknown): number => {
  collectGarbage()
  const start = process.hrtime.bigint()
  f()
  return Number(process.hrtime.bigint() - start) / 1e6
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000

/** Times `ours` against `baseline`: warm-up runs, then alternating timed runs; reports medians and their ratio. */
export const compare = (ours: () => unknown, baseline: () => unknown, options: CompareOptions = {}): Comparison => {
  const warmup = options.warmup ?? 2
  const runs = options.runs ?? 7
  for (let i = 0; i < warmup; i++) {
    ours()
    baseline()
  }
  const oursSamples: Array<number> = []
  const baselineSamples: Array<number> = []
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      oursSamples.push(time(ours))
      baselineSamples.push(time(baseline))
    } else {
      baselineSamples.push(time(baseline))
      oursSamples.push(time(ours))
    }
  }
  const oursMs = median(oursSamples)
  const baselineMs = median(baselineSamples)
  return {
    ours_ms: round(oursMs),
    baseline_ms: round(baselineMs),
    ratio: Math.round((oursMs / baselineMs) * 10000) / 10000,
    ours_samples_ms: oursSamples.map(round),
    baseline_samples_ms: baselineSamples.map(round)
  }
}

/** One side of {@link compareAsync}: `run` is timed; `before` and `after` (untimed) bracket each of its runs. */
export interface TimedSide {
  readonly run: () => Promise<unknown>
  readonly before?: () => Promise<unknown>
  readonly after?: () => Promise<unknown>
}

/** Timings of {@link compareAsync}: {@link Comparison} plus each side's median CPU of the measuring process, in ms. */
export interface AsyncComparison extends Comparison {
  readonly ours_cpu_ms: number
  readonly baseline_cpu_ms: number
}

/**
 * {@link compare} for asynchronous sides: untimed warm-up runs of both, then alternating timed runs (ours first in
 * even rounds, the baseline first in odd ones), each after a full GC; reports medians and their ratio.
 */
export const compareAsync = async (ours: TimedSide, baseline: TimedSide, options: CompareOptions = {}): Promise<AsyncComparison> => {
  const warmup = options.warmup ?? 2
  const runs = options.runs ?? 7
  const samples = { ours: { ms: [] as Array<number>, cpu: [] as Array<number> }, baseline: { ms: [] as Array<number>, cpu: [] as Array<number> } }
  const once = async (side: TimedSide, into?: { ms: Array<number>; cpu: Array<number> }) => {
    await side.before?.()
    collectGarbage()
    const cpu = process.cpuUsage()
    const start = process.hrtime.bigint()
    await side.run()
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    const used = process.cpuUsage(cpu)
    await side.after?.()
    into?.ms.push(ms)
    into?.cpu.push((used.user + used.system) / 1000)
  }
  for (let i = 0; i < warmup; i++) {
    await once(ours)
    await once(baseline)
  }
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      await once(ours, samples.ours)
      await once(baseline, samples.baseline)
    } else {
      await once(baseline, samples.baseline)
      await once(ours, samples.ours)
    }
  }
  const oursMs = median(samples.ours.ms)
  const baselineMs = median(samples.baseline.ms)
  return {
    ours_ms: round(oursMs),
    baseline_ms: round(baselineMs),
    ratio: Math.round((oursMs / baselineMs) * 10000) / 10000,
    ours_samples_ms: samples.ours.ms.map(round),
    baseline_samples_ms: samples.baseline.ms.map(round),
    ours_cpu_ms: round(median(samples.ours.cpu)),
    baseline_cpu_ms: round(median(samples.baseline.cpu))
  }
}

const main = async (): Promise<number> => {
  const name = process.argv[2]
  const available = availableBenchmarks()
  if (name === undefined || !available.includes(name)) {
    process.stderr.write(
      `${name === undefined ? "no benchmark named" : `unknown benchmark "${name}"`}; available: ${available.join(", ")}\n` +
        "usage: npm run bench -- NAME\n"
    )
    return 1
  }
  const module = (await import(pathToFileURL(join(benchDir, `${name}.ts`)).href)) as {
    run?: () => Promise<Record<string, unknown>>
  }
  if (typeof module.run !== "function") {
    process.stderr.write(`bench/${name}.ts does not export run()\n`)
    return 1
  }
  const loadProcesses = cpuLoadProcesses(process.env["BENCH_CPU_LOAD"])
  const load = loadProcesses > 0 ? await startCpuLoad(loadProcesses) : undefined
  let result: Record<string, unknown>
  const loadAtStart = loadAverage()
  try {
    result = await module.run()
  } finally {
    load?.stop()
  }
  const loadAtEnd = loadAverage()
  if (typeof result.ratio !== "number") {
    process.stderr.write(`bench/${name}.ts returned no numeric "ratio"\n`)
    return 1
  }
  const loadFigures = {
    ...(load === undefined ? {} : { cpu_load_processes: load.processes, load_avg_before_cpu_load: load.loadBefore, cpu_load_wait_s: load.waitedS }),
    load_avg_before: loadAtStart,
    load_avg_after: loadAtEnd
  }
  // `bench` first and `ratio` last, whatever order the bench built its figures in
  const { bench: _named, ratio, ...figures } = result
  process.stdout.write(`${JSON.stringify({ bench: name, ...figures, ...loadFigures, ratio })}\n`)
  return 0
}

/** BENCH_CPU_LOAD: the number of busy processes to run the benchmark under (0 or unset: none). */
const cpuLoadProcesses = (value: string | undefined): number => {
  if (value === undefined || value === "") return 0
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error(`BENCH_CPU_LOAD must be a whole number of processes from 0 to 64, not ${JSON.stringify(value)}`)
  return n
}

const entry = process.argv[1]
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exit(1)
    }
  )
}
