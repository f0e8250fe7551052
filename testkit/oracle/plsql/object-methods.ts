/**
 * Calls of object type methods (their bodies: type-bodies.ts): `v.f(args)` / `v.f` of an object variable in a PL/SQL
 * expression, `v.p(args)` as a statement (SELF IN OUT, so the variable takes the object the procedure leaves),
 * `t(args)` of a user-defined constructor, and `alias.col.f(args)` of an object column in a client's SQL.
 * Static methods (`t.s(args)`) are the hidden package's subprograms and need nothing here.
 *
 * Object-Relational Developer's Guide, "Invoking Object Methods": in PL/SQL the empty parameter list of a method
 * without parameters may be left out, in SQL it may not; a user-defined constructor with the signature of the
 * attribute-value constructor hides it ("User-Defined Constructors").
 */
import { OraError } from "../errors.ts"
import { isKw, isName, isOp, splitTopLevel, type Tok, tokenize } from "../lexer.ts"
import { ELEMENT_COLUMN } from "../collection-columns.ts"
import { headingOf } from "../expression-names.ts"
import { namedTypesOf } from "../named-types.ts"
import { rewriteMemberOfByMethods } from "../multiset-conditions.ts"
import { rewriteObjectComparisons } from "../object-comparisons.ts"
import { rewriteObjectSetOperations } from "../object-set-operations.ts"
import { rewriteNestedTableEqualityByMap } from "../nested-table-equality.ts"
import { aliasedTables, statementTables } from "../object-attributes.ts"
import type { PlsqlProcedure, TableMeta } from "../catalog.ts"
import type { OracleDatabase } from "../database.ts"
import type { NamedType } from "../pickle.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import type { Frame, Slot, Value } from "./context.ts"
import { closingParen } from "./names.ts"
import { objectTypeOf } from "./object-values.ts"
import { packageMember } from "./package-instances.ts"
import { lookup } from "./scope.ts"
import { findPackage } from "./stored-packages.ts"
import { CONSTRUCTOR_NAME, nullAttributes, typeBodiesOf } from "./type-bodies.ts"
import { dispatchedCall } from "./method-dispatch.ts"
import { implementingType, mostSpecificType } from "../type-inheritance.ts"


/**
 * The subprogram of `type`'s body that method `name` runs; ORA-04067 when the type has no body, ORA-04063 when its
 * body has errors (Error Messages, ORA-04067 "not executed, string does not exist", ORA-04063 "string has errors";
 * the "type body" wording as Oracle writes it for a package body,
 * http://www.renenyffenegger.ch/notes/development/databases/Oracle/errors/ORA-04067_not-executed_does-not-exist).
 */
async function methodSlot(ctx: Frame, type: NamedType, name: string, at: Tok): Promise<Extract<Slot, { k: "subprogram" }>> {
  const qualified = `${type.schema}.${type.name}`
  const body = typeBodiesOf(ctx.host.db).get(qualified)
  if (body === undefined) throw new OraError(4067, `not executed, type body "${qualified}" does not exist`)
  if (body.errors !== undefined || findPackage(ctx.host, type.schema, type.name) === undefined) throw new OraError(4063, `type body "${qualified}" has errors`)
  const slot = await packageMember(ctx, [type.schema, type.name], name, at)
  if (slot?.k !== "subprogram") throw new OraError(4067, `not executed, type body "${qualified}" does not exist`)
  return slot
}

/** The arguments of the call whose `(` is at `open`, or none when there is no `(`; and where the call ends. */
const argumentsAt = (expr: Expr, open: number, name: number): { args: Array<Expr>; close: number } => {
  if (!isOp(expr[open], "(")) return { args: [], close: name }
  const close = closingParen(expr, open)
  return { args: close > open + 1 ? splitTopLevel(expr.slice(open + 1, close)) : [], close }
}

/**
 * A method or constructor call at `k` of a PL/SQL expression: `v.f[(args)]` of a member function of an object
 * variable's type, or `t(args)` of a user-defined constructor with as many parameters; the index of the token its
 * name ends at (its arguments follow in parentheses) and how to run it; undefined for anything else.
 */
