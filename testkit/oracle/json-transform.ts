/**
 * JSON_TRANSFORM's operations over a document (JSON Developer's Guide 23ai, "Oracle SQL Function JSON_TRANSFORM" and
 * its "JSON_TRANSFORM Operator ..." sections; SQL Language Reference, "JSON_TRANSFORM"): REMOVE, INSERT, REPLACE,
 * SET, APPEND, RENAME and KEEP, applied in order, each to the result of the ones before; the call succeeds as a whole
 * or fails. The handlers and their defaults per operator:
 * - REMOVE: IGNORE ON MISSING (ERROR); removing `$` is ORA-40770 "removal of root value not allowed".
 * - INSERT: ERROR ON EXISTING (IGNORE, REPLACE) for an object field, ORA-40763 "existing value in JSON_TRANSFORM"; an array
 *   position inserts there, one past the end lengthening the array with JSON nulls.
 * - REPLACE: IGNORE ON MISSING (CREATE, ERROR) — "REPLACE has the effect of SET with clause IGNORE ON MISSING".
 * - SET: REPLACE ON EXISTING (IGNORE, ERROR), CREATE ON MISSING (IGNORE, ERROR): a missing field is created when its
 *   parent exists and is an object.
 * - APPEND: the value added at the end of each targeted array; a targeted value that is no array is an error; ERROR
 *   ON MISSING (CREATE makes the field an array of the value, IGNORE).
 * - RENAME: the targeted field takes the name, in place; IGNORE ON MISSING (ERROR).
 * - KEEP: only the targeted values (and the objects and arrays leading to them) stay; the top level is emptied, not
 *   removed.
 * A SQL NULL value is JSON null (NULL ON NULL), or skips the operation (IGNORE ON NULL), fails it (ERROR ON NULL,
 * ORA-40803) or removes the target (REMOVE ON NULL).
 * Error codes and texts from the Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-40762 and
 * ora-40763, ora-40770, ora-40803; 19c / 21c wording): ORA-40762 "missing value in JSON_TRANSFORM (path)" for ERROR ON
 * MISSING, ORA-40763 "existing value in JSON_TRANSFORM (path)" for ERROR ON EXISTING, ORA-40770 "removal of root
 * value not allowed" ("Do not use path expression '$' in the REMOVE operation"), ORA-40803 "JSON_TRANSFORM operation
 * called with NULL input" for ERROR ON NULL.
 */
