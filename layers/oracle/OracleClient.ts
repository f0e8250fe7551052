/**
 * Oracle as an `effect/sql` client: `OracleClient` is also `SqlClient.SqlClient`, so `SqlSchema`, `SqlResolver`,
 * `SqlModel` and `Migrator`-style code run on it. Statements are compiled for Oracle (`OracleCompiler`), bound and read
 * through the Oracle driver (rows from its direct wire-to-Arrow path), pooled, traced as `oracle.db`, and fail with
 * `SqlError`s classified from Oracle's error codes (`OracleSqlErrors`). Arrow is one call away: `arrow`, `ingest` and
 * `withConnection` run on the same connection and inside the same `withTransaction`.
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const sql = yield* SqlClient.SqlClient
 *   const rows = yield* sql`SELECT ID, NAME FROM USERS WHERE ID = ${1}`
 * }).pipe(Effect.provide(OracleClient.layer({ uri: "oracle://host:1521/FREEPDB1", username: "U", password: Redacted.make("…") })))
 * ```
 *
 * @since 0.1.0
 */
import { Config, Context, Effect, type Layer, type Scope } from "effect"
import type { Reactivity } from "effect/reactivity"
import type { SqlClient, SqlError } from "effect/sql"
import * as Client from "../../src/sql/Client.ts"
import { dialect, makeCompiler } from "./OracleCompiler.ts"
import { OracleDriver } from "./OracleDriver.ts"
import { errorTable } from "./OracleSqlErrors.ts"

/**
 * The type id of {@link OracleClient}.
 *
 * @category type ids
 * @since 0.1.0
 */
export const TypeId = "~effect-adbc/OracleClient"

/**
 * The Oracle client's configuration: URI, credentials, `redo.*` / `adbc.*` options, pool size, span attributes and name
 * transforms (see {@link Client.ClientConfig}).
 *
 * @category models
 * @since 0.1.0
 */
export interface OracleClientConfig extends Client.ClientConfig {}

/**
 * A `SqlClient` on Oracle with Arrow access.
 *
 * @category models
 * @since 0.1.0
 */
export interface OracleClient extends SqlClient.SqlClient, Client.ArrowAccess {
  readonly [TypeId]: typeof TypeId
  readonly config: OracleClientConfig
}

/**
 * The Oracle client service.
 *
 * @category services
 * @since 0.1.0
 */
export const OracleClient = Context.Service<OracleClient>("effect-adbc/OracleClient")

/**
 * Creates an Oracle client closed with the scope; the configuration is checked before any I/O, then one connection is
 * opened to check the server and credentials.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = (
  config: OracleClientConfig
): Effect.Effect<OracleClient, SqlError.SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.map(
    Client.make({ driver: OracleDriver, dialect, errors: errorTable, makeCompiler, returning: "into" }, config),
    (client) => Object.assign(client, { [TypeId]: TypeId, config }) as OracleClient
  )

/**
 * A layer providing {@link OracleClient} and `SqlClient.SqlClient`.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = (config: OracleClientConfig): Layer.Layer<OracleClient | SqlClient.SqlClient, SqlError.SqlError> =>
  Client.layerFrom(OracleClient, make(config)) as Layer.Layer<OracleClient | SqlClient.SqlClient, SqlError.SqlError>

/**
 * A layer providing {@link OracleClient} and `SqlClient.SqlClient` from `Config` (e.g.
 * `{ uri: Config.Redacted("ORACLE_URI"), poolSize: Config.Int("ORACLE_POOL_SIZE") }`).
 *
 * @category layers
 * @since 0.1.0
 */
export const layerConfig = (
  config: Config.Wrap<OracleClientConfig>
): Layer.Layer<OracleClient | SqlClient.SqlClient, SqlError.SqlError | Config.ConfigError> =>
  Client.layerFrom(OracleClient, Effect.gen(function*() {
    return yield* make(yield* Config.unwrap(config))
  })) as Layer.Layer<
    OracleClient | SqlClient.SqlClient,
    SqlError.SqlError | Config.ConfigError
  >
