/**
 * Dynamic dispatch of `alias.col.f(args)` in a client's SQL (object-methods.ts): when a subtype of the column's type
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
 * The edit making the call `alias . col . f (args)` whose alias is significant token `n` a dispatch over the types
 * whose bodies run f, and the significant index of its closing parenthesis; undefined when no subtype overrides f.
 */
export const dispatchedCall = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  n: number,
  declared: NamedType,
  method: string,
  known: Iterable<NamedType>
): { readonly edit: { from: number; to: number; with: Array<Tok> }; readonly next: number } | undefined => {
  const overriding = overridingSubtypes(declared, method, known)
  const own = implementingType(declared, method, true)
  if (overriding.length === 0 || own === undefined) return undefined
  const open = sig[n + 5]!
  const close = matchParen(toks, open)
  if (close < 0) return undefined
  const pos = toks[sig[n]!]!.pos
  const value = toks.slice(sig[n]!, sig[n + 2]! + 1)
  const args = toks.slice(open + 1, close)
  const empty = args.every((t) => t.kind === "ws")
  const gen = (sql: string) => tokenize(sql).map((t) => ({ ...t, pos }))
  const call = (runs: NamedType) => [...gen(`"${runs.name}"."${method}"(`), ...value, ...(empty ? [] : [...gen(", "), ...args]), ...gen(")")]
  const out = [...gen("CASE coalesce(json_extract_string("), ...value, ...gen(`, '$[#-1]."${TYPE_KEY}"[0]'), '${declared.schema}.${declared.name}')`)]
  for (const { sub, runs } of overriding) out.push(...gen(` WHEN '${sub.schema}.${sub.name}' THEN `), ...call(runs))
  // a NOT INSTANTIABLE method has no body of its own: only instances of the subtypes implementing it reach one
  const abstract = own.methods?.some((m) => m.kind === "MEMBER" && m.isFunction && m.name === method && m.notInstantiable === true) === true
  out.push(...gen(" ELSE "), ...(abstract ? gen("NULL") : call(own)), ...gen(" END"))
  // the item is headed by the call as written (`T.P.SHOW()`), as without dispatch
  const heading = headingOf(toks.slice(sig[n]!, close + 1).filter((t) => t.kind !== "ws"))
  const headed = out.map((t, k) => ({ ...t, heading: k === 0 ? heading : "" }))
  return { edit: { from: sig[n]!, to: close, with: headed }, next: sig.indexOf(close) }
}
