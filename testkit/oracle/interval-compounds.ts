/**
 * Interval expressions longer than one column or literal, read from the tokens before translation: `d9 + d6`,
 * `(d9 + d6) * 2`, `NVL(d9, d6) + INTERVAL '1' SECOND`, `CASE WHEN .. THEN d9 + d6 END`. interval-operands.ts asks
 * this module where such an operand of a comparison, BETWEEN, IN list or CASE ends, whether it is an interval and of
 * which kind, and whether an exact interval column (INTERVAL DAY TO SECOND(7-9), YEAR(9) TO MONTH, intervals.ts) is
 * part of it, so that every interval operand there is brought to exact storage and Oracle's interval arithmetic is
 * computed on every digit ("Datetime/Interval Arithmetic", SQL Language Reference: interval ± interval, interval * n,
 * interval / n are intervals).
 */
import { isExactInterval } from "./interval-exprs.ts"
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { parseOracleType, type OraType } from "./types.ts"

/** The kind of an interval expression: DAY TO SECOND or YEAR TO MONTH. */
export type IntervalKind = "intervalds" | "intervalym"

/** What an operand is: `kind` when it is an interval, `exact` when an exact interval column is part of it. */
export interface OperandShape {
  readonly kind: IntervalKind | undefined
  readonly exact: boolean
  /** One column or literal (interval-operands.ts handles these alone). */
  readonly simple: boolean
}

const UNITS = ["DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO"]
/** Calls whose result is one of their arguments (by index: undefined for all), as Oracle's choosing functions return. */
const CHOOSING_RESULTS: Record<string, (count: number) => ReadonlyArray<number>> = {
  NVL: (n) => range(0, n),
  COALESCE: (n) => range(0, n),
  GREATEST: (n) => range(0, n),
  LEAST: (n) => range(0, n),
  MIN: (n) => range(0, n),
  MAX: (n) => range(0, n),
  SUM: (n) => range(0, n),
  AVG: (n) => range(0, n),
  NVL2: (n) => range(1, n),
  // DECODE(expr, search, result, ..., default): the results and the default
  DECODE: (n) => range(2, n).filter((i) => i % 2 === 0 || i === n - 1)
}
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)

/** Keywords and operators that end an operand (of a comparison, BETWEEN, IN, CASE branch, select item). */
const ENDS = ["AND", "OR", "THEN", "WHEN", "ELSE", "END", "FROM", "WHERE", "ORDER", "GROUP", "HAVING", "ASC", "DESC", "NULLS", "BETWEEN", "IN", "IS", "LIKE", "NOT", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "AS", "INTO", "CONNECT", "START", "FOR", "ON", "USING", "JOIN", "SELECT", "SET", "VALUES", "RETURNING", "BY", "DISTINCT"]
const COMPARISONS = ["=", "<>", "!=", "^=", "<", ">", "<=", ">="]
const isComparison = (t: Tok | undefined) => t !== undefined && t.kind === "op" && COMPARISONS.includes(t.value)

/** The end (exclusive) of the interval literal at `k`, or -1. */
const literalEnd = (sig: ReadonlyArray<Tok>, k: number): number => {
  if (!isKw(sig[k], "INTERVAL") || sig[k + 1]?.kind !== "str") return -1
  let j = k + 2
  while (j < sig.length) {
    if (isKw(sig[j], ...UNITS)) j++
    else if (isOp(sig[j], "(") && sig[j + 1]?.kind === "num" && (isOp(sig[j + 2], ")") || (isOp(sig[j + 2], ",") && sig[j + 3]?.kind === "num" && isOp(sig[j + 4], ")")))) j = isOp(sig[j + 2], ")") ? j + 3 : j + 5
    else break
  }
  return j > k + 2 ? j : -1
}

/** The index of the END closing the CASE at `k`, or -1. */
const caseEnd = (sig: ReadonlyArray<Tok>, k: number): number => {
  let depth = 0
  for (let j = k; j < sig.length; j++) {
    if (isOp(sig[j], "(")) j = matchParen(sig, j)
    else if (isKw(sig[j], "CASE")) depth++
    else if (isKw(sig[j], "END") && --depth === 0) return j
    if (j < 0) return -1
  }
  return -1
}

