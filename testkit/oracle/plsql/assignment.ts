/** Assignment to variables, record fields, collection elements and binds; INTO lists of one row and BULK COLLECT; the collection methods that change a collection. */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora, OraError } from "../errors.ts"
import { isOp } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import { BIND_ARRAY, bindArrayOf, collectionOfBind, type CollectionType, initialized, PlsqlCollection } from "./collections.ts"
import type { Collection, Frame, PlsqlValue, Value } from "./context.ts"
import { coerce, coerceField, collectionTarget, declaredFieldType, collectionType, collectionVar, fieldType, newElementRecord, recordElements, recordOfRow, recordType, retype } from "./conversion.ts"
import { PlsCompileError, valueError } from "./errors.ts"
import { PlsqlJson } from "./json-dom.ts"
import { evaluate } from "./expressions.ts"
import { closingParen, subscript } from "./names.ts"
import { objectTypeOf, writeAttribute } from "./object-values.ts"
import { storedOfBindValue } from "./package-type-binds.ts"
import { copyOf, PlsqlRecord } from "./records.ts"
import { collectionOfStored, isSchemaCollection, storedOfCollection } from "./schema-collections.ts"
import { labelled, line, lookup, notDeclared, packageVariable } from "./scope.ts"

/** `c.EXTEND [(n)]`, `c.TRIM [(n)]`, `c.DELETE [(i [, j])]`; false when the call is no collection method. */
export async function collectionMethod(ctx: Frame, parts: ReadonlyArray<string>, args: ReadonlyArray<Expr>): Promise<boolean> {
  if (parts.length !== 2) return false
  const found = collectionVar(ctx, parts[0]!)
  if (found === undefined) return false
  const c = initialized(found.slot.value as Collection | null)
  const values: Array<number | string> = []
  for (const a of args) {
    const v = await evaluate(ctx, a)
    if (typeof v !== "number" && typeof v !== "string") throw valueError("NULL index table key value")
    values.push(v)
  }
  const count = Number(values[0] ?? 1)
  switch (parts[1]) {
    case "EXTEND":
      c.extend(count, () => newElementRecord(ctx, found.type) ?? null)
      return true
    case "TRIM":
      c.trim(count)
      return true
    case "DELETE":
      c.delete(values[0], values[1])
      return true
  }
  throw new PlsCompileError(ctx.source, ctx.pos, 302, `component '${parts[1]!}' must be declared`)
}

/** A collection of `type` holding rows (records when its elements are %ROWTYPE, else column `column`'s values). */
function collectionOfRows(ctx: Frame, type: CollectionType, names: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, column: number | undefined): Collection {
  const c: Collection = new PlsqlCollection(type)
  const elements = recordElements(ctx, type)
  const record = typeof elements === "object" ? elements : undefined
  for (const row of rows) {
    if (column !== undefined) c.push(coerce(ctx, type.element, row[column] ?? null) as DuckDBValue)
    else c.push(record === undefined ? new PlsqlRecord(new Map(names.map((n, i) => [n, row[i] ?? null]))) : recordOfRow(ctx, record, row))
  }
  return c
}

/** BULK COLLECT INTO targets: one collection of records, or one collection per column. */
export function assignBulk(ctx: Frame, targets: ReadonlyArray<Expr>, names: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): void {
  const collections = targets.map((t) => {
    const found = collectionTarget(ctx, t)
    if (found === undefined) throw new PlsCompileError(ctx.source, t[0]?.pos ?? ctx.pos, 403, `expression '${t.map((x) => x.text).join("")}' cannot be used as an INTO-target of a SELECT/FETCH statement`)
    return found
  })
  const only = collections.length === 1 && recordElements(ctx, collections[0]!.type) !== false ? collections[0]! : undefined
  if (only !== undefined) {
    only.slot.value = collectionOfRows(ctx, only.type, names, rows, undefined)
    return
  }
  if (collections.length !== names.length) throw new OraError(6550, `line ${line(ctx)}, column 1:\nPLS-00394: wrong number of values in the INTO list of a FETCH statement`)
  collections.forEach((f, i) => {
    f.slot.value = collectionOfRows(ctx, f.type, names, rows, i)
  })
}

