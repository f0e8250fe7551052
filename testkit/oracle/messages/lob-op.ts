/**
 * LOB operations (function 96, messages/lobOp.js): length, read, write, trim, chunk size, temporary LOBs and
 * open/close on the locators of ../lobs.ts. Writes through a locator read from a table row update that row.
 */
import { blobValue } from "@duckdb/node-api"
import { ora, OraError } from "../errors.ts"
import type { LobEntry } from "../lobs.ts"
import { lobRowLockedBy } from "../lob-row-locks.ts"
import { rowLobUpdateSql } from "../returning-lobs.ts"
import type { SessionState } from "../session-state.ts"
import { Dty } from "../types.ts"
import type { ReadBuffer, WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"
import { toOra, writeEndOfCall, writeError } from "./end-of-call.ts"

/** LOB operation codes. */
const LobOpCode = {
  GET_LENGTH: 0x0001,
  READ: 0x0002,
  TRIM: 0x0020,
  WRITE: 0x0040,
  GET_CHUNK_SIZE: 0x4000,
  CREATE_TEMP: 0x0110,
  FREE_TEMP: 0x0111,
  OPEN: 0x8000,
  CLOSE: 0x10000,
  IS_OPEN: 0x11000,
  ARRAY: 0x80000
} as const

/** Chunk size reported for every LOB. */
const LOB_CHUNK = 8132

/** Runs one LOB operation. */
export const lobOp = async (s: SessionState, r: ReadBuffer, w: WriteBuffer): Promise<void> => {
  const srcPtr = r.u8()
  const srcLen = r.ub()
  r.u8()
  r.ub() // dest length
  r.ub()
  r.ub()
  r.u8()
  r.u8()
  r.u8()
  const op = r.ub()
  r.u8()
  r.u8()
  const srcOffset = r.ub()
  const destOffset = r.ub()
  const sendAmount = r.u8()
  r.u16be()
  r.u16be()
  r.u16be()
  const loc = srcPtr === 1 && srcLen > 0 ? Buffer.from(r.take(srcLen)) : Buffer.alloc(40)
  let data: Buffer | null = null
  if (op === LobOpCode.CREATE_TEMP) r.ub()
  if (r.remaining() > 0 && r.peek() === Msg.LOB_DATA) {
    r.u8()
    data = r.bytesWithLength() ?? Buffer.alloc(0)
  }
  const amount = sendAmount === 1 ? r.ub() : 0
  const entry = s.lobs.get(loc)
  const writeLocParam = (extra: (w: WriteBuffer) => void) => {
    w.u8(Msg.PARAMETER)
    w.raw(loc)
    extra(w)
  }
  const baseOp = op & ~LobOpCode.ARRAY
  if (baseOp === LobOpCode.CREATE_TEMP) {
    const blob = destOffset === Dty.BLOB
    s.lobs.add({ data: blob ? Buffer.alloc(0) : "", blob, temp: true, nchar: srcOffset === 2 }).copy(loc)
    if (srcOffset === 2) loc[6] = 0 // NCLOB data is exchanged in the national character set by the client
    writeLocParam((w) => {
      w.ub(873)
      w.u8(0)
    })
    writeEndOfCall(s, w, 0, 0)
    return
  }
  if (baseOp === LobOpCode.FREE_TEMP) {
    s.lobs.free(loc)
    writeEndOfCall(s, w, 0, 0)
    return
  }
  if (entry === undefined) {
    writeError(s, w, new OraError(22922, "nonexistent LOB value"), 0, 0)
    return
  }
  const writes = baseOp === LobOpCode.WRITE || baseOp === LobOpCode.TRIM
  if (writes && !entry.temp) {
    const refusal = persistentWriteRefusal(s, entry)
    if (refusal !== undefined) {
      writeError(s, w, refusal, 0, 0)
      return
    }
  }
  const before = entry.data
  const length = entry.data.length
  switch (baseOp) {
    case LobOpCode.GET_LENGTH:
      writeLocParam((w) => w.sb(length))
      break
    case LobOpCode.GET_CHUNK_SIZE:
      writeLocParam((w) => w.sb(LOB_CHUNK))
      break
    case LobOpCode.READ: {
      const start = Math.max(0, srcOffset - 1)
      const piece = entry.data.slice(start, start + amount)
      if (piece.length > 0) {
        w.u8(Msg.LOB_DATA)
        w.bytesWithLength(typeof piece === "string" ? (entry.nchar ? Buffer.from(piece, "utf16le").swap16() : Buffer.from(piece, "utf8")) : piece)
      }
      writeLocParam((w) => w.sb(piece.length))
      break
    }
    case LobOpCode.WRITE: {
      const start = Math.max(0, srcOffset - 1)
      if (entry.blob) {
        const add = data ?? Buffer.alloc(0)
        const cur = entry.data as Buffer
        const out = Buffer.alloc(Math.max(cur.length, start + add.length))
        cur.copy(out)
        add.copy(out, start)
        entry.data = out
      } else {
        const raw = data ?? Buffer.alloc(0)
        const add = entry.nchar ? Buffer.from(raw).swap16().toString("utf16le") : raw.toString("utf8")
        const cur = (entry.data as string).padEnd(start, " ")
        entry.data = cur.slice(0, start) + add + cur.slice(start + add.length)
      }
      writeLocParam(() => undefined)
      break
    }
    case LobOpCode.TRIM:
      entry.data = entry.data.slice(0, amount)
      writeLocParam((w) => w.sb(amount))
      break
    case LobOpCode.OPEN:
    case LobOpCode.CLOSE:
      writeLocParam((w) => {
        if (sendAmount === 1) w.sb(amount)
      })
      break
    case LobOpCode.IS_OPEN:
      writeLocParam((w) => w.u8(0))
      break
    default:
      writeError(s, w, ora.unimplemented(`LOB operation ${op}`), 0, 0)
      return
  }
  if (writes && entry.source !== undefined && !entry.temp) {
    try {
      await writeBack(s, entry)
    } catch (e) {
      entry.data = before
      writeError(s, w, toOra(e), 0, 0)
      return
    }
  }
  writeEndOfCall(s, w, 0, 0)
}

/**
 * Why a write through a locator read from a table cannot be done, if it cannot: the row must be locked by the
 * writer's transaction (lob-row-locks.ts), else ORA-22920.
 */
const persistentWriteRefusal = (s: SessionState, entry: LobEntry): OraError | undefined => {
  const src = entry.source
  if (src === undefined) return ora.unimplemented("writing to a LOB locator not read from a table row; bind a temporary LOB, string or Buffer instead")
  if (!lobRowLockedBy(s.db, s.info?.sid ?? -1, src) || s.sql?.transactionInProgress !== true) return new OraError(22920, "row containing the LOB value is not locked")
  return undefined
}

/** Writes a persistent LOB's new content back to its table row, inside the session's transaction. */
const writeBack = async (s: SessionState, entry: LobEntry): Promise<void> => {
  const src = entry.source!
  const value = typeof entry.data === "string" ? (entry.data.length === 0 ? null : entry.data) : blobValue(entry.data)
  await s.sql!.runLogged(rowLobUpdateSql(src), [value, src.rowid])
}
