/**
 * Which datetime an expression is when no name tells it: a scalar subquery, CASE, DECODE, NVL / NVL2 / COALESCE /
 * GREATEST / LEAST / NULLIF, MIN / MAX and the value-copying analytics, TRUNC / ROUND of a datetime, a parenthesised
 * one, and the names a statement's subqueries and WITH blocks give such values. Oracle types every expression, so
 * `d - (SELECT MAX(a) FROM t)` is a NUMBER of days, `(SELECT MAX(d) FROM t) + 1` a DATE and a TIMESTAMP difference
 * an INTERVAL DAY TO SECOND (SQL Language Reference, "Datetime/Interval Arithmetic":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
 */
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isOp, matchParen, openingParen, type Tok } from "./lexer.ts"
import { visitAliasedItems } from "./select-aliases.ts"
import { distinctItems, isDateOnly } from "./translate-literals.ts"

/** A zoneless datetime: a DATE, or a TIMESTAMP (minus a datetime an interval, plus a number a DATE). */
export type DatetimeOperand = "date" | "timestamp"

/** The kind of the leaf tokens [from, to) (a column, literal, known call); `null` when it is known to be no zoneless datetime. */
export type LeafKind = (from: number, to: number) => DatetimeOperand | null | undefined

/** Top-level argument ranges of the call whose parenthesis opens at `open` and closes at `close`. */
export const argumentsOf = (toks: ReadonlyArray<Tok>, open: number, close: number): Array<[number, number]> => {
  const parts: Array<[number, number]> = []
  for (let start = open + 1; start < close; ) {
    const comma = findTopLevel(toks, start, close, (x) => isOp(x, ","))
    const end = comma < 0 ? close : comma
    parts.push([start, end])
    start = end + 1
  }
  return parts
}

const isNull = (toks: ReadonlyArray<Tok>, [from, to]: [number, number]) => to === from + 1 && isKw(toks[from], "NULL")

/** The first result of CASE tokens [from, to) other than NULL (SQL Language Reference, "CASE Expressions": one data type). */
const caseResults = (toks: ReadonlyArray<Tok>, from: number, to: number): Array<[number, number]> => {
  const out: Array<[number, number]> = []
  let start = -1
  for (let k = from + 1; k < to; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) {
      k = matchParen(toks, k)
      if (k < 0) return []
      continue
    }
    if (isKw(t, "CASE")) {
      // a nested CASE: skip to its END
      for (let depth = 1; depth > 0 && ++k < to; ) {
        if (isOp(toks[k], "(")) k = matchParen(toks, k)
        else if (isKw(toks[k], "CASE")) depth++
        else if (isKw(toks[k], "END")) depth--
      }
      continue
    }
    if (start >= 0 && isKw(t, "WHEN", "ELSE", "END")) {
      out.push([start, k])
      start = -1
    }
    if (isKw(t, "THEN", "ELSE")) start = k + 1
  }
  return out
}

/** `[from, op, to]` of `a + b` / `a - b` (the last additive operator at the top level of [from, to)), or undefined. */
const additiveOperands = (toks: ReadonlyArray<Tok>, from: number, to: number): [number, number, number] | undefined => {
  let op = -1
  for (let k = from, depth = 0; k < to; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth > 0) continue
    else if (isKw(t, "CASE", "SELECT") || isOp(t, "||")) return undefined
    // binary, not a sign (`d + -1`)
    else if (k > from && (isOp(t, "+") || isOp(t, "-")) && (toks[k - 1]!.kind !== "op" || isOp(toks[k - 1], ")"))) op = k
  }
  return op < 0 ? undefined : [from, op, to]
}

/**
 * The datetime `a ± b` gives: a datetime plus or minus a number is a DATE, a DATE plus or minus an interval a DATE, a
 * TIMESTAMP plus or minus an interval a TIMESTAMP; the difference of two datetimes none (SQL Language Reference,
 * "Datetime/Interval Arithmetic": "Oracle internally converts timestamp values to date values and interprets NUMBER
 * constants in arithmetic datetime and interval expressions as numbers of days").
 */
