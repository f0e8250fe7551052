/**
 * The translator's exact NUMBER rewrites: comparisons, BETWEEN, IN, quantified subqueries, ORDER BY items and CASE
 * results over NUMBER columns without precision (stored as decimal text) and results of number-functions.ts, and
 * SUM / AVG / MIN / MAX of them, computed on every digit.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen } from "./lexer.ts"
import { EXACT_RESULT } from "./number-sql.ts"
import { exactIntervalOfText, exactIntervalOrderKey } from "./interval-exprs.ts"
import { COMPARISONS, identOut, isDateOnly } from "./translate-literals.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { Part } from "./translate-types.ts"

/**
 * Comparisons and ORDER BY items over exact NUMBER values (columns without precision, stored as decimal text, and
 * results of number-functions.ts): compared with `ora_number_cmp` and ordered by `ora_number_key`, never as text.
 */
export function exactNumberParts(tr: TranslatorCore, parts: Array<Part>): void {
  let inSet = false
  let inOrder = false
  for (let j = 0; j < parts.length; j++) {
    const p = parts[j]!
    const tok = tr.toks[p.from]!
    if (p.separator) {
      if (isKw(tok, "SET")) inSet = true
      else if (isKw(tok, "WHERE", "RETURNING", "RETURN", "WHEN", "FROM")) inSet = false
      if (isKw(tok, "BY") && j > 0 && isKw(tr.toks[parts[j - 1]!.from], "ORDER")) inOrder = true
      else if (!isOp(tok, ",") && !isKw(tok, "ASC", "DESC", "NULLS")) inOrder = false
      const left = parts[j - 1]
      const right = parts[j + 1]
      if (inSet || !(tok.kind === "op" && COMPARISONS.has(tok.value)) || left === undefined || right === undefined || left.separator || right.separator) continue
      // an exact DAY TO SECOND result (a TIMESTAMP(7-9) difference) compared with an interval literal the engine holds
      const exactDs = (q: Part) => exactIntervalOfText(q.text) === "dayToSecond"
      const duckLiteral = (q: Part) => /^\(-?INTERVAL '[^']*'\)$/.test(q.text)
      if (exactDs(left) && duckLiteral(right)) right.text = `ora_ds_of_duck(${right.text})`
      else if (exactDs(right) && duckLiteral(left)) left.text = `ora_ds_of_duck(${left.text})`
      if (!tr.isExactPart(left) && !tr.isExactPart(right)) continue
      // a NUMBER compared with a DATE: Oracle converts neither (ORA-00932)
      if (isDateOnly(tr.toks, left.from, left.to)) throw new OraError(932, "inconsistent datatypes: expected DATE got NUMBER")
      if (isDateOnly(tr.toks, right.from, right.to)) throw new OraError(932, "inconsistent datatypes: expected NUMBER got DATE")
      left.text = `ora_number_cmp(${exactArgument(tr, left)}, ${exactArgument(tr, right)})`
      right.text = "0"
      j++
    } else if (inOrder && tr.isExactPart(p)) p.text = `ora_number_key(${exactArgument(tr, p)})`
    else if (inOrder && exactIntervalOfText(p.text) !== undefined) p.text = exactIntervalOrderKey(p.text)
    else if (inOrder && p.to === p.from + 1 && tr.exactOrderItems.has(tr.toks[p.from]!.value))
      p.text = `ora_number_key(CAST(${tr.exactOrderItems.get(tr.toks[p.from]!.value)} AS VARCHAR))`
    else if (p.text.length > 0 && (tr.isExactPart(p) || hasExactBound(tr, parts, j))) exactOperand(tr, parts, j)
  }
  exactCaseParts(tr, parts)
}

/**
 * `CASE ... END` with an exact NUMBER among its results: every result converted to it ("Oracle uses short-circuit
 * evaluation ... and the return values must all be of the same data type group", the first result's: SQL Language
 * Reference, "CASE Expressions"), and the simple form's operand and comparison values compared as numbers.
 */