/** The end (exclusive) of the operand starting at `k`: up to a comparison, a keyword ending it, a comma or a closing parenthesis. */
export const operandEnd = (sig: ReadonlyArray<Tok>, k: number): number => {
  let j = k
  while (j < sig.length) {
    const t = sig[j]!
    if (isOp(t, "(")) {
      const close = matchParen(sig, j)
      if (close < 0) return j
      j = close + 1
    } else if (isKw(t, "CASE")) {
      const end = caseEnd(sig, j)
      if (end < 0) return j
      j = end + 1
    } else if (isKw(t, "INTERVAL") && literalEnd(sig, j) > 0) j = literalEnd(sig, j)
    else if (isOp(t, ")") || isOp(t, ",") || isOp(t, ";") || isComparison(t) || isKw(t, ...ENDS)) return j
    else j++
  }
  return j
}

/** The start of the operand ending at `end` (exclusive), read backwards to the keyword, operator or parenthesis before it. */
export const operandStart = (sig: ReadonlyArray<Tok>, end: number): number => {
  let j = end - 1
  while (j >= 0) {
    const t = sig[j]!
    if (isOp(t, ")")) {
      let depth = 0
      let open = j
      for (; open >= 0; open--) {
        if (isOp(sig[open], ")")) depth++
        else if (isOp(sig[open], "(") && --depth === 0) break
      }
      if (open < 0) return j + 1
      j = open - 1
      continue
    }
    if (isKw(t, "END")) {
      let depth = 0
      let start = j
      for (; start >= 0; start--) {
        if (isKw(sig[start], "END")) depth++
        else if (isKw(sig[start], "CASE") && --depth === 0) break
      }
      if (start < 0) return j + 1
      j = start - 1
      continue
    }
    if (isOp(t, "(") || isOp(t, ",") || isComparison(t) || (isKw(t, ...ENDS, "CASE") && !isKw(sig[j - 1], "INTERVAL")) || isKw(t, "WHERE", "SELECT")) return j + 1
    // the unit keywords of an interval literal belong to it
    j--
  }
  return 0
}

/** The top-level ranges of [from, to) split at the operators `ops` (unary signs stay with their operand). */
const split = (sig: ReadonlyArray<Tok>, from: number, to: number, ops: ReadonlyArray<string>): Array<{ from: number; to: number; op: string | undefined }> => {
  const out: Array<{ from: number; to: number; op: string | undefined }> = []
  let start = from
  let op: string | undefined
  for (let k = from; k < to; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) k = Math.max(k, matchParen(sig, k))
    else if (isKw(t, "CASE")) k = Math.max(k, caseEnd(sig, k))
    else if (t.kind === "op" && ops.includes(t.value) && k > start) {
      out.push({ from: start, to: k, op })
      op = t.value
      start = k + 1
    }
  }
  out.push({ from: start, to, op })
  return out
}

const NOT_INTERVAL: OperandShape = { kind: undefined, exact: false, simple: false }

/** The shape of the operand [from, to) of `sig`, by the interval columns `types` (by name) and interval literals in it. */
export const operandShape = (sig: ReadonlyArray<Tok>, from: number, to: number, types: ReadonlyMap<string, OraType>): OperandShape => {
  if (from >= to) return NOT_INTERVAL
  const terms = split(sig, from, to, ["+", "-"])
  if (terms.length > 1) {
    const shapes = terms.map((t) => operandShape(sig, t.from, t.to, types))
    const kind = shapes[0]!.kind
    return kind !== undefined && shapes.every((s) => s.kind === kind) ? { kind, exact: shapes.some((s) => s.exact), simple: false } : NOT_INTERVAL
  }
  const factors = split(sig, from, to, ["*", "/"])
  if (factors.length > 1) {
    const shapes = factors.map((f) => ({ f, s: factorShape(sig, f.from, f.to, types) }))
    const intervals = shapes.filter((x) => x.s.kind !== undefined)
    // interval * n, n * interval, interval / n
    if (intervals.length !== 1 || intervals[0]!.f.op === "/") return NOT_INTERVAL
    // a YEAR TO MONTH interval scaled is computed in exact storage (translate-expression.ts)
    return { ...intervals[0]!.s, exact: intervals[0]!.s.exact || intervals[0]!.s.kind === "intervalym", simple: false }
  }
  return factorShape(sig, from, to, types)
}

