/**
 * A package's PL/SQL types (`TYPE r IS RECORD (...)`, `TYPE t IS TABLE OF ... [INDEX BY PLS_INTEGER]`, `VARRAY`)
 * as node-oracledb DbObject binds: `connection.getDbObjectClass("PKG.R")` describes the type through
 * dbms_pickler.get_type_shape (named-types.ts describeTypeBlock asks {@link packageNamedType}), and values cross the
 * bind boundary as the server's stored text of named-type values (an array of a record's field values or of a
 * collection's elements; an index-by table as an object of its subscripts), converted here to and from the
 * interpreter's records and collections. node-oracledb documents these binds in "PL/SQL Record Bind Parameters" and
 * "Associative Array Bind Parameters" (https://node-oracledb.readthedocs.io/en/latest/user_guide/plsql_execution.html),
 * with examples/plsqlrecord.js.
 */
import * as crypto from "node:crypto"
import { DuckDBTimestampSecondsValue, type DuckDBTimestampValue, type DuckDBValue } from "@duckdb/node-api"
import { datetimeOfOracle, datetimeText } from "../datetime.ts"
import { fromExtendedJson, toExtendedJson } from "../extended-json.ts"
import { namedTypesOf, registerNamedType, registerPlsqlType } from "../named-types.ts"
import type { JsonNode } from "../oson.ts"
import type { Member, NamedType } from "../pickle.ts"
import { supportedMember } from "../pickle.ts"
import { parseOracleType } from "../types.ts"
import type { Decl, TypeSpec } from "./ast.ts"
import type { CollectionType } from "./collections.ts"
import { PlsqlCollection } from "./collections.ts"
import type { Collection, Frame, Value } from "./context.ts"
import type { PlsqlHost } from "./host.ts"
import { PlsqlRecord, type RecordType } from "./records.ts"
import { packagesOf, type PackageDef } from "./stored-packages.ts"
import { datetimeParameter, numberOfText } from "./value-kinds.ts"

/** The described types by their package declaration (one NamedType, so one OID, per declared type). */
const described = new WeakMap<RecordType | CollectionType, NamedType>()

/** PL/SQL integer types, which a DbObject carries as NUMBER. */
const INTEGRAL = /^(PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURALN?|POSITIVEN?|SIGNTYPE|INTEGER|INT|SMALLINT)$/

/** A package's public type declaration of that name. */
const publicType = (def: PackageDef, name: string): Extract<Decl, { k: "recordType" | "collectionType" }> | undefined => {
  const decl = def.spec.block.decls.find((d) => (d.k === "recordType" || d.k === "collectionType") && d.type.name === name)
  return decl?.k === "recordType" || decl?.k === "collectionType" ? decl : undefined
}

/** A field's or element's declared type as a member of a named type; undefined for a type a DbObject cannot carry. */
const memberOf = (host: PlsqlHost, def: PackageDef, t: TypeSpec): Member | undefined => {
  if (t.kind === "rowtypeOf") {
    const rowtype = rowtypeOf(host, t.of)
    return rowtype === undefined ? undefined : { named: rowtype }
  }
  if (t.kind !== "named") return undefined
  const parts = t.name.split(" . ")
  if (parts.length === 1 && publicType(def, parts[0]!) !== undefined) {
    const nested = namedOfDecl(host, def, publicType(def, parts[0]!)!)
    return nested === undefined ? undefined : { named: nested }
  }
  if (parts.length === 2) {
    const other = packagesOf(host.db).get(`${def.owner}.${parts[0]}`)
    const decl = other === undefined ? undefined : publicType(other, parts[1]!)
    if (other !== undefined && decl !== undefined) {
      const nested = namedOfDecl(host, other, decl)
      return nested === undefined ? undefined : { named: nested }
    }
  }
  const schemaType = namedTypesOf(host.db).lookup(def.owner, parts.length === 2 ? parts[0] : undefined, parts[parts.length - 1]!)
  if (schemaType !== undefined) return { named: schemaType }
  if (parts.length !== 1) return undefined
  const text = INTEGRAL.test(t.name) ? "NUMBER(38)" : t.size === undefined ? t.name : `${t.name}(${t.size}${t.scale === undefined ? "" : `,${t.scale}`})`
  const scalar = parseOracleType(text)
  // a BOOLEAN field too (23ai; node-oracledb packs it as a 4-byte integer), which schema types do not take here
  return scalar !== undefined && (supportedMember(scalar) || scalar.kind === "boolean") ? { scalar } : undefined
}

/** The described `TABLE%ROWTYPE` types, by the table's `OWNER.NAME` and its column list (a changed table describes anew). */
const rowtypes = new Map<string, NamedType>()

/**
 * `table%ROWTYPE` as a member: a record type with the table's columns as attributes, named `TABLE%ROWTYPE` as Oracle
 * names it (python-oracledb's tests describe `conn.gettype("TESTALLTYPES%ROWTYPE")`: test_2300_object_var.py);
 * undefined for a cursor's %ROWTYPE, an unknown table, or a column a DbObject cannot carry here (LOBs).
 */
