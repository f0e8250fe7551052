/**
 * The metadata parts of the HANA wire format: RESULT_SET_METADATA (result columns) and PARAMETER_METADATA (statement
 * parameters). Layouts: hdb lib/protocol/data/ResultSetMetadata.js and ParameterMetadata.js.
 */
import type { WireType } from "./types.ts"
import { ByteWriter } from "./wire.ts"

/** One column of RESULT_SET_METADATA. */
export interface ColumnMetadata {
  readonly nullable: boolean
  readonly wire: WireType
  readonly tableName: string | undefined
  readonly schemaName: string | undefined
  readonly columnName: string
  readonly displayName: string
}

/** Encodes a RESULT_SET_METADATA part body (24 bytes per column, then a text area). */
export const encodeResultSetMetadata = (cols: readonly ColumnMetadata[]): Buffer => {
  const head = new ByteWriter(24 * cols.length + 8)
  const text = new ByteWriter(256)
  const offsets = new Map<string, number>()
  const nameOffset = (s: string | undefined): number => {
    if (s === undefined) return -1
    const known = offsets.get(s)
    if (known !== undefined) return known
    const off = text.pos
    const b = Buffer.from(s, "utf8").subarray(0, 255)
    text.u8(b.length)
    text.bytes(b)
    offsets.set(s, off)
    return off
  }
  for (const c of cols) {
    head.u8(c.nullable ? 2 : 1)
    head.u8(c.wire.code)
    head.i16(c.wire.fraction)
    head.i16(Math.min(c.wire.length, 32767))
    head.zeros(2)
    head.i32(nameOffset(c.tableName))
    head.i32(nameOffset(c.schemaName))
    head.i32(nameOffset(c.columnName))
    head.i32(nameOffset(c.displayName))
  }
  return Buffer.concat([head.result(), text.result()])
}

/** One parameter of PARAMETER_METADATA. */
export interface ParameterMetadata {
  readonly nullable: boolean
  readonly wire: WireType
  /** Parameter name (`:name` parameters), if any. */
  readonly name?: string | undefined
  /** Direction (hdb lib/protocol/common/IoType.js): 1 IN (default), 2 INOUT, 4 OUT. */
  readonly io?: 1 | 2 | 4
}

/** Encodes a PARAMETER_METADATA part body (16 bytes per parameter). */
export const encodeParameterMetadata = (params: readonly ParameterMetadata[]): Buffer => {
  const w = new ByteWriter(16 * params.length + 8)
  const names = new ByteWriter(64)
  for (const p of params) {
    w.u8(p.nullable ? 2 : 1)
    w.u8(p.wire.code)
    w.u8(p.io ?? 1)
    w.u8(0)
    if (p.name === undefined) w.i32(-1)
    else {
      w.i32(names.pos)
      const b = Buffer.from(p.name, "utf8").subarray(0, 255)
      names.u8(b.length)
      names.bytes(b)
    }
    w.i16(Math.min(p.wire.length, 32767))
    w.i16(p.wire.fraction === 32767 ? 32767 : p.wire.fraction)
    w.zeros(4)
  }
  return Buffer.concat([w.result(), names.result()])
}
