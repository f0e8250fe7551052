/**
 * Integration test support: the Oracle test server over real sockets, or a real Oracle Database when ORACLE_URI is
 * set (`ORACLE_URI=oracle://USER:PASSWORD@localhost:1521/FREEPDB1 npx vitest run test/oracle`).
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import * as Oracle from "../../layers/oracle/index.ts"
import {
  type OracleTestServerHandle,
  type OracleTestServerOptions,
  startOracleTestServer
} from "../../testkit/oracle/index.ts"

/** True when the suite runs against a real Oracle Database. */
export const realOracle = process.env["ORACLE_URI"] !== undefined && process.env["ORACLE_URI"] !== ""

/** A server for the current test file: started before its tests, closed after. */
export const useServer = (options: OracleTestServerOptions = {}) => {
  const state: { server: OracleTestServerHandle | undefined; uri: string } = { server: undefined, uri: "" }
  beforeAll(async () => {
    if (realOracle) {
      state.uri = process.env["ORACLE_URI"]!
      return
    }
    state.server = await startOracleTestServer(options)
    state.uri = state.server.uri
  })
  afterAll(async () => {
    await state.server?.close()
  })
  return state
}

/** Connection + Database layers on `uri` with extra database and connection options. */
export const connectionLayer = (
  uri: string,
  databaseOptions: Record<string, string> = {},
  connectionOptions: Record<string, string> = {}
): Layer.Layer<Connection.Connection | Database.Database, AdbcError> =>
  Connection.layer(connectionOptions).pipe(Layer.provideMerge(Oracle.layerDatabase({ uri, ...databaseOptions })))

/** Runs `program` with a fresh connection. */
export const withConnection = <A, E>(
  uri: string,
  program: Effect.Effect<A, E, Connection.Connection | Database.Database>,
  databaseOptions: Record<string, string> = {},
  connectionOptions: Record<string, string> = {}
): Effect.Effect<A, E | AdbcError> =>
  program.pipe(Effect.provide(connectionLayer(uri, databaseOptions, connectionOptions)))

let counter = 0
/** A table name unique to this run (real databases are shared). */
export const uniqueName = (prefix: string): string =>
  `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.toUpperCase()