export function exactCaseParts(tr: TranslatorCore, parts: Array<Part>): void {
  // a nested CASE is one part here (range renders it on its own first)
  for (let j = 0; j < parts.length; j++) {
    const head = parts[j]!
    if (head.separator || !isKw(tr.toks[head.from], "CASE") || tr.caseEnd(head.from, head.to) > 0) continue
    const end = parts.findIndex((q, k) => k > j && q.separator && isKw(tr.toks[q.from], "END"))
    if (end < 0) continue
    const own = Array.from({ length: end - j - 1 }, (_, k) => j + 1 + k)
    const after = (word: string) => own.filter((k) => !parts[k]!.separator && isKw(tr.toks[parts[k - 1]!.from], word))
    if (head.to > head.from + 1 && tr.exactColumnAt(head.from + 1, head.to) !== undefined) {
      head.text = `CASE ora_number_key(CAST(${tr.range(head.from + 1, head.to)} AS VARCHAR))`
      for (const k of after("WHEN")) parts[k]!.text = `ora_number_key(CAST(${parts[k]!.text} AS VARCHAR))`
    }
    const results = [...after("THEN"), ...after("ELSE")]
    if (!results.some((k) => tr.isExactPart(parts[k]!)) || tr.toks[parts[results[0]!]!.from]?.kind === "str") continue
    for (const k of results) if (!tr.isExactPart(parts[k]!)) parts[k]!.text = `CAST(${parts[k]!.text} AS VARCHAR)`
    head.text = `ora_number(CAST(${head.text}`
    parts[end]!.text = `${parts[end]!.text} AS VARCHAR))`
  }
}

/**
 * True when `parts[j]` is the subject of `[NOT] BETWEEN lo AND hi` with an exact NUMBER bound: the subject is then
 * compared as a number with both (`f BETWEEN n AND 3` of a BINARY_DOUBLE f, which DuckDB would not compare with the
 * NUMBER's text; Oracle converts to the higher numeric type: SQL Language Reference, "Numeric Precedence").
 */
const hasExactBound = (tr: TranslatorCore, parts: ReadonlyArray<Part>, j: number): boolean => {
  const negated = isKw(tr.toks[parts[j + 1]?.from ?? -1], "NOT") && parts[j + 1]!.separator ? 1 : 0
  const between = parts[j + 1 + negated]
  if (between?.separator !== true || !isKw(tr.toks[between.from], "BETWEEN")) return false
  return [parts[j + 2 + negated], parts[j + 4 + negated]].some((q) => q !== undefined && !q.separator && tr.isExactPart(q))
}

/**
 * An exact NUMBER segment `parts[j]` as the operand of BETWEEN or IN, or as an item of a nested query's select list
 * (kept typed ORA_NUMBER, so that the outer query still describes and computes it as NUMBER).
 */
