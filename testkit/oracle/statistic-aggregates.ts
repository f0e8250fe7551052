/**
 * Oracle's statistical aggregates (also as analytic functions) with the results Oracle documents where the engine's
 * own functions differ (SQL Language Reference, "STDDEV", "VARIANCE", "CORR", "REGR_ (Linear Regression) Functions",
 * "KURTOSIS_POP", "KURTOSIS_SAMP", "SKEWNESS_POP", "SKEWNESS_SAMP"):
 * - STDDEV and VARIANCE are 0 for a single value ("Oracle Database returns 0 when there is only one row of input"),
 *   where STDDEV_SAMP / VAR_SAMP stay NULL;
 * - CORR, COVAR_* and the REGR_ functions are NULL where their formula divides by a zero spread (a single pair, or
 *   a constant operand), where the engine computes NaN;
 * - KURTOSIS_POP / _SAMP and SKEWNESS_POP / _SAMP are 0 for one or two values ("Returns 0 if there are one or two
 *   rows in expr"). The engine has the population excess kurtosis (m4 / m2² − 3), the bias-corrected sample excess
 *   kurtosis and the adjusted Fisher–Pearson sample skewness G1; the population skewness g1 is G1 · (n − 2) /
 *   √(n (n − 1)). Oracle documents no formula: that these are its estimators is **unconfirmed**.
 * CHECKSUM (21c) is the sum, modulo 2^63 − 1, of a hash of each non-NULL value's text: the same for the same values in
 * any order, NULL when there are none, as documented ("deterministic and independent of the ordering of the input
 * rows", "NULL values in expr column are ignored"); its values are **unconfirmed**: not Oracle's hash.
 * An exact NUMBER operand (decimal text in the engine) is computed on its double value and the result is a NUMBER
 * again (Oracle computes in NUMBER, so digits past a double's may differ).
 */
import { isKw, isOp, matchParen } from "./lexer.ts"
import type { TranslatorCore } from "./translate-core.ts"

/** The engine's function for each statistical aggregate whose name differs from Oracle's. */
const ENGINE_NAME: Readonly<Record<string, string>> = { KURTOSIS_SAMP: "kurtosis", SKEWNESS_SAMP: "skewness", SKEWNESS_POP: "skewness" }

/** The aggregates this module translates. */
export const STATISTIC_AGGREGATES: ReadonlySet<string> = new Set([
  "MEDIAN", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP", "CORR", "COVAR_POP", "COVAR_SAMP",
  "REGR_SLOPE", "REGR_INTERCEPT", "REGR_R2", "REGR_AVGX", "REGR_AVGY", "REGR_COUNT", "REGR_SXX", "REGR_SYY", "REGR_SXY",
  "KURTOSIS_POP", "KURTOSIS_SAMP", "SKEWNESS_POP", "SKEWNESS_SAMP", "CHECKSUM"
])

/** Aggregates whose formula may divide by zero, NaN in the engine. */
const DIVIDING = new Set(["CORR", "REGR_SLOPE", "REGR_INTERCEPT", "REGR_R2", "KURTOSIS_POP", "KURTOSIS_SAMP", "SKEWNESS_POP", "SKEWNESS_SAMP"])

/**
 * The DuckDB text of the statistical aggregate `name` (`engineName` as the engine spells the call) whose arguments are `parts` (the list closing at `close`), with
 * its OVER clause when one follows, and the index after the call; undefined to leave a call as it is.
 */
export const statisticAggregateSql = (tr: TranslatorCore, name: string, engineName: string, parts: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined => {
  const toks = tr.toks
  const first = parts[0]
  if (first === undefined) return undefined
  // `STDDEV(DISTINCT x)`: the quantifier stays in front of the converted operand
  const quantifier = isKw(toks[first[0]], "DISTINCT", "UNIQUE", "ALL") ? toks[first[0]]!.value : undefined
  const ranges = parts.map((p, k): [number, number] => (k === 0 && quantifier !== undefined ? [p[0] + 1, p[1]] : p))
  if (name === "CHECKSUM") return checksumSql(tr, quantifier, ranges, close)
  const exact = ranges.map((p) => tr.exactNumericRange(p[0], p[1]))
  const operands = ranges.map((p, k) => (exact[k] ? `CAST(${tr.range(p[0], p[1])} AS DOUBLE)` : tr.range(p[0], p[1])))
  const distinct = quantifier === "DISTINCT" || quantifier === "UNIQUE" ? "DISTINCT " : ""
  const args = `${distinct}${operands.join(", ")}`
  const over = isKw(toks[close + 1], "OVER") && isOp(toks[close + 2], "(") ? matchParen(toks, close + 2) : -1
  const window = over < 0 ? "" : ` ${tr.range(close + 1, over + 1)}`
  const next = over < 0 ? close + 1 : over + 1
  const engine = ENGINE_NAME[name] ?? engineName
  const call = `${engine}(${args})${window}`
  // the values counted (of the one-operand aggregates that need it)
  const count = `count(${distinct}${operands[0]})${window}`
  let sql = call
  if (name === "STDDEV" || name === "VARIANCE") sql = `coalesce(${call}, CASE WHEN ${count} > 0 THEN 0 END)`
  else if (name === "SKEWNESS_POP") sql = `CASE WHEN ${count} BETWEEN 1 AND 2 THEN 0 ELSE nullif(${call} * (${count} - 2) / sqrt(${count} * (${count} - 1)), 'NaN'::DOUBLE) END`
  else if (name.startsWith("KURTOSIS") || name.startsWith("SKEWNESS")) sql = `CASE WHEN ${count} BETWEEN 1 AND 2 THEN 0 ELSE nullif(${call}, 'NaN'::DOUBLE) END`
  else if (DIVIDING.has(name)) sql = `nullif(${call}, 'NaN'::DOUBLE)`
  else if (!exact.some((e) => e)) return undefined
  return [exact.some((e) => e) ? `ora_number(CAST(${sql} AS VARCHAR))` : sql, next]
}

/** CHECKSUM([DISTINCT | UNIQUE | ALL] expr) [OVER (...)] as the engine's SQL, and the index after it. */
const checksumSql = (tr: TranslatorCore, quantifier: string | undefined, ranges: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined => {
  const [range] = ranges
  if (range === undefined || ranges.length !== 1) return undefined
  const toks = tr.toks
  const value = `CAST(${tr.range(range[0], range[1])} AS VARCHAR)`
  const over = isKw(toks[close + 1], "OVER") && isOp(toks[close + 2], "(") ? matchParen(toks, close + 2) : -1
  const window = over < 0 ? "" : ` ${tr.range(close + 1, over + 1)}`
  const distinct = quantifier === "DISTINCT" || quantifier === "UNIQUE" ? "DISTINCT " : ""
  const hashed = `CASE WHEN ${value} IS NOT NULL THEN CAST(hash(${value}) >> 1 AS HUGEINT) END`
  return [`CAST(sum(${distinct}${hashed})${window} % 9223372036854775807 AS BIGINT)`, over < 0 ? close + 1 : over + 1]
}
