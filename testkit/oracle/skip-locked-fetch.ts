/**
 * The rows of a REF CURSOR `FOR UPDATE SKIP LOCKED` as a client fetches them: each row is locked when it is read for
 * the client (its table rows' locks taken then, row-locks.ts `claimFetchedRow`), and a row another transaction holds
 * at that moment is left out, as Oracle locks such a cursor's rows at fetch, not at OPEN (D. Nikiforov, "SKIP LOCKED
 * and the locking moment", http://dnikiforov.blogspot.com/2009/03/skip-locked-and-locking-moment.html: a REF CURSOR
 * opened `FOR ... FOR UPDATE SKIP LOCKED` leaves its rows free until they are printed, and skips the one another
 * session locked meanwhile). A PL/SQL FETCH claims row by row itself (plsql/row-reader.ts).
 */
import type { Chunk, ColumnVector, Cursor } from "../engine/index.ts"
import type { QueryResult } from "./statement.ts"

/** `q` with a cursor that claims each row as it is read, when `q` is a SKIP LOCKED cursor claiming at fetch. */
export const claimingAtFetch = (q: QueryResult): QueryResult => {
  const claim = q.claimFetchedRow
  const at = q.rowidColumn
  return claim === undefined || at === undefined ? q : { ...q, cursor: claimingCursor(q.cursor, at, claim) }
}

/** `cursor` without the rows `claim` refuses (given the row ids its columns from `rowidColumn` hold). */
const claimingCursor = (cursor: Cursor, rowidColumn: number, claim: (rowids: ReadonlyArray<bigint | undefined>) => Promise<boolean>): Cursor => ({
  columns: cursor.columns,
  close: () => cursor.close(),
  next: async (): Promise<Chunk | null> => {
    for (;;) {
      const chunk = await cursor.next()
      if (chunk === null) return null
      const rowids = chunk.columns.slice(rowidColumn)
      const kept: Array<number> = []
      for (let r = 0; r < chunk.rowCount; r++) {
        // an outer join's missing row has no row id
        if (await claim(rowids.map((c) => (c.isNull(r) ? undefined : BigInt(String(c.value(r))))))) kept.push(r)
      }
      if (kept.length === chunk.rowCount) return chunk
      if (kept.length > 0) return { rowCount: kept.length, columns: chunk.columns.map((c) => selectedRows(c, kept)) }
    }
  }
})

/** The rows `rows` (ascending indexes) of `v`, as a vector of their own. */
const selectedRows = (v: ColumnVector, rows: ReadonlyArray<number>): ColumnVector => {
  const stride = v.info.layout === "decimal128" ? 2 : 1
  const src = v.data
  let data = src
  if (src.length > 0) {
    const out = new (src.constructor as new (n: number) => typeof src)(rows.length * stride)
    rows.forEach((r, k) => {
      for (let j = 0; j < stride; j++) out[k * stride + j] = src[r * stride + j]!
    })
    data = out
  }
  let validity: Uint8Array | null = null
  if (v.validity !== null) {
    validity = new Uint8Array(Math.ceil(rows.length / 8))
    rows.forEach((r, k) => {
      if (!v.isNull(r)) validity![k >> 3]! |= 1 << (k & 7)
    })
  }
  return {
    info: v.info,
    length: rows.length,
    validity,
    data,
    isNull: (i) => v.isNull(rows[i]!),
    bytes: (i) => v.bytes(rows[i]!),
    locate: (i) => v.locate(rows[i]!),
    get located() {
      return v.located
    },
    get locatedStart() {
      return v.locatedStart
    },
    string: (i) => v.string(rows[i]!),
    value: (i) => v.value(rows[i]!)
  }
}
