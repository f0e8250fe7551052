/**
 * The first stages of a client's statement, which turn its text into another statement run in its place: PL/SQL
 * conditional compilation, bound format models made literals, WITH FUNCTION declarations as a package the statement
 * alone sees, then synonyms resolved. sqlsession.ts runs them before it dispatches a statement.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { executeRuns, formatBindRuns, inlineFormatBinds } from "./format-model-binds.ts"
import { mayHaveDirectives } from "./plsql/conditional-compilation.ts"
import type { PlsqlHost } from "./plsql/host.ts"
import { preprocessStatement } from "./plsql/preprocessed-sources.ts"
import { inlineWithFunctions } from "./plsql/with-functions.ts"
import type { BindSpec, ExecuteOptions, StatementClass, StatementResult } from "./statement.ts"
import { resolveSynonyms } from "./synonym-resolution.ts"

/**
 * Prepares statement `given` of class `cls`: the result of running the statement it becomes (through `host.execute`)
 * when a stage rewrote it into another, else the text to dispatch (synonyms resolved in a query or DML).
 */
export const prepareStatement = async (host: PlsqlHost & { readonly plsqlCcflags: string }, cls: StatementClass, given: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<{ readonly result: StatementResult } | { readonly sql: string }> => {
  // PL/SQL conditional compilation ($IF, $$PLSQL_LINE, ...) before the unit or block is parsed
  const text = (cls === "plsql" || cls === "ddl") && mayHaveDirectives(given) ? preprocessStatement(host.db, given, host.schema, host.plsqlCcflags) : given
  // a bound format model (TO_CHAR(x, :fmt)) as the literal it is (format-model-binds.ts)
  const runs = cls === "dml" ? formatBindRuns(text, rows) : undefined
  if (runs !== undefined) return { result: await executeRuns(runs, (first, end) => host.execute(text, rows.slice(first, end), specs, opts)) }
  const formats = cls === "dml" ? inlineFormatBinds(text, rows, specs) : undefined
  if (formats !== undefined) return { result: await host.execute(formats.sql, formats.rows, formats.specs, opts) }
  // WITH FUNCTION ...: the declarations as a package only this statement sees (plsql/with-functions.ts)
  const withFunctions = cls === "query" ? inlineWithFunctions(host, text) : undefined
  if (withFunctions !== undefined) {
    try {
      return { result: await host.execute(withFunctions.sql, rows, specs, opts) }
    } finally {
      withFunctions.release()
    }
  }
  return { sql: cls === "query" || cls === "dml" ? resolveSynonyms(host.db, host.schema, text) : text }
}
