/**
 * Oracle driver for effect-adbc on node-oracledb in thin mode (pure JavaScript: no Oracle Client libraries).
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const conn = yield* Connection.Connection
 *   const batches = yield* Stream.runCollect(conn.query("SELECT * FROM T"))
 * }).pipe(Effect.provide(Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri: "oracle://u:p@host:1521/FREEPDB1" })))))
 * ```
 *
 * @since 0.1.0
 */
import { Layer } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { OracleDriver } from "./OracleDriver.ts"

export { OracleDriver, VERSION } from "./OracleDriver.ts"
export * as OracleOptions from "./OracleOptions.ts"

/**
 * A layer providing the Oracle {@link Driver}.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer: Layer.Layer<Driver> = Layer.succeed(Driver, OracleDriver)

/**
 * A {@link Database.Database} on Oracle from ADBC options (`uri`, `username`, `password`, `timezone`, `redo.*`),
 * validated before any I/O.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerDatabase = (
  options: Readonly<Record<string, string>>
): Layer.Layer<Database.Database, AdbcError> => Database.layer(options).pipe(Layer.provide(layer))

/**
 * A {@link Database.Database} on Oracle from the environment: every option read from `prefix` + the key in upper
 * case (`ORACLE_URI`, `ORACLE_REDO_STATEMENT_FETCH_ARRAY_SIZE`, …), validated when the configuration loads.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerDatabaseConfig = (prefix = "ORACLE_") => Database.layerConfig(prefix).pipe(Layer.provide(layer))

export * as OracleClient from "./OracleClient.ts"
export * as OracleCompiler from "./OracleCompiler.ts"
export * as OracleMigrator from "./OracleMigrator.ts"
export { fromDatabaseName, toDatabaseName } from "../../src/sql/Names.ts"