export function exactOperand(tr: TranslatorCore, parts: Array<Part>, j: number): void {
  const p = parts[j]!
  const at = (k: number) => (parts[k]?.separator === true ? tr.toks[parts[k]!.from] : undefined)
  const negated = isKw(at(j + 1), "NOT") ? 1 : 0
  const lo = parts[j + 2 + negated]
  const hi = parts[j + 4 + negated]
  if (isKw(at(j + 1 + negated), "BETWEEN") && isKw(at(j + 3 + negated), "AND") && lo !== undefined && hi !== undefined && !lo.separator && !hi.separator) {
    const v = exactArgument(tr, p)
    p.text = `${negated === 1 ? "NOT " : ""}(ora_number_cmp(${v}, ${exactArgument(tr, lo)}) >= 0 AND ora_number_cmp(${v}, ${exactArgument(tr, hi)}) <= 0)`
    for (let k = j + 1; k <= j + 4 + negated; k++) parts[k]!.text = ""
    return
  }
  const list = parts[j + 2 + negated]
  if (isKw(at(j + 1 + negated), "IN") && list !== undefined && isOp(tr.toks[list.from], "(") && !isKw(tr.toks[list.from + 1], "SELECT", "WITH")) {
    const { parts: items } = tr.args(list.from)
    p.text = `ora_number_key(${exactArgument(tr, p)})`
    list.text = `(${items.map(([a, b]) => `ora_number_key(CAST(${tr.range(a, b)} AS VARCHAR))`).join(", ")})`
    return
  }
  // IN / NOT IN / comparison ANY|SOME|ALL of a subquery: both sides compared by their exact order keys, as Oracle
  // compares a NUMBER with whatever number type the subquery gives
  const quantified = ["=", "<>", "!=", "<", ">", "<=", ">="].some((op) => isOp(at(j + 1), op)) && isKw(at(j + 2), "ANY", "SOME", "ALL")
  const sub = parts[j + (quantified ? 3 : 2 + negated)]
  if ((quantified || isKw(at(j + 1 + negated), "IN")) && sub !== undefined && !sub.separator && isOp(tr.toks[sub.from], "(") && isKw(tr.toks[sub.from + 1], "SELECT", "WITH") && tr.exactColumnAt(p.from, p.to) !== undefined) {
    p.text = `ora_number_key(${exactArgument(tr, p)})`
    sub.text = `(SELECT ora_number_key(CAST(ora_q.ora_c AS VARCHAR)) FROM ${sub.text} AS ora_q(ora_c))`
    return
  }
  const before = at(j - 1)
  const after = at(j + 1)
  const column = tr.exactColumnAt(p.from, p.to)
  if (column !== undefined && (isKw(before, "SELECT", "DISTINCT", "UNIQUE", "ALL") || isOp(before, ",")) && (isKw(after, "FROM", "INTO") || isOp(after, ",")) && tr.inSelectList(parts, j)) {
    p.text = `ora_number(${exactArgument(tr, p)}) AS ${identOut(tr.toks[p.to - 1]!)}`
  }
}

/** A value as number-functions.ts takes it: its (exact or DuckDB) decimal text, typed plain VARCHAR. */
export function exactArgument(tr: TranslatorCore, p: Part): string {
  return `CAST(${p.text} AS VARCHAR)`
}

/**
 * SUM / AVG / MIN / MAX of an exact NUMBER, also as window functions (`OVER (...)`): SUM and AVG on every digit
 * over the group's (or window frame's) list of values, MIN and MAX by the order key; with the index after the call,
 * or undefined for other calls.
 */
export function exactAggregate(tr: TranslatorCore, name: string, parts: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined {
  if (!["SUM", "AVG", "MIN", "MAX"].includes(name) || parts.length !== 1) return undefined
  const [start, end] = parts[0]!
  const distinct = isKw(tr.toks[start], "DISTINCT")
  const from = distinct ? start + 1 : start
  const value = tr.range(from, end)
  // AVG of exact numbers divides on every digit (DuckDB's AVG of DECIMALs is a DOUBLE)
  if (tr.exactColumnAt(from, end) === undefined && !EXACT_RESULT.test(value) && !(name === "AVG" && tr.exactNumericRange(from, end))) return undefined
  const text = `CAST(${value} AS VARCHAR)`
  const windowed = isKw(tr.toks[close + 1], "OVER") && isOp(tr.toks[close + 2], "(")
  const windowClose = windowed ? matchParen(tr.toks, close + 2) : close
  const over = windowed ? ` OVER (${tr.range(close + 3, windowClose)})` : ""
  if (name === "MIN" || name === "MAX") return [`ora_number(${name === "MIN" ? "arg_min" : "arg_max"}(${text}, ora_number_key(${text}))${over})`, windowClose + 1]
  return [`ora_number_${name.toLowerCase()}(list(${distinct ? "DISTINCT " : ""}${text})${over})`, windowClose + 1]
}
