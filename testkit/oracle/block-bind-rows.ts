/**
 * A client's PL/SQL block executed with several bind rows (executeMany): run once per bind row, in order, stopping at
 * the first run that fails, whose row number travels with its error as for DML; the reply carries the last run's
 * bind values.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { OraError } from "./errors.ts"
import type { StatementResult } from "./statement.ts"

/** Runs the block (`run`) for each of `rows` (at least one run); `mapError` makes the ORA- error of a failed run. */
export const runBlockPerBindRow = async (run: (values: ReadonlyArray<DuckDBValue>) => Promise<StatementResult>, mapError: (e: unknown) => OraError, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<StatementResult> => {
  let result = await run(rows[0] ?? [])
  for (let i = 1; i < rows.length; i++) {
    try {
      result = await run(rows[i]!)
    } catch (e) {
      const err = mapError(e)
      ;(err as OraError & { rowOffset?: number }).rowOffset = i
      throw err
    }
  }
  return result
}
