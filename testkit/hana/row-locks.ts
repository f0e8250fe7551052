/**
 * Row locks of the HANA test server, held until the locking transaction ends.
 *
 * DuckDB has no row locks: it lets two transactions update the same row and fails the second at once with a write
 * conflict. HANA instead locks every row an UPDATE / DELETE writes and every row `SELECT ... FOR UPDATE` reads until
 * COMMIT / ROLLBACK; another transaction that writes or locks such a row waits. So the server keeps the locks itself,
 * by table and DuckDB row id, and a statement first reads the row ids it will touch and waits while another
 * transaction holds one of them:
 * - `FOR UPDATE NOWAIT` fails at once with 146 "resource busy and acquire with NOWAIT specified";
 * - a wait longer than the session's lock wait timeout (`SET TRANSACTION LOCK WAIT TIMEOUT <ms>`, default the
 *   server's `lockWaitMs`) fails with 131 "transaction rolled back by lock wait timeout";
 * - a wait that would close a cycle of waiting transactions fails with 133 "transaction rolled back by detected
 *   deadlock".
 * Both 131 and 133 roll the waiting transaction back, as their texts say. Codes and texts as Hibernate's HANA dialect
 * maps them (131 and 146 to LockTimeoutException, 133 to LockAcquisitionException: hibernate-orm,
 * hibernate-core/src/main/java/org/hibernate/dialect/HANADialect.java, buildSQLExceptionConversionDelegate) and as
 * the SAP HANA SQL Reference lists them ("SQL Error Codes": ERR_TX_ROLLBACK_LOCK_TIMEOUT 131,
 * ERR_TX_ROLLBACK_DEADLOCK 133, ERR_TX_LOCK_ACQUISITION_FAIL 146; "SET TRANSACTION LOCK WAIT TIMEOUT").
 */
import type { EngineValue, Session } from "../engine/index.ts"
import { HanaError } from "./errors.ts"
import { hasKeys, insertedKeys, keyLockTable, type KeyTarget } from "./key-locks.ts"
import { matching, nameOf, type Token, upper } from "./lexer.ts"

export { nameOf }

const isOp = (t: Token | undefined, v: string): boolean => t !== undefined && t.t === "op" && t.v === v

/** The rows a statement locks: a DuckDB query of their row ids, and which of the statement's parameters it takes. */
export interface LockTarget {
  /** The table's lock key (`SCHEMA.TABLE`, HANA names). */
  readonly table: string
  /** `SELECT rowid FROM ...` in DuckDB SQL. */
  readonly sql: string
  /** Index of the statement's first parameter the query uses, and how many it uses. */
  readonly firstParam: number
  readonly params: number
  /** `FOR UPDATE NOWAIT`: fail at once instead of waiting. */
  readonly nowait: boolean
  /** `FOR UPDATE WAIT <seconds>`: this statement's lock wait timeout instead of the session's. */
  readonly waitMs?: number
}

/** The token slices a {@link LockTarget} is made of (translate.ts rewrites them into DuckDB SQL). */
export interface LockSlices {
  readonly schema: string | undefined
  readonly table: string
  /** Tokens of the table reference (name and alias) and of the rest (`WHERE ...`, `ORDER BY ...`). */
  readonly from: ReadonlyArray<Token>
  readonly rest: ReadonlyArray<Token>
  readonly firstParam: number
  readonly params: number
}


/** `[schema.]table` at `i`: schema, table and tokens used, or undefined when no name is there. */
export const tableAt = (toks: ReadonlyArray<Token>, i: number): { schema: string | undefined; table: string; used: number } | undefined => {
  const first = nameOf(toks[i])
  if (first === undefined) return undefined
  if (isOp(toks[i + 1], ".")) {
    const second = nameOf(toks[i + 2])
    return second === undefined ? undefined : { schema: first, table: second, used: 3 }
  }
  return { schema: undefined, table: first, used: 1 }
}

/** Top-level positions of the given keywords (outside parentheses). */
export const topLevel = (toks: ReadonlyArray<Token>, from: number, words: ReadonlyArray<string>): Array<number> => {
  const out: Array<number> = []
  for (let k = from; k < toks.length; k++) {
    if (isOp(toks[k], "(")) k = matching(toks, k)
    else if (words.includes(upper(toks[k]))) out.push(k)
  }
  return out
}

/** How many parameters the tokens hold. */
export const paramsIn = (toks: ReadonlyArray<Token>): number => toks.filter((t) => t.t === "param").length

