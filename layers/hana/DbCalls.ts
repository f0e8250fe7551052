/**
 * A thin Effect wrapper over the `hdb` client (2.30.1): connect, execute, prepare, fetch raw result pages, read
 * LOBs, transactions (what reaches into hdb's internals beyond such calls is in DbPatches.ts, the client's shapes in
 * DbTypes.ts). Result pages are taken as raw bytes (`FETCH_NEXT` replies' RESULT_SET part) so the driver can
 * decode them straight into Arrow builders; this uses hdb's internal `Connection.fetchNext` / `closeResultSet` /
 * `readLob` (lib/protocol/Connection.js), the same calls its own ResultSet makes.
 *
 * hdb facts relied on: at most one request in flight per client (the core serialises
 * requests per connection), and parameter batches above 32,767 rows in one EXECUTE crash the process, so callers
 * split batches ({@link MAX_BATCH_ROWS}).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { failedBatchRowsOf, hdb, installPatches, sendEncodedExecute } from "./DbPatches.ts"
import type {
  FetchReply,
  HdbClient,
  HdbResultColumn,
  HdbResultSet,
  HdbStatement,
  LobCell,
  RawPage
} from "./DbTypes.ts"
import { fromHdbError } from "./Errors.ts"

/** Most rows sent in one EXECUTE: hdb throws an uncaught RangeError above 32,767. @category constants @since 0.1.0 */
export const MAX_BATCH_ROWS = 32_000

/**
 * What running a statement produced.
 *
 * @category models
 * @since 0.1.0
 */
export type ExecuteOutcome =
  | {
    readonly _tag: "Rows"
    readonly id: Buffer
    readonly metadata: ReadonlyArray<HdbResultColumn>
    readonly first: RawPage | undefined
  }
  | { readonly _tag: "Count"; readonly rowsAffected: number }

const isResultSet = (u: unknown): u is HdbResultSet =>
  typeof u === "object" && u !== null && "metadata" in u && "id" in u && Buffer.isBuffer((u as HdbResultSet).id)

const countOf = (value: unknown): number => {
  if (typeof value === "number") return value < 0 ? (value === -2 ? 1 : 0) : value
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + countOf(v), 0)
  return -1
}

const outcomeOf = (results: ReadonlyArray<unknown>): ExecuteOutcome => {
  const rs = results.find(isResultSet)
  if (rs !== undefined) return { _tag: "Rows", id: rs.id, metadata: rs.metadata, first: rs._data }
  return { _tag: "Count", rowsAffected: results.length === 0 || results[0] === undefined ? -1 : countOf(results[0]) }
}

/** Wraps one hdb callback call; synchronous throws become failures. */
const call = <A>(
  run: (resume: (err: unknown, value?: A) => void) => void
): Effect.Effect<A, AdbcError> =>
  Effect.callback<A, AdbcError>((resume) => {
    try {
      run((err, value) => resume(err ? Effect.fail(fromHdbError(err)) : Effect.succeed(value as A)))
    } catch (e) {
      resume(Effect.fail(fromHdbError(e)))
    }
  })

/**
 * Opens a client. Interruptible: an interrupted connect (a timeout) closes the half-open socket.
 *
 * @category operations
 * @since 0.1.0
 */
export const connect = (
  options: Record<string, unknown>,
  timeoutMs?: number | undefined
): Effect.Effect<HdbClient, AdbcError> =>
  Effect.callback<HdbClient, AdbcError>((resume) => {
    const client = hdb.createClient(options)
    // Without a listener an 'error' event (socket reset) would be thrown by EventEmitter.
    client.on("error", () => {})
    let settled = false
    const close = () => {
      try {
        client.close()
      } catch {
        // not open
      }
    }
    // The timer runs here, not as an Effect timeout, so it also works where the caller is uninterruptible.
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      if (settled) return
      settled = true
      close()
      resume(Effect.fail(adbcError("TIMEOUT", `connecting timed out after ${timeoutMs / 1000} s`)))
    }, timeoutMs)
    try {
      client.connect((err) => {
        if (settled) return
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        if (!err) installPatches(client)
        resume(err ? Effect.fail(fromHdbError(err)) : Effect.succeed(client))
      })
    } catch (e) {
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      resume(Effect.fail(fromHdbError(e)))
    }
    return Effect.sync(() => {
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      close()
    })
  })

