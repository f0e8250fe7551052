/**
 * Token classes and literals of the translator: separators, alias words, date-valued tokens, NUMBER / interval /
 * TIMESTAMP literals as DuckDB SQL, identifiers as DuckDB names, and the item ranges of a select list.
 */
import { decimalOf } from "./decimal.ts"
import { ora } from "./errors.ts"
import { isKw, isName, isOp, matchParen, sqlString, type Tok } from "./lexer.ts"
import { encodeName, quoteDuck } from "./names.ts"
import { oracleName } from "./expression-names.ts"
import type { ExactIntervals, Part } from "./translate-types.ts"

export const DUCK_KEYWORDS_NEEDING_QUOTES = new Set(["ROW", "KEY", "VALUE", "TYPE"])
/**
 * Words DuckDB's parser reserves (`duckdb_keywords()`, category 'reserved') that Oracle does not (SQL Language
 * Reference, "Oracle SQL Reserved Words"), so an Oracle column may be named by them unquoted; words of Oracle syntax
 * the server passes on (COLLATE, LATERAL, SOME, CASE, FETCH, ONLY, USING, constraint words...) are left out.
 */
export const DUCK_ONLY_RESERVED = new Set([
  "LIMIT", "OFFSET", "WINDOW", "QUALIFY", "LEADING", "TRAILING", "BOTH", "PIVOT", "PIVOT_LONGER", "PIVOT_WIDER", "SHOW",
  "DESCRIBE", "SUMMARIZE", "ANALYSE", "ANALYZE", "PLACING", "SYMMETRIC", "ASYMMETRIC", "VARIADIC", "LAMBDA", "DO"
])

/** Whether the word at `i` (one of DUCK_ONLY_RESERVED) names a column, not Oracle's clause of the same word. */
export const isDuckOnlyReservedName = (toks: ReadonlyArray<Tok>, i: number): boolean => {
  const t = toks[i]
  if (t?.kind !== "ident" || !DUCK_ONLY_RESERVED.has(t.value)) return false
  const next = toks[i + 1]
  // TRIM(LEADING | TRAILING | BOTH [chars] FROM s)
  if (isKw(t, "LEADING", "TRAILING", "BOTH") && isOp(toks[i - 1], "(") && isKw(toks[i - 2], "TRIM")) {
    return isOp(next, ")") || isOp(next, ",")
  }
  // OFFSET n ROW[S]; PIVOT [XML] (...); WINDOW w AS (...)
  if (t.value === "OFFSET" && isKw(toks[i + 2], "ROW", "ROWS")) return false
  if (t.value === "PIVOT" && (isOp(next, "(") || isKw(next, "XML"))) return false
  if (t.value === "WINDOW" && isKw(toks[i + 2], "AS")) return false
  return true
}

/** Oracle's BINARY_DOUBLE / BINARY_FLOAT constants (SQL Language Reference, "Floating-Point Conditions"). */
export const BINARY_CONSTANTS: Record<string, string> = {
  BINARY_DOUBLE_NAN: "CAST('NaN' AS DOUBLE)",
  BINARY_DOUBLE_INFINITY: "CAST('Infinity' AS DOUBLE)",
  BINARY_FLOAT_NAN: "CAST('NaN' AS FLOAT)",
  BINARY_FLOAT_INFINITY: "CAST('Infinity' AS FLOAT)"
}