const rowtypeOf = (host: PlsqlHost, of: ReadonlyArray<string>): NamedType | undefined => {
  if (of.length < 1 || of.length > 2) return undefined
  const meta = host.lookupTable(of.length === 2 ? of[0] : undefined, of[of.length - 1]!)
  if (meta === undefined || !meta.columns.every((c) => supportedMember(c.type))) return undefined
  const key = `${meta.owner}.${meta.name}(${meta.columns.map((c) => `${c.name} ${c.type.dictName}`).join(",")})`
  const known = rowtypes.get(key)
  if (known !== undefined) return known
  const name = `${meta.name}%ROWTYPE`
  const oid = crypto.createHash("md5").update(`PLSQL:${key}`).digest()
  const named: NamedType = { schema: meta.owner, name, oid, kind: "object", attributes: meta.columns.map((c) => ({ name: c.name, member: { scalar: c.type } })), element: undefined, limit: 0 }
  rowtypes.set(key, named)
  // no package declares it: ALL_PLSQL_COLL_TYPES names it without one, as node-oracledb then asks for `"OWNER"."T"%ROWTYPE`
  return registerPlsqlType(named)
}

/** The named type of a package's record or collection type declaration; undefined when a member cannot be carried. */
const namedOfDecl = (host: PlsqlHost, def: PackageDef, decl: Extract<Decl, { k: "recordType" | "collectionType" }>): NamedType | undefined => {
  const known = described.get(decl.type)
  if (known !== undefined) return known
  const fqn = `${def.owner}.${def.name}.${decl.type.name}`
  const oid = crypto.createHash("md5").update(`PLSQL:${fqn}`).digest()
  let named: NamedType
  if (decl.k === "recordType") {
    const attributes = decl.type.fields.map((f) => ({ name: f.name, member: memberOf(host, def, f.type) }))
    if (attributes.some((a) => a.member === undefined)) return undefined
    named = { schema: def.owner, name: decl.type.name, oid, kind: "object", attributes: attributes as Array<{ name: string; member: Member }>, element: undefined, limit: 0 }
  } else {
    const c = decl.type
    // an associative array is indexed by PLS_INTEGER only as a DbObject (node-oracledb thin's _ensureAssocKeys)
    if (c.indexedByText === true) return undefined
    const element = memberOf(host, def, c.element)
    if (element === undefined) return undefined
    named = { schema: def.owner, name: c.name, oid, kind: c.kind === "varray" ? "varray" : "table", attributes: [], element, limit: c.limit ?? 0, ...(c.kind === "assoc" ? { indexed: true } : {}) }
  }
  described.set(decl.type, named)
  return registerNamedType(named, def.name)
}

/**
 * The named type of a package type a client names (`PKG.T`, `OWNER.PKG.T`, quoted parts kept as written), with its
 * package; undefined when no visible package declares a public record or collection type of that name, or when one
 * of its members is of a type a DbObject cannot carry here (%ROWTYPE, LOBs, an associative array indexed by text).
 */
export const packageNamedType = (host: PlsqlHost, parts: ReadonlyArray<string>): { readonly type: NamedType; readonly packageName: string } | undefined => {
  // `T%ROWTYPE`, `OWNER.T%ROWTYPE`, `"OWNER"."T"%ROWTYPE` (parts "OWNER", "T", "%ROWTYPE")
  const last = parts[parts.length - 1] ?? ""
  if (last.endsWith("%ROWTYPE")) {
    const table = [...parts.slice(0, -1), ...(last === "%ROWTYPE" ? [] : [last.slice(0, -"%ROWTYPE".length)])]
    const type = rowtypeOf(host, table)
    return type === undefined ? undefined : { type, packageName: "" }
  }
  if (parts.length < 2 || parts.length > 3) return undefined
  const [owner, pkg, name] = parts.length === 3 ? parts : [host.schema, parts[0]!, parts[1]!]
  const def = packagesOf(host.db).get(`${owner}.${pkg}`)
  const decl = def === undefined || !def.publicNames.has(name!) ? undefined : publicType(def, name!)
  const type = def === undefined || decl === undefined ? undefined : namedOfDecl(host, def, decl)
  return type === undefined ? undefined : { type, packageName: def!.name }
}

// ------------------------------------------------------------------------------------------------ values

/** A stored value node as an interpreter value: numbers as numbers (or exact text), datetimes as wall-clock text. */
const valueOfNode = (node: JsonNode): Value => {
  switch (node.kind) {
    case "null":
      return null
    case "number":
      return numberOfText(node.text)
    case "string":
      return node.value
    case "boolean":
      return node.value
    case "double":
    case "float":
      return node.value
    case "date": {
      // as a DATE column's value reaches a block: an engine timestamp of seconds
      const micros = (datetimeParameter(datetimeText(datetimeOfOracle(node.bytes)).replace(/\.\d+$/, "")) as DuckDBTimestampValue).micros
      return new DuckDBTimestampSecondsValue(micros / 1_000_000n)
    }
    case "timestamp":
      return datetimeParameter(datetimeText(datetimeOfOracle(node.bytes)).replace(/\.?0+$/, ""))
    case "timestamptz":
      return datetimeText(datetimeOfOracle(node.bytes))
    case "binary":
      return node.bytes as unknown as DuckDBValue
    default:
      return toExtendedJson(node)
  }
}

