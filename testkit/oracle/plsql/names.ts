/**
 * The values PL/SQL names have in an expression: variables, record fields, collection elements and methods, binds,
 * cursor attributes, SQL%ROWCOUNT / SQL%BULK_ROWCOUNT / SQL%BULK_EXCEPTIONS, SQLCODE and SQLERRM. Synchronous: no SQL.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora } from "../errors.ts"
import { isKw, isOp } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import { BIND_ARRAY, collectionOfBind, type CollectionType, initialized, PlsqlCollection } from "./collections.ts"
import type { Collection, Frame, PlsqlValue, Value } from "./context.ts"
import { collectionType } from "./conversion.ts"
import { DBMS_LOB_CONSTANTS } from "./dbms-lob-functions.ts"
import { DBMS_LOCK_CONSTANTS } from "./dbms-lock.ts"
import { dbmsUtilityValue } from "./dbms-utility.ts"
import { PlsCompileError, valueError } from "./errors.ts"
import { PlsqlJson } from "./json-dom.ts"
import { fastEvaluate } from "./fast-eval.ts"
import { objectTypeOf, readAttributes } from "./object-values.ts"
import { PlsqlRecord } from "./records.ts"
import { isCursorValue } from "./row-reader.ts"
import { labelled, line, lookup, notDeclared, packageVariable } from "./scope.ts"

/**
 * A subscript or method argument, computed without the SQL engine (nameValue is synchronous): a literal, a name, or
 * whole-number arithmetic.
 */
export function subscript(ctx: Frame, toks: Expr): number | string {
  const single = toks.length === 1 ? toks[0]! : undefined
  if (single?.kind === "str") return single.value
  const named = toks.length > 0 ? nameValue(ctx, toks, 0) : undefined
  const v = named !== undefined && named.width === toks.length ? named.value : fastEvaluate(toks, (tt, at) => nameValue(ctx, tt, at))
  if (v === null) throw valueError("NULL index table key value")
  if (typeof v === "number" || typeof v === "string") return v
  throw ora.unimplemented("a collection subscript other than a literal, a variable or whole-number arithmetic")
}

/** A collection element or method (`c(i)`, `c(i).field`, `c.COUNT`, `c.NEXT(i)`) at `at`, `c` being a collection variable. */
function collectionValue(ctx: Frame, toks: Expr, at: number, type: CollectionType, value: Value): { value: Value; width: number } | undefined {
  const next = toks[at + 1]
  if (isOp(next, "(")) {
    const close = closingParen(toks, at + 1)
    const element = initialized(value as Collection | null).get(subscript(ctx, toks.slice(at + 2, close)))
    if (element instanceof PlsqlRecord && isOp(toks[close + 1], ".") && toks[close + 2] !== undefined) {
      const field = fieldOf(ctx, element, toks, close + 2)
      return { value: field.value, width: close + 2 + field.width - at }
    }
    // c(i).attr of a collection of objects
    const object = isOp(toks[close + 1], ".") && toks[close + 2] !== undefined ? objectTypeOf(ctx, type.element) : undefined
    if (object !== undefined) {
      const attribute = readAttributes(ctx, object, element, toks, close)
      return { value: attribute.value, width: close - at + attribute.width }
    }
    return { value: element, width: close + 1 - at }
  }
  if (!isOp(next, ".") || toks[at + 2] === undefined) return { value, width: 1 }
  const method = oracleName(toks[at + 2]!)
  const args = isOp(toks[at + 3], "(") ? closingParen(toks, at + 3) : undefined
  const width = args === undefined ? 3 : args + 1 - at
  const arg = () => (args === undefined ? null : subscript(ctx, toks.slice(at + 4, args)))
  if (method === "EXISTS") return { value: value instanceof PlsqlCollection ? value.exists(arg()!) : false, width }
  if (method === "LIMIT") return { value: type.limit ?? null, width }
  const c = initialized(value as Collection | null)
  switch (method) {
    case "COUNT":
      return { value: c.count, width }
    case "FIRST":
      return { value: c.first, width }
    case "LAST":
      return { value: c.last, width }
    case "NEXT":
      return { value: c.next(arg()!), width }
    case "PRIOR":
      return { value: c.prior(arg()!), width }
  }
  throw new PlsCompileError(ctx.source, toks[at + 2]!.pos, 302, `component '${method}' must be declared`)
}

/**
 * The field of `record` named at `at`, and the fields of the records or the attributes of the objects it holds named
 * after it (`r.e.name`: a record's field may be a record, "PL/SQL Language Reference", "Record Variables"); the width
 * counts from `at`. PLS-00302 for a field the record does not have.
 */
