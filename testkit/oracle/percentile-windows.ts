/**
 * PERCENTILE_CONT and PERCENTILE_DISC as analytic functions (SQL Language Reference, "PERCENTILE_CONT",
 * "PERCENTILE_DISC"): `PERCENTILE_x(p) WITHIN GROUP (ORDER BY expr [ASC | DESC]) OVER (query_partition_clause)`,
 * which DuckDB's ordered-set aggregates do not take with an OVER clause. Each partition's non-NULL values are gathered
 * in their order (`list(... ORDER BY ...) OVER (...)`) and the percentile read off them as Oracle defines it:
 * PERCENTILE_CONT interpolates between the values at rows FLOOR(RN) and CEIL(RN), RN = 1 + p * (n - 1);
 * PERCENTILE_DISC is "the smallest cumulative distribution value that is greater than or equal to" p, the value at
 * row CEIL(p * n) (the first for p = 0). An exact NUMBER is ordered by its number, interpolated as a double; a text
 * datetime by its instant (the aggregate forms too: translate-calls.ts).
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen } from "./lexer.ts"
import { asTextDatetime, datetimeArgument, textDatetimeOfText, zoneArgument } from "./translate-datetime-sql.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { TextDatetimeKind } from "./translate-types.ts"

/** The macros reading a percentile off a partition's ordered values. */
export const PERCENTILE_MACROS: ReadonlyArray<string> = [
  `ora_percentile_rn(l, p) AS 1 + p * (len(l) - 1)`,
  `ora_percentile_cont_of(l, p) AS CASE WHEN len(l) = 0 THEN NULL ELSE l[CAST(floor(ora_percentile_rn(l, p)) AS BIGINT)] + (ora_percentile_rn(l, p) - floor(ora_percentile_rn(l, p))) * (l[CAST(ceil(ora_percentile_rn(l, p)) AS BIGINT)] - l[CAST(floor(ora_percentile_rn(l, p)) AS BIGINT)]) END`,
  `ora_percentile_cont(l, p) AS ora_percentile_cont_of(list_filter(l, ora_pe -> ora_pe IS NOT NULL), p)`,
  `ora_percentile_disc_of(l, p) AS l[CAST(greatest(1, ceil(p * len(l))) AS BIGINT)]`,
  `ora_percentile_disc(l, p) AS ora_percentile_disc_of(list_filter(l, ora_pe -> ora_pe IS NOT NULL), p)`,
  // over text datetimes (zoned, TIMESTAMP(7-9)): `l` the sorted structs of their order keys `k` and texts `v`
  `ora_percentile_cont_tstz(l, p, z) AS CASE WHEN len(l) = 0 THEN NULL ELSE ora_tstz_between(struct_extract(l[CAST(floor(ora_percentile_rn(l, p)) AS BIGINT)], 'v'), struct_extract(l[CAST(ceil(ora_percentile_rn(l, p)) AS BIGINT)], 'v'), z, ora_percentile_rn(l, p) - floor(ora_percentile_rn(l, p))) END`,
  // STATS_MODE of text datetimes (datetime-aggregates.ts): the first value of the most frequent key
  `ora_tstz_mode(l) AS struct_extract(list_filter(l, ora_e -> struct_extract(ora_e, 'k') = list_aggregate(list_transform(l, ora_x -> struct_extract(ora_x, 'k')), 'mode'))[1], 'v')`
]

/** A text datetime `x` as a struct of its order key (instant or wall clock) and its text, for a list to sort. */
export const datetimeEntry = (x: string, kind: TextDatetimeKind): string => `struct_pack(k := ora_tstz_key(${datetimeArgument(x, kind)}), v := CAST(${x} AS VARCHAR))`

