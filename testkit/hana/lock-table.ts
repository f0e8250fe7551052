/**
 * `LOCK TABLE <table> [, …] IN {EXCLUSIVE | INTENTIONAL EXCLUSIVE} MODE [NOWAIT | WAIT <seconds>]` (SAP HANA SQL
 * Reference, "LOCK TABLE Statement", as remembered: the lock lasts until the transaction ends; not checked here).
 *
 * The test server has row locks only (row-locks.ts), so EXCLUSIVE locks every row the table has when the statement
 * runs, as `SELECT * FROM t FOR UPDATE` would: until COMMIT / ROLLBACK another transaction's UPDATE, DELETE or FOR
 * UPDATE of those rows waits (NOWAIT: 146; past the wait: 131), and LOCK TABLE itself waits for rows another
 * transaction holds. Unlike HANA's table lock it does not stop other transactions from inserting rows. INTENTIONAL
 * EXCLUSIVE, the lock HANA's own DML takes and which does not exclude other writers, locks nothing here.
 */
import { qualified, qualifiedName } from "./ddl.ts"
import { HanaError } from "./errors.ts"
import { splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { forUpdateWait } from "./row-locks.ts"
import type { LockTarget } from "./row-locks.ts"
import type { SessionValues, Translated } from "./translated.ts"

const FORM = "LOCK TABLE <table> [, …] IN {EXCLUSIVE | INTENTIONAL EXCLUSIVE} MODE [NOWAIT | WAIT <seconds>] expected"

/** LOCK TABLE as the row locks of its tables (see the module comment). */
export const translateLockTable = (all: readonly Token[], session: SessionValues): Translated => {
  const inAt = all.findIndex((t) => upper(t) === "IN")
  if (upper(all[1]) !== "TABLE" || inAt < 3) throw HanaError.syntax(FORM, 0)
  const tables = splitTopLevel(all.slice(2, inAt)).map((part) => {
    const [schema, table, used] = qualifiedName(part, 0)
    if (used !== part.length) throw HanaError.syntax(FORM, 0)
    return { schema, table }
  })
  const exclusive = upper(all[inAt + 1]) === "EXCLUSIVE"
  const intentional = upper(all[inAt + 1]) === "INTENTIONAL" && upper(all[inAt + 2]) === "EXCLUSIVE"
  const modeAt = inAt + (exclusive ? 2 : 3)
  if ((!exclusive && !intentional) || upper(all[modeAt]) !== "MODE") throw HanaError.syntax(FORM, 0)
  const waitClause = all.slice(modeAt + 1)
  const wellFormed =
    waitClause.length === 0 ||
    (waitClause.length === 1 && upper(waitClause[0]) === "NOWAIT") ||
    (waitClause.length === 2 && upper(waitClause[0]) === "WAIT" && waitClause[1]!.t === "number")
  if (!wellFormed) throw HanaError.syntax(FORM, 0)
  const wait = forUpdateWait(waitClause)
  const targets: LockTarget[] = tables.map(({ schema, table }) => ({
    table: `${schema ?? session.schema}.${table}`,
    sql: `SELECT rowid FROM ${qualified(schema, table)}${exclusive ? "" : " WHERE false"}`,
    firstParam: 0,
    params: 0,
    ...wait
  }))
  return { kind: "lockTable", targets }
}
