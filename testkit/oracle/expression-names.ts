/**
 * Names and kinds read off Oracle tokens without the translator: an identifier's name, an unaliased select item's
 * column heading, and whether an expression is BINARY_DOUBLE / BINARY_FLOAT. translate.ts and the modules it uses
 * (subquery-shapes.ts) both need them, so they live apart from translate.ts. A heading is the item's text as written:
 * rewrites that change an item's tokens (a literal padded for a CHAR comparison, `x > ANY (1, 2)` expanded) leave
 * the heading of the text they started from (withWrittenHeadings, itemHeading).
 */
import { isKw, isName, isOp, matchParen, type Tok, type WrittenHeading } from "./lexer.ts"
import { visitAliasedItems } from "./select-aliases.ts"

/** Oracle name of an identifier token (upper-cased unless quoted). */
export const oracleName = (t: Tok): string => (t.kind === "qident" ? t.value : t.value)

/** A native floating-point type: BINARY_DOUBLE or BINARY_FLOAT. */
export type BinaryKind = "double" | "float"

/** Functions whose result is not of their arguments' numeric type (a binary-float argument does not make it one). */
const NOT_NUMERIC_OF_ARGUMENT = new Set(["TO_CHAR", "TO_NCHAR", "TO_NUMBER", "COUNT", "LENGTH", "LENGTHB", "INSTR", "TO_DATE", "TO_TIMESTAMP", "SIGN", "DUMP"])

/**
 * The native floating-point type of the expression in tokens [from, to), or undefined for NUMBER (or non-numeric):
 * BINARY_DOUBLE when any operand is one (a `d` literal, a BINARY_DOUBLE_* constant, a CAST or TO_BINARY_DOUBLE, a
 * BINARY_DOUBLE column), else BINARY_FLOAT when any operand is one, as Oracle's numeric precedence converts the
 * other operands (SQL Language Reference, "Numeric Precedence":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Type-Comparison-Rules.html).
 */
export const binaryKindOf = (toks: ReadonlyArray<Tok>, from: number, to: number, columns?: ReadonlyMap<string, BinaryKind>): BinaryKind | undefined => {
  let kind: BinaryKind | undefined
  const note = (k: BinaryKind) => {
    if (kind !== "double") kind = k
  }
  for (let k = from; k < to; k++) {
    const t = toks[k]!
    if (t.kind === "num") {
      if (/[dD]$/.test(t.text)) note("double")
      else if (/[fF]$/.test(t.text)) note("float")
    } else if (t.kind === "ident" && isOp(toks[k + 1], "(") && (NOT_NUMERIC_OF_ARGUMENT.has(t.value) || t.value === "CAST")) {
      const close = Math.min(matchParen(toks, k + 1), to)
      if (t.value === "CAST" && isKw(toks[close - 1], "BINARY_DOUBLE", "BINARY_FLOAT")) note(toks[close - 1]!.value === "BINARY_DOUBLE" ? "double" : "float")
      k = close
    } else if (isKw(t, "BINARY_DOUBLE_NAN", "BINARY_DOUBLE_INFINITY", "TO_BINARY_DOUBLE", "ORA_PLSQL_CALL_DOUBLE")) note("double")
    else if (isKw(t, "BINARY_FLOAT_NAN", "BINARY_FLOAT_INFINITY", "TO_BINARY_FLOAT", "ORA_PLSQL_CALL_FLOAT")) note("float")
    else if ((t.kind === "ident" || t.kind === "qident") && !isOp(toks[k + 1], "(") && !isOp(toks[k + 1], ".")) {
      const c = columns?.get(oracleName(t))
      if (c !== undefined) note(c)
    }
  }
  return kind
}

/** Oracle's column heading for an unaliased select-list expression: upper-cased text without blanks. */
export const headingOf = (toks: ReadonlyArray<Tok>): string =>
  toks
    .map((t) => t.heading ?? (t.kind === "str" ? `'${t.value.toUpperCase()}'` : t.kind === "qident" ? t.value : t.text.toUpperCase()))
    .join("")

/**
 * `toks` (a query's tokens, before the rewrites that change select items) with each token of an unaliased select
 * item of two or more tokens, other than a qualified column or star, carrying the item's heading as written
 * (Tok.written), for {@link itemHeading} to find after the rewrites.
 */
export const withWrittenHeadings = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const at = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const sig = at.map((k) => toks[k]!)
  const depths: Array<number> = []
  let depth = 0
  for (const t of sig) {
    if (isOp(t, ")")) depth--
    depths.push(depth)
    if (isOp(t, "(")) depth++
  }
  const out = [...toks]
  visitAliasedItems(sig, () => false, (from, to) => {
    const item = sig.slice(from, to)
    const column = item.every((t, n) => (n % 2 === 0 ? isName(t) || (n === item.length - 1 && isOp(t, "*")) : isOp(t, ".")))
    const heading = headingOf(item)
    if (column || heading === "") return false
    const written: WrittenHeading = { heading, depth: depths[from]! }
    for (let k = at[from]!; k <= at[to - 1]!; k++) if (out[k]!.written === undefined || out[k]!.written!.depth < written.depth) out[k] = { ...out[k]!, written }
    return false
  })
  return out
}

/**
 * The heading of the unaliased select item `part` (its significant tokens, after rewrites): the heading its tokens
 * carry from the item as written when they carry one of the shallowest select list (withWrittenHeadings), else
 * {@link headingOf} its tokens; "" when none of its tokens has a heading (an item a rewrite made).
 */
export const itemHeading = (part: ReadonlyArray<Tok>): string => {
  const own = headingOf(part)
  let written: WrittenHeading | undefined
  let several = false
  for (const t of part) {
    const w = t.written
    if (w === undefined || w === written) continue
    if (written === undefined || w.depth < written.depth) [written, several] = [w, false]
    else if (w.depth === written.depth) several = true
  }
  return own === "" || written === undefined || several ? own : written.heading
}
