/**
 * Evaluates the simplest PL/SQL expressions without a round trip through the SQL engine: whole-number arithmetic
 * (+, -, *, MOD), comparisons, AND / OR / NOT over non-NULL values, as loop counters and conditions use them. Anything
 * else (a fraction, a NULL, a string, a function other than MOD) returns undefined and is left to the SQL engine, so
 * NUMBER's decimal arithmetic and SQL's three-valued logic are never approximated.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { isKw, isOp, type Tok } from "../lexer.ts"

/** The value of the name (variable, field, attribute) starting at `at`, and how many tokens it spans. */
export type NameLookup = (toks: ReadonlyArray<Tok>, at: number) => { value: unknown; width: number } | undefined

class NotSimple extends Error {}

const COMPARISONS = new Set(["=", "<>", "!=", "<", "<=", ">", ">="])
const LIMIT = 2 ** 52

const whole = (v: unknown): number => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || Math.abs(v) > LIMIT) throw new NotSimple()
  return v
}

const truth = (v: unknown): boolean => {
  if (typeof v !== "boolean") throw new NotSimple()
  return v
}

/** The expression's value when it is simple enough, else undefined. */
export const fastEvaluate = (toks: ReadonlyArray<Tok>, lookup: NameLookup): DuckDBValue | undefined => {
  let i = 0
  const primary = (): unknown => {
    const t = toks[i]
    if (t === undefined) throw new NotSimple()
    if (t.kind === "num" && /^\d{1,15}$/.test(t.text)) {
      i++
      return Number(t.value)
    }
    if (isOp(t, "(")) {
      i++
      const v = or()
      if (!isOp(toks[i], ")")) throw new NotSimple()
      i++
      return v
    }
    if (isKw(t, "MOD") && isOp(toks[i + 1], "(")) {
      i += 2
      const a = whole(sum())
      if (!isOp(toks[i], ",")) throw new NotSimple()
      i++
      const b = whole(sum())
      if (!isOp(toks[i], ")")) throw new NotSimple()
      i++
      // Oracle's MOD(a, 0) is a; the sign follows the dividend, as JavaScript's %
      return b === 0 ? a : a % b
    }
    if (isKw(t, "TRUE", "FALSE") && lookup(toks, i) === undefined) {
      i++
      return t.value === "TRUE"
    }
    const found = t.kind === "ident" || t.kind === "qident" || t.kind === "bind" ? lookup(toks, i) : undefined
    if (found === undefined || found.value === null) throw new NotSimple()
    i += found.width
    return found.value
  }
  const unary = (): unknown => {
    if (isOp(toks[i], "-")) {
      i++
      return -whole(unary())
    }
    return primary()
  }
  const product = (): unknown => {
    let v = unary()
    while (isOp(toks[i], "*")) {
      i++
      v = whole(v) * whole(unary())
    }
    return v
  }
  const sum = (): unknown => {
    let v = product()
    for (;;) {
      if (isOp(toks[i], "+")) {
        i++
        v = whole(v) + whole(product())
      } else if (isOp(toks[i], "-")) {
        i++
        v = whole(v) - whole(product())
      } else return v
    }
  }
  const comparison = (): unknown => {
    const a = sum()
    const op = toks[i]
    if (op?.kind !== "op" || !COMPARISONS.has(op.value)) return a
    i++
    const x = whole(a)
    const y = whole(sum())
    switch (op.value) {
      case "=":
        return x === y
      case "<>":
      case "!=":
        return x !== y
      case "<":
        return x < y
      case "<=":
        return x <= y
      case ">":
        return x > y
      default:
        return x >= y
    }
  }
  const not = (): unknown => {
    if (isKw(toks[i], "NOT")) {
      i++
      return !truth(not())
    }
    return comparison()
  }
  const and = (): unknown => {
    let v = not()
    while (isKw(toks[i], "AND")) {
      i++
      const w = not()
      v = truth(v) && truth(w)
    }
    return v
  }
  const or = (): unknown => {
    let v = and()
    while (isKw(toks[i], "OR")) {
      i++
      const w = and()
      v = truth(v) || truth(w)
    }
    return v
  }
  try {
    const v = or()
    if (i !== toks.length) return undefined
    return typeof v === "number" ? whole(v) : typeof v === "boolean" ? v : undefined
  } catch (e) {
    if (e instanceof NotSimple) return undefined
    throw e
  }
}
