/**
 * Bind and define metadata and bind rows of an EXECUTE (messages/withData.js): what the client declares for each
 * variable and the ROW_DATA values it sends, in its wire order.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { readBind } from "../params.ts"
import type { SessionState } from "../session-state.ts"
import type { BindSpec } from "../statement.ts"
import { Dty } from "../types.ts"
import type { ReadBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"

/** Reads one bind or define metadata entry. */
/** The bind metadata flag of an array (PL/SQL index-by table) bind. */
const BIND_ARRAY = 0x40

export const readMetadata = (s: SessionState, r: ReadBuffer): BindSpec => {
  const dty = r.u8()
  const flags = r.u8()
  r.u8()
  r.u8()
  const maxSize = r.ub()
  const maxArrayElements = r.ub()
  r.ub() // cont flags
  const oid = r.ub() > 0 ? r.bytesWithLength() : null
  r.ub() // version
  r.ub() // charset
  const csfrm = r.u8()
  const lobPrefetch = r.ub() // LOB prefetch length (characters of a CLOB, bytes of a BLOB)
  if (s.fieldVersion >= 8) r.ub() // oaccolid
  const plain = lobPrefetch > 0 ? { dty, csfrm, maxSize, lobPrefetch } : { dty, csfrm, maxSize }
  // TNS_BIND_ARRAY: a PL/SQL index-by table bind (oracledb thin withData.js writeColumnMetadata), up to maxArraySize elements
  const spec = (flags & BIND_ARRAY) !== 0 ? { ...plain, maxArrayElements } : plain
  return oid === null ? spec : { ...spec, oid: Buffer.from(oid) }
}

/**
 * Wire order of the bind values in a row: for SQL (not PL/SQL) the client writes binds whose variable size exceeds
 * 32767 last (withData.js writeBindParamsRow). The metadata size is `variable.maxSize || type factor`, scaled by the
 * factor for national character types, so the variable size is recovered from it here.
 */
export const bindOrder = (specs: ReadonlyArray<BindSpec>, plsql: boolean, skip?: ReadonlyArray<boolean>): Array<number> => {
  const variableSize = (b: BindSpec): number => {
    if (b.dty === Dty.JSON || b.dty === 127) return 0
    if (b.maxSize === 0x7fffffff && (b.dty === Dty.LONG || b.dty === Dty.LONG_RAW)) return 0
    if (b.csfrm === 2) return Math.floor(b.maxSize / (b.dty === Dty.CLOB ? 112 : 4))
    return b.maxSize
  }
  const long = specs.map((b) => !plsql && variableSize(b) > 32767)
  const order: Array<number> = []
  for (let i = 0; i < specs.length; i++) if (skip?.[i] !== true && !long[i]) order.push(i)
  for (let i = 0; i < specs.length; i++) if (skip?.[i] !== true && long[i]) order.push(i)
  return order
}

/** Reads one bind row (after its ROW_DATA byte). */
export const readRow = (s: SessionState, r: ReadBuffer, specs: ReadonlyArray<BindSpec>, order: ReadonlyArray<number>): Array<DuckDBValue> => {
  const dbOff = s.db.dbOffsetMinutes()
  const row: Array<DuckDBValue> = new Array(specs.length).fill(null)
  for (const i of order) {
    const spec = specs[i]!
    // an array bind's value: its element count, then each element (withData.js writeBindParamsRow)
    row[i] = spec.maxArrayElements !== undefined ? (Array.from({ length: r.ub() }, () => readBind(r, spec, dbOff, s.lobContent)) as unknown as DuckDBValue) : readBind(r, spec, dbOff, s.lobContent)
  }
  return row
}

/** Reads bind rows (each introduced by ROW_DATA) in the wire order, returned in bind order. */
export const readRows = (s: SessionState, r: ReadBuffer, specs: ReadonlyArray<BindSpec>, plsql: boolean, skip?: ReadonlyArray<boolean>): Array<Array<DuckDBValue>> => {
  const order = bindOrder(specs, plsql, skip)
  const rows: Array<Array<DuckDBValue>> = []
  while (r.remaining() > 0 && r.peek() === Msg.ROW_DATA) {
    r.u8()
    rows.push(readRow(s, r, specs, order))
  }
  return rows
}
