/**
 * `LOCK TABLE [schema.]table [, ...] IN lockmode MODE [NOWAIT | WAIT n]` (SQL Language Reference, "LOCK TABLE"):
 * each table must exist (ORA-00942 naming it) and the mode be one of Oracle's (ROW SHARE, ROW EXCLUSIVE, SHARE
 * UPDATE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE; else ORA-01737 "valid modes for LOCK TABLE are..."). The session
 * then takes the table lock in that mode (table-locks.ts).
 */
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
  /** Until the lock is free (bounded by the server's lockWaitMs), not at all (NOWAIT), or n seconds (WAIT n). */
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
