/**
 * Statements that act on the session rather than on data: savepoints, COMMIT / ROLLBACK as SQL, SET SCHEMA, SET
 * TRANSACTION, ALTER SYSTEM CANCEL / DISCONNECT SESSION, user and security administration.
 */
import type { Session } from "../../engine/index.ts"
import { HanaError } from "../errors.ts"
import { runExplainPlan } from "../explain-plan.ts"
import { sessionContextSql } from "../monitoring-views.ts"
import { encodeName, quoteString } from "../names.ts"
import { ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import type { Translated } from "../translated.ts"
import { FunctionCode } from "../wire.ts"
import type { SqlSessionState } from "../session-state.ts"
import { inTransaction } from "./transaction.ts"

/** A schema name as one entry of DuckDB's comma-separated `search_path` (double-quoted, quotes doubled). */
const quoteIdentifierInPath = (name: string): string => `"${name.replaceAll('"', '""')}"`

/** Sets the current schema (SET SCHEMA, and the user's default schema at login). */
export const applySchema = async (s: SqlSessionState, session: Session, schema: string): Promise<void> => {
  const exists = await session.queryAll(`SELECT 1 FROM duckdb_schemas() WHERE database_name = current_database() AND schema_name = ?`, [
    encodeName(schema)
  ])
  if (exists.length === 0) throw HanaError.invalidSchema(schema)
  // SYS after the current schema: its views answer unqualified (TABLES, TABLE_COLUMNS, M_DATABASE, ...) as HANA's public
  // synonyms do, unless the current schema has an object of that name.
  const path = `${quoteIdentifierInPath(encodeName(schema))},SYS`
  await session.execute(`SET search_path = ${quoteString(path)}; SET VARIABLE hana_schema = ${quoteString(schema)}`)
  s.schema = schema
}

const savepointAction = async (action: () => Promise<void>): Promise<void> => {
  try {
    await action()
  } catch (e) {
    throw HanaError.general(e instanceof Error ? e.message : String(e))
  }
}

const requireAdmin = (s: SqlSessionState, what: string): void => {
  if (s.user !== "SYSTEM") throw HanaError.privilege(what)
}

/** Runs a statement that acts on the session (savepoints, schema, transaction settings, cancels, users, security). */
export const sessionCommand = async (s: SqlSessionState, session: Session, t: Translated, commit: boolean): Promise<Reply> => {
  switch (t.kind) {
    case "savepoint":
      // In autocommit mode there is no transaction to mark, as on HANA the savepoint has no effect.
      if (t.action === "set") await inTransaction(session, commit, async () => session.savepoint(t.name))
      else if (t.action === "rollback") await savepointAction(() => session.rollbackToSavepoint(t.name))
      else await savepointAction(async () => session.releaseSavepoint(t.name))
      return ok(FunctionCode.DDL)
    case "commit":
      await session.commit()
      return ok(FunctionCode.DDL)
    case "rollback":
      await session.rollback()
      return ok(FunctionCode.DDL)
    case "setSchema":
      await applySchema(s, session, t.schema)
      return ok(FunctionCode.DDL)
    case "sessionVariable":
      if (t.value === undefined) s.context.delete(t.key.toUpperCase())
      else s.context.set(t.key.toUpperCase(), t.value)
      await session.execute(sessionContextSql(s.context))
      return ok(FunctionCode.DDL)
    case "ddlAutocommit":
      s.ddlAutocommit = t.on
      return ok(FunctionCode.DDL)
    case "lockTable":
      // the tables' rows, locked until the transaction ends (autocommit: at once released); an unknown table fails 259
      await inTransaction(session, commit, () =>
        s.rowLocks.run(t.targets, [], async () => {
          for (const target of t.targets) await session.queryAll(`${target.sql} LIMIT 0`)
        })
      )
      return ok(FunctionCode.DDL)
    case "explainPlan":
      await inTransaction(session, commit, () => runExplainPlan(session, t, { database: s.ctx.options.databaseName, connectionId: s.connectionId }))
      return ok(FunctionCode.DDL)
    case "lockWaitTimeout":
      s.rowLocks.lockWaitMs = t.ms
      return ok(FunctionCode.DDL)
    case "cancelSession": {
      requireAdmin(s, "ALTER SYSTEM requires SYSTEM")
      const target = s.ctx.connections.get(t.connectionId)
      if (target === undefined) throw new HanaError(2, "HY000", `general error: session ${t.connectionId} does not exist`)
      if (t.disconnect) void target.close()
      else {
        s.ctx.stats.cancels++
        target.cancel()
      }
      return ok(FunctionCode.DDL)
    }
    case "createUser": {
      requireAdmin(s, "CREATE USER requires SYSTEM")
      if (s.ctx.users.has(t.user)) throw new HanaError(331, "HY000", `user name already exists: ${t.user}`)
      await s.ctx.addUser({ name: t.user, password: t.password })
      return ok(FunctionCode.DDL)
    }
    case "identity":
      requireAdmin(s, "security administration requires SYSTEM")
      // Security statements are DDL: they commit the open transaction. The store itself is never rolled back.
      if (session.inTransaction) await session.commit()
      await s.ctx.administer(t.command)
      return ok(FunctionCode.DDL)
    case "dropUser":
      requireAdmin(s, "DROP USER requires SYSTEM")
      await s.ctx.dropUser(t.user)
      return ok(FunctionCode.DDL)
    default:
      return ok(FunctionCode.DDL)
  }
}
