/**
 * Comparisons of CHAR / NCHAR values with Oracle's blank-padded semantics. CHAR values are stored blank-padded to
 * their column's length (char-writes.ts), so a comparison with a VARCHAR2 column or bind compares them as they are,
 * Oracle's nonpadded semantics ("Blank-Padded and Nonpadded Comparison Semantics", SQL Language Reference, "Data Type
 * Comparison Rules": "Oracle uses nonpadded comparison semantics whenever one or both values in the comparison have
 * the data type VARCHAR2 or NVARCHAR2"; `c = :b` with 'ab' bound is false for a CHAR(5) holding 'ab'). Where both
 * operands are CHAR / NCHAR columns or text literals ("Oracle uses blank-padded comparison semantics only when both
 * values in the comparison are either expressions of data type CHAR, NCHAR, text literals, or values returned by the
 * USER function"), the shorter side gets blanks added until both lengths are equal: a text literal compared with a
 * CHAR column (`=`, `<>`, `<`, ..., and each literal of an IN list) is written padded to the column's length (the
 * column padded to the literal's when that is longer; the bounds of BETWEEN, a simple CASE's WHEN literals and
 * DECODE's search literals alike), two CHAR columns of different lengths are both padded to the
 * longer, and of two text literals the shorter is padded. Columns are resolved by their qualifier (a table's name or
 * alias in the statement) or, unqualified, by name among the tables the statement mentions (a name of another type in
 * one of them is left alone). A CHAR column compared for (in)equality with a bind sent as CHAR (oracledb
 * `DB_TYPE_CHAR`) compares both without their trailing blanks, which blank-padded equality comes to.
 */
import type { TableMeta } from "./catalog.ts"
import { blankPaddedSql, blankPaddedText, isBlankPadded, sizedInCharacters } from "./char-writes.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isOp, matchParen, sqlString, tokenize, type Tok } from "./lexer.ts"
import type { OraType } from "./types.ts"

/** Resolves a table name as the session sees it. */
type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** Words before which, walking back at one parenthesis depth, a SET clause's assignment targets cannot lie. */
const CLAUSE_WORDS = ["SET", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING", "SELECT", "THEN", "ELSE", "CASE", "BY", "WITH", "RETURN", "RETURNING", "VALUES"]

/** The comparison operators. */
const isComparison = (t: Tok | undefined): boolean => ["=", "<>", "!=", "^=", "<", ">", "<=", ">="].some((op) => isOp(t, op))

/** Operators binding an operand more tightly than a comparison (so that a token next to one is not a whole operand). */
const isTighter = (t: Tok | undefined): boolean => ["||", ".", "+", "-", "*", "/"].some((op) => isOp(t, op))

const isName = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** Whether the text literal at `k` of `sig` is a datetime or interval literal's text (`DATE '2024-01-01'`). */
const isTypedLiteral = (sig: ReadonlyArray<Tok>, k: number): boolean => isKw(sig[k - 1], "DATE", "TIMESTAMP", "INTERVAL", "TIME")

/** `text` with its trailing blanks dropped. */
const trimmed = (text: string): string => text.replace(/ +$/, "")

/** A text literal token holding `value` (national when `like` is). */
const literalLike = (like: Tok, value: string): Tok => ({ ...like, value, text: `${/^[nN]'/.test(like.text) ? "N" : ""}${sqlString(value)}` })

/** The CHAR / NCHAR columns the statement can name: unqualified (by name, unless of another type somewhere) and by qualifier. */
const charColumnsOf = (sig: ReadonlyArray<Tok>, lookup: TableLookup, variableType?: (name: string) => OraType | undefined) => {
  const byName = new Map<string, OraType>()
  const other = new Set<string>()
  const columnNames = new Set<string>()
  const byQualifier = new Map<string, TableMeta>()
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (!isName(t)) continue
    const meta = isOp(sig[k - 1], ".") ? (isName(sig[k - 2]) ? lookup(oracleName(sig[k - 2]!), oracleName(t)) : undefined) : lookup(undefined, oracleName(t))
    if (meta === undefined) continue
    byQualifier.set(meta.name, meta)
    const alias = isKw(sig[k + 1], "AS") ? sig[k + 2] : sig[k + 1]
    if (isName(alias)) byQualifier.set(oracleName(alias), meta)
    for (const c of meta.columns) {
      columnNames.add(c.name)
      const known = byName.get(c.name)
      if (!isBlankPadded(c.type) || (known !== undefined && (known.charSize !== c.type.charSize || sizedInCharacters(known) !== sizedInCharacters(c.type)))) other.add(c.name)
      else byName.set(c.name, c.type)
    }
  }
  for (const name of other) byName.delete(name)
  return {
    /** The CHAR type of the column reference ending at `at` (`c`, `q.c`, `s.q.c`), if it is one. */
    typeAt(at: number): OraType | undefined {
      const name = oracleName(sig[at]!)
      // a PL/SQL variable, unless a column of the statement's tables hides it
      if (!isOp(sig[at - 1], ".")) return byName.get(name) ?? (columnNames.has(name) ? undefined : variableType?.(name))
      const type = isName(sig[at - 2]) ? byQualifier.get(oracleName(sig[at - 2]!))?.columns.find((c) => c.name === name)?.type : undefined
      return type !== undefined && isBlankPadded(type) ? type : undefined
    }
  }
}

