/**
 * Names under which a statement's own queries pass TIMESTAMP WITH TIME ZONE values on: the aliases of select-list
 * items that are a zoned column or an expression whose value is one (`SELECT t + INTERVAL '1' HOUR x FROM ...` in a
 * subquery or WITH block, read as `x` by the enclosing query). The translator groups, counts, compares and orders such
 * names by instant as it does the columns (datetime-groups.ts); like the columns, it knows them by name only
 * (number-aliases.ts does the same for exact NUMBERs).
 */
import { findTopLevel, isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { visitAliasedItems } from "./select-aliases.ts"
import { headingOf } from "./expression-names.ts"
import type { TextDatetimeKind } from "./translate-types.ts"
import { textDatetimeKindOf } from "./zoned-references.ts"


/** Calls whose result is zoned when their first argument is (NVL, COALESCE, GREATEST, LEAST, MIN, MAX, ...). */
const FIRST_ARGUMENT_CALLS = new Set(["NVL", "COALESCE", "GREATEST", "LEAST", "MIN", "MAX", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "ANY_VALUE"])

/** The end of the (possibly qualified) column reference at `from`, or -1. */
const referenceEnd = (toks: ReadonlyArray<Tok>, from: number): number => {
  if (!isName(toks[from])) return -1
  let k = from + 1
  while (isOp(toks[k], ".") && isName(toks[k + 1])) k += 2
  return isOp(toks[k], "(") ? -1 : k
}

/** The index after a call's `KEEP (...)` and `OVER (...)` clauses that follow its `)` at `close`. */
const clausesEnd = (toks: ReadonlyArray<Tok>, close: number): number => {
  let end = close + 1
  for (const word of ["KEEP", "OVER"]) if (isKw(toks[end], word) && isOp(toks[end + 1], "(")) end = matchParen(toks, end + 1) + 1
  return end
}

/**
 * The result expressions of `CASE ... END` spanning tokens [from, to) (its THEN and ELSE operands), of DECODE (every
 * second argument after the first, and the default) or NVL2 (its second and third); undefined for other forms.
 */
const resultsOf = (toks: ReadonlyArray<Tok>, from: number, to: number): Array<[number, number]> | undefined => {
  const first = toks[from]
  if (isKw(first, "DECODE", "NVL2") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1) {
    const args: Array<[number, number]> = []
    for (let k = from + 2; k < to; ) {
      const comma = findTopLevel(toks, k, to - 1, (t) => isOp(t, ","))
      const end = comma < 0 ? to - 1 : comma
      args.push([k, end])
      k = end + 1
    }
    return first!.value === "NVL2" ? args.slice(1) : args.filter((_, n) => (n > 0 && n % 2 === 0) || (n === args.length - 1 && n > 0 && n % 2 === 1 && args.length % 2 === 0))
  }
  if (!isKw(first, "CASE") || !isKw(toks[to - 1], "END")) return undefined
  const out: Array<[number, number]> = []
  let start = -1
  for (let k = from + 1, depth = 0, nested = 0; k < to - 1; k++) {
    const t = toks[k]
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth > 0) continue
    else if (isKw(t, "CASE")) nested++
    else if (isKw(t, "END") && nested-- === 0) return undefined
    else if (nested === 0 && isKw(t, "WHEN", "THEN", "ELSE")) {
      if (start >= 0) out.push([start, k])
      start = isKw(t, "WHEN") ? -1 : k + 1
    }
  }
  if (start >= 0) out.push([start, to - 1])
  return out
}

/** True when tokens [from, to) are a zoned value by their form (see the module comment). */
const isZonedExpression = (toks: ReadonlyArray<Tok>, from: number, to: number, zoned: ReadonlyMap<string, TextDatetimeKind>): boolean => {
  // CASE, DECODE, NVL2: of the type of their first result that is not NULL (SQL Language Reference, "CASE
  // Expressions", "DECODE", "NVL2")
  const results = resultsOf(toks, from, to)
  if (results !== undefined) {
    const decided = results.find(([a, b]) => !(b === a + 1 && isKw(toks[a], "NULL")))
    return decided !== undefined && isZonedExpression(toks, decided[0], decided[1], zoned)
  }
  // a scalar subquery of one such item
  if (isOp(toks[from], "(") && isKw(toks[from + 1], "SELECT") && matchParen(toks, from) === to - 1) {
    const start = isKw(toks[from + 2], "DISTINCT", "UNIQUE", "ALL") ? from + 3 : from + 2
    const fromAt = findTopLevel(toks, start, to - 1, (t) => isKw(t, "FROM"))
    return fromAt > start && findTopLevel(toks, start, fromAt, (t) => isOp(t, ",")) < 0 && isZonedExpression(toks, start, fromAt, zoned)
  }
  const ref = referenceEnd(toks, from)
  const zonedRef = ref > 0 && textDatetimeKindOf(toks[ref - 1]!, zoned) === "zoned"
  // a column alone, or ± an interval literal
  if (zonedRef && (ref === to || ((isOp(toks[ref], "+") || isOp(toks[ref], "-")) && isKw(toks[ref + 1], "INTERVAL")))) return true
  for (let k = from, depth = 0; k < to; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "AT") && (isKw(toks[k + 1], "LOCAL") || isKw(toks[k + 1], "TIME"))) return true
  }
  const first = toks[from]
  if (!isName(first) || !isOp(toks[from + 1], "(")) return false
  const close = matchParen(toks, from + 1)
  // MIN / MAX ... KEEP (...) and analytic functions' OVER (...) take the type of their argument
  const windowed = close !== to - 1 && FIRST_ARGUMENT_CALLS.has(first.value) && clausesEnd(toks, close) === to
  if (close !== to - 1 && !windowed) return false
  if (first.value === "FROM_TZ" || first.value === "TO_TIMESTAMP_TZ") return true
  if (first.value === "CAST") return isKw(toks[to - 2], "ZONE") && isKw(toks[to - 3], "TIME") && isKw(toks[to - 4], "WITH")
  if (!FIRST_ARGUMENT_CALLS.has(first.value)) return false
  const argEnd = findTopLevel(toks, from + 2, close, (t) => isOp(t, ","))
  const end = argEnd < 0 ? close : argEnd
  return isZonedExpression(toks, from + 2, end, zoned)
}