/**
 * How long a cancel, a cursor close or a DISCONNECT may wait for the server before the socket is given up: the
 * connection is then broken (closed), so an interrupted fiber or a closing scope returns within about a second even
 * when the server stopped answering.
 *
 * @category constants
 * @since 0.1.0
 */
export const ANSWER_BUDGET_MS = 800

/** Closes the socket at once; requests in flight fail EHDBCLOSE (IO). @category operations @since 0.1.0 */
export const breakConnection = (client: HdbClient): Effect.Effect<void> =>
  Effect.sync(() => {
    try {
      client._connection.destroy()
    } catch {
      // already closed
    }
  })

/**
 * Runs `effect` (interruptibly, even inside a finalizer); when the server has not answered within
 * {@link ANSWER_BUDGET_MS}, breaks the connection instead. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const withinBudget = (client: HdbClient, effect: Effect.Effect<unknown, unknown>): Effect.Effect<void> =>
  Effect.interruptible(effect).pipe(
    Effect.timeoutOption(ANSWER_BUDGET_MS),
    Effect.flatMap((answered) => answered._tag === "None" ? breakConnection(client) : Effect.void),
    Effect.catchCause(() => Effect.void)
  )

/** Closes a client: DISCONNECT, then the socket; a silent server gets its socket closed. Never fails. @category operations @since 0.1.0 */
export const disconnect = (client: HdbClient): Effect.Effect<void> =>
  withinBudget(
    client,
    Effect.callback<void>((resume) => {
      const done = () => {
        try {
          client.close()
        } catch {
          // already closed
        }
        resume(Effect.void)
      }
      try {
        if (client.readyState === "closed") return done()
        client.disconnect(() => done())
      } catch {
        done()
      }
    })
  ).pipe(Effect.andThen(breakConnection(client)))

/**
 * Wraps one hdb EXECUTE. When the caller is interrupted before the reply arrives, the late reply may still open a
 * result set on the server (the statement had finished): nobody will read or close it, so it is closed here.
 */
const executeCall = (
  client: HdbClient,
  run: (resume: (err: unknown, results: ReadonlyArray<unknown>) => void) => void,
  toError: (err: unknown) => AdbcError = fromHdbError
): Effect.Effect<ExecuteOutcome, AdbcError> =>
  Effect.callback<ExecuteOutcome, AdbcError>((resume) => {
    let abandoned = false
    try {
      run((err, results) => {
        if (abandoned) {
          if (!err) closeAbandoned(client, results)
          return
        }
        resume(err ? Effect.fail(toError(err)) : closeLaterResultSets(client, results).pipe(Effect.andThen(Effect.sync(() => outcomeOf(results)))))
      })
    } catch (e) {
      resume(Effect.fail(fromHdbError(e)))
    }
    return Effect.sync(() => {
      abandoned = true
    })
  })

/** RESULT_SET part attribute: the server closed the cursor with this page (hdb lib/protocol/common/PartAttributes.js). */
const RESULT_SET_CLOSED = 16

/**
 * A CALL can answer with several result sets (hdb hands them over as (parameters, ...resultSets)); the driver reads
 * the first. The others still open on the server (rows beyond their first page) are closed here, so none is left
 * behind for the session's lifetime.
 */
const closeLaterResultSets = (client: HdbClient, results: ReadonlyArray<unknown>): Effect.Effect<void> =>
  Effect.forEach(
    results.filter(isResultSet).slice(1).filter((rs) => ((rs._data?.attributes ?? 0) & RESULT_SET_CLOSED) === 0),
    (rs) =>
      Effect.callback<void>((resume) => {
        try {
          client._connection.closeResultSet({ resultSetId: rs.id }, () => resume(Effect.void))
        } catch {
          // the connection is gone, and its cursors with it
          resume(Effect.void)
        }
      }),
    { discard: true }
  )

const closeAbandoned = (client: HdbClient, results: ReadonlyArray<unknown>): void => {
  const rs = results.find(isResultSet)
  if (rs === undefined || client.readyState === "closed" || client.readyState === "disconnected") return
  try {
    client._connection.closeResultSet({ resultSetId: rs.id }, () => {})
  } catch {
    // the connection is gone, and its cursors with it
  }
}

/** EXECUTE_DIRECT. @category operations @since 0.1.0 */
export const executeDirect = (client: HdbClient, sql: string): Effect.Effect<ExecuteOutcome, AdbcError> =>
  executeCall(client, (cb) => client.execute(sql, (err, ...results) => cb(err, results)))

