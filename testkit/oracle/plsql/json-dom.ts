/**
 * The in-memory JSON of the PL/SQL JSON object types (JSON_ELEMENT_T, JSON_OBJECT_T, JSON_ARRAY_T, JSON_SCALAR_T;
 * their methods: json-object-types.ts): a mutable tree that `parse` builds and `to_string` serializes. A variable of
 * one of the types holds a PlsqlJson, a reference to a node of such a tree: `b := a` and `a.get(k)` refer to the
 * same node, so a `put` through one is seen through the other, and `clone` makes a copy: "By default JSON related
 * PL/SQL types have reference semantics" (an `append` to `jsn.get_array('ary')` shows in `jsn`:
 * https://renenyffenegger.ch/notes/development/databases/Oracle/installed/types/json/reference-semantics).
 */
import { OraError } from "../errors.ts"
import { parseDocument, plainJson } from "../json-functions.ts"
import type { JsonNode } from "../oson.ts"

/** A node of an in-memory JSON tree: objects and arrays mutable, scalars as the stored JSON nodes. */
export type JsonDom =
  | { readonly kind: "object"; readonly fields: Array<[string, JsonDom]> }
  | { readonly kind: "array"; readonly items: Array<JsonDom> }
  | { readonly kind: "scalar"; readonly node: JsonNode }

const JSON_TYPE_NAMES = ["JSON_ELEMENT_T", "JSON_OBJECT_T", "JSON_ARRAY_T", "JSON_SCALAR_T"] as const
const JSON_TYPES: ReadonlySet<string> = new Set(JSON_TYPE_NAMES)

/** The names of the PL/SQL JSON object types. */
export type JsonTypeName = (typeof JSON_TYPE_NAMES)[number]

/** True when `name` is the name of a PL/SQL JSON object type. */
export const isJsonTypeName = (name: string | undefined): name is JsonTypeName => name !== undefined && JSON_TYPES.has(name)

/** The JSON object type a declared type names (`JSON_OBJECT_T`, `SYS.JSON_OBJECT_T`); undefined for any other. */
export const jsonTypeOf = (t: { readonly kind: string; readonly name?: string } | undefined): JsonTypeName | undefined => {
  const name = t?.kind === "named" ? t.name?.replace(/^SYS \. /, "") : undefined
  return isJsonTypeName(name) ? name : undefined
}

/** The value of a variable of a PL/SQL JSON object type: a reference to a node of an in-memory JSON tree. */
export class PlsqlJson {
  constructor(readonly dom: JsonDom) {}

  /** The most specific JSON object type the node is an instance of. */
  get typeName(): JsonTypeName {
    return this.dom.kind === "object" ? "JSON_OBJECT_T" : this.dom.kind === "array" ? "JSON_ARRAY_T" : "JSON_SCALAR_T"
  }
}

/** A stored JSON node as a mutable tree. */
export const domOf = (n: JsonNode): JsonDom =>
  n.kind === "object" ? { kind: "object", fields: n.fields.map(([k, v]) => [k, domOf(v)]) } : n.kind === "array" ? { kind: "array", items: n.items.map(domOf) } : { kind: "scalar", node: n }

/** A tree as a stored JSON node. */
export const nodeOfDom = (d: JsonDom): JsonNode =>
  d.kind === "object" ? { kind: "object", fields: d.fields.map(([k, v]) => [k, nodeOfDom(v)] as const) } : d.kind === "array" ? { kind: "array", items: d.items.map(nodeOfDom) } : d.node

/** A tree as JSON text (to_string / stringify / to_clob). */
export const serializeDom = (d: JsonDom): string => plainJson(nodeOfDom(d))

/** A deep copy (clone). */
export const cloneDom = (d: JsonDom): JsonDom => domOf(nodeOfDom(d))

/**
 * `parse(text)`: the text read in Oracle's lax syntax, which "has to pass the lax check of the IS JSON SQL condition"
 * (PL/SQL Packages and Types Reference, "JSON Data Structures", JSON_ELEMENT_T "Constructors"); ORA-40441 "JSON
 * syntax error" when it does not, ORA-40587 "invalid JSON type" when `want` is JSON_OBJECT_T or JSON_ARRAY_T and the
 * text is the other kind, ORA-40573 "invalid use of PL/SQL JSON object type" for a scalar parsed as JSON_ELEMENT_T
 * (http://www.renenyffenegger.ch/notes/development/databases/Oracle/errors/ORA-40587_invalid-JSON-type).
 */
export const parseJsonDom = (text: string, want: JsonTypeName): JsonDom => {
  const node = parseDocument(text)
  if (node === undefined) throw new OraError(40441, "JSON syntax error")
  const dom = domOf(node)
  if ((want === "JSON_OBJECT_T" && dom.kind !== "object") || (want === "JSON_ARRAY_T" && dom.kind !== "array")) throw new OraError(40587, "invalid JSON type")
  if (want === "JSON_ELEMENT_T" && dom.kind === "scalar") throw new OraError(40573, "invalid use of PL/SQL JSON object type")
  return dom
}
