/**
 * The DuckDB SQL of the query of CREATE VIEW / CREATE TABLE ... AS: translated as a client's query is (sqlsession.ts
 * queryOnce), with the statement's interval, datetime and number columns known, so that a view or a new table gets
 * the values the query itself returns (exact intervals mixed with DuckDB ones in NVL, CASE or a set operation
 * brought to one storage: interval-operands.ts).
 */
import { datetimeJoins } from "./datetime-joins.ts"
import { dynamicFormatModels, MAY_HAVE_FORMAT } from "./format-model-sites.ts"
import { intervalLiteralTargets } from "./interval-writes.ts"
import { tokenize } from "./lexer.ts"
import { localZoneArithmetic } from "./local-zone-arithmetic.ts"
import { rewriteNumericIntervals } from "./numeric-intervals.ts"
import { rewriteRowSubqueries } from "./row-subqueries.ts"
import { rewriteQuantifiedLists } from "./quantified-lists.ts"
import { bindNumberingTranslator, type TranslationContext } from "./session-translate.ts"
import { translateQuery } from "./translate.ts"

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
