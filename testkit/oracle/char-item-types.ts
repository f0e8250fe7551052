/**
 * How Oracle describes a top-level select item that is a CHAR / NCHAR expression (other than a column or a bare text
 * literal, which are described already): as CHAR(n) / NCHAR(n) of the length Oracle works out from its operands when
 * it parses the statement, not VARCHAR2(4000); beside a `*` too.
 * - `CAST(x AS CHAR(n))` is CHAR(n) ("CAST converts one built-in data type ... into another", SQL Language Reference,
 *   CAST); UPPER / LOWER / INITCAP / NLS_UPPER / NLS_LOWER / NLS_INITCAP of a CHAR(n) are CHAR(n) ("The return value is
 *   the same data type as char"); NULLIF, MAX / MIN, LAG ... of a CHAR(n) are CHAR(n) (char-expressions.ts).
 * - `||` / CONCAT of CHARs is CHAR of the sum of their lengths ("If both character strings are of data type CHAR, then
 *   the result has data type CHAR and is limited to 2000 characters", SQL Language Reference, "Concatenation
 *   Operator"): `c || d` of a CHAR(3) and a CHAR(4) is CHAR(7), `c || 'zz'` CHAR(5) (a text literal is CHAR of its
 *   length).
 * - SUBSTR of a CHAR(n) is CHAR ("returns the same data type as char"), narrowed to m by a literal length m < n, as
 *   Oracle narrows `SUBSTR(cust_last_name, 1, 20)` of a VARCHAR2(40) to VARCHAR2(20) (Oracle Database 10g: A
 *   Beginner's Guide, `desc utah_sales`, https://litux.nl/mirror/oracledatabase10g/page_78.html); SOUNDEX of a CHAR is
 *   CHAR(4) ("Return the first four bytes", SQL Language Reference, SOUNDEX).
 * - A CASE or COALESCE of CHAR values is CHAR(n) when they all have length n, else VARCHAR2 of the longest: Oracle
 *   describes `CASE ... THEN 'Y' ELSE 'N' END` as CHAR(1) and `CASE ... THEN 'Y' ELSE 'NX' END` as VARCHAR2(2)
 *   (oracle-l, "Why is this expression CHAR(1) instead of VARCHAR2(1)?", 2021-03-31,
 *   https://www.freelists.org/post/oracle-l/Why-is-this-expression-CHAR1-instead-of-VARCHAR21), as a set operation of
 *   CHARs of different lengths is VARCHAR2 ("The Set Operators").
 * - A set operation's item is CHAR(n) where every branch's item is CHAR(n), VARCHAR2 of the longest where they are
 *   CHARs of different lengths ("The Set Operators").
 * - A bind the client sends as CHAR is CHAR of its length graduated as Oracle keeps bind lengths: up to 32 bytes 32,
 *   up to 128 128, up to 2000 2000 (C. Antognini, Troubleshooting Oracle Performance, "bind variable graduation"); a
 *   select item of a bind is described with that length (SQL*Plus PRINT, which runs `SELECT :s s FROM DUAL`, shows a
 *   VARCHAR2(32) variable 32 wide and a VARCHAR2(33) one 128 wide: http://huang.freeshell.org/oranotes/BindLength.txt).
 * The values are the expressions' own (a concatenation of padded CHARs is as long as its type; a bind's value is not
 * padded to its graduated length).
 */
import { callEnd, caseResultRanges, charTypes, endAfter, splitAt, type CharType, type TableLookup, VALUE_OF_ARGUMENT } from "./char-expressions.ts"
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import type { BindSpec } from "./statement.ts"
import { charType, Dty, graduatedBindLength, type OraType } from "./types.ts"
import type { QueryShape, SelectItem } from "./translate-types.ts"

/** Functions returning their CHAR argument's data type, length included. */
const LENGTH_PRESERVING = ["UPPER", "LOWER", "INITCAP", "NLS_UPPER", "NLS_LOWER", "NLS_INITCAP"]
/** The longest CHAR value in bytes ("CHAR Data Type": "Maximum size is 2000 bytes"). */
const CHAR_LIMIT = 2000

/** A CHAR / NCHAR length: national, in characters (undefined where either fits: a literal of single-byte characters), n. */
interface Sized {
  readonly national: boolean
  readonly inCharacters: boolean | undefined
  readonly n: number
}

const sizedOf = (t: OraType): Sized => ({ national: t.kind === "nvarchar", inCharacters: t.kind === "nvarchar" || t.charSemantics === true, n: t.charSize })
const typeOfSized = (s: Sized, fixed = true): OraType =>
  charType(s.national ? (fixed ? "NCHAR" : "NVARCHAR2") : fixed ? "CHAR" : "VARCHAR2", s.n, s.inCharacters === true)