/** Assigns to a variable, record field, collection element or bind (`target` is the target's tokens). */
export function assign(ctx: Frame, target: Expr, value: Value): void {
  const t = target[0]
  if (t === undefined) throw ora.missingExpression()
  if (t.kind === "bind" && target.length === 1) {
    const idx = ctx.binds.binds.get(t.value)
    if (idx === undefined) throw ora.notAllBound()
    // a record or collection assigned to a DbObject bind of its type (package-type-binds.ts)
    if ((value instanceof PlsqlRecord || value instanceof PlsqlCollection) && ctx.binds.specs?.[idx]?.oid !== undefined && (value instanceof PlsqlRecord || storedOfCollection(value) === undefined)) {
      ctx.binds.values[idx] = storedOfBindValue(value)
      ctx.binds.assigned.add(idx)
      return
    }
    // an instance of a PL/SQL JSON object type has no SQL type a bind could carry
    if (value instanceof PlsqlJson) throw new PlsCompileError(ctx.source, t.pos, 382, "expression is of wrong type")
    const c = value instanceof PlsqlCollection ? value : undefined
    if (c !== undefined && c.keys().some((k) => c.get(k) instanceof PlsqlRecord)) throw ora.unimplemented("a collection of records as a bind value")
    // a schema collection goes out as its stored text (a DbObject bind), any other as an array bind's elements
    const stored = value instanceof PlsqlCollection ? storedOfCollection(value) : undefined
    ctx.binds.values[idx] = stored !== undefined ? stored : value instanceof PlsqlCollection ? (bindArrayOf(value) as unknown as PlsqlValue) : value instanceof PlsqlRecord ? null : value
    ctx.binds.assigned.add(idx)
    return
  }
  // `:arr(i) := v`: an element of an index-by array bind, which goes back with its elements in subscript order
  if (t.kind === "bind" && isOp(target[1], "(")) {
    const idx = ctx.binds.binds.get(t.value)
    if (idx === undefined) throw ora.notAllBound()
    const current = ctx.binds.values[idx] ?? null
    if (current !== null && !Array.isArray(current)) throw new PlsCompileError(ctx.source, t.pos, 103, "invalid assignment target")
    if (Array.isArray(current) && current.length > 0) ctx.binds.read.add(idx)
    const c = collectionOfBind((current ?? []) as Array<DuckDBValue>)
    assignElement(ctx, target, BIND_ARRAY, c as Collection, value)
    ctx.binds.values[idx] = bindArrayOf(c) as unknown as PlsqlValue
    ctx.binds.assigned.add(idx)
    return
  }
  const name = oracleName(t)
  // pkg.c(i) := v: an element of a package's collection (its instance made by an earlier reference)
  const packaged = lookup(ctx, name) === undefined && isOp(target[1], ".") && target[2] !== undefined && isOp(target[3], "(") ? packageVariable(ctx, name, oracleName(target[2])) : undefined
  if (packaged?.k === "var") {
    const type = packaged.value instanceof PlsqlCollection ? packaged.value.type : collectionType(ctx, packaged.type)
    if (type !== undefined) return assignElement(ctx, target.slice(2), type, packaged.value as Collection | null, value)
  }
  // pkg.r.f := v, pkg.r.e.f := v, pkg.o.attr := v: a field of a package's record variable, an attribute of its object
  const member = lookup(ctx, name) === undefined && target.length >= 5 && isOp(target[1], ".") && target[2] !== undefined && isOp(target[3], ".") ? packageVariable(ctx, name, oracleName(target[2])) : undefined
  if (member?.k === "var" && member.value instanceof PlsqlRecord) return assignField(ctx, member.value, target, 4, value)
  const memberObject = member?.k === "var" && target.length === 5 ? objectTypeOf(ctx, member.type) : undefined
  if (member?.k === "var" && memberObject !== undefined) {
    if (value instanceof PlsqlRecord || value instanceof PlsqlCollection) throw new PlsCompileError(ctx.source, t.pos, 382, "expression is of wrong type")
    member.value = writeAttribute(ctx, memberObject, member.value, oracleName(target[4]!), value as DuckDBValue, target[4]!.pos)
    return
  }
  const slot = lookup(ctx, name) ?? (target.length === 3 && isOp(target[1], ".") ? (labelled(ctx, name, oracleName(target[2]!)) ?? packageVariable(ctx, name, oracleName(target[2]!))) : undefined)
  if (slot === undefined) notDeclared(ctx, t)
  if (slot.k !== "var") throw new PlsCompileError(ctx.source, t.pos, 321, `expression '${name}' inappropriate as the left hand side of an assignment statement`)
  if (slot.constant) throw new PlsCompileError(ctx.source, t.pos, 363, `expression '${name}' cannot be used as an assignment target`)
  const collection = slot.value instanceof PlsqlCollection ? slot.value.type : collectionType(ctx, slot.type)
  if (collection !== undefined && isOp(target[1], "(")) return assignElement(ctx, target, collection, slot.value as Collection | null, value)
  if (collection !== undefined && value instanceof PlsqlCollection && value.type === BIND_ARRAY) value = retype(ctx, value, collectionType(ctx, slot.type) ?? collection)
  if (collection !== undefined && typeof value === "string" && isSchemaCollection(collection)) value = collectionOfStored(collection, value)
  if (collection !== undefined && target.length === 1 && value !== null && !(value instanceof PlsqlCollection && value.type === collection)) {
    throw new PlsCompileError(ctx.source, t.pos, 382, "expression is of wrong type")
  }
  const object = target.length === 3 && isOp(target[1], ".") && lookup(ctx, name) === slot ? objectTypeOf(ctx, slot.type) : undefined
  if (object !== undefined) {
    if (value instanceof PlsqlRecord || value instanceof PlsqlCollection) throw new PlsCompileError(ctx.source, t.pos, 382, "expression is of wrong type")
    slot.value = writeAttribute(ctx, object, slot.value, oracleName(target[2]!), value as DuckDBValue, target[2]!.pos)
    return
  }
  if (target.length >= 3 && isOp(target[1], ".") && slot.value instanceof PlsqlRecord && lookup(ctx, name) === slot) return assignField(ctx, slot.value, target, 2, value)
  if (target.length !== 1 && !(target.length === 3 && lookup(ctx, name) === undefined)) throw new PlsCompileError(ctx.source, t.pos, 103, "invalid assignment target")
  // a record comes back from coerce as a copy; a collection is copied here (assigning one copies it)
  const converted = coerce(ctx, slot.type, value)
  slot.value = converted instanceof PlsqlCollection ? copyOf(converted) : converted
}

