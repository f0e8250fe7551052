/**
 * CLIENT_INFO: session context key/values (APPLICATION, …) sent with a request, read by SESSION_CONTEXT.
 */
import { fromCesu8 } from "../cesu8.ts"
import { MalformedPacket } from "../wire.ts"
import type { RequestPart } from "../wire.ts"
import type { SqlSessionState } from "../session-state.ts"

/** Applies a CLIENT_INFO part: a text list of key, value pairs (length 255 = NULL value = remove). */
export const updateContext = (s: SqlSessionState, part: RequestPart): void => {
  const b = part.data
  let o = 0
  const texts: Array<string | null> = []
  while (o < b.length) {
    let len = b[o]!
    o += 1
    if (len === 255) {
      texts.push(null)
      continue
    }
    if (len === 246) {
      len = b.readUInt16LE(o)
      o += 2
    }
    if (o + len > b.length) throw new MalformedPacket("CLIENT_INFO truncated")
    texts.push(fromCesu8(b.subarray(o, o + len)))
    o += len
  }
  for (let i = 0; i + 1 < texts.length; i += 2) {
    const key = texts[i]
    const value = texts[i + 1]
    if (key === null || key === undefined) continue
    if (value === null || value === undefined || value === "") s.context.delete(key.toUpperCase())
    else s.context.set(key.toUpperCase(), value)
  }
}
