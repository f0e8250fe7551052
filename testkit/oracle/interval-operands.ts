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
import { operandEnd, operandShape, operandStart } from "./interval-compounds.ts"
import { isExactInterval, withCasts } from "./interval-exprs.ts"
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"
import type { OraType } from "./types.ts"

type Kind = "intervalds" | "intervalym"
const EXACT_TYPE: Record<Kind, string> = { intervalds: "INTERVAL DAY(9) TO SECOND(9)", intervalym: "INTERVAL YEAR(9) TO MONTH" }
const CHOOSING = ["NVL", "NVL2", "COALESCE", "DECODE", "GREATEST", "LEAST", "LAG", "LEAD"]
const COMPARISONS = ["=", "<>", "!=", "^=", "<", ">", "<=", ">="]
const UNITS = ["DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO"]


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
  const scaled = scalesYearToMonth(all, types)
  if (types.size === 0 && !scaled) return all
  const compounds = castCompounds(all, types)
  if (![...types.values()].some(isExactInterval) && !scaled) return compounds
  return castGroups(compounds, types)
}

/**
 * Whether `all` may scale a YEAR TO MONTH interval (`*` or `/` beside a YEAR / MONTH word or a YEAR TO MONTH column):
 * the product is computed in exact storage (translate-expression.ts), so the operands met with it are brought there.
 */
const scalesYearToMonth = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): boolean =>
  all.some((t) => isOp(t, "*") || isOp(t, "/")) && all.some((t) => isKw(t, "YEAR", "MONTH") || (isName(t) && types.get(oracleName(t))?.kind === "intervalym"))

/**
 * Interval operands of TO_CHAR (typed by a CAST the translator prints at that type's precisions: DAY(9) TO SECOND(9)
 * or YEAR(9) TO MONTH with an exact column in them, else DAY(9) TO SECOND(6), the DuckDB INTERVAL's description), and
 * NVL / COALESCE / DECODE / CASE ... calls choosing an exact interval that are an operand of arithmetic, cast to
 * exact storage, so that the translator computes on them as intervals.
 */
const castCompounds = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): ReadonlyArray<Tok> => castToCharOperands(castChoosingOperands(all, types), types)

/** TO_CHAR(interval expression): the expression cast to the interval type whose precisions it prints. */
const castToCharOperands = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  const casts = new Map<Tok, { last: Tok; type: string }>()
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isKw(t, "TO_CHAR") && isOp(sig[k + 1], "(")) {
      const close = matchParen(sig, k + 1)
      const end = operandEnd(sig, k + 2)
      const shape = end === close ? operandShape(sig, k + 2, end, types) : undefined
      if (shape?.kind === undefined || shape.simple || end <= k + 2) continue
      const type = shape.exact || shape.kind === "intervalym" ? EXACT_TYPE[shape.kind] : "INTERVAL DAY(9) TO SECOND(6)"
      casts.set(sig[k + 2]!, { last: sig[end - 1]!, type })
    }
  }
  return withCasts(all, casts)
}

/** NVL / COALESCE / DECODE / CASE ... choosing an exact interval, as an operand of arithmetic: cast to exact storage. */
const castChoosingOperands = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  const casts = new Map<Tok, { last: Tok; type: string }>()
  const arithmetic = (t: Tok | undefined) => isOp(t, "+") || isOp(t, "-") || isOp(t, "*") || isOp(t, "/")
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    const end = isKw(t, ...CHOOSING) && isOp(sig[k + 1], "(") ? matchParen(sig, k + 1) + 1 : isKw(t, "CASE") ? operandEnd(sig, k) : -1
    if (end <= k || !(arithmetic(sig[k - 1]) || arithmetic(sig[end]))) continue
    const shape = operandShape(sig, k, end, types)
    if (shape.kind !== undefined && shape.exact && !casts.has(t)) casts.set(t, { last: sig[end - 1]!, type: EXACT_TYPE[shape.kind] })
  }
  return withCasts(all, casts)
}

