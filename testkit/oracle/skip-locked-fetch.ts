/**
 * The rows of a query `FOR UPDATE SKIP LOCKED` as the client fetches them (a client's own query, a REF CURSOR, a
 * dynamic OPEN FOR): each row is locked when it is sent to the client (its table rows' locks taken then, row-locks.ts
 * `claimFetchedRow`), and a row another transaction holds at that moment is left out. Oracle locks such a cursor's rows
 * as they are fetched, not when it executes or opens (where a plain FOR UPDATE cursor locks all of them): a cursor
 * with SKIP LOCKED locks only the rows a fetch actually read (https://yeahexp.com/select-for-update-skip-locked/), and
 * D. Nikiforov, "SKIP LOCKED and the locking moment"
 * (http://dnikiforov.blogspot.com/2009/03/skip-locked-and-locking-moment.html) opens a REF CURSOR `FOR ... FOR UPDATE
 * SKIP LOCKED`, locks one of its rows from another session and prints the cursor without that row. The SQL Language
 * Reference (SELECT, for_update_clause, "SKIP LOCKED") says which rows are locked and skipped, not when.
 *
 * A row the server sends is fetched: oracledb asks for prefetchRows rows with the execute and fetchArraySize rows per
 * fetch, and those are the rows locked (messages/fetch.ts encodes no row of such a query ahead of the client's fetch).
 * A PL/SQL FETCH claims row by row itself (plsql/row-reader.ts).
 */
import type { ActiveResult } from "./cursors.ts"

/**
 * True when row `row` of the current chunk of `res` may be sent: `res` locks no rows as they are sent, or the row's
 * rows were locked now (they are the session's until its transaction ends); false when another transaction holds one.
 */
export const claimSentRow = (res: ActiveResult, row: number): Promise<boolean> | true => {
  const claim = res.claim
  if (claim === undefined) return true
  // an outer join's missing row has no row id
  return claim((res.rowids ?? []).map((c) => (c.isNull(row) ? undefined : BigInt(String(c.value(row))))))
}
