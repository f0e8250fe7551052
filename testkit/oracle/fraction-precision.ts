/**
 * The fractional second precision a TIMESTAMP value is described with, where FF without digits prints it ("Datetime
 * Format Elements", FF: "If you do not specify a digit, then Oracle Database uses the precision specified for the
 * datetime data type or the data type's default precision"), and CAST's rounding to it.
 *
 * A CAST to TIMESTAMP(p) rounds the fraction half up to p digits, as Oracle converts a value to a type of lower
 * fractional second precision (**unconfirmed**: the SQL Language Reference's "CAST" does not say whether it rounds or
 * truncates; rounding is what Oracle does for fractional seconds converted to a lower precision, as the MariaDB
 * comparison of databases, MDEV-16991 "Rounding vs truncation for TIME, DATETIME, TIMESTAMP", records).
 */
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"

/** The precision p of `CAST(... AS TIMESTAMP(p) ...)` spanning [from, to) of `toks` (significant tokens), if it is one. */
export const castTimestampPrecision = (toks: ReadonlyArray<Tok>, from: number, to: number): number | undefined => {
  if (!isKw(toks[from], "CAST") || !isOp(toks[from + 1], "(") || matchParen(toks, from + 1) !== to - 1) return undefined
  // the type after the last top-level AS: TIMESTAMP [(p)] without WITH ... TIME ZONE
  let depth = 0
  let as = -1
  for (let k = from + 2; k < to - 1; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "AS")) as = k
  }
  if (as < 0 || !isKw(toks[as + 1], "TIMESTAMP")) return undefined
  if (as + 2 === to - 1) return 6
  if (isOp(toks[as + 2], "(") && toks[as + 3]?.kind === "num" && isOp(toks[as + 4], ")") && as + 5 === to - 1) return Number(toks[as + 3]!.value)
  return undefined
}

/**
 * The fractional second precision of the TIMESTAMP [from, to) of `toks` (significant tokens) where the expression
 * says it: a CAST's p ({@link castTimestampPrecision}), and 9 for a TIMESTAMP literal (with a zone or not) and for
 * TO_TIMESTAMP, whose values Oracle shows with nine digits (`TO_TIMESTAMP('2003/12/13 10:13:18', 'YYYY/MM/DD
 * HH:MI:SS')` "would return '13-DEC-03 10.13.18.000000000 AM'", TechOnTheNet "Oracle/PLSQL: TO_TIMESTAMP Function";
 * `SELECT TIMESTAMP '2020-01-01 10:00:00' FROM DUAL` gives `01-JAN-20 10.00.00.000000000 AM` in OceanBase's Oracle
 * mode, "Datetime expressions"; **unconfirmed** on Oracle itself for the literal, which the SQL Language Reference's
 * "Datetime Literals" gives no precision).
 */
export const timestampPrecisionAt = (toks: ReadonlyArray<Tok>, from: number, to: number): number | undefined => {
  const cast = castTimestampPrecision(toks, from, to)
  if (cast !== undefined) return cast
  const literal = to === from + 2 && isKw(toks[from], "TIMESTAMP") && toks[from + 1]?.kind === "str"
  const call = isKw(toks[from], "TO_TIMESTAMP") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1
  return literal || call ? 9 : undefined
}

/** `model` with each FF that has no digit count given `precision` digits (none for 0), outside quoted text. */
export const withFractionDigits = (model: string, precision: number): string =>
  model.replace(/"[^"]*"?|FF(?![1-9])/gi, (m) => (m.startsWith('"') ? m : precision === 0 ? "" : `${m}${Math.min(precision, 9)}`))

/** DuckDB SQL of the TIMESTAMP `sql` with its fraction rounded half up to `precision` (0-5) digits. */
export const roundedFraction = (sql: string, precision: number): string => {
  const unit = 10 ** (6 - precision)
  const shifted = `(epoch_us(${sql}) + ${unit / 2})`
  return `make_timestamp(${shifted} - ((${shifted} % ${unit}) + ${unit}) % ${unit})`
}

/**
 * The translation of bind `$k` written into a TIMESTAMP(`precision`) column, 0-5 (datetime-writes.ts casts it to the
 * column's type, translate-cast.ts renders the cast with {@link roundedFraction}), whitespace removed: bulk-insert.ts
 * recognises it to keep executeMany's column-wise path for such columns.
 */
export const ROUNDED_BIND = (k: number, precision: number): string =>
  roundedFraction(`CAST(CAST($${k} AS TIMESTAMP) AS TIMESTAMP)`, precision).replace(/\s+/g, "")
