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
 * is such a column (or, beside a comparison operator, a DATE / TIMESTAMP expression: SYSDATE, TRUNC(d), ...), and as
 * CAST's operand.
 */
import type { TableMeta } from "./catalog.ts"
import { columnsOfType } from "./character-writes.ts"
import { datetimeOperandOf, nameLeaf } from "./datetime-operand-types.ts"
import { oracleName } from "./expression-names.ts"
import { bindNumbers, isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { frameWrites, type TableLookup } from "./number-writes.ts"
import type { BindSpec } from "./statement.ts"
import { visitAliasedItems } from "./select-aliases.ts"
import { Dty, parseOracleType } from "./types.ts"

type ColumnType = TableMeta["columns"][number]["type"]

/**
 * The call reading text in the session's format for a column of `type`, if it is a datetime Oracle reads so; not
 * TIMESTAMP(7-9), kept as text (TO_TIMESTAMP's value keeps six digits), which takes DuckDB's text form as before.
 */
const readerOf = (type: { readonly kind: string; readonly duck: string }): string | undefined =>
  type.kind === "date" ? "TO_DATE" : type.kind === "timestamp" && type.duck !== "VARCHAR" ? "TO_TIMESTAMP" : type.kind === "timestamptz" ? "TO_TIMESTAMP_TZ" : undefined

const READERS = ["TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ"] as const

const COMPARISONS: ReadonlySet<string> = new Set(["=", "<>", "!=", "^=", "<", ">", "<=", ">="])

/** Operators that join a datetime operand into a larger expression of another type. */
const ARITHMETIC: ReadonlySet<string> = new Set(["||", "+", "-", "*", "/"])

/** Operators that make a text operand part of a larger expression. */
const CONTINUING: ReadonlySet<string> = new Set(["||", "+", "-", "*", "/", "(", ".", "@"])

/**
 * `all` with the string literals and character binds (`characterBind(n, bind)`: the n-th bind, 1-based in source
 * order, is bound as character data) Oracle reads as datetimes put inside TO_DATE / TO_TIMESTAMP / TO_TIMESTAMP_TZ.
 */
export const datetimeTextReads = (all: ReadonlyArray<Tok>, lookup: TableLookup, characterBind: (n: number, bind: Tok) => boolean): ReadonlyArray<Tok> => {
  if (!all.some((t) => t.kind === "str" || t.kind === "bind")) return all
  const binds = bindNumbers(all)
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
  const columnEndingAt = (k: number) =>
    isName(sig[k]) && !isOp(sig[k + 1], "(") && (!isOp(sig[k - 1], ".") || isName(sig[k - 2])) && !shadowed(k) ? readers.get(oracleName(sig[k]!)) : undefined
  const columnStartingAt = (k: number) => (isOp(sig[k + 1], ".") ? columnEndingAt(k + 2) : isOp(sig[k + 1], "(") ? undefined : columnEndingAt(k))
  // a DATE / TIMESTAMP expression no column names: SYSDATE, TRUNC(d), ADD_MONTHS(d, 1), ... (datetime-operand-types.ts)
  const names = (reader: string) => new Set([...readers].flatMap(([name, r]) => (r === reader ? [name] : [])))
  const leaf = nameLeaf(sig, names("TO_DATE"), names("TO_TIMESTAMP"))
  const expressionReader = (from: number, to: number) => {
    const kind = from >= 0 && to > from ? datetimeOperandOf(sig, from, to, leaf) : undefined
    return kind === "date" ? "TO_DATE" : kind === "timestamp" ? "TO_TIMESTAMP" : undefined
  }
  const enclosingSelect = (k: number): number => {
    for (let j = k; j >= 0; j--) {
      if (isOp(sig[j], ")")) j = openingOf(j)
      else if (isOp(sig[j], "(")) return -1
      else if (isKw(sig[j], "SELECT")) return j
    }
    return -1
  }
  const openingOf = (close: number) => {
    let depth = 0
    for (let j = close; j >= 0; j--) {
      if (isOp(sig[j], ")")) depth++
      else if (isOp(sig[j], "(") && --depth === 0) return j
    }
    return -1
  }
  // the first / last token of the term ending / starting at k: a name (`s.t.d`), a call, a parenthesised operand
  const termStart = (k: number): number =>
    isOp(sig[k], ")") ? (isName(sig[openingOf(k) - 1]) ? openingOf(k) - 1 : openingOf(k)) : isOp(sig[k - 1], ".") && isName(sig[k - 2]) ? termStart(k - 2) : k
  const termEnd = (k: number): number =>
    isOp(sig[k], "(") ? matchParen(sig, k) : isName(sig[k]) && isOp(sig[k + 1], "(") ? matchParen(sig, k + 1) : isOp(sig[k + 1], ".") && isName(sig[k + 2]) ? termEnd(k + 2) : k
  const additive = (t: Tok | undefined) => isOp(t, "+") || isOp(t, "-")
  const term = (t: Tok | undefined) => t !== undefined && (t.kind !== "op" || isOp(t, "(") || isOp(t, ")"))
  // an operand joined to more by `||`, `*` or `/` is no datetime here; one of `+` / `-` is a datetime or not by
  // Oracle's arithmetic: `d - 1` a DATE, `end_d - start_d` a NUMBER of days ("Datetime/Interval Arithmetic")
  const joined = (t: Tok | undefined) => t?.kind === "op" && ARITHMETIC.has(t.value)
  const operandEndingAt = (k: number) => {
    let start = termStart(k)
    while (start > 1 && additive(sig[start - 1]) && term(sig[start - 2])) start = termStart(start - 2)
    if (start < k && additive(sig[termStart(k) - 1])) return joined(sig[start - 1]) ? undefined : expressionReader(start, k + 1)
    if (joined(sig[start - 1])) return undefined
    return columnEndingAt(k) ?? (isKw(sig[k], "SYSDATE", "CURRENT_DATE", "LOCALTIMESTAMP") ? expressionReader(k, k + 1) : isOp(sig[k], ")") && isName(sig[start]) ? expressionReader(start, k + 1) : undefined)
  }
  const operandStartingAt = (k: number) => {
    const first = termEnd(k)
    let end = first
    while (end >= 0 && additive(sig[end + 1]) && term(sig[end + 2])) end = termEnd(end + 2)
    if (end < 0) return undefined
    if (end > first) return joined(sig[end + 1]) ? undefined : expressionReader(k, end + 1)
    if (joined(sig[end + 1])) return undefined
    return columnStartingAt(k) ?? (isKw(sig[k], "SYSDATE", "CURRENT_DATE", "LOCALTIMESTAMP") ? expressionReader(k, k + 1) : isName(sig[k]) && isOp(sig[k + 1], "(") ? expressionReader(k, end + 1) : undefined)
  }
  /** The reader of the column that is the whole operand ending at k, before BETWEEN / IN (a NOT between them skipped). */
  const testedColumn = (k: number) => {
    const at = isKw(sig[k], "NOT") ? k - 1 : k
    return joined(sig[termStart(at) - 1]) ? undefined : columnEndingAt(at)
  }
  // a name an inline view or WITH block gives a value that is no datetime (`(SELECT TO_CHAR(d, 'YYYY') d FROM t)`)
  // names that text outside the subquery, where the table's column stays out of reach: the name is left alone there
  const shadows: Array<{ readonly name: string; readonly from: number; readonly to: number }> = []
  if (readers.size > 0)
    visitAliasedItems(sig, (from, to, alias) => {
      const select = enclosingSelect(from - 1)
      const open = select - 1
      const name = oracleName(alias)
      if (!isOp(sig[open], "(") || !isKw(sig[open - 1], "FROM", "JOIN", "AS") && !isOp(sig[open - 1], ",") || !readers.has(name)) return false
      if (datetimeOperandOf(sig, from, to, leaf) === undefined) shadows.push({ name, from: open, to: matchParen(sig, open) })
      return false
    })
  function shadowed(k: number): boolean {
    const name = oracleName(sig[k]!)
    return shadows.some((s) => s.name === name && (k < s.from || k > s.to))
  }
  if (readers.size > 0 || sig.some((t) => t.kind === "ident" && /^(?:SYSDATE|CURRENT_DATE|LOCALTIMESTAMP|TRUNC|ROUND|ADD_MONTHS|LAST_DAY|NEXT_DAY|TO_DATE|TO_TIMESTAMP|CAST)$/.test(t.value)))
    sig.forEach((t, k) => {
      if (t.kind === "op" && COMPARISONS.has(t.value)) {
        const left = alone(k + 1) ? operandEndingAt(k - 1) : undefined
        if (left !== undefined) wraps.set(sig[k + 1]!, left)
        const right = alone(k - 1) ? operandStartingAt(k + 1) : undefined
        if (right !== undefined) wraps.set(sig[k - 1]!, right)
      } else if (isKw(t, "BETWEEN")) {
        const reader = testedColumn(k - 1)
        if (reader !== undefined && alone(k + 1) && isKw(sig[k + 2], "AND") && alone(k + 3)) {
          wraps.set(sig[k + 1]!, reader)
          wraps.set(sig[k + 3]!, reader)
        }
      } else if (isKw(t, "IN") && isOp(sig[k + 1], "(") && !isKw(sig[k + 2], "SELECT", "WITH")) {
        const reader = testedColumn(k - 1)
        const close = matchParen(sig, k + 1)
        // a list of single tokens only (not `TIMESTAMP '...'` or expressions), its text elements read
        const elements = sig.slice(k + 2, close).filter((_, j) => j % 2 === 0)
        const singles = close > 0 && (close - k) % 2 === 1 && sig.slice(k + 3, close).every((x, j) => j % 2 === 1 || isOp(x, ","))
        if (reader !== undefined && singles) for (const x of elements) if (isText(x)) wraps.set(x, reader)
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
