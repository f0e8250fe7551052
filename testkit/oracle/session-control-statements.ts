/**
 * The statements of a session that control its transaction and its state rather than read or write data: ROLLBACK
 * [WORK] [TO [SAVEPOINT] name], SAVEPOINT name, SET ROLE (role-statements.ts) and LOCK TABLE (session-locking.ts);
 * EXPLAIN PLAN is refused, any other statement is not one Oracle knows (ORA-00900).
 */
import { ora } from "./errors.ts"
import { isKw, significant, tokenize, type Tok } from "./lexer.ts"
import { type StatementResult, stripTerminator } from "./statement.ts"

/** What those statements act on. */
export interface ControlStatementHost {
  /** Rolls the open transaction back. */
  rollback(): Promise<void>
  /** Rolls the open transaction back to savepoint `name`. */
  rollbackTo(name: string): Promise<void>
  /** Marks savepoint `name` in the open transaction. */
  savepoint(name: string): Promise<void>
  /** SET ROLE (`toks`: from SET). */
  setRole(toks: ReadonlyArray<Tok>): Promise<void>
  /** LOCK TABLE `sql`. */
  lockTable(sql: string): Promise<void>
}

/** A savepoint's name as written (quoted: as it is; otherwise upper-cased). */
const savepointName = (m: RegExpExecArray): string => (m[1] === '"' ? m[2]! : m[2]!.toUpperCase())

/** Runs ROLLBACK (statement class `rollback`) or another statement of none of the data classes (`sql`). */
export const runControlStatement = async (host: ControlStatementHost, rollback: boolean, sql: string): Promise<StatementResult> => {
  if (rollback) {
    const to = /^\s*ROLLBACK\s+(?:WORK\s+)?TO\s+(?:SAVEPOINT\s+)?("?)([^"\s;]+)\1\s*;?\s*$/i.exec(sql)
    if (to !== null) await host.rollbackTo(savepointName(to))
    else await host.rollback()
    return { kind: "done" }
  }
  const kw = sql.trim().split(/\s+/)[0]?.toUpperCase() ?? ""
  const sp = /^\s*SAVEPOINT\s+("?)([^"\s;]+)\1\s*;?\s*$/i.exec(sql)
  if (sp !== null) {
    // a savepoint is a position in the replay log of the transaction
    await host.savepoint(savepointName(sp))
    return { kind: "done" }
  }
  if (kw === "SET") {
    const toks = significant(tokenize(stripTerminator(sql)))
    if (isKw(toks[1], "ROLE")) await host.setRole(toks)
    return { kind: "done" }
  }
  if (kw === "LOCK") {
    await host.lockTable(sql)
    return { kind: "done" }
  }
  if (kw === "EXPLAIN") throw ora.unimplemented(kw)
  throw ora.invalidSql()
}
