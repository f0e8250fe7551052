/**
 * Plain Effect wrappers of node-oracledb calls (thin mode): connect, disconnect, one call with break-on-interrupt,
 * executes that must not orphan a cursor, result-set closes, internal queries, and the bounded abort every cleanup
 * falls back to. What reaches into oracledb's internals is DbPatches.ts.
 *
 * @since 0.1.0
 */
import { Effect, Option } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { installHooks, oracledb, RAW_TEMPORAL } from "./DbPatches.ts"
import type { OracleConnection, OracleExecuteResult, OracleResultSet } from "./DbTypes.ts"
import { fromOracleError } from "./Errors.ts"
import { LOB_PREFETCH } from "./LobPrefetch.ts"
import { LobPrefetchLength } from "./OracleOptions.ts"

/**
 * How long a break, a cursor release or a LOGOFF may wait for the server before the connection is given up
 * ({@link abort}): an interrupted fiber or a closing scope returns within about a second even when the server
 * stopped answering.
 *
 * @category constants
 * @since 0.1.0
 */
export const ANSWER_BUDGET_MS = 800

/**
 * Drops the connection at once without asking the server: its socket is destroyed (thin mode's
 * `NetworkSession.forceDisconnect`, which oracledb's own pool uses on a hung connection), calls in flight fail NJS-500
 * (IO) and the server rolls back what was open. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const abort = (connection: OracleConnection): Effect.Effect<void> =>
  Effect.sync(() => {
    try {
      connection._impl?.nscon?.forceDisconnect?.(
        new Error(`the driver dropped the connection: the server did not answer within ${ANSWER_BUDGET_MS} ms`)
      )
    } catch {
      // already closed
    }
  })

/**
 * Runs `effect` (interruptibly, even inside a finalizer); when the server has not answered within
 * {@link ANSWER_BUDGET_MS}, drops the connection instead. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const withinBudget = (
  connection: OracleConnection,
  effect: Effect.Effect<unknown, unknown>,
  budgetMs: number = ANSWER_BUDGET_MS
): Effect.Effect<void> =>
  Effect.interruptible(effect).pipe(
    Effect.timeoutOption(budgetMs),
    Effect.flatMap((answered) => Option.isNone(answered) ? abort(connection) : Effect.void),
    Effect.catchCause(() => Effect.void)
  )

/** How a call ended: its value, or its error. */
type Outcome<A> = { readonly _tag: "Value"; readonly value: A } | { readonly _tag: "Error"; readonly error: AdbcError }

/**
 * Stops a call whose caller was interrupted: a break (the call then fails ORA-01013 after the break/reset exchange),
 * then its end is awaited, so that the connection is idle again when the interrupted fiber returns. A call answered
 * before the break reached it has what it opened released (`release`, for result sets nobody will read). Then a
 * ping: it carries the cursor closes and cancels oracledb queued for the interrupted statement (otherwise sent with
 * the next call, whenever that comes), and takes a break that missed its call, which would fail the next call with
 * ORA-01013. A server that does not answer within {@link ANSWER_BUDGET_MS} gets the connection dropped.
 */
const interruptCall = <A>(
  connection: OracleConnection,
  ended: Promise<Outcome<A>>,
  release: ((value: A) => Promise<unknown>) | undefined,
  budgetMs: number = ANSWER_BUDGET_MS
): Effect.Effect<void> =>
  withinBudget(
    connection,
    Effect.promise(async () => {
      await connection.breakExecution().catch(() => undefined)
      const outcome = await ended
      if (outcome._tag === "Value") await release?.(outcome.value).catch(() => undefined)
      await connection.ping().catch(() => undefined)
    }),
    budgetMs
  )

/**
 * Runs one oracledb call. Interrupting the fiber breaks the running call on the server and waits (bounded) for it to
 * end, so an interrupted query never keeps running and the connection is ready for the next call; `release` closes
 * what a call answered after its caller was interrupted had opened.
 *
 * @category operations
 * @since 0.1.0
 */
export const call = <A>(
  connection: OracleConnection | undefined,
  run: () => Promise<A>,
  release?: ((value: A) => Promise<unknown>) | undefined
): Effect.Effect<A, AdbcError> =>
  callWith(run, connection === undefined ? undefined : (settled, ended) =>
    Effect.suspend(() => settled() ? Effect.void : interruptCall(connection, ended, release)))

