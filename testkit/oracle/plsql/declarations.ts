/** A block's DECLARE section: variables (initial values, NOT NULL, %TYPE / %ROWTYPE), cursors, exceptions, types, subprograms. */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Decl, TypeSpec } from "./ast.ts"
import { PlsqlCollection } from "./collections.ts"
import type { Frame, Slot, Value } from "./context.ts"
import { coerce, collectionType, declaredFieldType, recordType, resolveType } from "./conversion.ts"
import { emptyRecord } from "./cursors.ts"
import { PlsCompileError } from "./errors.ts"
import { evaluate, evaluateValue } from "./expressions.ts"
import { jsonTypeOf } from "./json-dom.ts"
import { packageMember } from "./package-instances.ts"
import { PlsqlRecord, type RecordType } from "./records.ts"
import { toSchemaCollection } from "./schema-collections.ts"

/** Adds one declaration of a DECLARE section to the block's names. */
export async function declare(ctx: Frame, names: Map<string, Slot>, d: Decl): Promise<void> {
  switch (d.k) {
    case "exception":
      names.set(d.name, { k: "exception", ex: { name: d.name } })
      return
    case "exceptionInit": {
      const slot = names.get(d.name)
      if (slot?.k !== "exception") throw new PlsCompileError(ctx.source, d.pos, 109, `unknown exception name '${d.name}' in PRAGMA EXCEPTION_INIT`)
      slot.ex.code = d.code === 100 ? 1403 : -d.code
      return
    }
    case "cursor":
      names.set(d.name, { k: "cursor", decl: d })
      return
    case "collectionType":
      names.set(d.type.name, { k: "type", type: d.type })
      return
    case "recordType":
      names.set(d.type.name, { k: "recordType", type: d.type })
      return
    case "subtype":
      // the parser gave later declarations of ctx unit the subtype's base type; other units (a package's users,
      // its body) find it here
      names.set(d.name, { k: "subtype", type: d.type })
      return
    case "subprogram": {
      const known = names.get(d.sub.name)
      if (d.sub.body === undefined && known?.k === "subprogram") return
      // a second body of the same name is an overload (packages: by number of parameters)
      if (known?.k === "subprogram" && known.sub.body !== undefined) known.overloads = [...(known.overloads ?? [known.sub]), d.sub]
      else names.set(d.sub.name, { k: "subprogram", sub: d.sub, scope: ctx.scope })
      return
    }
    case "var": {
      const packaged = d.type.kind === "named" ? /^(\S+) \. (\S+)$/.exec(d.type.name) : null
      if (packaged !== null) await packageMember(ctx, [packaged[1]!], packaged[2]!, { kind: "ident", text: packaged[2]!, value: packaged[2]!, pos: d.pos })
      const resolved = resolveType(ctx, d.type, d.pos)
      const type = d.notNull && resolved.kind === "named" ? { ...resolved, notNull: true } : resolved
      if (type.kind === "named" && type.notNull === true && d.init === undefined) throw notNullNeedsInit(ctx.source, d.pos)
      const collection = collectionType(ctx, type)
      const record = recordType(ctx, type)
      let value: Value = null
      if (collection !== undefined) value = d.init !== undefined ? toSchemaCollection(ctx, collection, await evaluateValue(ctx, d.init)) : collection.kind === "assoc" ? new PlsqlCollection(collection) : null
      else if (record !== undefined) value = d.init !== undefined ? coerce(ctx, type, await evaluateValue(ctx, d.init)) : await newRecord(ctx, record, d.pos)
      else if (type.kind === "rowtypeOf") value = d.init !== undefined ? coerce(ctx, type, await evaluateValue(ctx, d.init)) : await emptyRecord(ctx, type.of, d.pos)
      else if (d.init !== undefined) value = coerce(ctx, type, await (jsonTypeOf(type) !== undefined ? evaluateValue : evaluate)(ctx, d.init))
      names.set(d.name, { k: "var", value, type, constant: d.constant })
    }
  }
}

/**
 * The value an OUT parameter of type `type` starts with: "initialized to the default value of its type. The default
 * value of the type is NULL except for a record type with a non-NULL default value" (PL/SQL Language Reference,
 * "Subprogram Parameter Modes"): a record of its type (its fields' defaults), an empty associative array, else NULL.
 */
export async function outParameterValue(ctx: Frame, type: TypeSpec | undefined, pos: number): Promise<Value> {
  if (type === undefined) return null
  const collection = collectionType(ctx, type)
  if (collection !== undefined) return collection.kind === "assoc" ? new PlsqlCollection(collection) : null
  const record = recordType(ctx, type)
  if (record !== undefined) return newRecord(ctx, record, pos)
  return type.kind === "rowtypeOf" ? emptyRecord(ctx, type.of, pos) : null
}

/** A record of a declared record type, its fields' initial values computed (PLS-00218 for NOT NULL without one). */
async function newRecord(ctx: Frame, type: RecordType, pos: number): Promise<PlsqlRecord> {
  const fields = new Map<string, DuckDBValue>()
  for (const f of type.fields) {
    if (f.notNull && f.init === undefined) throw notNullNeedsInit(ctx.source, pos)
    const ft = resolveType(ctx, declaredFieldType(ctx, f), pos)
    // a field of a record type holds a record of that type with its own fields' initial values: "A record variable
    // means either a record variable or a record component of a composite variable. To any record variable, you can
    // assign a value to each field individually" (PL/SQL Language Reference 19c, "Assigning Values to Record
    // Variables"; "Initial Values of Record Variables")
    const inner = f.init === undefined ? recordType(ctx, ft) : undefined
    if (inner !== undefined) {
      fields.set(f.name, (await newRecord(ctx, inner, pos)) as unknown as DuckDBValue)
      continue
    }
    fields.set(f.name, f.init === undefined ? null : (coerce(ctx, f.notNull && ft.kind === "named" ? { ...ft, notNull: true } : ft, await evaluate(ctx, f.init)) as DuckDBValue))
  }
  return new PlsqlRecord(fields, type)
}

/** PLS-00218: a NOT NULL variable or record field declared without an initial value. */
const notNullNeedsInit = (source: string, pos: number): PlsCompileError => new PlsCompileError(source, pos, 218, "a variable declared NOT NULL must have an initialization assignment")
