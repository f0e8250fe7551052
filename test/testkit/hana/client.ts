/**
 * Promise wrappers over the raw, unmodified `hdb` client for the HANA test-server tests (hdb ships no types).
 */
import { createRequire } from "node:module"

/** The parts of an hdb Client the tests use. */
export interface HdbClient {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  exec(sql: string, options: Record<string, unknown>, cb: (err: Error | null, result?: unknown) => void): void
  execute(sql: string, cb: (err: Error | null, rs?: HdbResultSet) => void): void
  prepare(sql: string, cb: (err: Error | null, st?: HdbStatement) => void): void
  setAutoCommit(on: boolean): void
  commit(cb: (err: Error | null) => void): void
  rollback(cb: (err: Error | null) => void): void
  disconnect(cb: (err: Error | null) => void): void
  isValid(options: Record<string, unknown>, cb: (valid: boolean) => void): void
  close(): void
  /** Closes the socket at once, even while a request is pending (close() waits for it). */
  destroy(err?: Error): void
  on(event: string, listener: (...args: unknown[]) => void): void
  readonly connectOptions: { readonly connectionId?: number; readonly dataFormatVersion2?: number; readonly fullVersionString?: string }
  readonly readyState: string
}

/** A prepared hdb statement. */
export interface HdbStatement {
  readonly parameterMetadata: ReadonlyArray<{ dataType: number; length: number; fraction: number; mode: number }>
  readonly resultSetMetadata?: ReadonlyArray<{ dataType: number; length: number; fraction: number; columnDisplayName: string }>
  exec(values: unknown[] | Record<string, unknown>, cb: (err: Error | null, result?: unknown) => void): void
  execute(values: unknown[], cb: (err: Error | null, rs?: HdbResultSet) => void): void
  drop(cb: (err: Error | null) => void): void
}

/** An hdb result set (execute / streaming API). */
export interface HdbResultSet {
  readonly id: Buffer
  readonly metadata: ReadonlyArray<{ dataType: number; length: number; fraction: number; columnDisplayName: string; tableName?: string; schemaName?: string }>
  setFetchSize(n: number): void
  fetch(cb: (err: Error | null, rows?: unknown[]) => void): void
  close(cb?: (err: Error | null) => void): void
  createArrayStream(options?: Record<string, unknown>): NodeJS.ReadableStream
  createBinaryStream(options?: Record<string, unknown>): NodeJS.ReadableStream
  readonly closed: boolean
}

/** hdb's SqlError shape. */
export interface HdbSqlError extends Error {
  readonly code: number | string
  readonly sqlState?: string
  readonly level?: number
}

const require = createRequire(import.meta.url)
const hdb = require("hdb") as { createClient(options: Record<string, unknown>): HdbClient }

/** Creates an unconnected hdb client. */
export const createClient = (options: Record<string, unknown>): HdbClient => hdb.createClient(options)

/** Calls a node-style function and resolves its result. */
export const call = <A = unknown>(f: (cb: (err: Error | null, result?: unknown) => void) => void): Promise<A> =>
  new Promise((resolve, reject) => f((err: Error | null, result?: unknown) => (err ? reject(err) : resolve(result as A))))

/** Connects an hdb client with the given options. */
export const connect = async (options: Record<string, unknown>): Promise<HdbClient> => {
  const client = createClient(options)
  await call((cb) => client.connect(cb))
  return client
}

/** Runs `exec` and resolves its result. */
export const exec = <A = unknown>(client: HdbClient, sql: string): Promise<A> => call<A>((cb) => client.exec(sql, cb))

/** Resolves the error `p` fails with (fails the test if it succeeds). */
export const failure = async (p: Promise<unknown>): Promise<HdbSqlError> => {
  try {
    await p
  } catch (e) {
    return e as HdbSqlError
  }
  throw new Error("expected a failure")
}

/** Closes a client, ignoring errors. */
export const closeQuietly = (client: HdbClient | undefined): void => {
  try {
    client?.close()
  } catch {
    // already closed
  }
}

/**
 * The test-only BIT / JSON value `bytes` as the test server sends it (REAL_VECTOR 96: [i32 n][n f32 of its bytes]) and
 * hdb returns it.
 */
export const asRealVector = (bytes: Buffer): Buffer => {
  const out = Buffer.alloc(4 + 4 * bytes.length)
  out.writeInt32LE(bytes.length, 0)
  bytes.forEach((b, i) => out.writeFloatLE(b, 4 + 4 * i))
  return out
}
