/**
 * Row data for queries (ROW_DATA, FETCH function 5): encodes rows of a cursor's result, ends with ORA-01403 once
 * exhausted, and encodes the next batch ahead while the client decodes the previous one.
 */
import { type ActiveResult, closeResult, isClosedResult, type ServerCursor } from "../cursors.ts"
import type { ColumnVector } from "../../engine/index.ts"
import type { ColumnEncoder } from "../encode.ts"
import { claimSentRow } from "../skip-locked-fetch.ts"
import { ora, type OraError } from "../errors.ts"
import type { Reply, SessionState } from "../session-state.ts"
import { type ReadBuffer, WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"
import { timed } from "../../common/stats.ts"
import { toOra, writeEndOfCall, writeError } from "./end-of-call.ts"

/** FETCH (function 5): the next rows of an open cursor. */
export const fetch = async (s: SessionState, r: ReadBuffer, reply: Reply): Promise<void> => {
  const id = r.ub()
  const n = r.ub()
  const cur = s.cursors.get(id)
  if (cur?.result === undefined) {
    writeError(s, reply.w, ora.fetchOutOfSequence(), id, 0)
    return
  }
  s.callCursor = cur
  const sql = s.sql!
  sql.resumeSql(cur.sql)
  try {
    await writeRows(s, reply, cur, n)
  } finally {
    // a break answered instead of this reply leaves the statement's SQL_ID in V$SESSION
    sql.finishSql(s.breakPending)
  }
}

/** Rows encoded by one call, and the error of the row that could not be encoded, if any (that row is not written). */
interface Encoded {
  readonly n: number
  readonly error?: OraError
}

/**
 * Encodes up to `max` rows of the result into `w` (recording where each row ends when `ends` is given), counted in
 * the server's stats.
 */
const encodeRows = async (s: SessionState, w: WriteBuffer, res: ActiveResult, max: number, ends?: Array<number>): Promise<Encoded> => {
  const encoded = await timed(s.host.stats, "encode", () => encodeRowsUntimed(s, w, res, max, ends))
  s.host.stats.encodedRows += encoded.n
  return encoded
}

const encodeRowsUntimed = async (s: SessionState, w: WriteBuffer, res: ActiveResult, max: number, ends?: Array<number>): Promise<Encoded> => {
  let n = 0
  const start = w.pos
  let sized = false
  while (n < max && !res.done) {
    if (res.chunk === null || res.pos >= res.chunk.rowCount) {
      res.chunk = await res.cursor.next()
      res.pos = 0
      if (res.chunk === null) {
        res.done = true
        break
      }
      if (!sized && n > 0) {
        // more rows follow: room for the rest of the batch (up to 4 MB) at the size of the rows so far, one
        // allocation instead of a doubling per power of two
        sized = true
        w.ensure(Math.min(1 << 22, Math.ceil(((w.pos - start) / n) * (max - n) * 1.125)) + 256)
      }
    }
    const chunk = res.chunk
    const cols = chunk.columns
    const enc = res.encoders
    if (res.rowidColumn !== undefined) res.rowids = cols.slice(res.rowidColumn)
    if (res.claim !== undefined) {
      // FOR UPDATE SKIP LOCKED: each row locked as it is sent, one another transaction holds left out
      for (; res.pos < chunk.rowCount && n < max; res.pos++) {
        if (!(await claimSentRow(res, res.pos))) continue
        const error = writeRow(w, enc, cols, res.pos)
        if (error !== undefined) return { n, error }
        ends?.push(w.pos)
        n++
      }
      if (s.breakPending) throw ora.cancelled()
      continue
    }
    const end = Math.min(chunk.rowCount, res.pos + (max - n))
    for (let i = res.pos; i < end; i++) {
      const error = writeRow(w, enc, cols, i)
      if (error !== undefined) {
        n += i - res.pos
        res.pos = i
        return { n, error }
      }
      ends?.push(w.pos)
    }
    n += end - res.pos
    res.pos = end
    if (s.breakPending) throw ora.cancelled()
  }
  if (!res.done && res.chunk !== null && res.pos >= res.chunk.rowCount) {
    // peek whether more rows exist so the client sees ORA-01403 without another round trip
    const next = await res.cursor.next()
    res.chunk = next
    res.pos = 0
    if (next === null) res.done = true
  }
  return { n }
}

/**
 * Writes row `row` of columns `cols` as a ROW_DATA message with the result's encoders `enc`. A value that cannot be
 * encoded leaves nothing of its row in `w` (the reply ends before it, so that the client reads a whole message) and
 * is returned as the row's error.
 */
const writeRow = (w: WriteBuffer, enc: ReadonlyArray<ColumnEncoder>, cols: ReadonlyArray<ColumnVector>, row: number): OraError | undefined => {
  const rowStart = w.pos
  try {
    w.u8(Msg.ROW_DATA)
    for (let c = 0; c < enc.length; c++) enc[c]!(w, cols[c]!, row)
    return undefined
  } catch (e) {
    w.pos = rowStart
    return toOra(e)
  }
}

/** Sends up to `max` rows of the cursor, then the end of call (ORA-01403 once exhausted). */
export const writeRows = async (s: SessionState, reply: Reply, cur: ServerCursor, max: number): Promise<void> => {
  const w = reply.w
  const res = cur.result!
  let n = 0
  const pending = res.pending
  if (pending !== undefined) {
    // rows encoded ahead while the client was busy with the previous batch
    const k = Math.min(max, pending.ends.length - pending.taken)
    const from = pending.taken === 0 ? 0 : pending.ends[pending.taken - 1]!
    const to = pending.ends[pending.taken + k - 1]!
    if (w.pos === 0 && from === 0 && to === pending.w.pos) w.adopt(pending.w)
    else w.raw(pending.w.buf.subarray(from, to))
    pending.taken += k
    n += k
    if (pending.taken === pending.ends.length) res.pending = undefined
  }
  const encoded = n < max ? await encodeRows(s, w, res, max - n) : { n: 0 }
  n += encoded.n
  if (n > 0) reply.rows = true
  res.sent += n
  if (encoded.error !== undefined) {
    // the rows before the failing one, then the error; the cursor cannot be fetched further (ORA-01002 next time)
    cur.result = undefined
    closeResult(res)
    writeEndOfCall(s, w, cur.id, res.sent, [], encoded.error)
    return
  }
  const exhausted = res.done && res.pending === undefined
  if (exhausted) writeEndOfCall(s, w, cur.id, res.sent, [], ora.noDataFound())
  else {
    writeEndOfCall(s, w, cur.id, res.sent)
    s.prefetchAfterSend = { res, max, bytes: w.pos }
  }
}

/** Encodes the next batch ahead of the client's FETCH (the server has a core of its own when run in a worker). */
export const prefetch = async (s: SessionState): Promise<void> => {
  const p = s.prefetchAfterSend
  s.prefetchAfterSend = undefined
  // the rows of a query locking them as they are sent are not read before the client asks for them
  if (p === undefined || p.res.done || p.res.pending !== undefined || p.res.closed === true || p.res.claim !== undefined || s.breakPending) return
  // sized like the batch just sent (the reply carries it and a few bytes of end of call)
  const w = new WriteBuffer(Math.max(1 << 16, p.bytes + (p.bytes >> 3)))
  const ends: Array<number> = []
  try {
    // a row that cannot be encoded stops the batch before it; the FETCH that reaches it reports its error
    await encodeRows(s, w, p.res, p.max, ends)
  } catch {
    // a break arrived: the rows are simply not prepared (the cursor answers the next FETCH as usual)
    return
  }
  if (ends.length > 0 && !isClosedResult(p.res)) p.res.pending = { w, ends, taken: 0 }
}
