/**
 * A TIMESTAMP meeting a DATE, a SECONDDATE or a text in one expression: HANA converts the narrower value to the
 * wider datetime type, and a string compared with a datetime to that datetime (SAP HANA SQL Reference, "Data Type
 * Conversion"; SAP's wording for the datetime-to-datetime case was not in the sources at hand, so the rule is taken
 * as the issue states it), so `t.ts > t.d`, `a.ts = b.sd`, `ts BETWEEN d AND sd`, `COALESCE(ts, d)`,
 * `IFNULL`, `GREATEST`, `LEAST` and `CASE … THEN ts ELSE d END` compare and return TIMESTAMPs with all seven fraction
 * digits. A TIMESTAMP is stored as 100 ns ticks (longdate.ts), which DuckDB cannot mix with its DATE, TIMESTAMP_S
 * or TIMESTAMP, so each such operand is wrapped in `hana_dtw(x, peers)`: x as ticks when x is a DATE, SECONDDATE,
 * TIMESTAMP or text and one of its peers (the other side, the other arguments or results) is ticks, else x itself.
 *
 * The choice is made at bind time by `typeof`, which DuckDB folds into a constant: `struct_extract` takes that
 * constant as its key and so returns either field with its own type (a CASE would have to unify both branches'
 * types, and a typed macro overload is picked before DuckDB knows an aggregate's type, longdate.ts). The field not
 * taken is a constant NULL, so nothing is converted for values that do not mix, and their type is left exact.
 */
import { matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { COMPARISONS, DATETIME_TEXT, comparedOnce } from "./datetime-comparisons.ts"
import { expressionEnd, expressionStart, operandEnd } from "./operands.ts"
import { rewriteQueryExpressions } from "./ddl-expressions.ts"

/** The macro: x as ticks when it is a datetime or text and a peer is ticks, else x unchanged. */
const WIDEN = "hana_dtw"

/** Whether x (a macro parameter) must become ticks against `peers` (a value or a ROW of values), as SQL. */
const mixes = "regexp_matches(typeof(peers), '(^|[(, ])UBIGINT([,) ]|$)') AND typeof(x) IN ('DATE', 'TIMESTAMP_S', 'TIMESTAMP', 'VARCHAR')"

/**
 * The session macro of this module. Its struct's fields hold x inside a CASE: DuckDB binds a macro's body when it is
 * created, with untyped arguments, and a key that is then no constant fails the creation, unless binding stops first
 * at the untyped x (as it does inside a CASE).
 */
export const DATETIME_MIXING_MACROS: readonly string[] = [
  `CREATE OR REPLACE TEMP MACRO ${WIDEN}(x, peers) AS struct_extract({'w': CASE WHEN ${mixes} THEN hana_ld(x) END, ` +
    `'x': CASE WHEN ${mixes} THEN NULL ELSE x END}, CASE WHEN ${mixes} THEN 'w' ELSE 'x' END)`
]

/** Functions whose arguments HANA converts to one type (the result is one of them). */
const ONE_TYPE_FUNCTIONS = new Set(["COALESCE", "IFNULL", "NVL", "GREATEST", "LEAST"])

/** Words that make an operand no whole value (`… OVER (…)`, `= ANY (…)`). */
const NOT_OPERANDS = new Set(["OVER", "FILTER", "WITHIN", "ANY", "ALL", "SOME", "EXISTS", "SELECT", "NOT", "NULL", "CASE", "WHEN", "THEN", "ELSE", "END", "AND", "OR", "DISTINCT"])
const ARITHMETIC = new Set(["+", "-", "*", "/", "||"])
/** Words after an operand that make it part of a larger one (`f(x) OVER (…)`). */
const CONTINUATIONS = new Set(["OVER", "FILTER", "WITHIN"])

const op = (v: string): Token => ({ t: "op", v })
const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v
const isOpIn = (t: Token | undefined, set: ReadonlySet<string>): boolean => t?.t === "op" && set.has(t.v)

/** A literal, a parameter or NULL: never wrapped (a literal keeps DuckDB's literal typing, a parameter its inferred type). */
const isLiteral = (x: readonly Token[]): boolean =>
  x.length === 1 && (["number", "param", "hex"].includes(x[0]!.t) || upper(x[0]) === "NULL" || (x[0]!.t === "string" && !DATETIME_TEXT.test(x[0]!.v)))

/** A scalar subquery: left alone (the macro would repeat it). */
const isSubquery = (x: readonly Token[]): boolean => isOp(x[0], "(") && ["SELECT", "WITH"].includes(upper(x[1]))

const wrap = (x: readonly Token[], peers: ReadonlyArray<readonly Token[]>): Token[] => {
  const peerList: Token[] =
    peers.length === 1 ? [...peers[0]!] : [{ t: "word", v: "ROW" }, op("("), ...peers.flatMap((p, i) => (i === 0 ? [...p] : [op(","), ...p])), op(")")]
  return [{ t: "word", v: WIDEN }, op("("), ...x, op(","), ...peerList, op(")")]
}

/** Each value of a one-type construct wrapped against the others (literals, parameters and subqueries left as they are). */
const widenValues = (values: ReadonlyArray<readonly Token[]>): Token[][] => {
  if (values.length < 2 || values.some((v) => v.length === 0 || v.some((t) => t.t === "param") || isSubquery(v))) return values.map((v) => [...v])
  return values.map((v, i) => (isLiteral(v) ? [...v] : wrap(v, values.filter((_, j) => j !== i))))
}

/** `CASE … THEN r … ELSE r END` at tokens[start] (the CASE), end exclusive: its results wrapped against each other. */
const widenCase = (tokens: readonly Token[], start: number, end: number): Token[] => {
  // the pieces between the CASE's own WHEN / THEN / ELSE / END keywords
  const pieces: Array<{ keyword: Token; body: Token[] }> = []
  let depth = 0
  let current: { keyword: Token; body: Token[] } = { keyword: tokens[start]!, body: [] }
  for (let j = start + 1; j < end - 1; j++) {
    const t = tokens[j]!
    if (isOp(t, "(") || upper(t) === "CASE") depth++
    else if (isOp(t, ")") || upper(t) === "END") depth--
    if (depth === 0 && ["WHEN", "THEN", "ELSE"].includes(upper(t))) {
      pieces.push(current)
      current = { keyword: t, body: [] }
    } else current.body.push(t)
  }
  pieces.push(current)
  const inner = pieces.map((p) => ({ keyword: p.keyword, body: widenOneTypeValues(p.body) }))
  const results = inner.filter((p) => upper(p.keyword) === "THEN" || upper(p.keyword) === "ELSE")
  const widened = widenValues(results.map((p) => p.body))
  const out: Token[] = []
  let r = 0
  for (const p of inner) out.push(p.keyword, ...(upper(p.keyword) === "THEN" || upper(p.keyword) === "ELSE" ? widened[r++]! : p.body))
  out.push(tokens[end - 1]!)
  return out
}

/** CASE results and the arguments of COALESCE, IFNULL, NVL, GREATEST and LEAST wrapped against each other, at any depth. */
const widenOneTypeValues = (tokens: readonly Token[]): Token[] => {
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    const qualified = isOp(tokens[i - 1], ".")
    if (!qualified && upper(t) === "CASE") {
      const end = operandEnd(tokens, i)
      if (end !== undefined) {
        out.push(...widenCase(tokens, i, end))
        i = end
        continue
      }
    }
    if (!qualified && ONE_TYPE_FUNCTIONS.has(upper(t)) && isOp(tokens[i + 1], "(")) {
      const close = matching(tokens, i + 1)
      const args = splitTopLevel(tokens.slice(i + 2, close)).map((a) => widenOneTypeValues(a))
      out.push(t, op("("), ...widenValues(args).flatMap((a, k) => (k === 0 ? a : [op(","), ...a])), op(")"))
      i = close + 1
      continue
    }
    out.push(t)
    i++
  }
  return out
}

/**
 * A whole operand that may be a TIMESTAMP: a name, a call, a group, a CASE (no literal, parameter, subquery or row
 * `(a, b)`); one holding a parameter (`d + ?`) only where `parameters` allows it.
 */
