/**
 * Grouping TIMESTAMP WITH TIME ZONE columns by instant. The server stores such values as text with their own zone
 * (datetime-functions.ts), and DuckDB groups text by text, so `12:00 +01:00` and `11:00 +00:00` would be two groups;
 * Oracle compares TIMESTAMP WITH TIME ZONE values by their UTC instant, whatever zones they carry (Database
 * Globalization Support Guide, "Datetime Comparisons":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html;
 * Oracle's client library says it of its TIMESTAMP WITH TIME ZONE values: equality "only compares the Coordinated
 * Universal Time (UTC) date-time values ...; the time zone information is ignored", Oracle Objects for OLE, "IsEqual
 * (OraTimeStampTZ) Method": https://docs.oracle.com/cd/E11882_01/win.112/e17727/sermthod110.htm). This
 * module finds, in a statement's tokens, the zoned column references to be rendered by instant: GROUP BY items and
 * COUNT(DISTINCT ...) operands (by their instant key), and the references a query grouped by them selects, orders or
 * filters on outside aggregates (by one value of the group, which keeps its own zone).
 */
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"

/** Token ranges (start → end) of zoned column references the translator renders by instant. */
export interface InstantGrouping {
  /** GROUP BY items and COUNT(DISTINCT ...) operands: grouped and counted by their instant. */
  readonly keys: ReadonlyMap<number, number>
  /**
   * References to grouped columns in the select list, HAVING and ORDER BY of their query, outside aggregates: one
   * value of the group; `item` when the reference is a whole select-list item (it keeps the column's name).
   */
  readonly representatives: ReadonlyMap<number, { readonly end: number; readonly item: boolean }>
}

/** Aggregate functions, whose arguments are the group's rows rather than its grouped values. */
const AGGREGATES = new Set([
  "COUNT", "SUM", "AVG", "MIN", "MAX", "LISTAGG", "MEDIAN", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP",
  "VAR_SAMP", "ANY_VALUE", "COLLECT", "CORR", "COVAR_POP", "COVAR_SAMP"
])

const isName = (t: Tok | undefined): boolean => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** The index after the column reference (`c`, `t.c`, `s.t.c`) starting at `i`, or -1 when none starts there. */
const referenceEnd = (toks: ReadonlyArray<Tok>, i: number): number => {
  if (!isName(toks[i]) || isOp(toks[i - 1], ".")) return -1
  let k = i + 1
  while (isOp(toks[k], ".") && isName(toks[k + 1])) k += 2
  return isOp(toks[k], "(") ? -1 : k
}

/** The grouping by instant of the significant tokens `toks`, given which column names are zoned. */
export const instantGrouping = (toks: ReadonlyArray<Tok>, zoned: (name: string) => boolean): InstantGrouping => {
  const keys = new Map<number, number>()
  const representatives = new Map<number, { end: number; item: boolean }>()
  const zonedReference = (i: number): number => {
    const end = referenceEnd(toks, i)
    return end > 0 && zoned(toks[end - 1]!.value) ? end : -1
  }
  /** The query block of the SELECT at `select`: its clause keywords at its own depth and its end. */
  const clausesOf = (select: number) => {
    const at: Array<{ word: string; start: number; items: number }> = []
    let k = select + 1
    for (; k < toks.length; k++) {
      const t = toks[k]!
      if (isOp(t, "(")) k = matchParen(toks, k)
      else if (isOp(t, ")") || isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) break
      else if (isKw(t, "FROM", "WHERE", "HAVING", "FETCH", "OFFSET", "FOR")) at.push({ word: t.value, start: k, items: k + 1 })
      else if (isKw(t, "GROUP", "ORDER") && isKw(toks[k + 1], "BY")) at.push({ word: t.value, start: k, items: k + 2 })
    }
    const range = (word: string): [number, number] | undefined => {
      const n = at.findIndex((c) => c.word === word)
      return n < 0 ? undefined : [at[n]!.items, at[n + 1]?.start ?? k]
    }
    return { range, from: at.find((c) => c.word === "FROM")?.start ?? k }
  }
  const markRepresentatives = (from: number, to: number, grouped: ReadonlySet<string>, selectList: boolean): void => {
    for (let k = from; k < to; k++) {
      const t = toks[k]!
      if (isOp(t, "(") && isKw(toks[k + 1], "SELECT", "WITH")) k = matchParen(toks, k)
      else if (t.kind === "ident" && AGGREGATES.has(t.value) && isOp(toks[k + 1], "(")) k = matchParen(toks, k + 1)
      else {
        const end = zonedReference(k)
        if (end < 0) continue
        if (grouped.has(toks[end - 1]!.value)) {
          const item = selectList && (isOp(toks[k - 1], ",") || isKw(toks[k - 1], "SELECT", "DISTINCT", "UNIQUE", "ALL")) && (end === to || isOp(toks[end], ","))
          representatives.set(k, { end, item })
        }
        k = end - 1
      }
    }
  }
  for (let i = 0; i < toks.length; i++) {
    if (isKw(toks[i], "COUNT") && isOp(toks[i + 1], "(") && isKw(toks[i + 2], "DISTINCT")) {
      const end = zonedReference(i + 3)
      if (end > 0 && isOp(toks[end], ")")) keys.set(i + 3, end)
    }
    if (!isKw(toks[i], "SELECT")) continue
    const { range, from } = clausesOf(i)
    const groupBy = range("GROUP")
    if (groupBy === undefined) continue
    const grouped = new Set<string>()
    for (let k = groupBy[0]; k < groupBy[1]; k++) {
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      const end = zonedReference(k)
      if (end < 0 || !(end === groupBy[1] || isOp(toks[end], ",")) || !(k === groupBy[0] || isOp(toks[k - 1], ","))) continue
      keys.set(k, end)
      grouped.add(toks[end - 1]!.value)
    }
    if (grouped.size === 0) continue
    // a query's items keep their column names (the names an outer query or the client sees), not the rows an INSERT
    // ... SELECT writes
    const depth = toks.slice(0, i).reduce((d, t) => d + (isOp(t, "(") ? 1 : isOp(t, ")") ? -1 : 0), 0)
    const inserted = isKw(toks[0], "INSERT") && depth === 0
    markRepresentatives(i + 1, from, grouped, !inserted)
    for (const clause of [range("HAVING"), range("ORDER")]) if (clause !== undefined) markRepresentatives(clause[0], clause[1], grouped, false)
  }
  return { keys, representatives }
}