export async function objectMethodCall(ctx: Frame, expr: Expr, k: number): Promise<{ readonly end: number; readonly run: (args: ReadonlyArray<Expr>) => Promise<Value> } | undefined> {
  const t = expr[k]
  // cheap tests first: this runs for every name of every expression
  if (!isName(t) || isOp(expr[k - 1], ".") || !(isOp(expr[k + 1], ".") || isOp(expr[k + 1], "("))) return undefined
  const name = oracleName(t)
  if (isOp(expr[k + 1], "(") && !namedTypesOf(ctx.host.db).hasName(name)) return undefined
  const slot = lookup(ctx, name)
  if (slot?.k === "var" && isOp(expr[k + 1], ".") && isName(expr[k + 2]) && !isOp(expr[k + 3], ".")) {
    const type = objectTypeOf(ctx, slot.type)
    const method = oracleName(expr[k + 2]!)
    if (type === undefined || implementingType(type, method, true) === undefined || type.attributes.some((a) => a.name === method)) return undefined
    // the body of the value's most specific type, or of the supertype it inherits the method from
    const runs = () => implementingType(mostSpecificType(type, slot.value, namedTypesOf(ctx.host.db).all()), method, true) ?? type
    return { end: k + 2, run: async (args) => ctx.callLocal(await methodSlot(ctx, runs(), method, expr[k + 2]!), [[t], ...args]) }
  }
  if (slot !== undefined || isOp(expr[k + 1], ".") || !isOp(expr[k + 1], "(")) return undefined
  const type = namedTypesOf(ctx.host.db).lookup(ctx.host.schema, undefined, name)
  const arity = argumentsAt(expr, k + 1, k).args.length
  if (type?.kind !== "object" || !type.methods?.some((m) => m.kind === "CONSTRUCTOR" && m.arity === arity)) return undefined
  return {
    end: k,
    run: async (args) => {
      const constructor = await methodSlot(ctx, type, CONSTRUCTOR_NAME, t)
      // SELF starts as the object with every attribute NULL, handed in as a made value
      const key = `\u0000F${++ctx.calls}`
      ctx.callResults.set(key, { value: nullAttributes(type) })
      try {
        return await ctx.callLocal(constructor, [[{ kind: "bind", text: ":self", value: key, pos: t.pos }], ...args])
      } finally {
        ctx.callResults.delete(key)
      }
    }
  }
}

/**
 * `v.p(args)` as a statement, `v` an object variable and `p` a member procedure of its type: runs it with `v` as
 * SELF (IN OUT); false for any other call.
 */
export async function objectProcedureCall(ctx: Frame, parts: ReadonlyArray<string>, args: ReadonlyArray<Expr>, at: Tok): Promise<boolean> {
  if (parts.length !== 2) return false
  const slot = lookup(ctx, parts[0]!)
  const type = slot?.k === "var" ? objectTypeOf(ctx, slot.type) : undefined
  // a member function called as a statement (PLS-00221) is left to the caller's check
  const runs = type === undefined || slot?.k !== "var" ? undefined : implementingType(mostSpecificType(type, slot.value, namedTypesOf(ctx.host.db).all()), parts[1]!, false)
  if (runs === undefined) return false
  const self: Tok = { kind: "qident", text: `"${parts[0]}"`, value: parts[0]!, pos: at.pos }
  await ctx.callLocal(await methodSlot(ctx, runs, parts[1]!, at), [[self], ...args])
  return true
}

/**
 * A client's SQL with each `alias.col.f(args)` of a member function of the object column's type written as the call
 * `TYPE.F(alias.col, args)` of the type body's hidden package, which SQL calls as any packaged function
 * (sql-functions.ts), and `x MEMBER OF alias.col` of a nested table of objects with a MAP or ORDER method as a search
 * by that method (multiset-conditions.ts); the same tokens when there is none.
 */
