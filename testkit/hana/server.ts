/**
 * The HANA test server: a loopback TCP (or TLS-from-byte-0) listener speaking enough of the SAP HANA SQL Command
 * Network Protocol for the unmodified `hdb` client, backed by one in-memory DuckDB engine.
 */
import { nowTicks } from "./longdate.ts"
import * as net from "node:net"
import * as tls from "node:tls"
import { Engine } from "../engine/index.ts"
import type { JwtOptions, ScramMethod, X509Options } from "./auth.ts"
import { catalogSql } from "./catalog.ts"
import { registerDatetimeFunctions } from "./datetime-functions.ts"
import { registerCheckTextFunction } from "./check-text.ts"
import { literalWriteFunctions } from "./literal-writes.ts"
import { connectionsFunction } from "./monitoring-views.ts"
import { registerSpatialFunctions } from "./spatial.ts"
import { registerIdentityFunctions } from "./identity-values.ts"
import { registerTextSearchFunctions } from "./text-search.ts"
import { registerRegexprFunctions } from "./regexpr-functions.ts"
import { registerMiscFunctions } from "./misc-functions.ts"
import { registerStringFunctions } from "./string-functions.ts"
import { registerReferenceFunctions } from "./reference-functions.ts"
import { registerJsonFunctions } from "./json-functions.ts"
import { ProtocolSession } from "./session.ts"
import { quoteName, quoteString } from "./names.ts"
import { faultState } from "./faults.ts"
import type { HanaFaults } from "./faults.ts"
import type { HanaUser, ResolvedOptions, ServerContext } from "./server-context.ts"
import { generateTestCertificates } from "./tls.ts"
import { identityCatalogSql, syncIdentityCatalog } from "./identity/catalog.ts"
import { IdentityStore } from "./identity/store.ts"
import { emptyStats } from "../common/stats.ts"
import { RowLockTable } from "./row-locks.ts"
import type { ServerStats } from "../common/stats.ts"
import type { TestCertificates } from "./tls.ts"

export type { HanaFaults, HeldReplies } from "./faults.ts"
export type { HanaUser } from "./server-context.ts"

/** Options of {@link startHanaTestServer}. */
export interface HanaTestServerOptions {
  /** Listen address (default `127.0.0.1`). */
  readonly host?: string
  /** Port; 0 (default) picks a free one. */
  readonly port?: number
  /** Users (default: one user `SYSTEM` with password `Manager1`). The first one appears in `uri`. */
  readonly users?: readonly HanaUser[]
  /** SCRAM methods the server accepts, in order of preference (default both, PBKDF2 first). */
  readonly scramMethods?: readonly ScramMethod[]
  /** PBKDF2 iterations of SCRAMPBKDF2SHA256 (default 15000). */
  readonly pbkdf2Iterations?: number
  /** Accept JWT logins signed by this key. */
  readonly jwt?: JwtOptions
  /** Accept X.509 logins by certificates this CA issued. */
  readonly x509?: X509Options
  /** TLS from byte 0: true generates a test CA and a certificate for localhost/127.0.0.1; or give your own PEMs. */
  readonly tls?: boolean | { readonly key: string; readonly cert: string; readonly ca?: string }
  /** Tenant database name checked by the DB_CONNECT_INFO step (hdb option `databaseName`; default `HXE`). */
  readonly databaseName?: string
  /** System id (default `HXE`). */
  readonly systemId?: string
  /** Version string reported by CONNECT and SYS.M_DATABASE (default a HANA 2.0 SPS 07 revision). */
  readonly version?: string
  /** Rows sent with the first result-set reply before the client fetches (default 32, like HANA). */
  readonly firstFetchSize?: number
  /** Maximum concurrent sessions (default 256). */
  readonly maxSessions?: number
  /**
   * LZ4 packet compression for clients that offer it without forcing it (HANA's `indexserver.ini [session]
   * compression`: false by default, as on HANA on premise; true as on HANA Cloud). A client that forces it (hdb
   * `compress: true`) gets it either way; see compression.ts.
   */
  readonly compression?: boolean
  /**
   * How long a statement waits for a row lock another transaction holds before it fails with 131 "transaction
   * rolled back by lock wait timeout", in milliseconds, until a session sets its own with `SET TRANSACTION LOCK WAIT
   * TIMEOUT` (default 30000; HANA's own default, indexserver.ini [transaction] lock_wait_timeout, is 1800000).
   */
  readonly lockWaitMs?: number
  /** Fault injection (also changeable later through {@link HanaTestServerHandle.faults}). */
  readonly faults?: HanaFaults
}

