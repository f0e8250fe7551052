/**
 * What a procedure statement (procedures/requests.ts) needs from the SQL session.
 */
import type { Session } from "../../engine/index.ts"
import { procedureStore } from "../procedures/registry.ts"
import type { ProcedureHost } from "../procedures/requests.ts"
import { OpenResult } from "../results.ts"
import { registerLob, sessionValues } from "../session-state.ts"
import type { SqlSessionState } from "../session-state.ts"
import { resultSetParts } from "./result-sets.ts"
import { inTransaction, runDdl } from "./transaction.ts"

/** What a procedure statement (procedures/requests.ts) needs from this session. */
export const procedureHost = (s: SqlSessionState, session: Session): ProcedureHost => {
  return {
    call: { session, values: sessionValues(s), dfv: s.dfv },
    store: procedureStore(s.ctx.engine),
    runDdl: (commit, work) => runDdl(s, session, commit, work),
    inTransaction: (commit, work) => inTransaction(session, commit, work, true),
    resultSetParts: (r) => resultSetParts(s, r.cursor, r.columns),
    firstRow: async (r) => {
      const result = new OpenResult(0n, r.cursor, r.columns, (value, kind) => registerLob(s, value, kind))
      const row = await result.fetch(1)
      result.close()
      return row.data
    }
  }
}