export const rewriteSqlMethodCalls = (
  source: ReadonlyArray<Tok>,
  db: OracleDatabase,
  schema: string,
  lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined
): ReadonlyArray<Tok> => {
  // MEMBER OF / IS A SET of a nested table column of objects: by a MAP or ORDER method (multiset-conditions.ts)
  let tables: Map<string, TableMeta> | undefined
  const lookupType = (name: string) => namedTypesOf(db).lookup(schema, undefined, name)
  // comparisons, ORDER BY, DISTINCT and GROUP BY of objects: by a MAP or ORDER method (object-comparisons.ts)
  const compared = rewriteObjectComparisons(source, () => (tables ??= statementTables(source, lookupTable)), lookupType, "method")
  // UNION / INTERSECT / MINUS of objects: by a MAP method or their key (object-set-operations.ts)
  const combined = rewriteObjectSetOperations(compared, () => (tables ??= statementTables(source, lookupTable)), lookupType, "method")
  const members = rewriteMemberOfByMethods(combined, () => (tables ??= statementTables(source, lookupTable)))
  // `a = b` of nested tables of objects: by their MAP method (nested-table-equality.ts)
  const toks = rewriteNestedTableEqualityByMap(members, () => (tables ??= statementTables(source, lookupTable)))
  // no type body, no method to call
  if (typeBodiesOf(db).size === 0) return toks
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => toks[sig[n] ?? -1]
  let aliases: Map<string, TableMeta> | undefined
  let elements: Map<string, NamedType> | undefined
  const edits: Array<{ from: number; to: number; with: Array<Tok> }> = []
  for (let n = 0; n + 1 < sig.length; n++) {
    const constructed = userConstructorAt(toks, sig, n, lookupType)
    if (constructed !== undefined) {
      edits.push(constructed)
      n++
      continue
    }
    const element = elementMethodCallAt(toks, sig, n, () => (elements ??= tableElementAliases(toks, sig, lookupTable)), namedTypesOf(db).all())
    if (element !== undefined) {
      edits.push(element.edit)
      n = element.next
      continue
    }
    if (n + 5 >= sig.length) continue
    if (!isName(at(n)) || isOp(at(n - 1), ".") || !isOp(at(n + 1), ".") || !isName(at(n + 2)) || !isOp(at(n + 3), ".") || !isName(at(n + 4)) || !isOp(at(n + 5), "(")) continue
    aliases ??= aliasedTables(toks, sig, lookupTable)
    const declaredType = aliases.get(at(n)!.value)?.columns.find((c) => c.name === at(n + 2)!.value)?.type.named
    const method = oracleName(at(n + 4)!)
    // the method of the column's type or the supertype it inherits it from (type-inheritance.ts)
    const type = declaredType?.kind === "object" ? implementingType(declaredType, method, true) : undefined
    if (declaredType === undefined || type === undefined) continue
    const pos = at(n)!.pos
    const op = (text: string): Tok => ({ kind: "op", text, value: text, pos })
    const empty = isOp(at(n + 6), ")")
    const dispatch = dispatchedCall(toks, sig, { from: sig[n]!, open: sig[n + 5]!, value: toks.slice(sig[n]!, sig[n + 2]! + 1) }, declaredType, method, namedTypesOf(db).all())
    if (dispatch !== undefined) {
      edits.push(dispatch.edit)
      n = dispatch.next
      continue
    }
    edits.push({
      from: sig[n]!,
      to: sig[n + 5]!,
      with: [{ kind: "qident", text: `"${type.name}"`, value: type.name, pos }, op("."), { kind: "qident", text: `"${method}"`, value: method, pos }, op("("), at(n)!, op("."), at(n + 2)!, ...(empty ? [] : [op(",")])]
    })
    n += 5
  }
  if (edits.length === 0) return toks
  const out = [...toks]
  for (const e of edits.reverse()) out.splice(e.from, e.to - e.from + 1, ...e.with)
  return out
}

/** The object types of the elements of the `TABLE(col)` / `TABLE(alias.col)` items of a statement, by their aliases. */
const tableElementAliases = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined): Map<string, NamedType> => {
  const out = new Map<string, NamedType>()
  let tables: Map<string, TableMeta> | undefined
  for (let n = 0; n + 3 < sig.length; n++) {
    if (!isKw(toks[sig[n]!], "TABLE") || !isOp(toks[sig[n + 1]!], "(")) continue
    const qualified = isOp(toks[sig[n + 3]!], ".")
    const [owner, column, close, alias] = qualified ? [toks[sig[n + 2]!], toks[sig[n + 4] ?? -1], toks[sig[n + 5] ?? -1], toks[sig[n + 6] ?? -1]] : [undefined, toks[sig[n + 2]!], toks[sig[n + 3]!], toks[sig[n + 4] ?? -1]]
    if (!isName(column) || !isOp(close, ")") || !isName(alias) || (owner !== undefined && !isName(owner))) continue
    tables ??= statementTables(toks, lookupTable)
    const name = oracleName(column)
    const owners = owner !== undefined ? [tables.get(oracleName(owner))] : [...tables.values()].filter((t) => t.columns.some((c) => c.name === name))
    const collection = owners.length === 1 ? owners[0]?.columns.find((c) => c.name === name)?.type.named : undefined
    const element = collection?.element !== undefined && "named" in collection.element ? collection.element.named : undefined
    if (element?.kind === "object") out.set(oracleName(alias), element)
  }
  return out
}

/**
 * `e.f(` at significant token `n`, `e` the alias of a `TABLE(c)` item over a collection of objects and `f` a member
 * function of their type: the edit that makes it `"T"."F"("T"(e."A1", ...)[,` (the element, one column per
 * attribute, rebuilt by the type's constructor, as SELF), and the significant index to go on after. When a subtype of
 * the type overrides f, the element is read whole (its subtype and the subtype's attributes with it) from the item's
 * element column (collection-columns.ts ELEMENT_COLUMN) and the call dispatched on its most specific type
 * (method-dispatch.ts).
 */
