/**
 * Object type inheritance in CREATE TYPE (Object-Relational Developer's Guide, "Inheritance in SQL Object Types";
 * PL/SQL Language Reference, "CREATE TYPE Statement"): `CREATE TYPE t AS OBJECT (...) NOT FINAL` lets subtypes be
 * derived, `CREATE TYPE s UNDER t (attrs)` makes s with t's attributes followed by its own. A subtype of a FINAL type
 * (PLS-00590 "attempting to create a subtype UNDER a FINAL type") or of no object type is a compilation error.
 */
import { OraError } from "./errors.ts"
import { fromExtendedJson } from "./extended-json.ts"
import type { JsonNode } from "./oson.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import type { MethodSpec, NamedType } from "./type-shapes.ts"

const nameOf = (t: Tok | undefined): string | undefined =>
  t === undefined || (t.kind !== "ident" && t.kind !== "qident") ? undefined : t.kind === "qident" ? t.value : t.value.toUpperCase()

/**
 * The `UNDER [owner.]t (` clause at significant token `k` (UNDER): the supertype and the index of the token before
 * the attribute list's `(`; ORA-24344 (a specification Oracle compiles with errors) for a FINAL or unknown supertype.
 */
export const underClause = (sig: ReadonlyArray<Tok>, k: number, lookup: (owner: string | undefined, name: string) => NamedType | undefined): { readonly parent: NamedType; readonly listAt: number } => {
  const qualified = isOp(sig[k + 2], ".")
  const owner = qualified ? nameOf(sig[k + 1]) : undefined
  const name = nameOf(sig[qualified ? k + 3 : k + 1])
  const listAt = qualified ? k + 3 : k + 1
  const parent = name === undefined ? undefined : lookup(owner, name)
  if (parent?.kind !== "object" || parent.notFinal !== true || !isOp(sig[listAt + 1], "(")) throw new OraError(24344, "success with compilation error")
  return { parent, listAt }
}

/** Whether the type specification ends (after its attribute list, closing at `close`) with NOT `word`. */
const declaredNot = (sig: ReadonlyArray<Tok>, close: number, word: "FINAL" | "INSTANTIABLE"): boolean => {
  for (let k = close + 1; k < sig.length; k++) if (isKw(sig[k], "NOT") && isKw(sig[k + 1], word)) return true
  return false
}

/** ORA-22826, a constructor call of a NOT INSTANTIABLE type in SQL (PL/SQL refuses it at compile time, PLS-00713). */
export const notInstantiable = () => new OraError(22826, "cannot construct an instance of a non instantiable type")

/** The methods of `methods` and of `supertype`'s chain left NOT INSTANTIABLE (no type of the chain implements them). */
const unimplemented = (supertype: NamedType | undefined, methods: ReadonlyArray<MethodSpec>): Array<string> => {
  const chain: Array<ReadonlyArray<MethodSpec>> = [methods]
  for (let c = supertype; c !== undefined; c = c.supertype) chain.unshift(c.methods ?? [])
  const open = new Map<string, boolean>()
  for (const declared of chain) for (const m of declared) if (m.kind === "MEMBER") open.set(`${m.name}/${m.isFunction}/${m.arity}`, m.notInstantiable === true)
  return [...open].filter(([, not]) => not).map(([key]) => key)
}

/**
 * The inheritance properties of a new OBJECT type whose attribute list closes at `close`: its supertype, NOT FINAL,
 * NOT INSTANTIABLE and typeid. Object-Relational Developer's Guide, "NOT INSTANTIABLE Types and Methods": a type
 * declaring a NOT INSTANTIABLE method must itself be NOT INSTANTIABLE, and "if a subtype does not provide an
 * implementation for every inherited non-instantiable method, the subtype itself, like the supertype, must be declared
 * not instantiable"; a NOT INSTANTIABLE type cannot be FINAL, since nothing could instantiate it (J. Price, Oracle
 * Database 10g SQL, "NOT INSTANTIABLE Object Types"). Either is a compilation error (ORA-24344; **unconfirmed:** the
 * PLS- code Oracle lists for it), and the type is not created.
 */
