/**
 * `npm run example`: the quickstart on the HANA driver, against the HANA test server started in-process (no HANA
 * needed). Set HANA_URI to run it against a real HANA instead.
 */
import { Effect, Layer } from "effect"
import * as Connection from "../src/Connection.ts"
import * as Hana from "../layers/hana/index.ts"
import { HanaTestServer } from "../testkit/hana/index.ts"
import { quickstart } from "./quickstart.ts"

const database = process.env["HANA_URI"] !== undefined
  ? Hana.layerDatabase({ uri: process.env["HANA_URI"] })
  : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(HanaTestServer.layer({}))
  )

quickstart.pipe(
  Effect.provide(Connection.layer().pipe(Layer.provide(database))),
  Effect.runPromise
).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(String(error))
    process.exit(1)
  }
)