/** Operands of comparisons, BETWEEN, IN lists, CASE results and choosing calls with an exact interval, cast to exact storage. */
const castGroups = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  const casts = new Map<Tok, { last: Tok; type: string }>()
  /** Casts the interval operands [start, end) of one expression when one of them involves an exact interval column. */
  const group = (ranges: ReadonlyArray<readonly [number, number]>, longOnly = false) => {
    const operands = ranges.filter(([a, b]) => b > a).map(([a, b]) => ({ a, b, shape: operandShape(sig, a, b, types) }))
    if (longOnly && operands.every((o) => o.shape.simple || o.shape.kind === undefined)) return
    const kinds = new Set(operands.filter((o) => o.shape.exact).map((o) => o.shape.kind!))
    for (const kind of kinds)
      for (const o of operands) {
        const seen = casts.get(sig[o.a]!)
        if (o.shape.kind === kind && (seen === undefined || sig.indexOf(seen.last) < o.b - 1)) casts.set(sig[o.a]!, { last: sig[o.b - 1]!, type: EXACT_TYPE[kind] })
      }
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
  /** The end of the operand at `k`. */
  const endOf = (k: number) => operandEnd(sig, k)
  // the items at one position of a set operation's branches (`d9 ... UNION ALL SELECT d6 ...`): one column of one type
  for (const chain of setOperationChains(sig)) {
    const lists = chain.map((select) => selectItems(sig, select))
    const width = Math.max(...lists.map((l) => l.length))
    for (let p = 0; p < width; p++) group(lists.flatMap((l) => (l[p] === undefined ? [] : [l[p]!])))
  }
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
      const operandTo = isKw(sig[k - 1], "NOT") ? k - 1 : k
      const low = endOf(k + 1)
      if (isKw(sig[low], "AND")) group([[operandStart(sig, operandTo), operandTo], [k + 1, low], [low + 1, endOf(low + 1)]])
    } else if (isKw(t, "IN") && isOp(sig[k + 1], "(") && !isKw(sig[k + 2], "SELECT", "WITH")) {
      const end = isKw(sig[k - 1], "NOT") ? k - 1 : k
      group([[operandStart(sig, end), end], ...args(k + 1, matchParen(sig, k + 1))])
    } else if (t.kind === "op" && COMPARISONS.includes(t.value)) {
      // `d9 + d6 > INTERVAL '1' DAY`: single columns and literals are compared by interval-writes.ts / interval-exprs.ts;
      // `SET col = value` is an assignment, not a comparison
      const start = operandStart(sig, k)
      if (!isKw(sig[start - 1], "SET") && !(isOp(sig[start - 1], ",") && inSetList(sig, start - 1))) group([[start, k], [k + 1, endOf(k + 1)]], true)
    } else if (isKw(t, "SELECT") && isOp(sig[k - 1], "(")) {
      // the exact interval columns a subquery selects: typed as intervals for the outer query
      const close = matchParen(sig, k - 1)
      let from = k + 1
      while (from < close && !isKw(sig[from], "FROM")) from = isOp(sig[from], "(") ? matchParen(sig, from) + 1 : from + 1
      for (const [a, b] of args(k, from)) {
        const op = operandAt(sig, a, types)
        const aliased = op !== undefined && (op.end === b || (isKw(sig[op.end], "AS") && op.end + 2 === b) || (isName(sig[op.end]) && op.end + 1 === b))
        // an unaliased column keeps its name under the CAST (`SELECT d9 FROM (SELECT d9 FROM t)`)
        if (op?.exact === true && aliased) casts.set(sig[a]!, { last: sig[op.end - 1]!, type: EXACT_TYPE[op.kind!], ...(op.end === b ? { alias: sig[op.end - 1]! } : {}) })
      }
    }
  }
  return withCasts(all, casts)
}

/** True when the comma at `k` separates assignments of an UPDATE's SET list (at the SET's parenthesis depth). */
const inSetList = (sig: ReadonlyArray<Tok>, k: number): boolean => {
  let depth = 0
  for (let j = k - 1; j >= 0; j--) {
    if (isOp(sig[j], ")")) depth++
    else if (isOp(sig[j], "(")) {
      if (depth === 0) return false
      depth--
    } else if (depth === 0 && isKw(sig[j], "SET")) return true
    else if (depth === 0 && isKw(sig[j], "WHERE", "SELECT", "FROM", "RETURNING", "ON", "WHEN", "THEN", "ELSE")) return false
  }
  return false
}

const SET_OPERATORS = ["UNION", "INTERSECT", "MINUS", "EXCEPT"]

/**
 * The set operations of `sig`, each as the indexes of its branches' SELECT keywords (a branch in parentheses by its
 * first SELECT), at every parenthesis depth.
 */
const setOperationChains = (sig: ReadonlyArray<Tok>): Array<Array<number>> => {
  const chains: Array<Array<number>> = []
  const scan = (from: number, to: number): void => {
    const branches: Array<number> = []
    let start = from
    const close = (end: number) => {
      const select = firstSelect(sig, start, end)
      if (select >= 0) branches.push(select)
    }
    let operators = 0
    for (let k = from; k < to; k++) {
      const t = sig[k]!
      if (isOp(t, "(")) {
        const end = matchParen(sig, k)
        if (end < 0) break
        scan(k + 1, end)
        k = end
      } else if (isKw(t, ...SET_OPERATORS)) {
        close(k)
        operators++
        start = isKw(sig[k + 1], "ALL", "DISTINCT") ? k + 2 : k + 1
      }
    }
    if (operators === 0) return
    close(to)
    if (branches.length > 1) chains.push(branches)
  }
  scan(0, sig.length)
  return chains
}

/** The first SELECT of [from, to) at its own depth, or inside the parentheses the range is wrapped in; -1 when none. */
const firstSelect = (sig: ReadonlyArray<Tok>, from: number, to: number): number => {
  for (let k = from; k < to; k++) {
    if (isKw(sig[k], "SELECT")) return k
    if (isOp(sig[k], "(")) {
      const end = matchParen(sig, k)
      if (k === from) return firstSelect(sig, k + 1, end)
      k = end
    }
  }
  return -1
}

const INTERVAL_UNITS = ["DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR"]

/** The expressions [from, to) of the select list of the SELECT at `select`, each without its alias. */
const selectItems = (sig: ReadonlyArray<Tok>, select: number): Array<[number, number]> => {
  const items: Array<[number, number]> = []
  let start = isKw(sig[select + 1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
  const item = (end: number) => {
    let b = Math.min(end, operandEnd(sig, start))
    const last = sig[b - 1]
    if (b === end && b - start >= 2 && isName(last) && !isKw(last, ...INTERVAL_UNITS) && !isOp(sig[b - 2], ".") && (isName(sig[b - 2]) || isOp(sig[b - 2], ")") || sig[b - 2]!.kind === "str" || sig[b - 2]!.kind === "num")) b--
    items.push([start, b])
  }
  for (let k = start; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) k = matchParen(sig, k)
    else if (isKw(t, "CASE")) k = Math.max(k, operandEnd(sig, k) - 1)
    else if (isOp(t, ",")) {
      item(k)
      start = k + 1
    } else if (isKw(t, "FROM") || isOp(t, ")")) {
      item(k)
      break
    }
    if (k < 0) break
  }
  return items
}
