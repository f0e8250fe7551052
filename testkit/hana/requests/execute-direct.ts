/**
 * EXECUTE_DIRECT: one statement text run without PREPARE.
 */
import type { Session } from "../../engine/index.ts"
import { HanaError } from "../errors.ts"
import { exactLiteralWrites } from "../literal-writes.ts"
import { typedSetOperations } from "../set-operation-types.ts"
import { procedureStatement } from "../procedures/definition.ts"
import { procedureReply } from "../procedures/requests.ts"
import { ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { translate } from "../translate.ts"
import { FunctionCode } from "../wire.ts"
import type { Request } from "../wire.ts"
import { sessionValues } from "../session-state.ts"
import type { SqlSessionState } from "../session-state.ts"
import { procedureHost } from "./procedure-host.ts"
import { outcomeReply } from "./result-sets.ts"
import { sessionCommand } from "./session-command.ts"
import { inTransaction, runDdl, runDdlStatement } from "./transaction.ts"

/** EXECUTE_DIRECT: translates and runs one statement (a procedure statement, a session command, DDL, DML or a query). */
export const executeDirect = async (s: SqlSessionState, session: Session, sql: string, commit: boolean, request: Request): Promise<Reply | undefined> => {
  const procedure = procedureStatement(sql, s.schema)
  if (procedure !== undefined) return procedureReply(procedureHost(s, session), procedure, commit, [])
  const t = translate(await typedSetOperations(session, await exactLiteralWrites(session, sql), sessionValues(s)), sessionValues(s))
  if (t.kind !== "query" && t.kind !== "dml" && t.kind !== "ddl") return sessionCommand(s, session, t, commit)
  if (t.params > 0) throw HanaError.syntax("parameters are only allowed in prepared statements", 0)
  if (t.kind === "ddl") {
    await runDdl(s, session, commit, () => runDdlStatement(session, t))
    return ok(FunctionCode.DDL)
  }
  const lockKeys = t.kind === "dml" ? t.lockKeys : undefined
  const outcome = await inTransaction(session, commit, () =>
    s.rowLocks.runInsert(lockKeys, [], () => s.rowLocks.run(t.lockRows, [], () => session.run(t.sql)))
  )
  return outcomeReply(s, session, t, outcome, undefined, request)
}
