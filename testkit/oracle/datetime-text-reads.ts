/**
 * Character data where Oracle expects a datetime, read in the session's format: Oracle converts a character value
 * written into a DATE / TIMESTAMP / TIMESTAMP WITH TIME ZONE column, compared with one, or CAST to one implicitly, as
 * TO_DATE / TO_TIMESTAMP / TO_TIMESTAMP_TZ without a format model read it: in NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT /
 * NLS_TIMESTAMP_TZ_FORMAT (SQL Language Reference, "Implicit Data Conversion": "a character value compared with a DATE
 * is converted to DATE"; "Data Type Comparison Rules"; "CAST": character to datetime "using the default format"),
 * text that does not fit failing with TO_DATE's errors (ORA-01861, ORA-01843, ...). DuckDB's own cast would read
 * `2024-01-01` and fail `01-JAN-24` (ORA-01722). This rewrite puts such a string literal or character bind (one token)
 * inside the TO_* call, which the translator reads by Oracle's rules (datetime-parse.ts, nls-formats.ts): in the values
 * an INSERT / UPDATE / MERGE writes into such a column, beside a comparison operator, BETWEEN or IN whose other operand
 * is such a column, and as CAST's operand.
 */
import type { TableMeta } from "./catalog.ts"
import { columnsOfType } from "./character-writes.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { frameWrites, type TableLookup } from "./number-writes.ts"
import type { BindSpec } from "./statement.ts"
import { Dty, parseOracleType } from "./types.ts"

type ColumnType = TableMeta["columns"][number]["type"]

/** The call reading text in the session's format for a column of `type`, if it is a datetime Oracle reads so. */
const readerOf = (type: { readonly kind: string }): string | undefined =>
  type.kind === "date" ? "TO_DATE" : type.kind === "timestamp" ? "TO_TIMESTAMP" : type.kind === "timestamptz" ? "TO_TIMESTAMP_TZ" : undefined

const READERS = ["TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ"] as const

const COMPARISONS: ReadonlySet<string> = new Set(["=", "<>", "!=", "^=", "<", ">", "<=", ">="])

/** Operators that make a text operand part of a larger expression. */
const CONTINUING: ReadonlySet<string> = new Set(["||", "+", "-", "*", "/", "(", ".", "@"])

/**
 * `all` with the string literals and character binds (`characterBind(n, bind)`: the n-th bind, 1-based in source
 * order, is bound as character data) Oracle reads as datetimes put inside TO_DATE / TO_TIMESTAMP / TO_TIMESTAMP_TZ.
 */
export const datetimeTextReads = (all: ReadonlyArray<Tok>, lookup: TableLookup, characterBind: (n: number, bind: Tok) => boolean): ReadonlyArray<Tok> => {
  if (!all.some((t) => t.kind === "str" || t.kind === "bind")) return all
  const binds = new Map(all.filter((t) => t.kind === "bind").sort((a, b) => a.pos - b.pos).map((t, i) => [t, i + 1]))
  const isText = (t: Tok | undefined): boolean => t !== undefined && (t.kind === "str" || (t.kind === "bind" && characterBind(binds.get(t) ?? 0, t)))
  const single = (sig: ReadonlyArray<Tok>, from: number, to: number) => to === from + 1 && isText(sig[from])
  let out = all
  for (const reader of READERS)
    out = frameWrites(out, lookup, (meta) => new Set(meta.columns.filter((c) => readerOf(c.type) === reader).map((c) => c.name)), `${reader}(`, ")", single)
  const sig = out.filter((t) => t.kind !== "ws")
  const readers = new Map<string, string>()
  for (const reader of READERS) for (const name of columnsOfType(out, lookup, (t: ColumnType) => readerOf(t) === reader, true)) readers.set(name, reader)
  const wraps = new Map<Tok, string>()
  // a text operand standing alone: no operator or call continuing it on either side
  const continues = (t: Tok | undefined) => t?.kind === "op" && CONTINUING.has(t.value)
  const alone = (k: number) => isText(sig[k]) && !continues(sig[k - 1]) && !continues(sig[k + 1]) && !isKw(sig[k - 1], "DATE", "TIMESTAMP", "INTERVAL")
  const columnEndingAt = (k: number) => (isName(sig[k]) && !isOp(sig[k + 1], "(") && (!isOp(sig[k - 1], ".") || isName(sig[k - 2])) ? readers.get(oracleName(sig[k]!)) : undefined)
  const columnStartingAt = (k: number) => (isOp(sig[k + 1], ".") ? columnEndingAt(k + 2) : isOp(sig[k + 1], "(") ? undefined : columnEndingAt(k))
  if (readers.size > 0)
    sig.forEach((t, k) => {
      if (t.kind === "op" && COMPARISONS.has(t.value)) {
        const left = columnEndingAt(k - 1)
        if (left !== undefined && alone(k + 1)) wraps.set(sig[k + 1]!, left)
        const right = columnStartingAt(k + 1)
        if (right !== undefined && alone(k - 1)) wraps.set(sig[k - 1]!, right)
      } else if (isKw(t, "BETWEEN")) {
        const reader = columnEndingAt(k - 1) ?? (isKw(sig[k - 1], "NOT") ? columnEndingAt(k - 2) : undefined)
        if (reader !== undefined && alone(k + 1) && isKw(sig[k + 2], "AND") && alone(k + 3)) {
          wraps.set(sig[k + 1]!, reader)
          wraps.set(sig[k + 3]!, reader)
        }
      } else if (isKw(t, "IN") && isOp(sig[k + 1], "(") && !isKw(sig[k + 2], "SELECT", "WITH")) {
        const reader = columnEndingAt(k - 1) ?? (isKw(sig[k - 1], "NOT") ? columnEndingAt(k - 2) : undefined)
        const close = matchParen(sig, k + 1)
        if (reader !== undefined && close > 0)
          for (let j = k + 2; j < close; j += 2) if (isText(sig[j]) && (isOp(sig[j + 1], ",") || j + 1 === close)) wraps.set(sig[j]!, reader)
      }
    })
  // CAST('01-JAN-24' AS DATE | TIMESTAMP[(p)] | TIMESTAMP[(p)] WITH TIME ZONE)
  sig.forEach((t, k) => {
    if (!isKw(t, "CAST") || !isOp(sig[k + 1], "(") || !isText(sig[k + 2]) || !isKw(sig[k + 3], "AS")) return
    const close = matchParen(sig, k + 1)
    const type = close > 0 ? parseOracleType(sig.slice(k + 4, close).map((x) => x.text).join(" ")) : undefined
    const reader = type === undefined ? undefined : readerOf(type)
    if (reader !== undefined) wraps.set(sig[k + 2]!, reader)
  })
  if (wraps.size === 0) return out
  return out.flatMap((t) => {
    const reader = wraps.get(t)
    return reader === undefined ? [t] : [...tokenize(`${reader}(`).map((x) => ({ ...x, pos: t.pos })), t, ...tokenize(")").map((x) => ({ ...x, pos: t.pos }))]
  })
}

/** Whether a bind of `spec` is character data (VARCHAR2 / CHAR, as node-oracledb binds a string). */
export const isCharacterBind = (spec: BindSpec | undefined): boolean => spec?.dty === Dty.VARCHAR || spec?.dty === Dty.CHAR