/**
 * PERCENTILE_CONT / PERCENTILE_DISC over text datetimes, `entries` the list of {@link datetimeEntry} of the non-NULL
 * values: ordered by instant (wall clock) as Oracle orders them; DISC's value with its own zone, CONT's interpolated
 * between the two rows by instant, in the zone of the earlier row in the order (**unconfirmed**: Oracle's
 * documentation does not say which zone the result has).
 */
export const datetimePercentileSql = (name: string, entries: string, descending: boolean, fraction: string, kind: TextDatetimeKind): string => {
  const sorted = descending ? `list_reverse_sort(${entries})` : `list_sort(${entries})`
  const picked = name === "PERCENTILE_CONT" ? `ora_percentile_cont_tstz(${sorted}, ${fraction}, ${zoneArgument(kind)})` : `struct_extract(ora_percentile_disc_of(${sorted}, ${fraction}), 'v')`
  return asTextDatetime(picked, kind)
}

/**
 * The DuckDB text of `PERCENTILE_CONT | PERCENTILE_DISC(p) WITHIN GROUP (ORDER BY ...) OVER (...)` whose argument
 * list closes at `close`, with the index after its OVER clause; undefined without an OVER clause (the aggregate).
 */
export const percentileWindowSql = (tr: TranslatorCore, name: string, parts: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined => {
  const toks = tr.toks
  const g = close + 1
  if (!isKw(toks[g], "WITHIN") || !isKw(toks[g + 1], "GROUP") || !isOp(toks[g + 2], "(") || !isKw(toks[g + 3], "ORDER") || !isKw(toks[g + 4], "BY")) return undefined
  const groupClose = matchParen(toks, g + 2)
  if (!isKw(toks[groupClose + 1], "OVER") || !isOp(toks[groupClose + 2], "(")) return undefined
  const overClose = matchParen(toks, groupClose + 2)
  const p = parts[0]
  if (p === undefined || parts.length !== 1) throw new OraError(909, "invalid number of arguments")
  if (p[1] === p[0] + 1 && toks[p[0]]!.kind === "num" && !(Number(toks[p[0]]!.value) >= 0 && Number(toks[p[0]]!.value) <= 1))
    throw new OraError(30493, "The percentile value should be a number between 0 and 1.")
  let exprEnd = groupClose
  while (exprEnd > g + 6 && isKw(toks[exprEnd - 1], "ASC", "DESC", "FIRST", "LAST", "NULLS")) exprEnd--
  const direction = toks.slice(exprEnd, groupClose).some((t) => isKw(t, "DESC")) ? " DESC" : ""
  const value = tr.range(g + 5, exprEnd)
  const exact = tr.exactNumericRange(g + 5, exprEnd)
  const over = `OVER (${tr.range(groupClose + 3, overClose)})`
  const fraction = `CAST(${tr.range(p[0], p[1])} AS DOUBLE)`
  const datetime = tr.textDatetimeAt(g + 5, exprEnd) ?? textDatetimeOfText(value)
  if (datetime !== undefined)
    return [datetimePercentileSql(name, `list_filter(list(${datetimeEntry(value, datetime)}) ${over}, ora_pe -> struct_extract(ora_pe, 'v') IS NOT NULL)`, direction !== "", fraction, datetime), overClose + 1]
  const sql =
    name === "PERCENTILE_CONT"
      ? exact
        ? `ora_number(CAST(ora_percentile_cont(list(CAST(${value} AS DOUBLE) ORDER BY CAST(${value} AS DOUBLE)${direction}) ${over}, ${fraction}) AS VARCHAR))`
        : `ora_percentile_cont(list(${value} ORDER BY ${value}${direction}) ${over}, ${fraction})`
      : exact
        ? `ora_number(ora_percentile_disc(list(CAST(${value} AS VARCHAR) ORDER BY ora_number_key(CAST(${value} AS VARCHAR))${direction}) ${over}, ${fraction}))`
        : `ora_percentile_disc(list(${value} ORDER BY ${value}${direction}) ${over}, ${fraction})`
  return [sql, overClose + 1]
}
