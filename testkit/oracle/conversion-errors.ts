/**
 * Conversions that answer a conversion error instead of raising it, and TO_BINARY_DOUBLE / TO_BINARY_FLOAT with a
 * format model, rewritten before translation into calls the translator knows:
 *
 * - `F(expr DEFAULT return_value ON CONVERSION ERROR [, fmt [, nlsparam]])` for TO_NUMBER, TO_BINARY_DOUBLE,
 *   TO_BINARY_FLOAT, TO_DATE, TO_TIMESTAMP, TO_TIMESTAMP_TZ, TO_DSINTERVAL and TO_YMINTERVAL: NULL for a NULL expr,
 *   else expr converted, or return_value converted "in the same way" when that fails (SQL Language Reference,
 *   "TO_NUMBER", "TO_BINARY_DOUBLE": "The function converts return_value to BINARY_DOUBLE in the same way it converts
 *   expr ... If return_value cannot be converted ..., then the function returns an error"). The conversion is tried
 *   with DuckDB's TRY.
 * - `VALIDATE_CONVERSION(expr AS type [, fmt [, nlsparam]])`: 1 when expr converts to the type (NUMBER, BINARY_DOUBLE,
 *   BINARY_FLOAT, DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, INTERVAL DAY TO SECOND, INTERVAL YEAR TO MONTH), else 0;
 *   1 for NULL ("If expr evaluates to null, then this function returns 1", SQL Language Reference,
 *   "VALIDATE_CONVERSION").
 * - `TO_BINARY_DOUBLE | TO_BINARY_FLOAT(expr, fmt [, nlsparam])`: "The optional 'fmt' and 'nlsparam' arguments serve
 *   the same purpose as for the TO_NUMBER function" (SQL Language Reference, "TO_BINARY_DOUBLE"): the TO_NUMBER of
 *   expr in that model, as the binary type.
 *
 * An error raised while evaluating expr itself (a division by zero, a failing conversion inside it) is raised, as
 * the clause "has no effect if an error occurs while evaluating expr" (SQL Language Reference, "TO_NUMBER"): each
 * rewrite tests `(expr) IS NULL` first, outside TRY, which evaluates expr for every row, so only the conversion
 * itself is tried.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"

const WITH_DEFAULT = new Set(["TO_NUMBER", "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT", "TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ", "TO_DSINTERVAL", "TO_YMINTERVAL"])

/** The conversion function of each type VALIDATE_CONVERSION takes (its words, blanks collapsed). */
const CONVERTERS: ReadonlyMap<string, string> = new Map([
  ["NUMBER", "TO_NUMBER"],
  ["BINARY_DOUBLE", "TO_BINARY_DOUBLE"],
  ["BINARY_FLOAT", "TO_BINARY_FLOAT"],
  ["DATE", "TO_DATE"],
  ["TIMESTAMP", "TO_TIMESTAMP"],
  ["TIMESTAMP WITH TIME ZONE", "TO_TIMESTAMP_TZ"],
  ["INTERVAL DAY TO SECOND", "TO_DSINTERVAL"],
  ["INTERVAL YEAR TO MONTH", "TO_YMINTERVAL"]
])

const headingOf = (toks: ReadonlyArray<Tok>): string =>
  toks.filter((x) => x.kind !== "ws").map((x) => (x.kind === "str" ? `'${x.value.toUpperCase()}'` : x.text.toUpperCase())).join("")

const significantIndex = (toks: ReadonlyArray<Tok>, k: number): number => {
  let j = k
  while (toks[j]?.kind === "ws") j++
  return j
}

/** The index in `arg` of a top-level word `word` (-1 when absent). */
const topLevelWord = (arg: ReadonlyArray<Tok>, word: string): number => {
  let depth = 0
  for (let k = 0; k < arg.length; k++) {
    const t = arg[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isKw(t, word)) return k
  }
  return -1
}

/** `arg` split at a top-level `DEFAULT r ON CONVERSION ERROR`: [expr, r], or undefined when it has none. */
const defaultClause = (arg: ReadonlyArray<Tok>): [ReadonlyArray<Tok>, ReadonlyArray<Tok>] | undefined => {
  const at = topLevelWord(arg, "DEFAULT")
  if (at < 0) return undefined
  const on = topLevelWord(arg.slice(at), "ON")
  const words = on < 0 ? [] : arg.slice(at + on).filter((t) => t.kind !== "ws")
  if (words.length !== 3 || !isKw(words[1], "CONVERSION") || !isKw(words[2], "ERROR")) throw new OraError(907, "missing right parenthesis")
  return [arg.slice(0, at), arg.slice(at + 1, at + on)]
}