const elementMethodCallAt = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  n: number,
  elements: () => Map<string, NamedType>,
  known: Iterable<NamedType>
): { readonly edit: { from: number; to: number; with: Array<Tok> }; readonly next: number } | undefined => {
  const [e, dot, f, open] = [0, 1, 2, 3].map((d) => toks[sig[n + d] ?? -1])
  if (!isName(e) || isOp(toks[sig[n - 1] ?? -1], ".") || !isOp(dot, ".") || !isName(f) || !isOp(open, "(")) return undefined
  const type = elements().get(oracleName(e))
  const method = oracleName(f)
  if (type === undefined || implementingType(type, method, true) === undefined) return undefined
  const alias = e.kind === "qident" ? e.text : `"${oracleName(e)}"`
  const whole = tokenize(`${alias}."${ELEMENT_COLUMN}"`).map((g) => ({ ...g, pos: e.pos }))
  const dispatch = dispatchedCall(toks, sig, { from: sig[n]!, open: sig[n + 3]!, value: whole }, type, method, known)
  if (dispatch !== undefined) return dispatch
  const runs = implementingType(type, method, true)!
  const empty = isOp(toks[sig[n + 4] ?? -1], ")")
  const call = `"${runs.name}"."${method}"("${type.name}"(${type.attributes.map((a) => `${alias}."${a.name}"`).join(", ")})${empty ? "" : ","}`
  // headed by the call as written (`E.F(2)`): `E.F(` here, the arguments and `)` after it as they are
  const heading = headingOf(toks.slice(sig[n]!, sig[n + 3]! + 1).filter((t) => t.kind !== "ws"))
  const made = tokenize(call).map((g, k) => ({ ...g, pos: e.pos, heading: k === 0 ? heading : "" }))
  return { edit: { from: sig[n]!, to: sig[n + 3]!, with: made }, next: n + 3 }
}

/**
 * `t(args)` at significant token `n` of a user-defined constructor of object type `t` with as many parameters: the
 * edit that makes it `"T"."ORA$NEW"('<object of NULLs>', args)`, the type body's constructor function.
 */
const userConstructorAt = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  n: number,
  lookupType: (name: string) => NamedType | undefined
): { from: number; to: number; with: Array<Tok> } | undefined => {
  const t = toks[sig[n]!]
  if (!isName(t) || !isOp(toks[sig[n + 1] ?? -1], "(") || isOp(toks[sig[n - 1] ?? -1], ".")) return undefined
  const type = lookupType(oracleName(t))
  if (type?.kind !== "object" || !type.methods?.some((m) => m.kind === "CONSTRUCTOR")) return undefined
  const open = sig[n + 1]!
  const args = argumentsAt(toks.filter((x) => x.kind !== "ws"), n + 1, n).args.length
  if (!type.methods.some((m) => m.kind === "CONSTRUCTOR" && m.arity === args)) return undefined
  const pos = t.pos
  const op = (text: string): Tok => ({ kind: "op", text, value: text, pos })
  const self = nullAttributes(type)
  return {
    from: sig[n]!,
    to: open,
    with: [
      { kind: "qident", text: `"${type.name}"`, value: type.name, pos },
      op("."),
      { kind: "qident", text: `"${CONSTRUCTOR_NAME}"`, value: CONSTRUCTOR_NAME, pos },
      op("("),
      { kind: "str", text: `'${self}'`, value: self, pos },
      ...(args > 0 ? [op(",")] : [])
    ]
  }
}

/**
 * The object or collection type a stored function called from SQL returns (a user-defined constructor's too), so
 * that a select item of the call is fetched as a DbObject; undefined for a scalar result.
 */
export const namedResultOf = (db: OracleDatabase, schema: string, fn: PlsqlProcedure): NamedType | undefined => {
  if (fn.returns === undefined) return undefined
  const [owner, name] = fn.returns.includes(".") ? fn.returns.split(".") : [undefined, fn.returns]
  const named = namedTypesOf(db).lookup(schema, owner, name!)
  return named !== undefined && named.kind !== "xmltype" ? named : undefined
}

/**
 * Runs member function `method` of object type `type` with object value `self` as SELF and `args` as its arguments
 * (each handed in as a made value): what a MAP or ORDER method answers when the objects are compared.
 */
export async function callMemberFunction(ctx: Frame, type: NamedType, method: string, self: Value, args: ReadonlyArray<Value>): Promise<Value> {
  const at: Tok = { kind: "ident", text: method, value: method, pos: 0 }
  const keys = [self, ...args].map((value) => {
    const key = `\u0000F${++ctx.calls}`
    ctx.callResults.set(key, { value })
    return key
  })
  try {
    return await ctx.callLocal(await methodSlot(ctx, type, method, at), keys.map((key) => [{ kind: "bind", text: ":m", value: key, pos: 0 }]))
  } finally {
    for (const key of keys) ctx.callResults.delete(key)
  }
}
