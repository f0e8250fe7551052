/**
 * Stopping a process named by a pid file (`adbc testkit stop`): SIGTERM, then waiting until the process is gone, so
 * the caller can rely on its port being free when this returns.
 */
import { readFile, rm } from "node:fs/promises"
import { Effect } from "effect"
import { type AdbcError, adbcError } from "../src/AdbcError.ts"

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user's process.
    return (error as { code?: string }).code === "EPERM"
  }
}

/** Ends when process `pid` has ended (the process's exit is not an event this process can wait for). */
const untilGone = (pid: number): Effect.Effect<void> =>
  Effect.suspend(() => (isRunning(pid) ? Effect.andThen(Effect.sleep("50 millis"), untilGone(pid)) : Effect.void))

/**
 * Sends SIGTERM to the process whose id `file` holds and waits (up to `timeoutMs`) until it has ended; removes the
 * file; returns the pid. A file naming a process that is already gone is removed without error.
 */
export const stopByPidFile = (file: string, timeoutMs = 30_000): Effect.Effect<number, AdbcError> =>
  Effect.gen(function*() {
    const text = yield* Effect.tryPromise({
      try: () => readFile(file, "utf8"),
      catch: (cause) => adbcError("IO", `cannot read ${file}: ${(cause as Error).message}`)
    })
    const pid = Number(text.trim())
    if (!Number.isSafeInteger(pid) || pid <= 0) {
      return yield* adbcError("INVALID_DATA", `${file} does not hold a process id: ${JSON.stringify(text.trim().slice(0, 40))}`)
    }
    if (isRunning(pid)) {
      yield* Effect.try({
        try: () => process.kill(pid, "SIGTERM"),
        catch: (cause) => adbcError("IO", `cannot stop process ${pid} of ${file}: ${(cause as Error).message}`)
      })
      yield* untilGone(pid).pipe(
        Effect.timeoutOrElse({
          duration: timeoutMs,
          orElse: () => Effect.fail(adbcError("TIMEOUT", `process ${pid} of ${file} did not stop within ${timeoutMs / 1000} s`))
        })
      )
    }
    yield* Effect.promise(() => rm(file, { force: true }))
    return pid
  })
