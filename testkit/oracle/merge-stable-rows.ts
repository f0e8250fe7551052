/**
 * A MERGE whose ON condition matches one target row with more than one source row that a WHEN MATCHED branch acts
 * on fails with ORA-30926 "unable to get a stable set of rows in the source tables", writing nothing: "MERGE is a
 * deterministic statement. You cannot update the same row of the target table multiple times in the same MERGE
 * statement" (SQL Language Reference, "MERGE"). The engine's MERGE instead picks one of the source rows, so the
 * join is counted per target row id before the MERGE runs. A row the branches' conditions (UPDATE ... WHERE,
 * DELETE WHERE) leave alone is not acted on and does not count. Insert-only MERGEs are not checked: their source
 * rows match no target row.
 */
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import type { Session as EngineSession } from "../engine/index.ts"
import { ora } from "./errors.ts"
import { matchedBranch, renumbered, writeParts } from "./volatile-updates.ts"

/**
 * For a MERGE (engine text) with a WHEN MATCHED branch: a check, run with the statement's parameters before it writes,
 * that fails with ORA-30926 when a target row would be acted on more than once; undefined for any other statement.
 */
export const stableMergeRowsCheck = (sql: string): ((engine: EngineSession, params: ReadonlyArray<DuckDBValue> | undefined, types: ReadonlyArray<DuckDBType | undefined> | undefined) => Promise<void>) | undefined => {
  if (!/^\s*MERGE\b/i.test(sql)) return undefined
  const write = writeParts(sql)
  if (write?.kind !== "merge" || write.matched.length === 0) return undefined
  const check = `SELECT 1 FROM ${write.source} JOIN ${write.target} ON ${write.on} WHERE ${matchedBranch(write)} <> 0 GROUP BY ${write.ref}.rowid HAVING count(*) > 1 LIMIT 1`
  return async (engine, params, types) => {
    const q = renumbered(check, params, types)
    const cursor = await engine.query(q.sql, q.params, q.types)
    try {
      const chunk = await cursor.next()
      if (chunk !== null && chunk.rowCount > 0) throw ora.unstableMergeRows()
    } finally {
      cursor.close()
    }
  }
}
