/**
 * A CPU load to run a benchmark under (`BENCH_CPU_LOAD=N npm run bench -- NAME`, see bench/run.ts): N busy child
 * processes, each spinning on one core, so that a benchmark's processes share the machine's cores as on a busy
 * machine, where wall time follows the CPU every process needs.
 *
 * The busy children end when {@link CpuLoad.stop} kills them, when the measuring process exits (its `exit`
 * handler kills them), and on their own when their parent is gone (they check their parent id between spins) or
 * after {@link MAX_BUSY_SECONDS}, so a benchmark that fails or is killed leaves no load behind.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { loadavg } from "node:os"

/** A busy child's longest life, whatever happens to its parent. */
export const MAX_BUSY_SECONDS = 1800

/** The busy child's program: spin, and every ~50 ms check that its parent still lives and its time is not up. */
const BUSY_PROGRAM = `
const parent = Number(process.argv[1]);
const end = Date.now() + ${MAX_BUSY_SECONDS} * 1000;
for (;;) {
  const until = Date.now() + 50;
  while (Date.now() < until) {}
  if (process.ppid !== parent || Date.now() > end) process.exit(0);
}`

/** The 1-minute load average, rounded to two decimals. */
export const loadAverage = (): number => Math.round(loadavg()[0]! * 100) / 100

/** A running CPU load. */
export interface CpuLoad {
  /** Busy processes started. */
  readonly processes: number
  /** Their process ids. */
  readonly pids: ReadonlyArray<number>
  /** The 1-minute load average before they started. */
  readonly loadBefore: number
  /** Seconds spent waiting for the load average to reach the target (see {@link startCpuLoad}). */
  readonly waitedS: number
  /** Kills the busy processes (idempotent). */
  readonly stop: () => void
}

/**
 * Starts `processes` busy child processes, then waits until the 1-minute load average reaches `processes` (it
 * follows the run queue with a one-minute time constant, so from a quiet machine this takes one to two minutes),
 * at most `maxWaitS` seconds. The caller must call {@link CpuLoad.stop} (in a `finally`); the processes also die with
 * the caller.
 */
export const startCpuLoad = async (processes: number, maxWaitS = 180): Promise<CpuLoad> => {
  const loadBefore = loadAverage()
  const children: Array<ChildProcess> = []
  const stop = (): void => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    }
    process.off("exit", stop)
  }
  process.on("exit", stop)
  for (let i = 0; i < processes; i++) {
    children.push(spawn(process.execPath, ["-e", BUSY_PROGRAM, String(process.pid)], { stdio: "ignore" }))
  }
  const start = Date.now()
  try {
    while (loadAverage() < processes && Date.now() - start < maxWaitS * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  } catch (e) {
    stop()
    throw e
  }
  return { processes, pids: children.map((c) => c.pid!), loadBefore, waitedS: Math.round((Date.now() - start) / 100) / 10, stop }
}
