/**
 * CLOSE_RESULT_SET and DROP_STATEMENT_ID: a result set or a prepared statement the client no longer needs is closed.
 */
import { ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import type { SqlSessionState } from "../session-state.ts"
import { FunctionCode, PartKind, requestPart } from "../wire.ts"
import type { Request } from "../wire.ts"

/** CLOSE_RESULT_SET: the result set's cursor is closed (an unknown id is no error). */
export const closeResultSet = (s: SqlSessionState, request: Request): Reply => {
  const idPart = requestPart(request, PartKind.RESULT_SET_ID)
  if (idPart !== undefined && idPart.data.length >= 8) {
    const id = idPart.data.readBigUInt64LE(0)
    s.results.get(id)?.close()
    s.results.delete(id)
  }
  return ok(FunctionCode.NIL)
}

/** DROP_STATEMENT_ID: the prepared statement and its batch statements are closed (an unknown id is no error). */
export const dropStatement = (s: SqlSessionState, request: Request): Reply => {
  const idPart = requestPart(request, PartKind.STATEMENT_ID)
  if (idPart !== undefined && idPart.data.length >= 8) {
    const id = idPart.data.readBigUInt64LE(0)
    const st = s.statements.get(id)
    st?.prepared?.close()
    st?.batches.forEach((p) => p.close())
    s.statements.delete(id)
  }
  return ok(FunctionCode.NIL)
}