/** The shape of one factor: a literal, column, parenthesised operand, choosing call, CAST to an interval or CASE. */
const factorShape = (sig: ReadonlyArray<Tok>, from: number, to: number, types: ReadonlyMap<string, OraType>): OperandShape => {
  let k = from
  while (k < to && (isOp(sig[k], "-") || isOp(sig[k], "+"))) k++
  if (k >= to) return NOT_INTERVAL
  const signed = k > from
  const t = sig[k]!
  if (isKw(t, "INTERVAL") && literalEnd(sig, k) === to) return { kind: [...sig.slice(k, to)].some((x) => isKw(x, "YEAR", "MONTH")) ? "intervalym" : "intervalds", exact: false, simple: !signed }
  if (isName(t) && !isKw(t, "CASE", "CAST") && !isOp(sig[k + 1], "(")) {
    const last = isOp(sig[k + 1], ".") && isName(sig[k + 2]) ? k + 2 : k
    if (last + 1 !== to) return NOT_INTERVAL
    const type = types.get(sig[last]!.value)
    if (type === undefined || (type.kind !== "intervalds" && type.kind !== "intervalym")) return NOT_INTERVAL
    return { kind: type.kind, exact: isExactInterval(type), simple: !signed }
  }
  if (isOp(t, "(") && matchParen(sig, k) === to - 1 && !isKw(sig[k + 1], "SELECT", "WITH")) return { ...operandShape(sig, k + 1, to - 1, types), simple: false }
  if (isKw(t, "CASE") && caseEnd(sig, k) === to - 1) {
    const shapes: Array<OperandShape> = []
    for (let j = k + 1; j < to - 1; j++) {
      if (isOp(sig[j], "(")) j = matchParen(sig, j)
      else if (isKw(sig[j], "CASE")) j = caseEnd(sig, j)
      else if (isKw(sig[j], "THEN", "ELSE")) shapes.push(operandShape(sig, j + 1, operandEnd(sig, j + 1), types))
    }
    return choose(shapes)
  }
  if (isName(t) && isOp(sig[k + 1], "(") && matchParen(sig, k + 1) === to - 1) {
    const name = t.value.toUpperCase()
    if (name === "CAST") {
      let asAt = -1
      for (let j = k + 2; j < to - 1; j++) if (isOp(sig[j], "(")) j = matchParen(sig, j)
        else if (isKw(sig[j], "AS")) asAt = j
      const type = asAt < 0 ? undefined : parseOracleType(sig.slice(asAt + 1, to - 1).map((x) => x.text).join(" "))
      if (type === undefined || (type.kind !== "intervalds" && type.kind !== "intervalym")) return NOT_INTERVAL
      return { kind: type.kind, exact: isExactInterval(type), simple: false }
    }
    const results = CHOOSING_RESULTS[name]
    if (results === undefined) return NOT_INTERVAL
    const args = split(sig, k + 2, to - 1, [","])
    return choose(results(args.length).map((i) => args[i]).filter((a) => a !== undefined).map((a) => operandShape(sig, a.from, a.to, types)))
  }
  return NOT_INTERVAL
}

/** The shape of a value chosen among `shapes` (CASE results, NVL arguments): an interval when one of them is. */
const choose = (shapes: ReadonlyArray<OperandShape>): OperandShape => {
  const kind = shapes.find((s) => s.kind !== undefined)?.kind
  return kind === undefined ? NOT_INTERVAL : { kind, exact: shapes.some((s) => s.kind === kind && s.exact), simple: false }
}

/** The interval type tokens [from, to) are a CAST to (`CAST(x AS INTERVAL DAY(9) TO SECOND(6))`), if they are one. */
export const intervalCastTypeAt = (sig: ReadonlyArray<Tok>, from: number, to: number): OraType | undefined => {
  if (!isKw(sig[from], "CAST") || !isOp(sig[from + 1], "(") || matchParen(sig, from + 1) !== to - 1) return undefined
  let asAt = -1
  for (let j = from + 2; j < to - 1; j++) if (isOp(sig[j], "(")) j = matchParen(sig, j)
    else if (isKw(sig[j], "AS")) asAt = j
  if (asAt < 0 || !isKw(sig[asAt + 1], "INTERVAL")) return undefined
  const type = parseOracleType(sig.slice(asAt + 1, to - 1).map((t) => t.text).join(" "))
  return type?.kind === "intervalds" || type?.kind === "intervalym" ? type : undefined
}
