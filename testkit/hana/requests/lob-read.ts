/**
 * READ_LOB: a chunk of a LOB sent by locator.
 */
import { cesu8 } from "../cesu8.ts"
import { HanaError } from "../errors.ts"
import { ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { FunctionCode, MalformedPacket, PartKind, requestPart } from "../wire.ts"
import type { Request } from "../wire.ts"
import type { SqlSessionState } from "../session-state.ts"

/** READ_LOB: the requested range of a LOB (characters of a character LOB, bytes of a BLOB), flagged last at its end. */
export const readLob = (s: SqlSessionState, request: Request): Reply => {
  const p = requestPart(request, PartKind.READ_LOB_REQUEST)
  if (p === undefined || p.data.length < 20) throw new MalformedPacket("READ_LOB_REQUEST part missing")
  const locator = p.data.subarray(0, 8)
  const offset = Number(p.data.readBigInt64LE(8))
  const length = p.data.readInt32LE(16)
  const lob = s.lobs.get(locator.toString("hex"))
  if (lob === undefined) throw new HanaError(603, "HY000", "invalid LOB: unknown locator")
  let chunk: Buffer
  let last: boolean
  if (typeof lob.value === "string") {
    const start = Math.max(0, offset - 1)
    const end = Math.min(lob.value.length, start + length)
    chunk = cesu8(lob.value.slice(start, end))
    last = end >= lob.value.length
  } else {
    const start = Math.max(0, offset - 1)
    const end = Math.min(lob.value.length, start + length)
    chunk = lob.value.subarray(start, end)
    last = end >= lob.value.length
  }
  const head = Buffer.alloc(16)
  locator.copy(head, 0)
  head[8] = 2 | (last ? 4 : 0)
  head.writeInt32LE(chunk.length, 9)
  return ok(FunctionCode.NIL, [{ kind: PartKind.READ_LOB_REPLY, argc: 1, data: Buffer.concat([head, chunk]) }])
}
