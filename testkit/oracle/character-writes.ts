/**
 * Numbers and datetimes computed into character columns: Oracle converts a value an INSERT, UPDATE or MERGE writes
 * into a VARCHAR2 / NVARCHAR2 column to text as TO_CHAR does ("Implicit Data Conversion": a NUMBER as its shortest
 * text, `5`, `.5`; a DATE in NLS_DATE_FORMAT), where DuckDB's own cast writes `5.0`, `0.5` or an ISO datetime. So a
 * number literal or an arithmetic expression written there (`DATE '2024-01-06' - DATE '2024-01-01'`, `n / 4`,
 * `d + 1`) is wrapped in `CAST(... AS VARCHAR2(32767))`, which the translator renders through `ora_to_char`
 * (translate-calls.ts CAST). So is a DATE / TIMESTAMP column, literal or current datetime (`d`, `DATE '2020-01-04'`,
 * SYSDATE), which the cast renders in the session's NLS_DATE_FORMAT / NLS_TIMESTAMP[_TZ]_FORMAT (`04-JAN-20`, not
 * DuckDB's `2020-01-04 00:00:00`). Datetime expressions whose operands decide their type, and datetime binds, are
 * datetime-text-writes.ts's; other columns, binds and text expressions are written as they are.
 */
import type { TableMeta } from "./catalog.ts"
import { decimalOf, numberText } from "./decimal.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, sqlString, type Tok } from "./lexer.ts"
import { castWrites, frameWrites, type TableLookup } from "./number-writes.ts"

/**
 * The kinds of column a value is converted to text for: VARCHAR2 / NVARCHAR2, and CLOB / NCLOB, into which Oracle
 * converts a datetime or number as into VARCHAR2 ("Implicit Data Conversion": DATE, NUMBER, ... to CLOB is implicit,
 * through the character form).
 */
const CHARACTER_KINDS: ReadonlySet<string> = new Set(["varchar", "nvarchar", "clob", "nclob"])

/** The VARCHAR2 / NVARCHAR2 / CLOB / NCLOB columns of a table, by name. */
export const characterColumns = (meta: TableMeta): ReadonlySet<string> => new Set(meta.columns.filter((c) => CHARACTER_KINDS.has(c.type.kind)).map((c) => c.name))

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

type ColumnType = TableMeta["columns"][number]["type"]

/**
 * The names of the columns of type `wanted` of the tables `all` mentions where its expressions can name them (not an
 * INSERT's target tables: SQL Language Reference, "INSERT", the subquery and VALUES name no column of the table
 * inserted into); with `exclusive`, but for a name one of them gives another type.
 */
export const columnsOfType = (all: ReadonlyArray<Tok>, lookup: TableLookup, wanted: (t: ColumnType) => boolean, exclusive: boolean): ReadonlySet<string> => {
  const found = new Set<string>()
  const others = new Set<string>()
  const sig = all.filter((t) => t.kind !== "ws")
  const insert = isKw(sig[0], "INSERT")
  for (const [k, t] of sig.entries()) {
    if (t.kind !== "ident" && t.kind !== "qident") continue
    if (insert && (isKw(sig[k - 1], "INTO") || (isOp(sig[k - 1], ".") && isKw(sig[k - 3], "INTO")))) continue
    for (const c of lookup(undefined, t.value)?.columns ?? []) (wanted(c.type) ? found : others).add(c.name)
  }
  if (exclusive) for (const name of others) found.delete(name)
  return found
}

/** NUMBER(p[,s]) columns: DuckDB DECIMAL / integers, whose own text is `1.50`. */
const isBoundedNumber = (t: ColumnType): boolean => t.kind === "number" && t.duck !== "VARCHAR"

/**
 * DATE and TIMESTAMP [WITH [LOCAL] TIME ZONE] columns. The cast renders a column by its type when the statement runs
 * (translate-cast.ts `ora_char_of`), a character column unchanged, so a name another table gives another type is
 * wrapped as well.
 */
const isDatetime = (t: ColumnType): boolean => t.kind === "date" || t.kind === "timestamp" || t.kind === "timestamptz" || t.kind === "timestampltz"

