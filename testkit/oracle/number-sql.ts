/**
 * DuckDB SQL for Oracle functions applied to NUMBER values without precision (stored as exact decimal text, see
 * number-functions.ts): the translator (translate.ts) hands a call's rendered arguments here and uses the text it
 * gets back, so that ROUND, TRUNC, MOD, NVL, DECODE, GREATEST, ... compute on every digit and their results stay
 * exact NUMBERs (typed ORA_NUMBER, described as NUMBER) that further operations recognise by {@link EXACT_RESULT}.
 */
import { isKw, isOp, matchParen, sqlString, type Tok } from "./lexer.ts"
import { parseOracleType } from "./types.ts"
import { isNumberModel } from "./number-format.ts"

/** Text of an exact NUMBER result of number-functions.ts (decimal text typed ORA_NUMBER). */
export const EXACT_RESULT =
  /^\(*(?:ora_plsql_call_number|ora_number(?:_from_char|_add|_sub|_mul|_div|_sum|_avg|_mod|_power|_round|_trunc|_ceil|_floor|_abs|_sqrt|_exp|_ln|_log|_sign|_sin|_cos|_tan|_asin|_acos|_atan|_atan2|_sinh|_cosh|_tanh|_greatest|_least)?)\(/

/** One rendered argument of a call, with what the translator knows of its type. */
export interface CallArgument {
  /** Its DuckDB SQL text. */
  readonly text: string
  /** An exact NUMBER: a column without precision or a result of number-functions.ts. */
  readonly exact: boolean
  /** Of a native floating-point type (BINARY_DOUBLE / BINARY_FLOAT). */
  readonly binary: boolean
  /** A character literal (`'...'`): it decides a text result where it comes first (NVL, DECODE, GREATEST). */
  readonly textLiteral: boolean
}

/** The value as number-functions.ts takes it: decimal text typed plain VARCHAR. */
const asText = (a: CallArgument): string => `CAST(${a.text} AS VARCHAR)`

/**
 * Trigonometric and hyperbolic functions, computed in decimal on a NUMBER (decimal-trig.ts) and in binary floating
 * point on a BINARY_DOUBLE / BINARY_FLOAT, by their DuckDB names there.
 */
const TRIGONOMETRIC: ReadonlySet<string> = new Set(["SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "SINH", "COSH", "TANH"])

/** Functions that compute in floating point when an argument is BINARY_DOUBLE / BINARY_FLOAT, by their DuckDB names. */
const WITH_FLOATING: Record<string, string> = {
  ABS: "abs", CEIL: "ceil", FLOOR: "floor", SIGN: "sign", SQRT: "sqrt", POWER: "power", ROUND: "round", MOD: "ora_mod", EXP: "exp", LN: "ln",
  GREATEST: "greatest", LEAST: "least", NVL: "coalesce", COALESCE: "coalesce",
  ...Object.fromEntries([...TRIGONOMETRIC].map((name) => [name, name.toLowerCase()]))
}

/** Functions of one NUMBER computed exactly, by their number-functions.ts names. */
const UNARY: Record<string, string> = {
  ABS: "ora_number_abs", CEIL: "ora_number_ceil", FLOOR: "ora_number_floor", SIGN: "ora_number_sign", SQRT: "ora_number_sqrt", EXP: "ora_number_exp",
  LN: "ora_number_ln"
}

/**
 * Functions computed exactly on any NUMBER argument (literals and NUMBER(p,s) columns too): SIN .. TANH for their
 * digits (decimal-trig.ts), the others for Oracle's errors where
 * DuckDB's floating point gives Infinity or its own text: ORA-01426 for a result past NUMBER's range (POWER(10, 1000),
 * EXP(1000)), ORA-01428 naming an argument out of the function's domain (SQRT(-1), LN(0), LOG(10, 0)).
 */
export const CHECKED_RANGE: ReadonlySet<string> = new Set(["POWER", "EXP", "SQRT", "LN", "LOG", ...TRIGONOMETRIC])

/** The functions {@link exactCallSql} may render. */
export const EXACT_CALLS: ReadonlySet<string> = new Set([
  ...TRIGONOMETRIC, ...Object.keys(UNARY), "ROUND", "TRUNC", "MOD", "POWER", "LOG", "GREATEST", "LEAST", "NVL", "COALESCE", "NVL2", "NULLIF", "DECODE"
])

/**
 * DuckDB SQL for Oracle function `name` over `args` when an argument is an exact NUMBER that decides the result's
 * type, or undefined (the translator then renders the call as usual). With a BINARY_DOUBLE / BINARY_FLOAT argument
 * the result is a floating-point value, as Oracle's numeric precedence gives (SQL Language Reference, "Numeric
 * Precedence": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Type-Comparison-Rules.html):
 * the exact values are then read as DOUBLE.
 */
export const exactCallSql = (name: string, args: ReadonlyArray<CallArgument>): string | undefined => {
  const any = args.some((a) => a.exact) || (CHECKED_RANGE.has(name) && !args.some((a) => a.binary))
  if (!any) return undefined
  const first = args[0]!
  const all = args.map(asText).join(", ")
  if (args.some((a) => a.binary) && name in WITH_FLOATING)
    return `${WITH_FLOATING[name] ?? name.toLowerCase()}(${args.map((a) => (a.exact ? `CAST(${a.text} AS DOUBLE)` : a.text)).join(", ")})`
  if (TRIGONOMETRIC.has(name)) return args.length === (name === "ATAN2" ? 2 : 1) ? `ora_number_${name.toLowerCase()}(${all})` : undefined
  switch (name) {
    case "ROUND":
    case "TRUNC":
      // ROUND / TRUNC (number): the places argument defaults to 0 (a string second argument is a date format)
      if (!first.exact || args.length > 2 || args[1]?.textLiteral === true) return undefined
      return `ora_number_${name.toLowerCase()}(${asText(first)}, ${args[1] === undefined ? "'0'" : asText(args[1])})`
    case "ABS":
    case "CEIL":
    case "FLOOR":
    case "SIGN":
    case "SQRT":
    case "EXP":
    case "LN":
      return args.length === 1 ? `${UNARY[name]}(${asText(first)})` : undefined
    case "MOD":
    case "POWER":
    case "LOG":
      return args.length === 2 ? `ora_number_${name.toLowerCase()}(${all})` : undefined
    case "GREATEST":
    case "LEAST":
      // "If the first expr is numeric, then Oracle determines the argument with the highest numeric precedence,
      // implicitly converts the remaining arguments to that data type" (SQL Language Reference, GREATEST)
      return first.textLiteral ? undefined : `ora_number_${name.toLowerCase()}(list_value(${all}))`
    case "NVL":
    case "COALESCE":
      return first.textLiteral ? undefined : `ora_number(coalesce(${all}))`
    case "NVL2":
      if (args.length !== 3 || (!args[1]!.exact && !args[2]!.exact)) return undefined
      return `ora_number(CASE WHEN (${first.text}) IS NOT NULL THEN ${asText(args[1]!)} ELSE ${asText(args[2]!)} END)`
    case "NULLIF":
      if (args.length !== 2) return undefined
      return `ora_number(CASE WHEN ora_number_cmp(${asText(first)}, ${asText(args[1]!)}) = 0 THEN NULL ELSE ${asText(first)} END)`
    case "DECODE":
      return decodeSql(args)
    default:
      return undefined
  }
}

/**
 * DECODE(expr, search, result, ..., [default]): a search matches when it is the same number as expr (or both are
 * NULL: "Oracle Database considers two nulls to be equivalent", SQL Language Reference, DECODE); the results are
 * exact NUMBERs when the first one is a number.
 */
const decodeSql = (args: ReadonlyArray<CallArgument>): string | undefined => {
  const [expr, ...rest] = args
  if (expr === undefined || rest.length < 2) return undefined
  const compareExact = expr.exact || rest.some((a, k) => k % 2 === 0 && k + 1 < rest.length && a.exact)
  const results = rest.filter((_, k) => k % 2 === 1 || k === rest.length - 1)
  const exactResults = results.some((a) => a.exact) && !rest[1]!.textLiteral
  const key = (a: CallArgument) => (compareExact ? `ora_number_key(${asText(a)})` : `(${a.text})`)
  const result = (a: CallArgument) => (exactResults ? asText(a) : a.text)
  let s = "CASE"
  let k = 0
  for (; k + 1 < rest.length; k += 2) s += ` WHEN ${key(expr)} IS NOT DISTINCT FROM ${key(rest[k]!)} THEN ${result(rest[k + 1]!)}`
  if (k < rest.length) s += ` ELSE ${result(rest[k]!)}`
  return exactResults ? `ora_number(${s} END)` : `(${s} END)`
}

/** Operators of an expression of exact numbers ({@link isExactNumeric}). */
const EXACT_NUMERIC_OPERATORS = new Set(["+", "-", "*", "/", "(", ")", ",", "."])

/** Functions whose result is an exact number when their arguments are ({@link isExactNumeric}). */
const EXACT_NUMERIC_FUNCTIONS = new Set(["ROUND", "TRUNC", "ABS", "MOD", "CEIL", "FLOOR", "SIGN", "COUNT", "SUM", "AVG", "MIN", "MAX", "NVL", "GREATEST", "LEAST", "LENGTH"])

/**
 * True when tokens [from, to) are an expression of exact numbers only: numeric literals (not `f` / `d` ones),
 * columns and binds `isNumberOperand` accepts, arithmetic and the number functions of {@link EXACT_NUMERIC_FUNCTIONS}
 * over them (COUNT of anything); no string, datetime or BINARY_DOUBLE / BINARY_FLOAT operand.
 */
export const isExactNumeric = (toks: ReadonlyArray<Tok>, from: number, to: number, isNumberOperand: (t: Tok) => boolean): boolean => {
  let operand = false
  for (let k = from; k < to; k++) {
    const t = toks[k]!
    if (t.kind === "ws") continue
    if (t.kind === "num") {
      if (/[dDfF]$/.test(t.text)) return false
      operand = true
    } else if (t.kind === "op") {
      if (!EXACT_NUMERIC_OPERATORS.has(t.value)) return false
    } else if (t.kind === "bind") {
      if (!isNumberOperand(t)) return false
      operand = true
    } else if (t.kind !== "ident" && t.kind !== "qident") return false
    else if (isOp(toks[k + 1], "(")) {
      // CAST(x AS NUMBER[(p[,s])]): a NUMBER whatever x is (SQL Language Reference, "CAST")
      if (t.kind === "ident" && t.value === "CAST") {
        const close = matchParen(toks, k + 1)
        if (close < 0 || !castsToNumber(toks, k + 2, close)) return false
        k = close
        operand = true
        continue
      }
      if (t.kind !== "ident" || !EXACT_NUMERIC_FUNCTIONS.has(t.value)) return false
      if (t.value === "COUNT") {
        k = matchParen(toks, k + 1)
        operand = true
      }
    } else if (!isOp(toks[k + 1], ".")) {
      if (!isNumberOperand(t)) return false
      operand = true
    }
  }
  return operand
}

/** True when the CAST arguments [from, to) end in `AS NUMBER[(p[,s])]` (or an ANSI name of it: DECIMAL, INTEGER, ...). */
const castsToNumber = (toks: ReadonlyArray<Tok>, from: number, to: number): boolean => {
  let asAt = -1
  for (let k = from; k < to; k++) {
    if (isOp(toks[k], "(")) k = matchParen(toks, k)
    else if (isKw(toks[k], "AS")) asAt = k
    if (k < 0) return false
  }
  const type = asAt < 0 ? undefined : parseOracleType(toks.slice(asAt + 1, to).filter((t) => t.kind !== "ws").map((t) => t.text).join(" "))
  return type?.kind === "number" && type.dictName === "NUMBER"
}

/** The session's NLS_NUMERIC_CHARACTERS (decimal character, group separator) as translated SQL reads them. */
const NLS_NUMERIC = "coalesce(getvariable('ora_nls_numeric'), '.,')"

/**
 * TO_CHAR(n, 'model' [, 'nlsparam']) and TO_NUMBER(text, 'model' [, 'nlsparam']) with a number format model
 * (number-format.ts), or undefined when the call is not one (TO_CHAR of a datetime). TO_CHAR takes `model` as a number
 * model when its argument is known to be a number (`numeric`: ORA-01481 for a model that is none) or when the model
 * is one (a datetime format model has no 9, 0 or X element). An `NLS_NUMERIC_CHARACTERS = ''dg''` in `nlsparam`
 * replaces the session's decimal character and group separator ("TO_CHAR (number)", SQL Language Reference:
 * https://docs.oracle.com/cd/B19306_01/server.102/b14200/functions181.htm).
 */
export const numberFormatSql = (name: "TO_CHAR" | "TO_NUMBER", value: string, model: string, numeric: boolean, nlsparam?: string): string | undefined => {
  const characters = nlsparam === undefined ? undefined : /NLS_NUMERIC_CHARACTERS\s*=\s*'([^']{2})'/i.exec(nlsparam)?.[1]
  // an NLS_CURRENCY (L's symbol, up to ten characters) follows the two numeric characters (number-format.ts)
  const currency = nlsparam === undefined ? undefined : /NLS_CURRENCY\s*=\s*'([^']{1,10})'/i.exec(nlsparam)?.[1]
  const separators = characters === undefined ? NLS_NUMERIC : sqlString(characters)
  const nls = currency === undefined ? separators : `(${separators} || ${sqlString(currency)})`
  if (name === "TO_NUMBER") return `ora_number_from_char(CAST(${value} AS VARCHAR), ${sqlString(model)}, ${nls})`
  return numeric || isNumberModel(model) ? `ora_number_to_char(CAST(${value} AS VARCHAR), ${sqlString(model)}, ${nls})` : undefined
}
