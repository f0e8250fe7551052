/**
 * The flags every database command takes (`--driver`, `--uri`, repeated `--option key=value`), also read from the
 * environment through Effect Config (`ADBC_DRIVER`, `ADBC_URI`), and the Connection they open. Without a URI, the
 * driver's own environment variables are read (`HANA_URI`, `ORACLE_URI`, `HANA_DBA_…`), validated by the same option
 * Schemas as `--option`.
 */
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { Flag } from "effect/cli"
import { AdbcError } from "../src/AdbcError.ts"
import * as Connection from "../src/Connection.ts"
import * as Database from "../src/Database.ts"
import { Driver } from "../src/Driver.ts"
import { optionsConfig } from "../src/Options.ts"
import { databaseLayer, DriverName, drivers, resolveDriver } from "./drivers.ts"
import { envConfig, envName } from "./flags.ts"

const driverNames = Object.keys(drivers).join("|")


/** `--driver` (or `--PREFIXdriver`), also read from `ADBC_DRIVER` (`ADBC_FROM_DRIVER`, …). */
export const driverFlag = (prefix = "") =>
  Flag.Literals(`${prefix}driver`, DriverName.literals).pipe(
    Flag.withFallbackConfig(envConfig(envName(`${prefix}driver`), DriverName)),
    Flag.optional,
    Flag.withDescription(`${driverNames}; inferred from the URI scheme when absent (env ${envName(`${prefix}driver`)})`)
  )

/** `--uri`, also read from `ADBC_URI`; a Redacted value, never printed. */
export const uriFlag = (prefix = "") =>
  Flag.Redacted(`${prefix}uri`).pipe(
    Flag.withFallbackConfig(Config.Redacted(envName(`${prefix}uri`))),
    Flag.optional,
    Flag.withDescription(
      `connection URI (hdb://user:password@host:port, oracle://user:password@host:port/service); never printed. Default: env ${envName(`${prefix}uri`)}, else the driver's HANA_URI / ORACLE_URI`
    )
  )

/** Repeated `--option key=value`. */
export const optionFlag = (prefix = "") =>
  Flag.KeyValuePair(`${prefix}option`).pipe(
    Flag.withDefault({}),
    Flag.withDescription("an ADBC option key=value (repeatable), e.g. dba.statement.fetch_size=50000")
  )

/** `--driver`, `--uri` and `--option`. */
export const connectionFlags = () => ({ driver: driverFlag(), uri: uriFlag(), option: optionFlag() })

/** The parsed connection flags. */
export interface ConnectionArgs {
  readonly driver: Option.Option<DriverName>
  readonly uri: Option.Option<Redacted.Redacted<string>>
  readonly option: Readonly<Record<string, string>>
}

/**
 * The Database the flags describe: options are checked by the driver's option Schemas before any network I/O, so a
 * bad `--option` fails INVALID_ARGUMENT naming the key and what it accepts.
 */
export const databaseOf = (args: ConnectionArgs): Layer.Layer<Database.Database, AdbcError | Config.ConfigError> =>
  Layer.unwrap(Effect.gen(function*() {
    const uri = Option.map(args.uri, Redacted.value)
    const driver = yield* resolveDriver(Option.getOrUndefined(args.driver), Option.getOrUndefined(uri))
    if (Option.isSome(uri)) return databaseLayer(driver, { ...args.option, uri: uri.value })
    // No URI: the driver's own environment (HANA_URI, ORACLE_URI, …), then the flags' options on top.
    const entry = drivers[driver]
    const driverShape = yield* Effect.provide(Effect.map(Driver, (d) => d), entry.layer)
    const fromEnv = yield* optionsConfig(Database.registryFor(driverShape), { prefix: entry.envPrefix })
    if (fromEnv["uri"] === undefined && args.option["uri"] === undefined) {
      return yield* new AdbcError({
        status: "INVALID_ARGUMENT",
        message: `no URI: pass --uri, or set ADBC_URI or ${entry.envPrefix}URI (try \`adbc testkit ${driver}\` for a test server)`
      })
    }
    return databaseLayer(driver, { ...fromEnv, ...args.option })
  }))


/** A Connection on the Database the flags describe. */
export const connectionOf = (
  args: ConnectionArgs,
  options: Readonly<Record<string, string>> = {}
): Layer.Layer<Connection.Connection, AdbcError | Config.ConfigError> =>
  Connection.layer(options).pipe(Layer.provide(databaseOf(args)))