/** Runs one oracledb call; `onInterrupt` (given whether the call ended, and its end) stops it for an interrupted caller. */
const callWith = <A>(
  run: () => Promise<A>,
  onInterrupt: ((settled: () => boolean, ended: Promise<Outcome<A>>) => Effect.Effect<void>) | undefined
): Effect.Effect<A, AdbcError> =>
  Effect.callback<A, AdbcError>((resume) => {
    let promise: Promise<A>
    try {
      promise = run()
    } catch (e) {
      resume(Effect.fail(fromOracleError(e)))
      return
    }
    let settled = false
    const ended = promise.then(
      (value): Outcome<A> => {
        settled = true
        resume(Effect.succeed(value))
        return { _tag: "Value", value }
      },
      (e): Outcome<A> => {
        settled = true
        const error = fromOracleError(e)
        resume(Effect.fail(error))
        return { _tag: "Error", error }
      }
    )
    if (onInterrupt === undefined) return
    return onInterrupt(() => settled, ended)
  })


/**
 * Whether the reply to an execute of `sql` may name server cursors the client does not know yet: a text oracledb
 * holds no cursor for (DDL, which it never caches, and every text with `stmtCacheSize=0` among them) and a PL/SQL
 * block, whose implicit result sets are new cursors on every run.
 */
const repliesWithNewCursors = (connection: OracleConnection, sql: string): boolean => {
  const cached = connection._impl?.statementCache?._cachedStatements?.get(sql)
  return cached === undefined || cached.cursorId === 0 || cached.inUse || cached.isPlSql === true
}

/**
 * Runs an execute (or executeMany) of `sql` as {@link call} does; when its reply may name cursors the client does not
 * know yet, an interruption lets it end first ({@link callToEnd}), so a break never makes oracledb drop that reply
 * and orphan them.
 *
 * @category operations
 * @since 0.1.0
 */
export const callExecute = <A>(
  connection: OracleConnection,
  sql: string,
  run: () => Promise<A>,
  release?: ((value: A) => Promise<boolean>) | undefined
): Effect.Effect<A, AdbcError> =>
  Effect.suspend(() => repliesWithNewCursors(connection, sql) ? callToEnd(connection, run, release) : call(connection, run, release))

/**
 * Like {@link call}, for a call that should not be broken: an interrupted caller first waits (half of
 * {@link ANSWER_BUDGET_MS}) for the call to end by itself, and breaks it only when it does not, within the other half.
 * A call that ended has what it opened released (`release`, as for {@link call}), then the closes are sent.
 *
 * This is for a call whose reply alone names server cursors it opened (a new SQL text's cursor, implicit result
 * sets): oracledb drops a reply that a break crosses (see {@link openCursor}), and those cursors would stay open on
 * the server until the session ends. A break that reaches the call while the server still runs it is answered by
 * ORA-01013 naming the call's cursor, which oracledb then closes.
 *
 * @category operations
 * @since 0.1.0
 */
export const callToEnd = <A>(
  connection: OracleConnection,
  run: () => Promise<A>,
  release?: ((value: A) => Promise<boolean>) | undefined
): Effect.Effect<A, AdbcError> =>
  callWith(run, (_settled, ended) =>
    Effect.promise(() => ended).pipe(
      Effect.timeoutOption(ANSWER_BUDGET_MS / 2),
      Effect.flatMap((answered) => {
        if (Option.isNone(answered)) return interruptCall(connection, ended, release, ANSWER_BUDGET_MS / 2)
        const outcome = answered.value
        if (outcome._tag === "Error" || release === undefined) return Effect.void
        return withinBudget(
          connection,
          Effect.promise(async () => {
            if (await release(outcome.value).catch(() => false)) await connection.ping().catch(() => undefined)
          }),
          ANSWER_BUDGET_MS / 2
        )
      })
    ))

/**
 * Opens a connection and marks it for the precision hooks and for LOB prefetch of `lobPrefetchLength` characters /
 * bytes (0: none). `timeoutMs` bounds the whole connect.
 *
 * @category operations
 * @since 0.1.0
 */
