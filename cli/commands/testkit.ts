/**
 * `adbc testkit hana|oracle [--port N] [--pid-file F]`: starts a wire-compatible test server until Ctrl-C or SIGTERM
 * and prints how to connect; `adbc testkit stop --pid-file F …` stops servers started with a pid file, with or without
 * the shell's job control (a script has none, so `kill %1` cannot reach them there).
 */
import { rm, writeFile } from "node:fs/promises"
import { Console, Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { adbcError } from "../../src/AdbcError.ts"
import { OptionSchemas } from "../../src/Options.ts"
import { DriverName, drivers } from "../drivers.ts"
import { envName, integerFlag } from "../flags.ts"
import { stopByPidFile } from "../pidfile.ts"

const probe: Record<DriverName, string> = { hana: "SELECT * FROM DUMMY", oracle: "SELECT * FROM DUAL" }

/** `adbc testkit`. */
export const testkit = Command.make(
  "testkit",
  {
    server: Argument.Literals("server", [...DriverName.literals, "stop"] as const).pipe(
      Argument.withDescription("which test server: hana or oracle; or stop, to stop the servers of the --pid-file files")
    ),
    port: integerFlag("port", OptionSchemas.nonNegativeInt, envName("testkit", "port"), 0, "port to listen on (0: any free port)"),
    pidFile: Flag.String("pid-file").pipe(
      Flag.atLeast(0),
      Flag.withDescription("starting: write the server's process id to this file (removed when it stops); stop: the files to stop (repeatable)")
    )
  },
  ({ pidFile, port, server }) =>
    server === "stop"
      ? pidFile.length === 0
        ? Effect.fail(adbcError("INVALID_ARGUMENT", "testkit stop needs the --pid-file of each server to stop"))
        : Effect.forEach(pidFile, (file) =>
          stopByPidFile(file).pipe(Effect.flatMap((pid) => Console.log(`stopped the test server of ${file} (pid ${pid})`))), {
          discard: true
        })
      : Effect.gen(function*() {
        if (pidFile.length > 1) return yield* adbcError("INVALID_ARGUMENT", "one --pid-file per test server")
        const uri = yield* drivers[server].startTestServer(port)
        for (const file of pidFile) {
          yield* Effect.acquireRelease(
            Effect.tryPromise({
              try: () => writeFile(file, `${process.pid}\n`),
              catch: (cause) => adbcError("IO", `cannot write ${file}: ${(cause as Error).message}`)
            }),
            () => Effect.promise(() => rm(file, { force: true }))
          )
        }
        yield* Console.log(uri)
        yield* Console.error(`${server} test server listening; connect with:\n  adbc query --uri '${uri}' '${probe[server]}'\nCtrl-C stops it (so does adbc testkit stop, given a --pid-file).`)
        return yield* Effect.never
      }).pipe(Effect.scoped)
).pipe(Command.withDescription(
  "Start a test server (HANA or Oracle wire protocol on an embedded DuckDB) and print its URI; stop those started with --pid-file"
))
