/**
 * MERGE into a table with triggers (SQL Language Reference 23ai, "MERGE": the UPDATE triggers fire for the rows the
 * merge_update_clause changes, the INSERT triggers for the rows merge_insert_clause inserts, and "If the MERGE
 * statement deletes a row, any delete triggers defined on the target table will be activated for each row deletion").
 * Here a MERGE becomes (merge-parts.ts) its UPDATE of the matched rows (`UPDATE t a SET col = (SELECT expr FROM source WHERE on), ...
 * WHERE EXISTS (SELECT 1 FROM source WHERE on [AND where])`), then its INSERT of the source rows no target row matches
 * (`INSERT INTO t (cols) SELECT values FROM source WHERE NOT EXISTS (SELECT 1 FROM t a WHERE on) [AND where]`), each
 * run row by row as a triggered statement (triggers.ts). DELETE WHERE is checked for each row right after its UPDATE
 * (`DELETE FROM t a WHERE ROWID = r AND EXISTS (SELECT 1 FROM source WHERE on [AND where] AND (delete_cond))`), its
 * DELETE triggers firing then, before the next row's UPDATE triggers and the inserted rows' (Data Warehousing Guide,
 * "Using the DELETE Clause with MERGE Statements": "when a row is updated in products, Oracle checks the delete
 * condition ... and deletes the row if the condition yields true"; "updated id 3, deleted id 3, inserted id 4" in
 * https://www.salvis.com/blog/2022/07/31/deleting-rows-with-merge/); the rows it deletes leave the table after the
 * INSERT, whose NOT EXISTS must still see them matched (no row trigger can read the mutating table meanwhile). The
 * bind values follow their binds into each. The statement triggers of every event the MERGE names fire once around all
 * of them, BEFORE ones first, whether or not rows are written for that event (as a MERGE that names an UPDATE fires
 * the UPDATE statement triggers though no row matches).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "../catalog.ts"
import { type OraError, ora } from "../errors.ts"
import { duckIdent } from "../names.ts"
import { rowidText } from "../rowid-bytes.ts"
import type { Trigger } from "./trigger-definitions.ts"
import { fireStatementTriggers, runWithTriggers, type TriggeredResult, type TriggerSession } from "./triggers.ts"
import { mergeParts } from "./merge-parts.ts"

/**
 * Runs a client's MERGE into `meta`, which has `triggers`, once per bind row of `rows`: the BEFORE statement triggers
 * of its events, its UPDATE (each row followed by its DELETE WHERE) and INSERT row by row, then the AFTER statement triggers, undone together when one
 * fails; the rows merged (updated or inserted) in all. A failure is mapped by `mapError` and, in a batch, names its
 * bind row (`rowOffset`).
 */
export const runMergeWithTriggers = async (
  s: TriggerSession,
  meta: TableMeta,
  triggers: ReadonlyArray<Trigger>,
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  mapError: (e: unknown) => OraError
): Promise<TriggeredResult> => {
  let count = 0
  const list = rows.length === 0 ? [[]] : rows
  for (let i = 0; i < list.length; i++) {
    try {
      count += await s.atomically(async () => {
        const parts = mergeParts(sql, list[i]!)
        await fireStatementTriggers(s, meta, triggers, parts, "BEFORE")
        let merged = 0
        const deleting = parts.find((p) => p.deleting !== undefined)?.deleting
        // rows DELETE WHERE removes: their triggers fire right after the row's UPDATE triggers; the rows stay until the
        // INSERT has run, whose NOT EXISTS must still find them as matched (row triggers cannot see the mutating table)
        const deleted: Array<DuckDBValue> = []
        const afterRow = deleting === undefined ? undefined : async (rowid: DuckDBValue) => {
          // "The only rows affected by this clause are those rows in the destination table that are updated by the
          // merge operation" (SQL Language Reference, "MERGE"); a deleted row was updated first and counts once
          const { table, condition } = deleting
          await runWithTriggers(s, meta, triggers, `DELETE FROM ${table.sql} WHERE ROWID = :ora$rowid AND ${condition.sql}`, [...table.params, rowidText(BigInt(rowid as number | bigint)), ...condition.params], false, { deferredDeletes: deleted })
        }
        for (const part of parts) {
          if (part.deleting !== undefined) continue
          if (part.unstable !== undefined && (await s.rowsOf(await s.query(part.unstable.sql, part.unstable.params))).length > 0) throw ora.unstableMergeRows()
          const done = await runWithTriggers(s, meta, triggers, part.sql, part.params, false, part.event === "UPDATE" && afterRow !== undefined ? { afterRow } : {})
          merged += done.count
        }
        const engineTable = `${duckIdent(meta.owner)}.${duckIdent(meta.name)}`
        for (const rowid of deleted) await s.runLogged(`DELETE FROM ${engineTable} WHERE rowid = $1`, [rowid])
        await fireStatementTriggers(s, meta, triggers, parts, "AFTER")
        return merged
      })
    } catch (e) {
      const err = mapError(e)
      if (list.length > 1) (err as OraError & { rowOffset?: number }).rowOffset = i
      throw err
    }
  }
  return { count }
}
