/**
 * Names under which a statement's own queries pass exact NUMBER values on: the aliases of select-list items that
 * are a NUMBER column without precision or an exact computation on one (`SELECT v * 2 AS x FROM t` in a subquery or
 * WITH block, read as `x` by the enclosing query; an unaliased one under its heading, `"V*2"`). The translator computes on such names as on the columns
 * themselves (number-functions.ts); it knows only names, not the types of a subquery's columns.
 */
import { findTopLevel, isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { visitAliasedItems } from "./select-aliases.ts"
import { EXACT_CALLS, isExactNumeric } from "./number-sql.ts"
import { headingOf, oracleName } from "./translate.ts"


/** Calls whose result is a NUMBER when an argument is one (others, such as TO_CHAR or LENGTH, make no exact value). */
const NUMERIC_CALLS = new Set([...EXACT_CALLS, "SUM", "AVG", "MIN", "MAX", "TO_NUMBER", "CAST"])

/**
 * True when tokens [from, to) are an exact NUMBER: they mention an exact name or `TO_NUMBER(` / `CAST(... AS
 * NUMBER)`, start with no call of a non-numeric function and concatenate nothing at their top level.
 */
const isExactExpression = (toks: ReadonlyArray<Tok>, from: number, to: number, exact: ReadonlySet<string>): boolean => {
  const first = toks[from]
  if (isKw(first, "CASE") && isKw(toks[to - 1], "END")) return isExactCase(toks, from, to, exact)
  if (isKw(first, "JSON_VALUE") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1) return returnsNumber(toks, from + 2, to - 1)
  if (isName(first) && isOp(toks[from + 1], "(") && !NUMERIC_CALLS.has(first.value)) return false
  if (isKw(first, "CAST") && !(isKw(toks[to - 2], "NUMBER") && isKw(toks[to - 3], "AS"))) return false
  let depth = 0
  let mentions = false
  // a call's KEEP and OVER clauses (`MAX(t) OVER (PARTITION BY n)`) and NVL2's condition do not type its value
  const close = isName(first) && isOp(toks[from + 1], "(") ? matchParen(toks, from + 1) : -1
  const scanEnd = close > 0 && isKw(toks[close + 1], "KEEP", "OVER") ? close + 1 : to
  const scanFrom = isKw(first, "NVL2") && close > 0 ? Math.max(from, findTopLevel(toks, from + 2, close, (t) => isOp(t, ","))) : from
  for (let k = scanFrom; k < scanEnd; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isOp(t, "||")) return false
    if (isKw(t, "TO_NUMBER") && isOp(toks[k + 1], "(")) mentions = true
    else if (isKw(t, "CAST") && isOp(toks[k + 1], "(")) {
      const close = matchParen(toks, k + 1)
      if (isKw(toks[close - 1], "NUMBER") && isKw(toks[close - 2], "AS")) mentions = true
    } else if (isName(t) && exact.has(oracleName(t)) && !isOp(toks[k + 1], "(") && !isOp(toks[k + 1], ".")) mentions = true
  }
  return mentions
}

/** Whether a call's arguments [from, to) end with `RETURNING NUMBER` (no precision: an exact NUMBER). */
const returnsNumber = (toks: ReadonlyArray<Tok>, from: number, to: number): boolean => {
  for (let k = from; k < to; k++) {
    if (isOp(toks[k], "(")) k = matchParen(toks, k)
    else if (isKw(toks[k], "RETURNING")) return isKw(toks[k + 1], "NUMBER") && !isOp(toks[k + 2], "(")
  }
  return false
}

/** The columns JSON_TABLE calls of `toks` declare as NUMBER without precision (`n NUMBER PATH '$.n'`, nested ones too). */
const jsonTableNumberColumns = (toks: ReadonlyArray<Tok>): Array<string> => {
  const out: Array<string> = []
  toks.forEach((t, k) => {
    if (!isKw(t, "JSON_TABLE") || !isOp(toks[k + 1], "(")) return
    const close = matchParen(toks, k + 1)
    for (let j = k + 2; j < close; j++) {
      if (isName(toks[j]) && isKw(toks[j + 1], "NUMBER") && !isOp(toks[j + 2], "(") && (isOp(toks[j - 1], "(") || isOp(toks[j - 1], ","))) out.push(oracleName(toks[j]!))
    }
  })
  return out
}

