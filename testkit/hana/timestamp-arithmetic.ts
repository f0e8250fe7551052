/**
 * A TIMESTAMP is no number: HANA's arithmetic operators work on numeric values (SAP HANA Reference, "Operators":
 * "arithmetic operators to perform mathematical operations such as adding, subtracting, multiplying, dividing and
 * negation of numeric values", help.sap.com/hana/html/_esql_operators.html), days and seconds are added with
 * ADD_DAYS, ADD_SECONDS & co., and SUM and AVG take "an input column with a numeric data type" (SAP Learning, "SAP
 * HANA SQLScript Basics", "Aggregating Data"). The server stores a TIMESTAMP as 100 ns ticks in a DuckDB UBIGINT
 * (longdate.ts), which DuckDB would add, sum and round as a number: `ts + 1` would be 100 ns later. So every operand
 * of `+ - * /` and the arguments of SUM, AVG, ABS, ROUND, MOD, POWER & co. are wrapped in `hana_num(x)`, which is x itself for any
 * other type and fails at bind time for ticks, with 266 "inconsistent datatype" as a DATE operand of `+` or a DATE
 * argument of SUM fails here (errors.ts).
 *
 * The failure is a `struct_extract` with a key folded from `typeof(x)`: a key the struct does not have is a binder
 * error, raised only for ticks; for other values it is x with its own type.
 */
import { matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { endsOperand, operandEnd, operandStart } from "./operands.ts"
import { TIMESTAMP_NO_NUMBER_KEY, TIMESTAMP_NUMBER_COMPARISON_KEY } from "./errors.ts"
import { rewriteQueryExpressions } from "./ddl-expressions.ts"
import { COMPARISONS, comparedColumn } from "./datetime-comparisons.ts"

/** The macro: x, or a binder error for a TIMESTAMP's ticks. */
const NUMERIC = "hana_num"

/** The macro: the number n compared with column c, or a binder error when c holds a TIMESTAMP's ticks. */
const COMPARED_NUMBER = "hana_num_vs"


/** The session macro of this module. */
export const TIMESTAMP_ARITHMETIC_MACROS: readonly string[] = [
  // x inside a CASE: DuckDB binds a macro's body when it is created, with untyped arguments, and a key that is then no
  // constant fails the creation, unless binding stops first at the untyped x (as it does inside a CASE)
  `CREATE OR REPLACE TEMP MACRO ${NUMERIC}(x) AS struct_extract({'v': CASE WHEN true THEN x END}, CASE WHEN typeof(x) = 'UBIGINT' THEN '${TIMESTAMP_NO_NUMBER_KEY}' ELSE 'v' END)`,
  `CREATE OR REPLACE TEMP MACRO ${COMPARED_NUMBER}(c, n) AS struct_extract({'v': CASE WHEN true THEN n END}, CASE WHEN typeof(c) = 'UBIGINT' THEN '${TIMESTAMP_NUMBER_COMPARISON_KEY}' ELSE 'v' END)`
]

/**
 * A number literal compared with a named column (`ts > 5`, `5 < t.ts`, `ts BETWEEN 1 AND 2`, `ts IN (1, 2)`) becomes
 * `hana_num_vs(column, n)`: n itself beside any other column, a binder error (266) beside a TIMESTAMP's ticks. SAP
 * HANA SQL Reference, "Data Type Conversion": TIMESTAMP has the highest data type precedence, so the number would be
 * converted to a TIMESTAMP, and its datetime conversion table has no conversion from a number.
 */
const guardNumberComparisons = (tokens: readonly Token[]): Token[] =>
  tokens.flatMap((t, i) => {
    // The number and the column must each be a whole operand (`d + 1 > ts` compares `d + 1`, not 1).
    const column = t.t === "number" && !inExpression(tokens, i, i) ? comparedColumn(tokens, i) : undefined
    const start = column === undefined ? -1 : tokens.indexOf(column[0]!)
    if (column === undefined || start < 0 || inExpression(tokens, start, start + column.length - 1)) return [t]
    return [{ t: "word", v: COMPARED_NUMBER }, op("("), ...column, op(","), t, op(")")]
  })

/** Whether tokens[from..to] stand beside an arithmetic or concatenation operator. */
const inExpression = (tokens: readonly Token[], from: number, to: number): boolean =>
  [tokens[from - 1], tokens[to + 1]].some((t) => t?.t === "op" && (ARITHMETIC.has(t.v) || t.v === "||"))

const comparesNumber = (tokens: readonly Token[]): boolean =>
  tokens.some((t, i) => t.t === "number" && ((tokens[i - 1]?.t === "op" && COMPARISONS.has(tokens[i - 1]!.v)) || (tokens[i + 1]?.t === "op" && COMPARISONS.has(tokens[i + 1]!.v)) || ["BETWEEN", "AND", "IN"].includes(upper(tokens[i - 1])) || isOp(tokens[i - 1], "(") || isOp(tokens[i - 1], ",")))

/**
 * Numeric functions whose arguments are guarded: the aggregates SUM, AVG, STDDEV and VAR, and every function SAP's
 * SQL Reference lists under "Numeric Functions" (ABS … UMINUS; "they take numeric values or strings with numeric
 * characters and return numeric values", tutorialspoint, "SAP HANA - SQL Functions"; the list as SAP's reference has
 * it, blog.csdn.net/nigulasimao/article/details/134848544). RAND and RAND_SECURE take no value. AVG is guarded in its
 * own macro (function-types.ts) unless DISTINCT or windowed.
 */
const NUMERIC_FUNCTIONS = new Set([
  "SUM", "AVG", "STDDEV", "VAR",
  "ABS", "ACOS", "ASIN", "ATAN", "ATAN2", "BITAND", "BITCOUNT", "BITNOT", "BITOR", "BITSET", "BITUNSET", "BITXOR", "CEIL", "COS", "COSH",
  "COT", "EXP", "FLOOR", "LN", "LOG", "MOD", "NDIV0", "POWER", "ROUND", "SIGN", "SIN", "SINH", "SQRT", "TAN", "TANH", "UMINUS"
])
const ARITHMETIC = new Set(["+", "-", "*", "/"])
const op = (v: string): Token => ({ t: "op", v })
const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v

/**
 * A value never ticks, or one left alone: a literal, a typed literal, anything holding a parameter (its type comes
 * from the other operand, arithmetic-parameters.ts, which a macro around it would hide).
 */
const plain = (x: readonly Token[]): boolean =>
  x.length === 0 || x.some((t) => t.t === "param") || (x.length === 1 && x[0]!.t !== "word" && x[0]!.t !== "qident") || ["NULL", "TRUE", "FALSE"].includes(upper(x[0])) ||
  (x.length === 2 && x[1]!.t === "string") || x[0]!.v === NUMERIC || (isOp(x[0], "(") && ["SELECT", "WITH"].includes(upper(x[1])))

const guard = (x: readonly Token[]): Token[] => (plain(x) ? [...x] : [{ t: "word", v: NUMERIC }, op("("), ...x, op(")")])

/**
 * `tokens` with the operands of `+ - * /` and the arguments of numeric functions guarded (see the module comment), and
 * the numbers compared with a named column checked against it.
 */
export const guardTimestampArithmetic = (tokens: readonly Token[]): readonly Token[] => {
  const arithmetic = tokens.some((t) => (t.t === "op" && ARITHMETIC.has(t.v)) || NUMERIC_FUNCTIONS.has(upper(t)))
  // Not in DDL: a CHECK's unnamed constraint is named by DuckDB after the columns its converted condition names.
  const numbers = !["CREATE", "ALTER"].includes(upper(tokens[0])) && !tokens.some((t) => upper(t) === "CHECK") && comparesNumber(tokens)
  if (!arithmetic && !numbers) return tokens
  // a view's query and a CHECK too (ddl-expressions.ts)
  return rewriteQueryExpressions(tokens, (part) => {
    const compared = numbers ? guardNumberComparisons(part) : part
    return arithmetic ? guarded(compared) : compared
  })
}

const guarded = (tokens: readonly Token[]): Token[] => {
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    const U = upper(t)
    if (NUMERIC_FUNCTIONS.has(U) && isOp(tokens[i + 1], "(") && !isOp(tokens[i - 1], ".")) {
      const close = matching(tokens, i + 1)
      const args = splitTopLevel(tokens.slice(i + 2, close)).map(guarded)
      const first = args[0] ?? []
      const lead = ["DISTINCT", "ALL"].includes(upper(first[0])) ? 1 : 0
      // AVG(x) becomes hana_avg, whose typed overloads need x's own type; it guards ticks itself (function-types.ts)
      const own = U === "AVG" && lead === 0 && upper(tokens[close + 1]) !== "OVER"
      const guardedFirst = own || isOp(first[0], "*") ? first : [...first.slice(0, lead), ...guard(first.slice(lead))]
      out.push(t, op("("), ...[guardedFirst, ...args.slice(1).map(guard)].flatMap((a, k) => (k === 0 ? a : [op(","), ...a])), op(")"))
      i = close + 1
      continue
    }
    if (t.t === "op" && ARITHMETIC.has(t.v)) {
      const binary = endsOperand(out[out.length - 1])
      if (!binary && t.v !== "-" && t.v !== "+") {
        out.push(t)
        i++
        continue
      }
      if (binary) {
        const start = operandStart(out, out.length - 1)
        // a typed literal's text (`DATE '…' + 1`) or a dotted name's part: left as it is
        if (start !== undefined && !(out[start]!.t === "string" && out[start - 1]?.t === "word")) out.push(...guard(out.splice(start)))
      }
      out.push(t)
      const end = operandEnd(tokens, i + 1)
      if (end === undefined || ARITHMETIC.has(tokens[i + 1]?.v ?? "")) {
        i++
        continue
      }
      const right = tokens.slice(i + 1, end)
      // a typed literal (`+ DATE '…'`): its word and its text
      const typed = tokens[end]?.t === "string" && end === i + 2 && tokens[i + 1]!.t === "word"
      out.push(...(typed ? [...right, tokens[end]!] : guard(guarded(right))))
      i = typed ? end + 1 : end
      continue
    }
    out.push(t)
    i++
  }
  return out
}
