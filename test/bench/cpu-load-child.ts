/** Starts a CPU load of two processes, prints their ids and waits to be killed (test/bench/cpu-load.test.ts). */
import { startCpuLoad } from "../../bench/support/cpu-load.ts"

const load = await startCpuLoad(2, 0)
process.stdout.write(`${JSON.stringify(load.pids)}\n`)
setInterval(() => undefined, 60_000)