/** One table named at `at`, up to `end` (name and optional alias), or undefined for joins and lists. */
const singleTable = (toks: ReadonlyArray<Token>, at: number, end: number) => {
  const named = tableAt(toks, at)
  if (named === undefined) return undefined
  const tail = toks.slice(at + named.used, end)
  const alias = upper(tail[0]) === "AS" ? tail.slice(1) : tail
  if (alias.length > 1 || (alias.length === 1 && nameOf(alias[0]) === undefined)) return undefined
  return named
}

/** The rows an UPDATE / DELETE of one table writes (undefined for other statements, joins and UPDATE ... FROM). */
export const writtenRows = (all: ReadonlyArray<Token>): LockSlices | undefined => {
  const update = upper(all[0]) === "UPDATE"
  if (!update && upper(all[0]) !== "DELETE") return undefined
  const at = update ? 1 : upper(all[1]) === "FROM" ? 2 : 1
  const marks = topLevel(all, at, ["SET", "WHERE", "FROM", "WITH"])
  const set = marks.find((k) => upper(all[k]) === "SET")
  if (update && (set === undefined || marks.some((k) => upper(all[k]) === "FROM" && k > set))) return undefined
  const where = marks.find((k) => upper(all[k]) === "WHERE")
  const hint = marks.find((k) => upper(all[k]) === "WITH" && upper(all[k + 1]) === "HINT")
  const end = hint ?? all.length
  const tableEnd = update ? set! : (where ?? end)
  const named = singleTable(all, at, tableEnd)
  if (named === undefined) return undefined
  const rest = where === undefined ? [] : all.slice(where, end)
  return {
    schema: named.schema,
    table: named.table,
    from: all.slice(at, tableEnd),
    rest,
    firstParam: where === undefined ? 0 : paramsIn(all.slice(0, where)),
    params: paramsIn(rest)
  }
}

/**
 * The rows `SELECT ... FROM t [WHERE ...] FOR UPDATE` locks (`toks`: the query without its FOR UPDATE clause), or
 * undefined when it reads more than one table (such queries lock nothing here).
 */
export const selectedRows = (toks: ReadonlyArray<Token>): LockSlices | undefined => {
  const from = topLevel(toks, 1, ["FROM"])[0]
  if (from === undefined) return undefined
  const marks = topLevel(toks, from + 1, ["WHERE", "GROUP", "ORDER", "LIMIT", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "UNION"])
  if (marks.some((k) => !["WHERE", "ORDER", "LIMIT"].includes(upper(toks[k])))) return undefined
  const tableEnd = marks[0] ?? toks.length
  if (toks.slice(from + 1, tableEnd).some((t) => isOp(t, ","))) return undefined
  const named = singleTable(toks, from + 1, tableEnd)
  if (named === undefined) return undefined
  const order = marks.find((k) => upper(toks[k]) !== "WHERE")
  const rest = toks.slice(tableEnd, order ?? toks.length)
  return { schema: named.schema, table: named.table, from: toks.slice(from + 1, tableEnd), rest, firstParam: paramsIn(toks.slice(0, tableEnd)), params: paramsIn(rest) }
}

/** How a lock of the FOR UPDATE clause waits: `NOWAIT`, `WAIT <seconds>`, or (neither) the session's timeout. */
export interface ForUpdateWait {
  readonly nowait: boolean
  readonly waitMs?: number
}

/**
 * The wait of a FOR UPDATE clause (tokens after `FOR UPDATE`). SAP HANA SQL Reference, "SELECT Statement",
 * for_update_clause: `FOR UPDATE [OF <column_list>] [WAIT <unsigned_integer> | NOWAIT] [IGNORE LOCKED]`, WAIT giving
 * the seconds to wait for a lock before the statement fails (131, as a wait past the session's timeout; Hibernate's
 * HANA dialect writes a lock timeout as `FOR UPDATE WAIT <seconds>`, hibernate-orm pull request 2763).
 */
export const forUpdateWait = (clause: ReadonlyArray<Token>): ForUpdateWait => {
  const wait = clause.findIndex((t) => upper(t) === "WAIT")
  const seconds = wait < 0 ? undefined : clause[wait + 1]
  // WAIT 0 is NOWAIT (SAP's own note in hibernate-orm pull request 2762, "NOWAIT and WAIT 0 are equivalent").
  if (seconds !== undefined && seconds.t === "number") return Number(seconds.v) === 0 ? { nowait: true } : { nowait: false, waitMs: Number(seconds.v) * 1000 }
  if (wait >= 0) throw HanaError.syntax("incorrect syntax near \"WAIT\": FOR UPDATE WAIT takes a number of seconds", 0)
  return { nowait: clause.some((t) => upper(t) === "NOWAIT") }
}

/** What a lock is on: a DuckDB row id, or the text of a key an INSERT wrote (key-locks.ts). */
export type LockedItem = bigint | string

