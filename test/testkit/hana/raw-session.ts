import { afterAll, beforeAll } from "@effect/vitest"
import { startHanaTestServer } from "../../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../../testkit/hana/index.ts"
import { closeQuietly, connect, exec } from "./client.ts"
import type { HdbClient } from "./client.ts"

/** A HANA test server and one raw hdb client connected to it. */
export interface RawHanaSession {
  readonly server: HanaTestServerHandle
  readonly client: HdbClient
}

/** How `useRawHanaSession` connects its client and prepares the server. */
export interface RawHanaSessionOptions {
  /** hdb connect options beside host, port, user and password (e.g. `dataFormatSupport`). */
  readonly client?: Record<string, unknown>
  /** Statements the client runs, in order, once connected. */
  readonly setup?: ReadonlyArray<string>
}

/**
 * The test server and raw hdb client of a describe block: started and connected (then `setup` run) before its tests,
 * closed after them. `opened` receives them, for the block's own variables.
 */
export const useRawHanaSession = (options: RawHanaSessionOptions, opened: (session: RawHanaSession) => void): void => {
  let session: RawHanaSession | undefined
  beforeAll(async () => {
    const server = await startHanaTestServer()
    const client = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, ...options.client })
    session = { server, client }
    opened(session)
    for (const sql of options.setup ?? []) await exec(client, sql)
  })
  afterAll(async () => {
    closeQuietly(session?.client)
    await session?.server.close()
  })
}