/** An operand of a comparison: a CHAR column reference [from, to] or a text literal at `from` (= `to`). */
type Operand = { readonly from: number; readonly to: number } & ({ readonly kind: "column"; readonly type: OraType } | { readonly kind: "literal"; readonly tok: Tok })

/**
 * `toks` with the operands of comparisons that Oracle compares with blank-padded semantics padded to equal lengths;
 * `variableType` gives the CHAR / NCHAR type of a PL/SQL variable by name (a PL/SQL comparison follows the same rules:
 * PL/SQL Language Reference, "Character Comparisons").
 */
export const padCharOperands = (
  toks: ReadonlyArray<Tok>,
  lookup: TableLookup,
  variableType?: (name: string) => OraType | undefined,
  charBind?: (ordinal: number) => boolean
): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isComparison(t) || isKw(t, "IN", "BETWEEN", "CASE", "DECODE"))) return toks
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const sigToks = sig.map((k) => toks[k]!)
  const at = (s: number): Tok | undefined => (s >= 0 ? sigToks[s] : undefined)
  let columns: ReturnType<typeof charColumnsOf> | undefined
  const typeAt = (s: number) => (columns ??= charColumnsOf(sigToks, lookup, variableType)).typeAt(s)
  // whether the comparison at `s` is an UPDATE's or MERGE's `SET c = ...` assignment
  const isAssignment = (s: number): boolean => {
    let depth = 0
    for (let p = s - 1; p >= 0; p--) {
      const t = at(p)
      if (isOp(t, ")")) depth++
      else if (isOp(t, "(")) {
        if (depth === 0) return false
        depth--
      } else if (depth === 0 && isKw(t, ...CLAUSE_WORDS)) return isKw(t, "SET")
    }
    return false
  }
  // the whole operand ending at `end` (left of an operator) or starting at `start` (right of one)
  const operandBefore = (end: number): Operand | undefined => {
    const t = at(end)
    if (t?.kind === "str") return isTighter(at(end - 1)) || isTypedLiteral(sigToks, end) ? undefined : { kind: "literal", tok: t, from: end, to: end }
    if (!isName(t)) return undefined
    let first = end
    while (isOp(at(first - 1), ".") && isName(at(first - 2))) first -= 2
    const type = isTighter(at(first - 1)) ? undefined : typeAt(end)
    return type === undefined ? undefined : { kind: "column", type, from: first, to: end }
  }
  const operandAfter = (start: number): Operand | undefined => {
    const t = at(start)
    if (t?.kind === "str") return isTighter(at(start + 1)) || isOp(at(start + 1), "(") || isTypedLiteral(sigToks, start) ? undefined : { kind: "literal", tok: t, from: start, to: start }
    if (!isName(t)) return undefined
    let last = start
    while (isOp(at(last + 1), ".") && isName(at(last + 2))) last += 2
    const type = isTighter(at(last + 1)) || isOp(at(last + 1), "(") ? undefined : typeAt(last)
    return type === undefined ? undefined : { kind: "column", type, from: start, to: last }
  }
  // a bind sent as CHAR (oracledb DB_TYPE_CHAR), by its ordinal among the statement's binds in source order
  let bindOrdinals: ReadonlyMap<Tok, number> | undefined
  const isCharBind = (s: number): boolean => {
    if (charBind === undefined || at(s)?.kind !== "bind" || isTighter(at(s - 1)) || isTighter(at(s + 1))) return false
    bindOrdinals ??= new Map(sigToks.filter((t) => t.kind === "bind").sort((a, b) => a.pos - b.pos).map((t, n) => [t, n] as const))
    return charBind(bindOrdinals.get(at(s)!) ?? -1)
  }
  // whether the operand at `s` starts a condition (after WHERE, AND, ..., or a grouping parenthesis)
  const isConditionStart = (s: number): boolean =>
    isKw(at(s - 1), "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING") || (isOp(at(s - 1), "(") && !isName(at(s - 2)) && !isOp(at(s - 2), ")"))
  const literals = new Map<number, Tok>()
  const wraps = new Map<number, { to: number; sql: (x: string) => string }>()
  const widthIn = (text: string, inCharacters: boolean) => (inCharacters ? [...text].length : Buffer.byteLength(text, "utf8"))
  // a literal compared with a CHAR column: padded to the column's length, the column to the literal's when longer
  const padAgainst = (literal: Operand & { kind: "literal" }, column: Operand & { kind: "column" }) => {
    if (literal.tok.value === "") return
    const inCharacters = sizedInCharacters(column.type)
    const width = Math.max(column.type.charSize, widthIn(trimmed(literal.tok.value), inCharacters))
    const type = { ...column.type, charSize: width }
    literals.set(literal.from, literalLike(literal.tok, blankPaddedText(trimmed(literal.tok.value), type)))
    if (width > column.type.charSize) wraps.set(column.from, { to: column.to, sql: (x) => blankPaddedSql(x, type) })
  }
  for (let s = 0; s < sigToks.length; s++) {
    const t = at(s)!
    if (isKw(t, "IN") && isOp(at(s + 1), "(")) {
      // each literal of `c [NOT] IN ('a', 'b')` compared with the column: padded to its length (a longer one never equals it)
      const left = operandBefore(isKw(at(s - 1), "NOT") ? s - 2 : s - 1)
      if (left?.kind !== "column") continue
      const close = matchParen(sigToks, s + 1)
      for (let k = s + 2; k < close; k++) {
        const item = at(k)!
        if (item.kind === "str" && item.value !== "" && (isOp(at(k - 1), "(") || isOp(at(k - 1), ",")) && (isOp(at(k + 1), ",") || k + 1 === close))
          literals.set(k, literalLike(item, blankPaddedText(trimmed(item.value), left.type)))
      }
      continue
    }
    if (isKw(t, "BETWEEN")) {
      // `c [NOT] BETWEEN 'a' AND 'b'`: both bounds compared with the column
      const left = operandBefore(isKw(at(s - 1), "NOT") ? s - 2 : s - 1)
      const low = operandAfter(s + 1)
      if (left?.kind !== "column" || low?.kind !== "literal" || !isKw(at(s + 2), "AND")) continue
      padAgainst(low, left)
      const high = operandAfter(s + 3)
      if (high?.kind === "literal") padAgainst(high, left)
      continue
    }
    if (isKw(t, "CASE")) {
      // `CASE c WHEN 'a' THEN ...`: each WHEN literal compared with the column
      const subject = operandAfter(s + 1)
      if (subject?.kind !== "column" || !isKw(at(subject.to + 1), "WHEN")) continue
      for (let k = subject.to + 1, depth = 0; k < sigToks.length; k++) {
        const x = at(k)
        if (isOp(x, "(") || isKw(x, "CASE")) depth++
        else if (isOp(x, ")") || isKw(x, "END")) {
          if (depth === 0) break
          depth--
        } else if (depth === 0 && isKw(x, "WHEN") && at(k + 1)?.kind === "str" && isKw(at(k + 2), "THEN")) padAgainst({ kind: "literal", tok: at(k + 1)!, from: k + 1, to: k + 1 }, subject)
      }
      continue
    }
    if (isKw(t, "DECODE") && isOp(at(s + 1), "(")) {
      // `DECODE(c, 'a', r1, 'b', r2 [, default])`: each search literal compared with the column
      const subject = operandAfter(s + 2)
      if (subject?.kind !== "column" || !isOp(at(subject.to + 1), ",")) continue
      const close = matchParen(sigToks, s + 1)
      const starts: Array<number> = []
      for (let k = subject.to + 2, depth = 0, start = k; k <= close; k++) {
        const x = at(k)
        if (k === close || (depth === 0 && isOp(x, ","))) {
          starts.push(start)
          start = k + 1
        } else if (isOp(x, "(")) depth++
        else if (isOp(x, ")")) depth--
      }
      // searches are the arguments at even positions that have a result after them
      for (let n = 0; n + 1 < starts.length; n += 2) {
        const k = starts[n]!
        if (at(k)?.kind === "str" && (isOp(at(k + 1), ",") || k + 1 === close)) padAgainst({ kind: "literal", tok: at(k)!, from: k, to: k }, subject)
      }
      continue
    }
    if (!isComparison(t) || isAssignment(s)) continue
    const left = operandBefore(s - 1)
    const right = operandAfter(s + 1)
    // a CHAR column against a CHAR bind, whose length is known only when the statement runs: both without trailing blanks
    const bindAt = left?.kind === "column" && isCharBind(s + 1) ? s + 1 : right?.kind === "column" && isCharBind(s - 1) ? s - 1 : -1
    if (bindAt >= 0 && ["=", "<>", "!=", "^="].some((op) => isOp(t, op))) {
      const column = (left?.kind === "column" ? left : right)!
      for (const [from, to] of [[column.from, column.to], [bindAt, bindAt]] as const) wraps.set(from, { to, sql: (x) => `rtrim(${x}, ' ')` })
      continue
    }
    if (left === undefined || right === undefined) continue
    // a JSON_TRANSFORM operation's `SET '$.a' = ...` is an assignment
    if (left.kind === "literal" && isKw(at(left.from - 1), "SET", "INSERT", "REPLACE", "APPEND", "RENAME", "PREPEND", "NESTED")) continue
    if (left.kind === "column" && right.kind === "literal") padAgainst(right, left)
    else if (left.kind === "literal" && right.kind === "column") padAgainst(left, right)
    else if (left.kind === "column" && right.kind === "column") {
      if (left.type.charSize === right.type.charSize && sizedInCharacters(left.type) === sizedInCharacters(right.type)) continue
      // both padded to the longer length in characters (a value sized in bytes has no more characters than bytes)
      const type = { ...left.type, kind: "nvarchar" as const, charSize: Math.max(left.type.charSize, right.type.charSize) }
      for (const side of [left, right]) wraps.set(side.from, { to: side.to, sql: (x) => blankPaddedSql(x, type) })
    } else if (left.kind === "literal" && right.kind === "literal" && left.tok.value !== "" && right.tok.value !== "" && isConditionStart(left.from)) {
      const width = Math.max([...left.tok.value].length, [...right.tok.value].length)
      for (const side of [left, right]) literals.set(side.from, literalLike(side.tok, side.tok.value + " ".repeat(width - [...side.tok.value].length)))
    }
  }
  if (literals.size === 0 && wraps.size === 0) return toks
  const out: Array<Tok> = []
  const ends = new Map<number, Array<string>>()
  for (let s = 0, k = 0; k < toks.length; k++) {
    const tok = toks[k]!
    if (tok.kind === "ws" || sig[s] !== k) {
      out.push(tok)
      continue
    }
    const generated = (sql: string) => tokenize(sql).map((x) => ({ ...x, pos: tok.pos, heading: "" }))
    const wrap = wraps.get(s)
    if (wrap !== undefined) {
      const [open, close] = wrap.sql("\u0000").split("\u0000") as [string, string]
      out.push(...generated(open))
      ends.set(wrap.to, [...(ends.get(wrap.to) ?? []), close])
    }
    out.push(literals.get(s) ?? tok)
    for (const close of ends.get(s) ?? []) out.push(...generated(close))
    s++
  }
  return out
}
