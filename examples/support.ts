/**
 * What every example runs on: a Database Layer for the chosen driver, on the real database named by HANA_URI /
 * ORACLE_URI (with the rest of that driver's options from the environment), else on its test server started for the
 * layer's lifetime.
 */
import { Effect, Layer } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Oracle from "../layers/oracle/index.ts"
import * as Connection from "../src/Connection.ts"
import * as ConnectionPool from "../src/ConnectionPool.ts"
import { HanaTestServer } from "../testkit/hana/index.ts"
import { OracleTestServer } from "../testkit/oracle/index.ts"

/** The drivers the examples run on. */
export type ExampleDriver = "hana" | "oracle"

/** A Database on `driver`: the real one when its URI is in the environment, else its test server. */
export const database = (driver: ExampleDriver) => {
  if (driver === "hana") {
    return process.env["HANA_URI"] !== undefined
      ? Hana.layerDatabaseConfig("HANA_")
      : Layer.unwrap(Effect.map(HanaTestServer, (s) => Hana.layerDatabase({ uri: s.uri }))).pipe(Layer.provide(HanaTestServer.layer()))
  }
  return process.env["ORACLE_URI"] !== undefined
    ? Oracle.layerDatabaseConfig("ORACLE_")
    : Layer.unwrap(Effect.map(OracleTestServer, (s) => Oracle.layerDatabase({ uri: s.uri }))).pipe(Layer.provide(OracleTestServer.layer()))
}

/** One Connection on `driver`. */
export const connection = (driver: ExampleDriver) => Connection.layer().pipe(Layer.provide(database(driver)))

/** A ConnectionPool of `size` connections on `driver`. */
export const pool = (driver: ExampleDriver, size = 4) => ConnectionPool.layer({ size }).pipe(Layer.provide(database(driver)))