/** Rewrites the calls the module describes in `toks` (a statement's tokens, also nested calls). */
export const rewriteConversionErrors = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "DEFAULT", "VALIDATE_CONVERSION", "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT"))) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const open = significantIndex(toks, k + 1)
    const named = t.kind === "ident" && !isOp(out.at(-1), ".") && isOp(toks[open], "(")
    if (!named || !(WITH_DEFAULT.has(t.value) || t.value === "VALIDATE_CONVERSION")) {
      out.push(t)
      continue
    }
    const close = matchParen(toks, open)
    if (close < 0) throw new OraError(907, "missing right parenthesis")
    const args = splitTopLevel(rewriteConversionErrors(toks.slice(open + 1, close)))
    const rewritten = rewriteCall(t.value, args)
    if (rewritten === undefined) {
      out.push(t)
      continue
    }
    const heading = headingOf(toks.slice(k, close + 1))
    out.push(...rewritten.map((x, n) => ({ ...x, pos: t.pos, heading: n === 0 ? heading : "" })))
    k = close
  }
  return out
}

const text = (sql: string): Array<Tok> => tokenize(sql)
const join = (parts: ReadonlyArray<ReadonlyArray<Tok> | string>): Array<Tok> => parts.flatMap((p) => (typeof p === "string" ? text(p) : [...p]))

/** `name(x, rest...)` as tokens, rest the format and NLS arguments. */
const call = (name: string, x: ReadonlyArray<Tok>, rest: ReadonlyArray<ReadonlyArray<Tok>>): Array<Tok> =>
  join([`${name}((`, x, ")", ...rest.flatMap((r) => [", ", r]), ")"])

/** A binary conversion with a format model goes by TO_NUMBER in that model. */
const converted = (name: string, x: ReadonlyArray<Tok>, rest: ReadonlyArray<ReadonlyArray<Tok>>): Array<Tok> =>
  (name === "TO_BINARY_DOUBLE" || name === "TO_BINARY_FLOAT") && rest.length > 0 ? join([`${name}(`, call("TO_NUMBER", x, rest), ")"]) : call(name, x, rest)

/**
 * Whether `x` converts (as `name` with the format and NLS arguments `rest` converts it): TRY of the conversion, or
 * for a datetime read by a format model TRY of the model's reading and the value's check alone (datetime-parse.ts,
 * datetime-functions.ts ora_tstz), since DuckDB refuses TRY over the error-raising checks of the datetime translation.
 */
const converts = (name: string, x: ReadonlyArray<Tok>, rest: ReadonlyArray<ReadonlyArray<Tok>>): Array<Tok> => {
  const text = rest[0] === undefined ? [] : join(["ORA_DATETIME_OF_FORMAT(CAST((", x, ") AS VARCHAR2(4000)), ", rest[0], ")"])
  // the text read is checked as a date (month 13, 29 February of a common year) by the engine's cast, a zoned one by ora_tstz
  const read = !DATETIMES.has(name) || rest[0] === undefined ? converted(name, x, rest) : name === "TO_TIMESTAMP_TZ" ? join(["ORA_TSTZ(", text, ", '+00:00')"]) : join(["CAST(", text, " AS TIMESTAMP)"])
  return join(["TRY(", read, ") IS NOT NULL"])
}

const DATETIMES = new Set(["TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ"])

const rewriteCall = (name: string, args: ReadonlyArray<ReadonlyArray<Tok>>): Array<Tok> | undefined => {
  const [first, ...rest] = args
  if (first === undefined) return undefined
  if (name === "VALIDATE_CONVERSION") {
    const as = topLevelWord(first, "AS")
    if (as < 0) throw new OraError(905, "missing keyword")
    const type = first.slice(as + 1).filter((x) => x.kind !== "ws").map((x) => x.text.toUpperCase()).join(" ").replace(/\s*\(\s*\d+\s*\)/g, "")
    const converter = CONVERTERS.get(type)
    // another type: Oracle's code for it is not documented (README.md, unconfirmed)
    if (converter === undefined) throw new OraError(902, "invalid datatype")
    const x = first.slice(0, as)
    return join(["(CASE WHEN (", x, ") IS NULL OR ", converts(converter, x, rest), " THEN 1 ELSE 0 END)"])
  }
  const clause = defaultClause(first)
  if (clause === undefined) return rest.length > 0 && (name === "TO_BINARY_DOUBLE" || name === "TO_BINARY_FLOAT") ? converted(name, first, rest) : undefined
  const [x, fallback] = clause
  return join(["(CASE WHEN (", x, ") IS NULL THEN NULL WHEN ", converts(name, x, rest), " THEN ", converted(name, x, rest), " ELSE ", converted(name, fallback, rest), " END)"])
}
