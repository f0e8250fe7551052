/**
 * Describe information (DESCRIBE_INFO, messages/base.js processColumnInfo): one entry per result column with its
 * Oracle type code, size, precision/scale, nullability and name.
 */
import type { SessionState } from "../session-state.ts"
import type { ResultColumn } from "../statement.ts"
import type { WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"

/** Writes a DESCRIBE_INFO message. */
export const writeDescribe = (s: SessionState, w: WriteBuffer, columns: ReadonlyArray<ResultColumn>): void => {
  w.u8(Msg.DESCRIBE_INFO)
  w.u8(0) // chunked bytes (none)
  writeDescribeBody(s, w, columns)
}

/** One column of describe information. */
export const writeColumnInfo = (s: SessionState, w: WriteBuffer, c: ResultColumn, i: number): void => {
  const t = c.type
  w.u8(t.dty)
  w.u8(0)
  w.u8(t.precision & 0xff)
  w.u8(t.scale & 0xff)
  w.ub(t.maxSize)
  w.ub(0) // max array elements
  w.ub(0) // cont flags
  if (t.named !== undefined) {
    w.ub(t.named.oid.length)
    w.bytesWithLength(t.named.oid)
    w.ub(1) // type version
  } else {
    w.ub(0) // OID
    w.ub(0) // version
  }
  w.ub(t.csfrm !== 0 ? (t.csfrm === 2 ? 2000 : 873) : 0)
  w.u8(t.csfrm)
  w.ub(t.charSize)
  if (s.fieldVersion >= 8) w.ub(0) // oaccolid
  w.u8(c.nullable ? 1 : 0)
  w.u8(0)
  w.strWithUb4Length(c.name)
  w.strWithUb4Length(t.named?.schema) // schema of a named type
  w.strWithUb4Length(t.named?.name) // type name
  w.ub(i + 1)
  w.ub(t.kind === "json" ? 0x100 | 0x800 : 0) // uds flags: IS_JSON, IS_OSON
  if (s.fieldVersion >= 17) {
    w.ub(0)
    w.ub(0)
  }
  if (s.fieldVersion >= 20) w.ub(0)
  if (s.fieldVersion >= 24) {
    // vector dimensions (0 + flexible flag when unspecified) and format (0 = flexible)
    const vector = t.kind === "vector"
    w.ub(vector ? t.precision : 0)
    w.u8(vector ? t.scale : 0)
    w.u8(vector && t.precision === 0 ? 1 : 0)
  }
}

/** The describe body (also embedded in implicit results and REF CURSOR values). */
export const writeDescribeBody = (s: SessionState, w: WriteBuffer, columns: ReadonlyArray<ResultColumn>): void => {
  w.ub(columns.reduce((n, c) => n + Math.min(c.type.maxSize, 4000), 0))
  w.ub(columns.length)
  if (columns.length > 0) w.u8(0)
  columns.forEach((c, i) => writeColumnInfo(s, w, c, i))
  w.ub(0) // current date
  w.ub(0)
  w.ub(0)
  w.ub(0)
  w.ub(0)
  w.ub(0)
}