/** The locks of one server: which transaction (by connection id) holds which rows, and who waits for whom. */
export class RowLockTable {
  private readonly byTable = new Map<string, Map<LockedItem, number>>()
  private readonly bySession = new Map<number, Array<readonly [string, LockedItem]>>()
  /** Waiting connection → the connections holding rows it waits for (deadlock detection). */
  private readonly waitsFor = new Map<number, ReadonlySet<number>>()
  private wakeups: Array<() => void> = []

  /** Locks `rows` of `table` for `sid` until {@link release}. */
  take(sid: number, table: string, rows: ReadonlyArray<LockedItem>): void {
    if (rows.length === 0) return
    let locks = this.byTable.get(table)
    if (locks === undefined) this.byTable.set(table, (locks = new Map()))
    let held = this.bySession.get(sid)
    if (held === undefined) this.bySession.set(sid, (held = []))
    for (const row of rows) {
      if (locks.get(row) === sid) continue
      locks.set(row, sid)
      held.push([table, row])
    }
  }

  /** True when some other connection than `sid` holds a row of `table` (a cheap test before reading row ids). */
  othersHoldIn(sid: number, table: string): boolean {
    const locks = this.byTable.get(table)
    if (locks === undefined) return false
    for (const holder of locks.values()) if (holder !== sid) return true
    return false
  }

  /** The other connections holding one of `rows` of `table`. */
  holdersOf(sid: number, table: string, rows: ReadonlyArray<LockedItem>): Set<number> {
    const out = new Set<number>()
    const locks = this.byTable.get(table)
    if (locks === undefined) return out
    for (const row of rows) {
      const holder = locks.get(row)
      if (holder !== undefined && holder !== sid) out.add(holder)
    }
    return out
  }

  /** True when `sid` waiting for `holders` would close a cycle of waits. */
  closesCycle(sid: number, holders: ReadonlySet<number>): boolean {
    const seen = new Set<number>()
    const stack = [...holders]
    while (stack.length > 0) {
      const next = stack.pop()!
      if (next === sid) return true
      if (seen.has(next)) continue
      seen.add(next)
      for (const h of this.waitsFor.get(next) ?? []) stack.push(h)
    }
    return false
  }

  /** Records that `sid` waits for `holders` (undefined: it no longer waits). */
  setWaiting(sid: number, holders: ReadonlySet<number> | undefined): void {
    if (holders === undefined) this.waitsFor.delete(sid)
    else this.waitsFor.set(sid, holders)
  }

  /** Resolves when some transaction releases its locks, or after `ms`. */
  nextRelease(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done(): void {
        clearTimeout(timer)
        resolve()
      }
      this.wakeups.push(done)
    })
  }

  /** Releases every lock of `sid` (its transaction ended or it closed) and wakes the waiters. */
  release(sid: number): void {
    const held = this.bySession.get(sid)
    if (held === undefined) return
    this.bySession.delete(sid)
    for (const [table, row] of held) {
      const locks = this.byTable.get(table)
      if (locks?.get(row) !== sid) continue
      locks.delete(row)
      if (locks.size === 0) this.byTable.delete(table)
    }
    this.wakeAll()
  }

  /** Wakes every waiter to look again (a release, or a waiting connection closing). */
  wakeAll(): void {
    const wakeups = this.wakeups
    this.wakeups = []
    for (const wake of wakeups) wake()
  }
}

/** One connection's use of the server's {@link RowLockTable}. */
export class SessionRowLocks {
  /** The session's lock wait timeout in milliseconds (`SET TRANSACTION LOCK WAIT TIMEOUT`). */
  lockWaitMs: number
  private cancelled = false

  constructor(
    private readonly table: RowLockTable,
    private readonly session: Session,
    private readonly sid: number,
    private readonly stats: { lockWaits: number },
    defaultWaitMs: number
  ) {
    this.lockWaitMs = defaultWaitMs
    session.onTransactionEnd = () => table.release(sid)
  }

  /**
   * Runs `work` (the statement) once no other transaction holds a row of `target` it touches, then keeps those rows
   * locked while the session's transaction is open. Without a target, or outside a transaction with no other
   * transaction holding rows of the table, `work` runs at once (no row ids are read).
   */
  async run<A>(target: LockTarget | ReadonlyArray<LockTarget> | undefined, params: ReadonlyArray<EngineValue>, work: () => Promise<A>): Promise<A> {
    if (target === undefined) return work()
    const targets: ReadonlyArray<LockTarget> = "table" in target ? [target] : target
    if (!this.session.inTransaction && !targets.some((t) => this.table.othersHoldIn(this.sid, t.table))) return work()
    const locked: Array<readonly [string, Array<bigint>]> = []
    for (const t of targets) {
      const values = params.slice(t.firstParam, t.firstParam + t.params)
      locked.push([t.table, await this.waitFor(t.table, () => this.rowIds(t, values), t)])
    }
    const out = await work()
    if (this.session.inTransaction) for (const [table, rows] of locked) this.table.take(this.sid, table, rows)
    return out
  }

