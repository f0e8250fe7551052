/**
 * Options from the environment: `Hana.layerDatabaseConfig("HANA_")` reads every option of the HANA driver from
 * `HANA_` + its key in upper case (`HANA_URI`, `HANA_DBA_STATEMENT_FETCH_SIZE`, …) through Effect Config and the
 * same Schemas as `setOption`, so a bad value fails when the configuration loads, before any connection.
 */
import { ConfigProvider, Console, Effect, Layer } from "effect"
import { Connection } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import { HanaTestServer } from "effect-adbc/testkit/hana"

/** Connects with options read from `env` and reads one back; returns it (or the configuration error's text). */
export const connectWith = (env: Record<string, string>) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    return yield* conn.getOption("dba.statement.fetch_size").pipe(Effect.orElseSucceed(() => "(default)"))
  }).pipe(
    Effect.provide(Connection.layer().pipe(Layer.provide(Hana.layerDatabaseConfig("HANA_")))),
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })),
    Effect.catch((error) => Effect.succeed(`configuration rejected: ${String(error)}`))
  )

/** A good and a bad environment, on the HANA test server. */
export const main = Effect.gen(function*() {
  const server = yield* HanaTestServer
  const good = yield* connectWith({ HANA_URI: server.uri, HANA_DBA_STATEMENT_FETCH_SIZE: "5000" })
  const bad = yield* connectWith({ HANA_URI: server.uri, HANA_DBA_STATEMENT_FETCH_SIZE: "lots" })
  yield* Console.log(`HANA_DBA_STATEMENT_FETCH_SIZE=5000 → fetch size ${good}\nHANA_DBA_STATEMENT_FETCH_SIZE=lots → ${bad}`)
  return { good, bad }
}).pipe(Effect.provide(HanaTestServer.layer()))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
