/**
 * Short-circuit evaluation of a condition's top-level AND / OR: "PL/SQL stops evaluating a logical expression as
 * soon as it can determine the result" (PL/SQL Language Reference, "Short-Circuit Evaluation"), so
 * `x.EXISTS(k) AND x(k) > 0` never reads a missing element. The interpreter takes an expression's element reads
 * before it runs, so such an expression first fails NO_DATA_FOUND (or ORA-06533 past COUNT); only then is it taken
 * apart here and its operands evaluated left to right, which keeps the common case one evaluation.
 */
import type { DuckDBValue } from "@duckdb/node-api"
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

/**
 * The value of `toks` with its top-level OR, then AND, operands evaluated left to right by `leaf`, stopping at the
 * first TRUE (OR) or FALSE (AND), in three-valued logic; undefined when it has neither operator.
 */
export const shortCircuit = async (toks: Expr, leaf: (operand: Expr) => Promise<Value>): Promise<DuckDBValue | undefined> => {
  for (const word of ["OR", "AND"] as const) {
    const operands = splitAt(toks, word)
    if (operands.length < 2) continue
    const decisive = word === "OR"
    let unknown = false
    for (const operand of operands) {
      const v = (await shortCircuit(operand, leaf)) ?? (await leaf(operand))
      if (v === null) unknown = true
      else if (v === decisive) return decisive
    }
    return unknown ? null : !decisive
  }
  return undefined
}
