/**
 * DBMS_LOCK (PL/SQL Packages and Types Reference, DBMS_LOCK): SLEEP; ALLOCATE_UNIQUE(lockname, lockhandle OUT
 * [, expiration_secs]); the functions REQUEST(id | lockhandle [, lockmode [, timeout [, release_on_commit]]]),
 * CONVERT(id | lockhandle, lockmode [, timeout]) and RELEASE(id | lockhandle), positional or named; the constants
 * NL_MODE .. X_MODE and MAXWAIT. The functions return the package's status codes: 0 success, 1 timeout, 3 parameter
 * error, 4 already own the lock (REQUEST) / do not own it (CONVERT, RELEASE), 5 illegal lock handle. A request that
 * must wait waits (a break ends it with ORA-01013) until the lock can be granted or `timeout` seconds pass; MAXWAIT
 * (32767, the default) waits indefinitely. Deadlocks between user locks are not detected (status 2 is never returned).
 * The locks themselves: user-locks.ts.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora, OraError } from "../errors.ts"
import { isUserLockMode } from "../user-locks.ts"
import { argumentsByName, wrongArguments } from "./arguments.ts"
import type { Expr } from "./ast.ts"
import type { BuiltinPackage, CallContext } from "./context.ts"
import { sleep } from "./sleep.ts"

/** The package's constants (`DBMS_LOCK.X_MODE`). */
export const DBMS_LOCK_CONSTANTS: ReadonlyMap<string, number> = new Map([
  ["NL_MODE", 1],
  ["SS_MODE", 2],
  ["SX_MODE", 3],
  ["S_MODE", 4],
  ["SSX_MODE", 5],
  ["X_MODE", 6],
  ["MAXWAIT", 32767]
])

/** How often a waiting request looks for a break when no lock is released meanwhile. */
const POLL_MS = 10

/** DBMS_LOCK's procedures: SLEEP, ALLOCATE_UNIQUE. */
export const dbmsLock: BuiltinPackage = async (ctx, procedure, args) => {
  switch (procedure) {
    case "SLEEP":
      await sleep(ctx, "SLEEP", args)
      return true
    case "ALLOCATE_UNIQUE": {
      if (args.length < 2 || args.length > 3) throw wrongArguments(procedure)
      const name = await ctx.evaluate(args[0]!)
      if (name === null) throw new OraError(6502, "PL/SQL: numeric or value error")
      ctx.assign(args[1]!, ctx.host.db.userLocks.handleOf(String(name)))
      return true
    }
    default:
      return false
  }
}

/** The lock an `id` (INTEGER) or `lockhandle` (VARCHAR2) argument names: its id, or a status code. */
const lockOf = (ctx: CallContext, v: DuckDBValue): number | { status: number } => {
  if (v === null) return { status: 3 }
  if (typeof v === "string" && !/^\d{1,10}$/.test(v)) return ctx.host.db.userLocks.idOfHandle(v) ?? { status: 5 }
  const id = Number(v)
  return Number.isInteger(id) && id >= 0 && id <= 1999999999 ? id : { status: 3 }
}

/** Waits until `sid` can hold `id` in `mode` (true) or `timeoutSeconds` pass (false). */
const acquire = async (ctx: CallContext, id: number, mode: number, timeoutSeconds: number): Promise<boolean> => {
  const { db, info } = ctx.host
  const live = (sid: number) => db.sessions.has(sid)
  if (!isUserLockMode(mode)) return false
  const forever = timeoutSeconds >= 32767
  const end = Date.now() + Math.max(0, timeoutSeconds) * 1000
  let counted = false
  for (;;) {
    if (db.userLocks.grantable(id, info.sid, mode, live)) return true
    if (ctx.host.callInterrupted) throw ora.cancelled()
    const left = forever ? POLL_MS : end - Date.now()
    if (left <= 0) return false
    if (!counted) {
      // the call waits for a lock: counted once, as row lock waits are (the server's `lockWaits`)
      db.stats.lockWaits++
      counted = true
    }
    await db.nextTransactionEnd(Math.min(POLL_MS, left)).ended
  }
}

/**
 * `DBMS_LOCK.name(args)` of a PL/SQL expression: REQUEST, CONVERT or RELEASE, its status code; undefined when `name`
 * is no function of the package.
 */
export const dbmsLockFunction = async (ctx: CallContext, name: string, args: ReadonlyArray<Expr>): Promise<number | undefined> => {
  const { db, info } = ctx.host
  const value = async (a: Expr | undefined, fallback: DuckDBValue): Promise<DuckDBValue> => (a === undefined ? fallback : await ctx.evaluate(a))
  switch (name) {
    case "REQUEST": {
      const p = argumentsByName(args, ["ID", "LOCKMODE", "TIMEOUT", "RELEASE_ON_COMMIT"])
      const lock = lockOf(ctx, await value(p.get("ID") ?? p.get("LOCKHANDLE"), null))
      if (typeof lock !== "number") return lock.status
      const mode = Number(await value(p.get("LOCKMODE"), 6))
      if (!isUserLockMode(mode)) return 3
      if (db.userLocks.modeOf(lock, info.sid) !== undefined) return 4
      const releaseOnCommit = (await value(p.get("RELEASE_ON_COMMIT"), false)) === true
      if (!(await acquire(ctx, lock, mode, Number(await value(p.get("TIMEOUT"), 32767))))) return 1
      db.userLocks.grant(lock, info.sid, mode, releaseOnCommit)
      return 0
    }
    case "CONVERT": {
      const p = argumentsByName(args, ["ID", "LOCKMODE", "TIMEOUT"])
      const lock = lockOf(ctx, await value(p.get("ID") ?? p.get("LOCKHANDLE"), null))
      if (typeof lock !== "number") return lock.status
      const mode = Number(await value(p.get("LOCKMODE"), null))
      if (!isUserLockMode(mode)) return 3
      const held = db.userLocks.modeOf(lock, info.sid)
      if (held === undefined) return 4
      if (!(await acquire(ctx, lock, mode, Number(await value(p.get("TIMEOUT"), 32767))))) return 1
      db.userLocks.grant(lock, info.sid, mode, false)
      // a lower mode may let others in
      db.transactionEnded()
      return 0
    }
    case "RELEASE": {
      const p = argumentsByName(args, ["ID"])
      if (args.length !== 1) throw wrongArguments(name)
      const lock = lockOf(ctx, await value(p.get("ID") ?? p.get("LOCKHANDLE"), null))
      if (typeof lock !== "number") return lock.status
      if (!db.userLocks.release(lock, info.sid)) return 4
      // wakes the sessions waiting for a lock (the database's one wake-up signal for lock waits)
      db.transactionEnded()
      return 0
    }
    default:
      return undefined
  }
}
