/**
 * Schema collection types (CREATE TYPE ... AS TABLE OF | VARRAY(n) OF, and the predefined SYS.ODCINUMBERLIST family:
 * named-types.ts) as PL/SQL collection types: a variable, parameter or constructor of one holds a PlsqlCollection
 * (collections.ts) as a block's own collection types do. SQL, binds and columns hold such a collection as the
 * server stores it everywhere, the extended JSON text of its elements (an object element as the array of its
 * attribute values); a value crossing between the two is converted here.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { fromExtendedJson, toExtendedJson } from "../extended-json.ts"
import { namedTypeOfOid, namedTypesOf } from "../named-types.ts"
import type { BindSpec } from "../statement.ts"
import type { JsonNode } from "../oson.ts"
import type { Member, NamedType } from "../pickle.ts"
import type { CollectionType, TypeSpec } from "./ast.ts"
import { PlsqlCollection } from "./collections.ts"
import type { Collection, Frame, Value } from "./context.ts"
import { numberOfText } from "./value-kinds.ts"

const types = new WeakMap<NamedType, CollectionType>()
const namedOf = new WeakMap<CollectionType, NamedType>()

/** A scalar or named element type as a declared PL/SQL type. */
const elementSpec = (m: Member): TypeSpec => {
  if ("named" in m) return { kind: "named", name: m.named.name }
  const t = m.scalar
  if (t.kind === "number" && t.dictPrecision !== null) return { kind: "named", name: t.dictName, size: t.dictPrecision, scale: t.dictScale ?? 0 }
  if (t.charSize > 0) return { kind: "named", name: t.dictName, size: t.charSize }
  return { kind: "named", name: t.dictName }
}

/** The collection type of a schema VARRAY / TABLE type, one per type. */
export const collectionTypeOfNamed = (named: NamedType): CollectionType | undefined => {
  if ((named.kind !== "varray" && named.kind !== "table") || named.element === undefined) return undefined
  let t = types.get(named)
  if (t === undefined) {
    t = { name: `${named.schema}.${named.name}`, kind: named.kind, element: elementSpec(named.element), ...(named.kind === "varray" ? { limit: named.limit } : {}) }
    types.set(named, t)
    namedOf.set(t, named)
  }
  return t
}

/** The schema collection type a declared type's name (`t`, `owner . t` as the parser writes it) names, if any. */
export function schemaCollectionType(ctx: Frame, name: string): CollectionType | undefined {
  const parts = name.split(" . ")
  if (parts.length > 2 || parts.some((p) => p === "" || p.includes(" "))) return undefined
  const named = namedTypesOf(ctx.host.db).lookup(ctx.host.schema, parts.length === 2 ? parts[0] : undefined, parts[parts.length - 1]!)
  return named === undefined ? undefined : collectionTypeOfNamed(named)
}

/** Whether a collection type is a schema type's (its values travel to SQL and binds as stored text). */
export const isSchemaCollection = (t: CollectionType): boolean => namedOf.has(t)

/** An element's stored JSON node as a PL/SQL value: numbers as numbers, objects as their stored text. */
const valueOfNode = (node: JsonNode, m: Member | undefined): DuckDBValue => {
  if (node.kind === "null") return null
  if (node.kind === "number") return numberOfText(node.text)
  if (node.kind === "string") return m !== undefined && "scalar" in m && m.scalar.kind === "number" && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(node.value) ? numberOfText(node.value) : node.value
  if (node.kind === "boolean") return node.value
  return toExtendedJson(node)
}

/** A PL/SQL element value as its stored JSON node (an object's stored text parsed back). */
const nodeOfValue = (v: unknown, m: Member | undefined): JsonNode => {
  if (v === null || v === undefined) return { kind: "null" }
  if (typeof v === "number" || typeof v === "bigint") return { kind: "number", text: String(v) }
  if (typeof v === "boolean") return { kind: "boolean", value: v }
  if (v instanceof PlsqlCollection) return fromExtendedJson(storedOfCollection(v) ?? "[]")
  if (typeof v === "string" && m !== undefined && "named" in m) return fromExtendedJson(v)
  return { kind: "string", value: String(v) }
}

/** A collection's stored text (the elements in subscript order); undefined for a collection of no schema type. */
export function storedOfCollection(c: PlsqlCollection<unknown>): string | undefined {
  const named = namedOf.get(c.type)
  if (named === undefined) return undefined
  return toExtendedJson({ kind: "array", items: c.keys().map((k) => nodeOfValue(c.get(k), named.element)) })
}

/** The collection a stored text (a DbObject bind's value, a column's) holds, of schema collection type `type`. */
export function collectionOfStored(type: CollectionType, text: string): Collection {
  const named = namedOf.get(type)
  const node = fromExtendedJson(text)
  const c: Collection = new PlsqlCollection(type)
  if (node.kind === "array") for (const item of node.items) c.push(valueOfNode(item, named?.element))
  return c
}

/** A DbObject collection bind's value (its stored text) as a collection of its type; undefined for another bind. */
export function storedBindCollection(text: string, spec: BindSpec | undefined): Collection | undefined {
  const named = spec?.oid === undefined ? undefined : namedTypeOfOid(spec.oid)
  const type = named === undefined ? undefined : collectionTypeOfNamed(named)
  return type === undefined ? undefined : collectionOfStored(type, text)
}

/** `v` converted to a schema collection type when it is stored text; as it is otherwise. */
export function toSchemaCollection(_ctx: Frame, type: CollectionType | undefined, v: Value): Value {
  return type !== undefined && typeof v === "string" && isSchemaCollection(type) ? collectionOfStored(type, v) : v
}
