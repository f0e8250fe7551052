/**
 * The KEEP form of MIN, MAX, SUM, AVG, COUNT, VARIANCE and STDDEV (SQL Language Reference, "FIRST" / "LAST",
 * https://docs.oracle.com/database/122/SQLRF/FIRST.htm):
 * `agg(expr) KEEP (DENSE_RANK FIRST | LAST ORDER BY ...) [OVER (query_partition_clause)]` aggregates only the rows
 * that rank first (or last) by DENSE_RANK over the ORDER BY, ties included, as a plain aggregate or an analytic one.
 *
 * In DuckDB: the rows' `{k: sort keys, v: value}` gathered by `list(... ORDER BY ...)` (with the OVER clause, if any),
 * those whose keys equal the first (or last) element's kept (`ora_keep`, NULL keys equal, as they rank alike), and the
 * aggregate applied to their values; exact NUMBER values and keys are aggregated and ordered by their number.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen } from "./lexer.ts"
import type { TranslatorCore } from "./translate-core.ts"
import { asTextDatetime, datetimeArgument, textDatetimeOfText } from "./translate-datetime-sql.ts"

/** The macros of the KEEP aggregates: the values of the rows whose sort keys equal the first's (or last's). */
export const KEEP_MACROS: ReadonlyArray<string> = [
  // struct_extract, not `e.k`: DuckDB's HAVING binder takes `e.k` inside a lambda for a column k
  `ora_keep(l, last_) AS list_transform(list_filter(l, ora_keep_e -> struct_extract(ora_keep_e, 'k') IS NOT DISTINCT FROM struct_extract(CASE WHEN last_ THEN l[-1] ELSE l[1] END, 'k')), ora_keep_e -> struct_extract(ora_keep_e, 'v'))`
]

/** DuckDB's list aggregate of each Oracle aggregate KEEP applies to. */
const LIST_AGGREGATES: Readonly<Record<string, string>> = { MIN: "min", MAX: "max", SUM: "sum", AVG: "avg", COUNT: "count", VARIANCE: "var_samp", STDDEV: "stddev_samp" }

/** The token ranges of the comma-separated items in [from, to) at depth 0. */
const items = (tr: TranslatorCore, from: number, to: number): Array<[number, number]> => {
  const out: Array<[number, number]> = []
  let start = from
  for (let k = from; k <= to; k++) {
    if (isOp(tr.toks[k], "(")) k = matchParen(tr.toks, k)
    else if (k === to || isOp(tr.toks[k], ",")) {
      out.push([start, k])
      start = k + 1
    }
  }
  return out
}

/**
 * The DuckDB text of the call `name(...)` closing at `close` when a KEEP clause follows it, with the index after the
 * clause (and after its OVER clause, which the text includes).
 */
export const keepAggregateSql = (tr: TranslatorCore, name: string, parts: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined => {
  const toks = tr.toks
  if (!isKw(toks[close + 1], "KEEP") || !isOp(toks[close + 2], "(")) return undefined
  const keepClose = matchParen(toks, close + 2)
  const aggregate = LIST_AGGREGATES[name]
  if (aggregate === undefined) throw new OraError(3001, `unimplemented feature: ${name} ... KEEP`)
  if (!isKw(toks[close + 3], "DENSE_RANK") || !isKw(toks[close + 4], "FIRST", "LAST") || !isKw(toks[close + 5], "ORDER") || !isKw(toks[close + 6], "BY"))
    throw new OraError(907, "missing right parenthesis")
  const last = isKw(toks[close + 4], "LAST")
  // the sort keys, exact NUMBERs by their number, each with its own ASC / DESC / NULLS
  const keys: Array<string> = []
  const order: Array<string> = []
  for (const [a, b] of items(tr, close + 7, keepClose)) {
    let e = b
    while (e > a + 1 && isKw(toks[e - 1], "ASC", "DESC", "NULLS", "FIRST", "LAST")) e--
    // a TIMESTAMP WITH TIME ZONE key by its instant, a TIMESTAMP(7-9) by its wall clock (datetime-functions.ts)
    const datetime = tr.textDatetimeAt(a, e) ?? textDatetimeOfText(tr.range(a, e))
    const key = tr.exactNumericRange(a, e) ? `ora_number_key(CAST(${tr.range(a, e)} AS VARCHAR))` : datetime !== undefined ? `ora_tstz_key(${datetimeArgument(tr.range(a, e), datetime)})` : tr.range(a, e)
    keys.push(`k${keys.length} := ${key}`)
    order.push(`${key}${e < b ? ` ${toks.slice(e, b).map((t) => t.value).join(" ")}` : ""}`)
  }
  const p = parts[0]
  if (p === undefined || parts.length !== 1) throw new OraError(909, "invalid number of arguments")
  const star = isOp(toks[p[0]], "*") && p[1] === p[0] + 1
  const exact = !star && tr.exactNumericRange(p[0], p[1])
  const value = star ? "1" : exact ? `CAST(${tr.range(p[0], p[1])} AS VARCHAR)` : tr.range(p[0], p[1])
  const windowed = isKw(toks[keepClose + 1], "OVER") && isOp(toks[keepClose + 2], "(")
  const overClose = windowed ? matchParen(toks, keepClose + 2) : keepClose
  const over = windowed ? ` OVER (${tr.range(keepClose + 3, overClose)})` : ""
  const kept = `ora_keep(list(struct_pack(k := struct_pack(${keys.join(", ")}), v := ${value}) ORDER BY ${order.join(", ")})${over}, ${last})`
  // MIN / MAX of a text datetime: the value of the least or greatest instant (wall clock), its zone kept
  const datetime = star || exact ? undefined : (tr.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(value))
  if (datetime !== undefined && (name === "MIN" || name === "MAX"))
    return [asTextDatetime(`struct_extract(list_aggregate(list_transform(${kept}, ora_e -> struct_pack(k := ora_tstz_key(${datetimeArgument("ora_e", datetime)}), v := ora_e)), '${aggregate}'), 'v')`, datetime), overClose + 1]
  const sql = !exact || name === "COUNT"
    ? `list_aggregate(${kept}, '${aggregate}')`
    : name === "MIN" || name === "MAX"
      ? `ora_number(struct_extract(list_aggregate(list_transform(${kept}, ora_e -> struct_pack(k := ora_number_key(ora_e), v := ora_e)), '${aggregate}'), 'v'))`
      : name === "SUM" || name === "AVG"
        ? `ora_number_${aggregate}(${kept})`
        : `list_aggregate(list_transform(${kept}, ora_e -> CAST(ora_e AS DOUBLE)), '${aggregate}')`
  // VARIANCE and STDDEV of one kept value are 0 (SQL Language Reference, "VARIANCE", "STDDEV"), the engine's NULL
  if (name === "VARIANCE" || name === "STDDEV") return [`coalesce(${sql}, CASE WHEN list_aggregate(${kept}, 'count') > 0 THEN 0 END)`, overClose + 1]
  return [sql, overClose + 1]
}
