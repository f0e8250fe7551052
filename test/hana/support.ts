/**
 * Integration test support: the HANA test server over real sockets, or a real HANA when HANA_URI is set
 * (`HANA_URI=hdb://USER:PASSWORD@host:port npx vitest run test/hana`).
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import * as Hana from "../../layers/hana/index.ts"
import { type HanaTestServerHandle, type HanaTestServerOptions, startHanaTestServer } from "../../testkit/hana/index.ts"

/** True when the suite runs against a real HANA. */
export const realHana = process.env["HANA_URI"] !== undefined && process.env["HANA_URI"] !== ""

/** A server for the current test file: started before its tests, closed after. */
export const useServer = (options: HanaTestServerOptions = {}) => {
  const state: { server: HanaTestServerHandle | undefined; uri: string } = { server: undefined, uri: "" }
  beforeAll(async () => {
    if (realHana) {
      state.uri = process.env["HANA_URI"]!
      return
    }
    state.server = await startHanaTestServer(options)
    state.uri = state.server.uri
  })
  afterAll(async () => {
    await state.server?.close()
  })
  return state
}

/** Connection + Database layers on `uri` with extra database options. */
export const connectionLayer = (
  uri: string,
  databaseOptions: Record<string, string> = {},
  connectionOptions: Record<string, string> = {}
): Layer.Layer<Connection.Connection | Database.Database, AdbcError> =>
  Connection.layer(connectionOptions).pipe(Layer.provideMerge(Hana.layerDatabase({ uri, ...databaseOptions })))

/** Runs `program` with a fresh connection. */
export const withConnection = <A, E>(
  uri: string,
  program: Effect.Effect<A, E, Connection.Connection | Database.Database>,
  databaseOptions: Record<string, string> = {},
  connectionOptions: Record<string, string> = {}
): Effect.Effect<A, E | AdbcError> =>
  program.pipe(Effect.provide(connectionLayer(uri, databaseOptions, connectionOptions)))

let counter = 0
/** A table name unique to this run (real HANA databases are shared). */
export const uniqueName = (prefix: string): string =>
  `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.toUpperCase()