/** The length units `sizes` share (national and byte / character semantics), undefined when they differ. */
const sharedUnits = (sizes: ReadonlyArray<Sized>): Omit<Sized, "n"> | undefined => {
  const national = sizes[0]!.national
  let inCharacters: boolean | undefined
  for (const s of sizes) {
    if (s.national !== national || (s.inCharacters !== undefined && inCharacters !== undefined && s.inCharacters !== inCharacters)) return undefined
    inCharacters ??= s.inCharacters
  }
  return { national, inCharacters }
}

/** The length Oracle keeps a CHAR bind of `bytes` at (bind variable graduation), undefined past CHAR's limit. */
const graduatedCharBindLength = (bytes: number): number | undefined => (bytes <= CHAR_LIMIT ? graduatedBindLength(bytes) : undefined)

/**
 * `shape` with its expression items that are CHAR / NCHAR of a length known at parse time described as such (`toks`:
 * the query; `specs`: its binds' metadata, in the order of their occurrence).
 */
export const describeCharItems = (toks: ReadonlyArray<Tok>, shape: QueryShape, lookup: TableLookup, specs: ReadonlyArray<BindSpec> = []): QueryShape => {
  const computed = (item: SelectItem) => item.kind === "expr" || item.kind === "aggregate" || item.kind === "bind"
  const sig = toks.filter((t) => t.kind !== "ws")
  const setOperation = isSetOperation(sig)
  if (!setOperation && !shape.items.some(computed)) return shape
  const binds = [...new Set(sig.filter((t) => t.kind === "bind"))].sort((a, b) => a.pos - b.pos)
  const charBind = (at: number): BindSpec | undefined => {
    const spec = specs[binds.indexOf(sig[at]!)]
    return spec?.dty === Dty.CHAR && spec.csfrm !== 2 ? spec : undefined
  }
  const { typeOf, branchesOf } = charTypes(sig, lookup, undefined, (at) => charBind(at) !== undefined)
  const { sized, declared } = declaredType(sig, typeOf, charBind)
  if (setOperation) {
    // CHAR(n) where every branch's item is CHAR(n), VARCHAR2 of the longest where they are CHARs of different lengths
    // ("If the queries select values of CHAR with different lengths, then the returned value is VARCHAR2 with the
    // length of the larger CHAR value", SQL Language Reference, "The Set Operators")
    const branches = branchesOf(0, sig.length - 1)
    if (shape.items.some((i) => i.kind === "star") || branches.some((b) => b.length !== shape.items.length)) return shape
    const items = shape.items.map((item, n): SelectItem => {
      if (item.kind === "rowid") return item
      const sizes = branches.map((b) => {
        const { range, info } = b[n]!
        return range !== undefined ? sized(range[0], range[1]) : typeof info === "object" && info.kind === "column" ? sizedOf(info.type) : undefined
      })
      const type = sizes.every((x) => x !== undefined) ? alternativesType(sizes) : undefined
      return type === undefined ? item : { kind: "typed", type }
    })
    return { ...shape, items }
  }
  const ranges = itemRanges(sig)
  if (ranges === undefined || ranges.length !== shape.items.length) return shape
  const items = shape.items.map((item, n): SelectItem => {
    if (!computed(item)) return item
    const type = declared(ranges[n]![0], ranges[n]![1])
    return type === undefined ? item : { kind: "typed", type }
  })
  return { ...shape, items }
}

/** Whether the query is a set operation at its top level (not only inside a WITH block or subquery). */
const isSetOperation = (sig: ReadonlyArray<Tok>): boolean => {
  for (let k = 0; k < sig.length; k++) {
    if (isOp(sig[k], "(")) k = matchParen(sig, k)
    else if (isKw(sig[k], "UNION", "INTERSECT", "MINUS", "EXCEPT")) return true
  }
  return false
}

/** The type of alternative CHAR values (a CASE's results, a set operation's branches): CHAR(n) when all have length n, else VARCHAR2 of the longest. */
const alternativesType = (sizes: ReadonlyArray<Sized>): OraType | undefined => {
  const units = sharedUnits(sizes)
  if (units === undefined) return undefined
  const n = Math.max(...sizes.map((s) => s.n))
  return typeOfSized({ ...units, n }, sizes.every((s) => s.n === n))
}