/** PREPARE. @category operations @since 0.1.0 */
export const prepare = (client: HdbClient, sql: string): Effect.Effect<HdbStatement, AdbcError> =>
  call<HdbStatement>((cb) => client.prepare(sql, cb))

/**
 * EXECUTE of a prepared statement with one row (array) or a batch (array of arrays). A row of a batch the server
 * rejects is named in the error, counted from `firstRow` (the 0-based row the batch's first row stands for).
 *
 * @category operations
 * @since 0.1.0
 */
export const executePrepared = (
  client: HdbClient,
  statement: HdbStatement,
  values: ReadonlyArray<unknown>,
  firstRow = 0
): Effect.Effect<ExecuteOutcome, AdbcError> =>
  executeCall(
    client,
    (cb) => statement.execute(values, (err, ...results) => cb(err, results)),
    (err) => {
      const kept = failedBatchRowsOf(err)
      return kept === undefined ? fromHdbError(err) : failedRowError(err, kept.failed, firstRow + kept.before)
    }
  )

/** The bytes one request packet of this connection may hold: one row's parameter values must fit in it. @category operations @since 0.1.0 */
export const packetSizeLimit = (client: HdbClient): number => client._connection.packetSizeLimit

/** Whether the session commits each statement itself (hdb's autocommit). @category operations @since 0.1.0 */
export const isAutoCommit = (client: HdbClient): boolean => client._connection.autoCommit

/**
 * Sends one EXECUTE of a prepared statement whose PARAMETERS part is `rows` rows already encoded (layers/hana/
 * IngestEncoder.ts), through hdb's request queue and session (DbPatches.ts `sendEncodedExecute`); the commit flag is
 * `autoCommit`, or the session's autocommit when it is not given. The request is on its way when this effect
 * returns; the returned effect waits for the reply: the rows affected, or the server's error naming the rejected row (`firstRow` is the 0-based row of
 * the ingest the part starts at). `data` may be reused once the reply has arrived. The Oracle driver's counterpart
 * is layers/oracle/EncodedBinds.ts.
 *
 * @category operations
 * @since 0.1.0
 */
export const startEncodedExecute = (
  client: HdbClient,
  statement: HdbStatement,
  rows: number,
  data: Buffer,
  firstRow: number,
  autoCommit?: boolean
): Effect.Effect<Effect.Effect<number, AdbcError>> =>
  Effect.sync(() => {
    let outcome: Effect.Effect<number, AdbcError> | undefined
    let waiting: ((outcome: Effect.Effect<number, AdbcError>) => void) | undefined
    const settle = (result: Effect.Effect<number, AdbcError>) => {
      if (waiting !== undefined) waiting(result)
      else outcome = result
    }
    try {
      sendEncodedExecute(client, statement, rows, data, autoCommit, (err, reply) => {
        const affected = countOf(reply?.rowsAffected)
        settle(err ? Effect.fail(failedRowError(err, reply?.rowsAffected, firstRow)) : Effect.succeed(affected < 0 ? rows : affected))
      })
    } catch (e) {
      settle(Effect.fail(fromHdbError(e)))
    }
    return Effect.suspend(() =>
      outcome ?? Effect.callback<number, AdbcError>((resume) => {
        waiting = resume
      })
    )
  })

/**
 * The error of a failed batch EXECUTE, naming the row the server rejected (1-based, counted from `firstRow`, the
 * 0-based row of the ingest the part starts at): the first row its ROWS_AFFECTED part reports as EXECUTION_FAILED
 * (-3) after rows that executed. When every row of a multi-row part reports -3 the server did not say which one
 * failed, and the error stays as the server gave it. Status, vendor code and SQLSTATE are kept.
 */
const failedRowError = (err: unknown, rowsAffected: unknown, firstRow: number): AdbcError => {
  const error = fromHdbError(err)
  if (!Array.isArray(rowsAffected)) return error
  const failed = rowsAffected.indexOf(EXECUTION_FAILED)
  if (failed < 0 || (failed === 0 && rowsAffected.length > 1)) return error
  return adbcError(error.status, `row ${firstRow + failed + 1}: ${error.text}`, {
    vendorCode: error.vendorCode,
    sqlState: error.sqlState
  })
}

/** ROWS_AFFECTED entry of a row whose execution failed (SQL Command Network Protocol, ROWSAFFECTED part). */
const EXECUTION_FAILED = -3

