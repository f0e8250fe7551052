/**
 * `TABLE(collection)` in a client's query (SQL Language Reference 23ai, "TABLE Collection Expressions"): over a
 * DbObject collection bind (`TABLE(:ids)`) or a stored function returning a collection, pipelined ones included
 * (`TABLE(f(args))`, `TABLE(pkg.f(args))`: PL/SQL Language Reference, "Pipelined Table Functions"). Each becomes an
 * inline query of the collection's elements in order, one row each (`COLUMN_VALUE` for scalars, one column per
 * attribute or field otherwise), the element values bound; the statement's other binds keep their values.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { isKw, isOp, matchParen, tokenize, type Tok } from "../lexer.ts"
import { namedTypeOfOid, namedTypesOf } from "../named-types.ts"
import type { BindSpec } from "../statement.ts"
import { oracleName } from "../translate.ts"
import type { Member } from "../type-shapes.ts"
import { PlsqlCollection } from "./collections.ts"
import type { PlsqlHost } from "./host.ts"
import { callFromSql } from "./interpreter.ts"
import { PlsqlRecord } from "./records.ts"
import { rowsOfQuery } from "./row-reader.ts"
import { callableFromSql } from "./stored-packages.ts"
import { quoteDuck } from "../names.ts"

/** A query's rows as PL/SQL values. */
const rowsOf = async (host: PlsqlHost, sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<Array<DuckDBValue>>> => {
  const result = await host.execute(sql, [params], [], { batchErrors: false, dmlRowCounts: false })
  if (result.kind !== "query") throw new OraError(900, "invalid SQL statement")
  return rowsOfQuery(host, result)
}

const NUMBER_SPEC: BindSpec = { dty: 2, csfrm: 0, maxSize: 22 }
const TEXT_SPEC: BindSpec = { dty: 1, csfrm: 1, maxSize: 4000 }

/** A DbObject bind's value (extended JSON text: named-types.ts readNamedBind) as plain element values. */
const jsonElements = (value: DuckDBValue): Array<unknown> | undefined => {
  if (typeof value !== "string" || !value.startsWith("[")) return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** A JSON value as a bind value: extended JSON wrappers (`{"$oracleDate": "..."}`) give their text. */
const plain = (v: unknown): DuckDBValue => {
  if (v === null || v === undefined) return null
  if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") return v
  if (typeof v === "object") {
    const inner = Object.values(v as Record<string, unknown>)[0]
    if (Object.keys(v as object).length === 1 && Object.keys(v as object)[0]!.startsWith("$")) return plain(inner)
  }
  return JSON.stringify(v)
}

/** The fields of an element (an object's attributes, a record's fields), or undefined for a scalar. */
const fieldsOf = (e: unknown): Array<[string, DuckDBValue]> | undefined => {
  if (e instanceof PlsqlRecord) return [...e.fields]
  if (e !== null && typeof e === "object" && !Object.keys(e).some((k) => k.startsWith("$"))) return Object.entries(e as Record<string, unknown>).map(([k, v]) => [k.toUpperCase(), plain(v)])
  return undefined
}

/**
 * `sql` with its `TABLE(:bind)` / `TABLE(f(args))` collections inlined, with the bind values and specs of the new
 * text; undefined when it has none.
 */
export const inlineClientTables = async (
  host: PlsqlHost,
  sql: string,
  params: ReadonlyArray<DuckDBValue>,
  specs: ReadonlyArray<BindSpec>
): Promise<{ sql: string; params: Array<DuckDBValue>; specs: Array<BindSpec> } | undefined> => {
  if (!/\b(TABLE\s*\(|MULTISET\b)/i.test(sql)) return undefined
  const toks = tokenize(sql)
  const sig = toks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  const s = sig.map((i) => toks[i]!)
  // the bind occurrence number of each significant token that is a bind
  const bindAt = new Map<number, number>()
  s.forEach((t, k) => t.kind === "bind" && bindAt.set(k, bindAt.size))
  let text = ""
  const outParams: Array<DuckDBValue> = []
  const outSpecs: Array<BindSpec> = []
  let changed = false
  let last = 0
  // significant tokens [from, to) as written, their binds with their values
  const emit = (from: number, to: number) => {
    let out = ""
    for (let k = from; k < to; k++) {
      const n = bindAt.get(k)
      if (n !== undefined) {
        outParams.push(params[n] ?? null)
        outSpecs.push(specs[n] ?? TEXT_SPEC)
      }
      out += `${s[k]!.text} `
    }
    return out
  }
  const keep = (to: number) => {
    text += emit(last, to)
    last = to
  }
  const value = (v: DuckDBValue) => {
    outParams.push(v)
    outSpecs.push(typeof v === "number" ? NUMBER_SPEC : TEXT_SPEC)
    return `:t${outParams.length}`
  }
  for (let k = 0; k < s.length; k++) {
    const combined = s[k]!.kind === "bind" && isKw(s[k + 1], "MULTISET") ? multisetOperation(s, k, bindAt, params, specs) : undefined
    if (combined !== undefined) {
      // :a MULTISET op :b of two collection binds: the collection type's constructor over the result
      keep(k)
      changed = true
      text += `${combined.type}(${combined.elements.map((e) => value(plain(e))).join(", ")}) `
      last = combined.end + 1
      k = combined.end
      continue
    }
    const multiset = isKw(s[k], "CAST") && isOp(s[k + 1], "(") && isKw(s[k + 2], "MULTISET") ? await castMultiset(host, s, k, bindAt, params) : undefined
    if (multiset !== undefined) {
      // CAST(MULTISET(query) AS type): the type's constructor over the query's rows
      keep(k)
      changed = true
      const element = (row: ReadonlyArray<DuckDBValue>) => (multiset.objectType === undefined ? value(row[0] ?? null) : `${multiset.objectType}(${row.map(value).join(", ")})`)
      text += `${multiset.type}(${multiset.rows.map(element).join(", ")}) `
      last = multiset.close + 1
      k = multiset.close
      continue
    }
    if (!isKw(s[k], "TABLE") || !isOp(s[k + 1], "(") || isOp(s[k - 1], ".")) continue
    const close = matchParen(s, k + 1)
    if (close < 0) continue
    let elements: Array<unknown> | undefined
    // a collection of DATEs: each element's stored text (bound-object-text.ts) read back as a DATE
    let scalar = (e: unknown) => value(plain(e))
    const inner = s.slice(k + 2, close)
    if (inner.length === 1 && inner[0]!.kind === "bind") {
      const n = bindAt.get(k + 2)!
      const oid = specs[n]?.oid
      const element = oid === undefined ? undefined : namedTypeOfOid(oid)?.element
      if (element !== undefined && "scalar" in element && element.scalar.kind === "date") scalar = (e) => `TO_DATE(${value(plain(e))}, 'YYYY-MM-DD HH24:MI:SS')`
      // a NUMBER is stored as its text (bound-object-text.ts), bound here as a number
      const numeric = (m: Member | undefined, v: unknown) => (m !== undefined && "scalar" in m && m.scalar.kind === "number" && typeof v === "string" ? Number(v) : v)
      // a collection of objects: each element an array of attribute values, named by the element type
      const attributes = element !== undefined && "named" in element ? element.named.attributes : undefined
      elements = jsonElements(params[n] ?? null)?.map((e) =>
        attributes !== undefined && Array.isArray(e) ? Object.fromEntries(attributes.map((a, i) => [a.name, numeric(a.member, e[i] ?? null)])) : numeric(element, e)
      )
      if (elements === undefined && (params[n] ?? null) === null) elements = []
    } else {
      const constructed = constructorArguments(host, s, k + 2, close)
      if (constructed !== undefined) {
        // TABLE(type(a, b, ...)) of a schema collection of scalars: one row per argument, computed by the query
        keep(k)
        changed = true
        const rows = constructed.map(([from, to]) => `SELECT ${emit(from, to)}AS COLUMN_VALUE FROM dual`)
        text += `(${rows.length === 0 ? "SELECT NULL AS COLUMN_VALUE FROM dual WHERE 1 = 0" : rows.join(" UNION ALL ")}) `
        last = close + 1
        k = close
        continue
      }
      const called = await calledFunction(host, s, k + 2, close, bindAt, params)
      if (called === undefined) continue
      elements = called
    }
    if (elements === undefined) continue
    keep(k)
    changed = true
    const rows = elements.map((e) => {
      const fields = fieldsOf(e)
      return fields === undefined ? `SELECT ${scalar(e)} AS COLUMN_VALUE FROM dual` : `SELECT ${fields.map(([f, v]) => `${value(v)} AS ${quoteDuck(f)}`).join(", ")} FROM dual`
    })
    text += `(${rows.length === 0 ? "SELECT NULL AS COLUMN_VALUE FROM dual WHERE 1 = 0" : rows.join(" UNION ALL ")}) `
    last = close + 1
    k = close
  }
  if (!changed) return undefined
  keep(s.length)
  return { sql: text.trimEnd(), params: outParams, specs: outSpecs }
}

/**
 * `CAST(MULTISET(query) AS type)` at `k` of `s` (SQL Language Reference, "CAST"): the collection type's name (and its
 * element object type's, for a collection of objects), the query's rows run now, and where the CAST ends. Undefined
 * when the type is no collection type the schema knows.
 */
const castMultiset = async (host: PlsqlHost, s: ReadonlyArray<Tok>, k: number, bindAt: ReadonlyMap<number, number>, params: ReadonlyArray<DuckDBValue>) => {
  const close = matchParen(s, k + 1)
  const open = k + 3
  if (close < 0 || !isOp(s[open], "(")) return undefined
  const end = matchParen(s, open)
  if (end < 0 || !isKw(s[end + 1], "AS")) return undefined
  const named = s.slice(end + 2, close)
  const owner = named.length === 3 && isOp(named[1], ".") ? oracleName(named[0]!) : undefined
  const name = named.length > 0 ? oracleName(named[named.length - 1]!) : ""
  const type = namedTypesOf(host.db).lookup(host.schema, owner, name)
  if (type === undefined || (type.kind !== "table" && type.kind !== "varray")) return undefined
  const element = type.element !== undefined && "named" in type.element && type.element.named.kind === "object" ? type.element.named : undefined
  const queryParams: Array<DuckDBValue> = []
  for (let j = open + 1; j < end; j++) if (bindAt.has(j)) queryParams.push(params[bindAt.get(j)!] ?? null)
  const rows = await rowsOf(host, s.slice(open + 1, end).map((t) => t.text).join(" "), queryParams)
  const qualified = (t: { schema: string; name: string }) => `"${t.schema}"."${t.name}"`
  return { type: qualified(type), objectType: element === undefined ? undefined : qualified(element), rows, close }
}

/**
 * `:a MULTISET UNION | INTERSECT | EXCEPT [ALL | DISTINCT] :b` at `k` of `s` over two collection binds of scalars
 * (SQL Language Reference, "Multiset Operators": ALL, the default, keeps duplicates; INTERSECT ALL keeps an element
 * as often as both hold it, EXCEPT ALL takes it away as often as the right one holds it): the result's elements, the
 * left bind's collection type and the last token. Undefined for other operands.
 */
const multisetOperation = (s: ReadonlyArray<Tok>, k: number, bindAt: ReadonlyMap<number, number>, params: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>) => {
  const op = s[k + 2]?.value
  if (op !== "UNION" && op !== "INTERSECT" && op !== "EXCEPT") return undefined
  const distinct = isKw(s[k + 3], "DISTINCT")
  const right = isKw(s[k + 3], "ALL", "DISTINCT") ? k + 4 : k + 3
  if (s[right]?.kind !== "bind") return undefined
  const operand = (at: number) => {
    const n = bindAt.get(at)!
    const oid = specs[n]?.oid
    const type = oid === undefined ? undefined : namedTypeOfOid(oid)
    const value = params[n] ?? null
    return { type, elements: value === null ? [] : jsonElements(value) }
  }
  const a = operand(k)
  const b = operand(right)
  if (a.type === undefined || a.elements === undefined || b.elements === undefined || (a.type.kind !== "table" && a.type.kind !== "varray")) return undefined
  const key = (e: unknown) => JSON.stringify(e)
  const counts = new Map<string, number>()
  for (const e of b.elements) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1)
  let elements: Array<unknown>
  if (op === "UNION") elements = [...a.elements, ...b.elements]
  else
    elements = a.elements.filter((e) => {
      const n = counts.get(key(e)) ?? 0
      if (op === "INTERSECT" && n > 0) counts.set(key(e), n - 1)
      if (op === "EXCEPT" && n > 0 && !distinct) counts.set(key(e), n - 1)
      return op === "INTERSECT" ? n > 0 : n === 0
    })
  if (distinct) elements = elements.filter((e, i) => elements.findIndex((x) => key(x) === key(e)) === i)
  return { type: `"${a.type.schema}"."${a.type.name}"`, elements, end: right }
}

/**
 * The argument ranges (significant tokens `[from, to)`) of `[owner.]type(args)` spanning tokens `from`..`to` of `s`
 * when `type` is a schema collection type of scalars (`sys.odcinumberlist(1, 2, 3)`); undefined otherwise.
 */
const constructorArguments = (host: PlsqlHost, s: ReadonlyArray<Tok>, from: number, to: number): Array<[number, number]> | undefined => {
  const qualified = isOp(s[from + 1], ".")
  const open = qualified ? from + 3 : from + 1
  const name = s[qualified ? from + 2 : from]
  if (name === undefined || (name.kind !== "ident" && name.kind !== "qident") || !isOp(s[open], "(") || matchParen(s, open) !== to - 1) return undefined
  const type = namedTypesOf(host.db).lookup(host.schema, qualified ? oracleName(s[from]!) : undefined, oracleName(name))
  if (type === undefined || (type.kind !== "table" && type.kind !== "varray") || type.element === undefined || !("scalar" in type.element)) return undefined
  const ranges: Array<[number, number]> = []
  let start = open + 1
  let depth = 0
  for (let j = open + 1; j < to - 1; j++) {
    if (isOp(s[j], "(")) depth++
    else if (isOp(s[j], ")")) depth--
    else if (depth === 0 && isOp(s[j], ",")) {
      ranges.push([start, j])
      start = j + 1
    }
  }
  if (to - 1 > open + 1) ranges.push([start, to - 1])
  return ranges
}

/** The elements of `TABLE(f(args))` (tokens `from`..`to` of `s`) when `f` is a stored function returning a collection. */
const calledFunction = async (
  host: PlsqlHost,
  s: ReadonlyArray<Tok>,
  from: number,
  to: number,
  bindAt: ReadonlyMap<number, number>,
  params: ReadonlyArray<DuckDBValue>
): Promise<Array<unknown> | undefined> => {
  const names: Array<string> = []
  let k = from
  while (s[k] !== undefined && (s[k]!.kind === "ident" || s[k]!.kind === "qident")) {
    names.push(oracleName(s[k]!))
    if (!isOp(s[k + 1], ".")) break
    k += 2
  }
  const open = k + 1
  if (names.length === 0 || names.length > 3 || !isOp(s[open], "(") || matchParen(s, open) !== to - 1) return undefined
  const fn = names.length === 1 ? callableFromSql(host, host.schema, names[0]!) : callableFromSql(host, names[names.length - 2]!, names[names.length - 1]!)
  if (fn === undefined || fn.isFunction !== true) return undefined
  // the arguments, evaluated as a query's select list with their binds
  const argText = s.slice(open + 1, to - 1)
  let args: Array<DuckDBValue> = []
  if (argText.length > 0) {
    const argParams: Array<DuckDBValue> = []
    for (let j = open + 1; j < to - 1; j++) if (bindAt.has(j)) argParams.push(params[bindAt.get(j)!] ?? null)
    const [row] = await rowsOf(host, `SELECT ${argText.map((t) => t.text).join(" ")} FROM dual`, argParams)
    args = row ?? []
  }
  const result = await callFromSql(host, fn, args)
  if (result === null) return []
  if (!(result instanceof PlsqlCollection)) throw new OraError(22905, "cannot access rows from a non-nested table item")
  return result.keys().map((i) => result.get(i))
}

/**
 * A client's query (`sql`, `params`, `specs`) with its `TABLE(:collection)` / `TABLE(f(args))` inlined: the arguments
 * the session's query takes.
 */
export const withTableCollections = async (
  host: PlsqlHost,
  sql: string,
  params: ReadonlyArray<DuckDBValue>,
  specs: ReadonlyArray<BindSpec>
): Promise<[string, ReadonlyArray<DuckDBValue>, ReadonlyArray<BindSpec>]> => {
  const tabled = await inlineClientTables(host, sql, params, specs)
  return tabled === undefined ? [sql, params, specs] : [tabled.sql, tabled.params, tabled.specs]
}

/**
 * A client's DML with its `TABLE(:collection)` (and the rest above) inlined when it runs once (one bind row); an
 * executeMany runs as written.
 */
export const withTableCollectionRows = async (
  host: PlsqlHost,
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  specs: ReadonlyArray<BindSpec>
): Promise<[string, ReadonlyArray<ReadonlyArray<DuckDBValue>>, ReadonlyArray<BindSpec>]> => {
  const tabled = rows.length > 1 ? undefined : await inlineClientTables(host, sql, rows[0] ?? [], specs)
  return tabled === undefined ? [sql, rows, specs] : [tabled.sql, [tabled.params], tabled.specs]
}
