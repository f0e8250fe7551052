/**
 * The HANA test server as an Effect service: `HanaTestServer.layer(options)` starts it for the layer's lifetime
 * and closes it (every session, the port, the database) when the layer's scope closes.
 */
import { Context, Effect, Layer } from "effect"
import { startHanaTestServer } from "./server.ts"
import type { HanaTestServerHandle, HanaTestServerOptions } from "./server.ts"

/** The running HANA test server (host, port, uri, user, password, tls, faults, close). */
export class HanaTestServer extends Context.Service<HanaTestServer, HanaTestServerHandle>()("effect-adbc/testkit/HanaTestServer") {
  /** Starts a server for the layer's scope. */
  static readonly layer = (options: HanaTestServerOptions = {}): Layer.Layer<HanaTestServer> =>
    Layer.effect(HanaTestServer, acquire(options))
}

/** Starts a server as a scoped resource (closed when the scope closes). */
export const acquire = (options: HanaTestServerOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startHanaTestServer(options)),
    (server) => Effect.promise(() => server.close())
  )

/** Layer constructor, same as {@link HanaTestServer.layer}. */
export const layer = HanaTestServer.layer
