/**
 * Substitutable object values in SQL: a column or attribute of type t holds instances of t's subtypes, each stored
 * with a trailing element naming its most specific type (type-inheritance.ts typeTag), which these conditions and
 * functions read (Object-Relational Developer's Guide, "Substituting Types in a Type Hierarchy"; SQL Language
 * Reference, TREAT, "IS OF type Condition", SYS_TYPEID):
 *
 * - `TREAT(x AS [REF] s)` is x when its most specific type is s or a subtype of s, else NULL, typed as s, so that
 *   `TREAT(x AS s).attr` reads an attribute s adds;
 * - `x IS [NOT] OF [TYPE] ([ONLY] s, ...)` holds when x's most specific type is one of the types (or one of their
 *   subtypes, unless ONLY), NULL when x is NULL;
 * - `SYS_TYPEID(x)` is the typeid (RAW) of x's most specific type.
 *
 * A value without the element (one a client bound before it had one) counts as of the declared type of x when x
 * names a column (`alias.col`, `col`), else as of no type.
 */
import { OraError } from "./errors.ts"
import { headingOf } from "./expression-names.ts"
import { isKw, isName, isOp, matchParen, openingParen, sqlString, type Tok, tokenize } from "./lexer.ts"
import type { NamedType } from "./type-shapes.ts"
import { TYPE_ID_KEY, TYPE_KEY, typeChain } from "./type-inheritance.ts"

/** What the rewrite needs from its caller (object-attributes.ts, which would otherwise be imported in a cycle). */
export interface SubstitutionContext {
  /** The object type a name of a type names. */
  readonly objectType: (name: string) => NamedType | undefined
  /** The declared object type of an expression naming a column, if it is one. */
  readonly declaredType: (expr: ReadonlyArray<Tok>) => NamedType | undefined
  /** Tokens reading attributes `names` of `value`, an object of type `type` (object-attributes.ts attributeExtraction). */
  readonly extract: (type: NamedType, names: ReadonlyArray<Tok>, ref: string, value: ReadonlyArray<Tok>, pos: number, heading: string) => Array<Tok>
  /** The `.attr...` chain after a closing parenthesis (object-attributes.ts attributeChainAt). */
  readonly chainAt: (toks: ReadonlyArray<Tok>, close: number) => { names: Array<Tok>; end: number } | undefined
}

const nameOf = (t: Tok): string => (t.kind === "qident" ? t.value : t.value.toUpperCase())
const next = (toks: ReadonlyArray<Tok>, k: number): number => {
  let n = k + 1
  while (toks[n]?.kind === "ws") n++
  return n
}
const prev = (toks: ReadonlyArray<Tok>, k: number): number => {
  let n = k - 1
  while (n >= 0 && toks[n]!.kind === "ws") n--
  return n
}

/** Rewrites TREAT, IS OF and SYS_TYPEID of object values (see the module comment); the same tokens when there is none. */
export const rewriteSubstitution = (toks: ReadonlyArray<Tok>, ctx: SubstitutionContext): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "TREAT", "SYS_TYPEID") || (isKw(t, "OF") && toks.some((u) => isKw(u, "IS"))))) return toks
  const out = [...toks]
  // from the end, so that an inner TREAT is rewritten before the one around it
  for (let i = out.length - 1; i >= 0; i--) {
    const t = out[i]!
    if (isKw(t, "TREAT", "SYS_TYPEID") && isOp(out[next(out, i)], "(") && !isOp(out[prev(out, i)], ".")) {
      const edit = isKw(t, "TREAT") ? treatAt(out, i, ctx) : typeIdAt(out, i, ctx)
      if (edit !== undefined) out.splice(i, edit.end - i + 1, ...edit.with)
    } else if (isKw(t, "IS")) {
      const edit = isOfAt(out, i, ctx)
      if (edit !== undefined) out.splice(edit.from, edit.end - edit.from + 1, ...edit.with)
    }
  }
  return out
}

const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((x) => ({ ...x, pos }))

