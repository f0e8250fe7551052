/**
 * Nested table operators and conditions in a PL/SQL expression, computed on the block's collections before the rest
 * of the expression goes to the engine: `a MULTISET UNION | INTERSECT | EXCEPT [ALL | DISTINCT] b`, `SET(c)`,
 * `CARDINALITY(c)`, `c IS [NOT] EMPTY`, `c IS [NOT] A SET`, `x [NOT] MEMBER [OF] c`, `a [NOT] SUBMULTISET [OF] b` and
 * `a = b` / `a <> b`. Semantics as the SQL Language Reference, "Multiset Operators" and "Multiset Conditions"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Multiset-Operators.html, .../Multiset-Conditions.html)
 * and the PL/SQL Language Reference, "Collection Comparisons" (.../lnpls/collection-comparisons.html) state them:
 * ALL, the default, keeps duplicates; a NULL collection makes the result NULL; IS EMPTY / IS A SET of a NULL
 * collection are NULL; MEMBER OF is NULL for a NULL element or an empty collection; CARDINALITY is NULL for an empty or
 * NULL collection; two nested tables are equal when they hold the same elements as often, in any order.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { comparisonOf } from "../type-inheritance.ts"
import type { Expr } from "./ast.ts"
import { PlsqlCollection } from "./collections.ts"
import type { Collection, Frame, Value } from "./context.ts"
import { collectionVar } from "./conversion.ts"
import { PlsCompileError } from "./errors.ts"
import { closingParen, nameValue } from "./names.ts"
import { callMemberFunction } from "./object-methods.ts"
import { objectTypeOf } from "./object-values.ts"
import { isSyntaxWord } from "./plain-names.ts"
import { PlsqlRecord } from "./records.ts"
import { schemaCollectionType } from "./schema-collections.ts"
import { lookup, packageVariable } from "./scope.ts"

const WORDS = /\b(MULTISET|EMPTY|SET|MEMBER|SUBMULTISET|CARDINALITY)\b/i

/** A collection operand at `at`: a collection variable (atomically null too) or a computed collection; `kind` its type's kind where known. */
function collectionAt(ctx: Frame, toks: Expr, at: number): { value: Collection | null; width: number; kind?: Collection["type"]["kind"] } | undefined {
  const t = toks[at]
  if (t === undefined) return undefined
  if (t.kind === "bind") {
    const called = ctx.callResults.get(t.value)
    const value = called?.value
    return called !== undefined && (value instanceof PlsqlCollection || value === null) && !isOp(toks[at + 1], "(") && !isOp(toks[at + 1], ".") ? { value: value as Collection | null, width: 1, ...(value instanceof PlsqlCollection && { kind: value.type.kind }) } : undefined
  }
  if (t.kind !== "ident" && t.kind !== "qident") return undefined
  const declared = isOp(toks[at - 1], ".") ? undefined : collectionVar(ctx, oracleName(t))
  if (declared === undefined) return undefined
  if (isOp(toks[at + 1], "(") || isOp(toks[at + 1], ".")) return undefined
  const found = nameValue(ctx, toks, at)
  return found === undefined || !(found.value instanceof PlsqlCollection || found.value === null) ? undefined : { value: found.value as Collection | null, width: found.width, kind: declared.type.kind }
}

/** The collection operand that ends just before `k` (its start and value). */
function collectionBefore(ctx: Frame, toks: Expr, k: number): { start: number; value: Collection | null; kind?: Collection["type"]["kind"] } | undefined {
  const found = k > 0 ? collectionAt(ctx, toks, k - 1) : undefined
  return found === undefined || found.width !== 1 ? undefined : { start: k - 1, value: found.value, ...(found.kind !== undefined && { kind: found.kind }) }
}

/** A scalar operand that ends just before `k`: a literal or a name. */
function scalarBefore(ctx: Frame, toks: Expr, k: number): { start: number; value: Value } | undefined {
  const t = toks[k - 1]
  if (t === undefined) return undefined
  if (t.kind === "num") return { start: k - 1, value: Number(t.value) }
  if (t.kind === "str") return { start: k - 1, value: t.value === "" ? null : t.value }
  if (isKw(t, "NULL")) return { start: k - 1, value: null }
  for (let j = k - 1; j >= Math.max(0, k - 8); j--) {
    const found = toks[j]!.kind === "op" ? undefined : nameValue(ctx, toks, j)
    if (found !== undefined && found.width === k - j) return { start: j, value: found.value }
  }
  return undefined
}