/** A running HANA test server. */
export interface HanaTestServerHandle {
  readonly host: string
  readonly port: number
  /** `hdb://USER:PASSWORD@HOST:PORT` for the first user, user and password percent-encoded. */
  readonly uri: string
  /** First user's name and password. */
  readonly user: string
  readonly password: string
  /** Generated (or given) TLS material when TLS is on: pass `ca` to hdb as `ca`. */
  readonly tls: TestCertificates | { readonly key: string; readonly cert: string; readonly ca?: string } | undefined
  /** Fault injection switches, read on every request. */
  readonly faults: HanaFaults
  /** Server-side work counters (rows and milliseconds of batch inserts and result encoding), for benchmarks. */
  readonly stats: ServerStats
  /** Number of logged-in sessions. */
  readonly sessionCount: () => number
  /**
   * Result sets (server cursors) open right now across all sessions: opened by a query whose rows did not all fit
   * in the first reply, and not yet fetched to the end, closed by the client, or ended with their session.
   */
  readonly openResultSets: () => number
  /** Adds a user (and its schema). */
  readonly addUser: (user: HanaUser) => Promise<void>
  /** Closes every session, the listener and the database; frees the port. */
  readonly close: () => Promise<void>
}

const DEFAULT_USERS: readonly HanaUser[] = [{ name: "SYSTEM", password: "Manager1" }]