const whole = (x: readonly Token[], parameters = false): boolean =>
  x.length > 0 && !(x.length === 1 && x[0]!.t !== "word" && x[0]!.t !== "qident") && upper(x[0]) !== "NULL" && !isSubquery(x) &&
  !(isOp(x[0], "(") && splitTopLevel(x.slice(1, -1)).length > 1) &&
  !NOT_OPERANDS.has(upper(x[0])) && x[0]!.v !== WIDEN && !x[0]!.v.startsWith("hana_ld_cmp") && (parameters || !x.some((t) => t.t === "param"))

/** A value of a BETWEEN or IN: a whole value, a datetime text, or one left as it is (another literal, a parameter). */
type RangeValue = { readonly kind: "value" | "fixed" | "param"; readonly tokens: readonly Token[] } | { readonly kind: "text"; readonly text: Token }

/** `hana_ld_cmp(c, '…')` of datetime-comparisons.ts, as its text (the text is typed here against all the values). */
const comparedText = (x: readonly Token[]): Token | undefined => {
  const text = x[x.length - 2]
  return x[0]?.v === "hana_ld_cmp" && isOp(x[1], "(") && isOp(x[x.length - 3], ",") && text?.t === "string" && DATETIME_TEXT.test(text.v) && isOp(x[x.length - 1], ")")
    ? text
    : undefined
}

const rangeValue = (x: readonly Token[]): RangeValue | undefined => {
  const text = x.length === 1 && x[0]!.t === "string" && DATETIME_TEXT.test(x[0]!.v) ? x[0] : comparedText(x)
  if (text !== undefined) return { kind: "text", text }
  if (isLiteral(x)) return { kind: "fixed", tokens: x }
  if (x.some((t) => t.t === "param") && !isSubquery(x)) return { kind: whole(x, true) ? "param" : "fixed", tokens: x }
  return whole(x) ? { kind: "value", tokens: x } : undefined
}

/**
 * The values of `x [NOT] BETWEEN a AND b` or `x [NOT] IN (a, b, …)` converted to one type: each whole value wrapped
 * against the other whole values, a datetime text read as the type they have together (`hana_ld_cmp` against their
 * COALESCE: ticks when one is ticks), a parameter or another literal left as it is (DuckDB types a parameter from
 * the values beside it). Undefined (left as written) for a subquery or a row value, and with fewer than two whole values.
 */
const widenRangeValues = (all: ReadonlyArray<readonly Token[]>): Token[][] | undefined => {
  const values = all.map(rangeValue)
  if (values.some((v) => v === undefined)) return undefined
  const whole = (values as RangeValue[]).flatMap((v) => (v.kind === "value" ? [v.tokens] : []))
  // a value holding a parameter (`d + ?`) is wrapped against the others but is no peer of theirs: it stands once
  const withParameters = (values as RangeValue[]).flatMap((v) => (v.kind === "param" ? [v.tokens] : []))
  if (whole.length === 0 || whole.length + withParameters.length < 2) return undefined
  const wrapped = whole.map((v, k) => (whole.length === 1 ? [...v] : wrap(v, whole.filter((_, j) => j !== k))))
  const wrappedParameters = withParameters.map((v) => wrap(v, whole))
  const together: Token[] = wrapped.length === 1 ? wrapped[0]! : [{ t: "word", v: "COALESCE" }, op("("), ...wrapped.flatMap((w, k) => (k === 0 ? w : [op(","), ...w])), op(")")]
  let next = 0
  let nextParameter = 0
  return (values as RangeValue[]).map((v) =>
    v.kind === "value" ? wrapped[next++]! : v.kind === "param" ? wrappedParameters[nextParameter++]! : v.kind === "text" ? [{ t: "word", v: "hana_ld_cmp" }, op("("), ...together, op(","), v.text, op(")")] : [...v.tokens]
  )
}