/** An element's identity for counting (records by their fields' values). */
const keyOf: Key = (v: unknown): string => (v === null ? "\u0000" : v instanceof PlsqlRecord ? JSON.stringify([...v.fields.values()].map(keyOf)) : `${typeof v === "bigint" || typeof v === "number" ? "n" : typeof v}:${String(v)}`)

type Key = (v: unknown) => string

/**
 * How the elements of collections `cs` (and the values `also` compared with them) are told apart: by their values,
 * or, for an object type with a MAP member function, by what it maps them to, and with an ORDER member function, as
 * equal when it answers 0 for the pair (Object-Relational Developer's Guide, "Comparing Objects" / "Performance of
 * Object Comparisons": without either, objects compare attribute by attribute, as their values do here; SQL Language
 * Reference, "Multiset Conditions").
 */
async function comparisonKey(ctx: Frame, cs: ReadonlyArray<Collection | null>, also: ReadonlyArray<Value> = []): Promise<Key> {
  const c = cs.find((x): x is Collection => x !== null)
  const type = c === undefined ? undefined : objectTypeOf(ctx, c.type.element)
  const compared = type === undefined ? undefined : comparisonOf(type)
  if (compared === undefined) return keyOf
  // an inherited method runs in the body of the type declaring it
  const { owner, method } = compared
  const values = [...cs.flatMap((x) => (x === null ? [] : elements(x))), ...also].filter((v) => v !== null)
  const classes = new Map<string, string>()
  const representatives: Array<unknown> = []
  for (const v of values) {
    const own = keyOf(v)
    if (classes.has(own)) continue
    if (method.comparison === "MAP") {
      classes.set(own, keyOf(await callMemberFunction(ctx, owner, method.name, v as Value, [])))
      continue
    }
    let same: unknown
    for (const r of representatives)
      if (Number(await callMemberFunction(ctx, owner, method.name, r as Value, [v as Value])) === 0) {
        same = r
        break
      }
    if (same === undefined) representatives.push(v)
    classes.set(own, same === undefined ? own : classes.get(keyOf(same))!)
  }
  return (v) => (v === null ? keyOf(v) : (classes.get(keyOf(v)) ?? keyOf(v)))
}

/**
 * ORA-22952 for the equality of nested tables of objects whose type has no MAP method (an ORDER method does not do):
 * Database Error Messages, ORA-22952 "Nested Table equality requires a map method on the element ADT"; SQL Language
 * Reference, "Comparison Conditions": nested tables of user-defined object types must have MAP methods to be used in
 * equality conditions.
 */
function requireMapMethod(ctx: Frame, cs: ReadonlyArray<Collection | null>): void {
  const c = cs.find((x): x is Collection => x !== null)
  const type = c === undefined ? undefined : objectTypeOf(ctx, c.type.element)
  if (type !== undefined && comparisonOf(type)?.method.comparison !== "MAP") throw new OraError(22952, "Nested Table equality requires a map method on the element ADT")
}

const elements = (c: Collection): Array<DuckDBValue | PlsqlRecord> => c.keys().map((k) => c.get(k))

const counts = (c: Collection, key: Key): Map<string, number> => {
  const m = new Map<string, number>()
  for (const e of elements(c)) m.set(key(e), (m.get(key(e)) ?? 0) + 1)
  return m
}

const distinct = (items: ReadonlyArray<DuckDBValue | PlsqlRecord>, key: Key) => {
  const seen = new Set<string>()
  return items.filter((e) => !seen.has(key(e)) && seen.add(key(e)) !== undefined)
}

const collectionOf = (type: Collection["type"], items: ReadonlyArray<DuckDBValue | PlsqlRecord>): Collection => {
  const c: Collection = new PlsqlCollection(type)
  for (const e of items) c.push(e)
  return c
}

/** `a MULTISET op [ALL | DISTINCT] b`: a new collection of a's type. */
function multiset(op: string, all: boolean, a: Collection | null, b: Collection | null, key: Key): Collection | null {
  if (a === null || b === null) return null
  const left = elements(a)
  const right = elements(b)
  let out: Array<DuckDBValue | PlsqlRecord>
  if (op === "UNION") out = [...left, ...right]
  else {
    const remaining = counts(b, key)
    out = left.filter((e) => {
      const n = remaining.get(key(e)) ?? 0
      if (n > 0 && all) remaining.set(key(e), n - 1)
      return op === "INTERSECT" ? n > 0 : n === 0
    })
  }
  return collectionOf(a.type, all ? out : distinct(out, key))
}

