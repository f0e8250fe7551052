/**
 * The Oracle test server as an Effect service: `OracleTestServer.layer(options)` starts it for the layer's
 * lifetime and closes it (every session, the port, the database) when the layer's scope closes.
 */
import { Context, Effect, Layer } from "effect"
import { startOracleTestServer } from "./server.ts"
import type { OracleTestServerHandle, OracleTestServerOptions } from "./server.ts"

/** The running Oracle test server (host, port, uri, connectString, user, password, faults, close). */
export class OracleTestServer extends Context.Service<OracleTestServer, OracleTestServerHandle>()("effect-adbc/testkit/OracleTestServer") {
  /** Starts a server for the layer's scope. */
  static readonly layer = (options: OracleTestServerOptions = {}): Layer.Layer<OracleTestServer> => Layer.effect(OracleTestServer, acquire(options))
}

/** Starts a server as a scoped resource (closed when the scope closes). */
export const acquire = (options: OracleTestServerOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startOracleTestServer(options)),
    (server) => Effect.promise(() => server.close())
  )

/** Layer constructor, same as {@link OracleTestServer.layer}. */
export const layer = OracleTestServer.layer
