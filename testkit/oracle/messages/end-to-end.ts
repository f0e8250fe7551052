/**
 * The SET_END_TO_END_ATTR piggyback (function 135, node-oracledb messages/base.js _writeEndToEndPiggybacks): the
 * tracing attributes the client changed since its last call (connection.clientId, module, action, ecid, clientInfo,
 * dbOp), each a pointer and a length, then the non-empty values in the same order. A pointer with length 0 clears
 * the attribute.
 */
import { setTraceAttributes, type TraceAttribute } from "../application-info.ts"
import type { SessionState } from "../session-state.ts"
import type { ReadBuffer } from "../wire.ts"

/** Reads the piggyback's body (after its header) and returns its effect: the attributes set on the session. */
export const readEndToEndAttributes = (s: SessionState, r: ReadBuffer): (() => Promise<void>) => {
  r.u8() // pointer (cidnam)
  r.u8() // pointer (cidser)
  r.ub() // flags
  const fields: Array<{ name: TraceAttribute; sent: boolean; length: number }> = []
  const field = (name: TraceAttribute) => {
    const sent = r.u8() === 1
    const length = r.ub()
    fields.push({ name, sent, length })
  }
  field("clientIdentifier")
  field("module")
  field("action")
  field("ecid")
  r.u8() // cidcct
  r.ub() // cidecs
  field("clientInfo")
  r.u8() // pointer (cideci)
  r.ub() // length (cideci)
  r.u8() // cidcct
  r.ub() // cidecs
  field("dbOp")
  const changes: Partial<Record<TraceAttribute, string | null>> = {}
  for (const f of fields) {
    if (!f.sent) continue
    changes[f.name] = f.length > 0 ? (r.bytesWithLength()?.toString("utf8") ?? null) : null
  }
  return async () => {
    if (s.sql !== undefined && s.info !== undefined) await setTraceAttributes(s.info, s.sql.engine, changes)
  }
}
