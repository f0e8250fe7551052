/**
 * CHAR / NCHAR column values blank-padded where an expression computes on them. Oracle holds a CHAR(n) value
 * blank-padded to its length ("If you insert a value that is shorter than the column length, then Oracle blank-pads
 * the value to column length": SQL Language Reference, "CHAR Data Type"), so `c || '|'` of a CHAR(5) holding 'ab' is
 * `'ab   |'` and LENGTH(c) is 5. Here the value is stored as written and padded when fetched (encode.ts), which keeps
 * `c = 'ab'` true as Oracle's blank-padded comparison does ("Blank-Padded and Nonpadded Comparison Semantics"); so a
 * CHAR column reference is padded (`ora_attribute_char`, named-types.ts) where it is an operand of `||` or the whole
 * argument of CONCAT, LENGTH, LENGTHB, LENGTHC, VSIZE or DUMP, or matched by LIKE, and left as it is elsewhere (keys,
 * joins). Compared with a text literal, both sides are padded to the longer, so that a value written with trailing
 * blanks compares as Oracle's blank-padded semantics have it (`c = 'ab'` and `c = 'ab   '` both hold).
 * Columns are matched by name against the tables the statement mentions; a name that is of another type in one of
 * them is left alone.
 */
import type { TableMeta } from "./catalog.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isOp, sqlString, tokenize, type Tok } from "./lexer.ts"
import { Dty } from "./types.ts"

/** Resolves a table name as the session sees it. */
type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** The functions whose whole argument sees a CHAR column's padding. */
const PADDED_ARGUMENT_OF = ["CONCAT", "LENGTH", "LENGTHB", "LENGTHC", "VSIZE", "DUMP"]

/** The LIKE conditions. */
const LIKE = ["LIKE", "LIKEC", "LIKE2", "LIKE4"]

