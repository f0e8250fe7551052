/**
 * Interval operands that meet an exact interval column (INTERVAL DAY TO SECOND(7-9), YEAR(9) TO MONTH: exact numbers,
 * intervals.ts) in one expression, brought to the exact storage: the arguments of NVL / NVL2 / COALESCE / DECODE /
 * GREATEST / LEAST, the THEN / ELSE results of CASE, the operands of BETWEEN and of IN lists, and the exact interval
 * columns a subquery selects. Each such column or interval literal is wrapped in `CAST(... AS INTERVAL DAY(9) TO
 * SECOND(9))` (or `YEAR(9) TO MONTH`), which the translator renders in exact storage typed as an interval
 * (interval-exprs.ts intervalCast), so that DuckDB compares and chooses numbers with numbers and the result is
 * described as an interval. Oracle converts the operands of these expressions to one interval type ("Datetime/Interval
 * Arithmetic", SQL Language Reference; COALESCE, NVL, DECODE and CASE return one data type of their arguments).
 */
import { isExactInterval, withCasts } from "./interval-exprs.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"
import type { OraType } from "./types.ts"

type Kind = "intervalds" | "intervalym"
const EXACT_TYPE: Record<Kind, string> = { intervalds: "INTERVAL DAY(9) TO SECOND(9)", intervalym: "INTERVAL YEAR(9) TO MONTH" }
const CHOOSING = ["NVL", "NVL2", "COALESCE", "DECODE", "GREATEST", "LEAST"]
const UNITS = ["DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO"]

const isName = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** A simple operand starting at `k`: an interval literal, `t.col` or `col` (not a call); its end (exclusive) and kind. */
const operandAt = (sig: ReadonlyArray<Tok>, k: number, types: ReadonlyMap<string, OraType>): { end: number; kind: Kind | undefined; exact: boolean } | undefined => {
  if (isKw(sig[k], "INTERVAL") && sig[k + 1]?.kind === "str") {
    let j = k + 2
    let ym = false
    while (j < sig.length) {
      if (isKw(sig[j], ...UNITS)) {
        ym ||= isKw(sig[j], "YEAR", "MONTH")
        j++
      } else if (isOp(sig[j], "(") && sig[j + 1]?.kind === "num" && (isOp(sig[j + 2], ")") || (isOp(sig[j + 2], ",") && sig[j + 3]?.kind === "num" && isOp(sig[j + 4], ")")))) j = isOp(sig[j + 2], ")") ? j + 3 : j + 5
      else break
    }
    return j > k + 2 ? { end: j, kind: ym ? "intervalym" : "intervalds", exact: false } : undefined
  }
  if (!isName(sig[k]) || isOp(sig[k - 1], ".")) return undefined
  const last = isOp(sig[k + 1], ".") && isName(sig[k + 2]) ? k + 2 : k
  if (isOp(sig[last + 1], "(") || isOp(sig[last + 1], ".")) return undefined
  const type = types.get(oracleName(sig[last]!))
  if (type === undefined || (type.kind !== "intervalds" && type.kind !== "intervalym")) return { end: last + 1, kind: undefined, exact: false }
  return { end: last + 1, kind: type.kind, exact: isExactInterval(type) }
}

/** `all` with the interval operands of expressions that involve an exact interval column cast to exact storage. */
export const castIntervalOperands = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): ReadonlyArray<Tok> => {
  if (![...types.values()].some(isExactInterval)) return all
  const sig = all.filter((t) => t.kind !== "ws")
  const casts = new Map<Tok, { last: Tok; type: string }>()
  /** Casts the operands [start, end) of one expression when one of them is an exact interval column. */
  const group = (ranges: ReadonlyArray<readonly [number, number]>) => {
    const operands = ranges.map(([a, b]) => ({ a, op: operandAt(sig, a, types), b })).filter((o) => o.op !== undefined && o.op.end === o.b)
    const kinds = new Set(operands.filter((o) => o.op!.exact).map((o) => o.op!.kind!))
    for (const kind of kinds)
      for (const o of operands) if (o.op!.kind === kind) casts.set(sig[o.a]!, { last: sig[o.b - 1]!, type: EXACT_TYPE[kind] })
  }
  /** The top-level comma-separated ranges of (open, close). */
  const args = (open: number, close: number): Array<[number, number]> => {
    const out: Array<[number, number]> = []
    let start = open + 1
    for (let k = open + 1; k < close; k++) {
      if (isOp(sig[k], "(")) k = matchParen(sig, k)
      else if (isOp(sig[k], ",")) {
        out.push([start, k])
        start = k + 1
      }
    }
    out.push([start, close])
    return out
  }
  /** The end of the operand at `k`, or k when there is none. */
  const endOf = (k: number) => operandAt(sig, k, types)?.end ?? k
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isKw(t, ...CHOOSING) && isOp(sig[k + 1], "(")) group(args(k + 1, matchParen(sig, k + 1)))
    else if (isKw(t, "CASE")) {
      const ranges: Array<[number, number]> = []
      let depth = 0
      for (let j = k + 1; j < sig.length; j++) {
        if (isOp(sig[j], "(")) depth++
        else if (isOp(sig[j], ")")) depth--
        else if (depth === 0 && isKw(sig[j], "END")) break
        else if (depth === 0 && isKw(sig[j], "THEN", "ELSE")) ranges.push([j + 1, endOf(j + 1)])
      }
      group(ranges)
    } else if (isKw(t, "BETWEEN")) {
      const before = isOp(sig[k - 2], ".") ? k - 3 : isKw(sig[k - 1], "NOT") ? (isOp(sig[k - 3], ".") ? k - 4 : k - 2) : k - 1
      const low = endOf(k + 1)
      if (isKw(sig[low], "AND")) group([[before, isKw(sig[k - 1], "NOT") ? k - 1 : k], [k + 1, low], [low + 1, endOf(low + 1)]])
    } else if (isKw(t, "IN") && isOp(sig[k + 1], "(") && !isKw(sig[k + 2], "SELECT", "WITH")) {
      const notIn = isKw(sig[k - 1], "NOT")
      const end = notIn ? k - 1 : k
      const before = isOp(sig[end - 2], ".") ? end - 3 : end - 1
      group([[before, end], ...args(k + 1, matchParen(sig, k + 1))])
    } else if (isKw(t, "SELECT") && isOp(sig[k - 1], "(")) {
      // the exact interval columns a subquery selects: typed as intervals for the outer query
      const close = matchParen(sig, k - 1)
      let from = k + 1
      while (from < close && !isKw(sig[from], "FROM")) from = isOp(sig[from], "(") ? matchParen(sig, from) + 1 : from + 1
      for (const [a, b] of args(k, from)) {
        const op = operandAt(sig, a, types)
        const aliased = op !== undefined && (op.end === b || (isKw(sig[op.end], "AS") && op.end + 2 === b) || (isName(sig[op.end]) && op.end + 1 === b))
        if (op?.exact === true && aliased) casts.set(sig[a]!, { last: sig[op.end - 1]!, type: EXACT_TYPE[op.kind!] })
      }
    }
  }
  return withCasts(all, casts)
}