/** The JSON list of type names a value without a type element counts as of (its declared type's chain). */
const defaultChain = (x: ReadonlyArray<Tok>, ctx: SubstitutionContext): Array<string> => {
  const declared = ctx.declaredType(x.filter((t) => t.kind !== "ws"))
  return declared === undefined ? [] : typeChain(declared)
}

/** `x` is of type `s` (or, unless `only`, a subtype of it): a condition, to be guarded by `x IS NOT NULL`. */
const ofType = (x: ReadonlyArray<Tok>, s: NamedType, only: boolean, chain: ReadonlyArray<string>, pos: number): Array<Tok> => {
  const name = `${s.schema}.${s.name}`
  if (only) return [...generated("coalesce(json_extract_string(", pos), ...x, ...generated(`, '$[#-1]."${TYPE_KEY}"[0]'), ${sqlString(chain[0] ?? "")}) = ${sqlString(name)}`, pos)]
  return [...generated("json_contains(coalesce(json_extract(", pos), ...x, ...generated(`, '$[#-1]."${TYPE_KEY}"'), ${sqlString(JSON.stringify(chain))}), ${sqlString(JSON.stringify(name))})`, pos)]
}

/** The object type named at `k` (`[schema.]name`, after an optional REF) and the index of its last token; undefined for another name. */
const objectTypeAt = (toks: ReadonlyArray<Tok>, k: number, ctx: SubstitutionContext): { type: NamedType; end: number } | undefined => {
  let n = isKw(toks[k], "REF") ? next(toks, k) : k
  if (isOp(toks[next(toks, n)], ".")) n = next(toks, next(toks, n))
  const name = toks[n]
  const type = isName(name) ? ctx.objectType(nameOf(name)) : undefined
  return type === undefined ? undefined : { type, end: n }
}

/** {@link objectTypeAt}, ORA-00902 when the name is no object type. */
const typeNameAt = (toks: ReadonlyArray<Tok>, k: number, ctx: SubstitutionContext): { type: NamedType; end: number } => {
  const named = objectTypeAt(toks, k, ctx)
  if (named === undefined) throw new OraError(902, "invalid datatype")
  return named
}

/** `TREAT(x AS s)[.attr...]` at `i`: the tokens replacing it up to `end`; undefined when s is no object type (`AS JSON`). */
const treatAt = (toks: ReadonlyArray<Tok>, i: number, ctx: SubstitutionContext): { end: number; with: Array<Tok> } | undefined => {
  const open = next(toks, i)
  const close = matchParen(toks, open)
  if (close < 0) throw new OraError(907, "missing right parenthesis")
  let as = -1
  for (let k = open + 1, depth = 0; k < close; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "AS")) as = k
  }
  if (as < 0) throw new OraError(905, "missing keyword")
  const x = toks.slice(open + 1, as)
  const type = objectTypeAt(toks, next(toks, as), ctx)?.type
  if (type === undefined) return undefined
  const pos = toks[i]!.pos
  const value = [...generated("CASE WHEN (", pos), ...x, ...generated(") IS NOT NULL AND ", pos), ...ofType(x, type, false, defaultChain(x, ctx), pos), ...generated(" THEN ", pos), ...x, ...generated(" END", pos)]
  const chain = ctx.chainAt(toks, close)
  if (chain !== undefined) {
    const heading = headingOf(toks.slice(i, chain.end + 1).filter((t) => t.kind !== "ws"))
    return { end: chain.end, with: ctx.extract(type, chain.names, chain.names.map((n) => `"${nameOf(n)}"`).join("."), value, pos, heading) }
  }
  // described as the type it names, as an object attribute is (object-attributes.ts attributeExtraction)
  const heading = headingOf(toks.slice(i, close + 1).filter((t) => t.kind !== "ws"))
  const cast = [...generated("CAST(", pos), ...value, ...generated(" AS VARCHAR)", pos)]
  return { end: close, with: cast.map((t, k) => ({ ...t, heading: k === 0 ? heading : "", ...(k === 0 ? { constructs: type } : {}) })) }
}

