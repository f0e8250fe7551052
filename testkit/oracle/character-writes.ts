/**
 * Numbers and datetimes computed into character columns: Oracle converts a value an INSERT, UPDATE or MERGE writes
 * into a VARCHAR2 / NVARCHAR2 column to text as TO_CHAR does ("Implicit Data Conversion": a NUMBER as its shortest
 * text, `5`, `.5`; a DATE in NLS_DATE_FORMAT), where DuckDB's own cast writes `5.0`, `0.5` or an ISO datetime. So a
 * number literal or an arithmetic expression written there (`DATE '2024-01-06' - DATE '2024-01-01'`, `n / 4`,
 * `d + 1`) is wrapped in `CAST(... AS VARCHAR2(32767))`, which the translator renders through `ora_to_char`
 * (translate-calls.ts CAST). Columns, binds and text expressions are written as they are.
 */
import type { TableMeta } from "./catalog.ts"
import { decimalOf, numberText } from "./decimal.ts"
import { isKw, isOp, matchParen, sqlString, type Tok } from "./lexer.ts"
import { castWrites, type TableLookup } from "./number-writes.ts"

const characterColumns = (meta: TableMeta): ReadonlySet<string> => new Set(meta.columns.filter((c) => c.type.kind === "varchar" || c.type.kind === "nvarchar").map((c) => c.name))

/** A number literal, or an expression with `+ - * /` and no `||` at its top level (a number or datetime result). */
export const isNumberExpression = (sig: ReadonlyArray<Tok>, from: number, to: number): boolean => {
  if (to === from + 1) return sig[from]!.kind === "num" && !/[fFdD]$/.test(sig[from]!.text)
  if (to === from + 2 && (isOp(sig[from], "-") || isOp(sig[from], "+"))) return isNumberExpression(sig, from + 1, to)
  if (isOp(sig[from], "(") && matchParen(sig, from) === to - 1) return isNumberExpression(sig, from + 1, to - 1)
  let arithmetic = false
  for (let k = from; k < to; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) k = matchParen(sig, k)
    else if (isOp(t, "||") || isKw(t, "CASE", "SELECT")) return false
    else if (k > from && (isOp(t, "+") || isOp(t, "-") || isOp(t, "*") || isOp(t, "/"))) arithmetic = true
  }
  return arithmetic
}

/**
 * The DuckDB text of a number expression's TO_CHAR text: `ora_num_char`, or `ora_to_char` (NLS_DATE_FORMAT) where the
 * rendered expression is a datetime plus or minus days.
 */
export const asNumberText = (sql: string): string => (/^\(*(?:CAST\()?ora_date(?:time)?_add\(/.test(sql) ? `ora_to_char(${sql})` : `ora_num_char(${sql})`)

/** A number literal's TO_CHAR text as a constant (its decimal character the session's NLS_NUMERIC_CHARACTERS'). */
export const literalNumberText = (value: string): string => {
  const text = numberText(decimalOf(value))
  return text.includes(".") ? `replace(${sqlString(text)}, '.', left(coalesce(getvariable('ora_nls_numeric'), '.'), 1))` : sqlString(text)
}

/** The TO_CHAR text of the number expression [from, to) of `toks` rendered as `sql`. */
export const numberExpressionText = (toks: ReadonlyArray<Tok>, from: number, to: number, sql: string): string =>
  to === from + 1 && toks[from]!.kind === "num"
    ? literalNumberText(toks[from]!.value)
    : to === from + 2 && isOp(toks[from], "-") && toks[from + 1]!.kind === "num"
      ? literalNumberText(`-${toks[from + 1]!.value}`)
      : asNumberText(sql)

/** `all` with the number literals and arithmetic an INSERT, UPDATE or MERGE writes into character columns wrapped. */
export const numberTextWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> =>
  castWrites(all, lookup, characterColumns, ["VARCHAR2", "(", "32767", ")"], isNumberExpression)
