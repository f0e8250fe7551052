/**
 * Ingest rows gathered into database calls of `redo.statement.insert_batch_rows` rows, whatever the sizes of the
 * Arrow batches they come from: the rows of small batches wait for the next batches' (one executeMany for all), a
 * large batch is split. A call holds either rows encoded by the fast path (IngestEncoder.ts) or JS bind rows for
 * oracledb's own encoder, never both; rows of another INSERT text, other bind types, or (fast path) binds on the
 * other side of the connection's long-string limit start a new call.
 *
 * @since 0.1.0
 */
import type { BindDef } from "./Params.ts"
import type { EncodedBindType } from "./IngestColumns.ts"
import type { EncodedRows } from "./IngestEncoder.ts"

/** Rows encoded by the fast path, in segments (one per piece of an Arrow batch), waiting for one call. */
export interface EncodedCall {
  readonly _tag: "Encoded"
  readonly sql: string
  /** Row of the whole ingest (0-based) that is the call's first. */
  readonly firstRow: number
  rows: number
  readonly segments: Array<EncodedRows>
  readonly types: ReadonlyArray<EncodedBindType>
  /** Per bind, the largest `maxSize` of its segments (strings and bytes; 0 for other types). */
  readonly maxSizes: Array<number>
  /** Per bind, whether it is written after the others (maxSize beyond the connection's long-string limit). */
  readonly long: ReadonlyArray<boolean>
}

/** JS bind rows for oracledb's executeMany, waiting for one call. */
export interface RowsCall {
  readonly _tag: "Rows"
  readonly sql: string
  readonly firstRow: number
  readonly rows: Array<ReadonlyArray<unknown>>
  readonly defs: Array<BindDef>
}

/** The rows of one database call being gathered. @category models @since 0.1.0 */
export type PendingCall = EncodedCall | RowsCall

/** The rows held in a call. @category ingest @since 0.1.0 */
export const callRows = (call: PendingCall): number => call._tag === "Encoded" ? call.rows : call.rows.length

/**
 * Whether encoded rows of `types` and `long` binds can join `call`: the same INSERT text and bind types, and every
 * long bind long in both (the wire order of a row depends on it, EncodedBinds.ts `wireOrder`).
 *
 * @category ingest
 * @since 0.1.0
 */
export const joinsEncoded = (
  call: PendingCall,
  sql: string,
  types: ReadonlyArray<EncodedBindType>,
  long: ReadonlyArray<boolean>
): call is EncodedCall =>
  call._tag === "Encoded" && call.sql === sql && call.types.length === types.length &&
  call.types.every((t, i) => t === types[i] && call.long[i] === long[i])

/**
 * Whether JS bind rows with bind definitions `defs` can join `call`: the same INSERT text, bind types and
 * directions.
 *
 * @category ingest
 * @since 0.1.0
 */
export const joinsRows = (call: PendingCall, sql: string, defs: ReadonlyArray<BindDef>): call is RowsCall =>
  call._tag === "Rows" && call.sql === sql && call.defs.length === defs.length &&
  call.defs.every((d, i) => d.type === defs[i]!.type && d.dir === defs[i]!.dir)

/** Adds encoded rows to a call, widening its binds' sizes to theirs. @category ingest @since 0.1.0 */
export const addEncoded = (call: EncodedCall, rows: EncodedRows, maxSizes: ReadonlyArray<number>): void => {
  call.segments.push(rows)
  call.rows += rows.rows
  for (let i = 0; i < maxSizes.length; i++) call.maxSizes[i] = Math.max(call.maxSizes[i]!, maxSizes[i]!)
}

/** Adds JS bind rows to a call, widening its binds' sizes to theirs. @category ingest @since 0.1.0 */
export const addRows = (call: RowsCall, rows: ReadonlyArray<ReadonlyArray<unknown>>, defs: ReadonlyArray<BindDef>): void => {
  for (const row of rows) call.rows.push(row)
  defs.forEach((d, i) => {
    const size = d.maxSize
    if (size === undefined) return
    const held = call.defs[i]!
    if (held.maxSize === undefined || held.maxSize < size) call.defs[i] = { ...held, maxSize: size }
  })
}

/** A call's encoded rows as one buffer with row offsets (its segments joined). @category ingest @since 0.1.0 */
export const joinedRows = (call: EncodedCall): EncodedRows => {
  if (call.segments.length === 1) return call.segments[0]!
  const bytes = Buffer.concat(call.segments.map((s) => s.bytes.subarray(0, s.offsets[s.rows]!)))
  const offsets = new Uint32Array(call.rows + 1)
  let row = 0
  let base = 0
  for (const s of call.segments) {
    for (let i = 0; i < s.rows; i++) offsets[row++] = base + s.offsets[i]!
    base += s.offsets[s.rows]!
  }
  offsets[row] = base
  return { rows: call.rows, bytes, offsets }
}
