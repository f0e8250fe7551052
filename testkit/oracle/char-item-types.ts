/**
 * How Oracle describes a top-level select item that is a CHAR / NCHAR expression of a known length (other than a
 * column or a bare text literal, which are described already): as CHAR(n) / NCHAR(n), not VARCHAR2(4000).
 * `CAST(x AS CHAR(n))` is CHAR(n) ("CAST converts one built-in data type ... into another built-in data type", SQL
 * Language Reference, CAST); UPPER / LOWER / INITCAP / NLS_UPPER / NLS_LOWER / NLS_INITCAP of a CHAR(n) are CHAR(n)
 * ("The return value is the same data type as char"); NULLIF, MAX / MIN, LAG ... of a CHAR(n), a CASE or COALESCE of
 * CHAR(n) values, and a set operation whose branches are all CHAR(n), are CHAR(n) (char-expressions.ts). A CHAR of a
 * length known only when the statement runs (`||` of CHARs, a CASE of CHARs of different lengths) stays VARCHAR2(4000).
 */
import { charTypes, type TableLookup } from "./char-expressions.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import type { OraType } from "./types.ts"
import type { QueryShape, SelectItem } from "./translate-types.ts"

/** Functions returning their CHAR argument's data type, length included. */
const LENGTH_PRESERVING = ["UPPER", "LOWER", "INITCAP", "NLS_UPPER", "NLS_LOWER", "NLS_INITCAP"]

/** `shape` with its expression items that are CHAR / NCHAR of a known length described as such (`toks`: the query). */
export const describeCharItems = (toks: ReadonlyArray<Tok>, shape: QueryShape, lookup: TableLookup): QueryShape => {
  const computed = (item: SelectItem) => item.kind === "expr" || item.kind === "aggregate"
  if (!shape.items.some(computed) || shape.items.some((i) => i.kind === "star")) return shape
  const sig = toks.filter((t) => t.kind !== "ws")
  const { typeOf, queryColumns } = charTypes(sig, lookup)
  /** The CHAR type of [from, to] when its length is known. */
  const sized = (from: number, to: number): OraType | undefined => {
    const type = typeOf(from, to)
    if (type?.kind === "column") return type.type
    if (type === undefined || !isKw(sig[from], ...LENGTH_PRESERVING) || !isOp(sig[from + 1], "(") || matchParen(sig, from + 1) !== to) return undefined
    // the first argument, up to a top-level comma (NLS_UPPER's NLS parameter)
    let end = from + 2
    for (let depth = 0; end < to && !(depth === 0 && isOp(sig[end], ",")); end++) {
      if (isOp(sig[end], "(")) depth++
      else if (isOp(sig[end], ")")) depth--
    }
    return sized(from + 2, end - 1)
  }
  const columns = queryColumns(0, sig.length - 1)
  if (columns.length !== shape.items.length) return shape
  // a set operation's items are CHAR only where queryColumns says so (every branch CHAR of one length)
  const setOperation = sig.some((t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT"))
  const ranges = setOperation ? undefined : itemRanges(sig)
  const items = shape.items.map((item, n): SelectItem => {
    if (!computed(item)) return item
    const info = columns[n]!.info
    if (info === undefined || info === "other") return item
    const range = ranges?.[n]
    const type = info.kind === "column" ? info.type : range !== undefined ? sized(range[0], range[1]) : undefined
    return type === undefined ? item : { kind: "typed", type }
  })
  return { ...shape, items }
}

/** The expression range (alias left out) of each select-list item of the query's top-level SELECT. */
const itemRanges = (sig: ReadonlyArray<Tok>): ReadonlyArray<readonly [number, number]> | undefined => {
  let select = -1
  for (let k = 0; k < sig.length && select < 0; k++) {
    if (isOp(sig[k], "(")) k = matchParen(sig, k)
    else if (isKw(sig[k], "SELECT")) select = k
  }
  if (select < 0) return undefined
  let k = isKw(sig[select + 1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
  const out: Array<readonly [number, number]> = []
  let start = k
  for (let depth = 0; k < sig.length; k++) {
    const t = sig[k]
    if (isOp(t, "(") || isKw(t, "CASE")) depth++
    else if (isOp(t, ")") || isKw(t, "END")) depth--
    else if (depth === 0 && (isOp(t, ",") || isKw(t, "FROM", "INTO"))) {
      out.push(withoutAlias(sig, start, k - 1))
      if (!isOp(t, ",")) return out
      start = k + 1
    }
  }
  return undefined
}

/** [from, to] without a trailing `[AS] alias`. */
const withoutAlias = (sig: ReadonlyArray<Tok>, from: number, to: number): readonly [number, number] => {
  const last = sig[to]
  const named = last !== undefined && (last.kind === "ident" || last.kind === "qident") && to > from && !isOp(sig[to - 1], ".") && !isKw(last, "END")
  if (!named) return [from, to]
  if (isKw(sig[to - 1], "AS")) return [from, to - 2]
  const before = sig[to - 1]!
  return before.kind !== "op" || isOp(before, ")") ? [from, to - 1] : [from, to]
}