/** A datetime literal (`DATE '...'`, `TIMESTAMP '...'`) or a current datetime (SYSDATE, SYSTIMESTAMP, ...). */
const isDatetimeValue = (sig: ReadonlyArray<Tok>, from: number, to: number): boolean =>
  (to === from + 2 && isKw(sig[from], "DATE", "TIMESTAMP") && sig[from + 1]!.kind === "str") ||
  (to === from + 1 && isKw(sig[from], "SYSDATE", "SYSTIMESTAMP", "CURRENT_DATE", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP"))

/**
 * `all` with the number literals and arithmetic an INSERT, UPDATE or MERGE writes into character columns wrapped, and
 * a NUMBER(p,s) column written as it is (`1.50` in DuckDB's text; Oracle's implicit conversion gives TO_CHAR's `1.5`,
 * `.5`: SQL Language Reference, "Implicit Data Conversion" and "TO_CHAR (number)": "If you omit fmt, then n is
 * converted to a VARCHAR2 value exactly long enough to hold its significant digits").
 */
export const numberTextWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  // the columns written as they are, looked up only when a statement writes a character column
  let written: { readonly bounded: ReadonlySet<string>; readonly datetimes: ReadonlySet<string> } | undefined
  const writtenColumns = () => (written ??= { bounded: columnsOfType(all, lookup, isBoundedNumber, true), datetimes: columnsOfType(all, lookup, isDatetime, false) })
  const column = (sig: ReadonlyArray<Tok>, from: number, to: number): boolean => {
    if (isDatetimeValue(sig, from, to)) return true
    const last = sig[to - 1]
    const name = isName(last) ? last.value.slice(last.value.lastIndexOf(".") + 1) : undefined
    if (name !== undefined && (writtenColumns().bounded.has(name) || writtenColumns().datetimes.has(name)) && (to === from + 1 || (to === from + 3 && isOp(sig[from + 1], ".")))) return true
    // a scalar subquery selecting one such column: `(SELECT q FROM t WHERE ...)`
    if (!isOp(sig[from], "(") || !isKw(sig[from + 1], "SELECT") || matchParen(sig, from) !== to - 1) return false
    let end = from + 2
    while (end < to - 1 && !isKw(sig[end], "FROM")) end++
    return end < to - 1 && end > from + 2 && column(sig, from + 2, end)
  }
  const cast = castWrites(all, lookup, characterColumns, ["VARCHAR2", "(", "32767", ")"], (sig, from, to) => isNumberExpression(sig, from, to) || column(sig, from, to))
  // a DATE function's result is a DuckDB TIMESTAMP for some arguments: cast back to DATE, shown in NLS_DATE_FORMAT
  const dates = frameWrites(cast, lookup, characterColumns, "TO_CHAR(CAST(", " AS DATE))", (sig, from, to) => isCall(sig, from, to) && DATE_RESULTS.has(sig[from]!.value))
  return frameWrites(dates, lookup, characterColumns, "TO_CHAR(", ")", isDatetimeCall)
}

/** Oracle's functions whose result is always a DATE ("Datetime Functions", "TO_DATE"). */
const DATE_RESULTS: ReadonlySet<string> = new Set(["TO_DATE", "ADD_MONTHS", "LAST_DAY", "NEXT_DAY", "NEW_TIME"])

/** Whether [from, to) is one call `name(...)`. */
const isCall = (sig: ReadonlyArray<Tok>, from: number, to: number): boolean =>
  sig[from]!.kind === "ident" && isOp(sig[from + 1], "(") && matchParen(sig, from + 1) === to - 1

/**
 * A call of TO_TIMESTAMP, or a CAST to DATE or TIMESTAMP: written through TO_CHAR without a model, which the
 * translator renders in the session's NLS format by the value's type (the CAST to VARCHAR2 above would keep DuckDB's
 * text for an expression larger than one name).
 */
const isDatetimeCall = (sig: ReadonlyArray<Tok>, from: number, to: number): boolean => {
  if (!isCall(sig, from, to)) return false
  if (isKw(sig[from], "CAST")) return isKw(sig[findTopLevel(sig, from + 2, to - 1, (t) => isKw(t, "AS")) + 1], "DATE", "TIMESTAMP")
  return isKw(sig[from], "TO_TIMESTAMP")
}