  /**
   * Runs `work` (an INSERT) once no other transaction holds a primary or unique key it writes (key-locks.ts), then
   * keeps those keys locked while the session's transaction is open. Outside a transaction, with no other
   * transaction holding keys of the table, `work` runs at once.
   */
  async runInsert<A>(target: KeyTarget | undefined, params: ReadonlyArray<EngineValue>, work: () => Promise<A>): Promise<A> {
    if (target === undefined) return work()
    const key = keyLockTable(target.table)
    if (!this.session.inTransaction && !this.table.othersHoldIn(this.sid, key)) return work()
    const keys = await insertedKeys(this.session, target, params)
    if (keys.length === 0) return work()
    await this.waitFor(key, async () => keys, { nowait: false })
    const out = await work()
    if (this.session.inTransaction) this.table.take(this.sid, key, keys)
    return out
  }

  /**
   * Runs `work` (a batch INSERT of `rows`, each the statement's parameters) once no other transaction holds a key
   * one of the rows writes, then keeps those keys locked while the session's transaction is open (unless `failed`
   * says the batch wrote nothing).
   */
  async runInsertBatch<A>(target: KeyTarget, rows: ReadonlyArray<ReadonlyArray<EngineValue>>, work: () => Promise<A>, failed: (out: A) => boolean): Promise<A> {
    const key = keyLockTable(target.table)
    const keys: Array<string> = []
    for (const row of rows) keys.push(...(await insertedKeys(this.session, target, row)))
    if (keys.length > 0) await this.waitFor(key, async () => keys, { nowait: false })
    const out = await work()
    if (this.session.inTransaction && !failed(out)) this.table.take(this.sid, key, keys)
    return out
  }

  /**
   * True when an INSERT of `target` must take key locks (the batch fast paths take none): its
   * table has a unique key and the statement runs in a transaction (`autocommit` false: the client's transaction
   * begins with it) or another transaction holds keys of the table.
   */
  async insertTakesKeys(target: KeyTarget | undefined, autocommit: boolean): Promise<boolean> {
    if (target === undefined) return false
    if (autocommit && !this.session.inTransaction && !this.table.othersHoldIn(this.sid, keyLockTable(target.table))) return false
    return hasKeys(this.session, target)
  }

  /**
   * Ends a lock wait of this connection at once (its client closed): the waiting statement fails with 139 and the
   * connection's close then rolls its transaction back, releasing its rows.
   */
  cancel(): void {
    this.cancelled = true
    this.table.wakeAll()
  }

  private async rowIds(target: LockTarget, values: ReadonlyArray<EngineValue>): Promise<Array<bigint>> {
    const rows = await this.session.queryAll(target.sql, values)
    return rows.map((r) => BigInt(r[0] as number | bigint))
  }

  /** Waits until no other transaction holds one of the items `read` returns (read again after each release). */
  private async waitFor<I extends LockedItem>(table: string, read: () => Promise<Array<I>>, wait: { readonly nowait: boolean; readonly waitMs?: number }): Promise<Array<I>> {
    const deadline = Date.now() + (wait.waitMs ?? this.lockWaitMs)
    let counted = false
    try {
      for (;;) {
        const rows = await read()
        const holders = this.table.holdersOf(this.sid, table, rows)
        if (holders.size === 0) return rows
        if (wait.nowait) throw new HanaError(146, "HY000", "Resource busy and acquire with NOWAIT specified")
        if (this.table.closesCycle(this.sid, holders)) {
          await this.session.rollback()
          throw new HanaError(133, "HY000", "transaction rolled back by detected deadlock")
        }
        const left = deadline - Date.now()
        if (left <= 0) {
          await this.session.rollback()
          throw new HanaError(131, "HY000", "transaction rolled back by lock wait timeout")
        }
        if (!counted) {
          counted = true
          this.stats.lockWaits++
        }
        this.table.setWaiting(this.sid, holders)
        await this.table.nextRelease(Math.min(left, 50))
        if (this.cancelled || this.session.isClosed) throw new HanaError(139, "HY000", "current operation cancelled by request and transaction rolled back")
        // the holder's changes are committed now: a transaction that has written nothing yet reads them
        await this.session.refreshSnapshot()
      }
    } finally {
      this.table.setWaiting(this.sid, undefined)
    }
  }
}