/** `x [NOT] BETWEEN a AND b` and `x [NOT] IN (a, b, …)`, their values converted to one type (widenRangeValues). */
const widenRanges = (tokens: readonly Token[]): Token[] => {
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    const U = upper(t)
    if ((U === "BETWEEN" || (U === "IN" && isOp(tokens[i + 1], "("))) && out.length > 0) {
      const xEnd = upper(out[out.length - 1]) === "NOT" ? out.length - 2 : out.length - 1
      const start = expressionStart(out, xEnd)
      const x = start === undefined ? [] : out.slice(start, xEnd + 1)
      let values: Token[][] | undefined
      let end = i + 1
      if (U === "BETWEEN") {
        const aEnd = expressionEnd(tokens, i + 1)
        const bEnd = aEnd !== undefined && upper(tokens[aEnd]) === "AND" ? expressionEnd(tokens, aEnd + 1) : undefined
        if (aEnd !== undefined && bEnd !== undefined) {
          values = [tokens.slice(i + 1, aEnd), tokens.slice(aEnd + 1, bEnd)]
          end = bEnd
        }
      } else {
        const close = matching(tokens, i + 1)
        values = splitTopLevel(tokens.slice(i + 2, close))
        end = close + 1
      }
      // a unary sign before x (`-x BETWEEN …`) makes it part of a larger operand
      const widened = start !== undefined && values !== undefined && !isOpIn(out[start - 1], ARITHMETIC) ? widenRangeValues([x, ...values]) : undefined
      if (start !== undefined && widened !== undefined) {
        const not = out.slice(xEnd + 1)
        out.splice(start)
        out.push(...widened[0]!, ...not, t)
        if (U === "BETWEEN") out.push(...widened[1]!, { t: "word", v: "AND" }, ...widened[2]!)
        else out.push(op("("), ...widened.slice(1).flatMap((w, k) => (k === 0 ? w : [op(","), ...w])), op(")"))
        i = end
        continue
      }
    }
    out.push(t)
    i++
  }
  return out
}

/** Whole operands on both sides of every comparison wrapped against each other (`a op b` → `hana_dtw(a, b) op hana_dtw(b, a)`). */
const widenComparisons = (tokens: readonly Token[]): Token[] => {
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    const start = isOpIn(t, COMPARISONS) ? expressionStart(out, out.length - 1) : undefined
    const end = start === undefined ? undefined : expressionEnd(tokens, i + 1)
    const left = start === undefined ? [] : out.slice(start)
    const right = end === undefined ? [] : tokens.slice(i + 1, end)
    // `SET a = …, b = …` assigns; an operand after a unary sign, or before OVER, is part of a larger expression
    const assigns = t.v === "=" && start !== undefined && (upper(out[start - 1]) === "SET" || isOp(out[start - 1], ","))
    // a typed literal (`DATE '…'`, `TIMESTAMP '…'`) is no name: its word is followed by its text
    const typedLiteral = tokens[end ?? 0]?.t === "string" || out[(start ?? 0) - 1]?.t === "word" && left.length === 1 && left[0]!.t === "string"
    if (
      start === undefined || end === undefined || assigns || typedLiteral || !whole(left, true) || !whole(right, true) ||
      isOpIn(out[start - 1], ARITHMETIC) || CONTINUATIONS.has(upper(tokens[end]))
    ) {
      out.push(t)
      i++
      continue
    }
    out.splice(start)
    // an operand holding a parameter stands once, in one macro call (datetime-comparisons.ts comparedOnce)
    if (left.some((x) => x.t === "param") || right.some((x) => x.t === "param")) out.push(...comparedOnce(WIDEN, t.v, left, right))
    else out.push(...wrap(left, [right]), t, ...wrap(right, [left]))
    i = end
  }
  return out
}

/**
 * `tokens` with every value that may meet a TIMESTAMP of another datetime type wrapped in `hana_dtw` (see the module
 * comment), in a query and in a view's query or a CHECK of DDL (ddl-expressions.ts; like the other session macros
 * there, hana_dtw is defined in every session that reads the view or writes the table).
 */
export const widenDatetimeMixing = (tokens: readonly Token[]): readonly Token[] =>
  rewriteQueryExpressions(tokens, (part) => widenComparisons(widenRanges(widenOneTypeValues(part))))
