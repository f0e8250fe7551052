/**
 * Server-side cursors of one session: the statement a cursor id stands for and the result it is fetching, and the
 * counts the server reports (V$OPEN_CURSOR, 'opened cursors current', open results for leak checks).
 */
import type { Chunk, ColumnVector, Cursor } from "../engine/index.ts"
import type { ColumnEncoder } from "./encode.ts"
import type { BindSpec, ResultColumn } from "./statement.ts"
import type { WriteBuffer } from "./wire.ts"

/** A query result being fetched. */
export interface ActiveResult {
  readonly columns: ReadonlyArray<ResultColumn>
  readonly cursor: Cursor
  chunk: Chunk | null
  pos: number
  done: boolean
  sent: number
  encoders: Array<ColumnEncoder>
  /** Rows already encoded ahead of the next FETCH. */
  pending?: { readonly w: WriteBuffer; readonly ends: Array<number>; taken: number } | undefined
  /** Set when the client closed the cursor or it was re-executed. */
  closed?: boolean | undefined
  /** First cursor column holding row ids (QueryResult.rowidColumn), and the row id vectors from it in the current chunk. */
  readonly rowidColumn?: number | undefined
  rowids?: ReadonlyArray<ColumnVector> | undefined
  /**
   * Of a query FOR UPDATE SKIP LOCKED, whose rows are locked as they are sent (QueryResult.claimFetchedRow): locks
   * a row given its row ids (those from {@link rowidColumn} on), false when another transaction holds it.
   */
  readonly claim?: ((rowids: ReadonlyArray<bigint | undefined>) => Promise<boolean>) | undefined
}

/** How the client defined one result column: its fetch type, buffer size and, for a LOB, the LOB prefetch length. */
export interface ColumnDefine {
  readonly dty: number
  readonly maxSize: number
  readonly lobPrefetch?: number | undefined
}

/** A cursor id the client holds. */
export interface ServerCursor {
  readonly id: number
  sql: string
  specs: Array<BindSpec>
  directions: Array<number> | undefined
  defines: Array<ColumnDefine> | undefined
  result: ActiveResult | undefined
  dmlRowCounts: boolean
  /** A REF CURSOR or implicit result a PL/SQL call returned, which the client fetches without executing it. */
  readonly returned?: boolean
}

/** A fresh result over an engine cursor. */
export const activeResult = (columns: ReadonlyArray<ResultColumn>, cursor: Cursor, encoders: Array<ColumnEncoder>, rowidColumn?: number, claim?: ActiveResult["claim"]): ActiveResult => ({
  columns,
  cursor,
  chunk: null,
  pos: 0,
  done: false,
  sent: 0,
  encoders,
  rowidColumn,
  claim
})

/** True once the client closed the result or re-executed its cursor. */
export const isClosedResult = (r: ActiveResult): boolean => r.closed === true

/** Closes a result and its engine cursor. */
export const closeResult = (r: ActiveResult): void => {
  r.closed = true
  r.pending = undefined
  r.cursor.close()
}

/** True while a cursor's result still has rows for the client: neither fetched to the end, nor closed, nor cancelled. */
export const hasOpenResult = (c: ServerCursor): boolean =>
  c.result !== undefined && !isClosedResult(c.result) && !(c.result.done && c.result.pending === undefined)

/**
 * Ends a cursor's fetch but keeps the cursor (the client's CANCEL_CURSORS piggyback, sent for a statement it keeps
 * cached): the result is released, a later FETCH fails ORA-01002 until the cursor is executed again.
 */
export const cancelResult = (c: ServerCursor): void => {
  if (c.result !== undefined) closeResult(c.result)
  c.result = undefined
}
