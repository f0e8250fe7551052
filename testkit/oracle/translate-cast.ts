/**
 * `CAST(expr AS type)` as DuckDB SQL (SQL Language Reference, "CAST"): intervals fitted to their type, NUMBER's
 * negative scales and unbounded digits, datetimes with and without zones, character targets in the session's NLS
 * formats, CHAR(n) cut and blank-padded; and the NLS text of a datetime that CAST and TO_CHAR without a model share.
 */
import { ora } from "./errors.ts"
import { isKw, isOp, matchParen } from "./lexer.ts"
import { isNumberExpression, numberExpressionText } from "./character-writes.ts"
import { roundedFraction, timestampPrecisionAt } from "./fraction-precision.ts"
import { exactIntervalExpressionCast, intervalBindFit, intervalCast } from "./interval-exprs.ts"
import { Dty, floatDecimalDigits, parseOracleType } from "./types.ts"
import { blankPaddedSql } from "./char-writes.ts"
import { distinctItems, intervalLiteral, intervalLiteralIn } from "./translate-literals.ts"
import { datetimeArgument, durationOfExact, inSessionZone, textDatetimeOfText } from "./translate-datetime-sql.ts"
import { zonedOperand } from "./translate-datetimes.ts"
import type { TranslatorCore } from "./translate-core.ts"
import { nlsText } from "./nls-formats.ts"

/** The DuckDB SQL of `CAST(p)`, `p` the tokens [from, to) of the call's one argument (`expr AS type`). */
export const castSql = (tr: TranslatorCore, p: readonly [number, number] | undefined): string => {
  const toks = tr.toks
  if (p === undefined) throw ora.missingExpression()
  let asAt = -1
  let depth = 0
  for (let k = p[0]; k < p[1]; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "AS")) asAt = k
  }
  if (asAt < 0) throw ora.missingExpression()
  const typeText = toks
    .slice(asAt + 1, p[1])
    .map((x) => x.text)
    .join(" ")
  const ot = parseOracleType(typeText)
  const duckType = ot !== undefined ? ot.duck : typeText
  // an interval literal cast to an interval type (as values written into interval columns are, interval-writes.ts)
  // is written in that type's storage, whatever the statement's other interval columns, fitted to the type as a
  // bind is: rounded to its fractional seconds, ORA-01873 past its leading precision (INTERVAL '100-0' YEAR(3)
  // TO MONTH into a YEAR(2) TO MONTH column; SQL Language Reference, "Interval Literals")
  const literal = ot?.kind === "intervalds" || ot?.kind === "intervalym" ? intervalLiteralIn(toks, p[0], asAt) : undefined
  if (literal !== undefined) return intervalBindFit(intervalLiteral(literal.text, literal.units, undefined, "exact"), ot!)!
  const operand = tr.range(p[0], asAt)
  const bindFit = ot !== undefined && asAt === p[0] + 1 && toks[p[0]]?.kind === "bind" ? intervalBindFit(operand, ot) : undefined
  if (bindFit !== undefined) return bindFit
  const fromInterval = ot === undefined ? undefined : tr.intervalTypeAt(p[0], asAt)
  const crossed = fromInterval === undefined ? undefined : intervalCast(operand, fromInterval, ot!, (x) => durationOfExact(x, fromInterval.kind === "intervalds" ? "dayToSecond" : "yearToMonth", false))
  if (crossed !== undefined) return crossed
  // an interval expression (not one bind, text or NULL, which take the exact storage as they are)
  const expression = ot === undefined || fromInterval !== undefined || asAt - p[0] < 2 ? undefined : exactIntervalExpressionCast(operand, ot)
  if (expression !== undefined) return expression
  // a negative scale rounds to the left of the decimal point, half away from zero (SQL Language Reference,
  // "Numeric Data Types": NUMBER(7,-2) stores 7456123.89 as 7456100), ORA-01438 past p - s digits
  if (ot?.kind === "number" && ot.dictName === "NUMBER" && ot.scale < 0 && ot.scale !== -127)
    return `CAST(ora_number_fit(CAST(${operand} AS VARCHAR), ${ot.precision}, ${ot.scale}) AS ${ot.duck})`
  // NUMBER without precision keeps every digit of the value (number-functions.ts)
  if (ot?.kind === "number" && ot.duck === "VARCHAR")
    return ot.dictName === "FLOAT" ? `ora_number_digits(CAST(${operand} AS VARCHAR), ${floatDecimalDigits(ot.precision)})` : `ora_number(CAST(${operand} AS VARCHAR))`
  // a TIMESTAMP WITH TIME ZONE is text with its zone (a TIMESTAMP is read in the session time zone); a text
  // datetime cast to TIMESTAMP or DATE keeps its own wall clock (Oracle drops the zone), to LOCAL TIME ZONE its instant
  const textKind = tr.textDatetimeAt(p[0], asAt) ?? textDatetimeOfText(operand)
  if (ot?.kind === "timestamptz") return `ora_tstz(${datetimeArgument(operand, "zoned")})`
  if (ot?.kind === "timestamp" && ot.duck === "VARCHAR" && !tr.isLocalZoneColumn(p[0], asAt)) return `ora_ts(CAST(${operand} AS VARCHAR))`
  if (ot?.kind === "timestampltz" && ot.duck === "VARCHAR") return `ora_tstz_at(${datetimeArgument(operand, "zoned")}, '+00:00')`
  // to TIMESTAMP(0-5): the fraction rounded to the type's precision (fraction-precision.ts)
  const fit = (sql: string) => (ot?.kind === "timestamp" && ot.duck !== "VARCHAR" && ot.scale < 6 ? roundedFraction(`CAST(${sql} AS TIMESTAMP)`, ot.scale) : sql)
  if (textKind !== undefined && (ot?.kind === "timestamp" || ot?.kind === "date")) {
    const shown = tr.isLocalZoneColumn(p[0], asAt) ? inSessionZone(operand) : operand
    return fit(`CAST(ora_tstz_local(${datetimeArgument(shown, textKind)}) AS ${duckType})`)
  }
  // to character: in the session's NLS format ("CAST": a datetime to character "as TO_CHAR" converts it; nls-formats.ts)
  if (ot?.kind === "varchar" || ot?.kind === "nvarchar") {
    const text = defaultFormatText(tr, p[0], asAt, operand)
    // a column, bind or datetime literal by its DuckDB type (ora_char_of); a larger expression keeps DuckDB's text
    // (also a qualified column, and a scalar subquery of one: character-writes.ts wraps a NUMBER(p,s) one)
    const single = asAt - p[0] === 1 || (asAt - p[0] === 3 && isOp(toks[p[0] + 1], ".")) || (asAt - p[0] === 2 && isKw(toks[p[0]], "DATE", "TIMESTAMP") && toks[p[0] + 1]?.kind === "str") ||
      (isOp(toks[p[0]], "(") && isKw(toks[p[0] + 1], "SELECT") && matchParen(toks, p[0]) === asAt - 1)
    // a number expression or literal (a date difference, a quotient) as TO_CHAR prints it, not DuckDB's `5.0`
    const number = text === undefined && tr.textDatetimeAt(p[0], asAt) === undefined && isNumberExpression(toks, p[0], asAt)
    const cast = `CAST(${number ? numberExpressionText(toks, p[0], asAt, operand) : text !== undefined || single ? (text ?? `ora_char_of(${operand})`) : operand} AS ${duckType})`
    // CHAR(n) / NCHAR(n): cut to n and blank-padded to n, as a fixed-length target takes a value (char-writes.ts)
    if (ot.dty === Dty.CHAR) return blankPaddedSql(`left(${cast}, ${ot.charSize})`, ot)
    if (number || text !== undefined || single) return cast
  }
  if (textKind !== undefined && ot?.kind === "timestampltz") return `CAST(ora_tstz_utc(${datetimeArgument(operand, "zoned")}) AS ${duckType})`
  // LOCAL TIME ZONE values read as the session's wall clock; a TIMESTAMP becomes zoned in the session time zone
  if (tr.isLocalZoneColumn(p[0], asAt) && (ot?.kind === "timestamp" || ot?.kind === "date"))
    return `CAST(ora_session_local(${operand}) AS ${duckType})`
  // any other value by its text: an instant (DuckDB renders it at +00) or a zoned text as it is, a TIMESTAMP or
  // DATE in the session time zone
  if (ot?.kind === "timestampltz") return `CAST(ora_tstz_utc(${datetimeArgument(operand, "zoned")}) AS ${duckType})`
  return fit(`CAST(${operand} AS ${duckType})`)
}