/** `c(i) := v` or `c(i).field := v`. */
function assignElement(ctx: Frame, target: Expr, type: CollectionType, value: Collection | null, v: Value): void {
  const c = initialized(value)
  const close = closingParen(target, 1)
  const key = subscript(ctx, target.slice(2, close))
  if (close === target.length - 1) {
    c.set(key, v instanceof PlsqlRecord ? v.copy() : (copyOf(coerce(ctx, type.element, v)) as DuckDBValue))
    return
  }
  // c(i).attr := v of a collection of objects: ORA-06530 when the element is NULL (writeAttribute)
  const object = objectTypeOf(ctx, type.element)
  if (object !== undefined && isOp(target[close + 1], ".") && target[close + 2] !== undefined && target.length === close + 3) {
    if (v instanceof PlsqlRecord || v instanceof PlsqlCollection) throw new PlsCompileError(ctx.source, target[0]!.pos, 382, "expression is of wrong type")
    c.set(key, writeAttribute(ctx, object, c.get(key), oracleName(target[close + 2]!), v as DuckDBValue, target[close + 2]!.pos))
    return
  }
  // a field assigned in a missing element of an associative array of records makes the element
  const record = type.kind === "assoc" && !c.exists(key) ? newElementRecord(ctx, type) : undefined
  if (record !== undefined) c.set(key, record)
  const element = c.get(key)
  if (!(element instanceof PlsqlRecord) || !isOp(target[close + 1], ".") || target[close + 2] === undefined) {
    throw new PlsCompileError(ctx.source, target[0]!.pos, 103, "invalid assignment target")
  }
  assignField(ctx, element, target, close + 2, v)
}