function fieldOf(ctx: Frame, record: PlsqlRecord, toks: Expr, at: number): { value: Value; width: number } {
  const field = oracleName(toks[at]!)
  if (!record.fields.has(field)) throw new PlsCompileError(ctx.source, toks[at]!.pos, 302, `component '${field}' must be declared`)
  const value = record.fields.get(field) ?? null
  if (!isOp(toks[at + 1], ".") || toks[at + 2] === undefined) return { value, width: 1 }
  if (value instanceof PlsqlRecord) {
    const inner = fieldOf(ctx, value, toks, at + 2)
    return { value: inner.value, width: inner.width + 2 }
  }
  // `r.p.attr`: an attribute of a record field of an object type
  const declared = record.type?.fields.find((f) => f.name === field)?.type
  const fieldObject = objectTypeOf(ctx, declared)
  if (fieldObject !== undefined) return readAttributes(ctx, fieldObject, value, toks, at)
  return { value, width: 1 }
}

// --- expressions -------------------------------------------------------------------------------------------------

/** The value of a single name: variable, record field, bind, cursor attribute; undefined when `toks` is none. */
export function nameValue(ctx: Frame, toks: Expr, at: number): { value: Value; width: number } | undefined {
  const t = toks[at]!
  const next = toks[at + 1]
  const called = t.kind === "bind" ? ctx.callResults.get(t.value) : undefined
  if (called !== undefined) return { value: called.value, width: 1 }
  if (t.kind === "bind") {
    const idx = ctx.binds.binds.get(t.value)
    if (idx === undefined) throw ora.notAllBound()
    ctx.binds.read.add(idx)
    const value = ctx.binds.values[idx] ?? null
    // an index-by array bind (oracledb's `val: [...]`) reads as a collection: `:arr(i)`, `:arr.COUNT` as a variable's
    const array = Array.isArray(value) || (value === null && ctx.binds.specs?.[idx]?.maxArrayElements !== undefined) ? (collectionOfBind((value ?? []) as Array<DuckDBValue>) as Collection) : undefined
    if (array !== undefined && (isOp(next, "(") || isOp(next, "."))) return collectionValue(ctx, toks, at, BIND_ARRAY, array)
    return { value: array ?? (value as Value), width: 1 }
  }
  if (t.kind !== "ident" && t.kind !== "qident") return undefined
  if (isOp(toks[at - 1], ".")) return undefined
  const name = oracleName(t)
  if (name === "SQL" && isOp(next, "%") && isKw(toks[at + 2], "BULK_EXCEPTIONS")) {
    if (isOp(toks[at + 3], ".") && isKw(toks[at + 4], "COUNT")) return { value: ctx.bulkExceptions.length, width: 5 }
    if (isOp(toks[at + 3], "(")) {
      const close = closingParen(toks, at + 3)
      const field = isOp(toks[close + 1], ".") ? toks[close + 2] : undefined
      if (field === undefined || !isKw(field, "ERROR_INDEX", "ERROR_CODE")) throw new PlsCompileError(ctx.source, toks[at + 2]!.pos, 302, "component 'BULK_EXCEPTIONS' must be declared")
      const entry = ctx.bulkExceptions[Number(subscript(ctx, toks.slice(at + 4, close))) - 1]
      if (entry === undefined) throw ora.noDataFound()
      return { value: isKw(field, "ERROR_INDEX") ? entry.index : entry.code, width: close + 3 - at }
    }
  }
  if (name === "SQL" && isOp(next, "%") && isKw(toks[at + 2], "BULK_ROWCOUNT") && isOp(toks[at + 3], "(")) {
    const close = closingParen(toks, at + 3)
    return { value: ctx.bulkRowCounts.get(subscript(ctx, toks.slice(at + 4, close))) ?? 0, width: close + 1 - at }
  }
  if (isOp(next, "%") && isKw(toks[at + 2], "FOUND", "NOTFOUND", "ROWCOUNT", "ISOPEN")) {
    const attr = toks[at + 2]!.value
    if (name === "SQL") {
      const n = ctx.sqlRowCount
      const value = attr === "ROWCOUNT" ? n : attr === "ISOPEN" ? false : n === null ? null : attr === "FOUND" ? n > 0 : n === 0
      return { value, width: 3 }
    }
    const slot = lookup(ctx, name)
    if (slot === undefined) notDeclared(ctx, t)
    const reader = slot.k === "cursor" ? slot.reader : slot.k === "var" && isCursorValue(slot.value) ? ctx.readers.get(slot.value) : undefined
    if (attr === "ISOPEN") return { value: reader !== undefined, width: 3 }
    if (reader === undefined) throw ora.invalidCursor()
    const value = attr === "ROWCOUNT" ? reader.count : reader.found === null ? null : attr === "FOUND" ? reader.found : !reader.found
    return { value, width: 3 }
  }
  const slot = lookup(ctx, name)
  if (slot?.k === "var") {
    const collection = slot.value instanceof PlsqlCollection ? slot.value.type : collectionType(ctx, slot.type)
    if (collection !== undefined) return collectionValue(ctx, toks, at, collection, slot.value)
  }
  if (isOp(next, "(")) return undefined
  if (slot?.k === "var") {
    if (slot.value instanceof PlsqlRecord && isOp(next, ".") && toks[at + 2] !== undefined) {
      const field = fieldOf(ctx, slot.value, toks, at + 2)
      return { value: field.value, width: field.width + 2 }
    }
    const object = isOp(next, ".") && toks[at + 2] !== undefined ? objectTypeOf(ctx, slot.type) : undefined
    if (object !== undefined) return readAttributes(ctx, object, slot.value, toks, at)
    if (isOp(next, ".")) return undefined
    return { value: slot.value, width: 1 }
  }
  if (slot === undefined && isOp(next, ".") && toks[at + 2] !== undefined) {
    const inner = labelled(ctx, name, oracleName(toks[at + 2]!)) ?? packageVariable(ctx, name, oracleName(toks[at + 2]!))
    if (inner?.k === "var") {
      // `pkg.c(i)`, `pkg.c.COUNT`, `pkg.r.field`: the element, method or field of a package's (or outer block's) variable
      const collection = inner.value instanceof PlsqlCollection ? inner.value.type : collectionType(ctx, inner.type)
      if (collection !== undefined) {
        const element = collectionValue(ctx, toks, at + 2, collection, inner.value)
        return element === undefined ? undefined : { value: element.value, width: element.width + 2 }
      }
      if (inner.value instanceof PlsqlRecord && isOp(toks[at + 3], ".") && toks[at + 4] !== undefined) {
        const field = fieldOf(ctx, inner.value, toks, at + 4)
        return { value: field.value, width: field.width + 4 }
      }
      return { value: inner.value, width: 3 }
    }
  }
  if (slot === undefined && !isOp(next, ".")) {
    if (name === "SQLCODE") return { value: ctx.handling.at(-1)?.sqlcode ?? 0, width: 1 }
    if (name === "SQLERRM") return { value: ctx.handling.at(-1)?.sqlerrm ?? "ORA-0000: normal, successful completion", width: 1 }
  }
  if (slot === undefined && name === "DBMS_LOCK" && isOp(next, ".") && !isOp(toks[at + 3], "(")) {
    const constant = DBMS_LOCK_CONSTANTS.get(toks[at + 2]?.value ?? "")
    if (constant !== undefined) return { value: constant, width: 3 }
  }
  if (slot === undefined && name === "DBMS_LOB" && isOp(next, ".") && !isOp(toks[at + 3], "(")) {
    const constant = DBMS_LOB_CONSTANTS.get(toks[at + 2]?.value ?? "")
    if (constant !== undefined) return { value: constant, width: 3 }
  }
  if (slot === undefined && name === "DBMS_UTILITY" && isOp(next, ".")) {
    const value = dbmsUtilityValue(toks[at + 2]?.value, ctx.handling.at(-1), line(ctx))
    if (value !== undefined) return { value, width: isOp(toks[at + 3], "(") && isOp(toks[at + 4], ")") ? 5 : 3 }
  }
  return undefined
}

/** The value a variable or bind names as it is (a cursor too), undefined when the expression is no such name. */
export function valueOf(ctx: Frame, expr: Expr): PlsqlValue | undefined {
  const found = expr.length > 0 ? nameValue(ctx, expr, 0) : undefined
  if (found === undefined || found.width !== expr.length || found.value instanceof PlsqlRecord || found.value instanceof PlsqlCollection || found.value instanceof PlsqlJson) return undefined
  return found.value
}

/** The position of the `)` that closes the `(` at `open` (the last token when it is missing). */
export const closingParen = (toks: Expr, open: number): number => {
  let depth = 0
  for (let k = open; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")") && --depth === 0) return k
  }
  return toks.length - 1
}
