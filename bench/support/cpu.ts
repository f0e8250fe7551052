/**
 * Per-side CPU of a timed run: the measuring process's own CPU (`process.cpuUsage`) and the test server's (its child
 * process, from Linux's /proc/PID/stat), so that a benchmark's JSON says which process bounds it (client CPU, server
 * CPU, or neither: waiting on round trips). On a loaded machine the wall time follows the sum of both.
 */
import { readFileSync } from "node:fs"
import { collectGarbage, median } from "../run.ts"

/** CPU seconds process `pid` has used so far (Linux /proc; NaN elsewhere). */
export const processCpuSeconds = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/** One timed run: wall seconds, the measuring process's CPU seconds, the server's CPU seconds, and its result. */
export interface CpuSample<A> {
  readonly s: number
  readonly clientCpu: number
  readonly serverCpu: number
  readonly result: A
}

/** Times `f` after a full GC, with the CPU the client and the server process `serverPid` used. */
export const timedWithCpu = async <A>(serverPid: number, f: () => Promise<A>): Promise<CpuSample<A>> => {
  collectGarbage()
  const server0 = processCpuSeconds(serverPid)
  const client0 = process.cpuUsage()
  const start = process.hrtime.bigint()
  const result = await f()
  const s = Number(process.hrtime.bigint() - start) / 1e9
  const client = process.cpuUsage(client0)
  return { s, clientCpu: (client.user + client.system) / 1e6, serverCpu: processCpuSeconds(serverPid) - server0, result }
}

const round2 = (x: number): number => Math.round(x * 100) / 100

/** Median client and server CPU seconds of one side's samples, keyed `PREFIX_client_cpu_s` / `PREFIX_server_cpu_s`. */
export const cpuFigures = (prefix: string, samples: ReadonlyArray<CpuSample<unknown>>): Record<string, number> => ({
  [`${prefix}_client_cpu_s`]: round2(median(samples.map((x) => x.clientCpu))),
  [`${prefix}_server_cpu_s`]: round2(median(samples.map((x) => x.serverCpu)))
})
