/**
 * FETCH_NEXT: the next rows of an open result set.
 */
import { HanaError } from "../errors.ts"
import { ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { FunctionCode, MalformedPacket, PartKind, requestPart } from "../wire.ts"
import type { Request } from "../wire.ts"
import type { SqlSessionState } from "../session-state.ts"
import { fetchRows } from "./result-sets.ts"

/** FETCH_NEXT: up to the client's fetch size of rows; the result set closes after its last row. */
export const fetchNext = async (s: SqlSessionState, request: Request): Promise<Reply | undefined> => {
  const idPart = requestPart(request, PartKind.RESULT_SET_ID)
  const sizePart = requestPart(request, PartKind.FETCH_SIZE)
  if (idPart === undefined || idPart.data.length < 8) throw new MalformedPacket("RESULT_SET_ID part missing")
  const id = idPart.data.readBigUInt64LE(0)
  const result = s.results.get(id)
  if (result === undefined) throw HanaError.invalidResultSet()
  const size = sizePart !== undefined && sizePart.data.length >= 4 ? Math.max(1, sizePart.data.readInt32LE(0)) : 1024
  const rows = await fetchRows(s, result, size)
  if (rows.last) {
    result.close()
    s.results.delete(id)
  }
  const reply = ok(FunctionCode.FETCH, [
    { kind: PartKind.RESULT_SET, attributes: rows.last ? (rows.rows === 0 ? 25 : 17) : 0, argc: rows.rows, data: rows.data }
  ])
  if (s.ctx.faults.dropMidResult) {
    await s.sendPartial(request, reply)
    return undefined
  }
  return reply
}
