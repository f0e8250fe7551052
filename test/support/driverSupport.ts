/**
 * What each driver's integration tests need, made once for both: a test server over real sockets for the current
 * file (or the real database named by an environment variable), connection layers on its URI, and unique names.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import type * as Database from "../../src/Database.ts"

/** How a driver's suite reaches its database. */
export interface DriverSupportConfig<Options, Handle extends TestServer> {
  /** The environment variable naming a real database (for example `HANA_URI`); unset or empty: the test server. */
  readonly realUriVariable: string
  readonly startServer: (options: Options) => Promise<Handle>
  readonly layerDatabase: (options: Record<string, string>) => Layer.Layer<Database.Database, AdbcError>
}

/** What a test server handle must offer. */
export interface TestServer {
  readonly uri: string
  readonly close: () => Promise<void>
}

/** A driver's test support, made by {@link makeDriverSupport}. */
export interface DriverSupport<Options, Handle extends TestServer> {
  /** True when the suite runs against a real database. */
  readonly real: boolean
  /** A server for the current test file: started before its tests, closed after. */
  readonly useServer: (options?: Options) => { server: Handle | undefined; uri: string }
  /** Connection + Database layers on `uri` with extra database and connection options. */
  readonly connectionLayer: (
    uri: string,
    databaseOptions?: Record<string, string>,
    connectionOptions?: Record<string, string>
  ) => Layer.Layer<Connection.Connection | Database.Database, AdbcError>
  /** Runs `program` with a fresh connection. */
  readonly withConnection: <A, E>(
    uri: string,
    program: Effect.Effect<A, E, Connection.Connection | Database.Database>,
    databaseOptions?: Record<string, string>,
    connectionOptions?: Record<string, string>
  ) => Effect.Effect<A, E | AdbcError>
}

/** Builds the test support of one driver. */
export const makeDriverSupport = <Options, Handle extends TestServer>(
  config: DriverSupportConfig<Options, Handle>
): DriverSupport<Options, Handle> => {
  const realUri = process.env[config.realUriVariable]
  const real = realUri !== undefined && realUri !== ""
  const connectionLayer: DriverSupport<Options, Handle>["connectionLayer"] = (
    uri,
    databaseOptions = {},
    connectionOptions = {}
  ) => Connection.layer(connectionOptions).pipe(Layer.provideMerge(config.layerDatabase({ uri, ...databaseOptions })))
  return {
    real,
    useServer: (options = {} as Options) => {
      const state: { server: Handle | undefined; uri: string } = { server: undefined, uri: "" }
      beforeAll(async () => {
        if (real) {
          state.uri = realUri!
          return
        }
        state.server = await config.startServer(options)
        state.uri = state.server.uri
      })
      afterAll(async () => {
        await state.server?.close()
      })
      return state
    },
    connectionLayer,
    withConnection: (uri, program, databaseOptions = {}, connectionOptions = {}) =>
      program.pipe(Effect.provide(connectionLayer(uri, databaseOptions, connectionOptions)))
  }
}

let counter = 0
/** A table name unique to this run (real databases are shared). */
export const uniqueName = (prefix: string): string =>
  `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.toUpperCase()