/** Whether `a` holds every element of `b` at least as often (`b SUBMULTISET OF a`). */
const contains = (a: Collection, b: Collection, key: Key): boolean => {
  const have = counts(a, key)
  return [...counts(b, key)].every(([k, n]) => (have.get(k) ?? 0) >= n)
}

/** `a = b` of two nested tables: NULL when either is NULL or holds a NULL element. */
function equal(a: Collection | null, b: Collection | null, key: Key): boolean | null {
  if (a === null || b === null) return null
  if (elements(a).some((e) => e === null) || elements(b).some((e) => e === null)) return null
  return a.count === b.count && contains(a, b, key)
}

const not = (v: boolean | null, negate: boolean) => (v === null || !negate ? v : !v)

/** One operator or condition at `k` of `toks`: the span it covers and its value; undefined when there is none. */
async function operationAt(ctx: Frame, toks: Expr, k: number): Promise<{ start: number; end: number; value: Value } | undefined> {
  const t = toks[k]!
  if (isKw(t, "CARDINALITY", "SET") && isOp(toks[k + 1], "(") && !isOp(toks[k - 1], ".")) {
    const close = closingParen(toks, k + 1)
    const arg = collectionAt(ctx, toks, k + 2)
    if (arg === undefined || arg.width !== close - k - 2) return undefined
    const c = arg.value
    const value = isKw(t, "SET") ? (c === null ? null : collectionOf(c.type, distinct(elements(c), await comparisonKey(ctx, [c])))) : c === null || c.count === 0 ? null : c.count
    return { start: k, end: close, value }
  }
  if (isKw(t, "MULTISET") && isKw(toks[k + 1], "UNION", "INTERSECT", "EXCEPT")) {
    const left = collectionBefore(ctx, toks, k)
    const modifier = isKw(toks[k + 2], "ALL", "DISTINCT") ? 1 : 0
    const right = collectionAt(ctx, toks, k + 2 + modifier)
    if (left === undefined || right === undefined) return undefined
    const value = multiset(toks[k + 1]!.value.toUpperCase(), !isKw(toks[k + 2], "DISTINCT"), left.value, right.value, await comparisonKey(ctx, [left.value, right.value]))
    return { start: left.start, end: k + 1 + modifier + right.width, value }
  }
  if (isKw(t, "IS")) {
    const negate = isKw(toks[k + 1], "NOT") ? 1 : 0
    const empty = isKw(toks[k + 1 + negate], "EMPTY")
    const aSet = isKw(toks[k + 1 + negate], "A") && isKw(toks[k + 2 + negate], "SET")
    const left = empty || aSet ? collectionBefore(ctx, toks, k) : undefined
    if (left === undefined) return undefined
    const c = left.value
    const value = c === null ? null : empty ? c.count === 0 : distinct(elements(c), await comparisonKey(ctx, [c])).length === c.count
    return { start: left.start, end: k + negate + (empty ? 1 : 2), value: not(value, negate === 1) }
  }
  const negate = isKw(t, "NOT") && isKw(toks[k + 1], "MEMBER", "SUBMULTISET") ? 1 : 0
  const word = toks[k + negate]
  if (isKw(word, "MEMBER", "SUBMULTISET")) {
    const of = isKw(toks[k + negate + 1], "OF") ? 1 : 0
    const right = collectionAt(ctx, toks, k + negate + 1 + of)
    if (right === undefined) return undefined
    const end = k + negate + of + right.width
    const c = right.value
    if (isKw(word, "MEMBER")) {
      const left = scalarBefore(ctx, toks, k)
      if (left === undefined) return undefined
      const v = left.value
      const key = await comparisonKey(ctx, [c], [v])
      const value = v === null || c === null || c.count === 0 ? null : elements(c).some((e) => key(e) === key(v))
      return { start: left.start, end, value: not(value, negate === 1) }
    }
    const left = collectionBefore(ctx, toks, k)
    if (left === undefined) return undefined
    const a = left.value
    const value = a === null ? null : a.count === 0 ? true : c === null ? null : contains(c, a, await comparisonKey(ctx, [a, c]))
    return { start: left.start, end, value: not(value, negate === 1) }
  }
  if (isOp(t, "=") || isOp(t, "<>") || isOp(t, "!=") || isOp(t, "^=") || isOp(t, "~=")) {
    const left = collectionBefore(ctx, toks, k)
    const right = left === undefined ? undefined : collectionAt(ctx, toks, k + 1)
    if (left === undefined || right === undefined) return undefined
    // only nested tables compare ("Collection Comparisons"); VARRAYs do not compile (PLS-00306, as
    // https://www.oratable.com/oracle-object-type-comparison/ shows for `a = b` of two varrays)
    if (left.kind === "varray" || right.kind === "varray") throw new PlsCompileError(ctx.source, t.pos, 306, `wrong number or types of arguments in call to '${t.value}'`)
    requireMapMethod(ctx, [left.value, right.value])
    return { start: left.start, end: k + right.width, value: not(equal(left.value, right.value, await comparisonKey(ctx, [left.value, right.value])), !isOp(t, "=")) }
  }
  return undefined
}