/** DROP_STATEMENT_ID; never fails. @category operations @since 0.1.0 */
export const dropStatement = (statement: HdbStatement): Effect.Effect<void> =>
  Effect.ignore(call<void>((cb) => statement.drop((err) => cb(err))))

/** FETCH_NEXT of up to `fetchSize` rows. @category operations @since 0.1.0 */
export const fetchNext = (client: HdbClient, id: Buffer, fetchSize: number): Effect.Effect<RawPage, AdbcError> =>
  call<FetchReply>((cb) => client._connection.fetchNext({ resultSetId: id, fetchSize }, cb)).pipe(
    Effect.map((reply) => reply.resultSets[0]!.data)
  )

/**
 * CLOSE_RESULT_SET; never fails (a closed connection has no cursor left); a server that does not answer within
 * {@link ANSWER_BUDGET_MS} gets its socket closed. @category operations @since 0.1.0
 */
export const closeResultSet = (client: HdbClient, id: Buffer): Effect.Effect<void> =>
  Effect.suspend(() =>
    client.readyState === "closed" || client.readyState === "disconnected"
      ? Effect.void
      : withinBudget(client, call<void>((cb) => client._connection.closeResultSet({ resultSetId: id }, (err) => cb(err))))
  )

/** COMMIT. @category operations @since 0.1.0 */
export const commit = (client: HdbClient): Effect.Effect<void, AdbcError> =>
  call<void>((cb) => client.commit((err) => cb(err)))

/** ROLLBACK. @category operations @since 0.1.0 */
export const rollback = (client: HdbClient): Effect.Effect<void, AdbcError> =>
  call<void>((cb) => client.rollback((err) => cb(err)))

/**
 * Reads the whole content of a LOB whose descriptor did not carry all of it (READ_LOB round trips), as raw bytes
 * (CESU-8 for character LOBs).
 *
 * @category operations
 * @since 0.1.0
 */
export const readLob = (client: HdbClient, descriptor: LobCell): Effect.Effect<Buffer, AdbcError> =>
  call<Buffer>((cb) => {
    const ld = new hdb.Reader.LobDescriptor(
      descriptor.type,
      descriptor.options,
      descriptor.charLength,
      descriptor.byteLength,
      descriptor.locatorId,
      descriptor.chunk,
      descriptor.defaultType
    )
    const lob = new hdb.Lob(client._connection.readLob.bind(client._connection), ld, {
      readSize: 2 ** 18,
      useCesu8: true,
      useDefaultType: true
    })
    lob.read(cb)
  })

/** Decodes CESU-8 (HANA's character encoding) to a string. @category operations @since 0.1.0 */
export const decodeCesu8 = (buffer: Buffer): string => hdb.util.convert.decode(buffer, true)

/**
 * Runs a small internal query (catalog, session values) and returns all rows as arrays of hdb's JS values.
 * With `values`, the query is prepared and run with them.
 *
 * @category operations
 * @since 0.1.0
 */
export const queryAll = (
  client: HdbClient,
  sql: string,
  values?: ReadonlyArray<unknown>
): Effect.Effect<Array<Array<unknown>>, AdbcError> => {
  type Exec = (sql: string, options: object, cb: (err: unknown, rows: Array<Array<unknown>>) => void) => void
  if (values === undefined || values.length === 0) {
    return call<Array<Array<unknown>>>((cb) =>
      (client as unknown as { exec: Exec }).exec(sql, { rowsAsArray: true }, (err, rows) => cb(err, rows))
    )
  }
  return Effect.acquireUseRelease(
    prepare(client, sql),
    (statement) =>
      call<Array<Array<unknown>>>((cb) =>
        (statement as unknown as { exec: (v: unknown, o: object, cb: (e: unknown, rows: Array<Array<unknown>>) => void) => void })
          .exec(values, { rowsAsArray: true }, (err, rows) => cb(err, rows))
      ),
    dropStatement
  )
}

/**
 * Pings the server (CLIENT_PING, or a trivial query) when the client has no request queued or running; keeps idle
 * sessions alive through firewalls. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const pingIfIdle = (client: HdbClient): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    try {
      if (client.readyState !== "connected" || !client._connection.isIdle()) return resume(Effect.void)
      client._connection.isValid({}, () => resume(Effect.void))
    } catch {
      resume(Effect.void)
    }
  })
