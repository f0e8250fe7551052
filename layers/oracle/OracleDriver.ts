/**
 * The Oracle driver on node-oracledb in thin mode (no Oracle Client libraries): the driver port of src/Driver.ts.
 *
 * - Connect: URI or native connect string and credentials resolved and checked before any I/O (ConnectConfig.ts);
 *   the whole connect is bounded by `connectTimeout`; the `timezone` option sets the session time zone (UTC without it).
 * - Queries: results are fetched `redo.statement.fetch_array_size` rows per round trip (first execute:
 *   `redo.statement.prefetch_rows`, lowered to fit `redo.statement.prefetch_bytes`); batch mode decodes the TTC
 *   row bytes straight into Arrow builders, row mode oracledb's JS values (RowPage.ts); the core cuts batches at
 *   `redo.statement.read_batch_rows` (hard).
 * - OUT values and implicit result sets beyond the first go through port v2's `out` and `more`.
 * - Parameters: Arrow batches converted by Params.ts; DML runs through executeMany in chunks of
 *   `redo.statement.insert_batch_rows`; a query or PL/SQL block with several parameter rows runs once per row, results
 *   concatenated (a block's k-th implicit result set of each run makes its k-th result).
 * - PL/SQL: implicit result sets (DBMS_SQL.RETURN_RESULT) in batch mode only, first cursor; OUT / IN OUT binds
 *   declared by `ORACLE:parameter_type` come back as extra columns of a one-row result.
 * - This module holds the DriverShape value, VERSION, the connect-timeout default and `connect`; the connection is
 *   Connection.ts over the role modules (Execute.ts, Cursor.ts, Ingest.ts, Metadata.ts, Catalog.ts), sharing
 *   ConnectionContext.ts.
 *
 * @since 0.1.0
 */
import { Effect, Result, type Scope } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { DriverConnection, DriverShape } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { connectionAttributes, NLS_SETUP_SQL, resolveConnectConfig, timeZoneSql } from "./ConnectConfig.ts"
import { makeConnection } from "./Connection.ts"
import * as DbCalls from "./DbCalls.ts"
import { oraCode } from "./Errors.ts"
import * as Opt from "./OracleOptions.ts"
import { directionOf } from "./Params.ts"
import { DEFAULT_PORT } from "./Uri.ts"

/** The driver version. @category constants @since 0.1.0 */
export const VERSION = "0.1.0"

/**
 * Milliseconds a connect may take when the URI sets no `connectTimeout` (node-oracledb itself bounds only the TCP
 * connect, by 20 s: a server that accepts the socket and then stays silent would hold the connect forever).
 *
 * @category constants
 * @since 0.1.0
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000

/**
 * The milliseconds a connect may take: the URI's `connectTimeout` when it has one, else
 * {@link DEFAULT_CONNECT_TIMEOUT_MS}.
 *
 * @category config
 * @since 0.1.0
 */
export const connectTimeoutMs = (uriTimeoutMs: number | undefined): number => uriTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS


const connect = (options: ResolvedOptions): Effect.Effect<DriverConnection, AdbcError, Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* Effect.fromResult(resolveConnectConfig(options))
    const connection = yield* Effect.acquireRelease(
      DbCalls.connect(connectionAttributes(config), connectTimeoutMs(config.uri.connectTimeoutMs), config.lobPrefetchLength),
      DbCalls.disconnect,
      { interruptible: true }
    )
    yield* DbCalls.call(connection, () => connection.execute(NLS_SETUP_SQL, [], {}))
    const zone = timeZoneSql(config)
    yield* DbCalls.call(connection, () => connection.execute(zone, [], {}))
    return makeConnection(connection, options)
  })

/**
 * The Oracle driver.
 *
 * @category drivers
 * @since 0.1.0
 */
export const OracleDriver: DriverShape = {
  name: "oracle",
  version: VERSION,
  options: Opt.OracleOptions,
  outParameters: { direction: (field) => Result.getOrElse(directionOf(field), () => "in" as const) },
  batchCap: {
    mode: "hard",
    rows: Opt.ReadBatchRows,
    bytes: Opt.ReadBatchApproxBytes
  },
  validate: (options) => Effect.asVoid(Effect.fromResult(resolveConnectConfig(options))),
  // The conventions for Oracle Database (opentelemetry.io/docs/specs/semconv/db/oracledb): db.system.name
  // "oracle.db", db.response.status_code the ORA- number ("ORA-02813"), oracle.db.service "the service name
  // originally provided at connection establishment" when the current one needs a query (registry/attributes/
  // oracledb), and db.namespace "the unique identifier of the database" (ORCL1) "if available without an additional
  // network call": before logon that is the URI's instance name, if it names one; after logon the instance name the
  // server sent in its logon reply (the connection's `namespace`).
  telemetry: {
    systemName: "oracle.db",
    endpoint: (options) => {
      const uri = Result.getOrUndefined(resolveConnectConfig(options))?.uri
      const port = uri?.host === undefined ? undefined : uri.port ?? DEFAULT_PORT
      return {
        address: uri?.host,
        port,
        namespace: uri?.instanceName,
        attributes: uri?.serviceName === undefined ? {} : { "oracle.db.service": uri.serviceName }
      }
    },
    statusCode: oraCode
  },
  connect
}