/**
 * The fractional second precision of the TIMESTAMP [WITH [LOCAL] TIME ZONE] [from, to): a column's declared one
 * (qualified, or unless two of the statement's tables declare the name with different ones), a CAST's, a literal's or TO_TIMESTAMP's
 * (fraction-precision.ts).
 */
export const declaredFraction = (tr: TranslatorCore, from: number, to: number): number | undefined => {
  const toks = tr.toks
  // a scalar subquery of one item: the item's (`(SELECT z FROM t)` of a TIMESTAMP(3) WITH TIME ZONE column z)
  if (isOp(toks[from], "(") && isKw(toks[from + 1], "SELECT") && matchParen(toks, from) === to - 1) {
    const items = distinctItems(toks, isKw(toks[from + 2], "DISTINCT", "UNIQUE", "ALL") ? from + 3 : from + 2)
    return items?.length === 1 ? declaredFraction(tr, items[0]![0], items[0]![1]) : undefined
  }
  return tr.declaredFractionAt(from, to) ?? timestampPrecisionAt(toks, from, to)
}

/**
 * TO_CHAR(datetime) without a format model of a value the translator knows as a text datetime or a zoned DuckDB
 * datetime (CURRENT_TIMESTAMP, a LOCAL TIME ZONE column): its text in the session's NLS format (nls-formats.ts); a
 * LOCAL TIME ZONE value in NLS_TIMESTAMP_FORMAT at the session's wall clock ("TO_CHAR (datetime)").
 */
export const defaultFormatText = (tr: TranslatorCore, from: number, to: number, x: string): string | undefined => {
  const local = tr.isLocalZoneColumn(from, to)
  const textKind = tr.textDatetimeAt(from, to) ?? textDatetimeOfText(x)
  // FF without digits prints a column's declared precision ("Datetime Format Elements", FF: "If you do not specify a
  // digit, then Oracle Database uses the precision specified for the datetime data type")
  const declared = declaredFraction(tr, from, to)
  if (textKind !== undefined) {
    if (local) return nlsText("timestamp", inSessionZone(x), "''", declared ?? 9)
    return textKind === "zoned" ? nlsText("timestampTz", x, "getvariable('ora_session_tz')", declared ?? 6) : nlsText("timestamp", x, "''", declared ?? 9)
  }
  if (zonedOperand(tr, from, to) === undefined) return declared === undefined ? undefined : nlsText("timestamp", x, "''", declared)
  const inZone = `ora_tstz_at(CAST(${x} AS VARCHAR), '', getvariable('ora_session_tz'))`
  return nlsText(local ? "timestamp" : "timestampTz", inZone, "''", declared ?? 6)
}
