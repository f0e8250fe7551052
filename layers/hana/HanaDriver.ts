/**
 * The SAP HANA driver on the pure-JavaScript `hdb` client: the driver port of src/Driver.ts. This module holds the
 * DriverShape value and `connect`: URI, basic / X.509 / JWT authentication and TLS resolved and checked before any
 * I/O (ConnectConfig.ts), the URI `timeout` bounding the whole connect, `pingInterval` pinging an idle session,
 * `defaultSchema` applied with SET SCHEMA; the open client is handed to Connection.ts. The folder's README lists
 * the other modules by role.
 *
 * @since 0.1.0
 */
import { Duration, Effect, Result, Schedule, type Scope } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { DriverConnection, DriverShape } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { hdbClientOptions, resolveConnectConfig } from "./ConnectConfig.ts"
import { makeConnection } from "./Connection.ts"
import * as Hdb from "./DbCalls.ts"
import * as Ddl from "./Ddl.ts"
import { HanaOptions, ReadBatchRows } from "./HanaOptions.ts"

/** Seconds a connect may take when the URI sets no `timeout`. @category constants @since 0.1.0 */
export const DEFAULT_CONNECT_TIMEOUT_S = 30

/**
 * The milliseconds a connect may take: the URI's `timeout` (seconds) when it has one, else
 * {@link DEFAULT_CONNECT_TIMEOUT_S}; undefined (no limit) for `timeout=0`.
 *
 * @category config
 * @since 0.2.0
 */
export const connectTimeoutMs = (uriTimeoutSeconds: number | undefined): number | undefined => {
  const seconds = uriTimeoutSeconds ?? DEFAULT_CONNECT_TIMEOUT_S
  return seconds > 0 ? seconds * 1000 : undefined
}

/** The driver version. @category constants @since 0.1.0 */
export const VERSION = "0.1.0"

const connect = (options: ResolvedOptions): Effect.Effect<DriverConnection, AdbcError, Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* Effect.fromResult(resolveConnectConfig(options))
    const hdbOptions = yield* hdbClientOptions(config)
    const bounded = Hdb.connect({ ...hdbOptions }, connectTimeoutMs(config.uri.timeoutSeconds))
    const client = yield* Effect.acquireRelease(bounded, Hdb.disconnect, { interruptible: true })
    const ping = config.uri.pingIntervalSeconds
    if (ping !== undefined && ping > 0) {
      // Background keep-alive for the connection's lifetime (URI parameter pingInterval).
      yield* Effect.forkScoped(
        Effect.repeat(Hdb.pingIfIdle(client), Schedule.spaced(Duration.seconds(ping)))
      )
    }
    if (config.uri.defaultSchema !== undefined && config.uri.defaultSchema !== "") {
      yield* Hdb.executeDirect(client, `SET SCHEMA ${Ddl.quoteIdentifier(config.uri.defaultSchema)}`)
    }
    return makeConnection(client, hdbOptions)
  })

/**
 * The HANA driver.
 *
 * @category drivers
 * @since 0.1.0
 */
export const HanaDriver: DriverShape = {
  name: "hana",
  version: VERSION,
  options: HanaOptions,
  batchCap: { mode: "best-effort", rows: ReadBatchRows },
  validate: (options) => Effect.asVoid(Effect.fromResult(resolveConnectConfig(options))),
  // "sap.hana" is the conventions' db.system.name for SAP HANA (registry/attributes/db, db.system.name values); the
  // tenant database the URI names is the namespace.
  telemetry: {
    systemName: "sap.hana",
    endpoint: (options) => {
      const uri = Result.getOrUndefined(resolveConnectConfig(options))?.uri
      return { address: uri?.host, port: uri?.port, namespace: uri?.databaseName }
    }
  },
  connect
}
