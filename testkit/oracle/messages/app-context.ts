/**
 * Application contexts (oracledb `appContext`): the APP_CONTEXT piggyback (function 154, node-oracledb
 * messages/base.js _writeApplicationContextPiggyback) that connection.appContext() / clearAppContext() send with the
 * next call, and the AUTH_APPCTX_NSPACE / _ATTR / _VALUE triples of the logon (messages/auth.js) for the
 * `appContext` connect option. SYS_CONTEXT(namespace, attribute) reads them (application-info.ts).
 */
import { type ContextChange, setApplicationContexts } from "../application-info.ts"
import type { SessionState } from "../session-state.ts"
import type { ReadBuffer } from "../wire.ts"

/** Flags of the piggyback: set the entries, clear the namespace first. */
const SET_CONTEXT = 0x01
const CLEAR_CONTEXT = 0x02

/** Reads the piggyback's body (after its header) and returns its effect: the namespace's entries set or cleared. */
export const readAppContext = (s: SessionState, r: ReadBuffer): (() => Promise<void>) => {
  const hasNamespace = r.u8() === 1
  if (hasNamespace) r.ub() // namespace length
  r.u8() // pointer (key values)
  const n = r.ub()
  const flags = r.ub()
  r.u8()
  const namespace = r.bytesWithLength()?.toString("utf8") ?? ""
  const entries: Array<readonly [string, string]> = []
  for (let i = 0; i < n; i++) {
    const kv = r.keyValue()
    entries.push([kv.key, kv.value])
  }
  const change: ContextChange = { namespace, clear: (flags & CLEAR_CONTEXT) !== 0, entries: (flags & SET_CONTEXT) !== 0 ? entries : [] }
  return async () => {
    if (s.sql !== undefined && s.info !== undefined) await setApplicationContexts(s.info, s.sql.engine, [change])
  }
}

/** The application contexts of a logon's key/value pairs, in order (a namespace, attribute, value triple each). */
export const logonAppContexts = (pairs: ReadonlyArray<{ readonly key: string; readonly value: string }>): Array<ContextChange> => {
  const changes: Array<ContextChange> = []
  let namespace: string | undefined
  let attribute: string | undefined
  for (const { key, value } of pairs) {
    if (key === "AUTH_APPCTX_NSPACE") namespace = value
    else if (key === "AUTH_APPCTX_ATTR") attribute = value
    else if (key === "AUTH_APPCTX_VALUE" && namespace !== undefined && attribute !== undefined) {
      changes.push({ namespace, clear: false, entries: [[attribute, value]] })
      namespace = attribute = undefined
    }
  }
  return changes
}