export const NOT_ALIAS = new Set(["END", "NULL", "TRUE", "FALSE", "ASC", "DESC", "SYSDATE", "SYSTIMESTAMP", "ROWNUM", "LEVEL", "USER", "UID", "DBTIMEZONE", "SESSIONTIMEZONE", "CURRENT_DATE", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", ...Object.keys(BINARY_CONSTANTS)])

export const SEPARATORS = new Set([
  "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "THEN", "ELSE", "WHEN", "END", "AS", "ON", "IN", "IS", "BETWEEN", "LIKE",
  "ORDER", "GROUP", "BY", "HAVING", "UNION", "MINUS", "INTERSECT", "EXCEPT", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER",
  "FULL", "CROSS", "NATURAL", "USING", "VALUES", "SET", "INTO", "DISTINCT", "ALL", "ASC", "DESC", "NULLS", "FETCH", "OFFSET", "ROWS",
  "ROW", "ONLY", "RETURNING", "RETURN", "WITH", "ESCAPE", "DEFAULT", "FOR", "OVER", "PARTITION", "WITHIN", "EXISTS",
  "ANY", "SOME", "LIMIT", "UPDATE", "DELETE", "INSERT", "MERGE", "MATCHED", "TABLE", "CREATE", "VIEW", "REPLACE", "OPEN"
])
export const isSeparator = (t: Tok): boolean =>
  (t.kind === "ident" && SEPARATORS.has(t.value)) ||
  (t.kind === "op" && [",", "=", "<>", "!=", "<", ">", "<=", ">=", ";", ":=", "=>"].includes(t.value))

/** The token naming select item [a, b) (its alias left out): its alias, else the column's name when it is a `column`. */
export const selectItemName = (toks: ReadonlyArray<Tok>, [a, b]: readonly [number, number], column: boolean): Tok | undefined =>
  isKw(toks[b], "AS") ? toks[b + 1] : isName(toks[b]) && !isKw(toks[b], "FROM") ? toks[b] : column ? toks[b - 1] : undefined

/** The clause each part of a translated range stands in: a SET list, the ORDER BY items, or another. */
export const clausesOf = (parts: ReadonlyArray<Part>, toks: ReadonlyArray<Tok>): Array<"set" | "order" | "other"> => {
  let clause: "set" | "order" | "other" = "other"
  return parts.map((p, j) => {
    const t = toks[p.from]!
    if (!p.separator) return clause
    if (isKw(t, "SET")) clause = "set"
    else if (isKw(t, "BY") && j > 0 && isKw(toks[parts[j - 1]!.from], "ORDER")) clause = "order"
    else if (clause === "set" && isKw(t, "WHERE", "RETURNING", "RETURN", "WHEN", "FROM")) clause = "other"
    else if (clause === "order" && !isOp(t, ",") && !isKw(t, "ASC", "DESC", "NULLS")) clause = "other"
    return clause
  })
}
export const EXACT_OPERATIONS: Record<string, string> = { "+": "add", "-": "sub", "*": "mul", "/": "div" }
export const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="])

export const DATE_WORDS = new Set(["SYSDATE", "CURRENT_DATE", "SYSTIMESTAMP", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP"])
export const DATE_FUNCTIONS = new Set(["TO_DATE", "TO_TIMESTAMP", "ADD_MONTHS", "LAST_DAY", "NEXT_DAY", "ORA_PLSQL_CALL_DATE", "ORA_PLSQL_CALL_TIMESTAMP"])
export const isDateWord = (t: Tok | undefined): boolean => t !== undefined && t.kind === "ident" && DATE_WORDS.has(t.value)
/** True when tokens ending at `i` close a DATE/TIMESTAMP literal or a date function call. */
export const isDateLiteralEnd = (toks: ReadonlyArray<Tok>, i: number): boolean => {
  const t = toks[i]
  if (t === undefined) return false
  if (t.kind === "str" && isKw(toks[i - 1], "DATE", "TIMESTAMP")) return true
  if (isOp(t, ")")) {
    let depth = 0
    for (let k = i; k >= 0; k--) {
      if (isOp(toks[k], ")")) depth++
      else if (isOp(toks[k], "(")) {
        depth--
        if (depth === 0) return toks[k - 1]?.kind === "ident" && DATE_FUNCTIONS.has(toks[k - 1]!.value)
      }
    }
  }
  return false
}
/** True when the operand starting at `i` (ending before `end`) is recognisably a date/timestamp. */
export const isDateUnit = (toks: ReadonlyArray<Tok>, i: number, end: number, dateColumns?: ReadonlySet<string>): boolean => {
  const t = toks[i]!
  if (isDateWord(t) && !isOp(toks[i + 1], "(")) return true
  if (isKw(t, "DATE", "TIMESTAMP") && toks[i + 1]?.kind === "str") return true
  if (t.kind === "ident" && DATE_FUNCTIONS.has(t.value) && isOp(toks[i + 1], "(")) return true
  // a (possibly qualified) column of a DATE/TIMESTAMP type
  const last = toks[end - 1]
  if (dateColumns !== undefined && last !== undefined && (last.kind === "ident" || last.kind === "qident") && !isOp(toks[end], "(")) {
    for (let k = i; k < end - 1; k += 2) if (!(toks[k]?.kind === "ident" || toks[k]?.kind === "qident") || !isOp(toks[k + 1], ".")) return false
    return dateColumns.has(oracleName(last))
  }
  return false
}

/**
 * True when `toks[i, end)` is a DATE (never a TIMESTAMP) by its text alone: SYSDATE, CURRENT_DATE, a DATE literal or
 * a call of TO_DATE, ADD_MONTHS, LAST_DAY, NEXT_DAY.
 */
export const isDateOnly = (toks: ReadonlyArray<Tok>, i: number, end: number): boolean => {
  const t = toks[i]
  if (end - i === 1) return isKw(t, "SYSDATE", "CURRENT_DATE")
  if (end - i === 2) return isKw(t, "DATE") && toks[i + 1]?.kind === "str"
  return isKw(t, "TO_DATE", "ADD_MONTHS", "LAST_DAY", "NEXT_DAY", "ORA_PLSQL_CALL_DATE") && isOp(toks[i + 1], "(") && matchParen(toks, i + 1) === end - 1
}

/**
 * A numeric literal DuckDB would read as a DOUBLE (a DECIMAL precision above 38: integer digits plus every fraction
 * digit, so also a small value such as 0.000...0123 with 38 significant digits, or an exponent with more than 15
 * significant digits) as an exact NUMBER (number-functions.ts), so that no digit is lost; others as written.
 */
export const numberLiteral = (text: string): string => {
  const [mantissa = "", exponent] = text.split(/[eE]/)
  const [whole = "", fraction = ""] = mantissa.replace(/[^\d.]/g, "").split(".")
  const digits = (whole + fraction).replace(/^0+/, "")
  const significant = digits.replace(/0+$/, "").length
  // beyond NUMBER's range a literal fails as on Oracle (ORA-01426), not when the stored text is read back
  if (exponent !== undefined) decimalOf(text)
  return whole.replace(/^0+/, "").length + fraction.length > 38 || (exponent !== undefined && significant > 15) ? `ora_number('${text}')` : text
}

/** Renders an Oracle identifier token for DuckDB. */
export const identOut = (t: Tok): string => {
  if (t.kind === "qident") return quoteDuck(encodeName(t.value))
  if (/[$#]/.test(t.text) || DUCK_KEYWORDS_NEEDING_QUOTES.has(t.value)) return quoteDuck(encodeName(t.value))
  return t.text
}


export const INTERVAL_FIELDS = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"] as const

/**
 * Renders an Oracle interval literal (`INTERVAL '-1 02:03:04.5' DAY TO SECOND`, `INTERVAL '1-2' YEAR TO MONTH`,
 * `INTERVAL '90' MINUTE`) as a DuckDB interval: DuckDB has no `X TO Y` qualifiers and no sign inside the string.
 * Field order and separators follow Oracle's SQL Language Reference, "Interval Literals":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html
 */
export const intervalLiteral = (text: string, units: ReadonlyArray<string>, exactStorage?: ExactIntervals, storage?: "exact" | "duck"): string => {
  const lead = INTERVAL_FIELDS.indexOf(units[0] as (typeof INTERVAL_FIELDS)[number])
  const trailIdx = units.indexOf("TO")
  const trail = trailIdx >= 0 ? INTERVAL_FIELDS.indexOf(units[trailIdx + 1] as (typeof INTERVAL_FIELDS)[number]) : lead
  const body = text.trim()
  const negative = body.startsWith("-")
  const values = body.replace(/^[+-]/, "").split(/[\s:-]+/)
  if (lead < 0 || trail < lead || values.length !== trail - lead + 1 || values.some((x) => !/^\d+(\.\d*)?$/.test(x))) {
    throw ora.unimplemented(`interval literal '${text}' ${units.join(" ")}`)
  }
  const always = storage === "exact" || (lead <= 1 ? exactStorage?.yearToMonth : exactStorage?.dayToSecond) === true
  const exact = storage === "duck" ? undefined : exactIntervalLiteral(values, lead, negative, always)
  if (exact !== undefined) return exact
  const parts = values.map((x, n) => `${x} ${INTERVAL_FIELDS[lead + n]!.toLowerCase()}s`)
  return `(${negative ? "-" : ""}INTERVAL ${sqlString(parts.join(" "))})`
}

/** The text and qualifier words of the interval literal that tokens [from, to) are exactly, else undefined. */
export const intervalLiteralIn = (toks: ReadonlyArray<Tok>, from: number, to: number): { text: string; units: Array<string> } | undefined => {
  const sig = toks.slice(from, to).filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "INTERVAL") || sig[1]?.kind !== "str") return undefined
  const units: Array<string> = []
  for (let k = 2; k < sig.length; k++) {
    const t = sig[k]!
    if (isKw(t, "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO")) units.push(t.value)
    else if (isOp(t, "(") && sig[k + 1]?.kind === "num" && isOp(sig[k + 2], ")")) k += 2
    else return undefined
  }
  return units.length === 0 ? undefined : { text: sig[1].value, units }
}

/**
 * An interval literal in the exact storage of intervals.ts (DECIMAL(38,9) seconds or BIGINT months): when DuckDB's
 * INTERVAL cannot hold it (nanosecond digits, more than 2^31 months) or `always` (the statement's columns of its kind
 * are stored so); undefined for the others.
 */
export const exactIntervalLiteral = (values: ReadonlyArray<string>, lead: number, negative: boolean, always: boolean): string | undefined => {
  const sign = negative ? "-" : ""
  if (lead <= 1) {
    const months = values.reduce((acc, x, n) => acc + BigInt(x) * (lead + n === 0 ? 12n : 1n), 0n)
    return always || months > 2_147_483_647n ? `CAST(${sign}${months} AS BIGINT)` : undefined
  }
  const last = values[values.length - 1]!
  const seconds = INTERVAL_FIELDS[lead + values.length - 1] === "SECOND"
  const fraction = seconds && last.includes(".") ? last.slice(last.indexOf(".") + 1) : ""
  if (!always && !/[1-9]/.test(fraction.slice(6, 9))) return undefined
  const unitSeconds = [86_400n, 3_600n, 60n, 1n]
  const whole = values.reduce((acc, x, n) => acc + BigInt(x.split(".")[0]!) * unitSeconds[lead + n - 2]!, 0n)
  return `CAST('${sign}${whole}.${fraction.padEnd(9, "0").slice(0, 9)}' AS DECIMAL(38,9))`
}

/**
 * Renders `TIMESTAMP '<datetime> [<offset> | <region>]'`. Oracle accepts a time zone offset (`+05:30`) or a region name
 * (`Europe/Paris`, optionally followed by an abbreviation such as `CEST`) after the time and then the literal is a
 * TIMESTAMP WITH TIME ZONE (Oracle SQL Language Reference, "Datetime Literals":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html), kept as text with its zone.
 */
export const timestampLiteral = (text: string): string => {
  const m = /^\s*(-?\d{1,4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{1,2}(?::\d{1,2}(?:\.\d{1,9})?)?)?)\s*(.*?)\s*$/.exec(text)
  // nanoseconds as the text TIMESTAMP(7-9) columns hold (DuckDB's TIMESTAMP_NS covers only 1677-2262)
  if (m === null || m[2] === "") return /\.\d{7,}/.test(text) ? `ora_ts(${sqlString(text)})` : `TIMESTAMP ${sqlString(text)}`
  // a zoned literal keeps its zone as text (datetime-functions.ts), as a TIMESTAMP WITH TIME ZONE column stores it
  return `ora_tstz(${sqlString(text)}, '')`
}

/**
 * The expression ranges (aliases left out) of the select list starting at `start` up to its FROM, or undefined when
 * an item is `*` or the list has no FROM at its depth.
 */
export const distinctItems = (toks: ReadonlyArray<Tok>, start: number): Array<[number, number]> | undefined => {
  const out: Array<[number, number]> = []
  let itemStart = start
  for (let k = start; k < toks.length; k++) {
    if (isOp(toks[k], "(")) k = matchParen(toks, k)
    else if (isOp(toks[k], ")")) return undefined
    else if (isOp(toks[k], ",") || isKw(toks[k], "FROM")) {
      let end = k
      if (isKw(toks[end - 2], "AS")) end -= 2
      else if (end - itemStart >= 2 && (toks[end - 1]!.kind === "qident" || (toks[end - 1]!.kind === "ident" && !NOT_ALIAS.has(toks[end - 1]!.value))) && !isOp(toks[end - 2], ".")) end -= 1
      if (end <= itemStart || isOp(toks[end - 1], "*")) return undefined
      out.push([itemStart, end])
      if (isKw(toks[k], "FROM")) return out
      itemStart = k + 1
    }
  }
  return undefined
}
