/**
 * Clauses of queries and DML that Oracle refuses while it compiles the statement, checked on the Oracle text before
 * the engine runs it:
 * - `MODEL` and the flashback clauses `AS OF {TIMESTAMP | SCN}` / `VERSIONS BETWEEN` are valid Oracle syntax (SQL
 *   Language Reference, "SELECT": model_clause, flashback_query_clause) the server cannot run: ORA-03001
 *   "unimplemented feature" naming the clause, instead of the engine's syntax error (ORA-00933);
 * - `FOR UPDATE OF col` must name a column of a FROM table: ORA-00904 naming it;
 * - a MERGE may not update a column its ON condition names: ORA-38104 "Columns referenced in the ON Clause cannot be
 *   updated: string" (Database Error Messages, ora-38104; SQL Language Reference, "MERGE", merge_update_clause:
 *   "You cannot update a column that is referenced in the ON condition clause").
 */
import { ora, OraError } from "./errors.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, significant, type Tok, tokenize } from "./lexer.ts"
import type { TableMeta } from "./catalog.ts"
import { oracleName, type FromRef, type RowLockClause } from "./translate.ts"


/** ORA-03001 for a MODEL or flashback clause anywhere in the statement (at any nesting depth). */
export const unsupportedClauseError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  for (let k = 1; k < toks.length; k++) {
    const t = toks[k]!
    const prev = toks[k - 1]
    // MODEL [ref models] [main model] ... DIMENSION BY ... MEASURES ... RULES: after a table reference or WHERE / GROUP
    // BY / HAVING, never as a column name (it is followed by a model keyword)
    if (isKw(t, "MODEL") && !isOp(prev, ".") && !isOp(prev, ",") && !isKw(prev, "SELECT") && toks.slice(k + 1).some((x) => isKw(x, "DIMENSION")) && toks.slice(k + 1).some((x) => isKw(x, "MEASURES")))
      return ora.unimplemented("MODEL clause")
    if (isKw(t, "AS") && isKw(toks[k + 1], "OF") && isKw(toks[k + 2], "TIMESTAMP", "SCN", "PERIOD")) return ora.unimplemented("flashback query (AS OF)")
    if (isKw(t, "VERSIONS") && isKw(toks[k + 1], "BETWEEN", "PERIOD")) return ora.unimplemented("flashback version query (VERSIONS BETWEEN)")
  }
  return undefined
}

/** The same check on a statement's text. */
export const unsupportedClauseErrorOf = (sql: string): OraError | undefined => {
  if (!/\b(MODEL|AS\s+OF|VERSIONS)\b/i.test(sql)) return undefined
  return unsupportedClauseError(significant(tokenize(sql)))
}

/**
 * ORA-00904 for a `FOR UPDATE OF` column no FROM table (view) has, when every FROM item is a known table or view
 * (a subquery's columns are not known here). Oracle names the column as written: `"X"."NOPE"` or `"NOPE"`.
 */
export const lockColumnError = (
  from: ReadonlyArray<FromRef>,
  lock: RowLockClause,
  lookup: (schema: string | undefined, name: string) => TableMeta | undefined
): OraError | undefined => {
  const metas = from.map((ref) => ({ ref, meta: lookup(ref.schema, ref.table) }))
  if (metas.length === 0 || metas.some((m) => m.meta === undefined)) return undefined
  for (const c of lock.of) {
    const found = metas.some(({ ref, meta }) => (c.qualifier === undefined || c.qualifier === (ref.alias ?? ref.table)) && meta!.columns.some((m) => m.name === c.column))
    if (!found) return new OraError(904, `${c.qualifier !== undefined ? `"${c.qualifier}".` : ""}"${c.column}": invalid identifier`)
  }
  return undefined
}

/**
 * ORA-38104 for `MERGE INTO t [alias] USING ... ON (cond) ... UPDATE SET col = ...` where a SET target is a column of
 * t that the ON condition names (qualified by t's alias or name, or unqualified). The message names it as Oracle
 * does, `"ALIAS"."COL"`.
 */
export const mergeOnColumnError = (sql: string): OraError | undefined => {
  if (!/^\s*MERGE\b/i.test(sql)) return undefined
  const toks = significant(tokenize(sql))
  if (!isKw(toks[1], "INTO") || !isName(toks[2])) return undefined
  let k = 3
  let table = oracleName(toks[2])
  if (isOp(toks[3], ".") && isName(toks[4])) {
    table = oracleName(toks[4])
    k = 5
  }
  const aliasTok = toks[k]
  const alias = isName(aliasTok) && !isKw(aliasTok, "USING") ? oracleName(aliasTok) : table
  const on = findTopLevel(toks, k, toks.length, (t) => isKw(t, "ON"))
  if (on < 0 || !isOp(toks[on + 1], "(")) return undefined
  const close = matchParen(toks, on + 1)
  const onCols = new Set<string>()
  for (let j = on + 2; j < close; j++) {
    const t = toks[j]!
    if (!isName(t) || isOp(toks[j + 1], ".") || isOp(toks[j + 1], "(")) continue
    const q = isOp(toks[j - 1], ".") ? toks[j - 2] : undefined
    if (q === undefined || (isName(q) && (oracleName(q) === alias || oracleName(q) === table))) onCols.add(oracleName(t))
  }
  const set = findTopLevel(toks, close + 1, toks.length, (t) => isKw(t, "SET"))
  if (set < 0 || !isKw(toks[set - 1], "UPDATE")) return undefined
  let depth = 0
  for (let j = set + 1; j < toks.length; j++) {
    const t = toks[j]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth !== 0) continue
    if (isKw(t, "WHERE", "DELETE", "WHEN")) break
    if (!isOp(t, "=")) continue
    const col = toks[j - 1]
    if (!isName(col)) continue
    const name = oracleName(col)
    if (onCols.has(name)) return new OraError(38104, `Columns referenced in the ON Clause cannot be updated: "${alias}"."${name}"`)
  }
  return undefined
}