/** The declared type of a CHAR expression [from, to] of `sig`: CHAR / NCHAR of its length (VARCHAR2 for alternatives of different lengths). */
const declaredType = (sig: ReadonlyArray<Tok>, typeOf: (from: number, to: number) => CharType | undefined, charBind: (at: number) => BindSpec | undefined) => {
  /** The CHAR length of [from, to], undefined when it is not CHAR or its length is known only when the statement runs. */
  const sized = (from: number, to: number): Sized | undefined => {
    const type = typeOf(from, to)
    if (type === undefined) return undefined
    if (type.kind === "column") return sizedOf(type.type)
    if (type.kind === "literal") {
      const characters = [...type.tok.value].length
      // '' is NULL ("Nulls"), no CHAR of any length: the item keeps the type its value gives
      if (characters === 0) return undefined
      const bytes = Buffer.byteLength(type.tok.value, "utf8")
      const national = /^[nN]'/.test(type.tok.text)
      return { national, inCharacters: national ? true : bytes === characters ? undefined : false, n: national ? characters : bytes }
    }
    const t = sig[from]!
    if (from === to && t.kind === "bind") {
      const n = graduatedCharBindLength(charBind(from)?.maxSize ?? Infinity)
      return n === undefined ? undefined : { national: false, inCharacters: false, n }
    }
    if (isOp(t, "(") && matchParen(sig, from) === to) return isKw(sig[from + 1], "SELECT", "WITH") ? undefined : sized(from + 1, to - 1)
    const parts = splitAt(sig, from, to, "||")
    if (parts.length > 1) return concatenated(parts)
    if (isKw(t, "CASE") && endAfter(sig, from) === to) return sameLength(alternatives(caseResultRanges(sig, from, to)))
    if (!isName(t) || t.kind !== "ident" || !isOp(sig[from + 1], "(") || callEnd(sig, from + 1) !== to) return undefined
    const args = splitAt(sig, from + 2, matchParen(sig, from + 1) - 1, ",")
    const first = args[0]!
    if (VALUE_OF_ARGUMENT.has(t.value)) return isKw(sig[first[0]], "DISTINCT", "ALL") ? sized(first[0] + 1, first[1]) : sized(first[0], first[1])
    if (matchParen(sig, from + 1) !== to) return undefined
    if (LENGTH_PRESERVING.includes(t.value)) return sized(first[0], first[1])
    if (t.value === "CONCAT") return concatenated(args)
    if (t.value === "COALESCE") return sameLength(alternatives(args))
    if (t.value === "SOUNDEX") {
      const of = sized(first[0], first[1])
      return of === undefined ? undefined : { ...of, n: 4 }
    }
    if (t.value === "SUBSTR") {
      const of = sized(first[0], first[1])
      const length = args[2] !== undefined && args[2][0] === args[2][1] && sig[args[2][0]]?.kind === "num" ? Number(sig[args[2][0]]!.value) : NaN
      return of === undefined ? undefined : Number.isInteger(length) && length > 0 && length < of.n ? { ...of, n: length } : of
    }
    return undefined
  }
  /** The CHAR length of concatenated CHARs: the sum, within CHAR's limit. */
  const concatenated = (parts: ReadonlyArray<readonly [number, number]>): Sized | undefined => {
    const sizes = parts.map(([a, b]) => sized(a, b))
    if (sizes.some((s) => s === undefined)) return undefined
    const units = sharedUnits(sizes as ReadonlyArray<Sized>)
    const n = (sizes as ReadonlyArray<Sized>).reduce((sum, s) => sum + s.n, 0)
    return units === undefined || (units.national ? n * 2 : n) > CHAR_LIMIT ? undefined : { ...units, n }
  }
  /** The lengths of alternative values (NULLs left out), undefined unless all are CHAR of known lengths in one unit. */
  const alternatives = (ranges: ReadonlyArray<readonly [number, number]>): ReadonlyArray<Sized> | undefined => {
    const sizes = ranges.filter(([a, b]) => !(a === b && isKw(sig[a], "NULL"))).map(([a, b]) => sized(a, b))
    return sizes.length > 0 && sizes.every((s) => s !== undefined) && sharedUnits(sizes) !== undefined ? sizes : undefined
  }
  const sameLength = (sizes: ReadonlyArray<Sized> | undefined): Sized | undefined => (sizes !== undefined && sizes.every((s) => s.n === sizes[0]!.n) ? { ...sharedUnits(sizes)!, n: sizes[0]!.n } : undefined)
  const declared = (from: number, to: number): OraType | undefined => {
    const type = sized(from, to)
    if (type !== undefined) return typeOfSized(type)
    // a CASE or COALESCE of CHARs of different lengths: VARCHAR2 of the longest
    const t = sig[from]
    const ranges = isKw(t, "CASE") && endAfter(sig, from) === to ? caseResultRanges(sig, from, to) : isKw(t, "COALESCE") && isOp(sig[from + 1], "(") && matchParen(sig, from + 1) === to ? splitAt(sig, from + 2, to - 1, ",") : undefined
    const sizes = ranges === undefined ? undefined : alternatives(ranges)
    return sizes === undefined ? undefined : alternativesType(sizes)
  }
  return { sized, declared }
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