const sumKind = (toks: ReadonlyArray<Tok>, [from, op, to]: [number, number, number], leaf: LeafKind, of: (r: [number, number]) => DatetimeOperand | undefined): DatetimeOperand | undefined => {
  const number = (a: number, b: number) => (b === a + 1 && toks[a]!.kind === "num") || leaf(a, b) === null
  const interval = (a: number) => isKw(toks[a], "INTERVAL") && toks[a + 1]?.kind === "str"
  // (a DATE plus what is no datetime, for no datetime can be added to one, is a DATE whatever it is)
  const shifted = (datetime: DatetimeOperand, a: number, b: number) => (interval(a) ? datetime : number(a, b) ? "date" : datetime === "date" && isOp(toks[op], "+") && of([a, b]) === undefined ? "date" : undefined)
  const left = of([from, op])
  if (left !== undefined) return shifted(left, op + 1, to)
  const right = isOp(toks[op], "+") ? of([op + 1, to]) : undefined
  return right === undefined ? undefined : shifted(right, from, op)
}

/**
 * The datetime tokens [from, to) give: `leaf` first, then the composite forms above by their operand that decides the
 * type (a CASE's first non-null result, DECODE's first result: "If the first result is null, then Oracle converts
 * the return value to the data type VARCHAR2", SQL Language Reference, "DECODE"; NVL / COALESCE / GREATEST / LEAST /
 * NULLIF their first argument, NVL2 its second).
 */
export const datetimeOperandOf = (toks: ReadonlyArray<Tok>, from: number, to: number, leaf: LeafKind): DatetimeOperand | undefined => {
  if (to <= from) return undefined
  const known = leaf(from, to)
  if (known !== undefined) return known ?? undefined
  const t = toks[from]!
  const of = (r: [number, number] | undefined) => (r === undefined || isNull(toks, r) ? undefined : datetimeOperandOf(toks, r[0], r[1], leaf))
  const sum = additiveOperands(toks, from, to)
  if (sum !== undefined) return sumKind(toks, sum, leaf, of)
  if (isOp(t, "(") && matchParen(toks, from) === to - 1) {
    // a scalar subquery of one item
    if (isKw(toks[from + 1], "SELECT")) {
      const items = distinctItems(toks, isKw(toks[from + 2], "DISTINCT", "UNIQUE", "ALL") ? from + 3 : from + 2)
      return items?.length === 1 ? of(items[0]) : undefined
    }
    // a parenthesised operand with no operator at its top level
    return findTopLevel(toks, from + 1, to - 1, (x) => x.kind === "op") < 0 ? of([from + 1, to - 1]) : undefined
  }
  if (isKw(t, "CASE")) return isKw(toks[to - 1], "END") ? caseResults(toks, from, to).map(of).find((k) => k !== undefined) : undefined
  if ((t.kind !== "ident" && t.kind !== "qident") || !isOp(toks[from + 1], "(")) return undefined
  const close = matchParen(toks, from + 1)
  // MIN / MAX and analytics copying a value, also OVER a window
  const analytic = isKw(toks[close + 1], "OVER") && isOp(toks[close + 2], "(") && matchParen(toks, close + 2) === to - 1
  if (close !== to - 1 && !analytic) return undefined
  const args = argumentsOf(toks, from + 1, close)
  if (isKw(t, "MIN", "MAX", "ANY_VALUE", "FIRST_VALUE", "LAST_VALUE", "LAG", "LEAD", "NTH_VALUE")) return of(args[0])
  if (analytic) return undefined
  if (isKw(t, "TRUNC", "ROUND")) return of(args[0]) !== undefined ? "date" : undefined
  if (isKw(t, "NVL", "COALESCE", "GREATEST", "LEAST", "NULLIF")) return of(args[0])
  if (isKw(t, "NVL2")) return of(args[1])
  if (isKw(t, "DECODE")) return of(args[2])
  return undefined
}