export const connect = (
  attributes: Record<string, unknown>,
  timeoutMs?: number | undefined,
  lobPrefetchLength: number = LobPrefetchLength.default
): Effect.Effect<OracleConnection, AdbcError> => {
  const unsupported = installHooks()
  if (unsupported !== undefined) return Effect.fail(unsupported)
  const open = Effect.callback<OracleConnection, AdbcError>((resume) => {
    let settled = false
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      if (settled) return
      settled = true
      resume(Effect.fail(adbcError("TIMEOUT", `connecting timed out after ${timeoutMs} ms`)))
    }, timeoutMs)
    oracledb.getConnection({ ...attributes }).then(
      (connection) => {
        if (settled) {
          connection.close().catch(() => undefined)
          return
        }
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        const caps = connection._impl?._protocol?.caps
        if (caps === undefined) {
          connection.close().catch(() => undefined)
          resume(Effect.fail(adbcError("INTERNAL", "node-oracledb is not in thin mode; the Oracle driver needs thin mode")))
          return
        }
        caps[RAW_TEMPORAL] = true
        caps[LOB_PREFETCH] = lobPrefetchLength
        resume(Effect.succeed(connection))
      },
      (e) => {
        if (settled) return
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        resume(Effect.fail(fromOracleError(e)))
      }
    )
    return Effect.sync(() => {
      settled = true
      if (timer !== undefined) clearTimeout(timer)
    })
  })
  return open
}

/**
 * Closes a connection (rollback when a transaction is open, then LOGOFF); a server that does not answer within
 * {@link ANSWER_BUDGET_MS} gets the connection dropped. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const disconnect = (connection: OracleConnection): Effect.Effect<void> =>
  withinBudget(connection, Effect.promise(() => connection.close().catch(() => undefined)))

/** Result sets this driver closed (a result set is closed once, whichever of its owners gets there first). */
const closedResultSets = new WeakSet<OracleResultSet>()

/** Closes a result set on the client unless it was closed already; true when it was still open. */
const closeOnce = async (resultSet: OracleResultSet): Promise<boolean> => {
  if (closedResultSets.has(resultSet)) return false
  closedResultSets.add(resultSet)
  await resultSet.close().catch(() => undefined)
  return true
}

/**
 * Closes a result set on the client (once; never fails); true when it was still open. oracledb keeps the statement
 * for reuse and asks the server to close or cancel its cursor on the connection's next round trip
 * ({@link releaseCursors} makes that now).
 *
 * @category operations
 * @since 0.1.0
 */
export const closeResultSet = (resultSet: OracleResultSet): Effect.Effect<boolean> =>
  Effect.promise(() => closeOnce(resultSet))

/**
 * Closes the result sets of an execute's result (its result set and implicit results) that are still open, on the
 * client; true when one was. For results nobody will read: a call answered after its caller was interrupted.
 *
 * @category operations
 * @since 0.1.0
 */
export const closeResults = async (result: OracleExecuteResult): Promise<boolean> => {
  let closed = false
  for (const rs of [result.resultSet, ...(result.implicitResults ?? [])]) {
    if (rs !== undefined && await closeOnce(rs)) closed = true
  }
  return closed
}

/**
 * Closes what a result still holds open (see {@link closeResults}) and releases the server cursors at once; the
 * finalizer of an execute, in case its result never reached a reader. Never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const releaseResults = (connection: OracleConnection, result: OracleExecuteResult): Effect.Effect<void> =>
  Effect.flatMap(Effect.promise(() => closeResults(result)), (closed) => closed ? releaseCursors(connection) : Effect.void)

/**
 * Sends the cursor closes and cancels oracledb holds back for the next round trip (piggybacked on a ping), so that a
 * result set closed before its end releases its server cursor now rather than at the next statement, which may
 * come much later. Bounded like every cleanup; never fails.
 *
 * @category operations
 * @since 0.1.0
 */
export const releaseCursors = (connection: OracleConnection): Effect.Effect<void> =>
  withinBudget(connection, Effect.promise(() => connection.ping().catch(() => undefined)))

/**
 * Runs a small internal query (catalog, session values) and returns all rows as arrays.
 *
 * @category operations
 * @since 0.1.0
 */
export const queryAll = (
  connection: OracleConnection,
  sql: string,
  binds: ReadonlyArray<unknown> = []
): Effect.Effect<Array<Array<unknown>>, AdbcError> =>
  Effect.map(
    call(connection, () => connection.execute(sql, [...binds], { outFormat: oracledb.OUT_FORMAT_ARRAY, maxRows: 0 })),
    (result) => result.rows ?? []
  )