/**
 * `r.f := v`, and `r.e.f := v` through a field that is itself a record (or `r.p.attr := v` into a field of an object
 * type): the field named at `at` of `record`, or the field or attribute named after it.
 */
function assignField(ctx: Frame, record: PlsqlRecord, target: Expr, at: number, v: Value): void {
  const field = oracleName(target[at]!)
  if (!record.fields.has(field)) throw new PlsCompileError(ctx.source, target[at]!.pos, 302, `component '${field}' must be declared`)
  if (at === target.length - 1) {
    record.fields.set(field, coerceField(ctx, record, field, v))
    return
  }
  const next = target[at + 2]
  if (!isOp(target[at + 1], ".") || next === undefined) throw new PlsCompileError(ctx.source, target[0]!.pos, 103, "invalid assignment target")
  const inner = record.fields.get(field) ?? null
  const declared = record.type?.fields.find((f) => f.name === field)
  const object = declared === undefined ? undefined : objectTypeOf(ctx, declaredFieldType(ctx, declared))
  if (object !== undefined && at + 2 === target.length - 1) {
    if (v instanceof PlsqlRecord || v instanceof PlsqlCollection) throw new PlsCompileError(ctx.source, target[0]!.pos, 382, "expression is of wrong type")
    record.fields.set(field, writeAttribute(ctx, object, inner, oracleName(next), v as DuckDBValue, next.pos))
    return
  }
  if (!(inner instanceof PlsqlRecord)) throw new PlsCompileError(ctx.source, target[0]!.pos, 103, "invalid assignment target")
  assignField(ctx, inner, target, at + 2, v)
}

/** Assigns one fetched row to INTO targets: one record, or one target per column. */
export function assignRow(ctx: Frame, targets: ReadonlyArray<Expr>, names: ReadonlyArray<string>, row: ReadonlyArray<DuckDBValue>): void {
  const only = targets.length === 1 && targets[0]!.length === 1 ? lookup(ctx, oracleName(targets[0]![0]!)) : undefined
  if (only?.k === "var" && only.value instanceof PlsqlRecord) {
    only.value = only.value.type !== undefined ? recordOfRow(ctx, only.value.type, row) : new PlsqlRecord(new Map(names.map((n, i) => [n, row[i] ?? null])), undefined, only.value.kinds)
    return
  }
  if (targets.length !== row.length) throw new OraError(6550, `line ${line(ctx)}, column 1:\nPLS-00394: wrong number of values in the INTO list of a FETCH statement`)
  targets.forEach((t, i) => assign(ctx, t, row[i] ?? null))
}

/** Whether an assignment target is a variable (or record field) of a NOT NULL type: a NULL literal into it is PLS-00382. */
export function notNullTarget(ctx: Frame, target: Expr): boolean {
  const slot = target[0] !== undefined && target[0].kind !== "bind" ? lookup(ctx, oracleName(target[0])) : undefined
  if (slot?.k !== "var") return false
  if (target.length === 1) return slot.type?.kind === "named" && slot.type.notNull === true
  const field = target.length === 3 && isOp(target[1], ".") && slot.value instanceof PlsqlRecord ? slot.value.type?.fields.find((f) => f.name === oracleName(target[2]!)) : undefined
  return field !== undefined && fieldType(ctx, field).kind === "named" && (fieldType(ctx, field) as { notNull?: boolean }).notNull === true
}

/** RETURNING ... BULK COLLECT INTO: the returned columns (one array per expression) as rows into the collections. */
export function assignReturnedBulk(ctx: Frame, targets: ReadonlyArray<Expr>, columns: ReadonlyArray<ReadonlyArray<unknown>>, count: number): void {
  // one row per row written, or one for them all when RETURNING aggregates them (`RETURNING SUM(x) BULK COLLECT INTO`)
  const rows = Array.from({ length: columns[0]?.length ?? count }, (_, r) => targets.map((_, i) => (columns[i]?.[r] ?? null) as DuckDBValue))
  assignBulk(ctx, targets, targets.map((t) => t.map((x) => x.text).join("")), rows)
}
