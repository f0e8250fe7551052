/**
 * A datetime text compared with a named column (`ts > '2024-01-02 03:04:05.1234567'`, `'…' <= t.ts`, `ts BETWEEN
 * '…' AND '…'`, `ts IN ('…', '…')`) is read as HANA reads it for that column (SAP HANA SQL Reference, "Data Type
 * Conversion": a string compared with a datetime converts implicitly). A TIMESTAMP column is stored as 100 ns ticks
 * (longdate.ts), which DuckDB cannot compare with a text, so the text becomes `hana_ld_cmp(column, '…')`: ticks when
 * the column holds ticks, the text itself (DuckDB's implicit cast, as before) for any other column.
 */
import { upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

/** The comparison operators. */
export const COMPARISONS: ReadonlySet<string> = new Set(["=", "<>", "!=", "<", ">", "<=", ">="])
const COMPARISON_NAMES: ReadonlyMap<string, string> = new Map([["=", "eq"], ["<>", "ne"], ["!=", "ne"], ["<", "lt"], [">", "gt"], ["<=", "le"], [">=", "ge"]])

/**
 * `a op b` as one call of a macro that wraps each operand against the other (`wrapper(b, a) op wrapper(a, b)`),
 * for operands holding a parameter: written out, each operand would stand twice and its parameters be counted
 * twice, while a macro repeats the same parameter. `wrapper` is a two-argument session macro (hana_ld_cmp, hana_dtw).
 */
export const comparedOnce = (wrapper: string, op: string, left: readonly Token[], right: readonly Token[]): Token[] => [
  { t: "word", v: `${wrapper}_${COMPARISON_NAMES.get(op)!}` }, { t: "op", v: "(" }, ...left, { t: "op", v: "," }, ...right, { t: "op", v: ")" }
]

/** The macros of {@link comparedOnce} for `wrapper`; `swap` when the wrapper's first argument is the other operand. */
export const comparedOnceMacros = (wrapper: string, swap: boolean): string[] => {
  const [l, r] = swap ? ["b", "a"] : ["a", "b"]
  return [["eq", "="], ["ne", "<>"], ["lt", "<"], ["gt", ">"], ["le", "<="], ["ge", ">="]].map(
    ([name, op]) => `CREATE OR REPLACE TEMP MACRO ${wrapper}_${name}(a, b) AS ${wrapper}(${l}, ${r}) ${op} ${wrapper}(${r}, ${l})`
  )
}

/** A text that starts as a date (`2024-01-02…`). */
export const DATETIME_TEXT = /^\s*\d+-\d{1,2}-\d{1,2}/

const isName = (t: Token | undefined): boolean => t !== undefined && (t.t === "qident" || (t.t === "word" && !["AND", "OR", "NOT", "NULL", "WHEN", "THEN", "ELSE", "CASE", "END"].includes(upper(t))))
const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v
const isComparison = (t: Token | undefined): boolean => t?.t === "op" && COMPARISONS.has(t.v)

/** The tokens of a (dotted) column name ending at `end`, or undefined. */
const nameEndingAt = (tokens: readonly Token[], end: number): readonly Token[] | undefined => {
  if (!isName(tokens[end]) || isOp(tokens[end + 1], "(")) return undefined
  let start = end
  while (isOp(tokens[start - 1], ".") && isName(tokens[start - 2])) start -= 2
  if (isOp(tokens[start - 1], ".")) return undefined
  return tokens.slice(start, end + 1)
}

/** The tokens of a (dotted) column name starting at `start`, or undefined. */
const nameStartingAt = (tokens: readonly Token[], start: number): readonly Token[] | undefined => {
  if (!isName(tokens[start])) return undefined
  let end = start
  while (isOp(tokens[end + 1], ".") && isName(tokens[end + 2])) end += 2
  if (isOp(tokens[end + 1], "(") || isOp(tokens[end + 1], ".")) return undefined
  return tokens.slice(start, end + 1)
}

/** The column a literal (a datetime text, a number) at `i` is compared with, when the statement names it next to it. */
export const comparedColumn = (tokens: readonly Token[], i: number): readonly Token[] | undefined => {
  if (isComparison(tokens[i - 1])) return nameEndingAt(tokens, i - 2)
  if (isComparison(tokens[i + 1])) return nameStartingAt(tokens, i + 2)
  // X [NOT] BETWEEN '…' AND '…'
  const between = (k: number): readonly Token[] | undefined =>
    upper(tokens[k]) === "BETWEEN" ? nameEndingAt(tokens, upper(tokens[k - 1]) === "NOT" ? k - 2 : k - 1) : undefined
  if (upper(tokens[i - 1]) === "BETWEEN") return between(i - 1)
  if (upper(tokens[i - 1]) === "AND" && tokens[i - 2]?.t === tokens[i]!.t) return between(i - 3)
  // X [NOT] IN ('…', '…')
  let k = i - 1
  while (isOp(tokens[k], ",") && tokens[k - 1] !== undefined && tokens[k - 1]!.t !== "op") k -= 2
  if (isOp(tokens[k], "(") && upper(tokens[k - 1]) === "IN") return nameEndingAt(tokens, upper(tokens[k - 2]) === "NOT" ? k - 3 : k - 2)
  return undefined
}

/** `tokens` with each datetime text compared with a named column wrapped in `hana_ld_cmp(column, text)`. */
export const typeDatetimeComparisons = (tokens: readonly Token[]): readonly Token[] => {
  if (!tokens.some((t) => t.t === "string" && DATETIME_TEXT.test(t.v))) return tokens
  const out: Token[] = []
  tokens.forEach((t, i) => {
    const column = t.t === "string" && DATETIME_TEXT.test(t.v) ? comparedColumn(tokens, i) : undefined
    if (column === undefined) out.push(t)
    else out.push({ t: "word", v: "hana_ld_cmp" }, { t: "op", v: "(" }, ...column, { t: "op", v: "," }, t, { t: "op", v: ")" })
  })
  return out
}
