/**
 * OUT values of a call: the IO vector (messages/withData.js processIOVector) with PL/SQL OUT and RETURNING INTO
 * values, REF CURSOR values, and implicit result sets (DBMS_SQL.RETURN_RESULT).
 */
import { writeOutValue } from "../params.ts"
import type { ServerCursor } from "../cursors.ts"
import type { SessionState } from "../session-state.ts"
import type { DmlResult, PlsqlResult, QueryResult } from "../statement.ts"
import { blobType, clobType, Dty, nclobType } from "../types.ts"
import type { WriteBuffer } from "../wire.ts"
import { BindDirection, Msg } from "./constants.ts"
import { writeDescribeBody } from "./describe.ts"
import { writeEndOfCall } from "./end-of-call.ts"

const DEFAULT_SPEC = { dty: Dty.VARCHAR, csfrm: 1, maxSize: 4000 }

const writeIoVectorHeader = (w: WriteBuffer, directions: ReadonlyArray<number>): void => {
  const n = directions.length
  w.u8(Msg.IO_VECTOR)
  w.u8(0)
  w.ub(n % 256)
  w.ub(Math.floor(n / 256))
  w.ub(1)
  w.ub(0)
  w.ub(0) // bit vector
  w.ub(0) // rowid
  for (const d of directions) w.u8(d)
}

/** RETURNING ... INTO values: one array of returned values per OUT bind. */
export const writeReturning = (
  s: SessionState,
  w: WriteBuffer,
  cur: ServerCursor,
  outFlags: ReadonlyArray<boolean>,
  returning: ReadonlyArray<ReadonlyArray<unknown>>,
  returningLobs?: DmlResult["returningLobs"],
  perRow: ReadonlyArray<number> = [returning[0]?.length ?? 0],
  temporary?: DmlResult["returningTemporary"]
): void => {
  writeIoVectorHeader(
    w,
    outFlags.map((f) => (f ? BindDirection.OUT : BindDirection.IN))
  )
  // one ROW_DATA per bind row: node-oracledb thin reads each as the next row's values (withData.js processRowData)
  let first = 0
  for (const count of perRow) {
    writeReturnedRow(s, w, cur, outFlags, returning, returningLobs, first, first + count, temporary)
    first += count
  }
}

/** One bind row's RETURNING values (`returning` positions [from, to)): a ROW_DATA with a count and values per OUT bind. */
const writeReturnedRow = (
  s: SessionState,
  w: WriteBuffer,
  cur: ServerCursor,
  outFlags: ReadonlyArray<boolean>,
  returning: ReadonlyArray<ReadonlyArray<unknown>>,
  returningLobs: DmlResult["returningLobs"],
  from: number,
  to: number,
  temporary?: DmlResult["returningTemporary"]
): void => {
  w.u8(Msg.ROW_DATA)
  let k = 0
  outFlags.forEach((f, i) => {
    if (!f) return
    const lobs = returningLobs?.[k]
    const computed = temporary?.[k] === true
    const values = (returning[k++] ?? []).slice(from, to)
    w.ub(values.length)
    values.forEach((v, n) => {
      const rowid = lobs?.rowids[from + n]
      // a LOB column the DML wrote: a locator of that row's LOB, which the client may write (returning-lobs.ts);
      // a computed one a temporary LOB (results.ts `computed`); any other LOB value a locator that reads it and
      // refuses writes
      const source = lobs === undefined || rowid === undefined ? undefined : { ...lobs.source, rowid }
      const register = (value: string | Uint8Array, blob: boolean) => s.lobs.register(value, blob ? blobType : cur.specs[i]?.csfrm === 2 ? nclobType : clobType, computed, source)
      writeOutValue(w, cur.specs[i] ?? DEFAULT_SPEC, v, s.db.dbOffsetMinutes(), register)
      w.u8(0) // SB4 actual length
    })
  })
}

/** The outcome of a PL/SQL block: OUT binds, implicit results, end of call. */
export const writePlsql = (s: SessionState, w: WriteBuffer, cur: ServerCursor, res: PlsqlResult): void => {
  cur.directions = [...res.directions]
  if (res.directions.length > 0) {
    writeIoVectorHeader(w, res.directions)
    if (res.directions.some((d) => d !== BindDirection.IN)) {
      w.u8(Msg.ROW_DATA)
      res.directions.forEach((d, i) => {
        if (d === BindDirection.IN) return
        const spec = cur.specs[i] ?? DEFAULT_SPEC
        const v = res.values[i]
        if ("maxArrayElements" in spec && spec.maxArrayElements !== undefined) {
          // an array OUT bind: the element count, then each element with its SB4 (withData.js processRowData)
          const elements = Array.isArray(v) ? (v as ReadonlyArray<unknown>) : []
          w.ub(elements.length)
          for (const e of elements) {
            writeOutValue(w, spec, e, s.db.dbOffsetMinutes())
            w.u8(0)
          }
          return
        }
        if (spec.dty === Dty.CURSOR && v !== null && typeof v === "object" && "kind" in v) {
          writeRefCursor(s, w, v as QueryResult)
        } else {
          writeOutValue(w, spec, v === null || (typeof v === "object" && "kind" in (v as object)) ? null : v, s.db.dbOffsetMinutes(), (value, blob) =>
            s.lobs.register(value, blob ? blobType : spec.csfrm === 2 ? nclobType : clobType, true)
          )
        }
        w.u8(0) // SB4 actual length
      })
    }
  }
  if (res.implicit.length > 0) {
    w.u8(Msg.IMPLICIT_RESULTSET)
    w.ub(res.implicit.length)
    for (const q of res.implicit) {
      const c = s.cursorFor("SELECT implicit result", q)
      w.u8(0)
      writeDescribeBody(s, w, q.columns)
      w.ub(c.id)
    }
  }
  writeEndOfCall(s, w, cur.id, 0)
}

/** A REF CURSOR value: its describe information and the cursor id the client fetches from. */
const writeRefCursor = (s: SessionState, w: WriteBuffer, q: QueryResult): void => {
  const c = s.cursorFor("SELECT ref cursor", q)
  w.u8(1)
  writeDescribeBody(s, w, q.columns)
  w.ub(c.id)
}
