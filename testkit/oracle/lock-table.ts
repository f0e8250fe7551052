/**
 * `LOCK TABLE [schema.]table [, ...] IN lockmode MODE [NOWAIT | WAIT n]` (SQL Language Reference, "LOCK TABLE"):
 * each table must exist (ORA-00942 naming it) and the mode be one of Oracle's (ROW SHARE, ROW EXCLUSIVE, SHARE
 * UPDATE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE; else ORA-01737 "valid modes for LOCK TABLE are..."). The session
 * then takes the table lock in that mode (table-locks.ts); for a view, on the view's base tables ({@link tablesToLock}).
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"
import { type TableLockMode, tableLockModeOf } from "./table-locks.ts"
import { oracleName } from "./translate.ts"

const MODES = ["ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE", "SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE"]

/** A table LOCK TABLE names, as written. */
export interface LockedTable {
  readonly schema: string | undefined
  readonly name: string
}

/** A LOCK TABLE statement: its tables, the mode it takes them in, and how long it waits for them. */
export interface LockTableStatement {
  readonly tables: ReadonlyArray<LockedTable>
  readonly mode: TableLockMode
  /** Until the lock is free (bounded only when the server's lockWaitMs option is given), not at all (NOWAIT), or n seconds (WAIT n). */
  readonly wait: "wait" | "nowait" | number
}

/** A LOCK TABLE statement's parts; ORA-01737 for another mode, ORA-00933 for a malformed statement. */
export const parseLockTable = (sql: string): LockTableStatement => {
  const toks: ReadonlyArray<Tok> = significant(tokenize(sql.replace(/;\s*$/, "")))
  if (!isKw(toks[0], "LOCK") || !isKw(toks[1], "TABLE")) throw new OraError(900, "invalid SQL statement")
  const tables: Array<LockedTable> = []
  let k = 2
  for (;;) {
    const first = toks[k]
    if (first === undefined || (first.kind !== "ident" && first.kind !== "qident")) throw new OraError(903, "invalid table name")
    if (isOp(toks[k + 1], ".")) {
      const second = toks[k + 2]
      if (second === undefined || (second.kind !== "ident" && second.kind !== "qident")) throw new OraError(903, "invalid table name")
      tables.push({ schema: oracleName(first), name: oracleName(second) })
      k += 3
    } else {
      tables.push({ schema: undefined, name: oracleName(first) })
      k += 1
    }
    if (!isOp(toks[k], ",")) break
    k++
  }
  if (!isKw(toks[k], "IN")) throw new OraError(969, "missing IN keyword")
  const modeEnd = toks.findIndex((t, j) => j > k && isKw(t, "MODE"))
  const mode = toks.slice(k + 1, modeEnd < 0 ? toks.length : modeEnd).map((t) => t.value.toUpperCase()).join(" ")
  if (modeEnd < 0 || !MODES.includes(mode))
    throw new OraError(1737, "valid modes for LOCK TABLE are: ROW SHARE, ROW EXCLUSIVE, SHARE UPDATE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE")
  const rest = toks.slice(modeEnd + 1)
  const ends = rest.length === 0 || (rest.length === 1 && isKw(rest[0], "NOWAIT")) || (rest.length === 2 && isKw(rest[0], "WAIT") && rest[1]!.kind === "num")
  if (!ends) throw new OraError(933, "SQL command not properly ended")
  const wait = rest.length === 0 ? "wait" : rest.length === 1 ? "nowait" : Number(rest[1]!.value)
  return { tables, mode: tableLockModeOf(mode), wait }
}

const FROM_LIST_END = ["WHERE", "GROUP", "HAVING", "ORDER", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "MODEL", "WINDOW", "ON", "USING", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "OUTER"]

/**
 * The tables a view's query (Oracle text) reads, as written, at any depth: the names after FROM and JOIN and after
 * the commas of a FROM list. Locking a view locks these ("If you lock a view, then the database locks the base tables
 * of the view", SQL Language Reference, "LOCK TABLE"); names that are no table (WITH names) are left to the caller.
 */
export const viewTables = (viewText: string): Array<LockedTable> => {
  const toks: ReadonlyArray<Tok> = significant(tokenize(viewText))
  const out: Array<LockedTable> = []
  // the depths at which a FROM list is open (a comma there starts another table)
  const fromLists: Array<number> = []
  let depth = 0
  const nameAt = (k: number) => {
    const first = toks[k]
    if (first === undefined || (first.kind !== "ident" && first.kind !== "qident")) return
    const second = isOp(toks[k + 1], ".") ? toks[k + 2] : undefined
    if (second !== undefined && (second.kind === "ident" || second.kind === "qident")) out.push({ schema: oracleName(first), name: oracleName(second) })
    else out.push({ schema: undefined, name: oracleName(first) })
  }
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) {
      while (fromLists.length > 0 && fromLists[fromLists.length - 1]! >= depth) fromLists.pop()
      depth--
    } else if (isKw(t, "FROM")) {
      fromLists.push(depth)
      nameAt(k + 1)
    } else if (isKw(t, "JOIN")) nameAt(k + 1)
    else if (isOp(t, ",") && fromLists[fromLists.length - 1] === depth) nameAt(k + 1)
    else if (fromLists[fromLists.length - 1] === depth && isKw(t, ...FROM_LIST_END)) fromLists.pop()
  }
  return out
}

/**
 * The tables LOCK TABLE locks for `named`: each table itself, each view's base tables (through views of views), found
 * with `lookup`; a name `lookup` does not know fails with `notFound`'s error.
 */
export const tablesToLock = (
  named: ReadonlyArray<LockedTable>,
  lookup: (schema: string | undefined, name: string) => TableMeta | undefined,
  notFound: (t: LockedTable) => Error
): Array<TableMeta> => {
  const out = new Map<string, TableMeta>()
  const visit = (meta: TableMeta, seen: ReadonlySet<string>) => {
    const key = `${meta.owner}.${meta.name}`
    if (meta.kind === "TABLE") out.set(key, meta)
    else if (meta.viewText !== null && !seen.has(key))
      // a view's names resolve in its owner's schema
      for (const t of viewTables(meta.viewText)) {
        const base = lookup(t.schema ?? meta.owner, t.name)
        if (base !== undefined) visit(base, new Set([...seen, key]))
      }
  }
  for (const t of named) {
    const meta = lookup(t.schema, t.name)
    if (meta === undefined) throw notFound(t)
    visit(meta, new Set())
  }
  return [...out.values()]
}