/**
 * A whole `CASE ... END` [from, to) is an exact NUMBER when one of its results is and the first is no string literal
 * (the result's type is the first result's, as translate.ts exactCaseParts renders it): a NUMBER column in a WHEN
 * condition alone does not make one (`CASE WHEN n > 1 THEN 'big' END` is text, ordered as text).
 */
const isExactCase = (toks: ReadonlyArray<Tok>, from: number, to: number, exact: ReadonlySet<string>): boolean => {
  const results: Array<[number, number]> = []
  let depth = 0
  let start = -1
  for (let k = from + 1; k < to; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) k = matchParen(toks, k)
    else if (isKw(t, "CASE")) depth++
    else if (depth > 0 && isKw(t, "END")) depth--
    else if (depth === 0 && isKw(t, "THEN", "ELSE", "WHEN", "END")) {
      if (start >= 0) results.push([start, k])
      start = isKw(t, "THEN", "ELSE") ? k + 1 : -1
    }
  }
  if (results.length === 0 || toks[results[0]![0]]?.kind === "str") return false
  return results.some(([a, b]) => isExactExpression(toks, a, b, exact))
}

/**
 * A quotient or average of exact numbers (NUMBER(p,s) columns `bounded`, exact names, literals): computed on every
 * digit (translate.ts), so an exact NUMBER too.
 */
const isExactQuotient = (toks: ReadonlyArray<Tok>, from: number, to: number, exact: ReadonlySet<string>, bounded: ReadonlySet<string>): boolean => {
  let divides = false
  for (let k = from; k < to && !divides; k++) divides = isOp(toks[k], "/") || (isKw(toks[k], "AVG") && isOp(toks[k + 1], "("))
  return divides && isExactNumeric(toks, from, to, (t) => t.kind !== "bind" && (exact.has(oracleName(t)) || bounded.has(oracleName(t))))
}

/**
 * `exact` with the aliases of every select list of `sql`'s significant tokens `toks` whose item is an exact NUMBER
 * (also a quotient or average over the NUMBER(p,s) columns `bounded`).
 */
export const withExactAliases = (toks: ReadonlyArray<Tok>, exact: ReadonlySet<string>, bounded: ReadonlySet<string> = new Set()): ReadonlySet<string> => {
  const out = new Set([...exact, ...jsonTableNumberColumns(toks)])
  const learn = (name: string, from: number, to: number): boolean => {
    if (out.has(name) || !(isExactExpression(toks, from, to, out) || isExactQuotient(toks, from, to, out, bounded))) return false
    out.add(name)
    return true
  }
  // an unaliased item is passed on under its heading (`v * 2` as "V*2", expression-names.ts)
  visitAliasedItems(toks, (from, to, alias) => learn(oracleName(alias), from, to), (from, to) => learn(headingOf(toks.slice(from, to)), from, to))
  return out
}

/**
 * `bounded` (the NUMBER(p,s) column names of a statement's tables, DuckDB DECIMALs) with the aliases its subqueries
 * and WITH blocks give such a column or a `+ - *` expression of them (`SELECT x / 7 FROM (SELECT q x FROM t)`), so
 * that the enclosing query divides them on every digit too.
 */
export const withBoundedAliases = (toks: ReadonlyArray<Tok>, bounded: ReadonlySet<string>): ReadonlySet<string> => {
  if (bounded.size === 0) return bounded
  const out = new Set(bounded)
  const learn = (name: string, from: number, to: number): boolean => {
    if (out.has(name)) return false
    for (let k = from; k < to; k++) if (isOp(toks[k], "/") || (isKw(toks[k], "AVG") && isOp(toks[k + 1], "("))) return false
    if (!isExactNumeric(toks, from, to, (t) => t.kind !== "bind" && out.has(oracleName(t)))) return false
    out.add(name)
    return true
  }
  visitAliasedItems(toks, (from, to, alias) => learn(oracleName(alias), from, to))
  return out
}
