/**
 * MEDIAN, STATS_MODE and ANY_VALUE of a text datetime (TIMESTAMP WITH TIME ZONE, TIMESTAMP(7-9): datetime-functions.ts),
 * as an aggregate or OVER a window: a value of that type, typed as one, by instant (wall clock), where the engine
 * computed on the stored text and answered VARCHAR2. MEDIAN "takes a numeric or datetime value" and is PERCENTILE_CONT
 * at 0.5 (SQL Language Reference, "MEDIAN"); STATS_MODE "returns the value that occurs with the greatest frequency"
 * (one of them when several do, "STATS_MODE"), here instants in different zones being one value, the first text of
 * it in the order of the instants shown (`ora_tstz_mode`, percentile-windows.ts); ANY_VALUE any of the values.
 */
import { isKw, isOp, matchParen } from "./lexer.ts"
import { datetimeEntry, datetimePercentileSql } from "./percentile-windows.ts"
import { asTextDatetime, textDatetimeOfText } from "./translate-datetime-sql.ts"
import type { TranslatorCore } from "./translate-core.ts"

/**
 * The DuckDB text of `name(x) [OVER (...)]` whose argument list closes at `close`, with the index after it, when `name`
 * is MEDIAN, STATS_MODE or ANY_VALUE and `x` a text datetime; undefined otherwise.
 */
export const datetimeAggregateSql = (tr: TranslatorCore, name: string, parts: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined => {
  const p = parts[0]
  if ((name !== "MEDIAN" && name !== "STATS_MODE" && name !== "ANY_VALUE") || p === undefined || parts.length !== 1 || isKw(tr.toks[p[0]], "DISTINCT", "ALL")) return undefined
  const x = tr.range(p[0], p[1])
  const kind = tr.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(x)
  if (kind === undefined) return undefined
  const windowed = isKw(tr.toks[close + 1], "OVER") && isOp(tr.toks[close + 2], "(")
  const end = windowed ? matchParen(tr.toks, close + 2) : close
  const entries = windowed
    ? `list_filter(list(${datetimeEntry(x, kind)}) OVER (${tr.range(close + 3, end)}), ora_e -> struct_extract(ora_e, 'v') IS NOT NULL)`
    : `list(${datetimeEntry(x, kind)}) FILTER (WHERE (${x}) IS NOT NULL)`
  if (name === "MEDIAN") return [datetimePercentileSql("PERCENTILE_CONT", entries, false, "0.5", kind), end + 1]
  const sql = name === "STATS_MODE" ? `ora_tstz_mode(list_sort(${entries}))` : `struct_extract((${entries})[1], 'v')`
  return [asTextDatetime(sql, kind), end + 1]
}