/** What the interpreter needs to read a bind into a record or collection of the block's types. */
export interface TypeResolver {
  readonly record: (t: TypeSpec) => RecordType | undefined
  readonly collection: (t: TypeSpec) => CollectionType | undefined
  readonly coerce: (t: TypeSpec, v: Value) => Value
  /** The columns of a `table%ROWTYPE`'s table; undefined for any other type. */
  readonly rowtypeColumns?: (t: TypeSpec) => ReadonlyArray<string> | undefined
}

/** A stored node as a value of declared type `t`: a record or collection of the package's types, nested too. */
const typedValue = (r: TypeResolver, t: TypeSpec, node: JsonNode): Value => {
  if (node.kind === "null") return null
  const columns = r.rowtypeColumns?.(t)
  if (columns !== undefined && node.kind === "array") return new PlsqlRecord(new Map(columns.map((c, i) => [c, valueOfNode(node.items[i] ?? { kind: "null" }) as DuckDBValue])))
  const record = r.record(t)
  if (record !== undefined && node.kind === "array") {
    return new PlsqlRecord(new Map(record.fields.map((f, i) => [f.name, r.coerce(f.type, typedValue(r, f.type, node.items[i] ?? { kind: "null" })) as DuckDBValue])), record)
  }
  const collection = r.collection(t)
  if (collection !== undefined && (node.kind === "array" || node.kind === "object")) {
    const c: Collection = new PlsqlCollection(collection)
    const element = (n: JsonNode) => r.coerce(collection.element, typedValue(r, collection.element, n)) as DuckDBValue
    if (node.kind === "object") for (const [key, n] of node.fields) c.set(Number(key), element(n))
    else for (const n of node.items) c.push(element(n))
    return c
  }
  return valueOfNode(node)
}

/**
 * A DbObject bind's stored text as a value of a record or non-schema collection type `t` (a parameter or variable of
 * a package's or block's type); undefined when `t` is no such type or the text is no stored value.
 */
export const valueOfStoredBind = (r: TypeResolver, t: TypeSpec | undefined, text: string): Value | undefined => {
  if (t === undefined || (r.record(t) === undefined && r.collection(t) === undefined) || !/^\s*[[{]/.test(text)) return undefined
  let node: JsonNode
  try {
    node = fromExtendedJson(text)
  } catch {
    return undefined
  }
  return typedValue(r, t, node)
}

/** An interpreter value as a stored node: a record as its fields' values, an index-by collection by subscript. */
const nodeOfValue = (v: unknown): JsonNode => {
  if (v === null || v === undefined) return { kind: "null" }
  if (typeof v === "number" || typeof v === "bigint") return { kind: "number", text: String(v) }
  if (typeof v === "boolean") return { kind: "boolean", value: v }
  if (v instanceof Uint8Array) return { kind: "binary", bytes: v }
  if (v instanceof PlsqlRecord) return { kind: "array", items: [...v.fields.values()].map(nodeOfValue) }
  if (v instanceof PlsqlCollection) {
    const keys = v.keys()
    if (v.type.kind === "assoc") return { kind: "object", fields: keys.map((k) => [String(k), nodeOfValue(v.get(k))] as const) }
    return { kind: "array", items: keys.map((k) => nodeOfValue(v.get(k))) }
  }
  if (typeof v === "string" && /^\s*[[{]/.test(v)) {
    try {
      return fromExtendedJson(v)
    } catch {
      return { kind: "string", value: v }
    }
  }
  return { kind: "string", value: String(v) }
}

/** A record or collection assigned to a DbObject bind, as the stored text the bind's type is written from. */
export const storedOfBindValue = (v: PlsqlRecord | PlsqlCollection<unknown>): string => toExtendedJson(nodeOfValue(v))

/** The resolver of a frame's types (conversion.ts supplies its lookups). */
export const resolverOf = (ctx: Frame, record: (ctx: Frame, t: TypeSpec) => RecordType | undefined, collection: (ctx: Frame, t: TypeSpec) => CollectionType | undefined, coerce: (ctx: Frame, t: TypeSpec, v: Value) => Value): TypeResolver => ({
  record: (t) => record(ctx, t),
  collection: (t) => collection(ctx, t),
  coerce: (t, v) => coerce(ctx, t, v),
  rowtypeColumns: (t) => (t.kind === "rowtypeOf" && t.of.length <= 2 ? ctx.host.lookupTable(t.of.length === 2 ? t.of[0] : undefined, t.of[t.of.length - 1]!)?.columns.map((c) => c.name) : undefined)
})
