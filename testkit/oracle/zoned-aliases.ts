/**
 * Names under which a statement's own queries pass TIMESTAMP WITH TIME ZONE values on: the aliases of select-list
 * items that are a zoned column or an expression whose value is one (`SELECT t + INTERVAL '1' HOUR x FROM ...` in a
 * subquery or WITH block, read as `x` by the enclosing query). The translator groups, counts, compares and orders such
 * names by instant as it does the columns (datetime-groups.ts); like the columns, it knows them by name only
 * (number-aliases.ts does the same for exact NUMBERs).
 */
import { findTopLevel, isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { visitAliasedItems } from "./select-aliases.ts"
import type { TextDatetimeKind } from "./translate.ts"

const isName = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** Calls whose result is zoned when their first argument is (NVL, COALESCE, GREATEST, LEAST, MIN, MAX, ...). */
const FIRST_ARGUMENT_CALLS = new Set(["NVL", "COALESCE", "GREATEST", "LEAST", "MIN", "MAX", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "ANY_VALUE"])

/** The end of the (possibly qualified) column reference at `from`, or -1. */
const referenceEnd = (toks: ReadonlyArray<Tok>, from: number): number => {
  if (!isName(toks[from])) return -1
  let k = from + 1
  while (isOp(toks[k], ".") && isName(toks[k + 1])) k += 2
  return isOp(toks[k], "(") ? -1 : k
}

/** True when tokens [from, to) are a zoned value by their form (see the module comment). */
const isZonedExpression = (toks: ReadonlyArray<Tok>, from: number, to: number, zoned: ReadonlyMap<string, TextDatetimeKind>): boolean => {
  const ref = referenceEnd(toks, from)
  const zonedRef = ref > 0 && zoned.get(toks[ref - 1]!.value) === "zoned"
  // a column alone, or ± an interval literal
  if (zonedRef && (ref === to || ((isOp(toks[ref], "+") || isOp(toks[ref], "-")) && isKw(toks[ref + 1], "INTERVAL")))) return true
  for (let k = from, depth = 0; k < to; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "AT") && (isKw(toks[k + 1], "LOCAL") || isKw(toks[k + 1], "TIME"))) return true
  }
  const first = toks[from]
  if (!isName(first) || !isOp(toks[from + 1], "(") || matchParen(toks, from + 1) !== to - 1) return false
  if (first.value === "FROM_TZ" || first.value === "TO_TIMESTAMP_TZ") return true
  if (first.value === "CAST") return isKw(toks[to - 2], "ZONE") && isKw(toks[to - 3], "TIME") && isKw(toks[to - 4], "WITH")
  if (!FIRST_ARGUMENT_CALLS.has(first.value)) return false
  const argEnd = findTopLevel(toks, from + 2, to - 1, (t) => isOp(t, ","))
  const end = argEnd < 0 ? to - 1 : argEnd
  return isZonedExpression(toks, from + 2, end, zoned)
}

/** `zoned` with the aliases of every select list of the significant tokens `toks` whose item is a zoned value. */
export const withZonedAliases = (toks: ReadonlyArray<Tok>, zoned: ReadonlyMap<string, TextDatetimeKind>): ReadonlyMap<string, TextDatetimeKind> => {
  if (![...zoned.values()].includes("zoned")) return zoned
  const out = new Map(zoned)
  visitAliasedItems(toks, (from, to, alias) => {
    if (out.has(alias.value) || !isZonedExpression(toks, from, to, out)) return false
    out.set(alias.value, "zoned")
    return true
  })
  return out
}