/** Starts a HANA test server. */
export const startHanaTestServer = async (options: HanaTestServerOptions = {}): Promise<HanaTestServerHandle> => {
  const host = options.host ?? "127.0.0.1"
  const resolved: ResolvedOptions = {
    databaseName: options.databaseName ?? "HXE",
    systemId: options.systemId ?? "HXE",
    version: options.version ?? "2.00.070.00.1686119400",
    scramMethods: options.scramMethods ?? ["SCRAMPBKDF2SHA256", "SCRAMSHA256"],
    pbkdf2Iterations: options.pbkdf2Iterations ?? 15000,
    jwt: options.jwt,
    x509: options.x509,
    firstFetchSize: options.firstFetchSize ?? 32,
    maxSessions: options.maxSessions ?? 256,
    compression: options.compression ?? false,
    lockWaitMs: options.lockWaitMs ?? 30_000
  }
  const faults: HanaFaults = { ...options.faults }
  const engine = await Engine.open()
  await engine.registerFunctions(registerDatetimeFunctions)
  await engine.registerFunctions((connection) => {
    for (const f of literalWriteFunctions()) connection.registerScalarFunction(f)
  })
  await engine.registerFunctions(registerSpatialFunctions)
  await engine.registerFunctions(registerTextSearchFunctions)
  await engine.registerFunctions(registerRegexprFunctions)
  await engine.registerFunctions(registerMiscFunctions)
  await engine.registerFunctions(registerStringFunctions)
  await engine.registerFunctions(registerReferenceFunctions)
  await engine.registerFunctions(registerJsonFunctions)
  await engine.registerFunctions(registerIdentityFunctions)
  await engine.registerFunctions((connection) =>
    connection.registerScalarFunction(connectionsFunction(() => [...ctx.connections.values()].map((c) => c.monitoring())))
  )
  await engine.registerFunctions(registerCheckTextFunction)
  const admin = await engine.session()
  const users = new Map<string, { password: string; defaultSchema: string }>()
  let userIds = 150000
  const addUser = async (user: HanaUser): Promise<void> => {
    const schema = user.defaultSchema ?? user.name
    await admin.execute(
      `CREATE SCHEMA IF NOT EXISTS ${quoteName(schema)}; INSERT INTO "SYS"."_USERS" VALUES (?, ?, 'SYSTEM', ${nowTicks("CAST(now() AS TIMESTAMP)")}, ?)`,
      [user.name, userIds++, schema]
    )
    users.set(user.name, { password: user.password, defaultSchema: schema })
  }
  const identity = new IdentityStore({ has: (name) => users.has(name), add: (name, password) => addUser({ name, password }) })
  const dropUser = async (name: string): Promise<void> => {
    if (!users.has(name)) return
    users.delete(name)
    identity.forgetUser(name)
    await syncIdentityCatalog(admin, identity)
    await admin.execute(`DELETE FROM "SYS"."_USERS" WHERE USER_NAME = ${quoteString(name)}; DROP SCHEMA IF EXISTS ${quoteName(name)} CASCADE`)
  }
  let nextConnection = 200000
  const stats = emptyStats()
  const ctx: ServerContext = {
    engine,
    options: resolved,
    users,
    connections: new Map(),
    sessionCookies: new Map(),
    faults: faultState(faults),
    maxPacketBytes: 1 << 28,
    stats,
    rowLocks: new RowLockTable(),
    nextConnectionId: () => nextConnection++,
    addUser,
    dropUser,
    identity,
    administer: async (command) => {
      try {
        await identity.execute(command)
      } finally {
        await syncIdentityCatalog(admin, identity)
      }
    }
  }
  try {
    await admin.execute(catalogSql({ systemId: resolved.systemId, databaseName: resolved.databaseName, version: resolved.version }))
    await admin.execute(identityCatalogSql())
    for (const u of options.users ?? DEFAULT_USERS) await addUser(u)
  } catch (e) {
    engine.close()
    throw e
  }

  const tlsMaterial =
    options.tls === true ? generateTestCertificates([host === "127.0.0.1" ? "localhost" : host, "127.0.0.1"]) : options.tls === false ? undefined : options.tls
  const sockets = new Set<net.Socket>()
  const allConnections = new Set<ProtocolSession>()
  const onSocket = (socket: net.Socket): void => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    const connection = new ProtocolSession(socket, ctx)
    allConnections.add(connection)
    socket.on("close", () => allConnections.delete(connection))
  }
  const server: net.Server =
    tlsMaterial === undefined
      ? net.createServer(onSocket)
      : tls.createServer({ key: tlsMaterial.key, cert: tlsMaterial.cert }, onSocket)
  if (tlsMaterial !== undefined) server.on("tlsClientError", () => undefined)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  // Accept errors after start-up (e.g. too many open files) must not crash the process.
  server.on("error", () => undefined)
  const port = (server.address() as net.AddressInfo).port
  const first = (options.users ?? DEFAULT_USERS)[0]!
  let closed: Promise<void> | undefined
  return {
    host,
    port,
    uri: `hdb://${encodeURIComponent(first.name)}:${encodeURIComponent(first.password)}@${host}:${port}`,
    user: first.name,
    password: first.password,
    tls: tlsMaterial,
    faults,
    stats,
    sessionCount: () => ctx.connections.size,
    openResultSets: () => {
      let open = 0
      for (const connection of allConnections) open += connection.openResultSets()
      return open
    },
    addUser,
    close: () => {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
        const sessionsClosed = Promise.all([...allConnections].map((c) => c.close()))
        for (const s of sockets) s.destroy()
        await stopped
        // Each connection interrupts its running statement and closes its DuckDB session when the statement ends.
        let timer: ReturnType<typeof setTimeout> | undefined
        await Promise.race([sessionsClosed, new Promise((r) => (timer = setTimeout(r, 5000)))])
        clearTimeout(timer) // a pending timer would keep the process alive for 5 s after close
        admin.close()
        engine.close()
      })()
      return closed
    }
  }
}

