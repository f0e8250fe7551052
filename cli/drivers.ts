/**
 * The drivers the command line knows, how a URI names one, and the Database layers commands run on: from options,
 * from the environment, or on a test server started for the layer's lifetime.
 */
import { Config, Effect, Layer, Schema, type Scope } from "effect"
import { type AdbcError, invalidArgument } from "../src/AdbcError.ts"
import * as Database from "../src/Database.ts"
import type { Driver } from "../src/Driver.ts"
import { loadOptionalPeers } from "./peers.ts"

/** A driver name as the command line accepts it. */
export const DriverName = Schema.Literals(["hana", "oracle"])

/** A driver name. */
export type DriverName = typeof DriverName.Type

/** What the command line needs of each driver. */
export interface DriverEntry {
  readonly layer: Layer.Layer<Driver, AdbcError>
  /** URI schemes that name this driver. */
  readonly schemes: ReadonlyArray<string>
  /** Prefix of its environment variables (`HANA_URI`, `HANA_DBA_STATEMENT_FETCH_SIZE`, …). */
  readonly envPrefix: string
  /** Starts its test server in the current scope; returns the server's URI. */
  readonly startTestServer: (port?: number) => Effect.Effect<string, AdbcError, Scope.Scope>
}

// Drivers and test servers are imported when first used, so a command loads only the client it talks to (and
// `--help` none): each pulls in its client library, the test servers an embedded DuckDB. A missing client or DuckDB
// is named with the command that installs it.
const lazyLayer = (
  peers: ReadonlyArray<string>,
  purpose: string,
  load: () => Promise<{ readonly layer: Layer.Layer<Driver> }>
): Layer.Layer<Driver, AdbcError> =>
  Layer.unwrap(Effect.map(loadOptionalPeers(peers, purpose, load), (module) => module.layer))

const portOption = (port: number | undefined) => (port === undefined ? {} : { port })

/** The test servers' peers: the embedded DuckDB (its node-api and the bindings it calls), and each one's client. */
const TESTKIT_PEERS = ["@duckdb/node-api", "@duckdb/node-bindings"] as const

/** The known drivers. */
export const drivers: Record<DriverName, DriverEntry> = {
  hana: {
    layer: lazyLayer(["hdb"], "the HANA driver", () => import("../layers/hana/index.ts")),
    schemes: ["hdb", "hana"],
    envPrefix: "HANA_",
    startTestServer: (port) =>
      loadOptionalPeers([...TESTKIT_PEERS], "the HANA test server", () => import("../testkit/hana/index.ts")).pipe(
        Effect.flatMap((testkit) => testkit.acquire(portOption(port))),
        Effect.map((server) => server.uri)
      )
  },
  oracle: {
    layer: lazyLayer(["oracledb"], "the Oracle driver", () => import("../layers/oracle/index.ts")),
    schemes: ["oracle"],
    envPrefix: "ORACLE_",
    startTestServer: (port) =>
      loadOptionalPeers([...TESTKIT_PEERS, "oracledb"], "the Oracle test server", () => import("../testkit/oracle/index.ts")).pipe(
        Effect.flatMap((testkit) => testkit.acquire(portOption(port))),
        Effect.map((server) => server.uri)
      )
  }
}

const driverNames = Object.keys(drivers).join(", ")

/** The driver a URI's scheme names (`hdb://…` → hana, `oracle://…` → oracle), if any. */
export const driverOfUri = (uri: string): DriverName | undefined => {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase()
  for (const [name, entry] of Object.entries(drivers)) {
    if (scheme !== undefined && entry.schemes.includes(scheme)) return name as DriverName
  }
  return undefined
}

/**
 * The driver to use: the one given, else the one the URI's scheme names; fails INVALID_ARGUMENT naming what is
 * accepted when neither says.
 */
export const resolveDriver = (driver: DriverName | undefined, uri: string | undefined): Effect.Effect<DriverName, AdbcError> => {
  if (driver !== undefined) return Effect.succeed(driver)
  const inferred = uri === undefined ? undefined : driverOfUri(uri)
  if (inferred !== undefined) return Effect.succeed(inferred)
  const schemes = Object.values(drivers).flatMap((d) => d.schemes.map((s) => `${s}://`)).join(", ")
  return Effect.fail(invalidArgument(
    uri === undefined
      ? `no driver given: pass --driver (${driverNames}) or a --uri starting with ${schemes}`
      : `cannot tell the driver from the URI's scheme: pass --driver (${driverNames}) or a URI starting with ${schemes}`
  ))
}

/** A Database on `driver` from ADBC options (validated before any I/O). */
export const databaseLayer = (
  driver: DriverName,
  options: Readonly<Record<string, string>>
): Layer.Layer<Database.Database, AdbcError> => Database.layer(options).pipe(Layer.provide(drivers[driver].layer))

/** A Database on `driver` from its environment variables (`HANA_URI`, …), checked by the option Schemas. */
export const databaseFromEnv = (
  driver: DriverName
): Layer.Layer<Database.Database, AdbcError | Config.ConfigError> =>
  Database.layerConfig(drivers[driver].envPrefix).pipe(Layer.provide(drivers[driver].layer))

/** A Database on `driver`'s test server, started with the layer and stopped with it. */
export const databaseOnTestServer = (
  driver: DriverName,
  options: Readonly<Record<string, string>> = {}
): Layer.Layer<Database.Database, AdbcError> =>
  Layer.unwrap(Effect.map(drivers[driver].startTestServer(), (uri) => databaseLayer(driver, { ...options, uri })))

/** Whether the environment names a real database for `driver` (`HANA_URI`, `ORACLE_URI`). */
export const hasEnvUri = (driver: DriverName): Effect.Effect<boolean> =>
  Config.option(Config.String(`${drivers[driver].envPrefix}URI`)).pipe(
    Effect.map((value) => value._tag === "Some" && value.value.length > 0),
    Effect.orElseSucceed(() => false)
  )
