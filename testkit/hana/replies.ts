/**
 * Reply segments and the parts every handler needs (ROWS_AFFECTED, ids, ERROR).
 */
import type { HanaError } from "./errors.ts"
import { PartKind, SegmentKind } from "./wire.ts"
import type { ReplyPart } from "./wire.ts"

/** A reply segment before encoding. */
export type Reply = { kind: number; functionCode: number; parts: ReplyPart[] }

/** A successful reply with a function code. */
export const ok = (functionCode: number, parts: ReplyPart[] = []): Reply => ({ kind: SegmentKind.REPLY, functionCode, parts })

/** 8-byte little-endian id (statement, result set). */
export const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64LE(v, 0)
  return b
}

/** i32 array (ROWS_AFFECTED). */
export const i32s = (values: readonly number[]): Buffer => {
  const b = Buffer.alloc(values.length * 4)
  values.forEach((v, i) => b.writeInt32LE(v, i * 4))
  return b
}

/** ERROR part: code, position, text length, level, SQLSTATE, text. */
export const errorPart = (e: HanaError): ReplyPart => {
  const text = Buffer.from(e.message, "utf8")
  const b = Buffer.alloc(18 + text.length)
  b.writeInt32LE(e.code, 0)
  b.writeInt32LE(e.position, 4)
  b.writeInt32LE(text.length, 8)
  b.writeInt8(e.level, 12)
  b.write(e.sqlState.padEnd(5).slice(0, 5), 13, "ascii")
  text.copy(b, 18)
  return { kind: PartKind.ERROR, argc: 1, data: b }
}

/** An ERROR reply for a failed (batch) execution: the error plus -3 (EXECUTION_FAILED) for each row. */
export const failedRows = (err: HanaError, functionCode: number, rows: number): Reply => ({
  kind: SegmentKind.ERROR,
  functionCode,
  parts: [errorPart(err), { kind: PartKind.ROWS_AFFECTED, argc: rows, data: i32s(Array.from({ length: rows }, () => -3)) }]
})

/**
 * An ERROR reply for a batch whose row `failedRow` (0-based) was rejected: rows before it report 1, it and the rows
 * after it -3 (EXECUTION_FAILED), so that the client can tell which row failed.
 */
export const failedAtRow = (err: HanaError, functionCode: number, rows: number, failedRow: number): Reply => ({
  kind: SegmentKind.ERROR,
  functionCode,
  parts: [errorPart(err), {
    kind: PartKind.ROWS_AFFECTED,
    argc: rows,
    data: i32s(Array.from({ length: rows }, (_, row) => (row < failedRow ? 1 : -3)))
  }]
})