/**
 * The tokens with each multiset operator or condition over the block's collections computed and replaced by a bind
 * token holding its value (left to right, so `a MULTISET UNION b MULTISET EXCEPT c` is `(a UNION b) EXCEPT c`; one
 * inside another's operand first, so `CARDINALITY(SET(a MULTISET UNION b))` too); the same tokens when there is none.
 */
export async function inlineMultisets(ctx: Frame, expr: Expr, evaluate: (toks: Expr) => Promise<Value>): Promise<{ toks: Expr; release: () => void }> {
  const made: Array<string> = []
  const release = () => made.forEach((key) => ctx.callResults.delete(key))
  if (!expr.some((t) => (t.kind === "ident" && WORDS.test(t.value)) || (t.kind === "op" && /^(=|<>|!=|\^=|~=)$/.test(t.value)))) return { toks: expr, release }
  let toks: Array<Tok> = [...expr]
  let changed = false
  // a constructor operand (`nums(1, 2)`, `pkg.nums(1, 2)`): the collection it makes, bound like a variable
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if ((t.kind !== "ident" && t.kind !== "qident") || isOp(toks[k - 1], ".")) continue
    const dotted = isOp(toks[k + 1], ".") && toks[k + 2] !== undefined && isOp(toks[k + 3], "(")
    const open = dotted ? k + 3 : k + 1
    if (!isOp(toks[open], "(")) continue
    const close = closingParen(toks, open)
    // an object constructor or function call as MEMBER OF's element (`t(21, 5) MEMBER OF a`), computed like the rest
    const memberOperand = !isSyntaxWord(oracleName(t)) && (isKw(toks[close + 1], "MEMBER") || (isKw(toks[close + 1], "NOT") && isKw(toks[close + 2], "MEMBER")))
    const slot = dotted ? packageVariable(ctx, oracleName(t), oracleName(toks[k + 2]!)) : lookup(ctx, oracleName(t))
    // a local or package type's, or a schema collection type's (CREATE TYPE ... AS TABLE OF | VARRAY OF)
    const schemaType = slot === undefined && !dotted ? schemaCollectionType(ctx, oracleName(t)) : undefined
    if (!memberOperand && (slot?.k !== "type" || slot.type.kind === "assoc") && schemaType === undefined) continue
    let value: Value
    try {
      value = await evaluate(toks.slice(k, close + 1))
    } catch (e) {
      release()
      throw e
    }
    const key = `\u0000M${++ctx.calls}`
    made.push(key)
    ctx.callResults.set(key, { value })
    toks = [...toks.slice(0, k), { kind: "bind", text: ":m", value: key, pos: t.pos }, ...toks.slice(close + 1)]
    changed = true
  }
  for (let k = 0; k < toks.length; k++) {
    let found: Awaited<ReturnType<typeof operationAt>>
    try {
      found = await operationAt(ctx, toks, k)
    } catch (e) {
      release()
      throw e
    }
    if (found === undefined) continue
    const key = `\u0000M${++ctx.calls}`
    made.push(key)
    ctx.callResults.set(key, { value: found.value })
    toks = [...toks.slice(0, found.start), { kind: "bind", text: ":m", value: key, pos: toks[found.start]!.pos }, ...toks.slice(found.end + 1)]
    changed = true
    // again from the start: an operation enclosing this one (`CARDINALITY(a MULTISET UNION b)`) now has its operand
    k = -1
  }
  return { toks: changed ? toks : expr, release }
}
