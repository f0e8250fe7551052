/**
 * A database: a driver plus database-level options, validated before any network I/O. Connections are opened on it
 * with `Connection.make` / `Connection.layer` (this module does not depend on Connection, so the two do not import
 * each other).
 *
 * @since 0.1.0
 */
import { type Config, Context, Effect, Layer } from "effect"
import { type AdbcError, adbcError } from "./AdbcError.ts"
import { Driver, type DriverShape } from "./Driver.ts"
import { envName, getRaw, OptionRegistry, optionsConfig, OptionStore, ResolvedOptions } from "./Options.ts"
import { StandardOptions } from "./StandardOptions.ts"
import { TelemetryOptions } from "./Telemetry.ts"

/**
 * A configured database.
 *
 * @category models
 * @since 0.1.0
 */
export interface DatabaseShape {
  readonly driver: DriverShape
  /** Every option key known to this database: the standard ones and the driver's. */
  readonly registry: OptionRegistry
  /** The database-level options. */
  readonly options: () => ResolvedOptions
  readonly setOption: (key: string, value: string) => Effect.Effect<void, AdbcError>
  readonly getOption: (key: string) => Effect.Effect<string, AdbcError>
}

/**
 * The database in use.
 *
 * @category services
 * @since 0.1.0
 */
export class Database extends Context.Service<Database, DatabaseShape>()("effect-adbc/Database") {}

/**
 * The option registry of a driver: standard ADBC keys, telemetry keys and the driver's own.
 *
 * @category constructors
 * @since 0.1.0
 */
export const registryFor = (driver: DriverShape): OptionRegistry =>
  new OptionRegistry([...StandardOptions, ...TelemetryOptions, ...driver.options])

/**
 * Creates a database from ADBC options. Unknown keys fail NOT_IMPLEMENTED, bad values and bad combinations
 * INVALID_ARGUMENT, all before any network I/O.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = Effect.fnUntraced(function*(
  options: Readonly<Record<string, string>>
): Effect.fn.Return<DatabaseShape, AdbcError, Driver> {
  const driver = yield* Driver
  const registry = registryFor(driver)
  const store = yield* Effect.fromResult(OptionStore.make(registry, "database", options))
  const resolved = () => new ResolvedOptions([store])
  yield* driver.validate(resolved())
  const database: DatabaseShape = {
    driver,
    registry,
    options: resolved,
    setOption: (key, value) => store.set(key, value),
    getOption: (key) => getRaw(resolved(), key)
  }
  return database
})

/**
 * A layer providing a {@link Database} from ADBC options.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = (options: Readonly<Record<string, string>>): Layer.Layer<Database, AdbcError, Driver> =>
  Layer.effect(Database, make(options))

/**
 * A layer providing a {@link Database} from the environment: every option key of the driver is read from
 * `prefix` + the key in upper case with dots as underscores (`HANA_URI`, `HANA_DBA_STATEMENT_FETCH_SIZE`), checked by
 * the same Schemas as `setOption`, so a bad value fails when the configuration loads.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerConfig = (
  prefix: string
): Layer.Layer<Database, AdbcError | Config.ConfigError, Driver> =>
  Layer.effect(
    Database,
    Effect.gen(function*() {
      const driver = yield* Driver
      const options = yield* optionsConfig(registryFor(driver), { prefix })
      if (options["uri"] !== undefined) return yield* make(options)
      // The driver's "uri is required" error, told where the value was looked for.
      return yield* make(options).pipe(Effect.mapError((error) =>
        error.status === "INVALID_ARGUMENT" && error.message.startsWith("option uri is required")
          ? adbcError("INVALID_ARGUMENT", `${error.message}; the environment variable ${envName(prefix, "uri")} is not set`)
          : error
      ))
    })
  )