/** Words before which, walking back at one parenthesis depth, a SET clause's assignment targets cannot lie. */
const CLAUSE_WORDS = ["SET", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING", "SELECT", "THEN", "ELSE", "CASE", "BY", "WITH", "RETURN", "RETURNING", "VALUES"]

/** The comparison operators, whose CHAR operands compare with blank-padded semantics. */
const isComparison = (t: Tok | undefined): boolean => ["=", "<>", "!=", "^=", "<", ">", "<=", ">="].some((op) => isOp(t, op))

/** Whether the token after a literal continues its operand (so that the literal is not the whole operand). */
const isOperandContinued = (t: Tok | undefined): boolean => ["||", "(", ".", "+", "-", "*", "/"].some((op) => isOp(t, op))

/** The width `text` takes in a column: bytes, or characters when national. */
const widthOf = (text: string, national: boolean): number => (national ? [...text].length : Buffer.byteLength(text, "utf8"))

/** `text` with its trailing blanks dropped and blank-padded to `width` (bytes, or characters when national). */
const blankPadded = (text: string, width: number, national: boolean): string => {
  const trimmed = text.replace(/ +$/, "")
  return trimmed + " ".repeat(Math.max(0, width - widthOf(trimmed, national)))
}

/** CHAR / NCHAR column sizes by name, of the tables `toks` mention (names of another type there left out). */
const charColumnsOf = (toks: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyMap<string, { size: number; national: boolean }> => {
  const out = new Map<string, { size: number; national: boolean }>()
  const other = new Set<string>()
  for (const t of toks) {
    if (t.kind !== "ident" && t.kind !== "qident") continue
    const meta = lookup(undefined, oracleName(t))
    if (meta === undefined) continue
    for (const c of meta.columns) {
      const size = { size: c.type.charSize, national: c.type.kind === "nvarchar" }
      const known = out.get(c.name)
      if (c.type.dty !== Dty.CHAR || (known !== undefined && (known.size !== size.size || known.national !== size.national))) other.add(c.name)
      else out.set(c.name, size)
    }
  }
  for (const name of other) out.delete(name)
  return out
}

/** `toks` with the CHAR column references that expressions compute on blank-padded (the tokens themselves when none). */
export const padCharOperands = (toks: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isOp(t, "||") || isKw(t, ...PADDED_ARGUMENT_OF) || isComparison(t) || isKw(t, ...LIKE))) return toks
  const columns = charColumnsOf(toks, lookup)
  if (columns.size === 0) return toks
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (s: number): Tok | undefined => (s >= 0 ? toks[sig[s]!] : undefined)
  // the function whose argument list the significant token `s` is directly in, if any
  const enclosingCall = (s: number): Tok | undefined => {
    let depth = 0
    for (let p = s - 1; p >= 0; p--) {
      if (isOp(at(p), ")")) depth++
      else if (isOp(at(p), "(")) {
        if (depth === 0) return at(p - 1)
        depth--
      }
    }
    return undefined
  }
  // whether the reference at `first` is the target of an UPDATE's or MERGE's `SET c = ...`
  const isAssigned = (first: number): boolean => {
    let depth = 0
    for (let p = first - 1; p >= 0; p--) {
      const t = at(p)
      if (isOp(t, ")")) depth++
      else if (isOp(t, "(")) {
        if (depth === 0) return false
        depth--
      } else if (depth === 0 && isKw(t, ...CLAUSE_WORDS)) return isKw(t, "SET")
    }
    return false
  }
  const wraps: Array<{ from: number; to: number; size: number; national: boolean }> = []
  const literals = new Map<number, Tok>()
  for (let s = 0; s < sig.length; s++) {
    const t = at(s)!
    if (t.kind !== "ident" && t.kind !== "qident") continue
    const column = columns.get(oracleName(t))
    if (column === undefined || isOp(at(s + 1), "(") || isOp(at(s + 1), ".")) continue
    let first = s
    while (isOp(at(first - 1), ".") && (at(first - 2)?.kind === "ident" || at(first - 2)?.kind === "qident")) first -= 2
    const before = at(first - 1)
    const after = at(s + 1)
    const concatenated = isOp(before, "||") || isOp(after, "||")
    const wholeArgument = (isOp(before, "(") || isOp(before, ",")) && (isOp(after, ")") || isOp(after, ","))
    const call = wholeArgument ? enclosingCall(first) : undefined
    if (concatenated || (call !== undefined && isKw(call, ...PADDED_ARGUMENT_OF))) {
      wraps.push({ from: sig[first]!, to: sig[s]!, ...column })
      continue
    }
    // LIKE matches the padded value ("LIKE Condition" compares characters, not with blank-padded semantics)
    if (isKw(after, ...LIKE) || (isKw(after, "NOT") && isKw(at(s + 2), ...LIKE))) {
      wraps.push({ from: sig[first]!, to: sig[s]!, ...column })
      continue
    }
    if (isAssigned(first)) continue
    // compared with a text literal: both sides blank-padded to the longer one (a value stored with trailing blanks too)
    const literalAt = isComparison(after) ? s + 2 : isComparison(before) ? first - 2 : -1
    const literal = at(literalAt)
    if (literal?.kind !== "str" || literal.value === "" || (literalAt > s ? isOperandContinued(at(literalAt + 1)) : isOp(at(literalAt - 1), "||"))) continue
    const width = Math.max(column.size, widthOf(literal.value, column.national))
    wraps.push({ from: sig[first]!, to: sig[s]!, size: width, national: column.national })
    const value = blankPadded(literal.value, width, column.national)
    literals.set(sig[literalAt]!, { ...literal, value, text: `${/^[nN]'/.test(literal.text) ? "N" : ""}${sqlString(value)}` })
  }
  if (wraps.length === 0) return toks
  const out = toks.map((t, k) => literals.get(k) ?? t)
  for (const w of wraps.reverse()) {
    const pos = toks[w.from]!.pos
    const generated = (sql: string) => tokenize(sql).map((x) => ({ ...x, pos, heading: "" }))
    out.splice(w.to + 1, 0, ...generated(`, ${w.size}, ${w.national ? "TRUE" : "FALSE"})`))
    out.splice(w.from, 0, ...generated("ora_attribute_char("))
  }
  return out
}