/** True when tokens [from, to) of `toks` are a zoned value by their form, with `zoned` the names known as such. */
export const isZonedValue = (toks: ReadonlyArray<Tok>, from: number, to: number, zoned: ReadonlyMap<string, TextDatetimeKind>): boolean =>
  isZonedExpression(toks, from, to, zoned)

/**
 * The names of a WITH block's column list (`WITH w (a, b) AS (SELECT t, v FROM ...)`) whose item of its query's
 * (first) select list is a zoned value; true when one was learnt.
 */
const learnColumnLists = (toks: ReadonlyArray<Tok>, out: Map<string, TextDatetimeKind>): boolean => {
  let learnt = false
  toks.forEach((t, at) => {
    if (!isKw(toks[at - 1], "WITH") && !isOp(toks[at - 1], ",")) return
    if (!isName(t) || !isOp(toks[at + 1], "(")) return
    const listEnd = matchParen(toks, at + 1)
    if (listEnd < 0 || !isKw(toks[listEnd + 1], "AS") || !isOp(toks[listEnd + 2], "(") || !isKw(toks[listEnd + 3], "SELECT")) return
    const names = toks.slice(at + 2, listEnd).filter((x) => !isOp(x, ","))
    const queryEnd = matchParen(toks, listEnd + 2)
    const start = isKw(toks[listEnd + 4], "DISTINCT", "UNIQUE", "ALL") ? listEnd + 5 : listEnd + 4
    const fromAt = findTopLevel(toks, start, queryEnd, (x) => isKw(x, "FROM"))
    if (fromAt < 0) return
    for (let k = start, n = 0; k < fromAt && n < names.length; n++) {
      const comma = findTopLevel(toks, k, fromAt, (x) => isOp(x, ","))
      const end = comma < 0 ? fromAt : comma
      // the item without its own alias, which the column list replaces
      const last = toks[end - 1]
      const aliased = end - k >= 2 && isName(last) && !isKw(last, "END") && !(isKw(last, "LOCAL") && isKw(toks[end - 2], "AT")) && (isKw(toks[end - 2], "AS") || isName(toks[end - 2]) || isOp(toks[end - 2], ")"))
      const itemEnd = aliased ? (isKw(toks[end - 2], "AS") ? end - 2 : end - 1) : end
      const name = names[n]!
      if (!out.has(name.value) && isName(name) && isZonedExpression(toks, k, itemEnd, out)) {
        out.set(name.value, "zoned")
        learnt = true
      }
      k = end + 1
    }
  })
  return learnt
}

/**
 * `zoned` with the aliases of every select list of the significant tokens `toks` whose item is a zoned value, and the
 * names WITH blocks' column lists give such items.
 */
export const withZonedAliases = (toks: ReadonlyArray<Tok>, zoned: ReadonlyMap<string, TextDatetimeKind>): ReadonlyMap<string, TextDatetimeKind> => {
  if (![...zoned.values()].includes("zoned")) return zoned
  const out = new Map(zoned)
  for (let round = 0; round < 4; round++) {
    let learnt = learnColumnLists(toks, out)
    const learn = (name: string, from: number, to: number): boolean => {
      if (out.has(name) || !isZonedExpression(toks, from, to, out)) return false
      out.set(name, "zoned")
      learnt = true
      return true
    }
    // an unaliased item is passed on under its heading (`t + INTERVAL '1' HOUR` as "T+INTERVAL'1'HOUR")
    visitAliasedItems(toks, (from, to, alias) => learn(alias.value, from, to), (from, to) => learn(headingOf(toks.slice(from, to)), from, to))
    if (!learnt) break
  }
  return out
}
