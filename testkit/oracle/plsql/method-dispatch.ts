/**
 * Dynamic dispatch of `alias.col.f(args)` and of `e.f(args)` of a `TABLE(c) e` element in a client's SQL
 * (object-methods.ts): when a subtype of the column's or element's type
 * overrides f, the call runs the body of the instance's most specific type ("the version of the method that is
 * executed is the one defined for the most specific type of the instance", Object-Relational Developer's Guide,
 * "Inheriting, Overloading, and Overriding Methods"), read from the instance's type element (type-inheritance.ts):
 * `CASE <most specific type> WHEN 'S.SUB' THEN "SUB"."F"(alias.col, args) ... ELSE "T"."F"(alias.col, args) END`.
 */
import { headingOf } from "../expression-names.ts"
import { matchParen, tokenize, type Tok } from "../lexer.ts"
import type { NamedType } from "../type-shapes.ts"
import { implementingType, overridingSubtypes, TYPE_KEY } from "../type-inheritance.ts"

/**
 * The edit making the member function call whose object is the tokens `value` and whose `(` is token `open` (the call
 * starting at token `from`) a dispatch over the types whose bodies run f, and the significant index of its closing
 * parenthesis; undefined when no subtype overrides f.
 */
export const dispatchedCall = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  call: { readonly from: number; readonly open: number; readonly value: ReadonlyArray<Tok> },
  declared: NamedType,
  method: string,
  known: Iterable<NamedType>
): { readonly edit: { from: number; to: number; with: Array<Tok> }; readonly next: number } | undefined => {
  const overriding = overridingSubtypes(declared, method, known)
  const own = implementingType(declared, method, true)
  if (overriding.length === 0 || own === undefined) return undefined
  const { from, open, value } = call
  const close = matchParen(toks, open)
  if (close < 0) return undefined
  const pos = toks[from]!.pos
  const args = toks.slice(open + 1, close)
  const empty = args.every((t) => t.kind === "ws")
  const gen = (sql: string) => tokenize(sql).map((t) => ({ ...t, pos }))
  const body = (runs: NamedType) => [...gen(`"${runs.name}"."${method}"(`), ...value, ...(empty ? [] : [...gen(", "), ...args]), ...gen(")")]
  const out = [...gen("CASE coalesce(json_extract_string("), ...value, ...gen(`, '$[#-1]."${TYPE_KEY}"[0]'), '${declared.schema}.${declared.name}')`)]
  for (const { sub, runs } of overriding) out.push(...gen(` WHEN '${sub.schema}.${sub.name}' THEN `), ...body(runs))
  // a NOT INSTANTIABLE method has no body of its own: only instances of the subtypes implementing it reach one
  const abstract = own.methods?.some((m) => m.kind === "MEMBER" && m.isFunction && m.name === method && m.notInstantiable === true) === true
  out.push(...gen(" ELSE "), ...(abstract ? gen("NULL") : body(own)), ...gen(" END"))
  // the item is headed by the call as written (`T.P.SHOW()`), as without dispatch
  const heading = headingOf(toks.slice(from, close + 1).filter((t) => t.kind !== "ws"))
  const headed = out.map((t, k) => ({ ...t, heading: k === 0 ? heading : "" }))
  return { edit: { from, to: close, with: headed }, next: sig.indexOf(close) }
}