/** `SYS_TYPEID(x)` at `i`: the typeid of x's most specific type as RAW, NULL for a NULL x or a final root type. */
const typeIdAt = (toks: ReadonlyArray<Tok>, i: number, ctx: SubstitutionContext): { end: number; with: Array<Tok> } => {
  const open = next(toks, i)
  const close = matchParen(toks, open)
  if (close < 0) throw new OraError(907, "missing right parenthesis")
  const x = toks.slice(open + 1, close)
  const declared = ctx.declaredType(x.filter((t) => t.kind !== "ws"))
  const pos = toks[i]!.pos
  const fallback = declared?.typeId === undefined ? "NULL" : sqlString(declared.typeId)
  const heading = headingOf(toks.slice(i, close + 1).filter((t) => t.kind !== "ws"))
  const sql = [...generated("HEXTORAW(CASE WHEN (", pos), ...x, ...generated(") IS NOT NULL THEN coalesce(json_extract_string(", pos), ...x, ...generated(`, '$[#-1]."${TYPE_ID_KEY}"'), ${fallback}) END)`, pos)]
  return { end: close, with: sql.map((t, k) => ({ ...t, heading: k === 0 ? heading : "" })) }
}

/** The start of the operand ending at `end`: a dotted name, or a call `f(...)` / `a.f(...)`. */
const operandStart = (toks: ReadonlyArray<Tok>, end: number): number | undefined => {
  let k = end
  if (isOp(toks[k], ")")) {
    k = prev(toks, openingParen(toks, k))
    if (!isName(toks[k])) return undefined
  } else if (!isName(toks[k])) return undefined
  while (isOp(toks[prev(toks, k)], ".") && isName(toks[prev(toks, prev(toks, k))])) k = prev(toks, prev(toks, k))
  return k
}

/** `x IS [NOT] OF [TYPE] ([ONLY] s, ...)` whose IS is at `i`: the edit replacing it; undefined for another IS. */
const isOfAt = (toks: ReadonlyArray<Tok>, i: number, ctx: SubstitutionContext): { from: number; end: number; with: Array<Tok> } | undefined => {
  let k = next(toks, i)
  const negated = isKw(toks[k], "NOT")
  if (negated) k = next(toks, k)
  if (!isKw(toks[k], "OF")) return undefined
  k = next(toks, k)
  if (isKw(toks[k], "TYPE")) k = next(toks, k)
  if (!isOp(toks[k], "(")) return undefined
  const close = matchParen(toks, k)
  const from = operandStart(toks, prev(toks, i))
  if (close < 0 || from === undefined) return undefined
  // `COLUMN c [ELEMENT] IS OF TYPE (ONLY t)` of CREATE TABLE is a column property (substitutable-columns.ts)
  const before = prev(toks, from)
  if (isKw(toks[before], "COLUMN") || (isKw(toks[from], "ELEMENT") && isKw(toks[prev(toks, before)], "COLUMN"))) return undefined
  const x = toks.slice(from, prev(toks, i) + 1)
  const chain = defaultChain(x, ctx)
  const pos = toks[i]!.pos
  const conditions: Array<Array<Tok>> = []
  for (let n = next(toks, k); n < close; n = next(toks, n)) {
    const only = isKw(toks[n], "ONLY")
    const named = typeNameAt(toks, only ? next(toks, n) : n, ctx)
    conditions.push(ofType(x, named.type, only, chain, pos))
    n = next(toks, named.end)
    if (!isOp(toks[n], ",") && n < close) throw new OraError(907, "missing right parenthesis")
  }
  if (conditions.length === 0) throw new OraError(902, "invalid datatype")
  const any = conditions.flatMap((c, n) => [...(n > 0 ? generated(" OR ", pos) : []), ...c])
  return { from, end: close, with: [...generated("((", pos), ...x, ...generated(`) IS NOT NULL AND ${negated ? "NOT " : ""}(`, pos), ...any, ...generated("))", pos)] }
}
