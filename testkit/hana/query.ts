/**
 * SELECT (and WITH, VALUES, a parenthesized query) translated: HANA's FROM requirement, `TOP n`, `WITH HINT` dropped,
 * `FOR UPDATE` turned into the rows it locks, and the result column names and sources HANA would report.
 */
import { HanaError } from "./errors.ts"
import { joinedRows } from "./join-locks.ts"
import { countParams, matching, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { quoteName } from "./names.ts"
import { type ForUpdateWait, forUpdateWait, type LockSlices, type LockTarget, selectedRows } from "./row-locks.ts"
import { selectItemCalls, selectItemNames, selectItemSources } from "./select-items.ts"
import { CALL_RESULT_TYPES } from "./function-types.ts"
import { rewrite } from "./sql-rewrite.ts"
import { topAsLimit } from "./top-clauses.ts"
import type { SessionValues, Translated } from "./translated.ts"

/** The DuckDB row-id query of a statement's lock slices (row-locks.ts). */
export const lockTarget = (slices: LockSlices, wait: ForUpdateWait, session: SessionValues): LockTarget => ({
  table: `${slices.schema ?? session.schema}.${slices.table}`,
  sql: `SELECT rowid FROM ${rewrite(slices.from, session)} ${slices.rest.length === 0 ? "" : rewrite(slices.rest, session)}`,
  firstParam: slices.firstParam,
  params: slices.params,
  ...wait
})

/**
 * The statement without its `WITH HINT (…)` clause, which HANA's SELECT, UPDATE and DELETE accept (SAP HANA SQL
 * Reference, "SELECT Statement", "UPDATE Statement", "DELETE Statement": <hint_clause>) and which changes the plan
 * only: accepted and ignored.
 */
export const withoutHint = (tokens: Token[]): Token[] => {
  const hint = tokens.findIndex((t, i) => upper(t) === "WITH" && upper(tokens[i + 1]) === "HINT")
  return hint > 0 && tokens[hint + 2]?.v === "(" ? [...tokens.slice(0, hint), ...tokens.slice(matching(tokens, hint + 2) + 1)] : tokens
}

/** HANA 2.0 requires a FROM clause in every top-level SELECT (`SELECT 1 FROM DUMMY`). */
const requireFrom = (tokens: readonly Token[]): void => {
  let depth = 0
  let open = false
  for (const t of tokens) {
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0) {
      const w = upper(t)
      if (w === "SELECT") {
        if (open) break
        open = true
      } else if (w === "FROM") open = false
      else if ((w === "UNION" || w === "INTERSECT" || w === "EXCEPT" || w === "MINUS") && open) break
    }
  }
  if (open) throw HanaError.syntax("incorrect syntax near end of statement: a SELECT needs a FROM clause (use FROM DUMMY)", 0)
}

/** Translates a query. */
export const translateQuery = (all: Token[], session: SessionValues, sqlText?: string): Translated => {
  requireFrom(all)
  let tokens = all
  let forUpdate = false
  let lockRows: LockTarget | ReadonlyArray<LockTarget> | undefined
  // SELECT ... FOR UPDATE [NOWAIT]: DuckDB has no row locks; the server locks the rows (row-locks.ts).
  const forIdx = tokens.findIndex((t, i) => upper(t) === "FOR" && upper(tokens[i + 1]) === "UPDATE")
  if (forIdx > 0) {
    const slices = selectedRows(tokens.slice(0, forIdx))
    const wait = forUpdateWait(tokens.slice(forIdx + 2))
    const joined = slices === undefined ? joinedRows(tokens.slice(0, forIdx), tokens.slice(forIdx + 2)) : undefined
    lockRows =
      slices !== undefined
        ? lockTarget(slices, wait, session)
        : joined?.tables.map((j) => ({
            table: `${j.schema ?? session.schema}.${j.table}`,
            sql: `SELECT r FROM (SELECT ${quoteName(j.qualifier)}.rowid AS r FROM ${rewrite(joined.from, session)}) WHERE r IS NOT NULL`,
            firstParam: joined.firstParam,
            params: joined.params,
            ...wait
          }))
    tokens = tokens.slice(0, forIdx)
    forUpdate = true
  }
  // SELECT [DISTINCT] TOP n ... → ... LIMIT n
  let limit: string | undefined
  if (upper(tokens[0]) === "SELECT") {
    const at = upper(tokens[1]) === "DISTINCT" ? 2 : 1
    if (upper(tokens[at]) === "TOP" && (tokens[at + 1]?.t === "number" || tokens[at + 1]?.t === "param")) {
      limit = tokens[at + 1]!.v
      tokens = [...tokens.slice(0, at), ...tokens.slice(at + 2)]
    }
  }
  // a TOP in a subquery (`FROM (SELECT TOP 2 …)`, `IN (SELECT TOP 1 …)`) as its LIMIT (top-clauses.ts)
  tokens = [...topAsLimit(withoutHint(tokens))]
  let sql = rewrite(tokens, session)
  // `TOP ?` is the first parameter; a `LIMIT ?` after later ones would take another's value, so it is read first
  if (limit === "?" && countParams(tokens) > 0) sql = `WITH hana_top AS (SELECT CAST(? AS BIGINT) AS n) ${sql} LIMIT (SELECT n FROM hana_top)`
  else if (limit !== undefined) sql += ` LIMIT ${limit}`
  const columnNames = sqlText === undefined ? undefined : selectItemNames(tokens, sqlText)
  const selected = selectItemSources(tokens)
  const columnTypes = selectItemCalls(tokens)?.map((call) => (call === undefined ? undefined : CALL_RESULT_TYPES.get(call)))
  return {
    kind: "query",
    sql,
    params: countParams(tokens),
    forUpdate,
    ...(lockRows === undefined ? {} : { lockRows }),
    ...(columnNames === undefined ? {} : { columnNames }),
    ...(columnTypes === undefined || columnTypes.every((c) => c === undefined) ? {} : { columnTypes }),
    ...(selected === undefined ? {} : { columnSources: selected.sources, fromItems: selected.from })
  }
}
