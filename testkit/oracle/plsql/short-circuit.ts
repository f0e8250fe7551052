/**
 * Short-circuit evaluation of a condition's top-level AND / OR: "PL/SQL stops evaluating a logical expression as
 * soon as it can determine the result" (PL/SQL Language Reference, "Short-Circuit Evaluation"), so
 * `x.EXISTS(k) AND x(k) > 0` and `CASE WHEN x.EXISTS(k) THEN x(k) ELSE 0 END` never read a missing element. The interpreter takes an expression's element reads
 * before it runs, so such an expression first fails NO_DATA_FOUND (or ORA-06533 past COUNT); only then is it taken
 * apart here and its operands evaluated left to right, which keeps the common case one evaluation.
 */
import { isKw, isOp } from "../lexer.ts"
import type { Expr } from "./ast.ts"
import type { Value } from "./context.ts"

/** Errors of a read that short-circuit evaluation may have avoided: a missing element, a subscript past COUNT. */
export const isAvoidableRead = (e: unknown): boolean => {
  const code = (e as { code?: unknown } | null)?.code
  return code === 1403 || code === 6533
}

/** `toks` split at its top-level `word` (AND / OR), not inside parentheses, CASE ... END or BETWEEN ... AND. */
const splitAt = (toks: Expr, word: "AND" | "OR"): Array<Expr> => {
  const parts: Array<Expr> = []
  let depth = 0
  let between = false
  let start = 0
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(") || isKw(t, "CASE")) depth++
    else if (isOp(t, ")") || (isKw(t, "END") && depth > 0)) depth--
    else if (depth === 0 && isKw(t, "BETWEEN")) between = true
    else if (depth === 0 && isKw(t, word)) {
      if (word === "AND" && between) {
        between = false
        continue
      }
      parts.push(toks.slice(start, k))
      start = k + 1
    }
  }
  parts.push(toks.slice(start))
  return parts.some((p) => p.length === 0) ? [toks] : parts
}

/** The index of the `)` closing the `(` at `open` (-1 when it is not closed). */
const closingAt = (toks: Expr, open: number): number => {
  let depth = 0
  for (let k = open; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")") && --depth === 0) return k
  }
  return -1
}

/** `toks` without the parentheses around all of it (`((a AND b))` is `a AND b`). */
const unwrapped = (toks: Expr): Expr => {
  let out = toks
  while (isOp(out[0], "(") && closingAt(out, 0) === out.length - 1 && out.length > 2) out = out.slice(1, -1)
  return out
}

/**
 * Whether {@link shortCircuit} takes `toks` apart: a top-level AND / OR or a whole searched CASE, also inside
 * parentheses around the whole (`(x IS NOT NULL AND f(x) > 0)`) or under a NOT of such parentheses.
 */
export const isShortCircuitable = (toks: Expr): boolean => {
  const inner = unwrapped(toks)
  if (isKw(inner[0], "NOT") && isOp(inner[1], "(") && closingAt(inner, 1) === inner.length - 1) return isShortCircuitable(inner.slice(1))
  return searchedCase(inner) !== undefined || splitAt(inner, "OR").length > 1 || splitAt(inner, "AND").length > 1
}

/**
 * A searched `CASE WHEN c THEN r ... [ELSE e] END` that is the whole of `toks`, as its conditions and results;
 * undefined for anything else.
 */
const searchedCase = (toks: Expr): { readonly branches: Array<[Expr, Expr]>; readonly otherwise: Expr | undefined } | undefined => {
  if (!isKw(toks[0], "CASE") || !isKw(toks[1], "WHEN") || !isKw(toks[toks.length - 1], "END")) return undefined
  const marks: Array<[string, number]> = []
  let depth = 0
  for (let k = 1; k < toks.length - 1; k++) {
    const t = toks[k]!
    if (isOp(t, "(") || isKw(t, "CASE")) depth++
    else if (isOp(t, ")") || isKw(t, "END")) {
      if (--depth < 0) return undefined
    } else if (depth === 0 && isKw(t, "WHEN", "THEN", "ELSE")) marks.push([t.value, k])
  }
  const branches: Array<[Expr, Expr]> = []
  let otherwise: Expr | undefined
  for (let m = 0; m < marks.length; m++) {
    const [word, at] = marks[m]!
    const next = marks[m + 1]?.[1] ?? toks.length - 1
    if (word === "WHEN" && marks[m + 1]?.[0] === "THEN") {
      const thenEnd = marks[m + 2]?.[1] ?? toks.length - 1
      branches.push([toks.slice(at + 1, next), toks.slice(next + 1, thenEnd)])
      m++
    } else if (word === "ELSE" && m === marks.length - 1) otherwise = toks.slice(at + 1, next)
    else return undefined
  }
  return branches.length === 0 ? undefined : { branches, otherwise }
}

/**
 * The value of `toks` with its top-level OR, then AND, operands evaluated left to right by `leaf`, stopping at the
 * first TRUE (OR) or FALSE (AND), in three-valued logic, or of a searched CASE that is all of `toks` with only its
 * chosen result evaluated ("CASE ... uses short-circuit evaluation": PL/SQL Language Reference, "Searched CASE
 * Expression"); undefined when it is neither.
 */
export const shortCircuit = async (whole: Expr, leaf: (operand: Expr) => Promise<Value>): Promise<Value | undefined> => {
  // a part's value: short-circuited again where it has AND / OR / CASE itself (a NULL result is a value, not "none")
  const part = async (p: Expr): Promise<Value> => {
    const v = await shortCircuit(p, leaf)
    return v === undefined ? leaf(p) : v
  }
  const toks = unwrapped(whole)
  // `NOT (a AND b)`: the parenthesised condition short-circuited, then negated
  if (isKw(toks[0], "NOT") && isOp(toks[1], "(") && closingAt(toks, 1) === toks.length - 1 && isShortCircuitable(toks.slice(1))) {
    const v = await part(toks.slice(1))
    return typeof v === "boolean" ? !v : v
  }
  const searched = searchedCase(toks)
  if (searched !== undefined) {
    for (const [condition, result] of searched.branches) if ((await part(condition)) === true) return part(result)
    return searched.otherwise === undefined ? null : part(searched.otherwise)
  }
  for (const word of ["OR", "AND"] as const) {
    const operands = splitAt(toks, word)
    if (operands.length < 2) continue
    const decisive = word === "OR"
    let unknown = false
    for (const operand of operands) {
      const v = await part(operand)
      if (v === null) unknown = true
      else if (v === decisive) return decisive
    }
    return unknown ? null : !decisive
  }
  return undefined
}

/**
 * The outermost `CASE ... END` ranges of `toks` (first and last index) that are part of a larger expression (an
 * operand, a function's argument): evaluated alone, each reads only its chosen branch, as a CASE anywhere does.
 */
export const innerCases = (toks: Expr): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  let depth = 0
  let start = -1
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isKw(t, "CASE")) {
      if (depth === 0) start = k
      depth++
    } else if (isKw(t, "END") && depth > 0 && --depth === 0 && !(start === 0 && k === toks.length - 1)) out.push([start, k])
  }
  return out
}
