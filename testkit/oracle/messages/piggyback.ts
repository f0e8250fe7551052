/**
 * Piggybacked functions that precede a request (messages/base.js writePiggybacks): close and cancel cursors, set
 * the current schema, end-to-end attributes, application contexts, alter-session values, freeing temporary LOBs and
 * the start of a request pipeline.
 */
import { cancelResult } from "../cursors.ts"
import { OraError } from "../errors.ts"
import type { SessionState } from "../session-state.ts"
import type { ReadBuffer } from "../wire.ts"
import { readAppContext } from "./app-context.ts"
import { Fn } from "./constants.ts"
import { readEndToEndAttributes } from "./end-to-end.ts"
import { readPipelineBegin } from "./pipeline.ts"

/** Reads and applies one piggyback (after its message type byte). */
export const runPiggyback = (s: SessionState, r: ReadBuffer): Promise<void> => readPiggyback(s, r)()

/** Reads one piggyback (after its message type byte) and returns its effect, not yet applied. */
export const readPiggyback = (s: SessionState, r: ReadBuffer): (() => Promise<void>) => {
  const fn = r.u8()
  r.u8()
  if (s.fieldVersion >= 18) r.ub()
  switch (fn) {
    case Fn.CLOSE_CURSORS:
    case Fn.CANCEL_CURSORS: {
      r.u8()
      const n = r.ub()
      const ids: Array<number> = []
      for (let i = 0; i < n; i++) ids.push(r.ub())
      return async () => {
        for (const id of ids) {
          const cursor = s.cursors.get(id)
          if (cursor !== undefined) cancelResult(cursor)
          if (fn === Fn.CLOSE_CURSORS) s.cursors.delete(id)
        }
      }
    }
    case Fn.SET_SCHEMA: {
      r.u8()
      const len = r.ub()
      const name = len > 0 ? (r.bytesWithLength()?.toString("utf8") ?? "") : ""
      return async () => {
        if (s.sql !== undefined && name.length > 0) await s.sql.ddl(`ALTER SESSION SET CURRENT_SCHEMA = "${name.replace(/"/g, "")}"`)
      }
    }
    case Fn.PIPELINE_BEGIN:
      return readPipelineBegin(s, r)
    case Fn.SET_END_TO_END_ATTR:
      return readEndToEndAttributes(s, r)
    case Fn.APP_CONTEXT:
      return readAppContext(s, r)
    case Fn.ALTSESS:
      return readAlterSession(r)
    case Fn.LOB_OP: {
      const locators = readTemporaryLobs(r)
      return async () => {
        for (let o = 0; o + 40 <= locators.length; o += 40) s.lobs.free(locators.subarray(o, o + 40))
      }
    }
    default:
      throw new OraError(3001, `unimplemented feature: piggyback function ${fn}`)
  }
}

/**
 * ALTSESS (function 204, messages/base.js _writeAltSessPiggyback): alter-session key/values, today only
 * TXN_PRIORITY (connection.txnPriority, Oracle AI Database 26ai). Read and accepted: the server has no transaction
 * priorities (transactions do not preempt each other's row locks).
 */
const readAlterSession = (r: ReadBuffer): (() => Promise<void>) => {
  r.ub() // flags
  r.u8() // pointer (key values)
  const n = r.ub()
  for (let i = 0; i < n; i++) r.keyValue()
  return async () => {}
}

/** The locators of a LOB op FREE_TEMP | ARRAY (40 bytes each), to be freed. */
const readTemporaryLobs = (r: ReadBuffer): Buffer => {
  r.u8()
  const total = r.ub()
  r.u8()
  r.ub()
  r.ub()
  r.ub()
  r.u8()
  r.u8()
  r.u8()
  r.ub()
  r.u8()
  r.ub()
  r.ub()
  r.ub()
  r.u8()
  r.u8()
  r.ub()
  r.u8()
  r.ub()
  r.u8()
  r.ub()
  return r.take(total)
}
