/**
 * Transactions as HANA runs them: autocommit per request or a transaction until COMMIT / ROLLBACK, READ COMMITTED
 * statements, statement-level rollback, and DDL committing the open transaction.
 */
import type { Session } from "../../engine/index.ts"
import { copyDeclaredTypes, copyViewTypes } from "../binding.ts"
import { rebuildTable, recordConstraintNames } from "../alter-table.ts"
import { enforceDeclaredLengths, renameLengthCheck } from "../declared-lengths.ts"
import type { Translated } from "../translated.ts"
import type { SqlSessionState } from "../session-state.ts"
import { decodeName } from "../names.ts"

/** Runs a translated DDL statement and the catalog upkeep it needs (declared types, declared lengths). */
export const runDdlStatement = async (session: Session, t: Extract<Translated, { kind: "ddl" }>): Promise<void> => {
  await session.run(t.sql)
  if (t.copyTypes !== undefined) await copyDeclaredTypes(session, t.copyTypes.from, t.copyTypes.to)
  if (t.view !== undefined) await copyViewTypes(session, t.view.target, t.view.query)
  if (t.declaredLengths !== undefined) await enforceDeclaredLengths(session, t.declaredLengths.table, t.declaredLengths.columns)
  if (t.renamedColumn !== undefined) await renameLengthCheck(session, t.renamedColumn.table, t.renamedColumn.from, t.renamedColumn.to)
  if (t.rebuild !== undefined) await rebuildTable(session, t.rebuild)
  if (t.constraintNames !== undefined) await recordConstraintNames(session, t.constraintNames.table, t.constraintNames.constraints)
}

/**
 * Runs engine work with HANA's transaction semantics: `commit` is the request's autocommit flag; `batch` runs
 * several engine calls as one unit even in autocommit mode.
 */
export const inTransaction = async <A>(session: Session, commit: boolean, work: () => Promise<A>, batch = false): Promise<A> => {
  const startedHere = (!commit || batch) && !session.inTransaction
  if (startedHere) await session.begin()
  // HANA's default isolation is READ COMMITTED: each statement sees the latest commits.
  else await session.refreshSnapshot()
  try {
    const out = await work()
    if (commit && session.inTransaction) await session.commit()
    return out
  } catch (e) {
    if (startedHere && commit) await session.rollback().catch(() => undefined)
    else if (session.inTransaction) {
      // HANA undoes only the failed statement; the engine restores the transaction (or reports it lost).
      const kept = await session.recoverStatement().catch(() => false)
      if (!kept && !commit) await session.begin().catch(() => undefined)
    }
    throw e
  }
}

/**
 * DDL as HANA runs it by default: the open transaction is committed, the DDL commits on its own, and without
 * autocommit a new transaction follows. With `SET TRANSACTION AUTOCOMMIT DDL OFF` the DDL joins the transaction.
 */
export const runDdl = async (s: SqlSessionState, session: Session, commit: boolean, work: () => Promise<void>): Promise<void> => {
  try {
    if (!s.ddlAutocommit) return await inTransaction(session, commit, work)
    if (session.inTransaction) await session.commit()
    await inTransaction(session, true, work)
    if (!commit) await session.begin()
  } finally {
    s.temporaryTables = await temporaryTablesOf(s, session).catch(() => s.temporaryTables)
  }
}

/**
 * The session's local temporary tables (DuckDB's temp catalog, which other connections cannot read), each in the
 * schema it was created in: other sessions list them in M_TEMPORARY_TABLES (monitoring-views.ts).
 */
const temporaryTablesOf = async (s: SqlSessionState, session: Session): Promise<SqlSessionState["temporaryTables"]> => {
  const rows = await session.queryAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'temp'")
  const known = new Map(s.temporaryTables.map((t) => [t.table, t.schema]))
  return rows.map(([name]) => {
    const table = decodeName(String(name))
    return { schema: known.get(table) ?? s.schema, table }
  })
}