export const inheritanceOf = (sig: ReadonlyArray<Tok>, close: number, supertype: NamedType | undefined, methods: ReadonlyArray<MethodSpec>, all: ReadonlyArray<NamedType>): Pick<NamedType, "supertype" | "notFinal" | "notInstantiable" | "typeId"> => {
  const notFinal = declaredNot(sig, close, "FINAL")
  const abstract = declaredNot(sig, close, "INSTANTIABLE")
  if ((abstract && !notFinal) || (!abstract && unimplemented(supertype, methods).length > 0)) throw new OraError(24344, "success with compilation error")
  const typeId = newTypeId(supertype, notFinal, all)
  return { ...(supertype === undefined ? {} : { supertype }), ...(notFinal ? { notFinal: true as const } : {}), ...(abstract ? { notInstantiable: true as const } : {}), ...(typeId === undefined ? {} : { typeId }) }
}

/** Whether `t` belongs to a type hierarchy (NOT FINAL, or created UNDER another type): its values carry their type. */
export const inHierarchy = (t: NamedType): boolean => t.kind === "object" && (t.supertype !== undefined || t.notFinal === true)

/** `t` and its supertypes, most specific first, as `SCHEMA.NAME`. */
export const typeChain = (t: NamedType): Array<string> => {
  const out: Array<string> = []
  for (let c: NamedType | undefined = t; c !== undefined; c = c.supertype) out.push(`${c.schema}.${c.name}`)
  return out
}

/** Whether `sub` is `t` or one of its subtypes. */
export const isSubtypeOf = (sub: NamedType, t: NamedType): boolean => {
  for (let c: NamedType | undefined = sub; c !== undefined; c = c.supertype) if (c === t || (c.schema === t.schema && c.name === t.name)) return true
  return false
}

/**
 * The typeid SYS_TYPEID returns for a new type of a hierarchy: "01" for its root, then the next number of the
 * hierarchy, in hexadecimal (SQL Language Reference, "SYS_TYPEID": persons of types person_t, employee_t and
 * part_time_emp_t show 01, 02, 03; "All final root object types ... have a null typeid").
 */
export const newTypeId = (supertype: NamedType | undefined, notFinal: boolean, all: ReadonlyArray<NamedType>): string | undefined => {
  if (supertype === undefined) return notFinal ? "01" : undefined
  const root = rootOf(supertype)
  const taken = all.filter((t) => t.typeId !== undefined && rootOf(t) === root).map((t) => parseInt(t.typeId!, 16))
  return (Math.max(0, ...taken) + 1).toString(16).toUpperCase().padStart(2, "0")
}

const rootOf = (t: NamedType): NamedType => (t.supertype === undefined ? t : rootOf(t.supertype))

/** The key of the trailing element that names a stored instance's most specific type (see {@link typeTag}). */
export const TYPE_KEY = "$oraType"
/** The key of the trailing element's typeid (SYS_TYPEID). */
export const TYPE_ID_KEY = "$typeId"

/**
 * The JSON text of the element a stored instance of a hierarchy type ends with, after its attribute values: its type
 * and supertypes, most specific first, and its typeid. A column or attribute of type t may hold instances of t's
 * subtypes ("Substituting Types in a Type Hierarchy", Object-Relational Developer's Guide), whose attributes come
 * after t's, so t's attributes keep their positions and only this element tells the instance's type.
 */
export const typeTag = (t: NamedType): string => JSON.stringify({ [TYPE_KEY]: typeChain(t), ...(t.typeId === undefined ? {} : { [TYPE_ID_KEY]: t.typeId }) })

/** The value tree of an instance of `t` with its type element appended when `t` is in a hierarchy. */
export const withTypeTag = (t: NamedType, value: JsonNode): JsonNode => {
  if (!inHierarchy(t) || value.kind !== "array" || storedTypeName(value) !== undefined) return value
  return { kind: "array", items: [...value.items, fromExtendedJson(typeTag(t))] }
}

