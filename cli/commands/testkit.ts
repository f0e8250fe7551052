/**
 * `adbc testkit hana|oracle [--port N]`: starts a wire-compatible test server until Ctrl-C and prints how to connect.
 */
import { Console, Effect } from "effect"
import { Argument, Command } from "effect/cli"
import { OptionSchemas } from "../../src/Options.ts"
import { DriverName, drivers } from "../drivers.ts"
import { envName, integerFlag } from "../flags.ts"

const probe: Record<DriverName, string> = { hana: "SELECT * FROM DUMMY", oracle: "SELECT * FROM DUAL" }

/** `adbc testkit`. */
export const testkit = Command.make(
  "testkit",
  {
    server: Argument.Literals("server", DriverName.literals).pipe(Argument.withDescription("which test server: hana or oracle")),
    port: integerFlag("port", OptionSchemas.nonNegativeInt, envName("testkit", "port"), 0, "port to listen on (0: any free port)")
  },
  ({ port, server }) =>
    Effect.gen(function*() {
      const uri = yield* drivers[server].startTestServer(port)
      yield* Console.log(uri)
      yield* Console.error(`${server} test server listening; connect with:\n  adbc query --uri '${uri}' '${probe[server]}'\nCtrl-C stops it.`)
      return yield* Effect.never
    }).pipe(Effect.scoped)
).pipe(Command.withDescription("Start a test server (HANA or Oracle wire protocol on an embedded DuckDB) and print its URI"))
