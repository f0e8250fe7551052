/**
 * Key/value PARAMETER messages (the logon replies; messages/auth.js processReturnParameter).
 */
import type { WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"

/** Writes a PARAMETER message of key, value and optional flags triples. */
export const writeKeyValues = (w: WriteBuffer, params: ReadonlyArray<readonly [string, string, number?]>): void => {
  w.u8(Msg.PARAMETER)
  w.ub(params.length)
  for (const [k, v, flags] of params) {
    const kb = Buffer.from(k, "utf8")
    w.ub(kb.length)
    w.bytesWithLength(kb)
    const vb = Buffer.from(v, "utf8")
    w.ub(vb.length)
    if (vb.length > 0) w.bytesWithLength(vb)
    w.ub(flags ?? 0)
  }
}
