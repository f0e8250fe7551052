/**
 * The DuckDB SQL of the query of CREATE VIEW / CREATE TABLE ... AS: translated as a client's query is (sqlsession.ts
 * queryOnce), with the statement's interval, datetime and number columns known, so that a view or a new table gets
 * the values the query itself returns (exact intervals mixed with DuckDB ones in NVL, CASE or a set operation
 * brought to one storage: interval-operands.ts); and the query read for its columns first.
 */
import { datetimeJoins } from "./datetime-joins.ts"
import { dynamicFormatModels, MAY_HAVE_FORMAT, settleFormatSites } from "./format-model-sites.ts"
import { intervalLiteralTargets } from "./interval-writes.ts"
import { tokenize } from "./lexer.ts"
import { localZoneArithmetic } from "./local-zone-arithmetic.ts"
import { rewriteNumericIntervals } from "./numeric-intervals.ts"
import { rewriteRowSubqueries } from "./row-subqueries.ts"
import { rewriteQuantifiedLists } from "./quantified-lists.ts"
import { bindNumberingTranslator, type TranslationContext } from "./session-translate.ts"
import { translateQuery } from "./translate.ts"
import type { QueryResult } from "./statement.ts"

/** The DuckDB SQL of `selectSql` (a query without binds) for the session `ctx` describes. */
export const ddlQuerySql = (ctx: TranslationContext, selectSql: string): string => {
  const lookup = ctx.lookupTable
  // a format model that is an expression: a CASE over the values the query met when it was read (format-model-sites.ts)
  const tokens = tokenize(selectSql)
  const formats = MAY_HAVE_FORMAT.test(selectSql) ? (dynamicFormatModels(tokens, selectSql)?.toks ?? tokens) : tokens
  const source = datetimeJoins(intervalLiteralTargets(localZoneArithmetic(rewriteRowSubqueries(rewriteQuantifiedLists(rewriteNumericIntervals(formats))), lookup, () => undefined, () => false), lookup), lookup)
  const { toks, tr } = bindNumberingTranslator(ctx, source, selectSql)
  return translateQuery(toks, tr).sql
}

/**
 * Runs `selectSql`, the query of a CREATE VIEW / CREATE TABLE ... AS, with `query` for its columns (its cursor closed):
 * read to the end when a format model in it is an expression (`formats`), so that the model meets its values on the
 * rows, again until it meets no new one (format-model-sites.ts `settleFormatSites`).
 */
export const readDdlQuery = (query: (sql: string) => Promise<QueryResult>, selectSql: string, formats: boolean): Promise<QueryResult> =>
  settleFormatSites(selectSql, async () => {
    const read = await query(selectSql)
    try {
      if (formats) while ((await read.cursor.next()) !== null);
    } finally {
      read.cursor.close()
    }
    return read
  })