/** The leaf kinds by column names alone, as a statement's alias walk knows them (DATE and TIMESTAMP(0-6) columns). */
export const nameLeaf = (toks: ReadonlyArray<Tok>, days: ReadonlySet<string>, timestamps: ReadonlySet<string>): LeafKind => (from, to) => {
  const t = toks[from]!
  if (isDateOnly(toks, from, to)) return "date"
  if (to === from + 1 && isKw(t, "SYSTIMESTAMP", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP")) return isKw(t, "LOCALTIMESTAMP") ? "timestamp" : null
  if (to === from + 2 && isKw(t, "TIMESTAMP") && toks[from + 1]?.kind === "str") return "timestamp"
  // a TO_TIMESTAMP call (SQL Language Reference, "TO_TIMESTAMP": a TIMESTAMP)
  if (isKw(t, "TO_TIMESTAMP") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1) return "timestamp"
  // a CAST to TIMESTAMP or TIMESTAMP(0-6) (7-9 are kept as text)
  if (isKw(t, "CAST") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1) {
    const precision = isOp(toks[to - 2], ")") ? Number(toks[to - 3]?.text) : undefined
    const type = precision === undefined ? to - 2 : to - 5
    if (isKw(toks[type], "TIMESTAMP") && isKw(toks[type - 1], "AS") && (precision === undefined || precision <= 6)) return "timestamp"
  }
  const last = toks[to - 1]
  if (last === undefined || (last.kind !== "ident" && last.kind !== "qident")) return undefined
  for (let k = from; k < to - 1; k += 2) if (!(toks[k]?.kind === "ident" || toks[k]?.kind === "qident") || !isOp(toks[k + 1], ".")) return undefined
  const name = oracleName(last)
  return days.has(name) ? "date" : timestamps.has(name) ? "timestamp" : null
}

/**
 * The names under which a statement's subqueries and WITH blocks pass on a DATE or a zoneless TIMESTAMP expression
 * (`(SELECT ADD_MONTHS(a, 1) m FROM t) q`, `WITH w AS (SELECT NVL(d, a) m FROM t)`), added to `days` and
 * `timestamps` (the statement's DATE and TIMESTAMP(0-6) column names), returned as new sets.
 */
export const withDatetimeAliases = (toks: ReadonlyArray<Tok>, days: ReadonlySet<string>, timestamps: ReadonlySet<string>): { days: ReadonlySet<string>; timestamps: ReadonlySet<string> } => {
  const outDays = new Set(days)
  const outTimestamps = new Set(timestamps)
  const leaf = nameLeaf(toks, outDays, outTimestamps)
  visitAliasedItems(toks, (from, to, alias) => {
    const name = oracleName(alias)
    if (outDays.has(name) || outTimestamps.has(name)) return false
    const kind = datetimeOperandOf(toks, from, to, leaf)
    if (kind === undefined) return false
    ;(kind === "date" ? outDays : outTimestamps).add(name)
    return true
  })
  return { days: outDays, timestamps: outTimestamps }
}

/**
 * The start of the operand ending before token `end` when it is one the names do not tell (a call, a parenthesised
 * operand or scalar subquery, a CASE ... END, an analytic OVER a window), at or after `from`; -1 for others.
 */
export const operandStartBefore = (toks: ReadonlyArray<Tok>, end: number, from: number): number => {
  const openOf = (close: number): number => openingParen(toks, close, from)
  const last = end - 1
  if (isKw(toks[last], "END")) {
    for (let depth = 0, j = last; j >= from; j--) {
      if (isOp(toks[j], ")")) j = openOf(j)
      if (j < 0) return -1
      if (isKw(toks[j], "END")) depth++
      else if (isKw(toks[j], "CASE") && --depth === 0) return j
    }
    return -1
  }
  if (!isOp(toks[last], ")")) return -1
  let open = openOf(last)
  if (open > from + 1 && isKw(toks[open - 1], "OVER") && isOp(toks[open - 2], ")")) open = openOf(open - 2)
  const name = toks[open - 1]
  return open > from && (name?.kind === "ident" || name?.kind === "qident") ? open - 1 : open
}
