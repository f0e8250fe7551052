/**
 * A client's DML on a table with triggers, run once per bind row and started over when a row write meets another
 * transaction's change. Its rows are selected and their BEFORE row triggers fired on the statement's snapshot, then
 * each row is written with the values computed there; DuckDB's snapshot is the transaction's, so a row another
 * transaction changed and committed meanwhile would be written with stale values. Oracle instead restarts such a
 * statement on the current rows, firing its BEFORE row triggers again (T. Kyte, Expert Oracle Database Architecture,
 * "Concurrency and Multiversioning", "Seeing a Restart"), and so does the session: the bind row's run is undone and
 * run again on a fresh snapshot (session-transaction.ts {@link WriteConflictRestart}).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { OraError } from "./errors.ts"
import type { TriggeredResult } from "./plsql/triggers.ts"
import { WriteConflictRestart } from "./session-transaction.ts"

/** What restarting needs from the session. */
export interface TriggeredRowsHost {
  /** Runs the statement for one bind row (its writes undone when it fails); a conflict fails with {@link WriteConflictRestart}. */
  runOne(row: ReadonlyArray<DuckDBValue>): Promise<TriggeredResult>
  /** Waits for a transaction end (or a short while) before a second restart, so an open conflicting transaction is waited for. */
  waitBeforeRestart(): Promise<void>
}

/** Runs the statement for each bind row of `rows` (once without binds), restarting a row's run after a write conflict. */
export const runTriggeredRows = async (host: TriggeredRowsHost, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<TriggeredResult> => {
  let count = 0
  let returning: Array<Array<unknown>> | undefined
  const list = rows.length === 0 ? [[]] : rows
  for (let i = 0; i < list.length; i++) {
    let done: TriggeredResult | undefined
    for (let restarts = 0; done === undefined; restarts++) {
      try {
        done = await host.runOne(list[i]!)
      } catch (e) {
        if (!(e instanceof WriteConflictRestart)) {
          if (list.length > 1) (e as OraError & { rowOffset?: number }).rowOffset = i
          throw e
        }
        // the first restart sees a transaction that committed since the snapshot; a second conflict is one still open
        if (restarts > 0) await host.waitBeforeRestart()
      }
    }
    count += done.count
    if (done.returning !== undefined) done.returning.forEach((v, k) => ((returning ??= [])[k] = [...(returning[k] ?? []), ...v]))
  }
  return returning === undefined ? { count } : { count, returning }
}