import { BLOB, BOOLEAN, DuckDBListValue, LIST, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"
import { fromExtendedJson, toExtendedJson } from "./extended-json.ts"
import { documentText, isStrictPath, type JsonPathStep, parsePath, plainJson, selectPath } from "./json-functions.ts"
import { evalFilter } from "./json-path-filters.ts"
import type { JsonNode } from "./oson.ts"

/** One operation as json-sql.ts writes it into the call (JSON text): its operator, paths, value index and handlers. */
export interface TransformOperation {
  readonly op: "REMOVE" | "INSERT" | "REPLACE" | "SET" | "APPEND" | "RENAME" | "KEEP"
  readonly paths: ReadonlyArray<string>
  /** Index of its right-hand side in the call's value list (absent for REMOVE and KEEP). */
  readonly value?: number
  /** The handlers written, e.g. `{ "MISSING": "CREATE", "NULL": "IGNORE" }`. */
  readonly on: Readonly<Record<string, string>>
}

type Node = { kind: "object"; fields: Array<[string, Node]> } | { kind: "array"; items: Array<Node> } | Exclude<JsonNode, { kind: "object" | "array" }>

const mutable = (n: JsonNode): Node =>
  n.kind === "object" ? { kind: "object", fields: n.fields.map(([k, v]): [string, Node] => [k, mutable(v)]) } : n.kind === "array" ? { kind: "array", items: n.items.map(mutable) } : n

const DEFAULTS: Record<TransformOperation["op"], Readonly<Record<string, string>>> = {
  REMOVE: { MISSING: "IGNORE" },
  INSERT: { EXISTING: "ERROR", NULL: "NULL" },
  REPLACE: { EXISTING: "REPLACE", MISSING: "IGNORE", NULL: "NULL" },
  SET: { EXISTING: "REPLACE", MISSING: "CREATE", NULL: "NULL" },
  APPEND: { MISSING: "ERROR", NULL: "NULL" },
  RENAME: { MISSING: "IGNORE" },
  KEEP: {}
}

const missing = (path: string) => new OraError(40762, `missing value in JSON_TRANSFORM (${path})`)
const existing = (path: string) => new OraError(40763, `existing value in JSON_TRANSFORM (${path})`)

/** A place a path's last step names: a field of an object (present or not) or a position of an array. */
type Location = { readonly parent: Extract<Node, { kind: "object" }>; readonly name: string } | { readonly parent: Extract<Node, { kind: "array" }>; readonly index: number }

/**
 * A target path's steps that name no place in the document: a descendant step, which Oracle refuses on the target
 * side (Database Error Messages, JZN-00413 "JSON_TRANSFORM called with '..' path step": its targets need not be
 * disjoint subtrees), and an item method, whose result is a computed value. Both fail ORA-40789 "JSON_TRANSFORM
 * operation invalid or not supported" (**unconfirmed**: which ORA- code Oracle reports the JZN error under, and
 * whether its message carries the JZN line).
 */
const checkTargetPath = (steps: ReadonlyArray<JsonPathStep>): void => {
  if (steps.some((s) => s.kind === "descendant" || s.kind === "method")) throw new OraError(40789, "JSON_TRANSFORM operation invalid or not supported")
}

/**
 * The places of a path ending in filters: the places the steps before them name whose value passes every filter (a
 * filter tests an array's elements, lax: the array passes when one does). So `REMOVE '$.items[*]?(@.x == 1)'` removes
 * the matching elements and `REMOVE '$.items?(@.x == 1)'` the whole array when an element matches (JSON Developer's
 * Guide 23ai, "JSON_TRANSFORM Operator REMOVE", Examples 13-26 and 13-27).
 */
const filteredLocations = (root: Node, steps: ReadonlyArray<JsonPathStep>): Array<Location> => {
  let end = steps.length
  while (end > 0 && steps[end - 1]!.kind === "filter") end--
  const doc = root as JsonNode
  const select = (from: JsonNode, relative: string) => selectPath(from, parsePath(`$${relative}`), doc)
  const passes = (v: JsonNode) =>
    steps.slice(end).every((f) => f.kind === "filter" && (v.kind === "array" ? v.items : [v]).some((item) => evalFilter(f.filter, item, doc, select) === true))
  return locations(root, steps.slice(0, end)).filter((l) => present(l) && passes(get(l) as JsonNode))
}

/** The places the last step of `steps` names under the values the steps before it select (lax: members of array elements). */
const locations = (root: Node, steps: ReadonlyArray<JsonPathStep>): Array<Location> => {
  const last = steps[steps.length - 1]
  if (last === undefined) throw new OraError(3001, "unimplemented feature: JSON_TRANSFORM of '$' with a filter")
  if (last.kind === "filter") return filteredLocations(root, steps)
  if (last.kind === "method" || last.kind === "descendant") throw new OraError(40789, "JSON_TRANSFORM operation invalid or not supported")
  const parents = selectPath(root as JsonNode, steps.slice(0, -1)) as Array<Node>
  const out: Array<Location> = []
  for (const p of parents) {
    if (last.kind === "member" || last.kind === "anyMember") {
      for (const o of p.kind === "array" ? p.items : [p]) {
        if (o.kind !== "object") continue
        if (last.kind === "member") out.push({ parent: o, name: last.name })
        else for (const [k] of o.fields) out.push({ parent: o, name: k })
      }
    } else if (p.kind === "array") {
      if (last.kind === "anyElement") p.items.forEach((_, i) => out.push({ parent: p, index: i }))
      else
        for (const [a, b] of last.ranges) {
          const at = (q: { last: boolean; offset: number }) => (q.last ? p.items.length - 1 - q.offset : q.offset)
          for (let i = Math.max(0, at(a)); i <= at(b); i++) out.push({ parent: p, index: i })
        }
    }
  }
  return out
}

const present = (l: Location): boolean => ("name" in l ? l.parent.fields.some(([k]) => k === l.name) : l.index < l.parent.items.length)
const get = (l: Location): Node | undefined => ("name" in l ? l.parent.fields.find(([k]) => k === l.name)?.[1] : l.parent.items[l.index])
const put = (l: Location, v: Node): void => {
  if ("name" in l) {
    const at = l.parent.fields.findIndex(([k]) => k === l.name)
    if (at >= 0) l.parent.fields[at] = [l.name, v]
    else l.parent.fields.push([l.name, v])
  } else {
    while (l.parent.items.length < l.index) l.parent.items.push({ kind: "null" })
    l.parent.items[l.index] = v
  }
}
const remove = (l: Location): void => {
  if ("name" in l) {
    const at = l.parent.fields.findIndex(([k]) => k === l.name)
    if (at >= 0) l.parent.fields.splice(at, 1)
  } else if (l.index < l.parent.items.length) l.parent.items.splice(l.index, 1)
}

/** KEEP: `root` with only the `kept` values and their ancestors; the top level emptied rather than removed. */
const keepOnly = (root: Node, kept: ReadonlySet<Node>): Node => {
  const prune = (n: Node): Node | undefined => {
    if (kept.has(n)) return n
    if (n.kind === "object") {
      const fields = n.fields.flatMap(([k, v]): Array<[string, Node]> => {
        const p = prune(v)
        return p === undefined ? [] : [[k, p]]
      })
      return fields.length > 0 ? { kind: "object", fields } : undefined
    }
    if (n.kind === "array") {
      const items = n.items.flatMap((v) => prune(v) ?? [])
      return items.length > 0 ? { kind: "array", items } : undefined
    }
    return undefined
  }
  return prune(root) ?? (root.kind === "array" ? { kind: "array", items: [] } : { kind: "object", fields: [] })
}

/** Applies one operation to `root` (changed in place; KEEP returns a new root). */
const apply = (root: Node, t: TransformOperation, values: ReadonlyArray<string | null>): Node => {
  const on = { ...DEFAULTS[t.op], ...t.on }
  if (t.paths.some(isStrictPath)) throw new OraError(3001, `unimplemented feature: JSON_TRANSFORM ${t.op} with a strict path`)
  if (t.op === "KEEP") return keepOnly(root, new Set(t.paths.flatMap((p) => selectPath(root as JsonNode, parsePath(p)) as Array<Node>)))
  const path = t.paths[0]!
  const steps = parsePath(path)
  checkTargetPath(steps)
  if (steps.length === 0) {
    if (t.op === "REMOVE") throw new OraError(40770, "removal of root value not allowed")
    throw new OraError(3001, `unimplemented feature: JSON_TRANSFORM ${t.op} '$'`)
  }
  const raw = t.value === undefined ? undefined : values[t.value]
  let value: Node | undefined
  if (raw !== undefined) {
    if (raw === null) {
      if (on["NULL"] === "IGNORE") return root
      if (on["NULL"] === "ERROR") throw new OraError(40803, "JSON_TRANSFORM operation called with NULL input")
      if (on["NULL"] === "REMOVE") {
        for (const l of locations(root, steps)) remove(l)
        return root
      }
      value = { kind: "null" }
    } else value = mutable(fromExtendedJson(raw))
  }
  const places = locations(root, steps)
  const found = places.filter(present)
  switch (t.op) {
    case "REMOVE":
      if (found.length === 0 && on["MISSING"] === "ERROR") throw missing(path)
      // positions from the last down, so that earlier ones keep their index
      for (const l of [...found].reverse()) remove(l)
      return root
    case "RENAME": {
      if (found.length === 0 && on["MISSING"] === "ERROR") throw missing(path)
      const name = value?.kind === "string" ? value.value : plainJson(value as JsonNode)
      for (const l of found) if ("name" in l) l.parent.fields = l.parent.fields.map(([k, v]): [string, Node] => [k === l.name ? name : k, v])
      return root
    }
    case "INSERT":
      for (const l of places) {
        if ("index" in l) {
          if (l.index <= l.parent.items.length) l.parent.items.splice(l.index, 0, value!)
          else put(l, value!)
        } else if (present(l)) {
          if (on["EXISTING"] === "ERROR") throw existing(path)
          if (on["EXISTING"] === "REPLACE") put(l, value!)
        } else put(l, value!)
      }
      if (places.length === 0) throw missing(path)
      return root
    case "APPEND": {
      if (found.length === 0) {
        if (on["MISSING"] === "ERROR") throw missing(path)
        if (on["MISSING"] === "CREATE") for (const l of places) put(l, { kind: "array", items: [value!] })
        return root
      }
      for (const l of found) {
        const target = get(l)!
        if (target.kind !== "array") throw new OraError(40769, `JSON_TRANSFORM APPEND: the value at '${path}' is not an array`)
        target.items.push(value!)
      }
      return root
    }
    default: {
      // REPLACE, SET
      if (found.length > 0) {
        if (on["EXISTING"] === "ERROR") throw existing(path)
        if (on["EXISTING"] !== "IGNORE") for (const l of found) put(l, value!)
        return root
      }
      if (on["MISSING"] === "ERROR") throw missing(path)
      if (on["MISSING"] === "CREATE") for (const l of places) put(l, value!)
      return root
    }
  }
}

/**
 * JSON_TRANSFORM of `doc` by `operations` (JSON text of {@link TransformOperation}s), their right-hand sides in
 * `values` (JSON text, NULL for SQL NULL): the result as a JSON column stores it when `asJson`, else standard JSON.
 */
export const jsonTransform = (doc: string, operations: string, values: ReadonlyArray<string | null>, asJson: boolean): string => {
  let root: Node
  try {
    root = mutable(fromExtendedJson(doc))
  } catch {
    throw new OraError(40441, "JSON syntax error")
  }
  for (const t of JSON.parse(operations) as Array<TransformOperation>) root = apply(root, t, values)
  return asJson ? toExtendedJson(root as JsonNode) : plainJson(root as JsonNode)
}


/** Registers `ora_json_transform(doc, operations, values, asJson)` over VARCHAR / JSON text and BLOB documents. */
export const registerJsonTransform = (connection: DuckDBConnection): void => {
  for (const doc of [VARCHAR, BLOB]) {
    connection.registerScalarFunction(
      fn("ora_json_transform", [doc, VARCHAR, LIST(VARCHAR), BOOLEAN], VARCHAR, ([d, ops, vs, j]) =>
        jsonTransform(documentText(d!), String(ops), (vs as DuckDBListValue).items.map((v) => (v === null ? null : String(v))), j === true)
      )
    )
  }
}