/** The most specific type a stored instance's trailing type element names (`SCHEMA.NAME`), if it has one. */
export const storedTypeName = (value: JsonNode): string | undefined => {
  const last = value.kind === "array" ? value.items.at(-1) : undefined
  if (last?.kind !== "object") return undefined
  const chain = last.fields.find(([k]) => k === TYPE_KEY)?.[1]
  const first = chain?.kind === "array" ? chain.items[0] : undefined
  return first?.kind === "string" ? first.value : undefined
}

/**
 * The type a stored value of a column or attribute of type `t` is sent as: the subtype its type element names, when
 * it is one of `t`'s (`known`: the registered types), else `t`. The image then holds the subtype's attributes, `t`'s
 * first, under the subtype's TOID. node-oracledb thin decodes a fetched object by the column's type, not by the TOID
 * (lib/thin/protocol/messages/withData.js processColumnData: `new ThinDbObjectImpl(objType, obj.packedData)` with
 * objType the column's fetchInfo.dbTypeClass; the TOID is only kept in `toid`), so it shows `t`'s attributes of the
 * instance and ignores the rest of the image.
 */
export const sentType = (t: NamedType, value: JsonNode, known: Iterable<NamedType>): NamedType => {
  const name = inHierarchy(t) ? storedTypeName(value) : undefined
  if (name === undefined || name === `${t.schema}.${t.name}`) return t
  for (const c of known) if (`${c.schema}.${c.name}` === name && isSubtypeOf(c, t)) return c
  return t
}

/**
 * The MAP or ORDER member function objects of `type` compare by and the type declaring it: its own, or the one its
 * nearest supertype declaring one has, as a subtype inherits its supertype's comparison method (Object-Relational
 * Developer's Guide, "Comparing Objects", "Inheriting, Overloading, and Overriding Methods"); undefined without one,
 * when objects compare attribute by attribute.
 */
export const comparisonOf = (type: NamedType): { readonly owner: NamedType; readonly method: MethodSpec } | undefined => {
  for (let c: NamedType | undefined = type; c !== undefined; c = c.supertype) {
    const method = c.methods?.find((m) => m.comparison !== undefined)
    if (method !== undefined) return { owner: c, method }
  }
  return undefined
}

/**
 * The type whose body runs member method `method` for an instance of `t`: t when it declares the method (its own or
 * OVERRIDING), else its nearest supertype that does, as a subtype inherits its supertype's methods
 * (Object-Relational Developer's Guide, "Inheriting, Overloading, and Overriding Methods").
 */
export const implementingType = (t: NamedType, method: string, isFunction: boolean): NamedType | undefined => {
  for (let c: NamedType | undefined = t; c !== undefined; c = c.supertype) if (c.methods?.some((m) => m.kind === "MEMBER" && m.isFunction === isFunction && m.name === method)) return c
  return undefined
}

/** The most specific type of an object value held as stored text, a subtype of `t` among `known`; `t` otherwise. */
export const mostSpecificType = (t: NamedType, stored: unknown, known: Iterable<NamedType>): NamedType => {
  if (typeof stored !== "string" || !inHierarchy(t) || !stored.includes(TYPE_KEY)) return t
  try {
    return sentType(t, fromExtendedJson(stored), known)
  } catch {
    return t
  }
}

/**
 * The subtypes of `t` among `known` whose instances run another body's `method` than t's do (dynamic dispatch: "the
 * version of the method that is executed is the one defined for the most specific type of the instance"), each with
 * the type whose body runs it.
 */
export const overridingSubtypes = (t: NamedType, method: string, known: Iterable<NamedType>): Array<{ readonly sub: NamedType; readonly runs: NamedType }> => {
  const own = implementingType(t, method, true)
  const out: Array<{ sub: NamedType; runs: NamedType }> = []
  for (const sub of known) {
    if (sub === t || sub.kind !== "object" || !isSubtypeOf(sub, t)) continue
    const runs = implementingType(sub, method, true)
    if (runs !== undefined && runs !== own) out.push({ sub, runs })
  }
  return out
}
