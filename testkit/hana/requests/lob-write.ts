/**
 * WRITE_LOB: LOB data of an execution waiting for it; the execution runs once every LOB is complete.
 */
import type { Session } from "../../engine/index.ts"
import { bindTypes } from "../binding.ts"
import { HanaError } from "../errors.ts"
import { lobValue } from "../params.ts"
import { i32s, ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { FunctionCode, MalformedPacket, PartKind, requestPart } from "../wire.ts"
import type { Request } from "../wire.ts"
import type { SqlSessionState } from "../session-state.ts"
import { inTransaction } from "./transaction.ts"

/** WRITE_LOB: appends the chunks to the waiting execution's LOBs; runs it once all are complete. */
export const writeLob = async (s: SqlSessionState, session: Session, request: Request): Promise<Reply> => {
  const p = requestPart(request, PartKind.WRITE_LOB_REQUEST)
  if (p === undefined) throw new MalformedPacket("WRITE_LOB_REQUEST part missing")
  const pending = s.pending
  if (pending === undefined) throw new HanaError(2, "HY000", "general error: no LOB is being written")
  let o = 0
  const b = p.data
  for (let i = 0; i < p.argc; i++) {
    if (o + 21 > b.length) throw new MalformedPacket("WRITE_LOB_REQUEST truncated")
    const locator = b.subarray(o, o + 8).toString("hex")
    const options = b[o + 8]!
    const len = b.readInt32LE(o + 17)
    const data = b.subarray(o + 21, o + 21 + len)
    o += 21 + len
    const lob = pending.locators.get(locator)
    if (lob === undefined) throw new HanaError(603, "HY000", "invalid LOB: unknown locator")
    lob.chunks.push(Buffer.from(data))
    if (options & 4) lob.done = true
  }
  if (![...pending.locators.values()].every((l) => l.done)) return ok(FunctionCode.NIL, [{ kind: PartKind.WRITE_LOB_REPLY, argc: 0, data: Buffer.alloc(0) }])
  s.pending = undefined
  const values = [...pending.row.values]
  for (const lob of pending.locators.values()) values[lob.index] = lobValue(lob)
  const t = pending.statement.translated
  const outcome = await inTransaction(session, false, () => pending.statement.prepared!.run(values, bindTypes(values)))
  const n = outcome.kind === "changed" ? outcome.rowsAffected : 0
  return ok(t.kind === "dml" ? t.functionCode : FunctionCode.NIL, [
    { kind: PartKind.WRITE_LOB_REPLY, argc: 0, data: Buffer.alloc(0) },
    { kind: PartKind.ROWS_AFFECTED, argc: 1, data: i32s([n]) }
  ])
}
