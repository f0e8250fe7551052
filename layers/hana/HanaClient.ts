/**
 * SAP HANA as an `effect/sql` client: `HanaClient` is also `SqlClient.SqlClient`, so `SqlSchema`, `SqlResolver`,
 * `SqlModel` and `Migrator`-style code run on it. Statements are compiled for HANA (`HanaCompiler`), bound and read
 * through the HANA driver (rows from its direct wire-to-Arrow path), pooled, traced as `sap.hana`, and fail with
 * `SqlError`s classified from HANA's error codes (`HanaSqlErrors`). Arrow is one call away: `arrow`, `ingest` and
 * `withConnection` run on the same connection and inside the same `withTransaction`.
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const sql = yield* SqlClient.SqlClient
 *   const rows = yield* sql`SELECT ID, NAME FROM USERS WHERE ID = ${1}`
 * }).pipe(Effect.provide(HanaClient.layer({ uri: "hdb://host:30015", username: "U", password: Redacted.make("…") })))
 * ```
 *
 * @since 0.1.0
 */
import { Config, Context, Effect, type Layer, type Scope } from "effect"
import type { Reactivity } from "effect/reactivity"
import type { SqlClient, SqlError } from "effect/sql"
import * as Client from "../../src/sql/Client.ts"
import { dialect, makeCompiler } from "./HanaCompiler.ts"
import { HanaDriver } from "./HanaDriver.ts"
import { errorTable } from "./HanaSqlErrors.ts"

/** HANA makes DDL transactional per session (SAP HANA SQL Reference, "SET TRANSACTION AUTOCOMMIT DDL"). */
const transactionalDdl = {
  enable: "SET TRANSACTION AUTOCOMMIT DDL OFF",
  restore: "SET TRANSACTION AUTOCOMMIT DDL ON"
}

/**
 * The type id of {@link HanaClient}.
 *
 * @category type ids
 * @since 0.1.0
 */
export const TypeId = "~effect-adbc/HanaClient"

/**
 * The HANA client's configuration: URI, credentials, `dba.*` / `adbc.*` options, pool size, span attributes and name
 * transforms (see {@link Client.ClientConfig}).
 *
 * @category models
 * @since 0.1.0
 */
export interface HanaClientConfig extends Client.ClientConfig {}

/**
 * A `SqlClient` on SAP HANA with Arrow access.
 *
 * @category models
 * @since 0.1.0
 */
export interface HanaClient extends SqlClient.SqlClient, Client.ArrowAccess {
  readonly [TypeId]: typeof TypeId
  readonly config: HanaClientConfig
}

/**
 * The HANA client service.
 *
 * @category services
 * @since 0.1.0
 */
export const HanaClient = Context.Service<HanaClient>("effect-adbc/HanaClient")

/**
 * Creates a HANA client closed with the scope; the configuration is checked before any I/O, then one connection is
 * opened to check the server and credentials.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = (
  config: HanaClientConfig
): Effect.Effect<HanaClient, SqlError.SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.map(
    Client.make({ driver: HanaDriver, dialect, errors: errorTable, makeCompiler, transactionalDdl, returning: "selectBack" }, config),
    (client) => Object.assign(client, { [TypeId]: TypeId, config }) as HanaClient
  )

/**
 * A layer providing {@link HanaClient} and `SqlClient.SqlClient`.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = (config: HanaClientConfig): Layer.Layer<HanaClient | SqlClient.SqlClient, SqlError.SqlError> =>
  Client.layerFrom(HanaClient, make(config)) as Layer.Layer<HanaClient | SqlClient.SqlClient, SqlError.SqlError>

/**
 * A layer providing {@link HanaClient} and `SqlClient.SqlClient` from `Config` (e.g.
 * `{ uri: Config.Redacted("HANA_URI"), poolSize: Config.Int("HANA_POOL_SIZE") }`).
 *
 * @category layers
 * @since 0.1.0
 */
export const layerConfig = (
  config: Config.Wrap<HanaClientConfig>
): Layer.Layer<HanaClient | SqlClient.SqlClient, SqlError.SqlError | Config.ConfigError> =>
  Client.layerFrom(HanaClient, Effect.gen(function*() {
    return yield* make(yield* Config.unwrap(config))
  })) as Layer.Layer<
    HanaClient | SqlClient.SqlClient,
    SqlError.SqlError | Config.ConfigError
  >
