/**
 * SAP HANA driver for effect-adbc on the `hdb` client.
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const conn = yield* Connection.Connection
 *   const batches = yield* Stream.runCollect(conn.query("SELECT * FROM T"))
 * }).pipe(Effect.provide(Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: "hdb://u:p@host:30015" })))))
 * ```
 *
 * @since 0.1.0
 */
import { Layer } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { HanaDriver } from "./HanaDriver.ts"

export { HanaDriver, VERSION } from "./HanaDriver.ts"
export * as HanaOptions from "./HanaOptions.ts"

/**
 * A layer providing the HANA {@link Driver}.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer: Layer.Layer<Driver> = Layer.succeed(Driver, HanaDriver)

/**
 * A {@link Database.Database} on HANA from ADBC options (`uri`, `username`, `password`, `dba.*`), validated before
 * any I/O.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerDatabase = (
  options: Readonly<Record<string, string>>
): Layer.Layer<Database.Database, AdbcError> => Database.layer(options).pipe(Layer.provide(layer))

/**
 * A {@link Database.Database} on HANA from the environment: every option read from `prefix` + the key in upper
 * case (`HANA_URI`, `HANA_DBA_STATEMENT_FETCH_SIZE`, …), validated when the configuration loads.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerDatabaseConfig = (prefix = "HANA_") => Database.layerConfig(prefix).pipe(Layer.provide(layer))

export * as HanaClient from "./HanaClient.ts"
export * as HanaCompiler from "./HanaCompiler.ts"
export * as HanaMigrator from "./HanaMigrator.ts"
export { fromDatabaseName, toDatabaseName } from "../../src/sql/Names.ts"
