/**
 * Declared types as the scope resolves them (`%TYPE`, subtypes, record and collection types, a package's types) and
 * values converted to them as a variable of the type holds them (ORA-06502 when they do not fit).
 */
import { DuckDBIntervalValue, DuckDBTimestampValue, type DuckDBValue } from "@duckdb/node-api"
import { datetimeText, parseDatetimeText } from "../datetime.ts"
import { OraError } from "../errors.ts"
import { isOp } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Expr, TypeSpec } from "./ast.ts"
import { BIND_ARRAY, type CollectionType, PlsqlCollection } from "./collections.ts"
import type { Collection, Frame, Slot, Value } from "./context.ts"
import { PlsCompileError, valueError } from "./errors.ts"
import { columnKinds, copyOf, PlsqlRecord, type RecordType } from "./records.ts"
import { isCursorValue } from "./row-reader.ts"
import { labelled, line, lookup, packageVariable } from "./scope.ts"
import { instancesOf } from "./stored-packages.ts"
import { numberOfText } from "./value-kinds.ts"
import { collectionOfStored, isSchemaCollection, schemaCollectionType } from "./schema-collections.ts"
import { resolverOf, valueOfStoredBind } from "./package-type-binds.ts"

/**
 * What a declared type's name (`name`, or `pkg . name` of a package) resolves to (`slot` undefined when nothing is
 * declared so); undefined when `t` is no such name.
 */
function namedTypeSlot(ctx: Frame, t: TypeSpec | undefined): { readonly name: string; readonly slot: Slot | undefined } | undefined {
  if (t?.kind !== "named") return undefined
  const packaged = /^(\S+) \. (\S+)$/.exec(t.name)
  if (t.name.includes(" ") && packaged === null) return undefined
  return { name: t.name, slot: packaged !== null ? packageVariable(ctx, packaged[1]!, packaged[2]!) : lookup(ctx, t.name) }
}

/** The record type a declared type names, if it names one. */
export function recordType(ctx: Frame, t: TypeSpec | undefined): RecordType | undefined {
  const slot = namedTypeSlot(ctx, t)?.slot
  return slot?.k === "recordType" ? slot.type : undefined
}

/** Whether a collection's elements are records (`%ROWTYPE` or a record type). */
export function recordElements(ctx: Frame, type: CollectionType): RecordType | boolean {
  return type.element.kind === "rowtypeOf" || (recordType(ctx, type.element) ?? packageElementRecord(ctx, type) ?? false)
}

/**
 * The record type a package's collection type has as its element, looked up in that package: a block outside the
 * package reading or filling `pkg.c` does not see the element type's name.
 */
function packageElementRecord(ctx: Frame, type: CollectionType): RecordType | undefined {
  if (type.element.kind !== "named") return undefined
  for (const instance of instancesOf(ctx.host).values()) {
    const names = instance.names as Map<string, Slot>
    if (![...names.values()].some((s) => s.k === "type" && s.type === type)) continue
    const slot = names.get(type.element.name)
    return slot?.k === "recordType" ? slot.type : undefined
  }
  return undefined
}

/** `%TYPE` of a variable or a table column, or a subtype of another unit (`pkg.subtype`), as the type it stands for. */
export function resolveType(ctx: Frame, t: TypeSpec, pos: number): TypeSpec {
  if (t.kind === "named") {
    const slot = namedTypeSlot(ctx, t)?.slot
    return slot?.k === "subtype" ? slot.type : t
  }
  if (t.kind !== "typeOf") return t
  if (t.of.length === 1) {
    const slot = lookup(ctx, t.of[0]!)
    if (slot?.k === "var" && slot.type !== undefined) return slot.type
  }
  const [schema, table, column] = t.of.length === 3 ? t.of : [undefined, t.of[0], t.of[1]]
  const meta = table === undefined ? undefined : ctx.host.lookupTable(schema, table)
  const col = meta?.columns.find((c) => c.name === column)
  if (col === undefined) throw new PlsCompileError(ctx.source, pos, 201, `identifier '${t.of.join(".")}' must be declared`)
  const name = col.type.dictName
  if (CHARACTER.test(name)) return { kind: "named", name, size: col.type.charSize }
  if (name === "NUMBER" && col.type.dictPrecision !== null) return { kind: "named", name, size: col.type.dictPrecision, scale: col.type.dictScale ?? 0 }
  // TIMESTAMP(p) WITH TIME ZONE: named as the declaration parser names it (declaration-parser.ts typeSpec)
  const zoned = /^TIMESTAMP\((\d)\) WITH TIME ZONE$/.exec(name)
  if (zoned !== null) return { kind: "named", name: "TIMESTAMP WITH TIME ZONE", size: Number(zoned[1]) }
  return { kind: "named", name }
}

/** The collection type a declared type names, if it names one. */
export function collectionType(ctx: Frame, t: TypeSpec | undefined): CollectionType | undefined {
  const named = namedTypeSlot(ctx, t)
  if (named === undefined) return undefined
  const slot = named.slot
  // a schema collection type (CREATE TYPE ... AS TABLE OF | VARRAY OF, SYS.ODCINUMBERLIST, ...)
  if (slot === undefined && !SCALAR.test(named.name)) return schemaCollectionType(ctx, named.name)
  return slot?.k === "type" ? slot.type : undefined
}

/** A collection variable's type and value (null when atomically null), undefined when `name` is none. */
export function collectionVar(ctx: Frame, name: string): { slot: Extract<Slot, { k: "var" }>; type: CollectionType } | undefined {
  const slot = lookup(ctx, name)
  if (slot?.k !== "var") return undefined
  if (slot.value instanceof PlsqlCollection) return { slot, type: slot.value.type }
  const type = collectionType(ctx, slot.type)
  return type === undefined ? undefined : { slot, type }
}

/** A collection variable named `target` as written: `c`, or `label.c` / `pkg.c` of an enclosing block or a package. */
export function collectionTarget(ctx: Frame, target: Expr): { slot: Extract<Slot, { k: "var" }>; type: CollectionType } | undefined {
  if (target.length === 1) return collectionVar(ctx, oracleName(target[0]!))
  if (target.length !== 3 || !isOp(target[1], ".")) return undefined
  const name = oracleName(target[0]!)
  if (lookup(ctx, name) !== undefined) return undefined
  const slot = labelled(ctx, name, oracleName(target[2]!)) ?? packageVariable(ctx, name, oracleName(target[2]!))
  if (slot?.k !== "var") return undefined
  if (slot.value instanceof PlsqlCollection) return { slot, type: slot.value.type }
  const type = collectionType(ctx, slot.type)
  return type === undefined ? undefined : { slot, type }
}

/**
 * A new element of a collection of records, its fields NULL (of a table's `%ROWTYPE`: the table's columns); undefined
 * when the elements are not records.
 */
export function newElementRecord(ctx: Frame, type: CollectionType): PlsqlRecord | undefined {
  const record = recordElements(ctx, type)
  if (record === false) return undefined
  if (record !== true) return new PlsqlRecord(new Map(record.fields.map((f) => [f.name, null])), record)
  const of = type.element.kind === "rowtypeOf" ? type.element.of : []
  const meta = of.length === 0 ? undefined : ctx.host.lookupTable(of.length === 2 ? of[0] : undefined, of[of.length - 1]!)
  return new PlsqlRecord(new Map((meta?.columns ?? []).map((c) => [c.name, null])), undefined, columnKinds(meta?.columns ?? []))
}

/** An array bind's elements as a collection of a declared type, each converted to its element type. */
export function retype(ctx: Frame, c: Collection, type: CollectionType): Collection {
  const out: Collection = new PlsqlCollection(type)
  for (const k of c.keys()) {
    if (type.kind === "assoc") out.set(k, coerce(ctx, type.element, c.get(k)) as DuckDBValue)
    else out.push(coerce(ctx, type.element, c.get(k)) as DuckDBValue)
  }
  return out
}

/** A row's values as a record of a declared record type, by position (PLS-00394 when the numbers differ). */
export function recordOfRow(ctx: Frame, type: RecordType, row: ReadonlyArray<DuckDBValue>): PlsqlRecord {
  if (row.length !== type.fields.length) throw new OraError(6550, `line ${line(ctx)}, column 1:\nPLS-00394: wrong number of values in the INTO list of a FETCH statement`)
  return new PlsqlRecord(new Map(type.fields.map((f, i) => [f.name, copyOf(coerce(ctx, fieldType(ctx, f), row[i] ?? null)) as DuckDBValue])), type)
}

/** The package declaring each record field's record type (null for a block's type), with the instance count it was looked up at. */
const fieldOwners = new WeakMap<RecordType["fields"][number], { readonly pkg: string | null; readonly instances: number }>()

/** The package of the session whose instance declares the record type holding field `f`; undefined for a block's own type. */
function packageOfField(ctx: Frame, f: RecordType["fields"][number]): string | undefined {
  const all = instancesOf(ctx.host)
  const known = fieldOwners.get(f)
  if (known !== undefined && (known.pkg !== null || known.instances === all.size)) return known.pkg ?? undefined
  let pkg: string | null = null
  for (const instance of all.values()) {
    for (const slot of (instance.names as Map<string, Slot>).values()) if (slot.k === "recordType" && slot.type.fields.includes(f)) pkg = instance.def.name
  }
  fieldOwners.set(f, { pkg, instances: all.size })
  return pkg ?? undefined
}

/**
 * A record field's declared type as any block sees it: a package's record type names the package's other types
 * unqualified (`TYPE n_t IS RECORD (e e_t)`), which a block outside the package reaches only as `pkg.e_t`.
 */
export function declaredFieldType(ctx: Frame, f: RecordType["fields"][number]): TypeSpec {
  const t = f.type
  if (t.kind !== "named" || t.name.includes(" ") || SCALAR.test(t.name)) return t
  const pkg = packageOfField(ctx, f)
  return pkg !== undefined && packageVariable(ctx, pkg, t.name) !== undefined ? { ...t, name: `${pkg} . ${t.name}` } : t
}

/** A record field's type, NOT NULL included. */
export function fieldType(ctx: Frame, f: RecordType["fields"][number]): TypeSpec {
  const t = resolveType(ctx, declaredFieldType(ctx, f), ctx.pos)
  return f.notNull && t.kind === "named" ? { ...t, notNull: true } : t
}

/**
 * A value as a variable of type `t` holds it: ORA-06502 when it does not convert, does not fit, is outside a
 * subtype's RANGE or NULL for a NOT NULL type; a record is copied (records are values), into a declared record type
 * by position.
 */
export function coerce(ctx: Frame, t: TypeSpec | undefined, v: Value): Value {
  if (v instanceof PlsqlCollection && v.type === BIND_ARRAY) {
    const collection = collectionType(ctx, t)
    return collection === undefined ? v : retype(ctx, v, collection)
  }
  // a schema collection's stored text (a DbObject bind, a column) as the collection
  if (typeof v === "string" && t?.kind === "named" && !SCALAR.test(t.name)) {
    const schemaType = collectionType(ctx, t)
    if (schemaType !== undefined && isSchemaCollection(schemaType)) return collectionOfStored(schemaType, v)
    // a DbObject bind of a package's record or collection type (package-type-binds.ts)
    const bound = valueOfStoredBind(resolverOf(ctx, recordType, collectionType, coerce), t, v)
    if (bound !== undefined) return bound
  }
  if (v instanceof PlsqlRecord) {
    const record = recordType(ctx, t)
    if (record === undefined) return v.copy()
    if (v.type === record) return v.copy(record)
    return recordOfRow(ctx, record, [...v.fields.values()])
  }
  if (t?.kind === "named" && v === null && t.notNull === true) throw new OraError(6502, "PL/SQL: numeric or value error")
  const out = convert(ctx, t, v)
  if (t?.kind === "named" && t.range !== undefined && typeof out === "number" && (out < t.range[0] || out > t.range[1])) throw new OraError(6502, "PL/SQL: numeric or value error")
  return out
}

/** A value converted to a named type (numbers rounded to the type's scale, strings checked against its size). */
function convert(ctx: Frame, t: TypeSpec | undefined, v: Value): Value {
  if (t === undefined || t.kind !== "named" || v === null || isCursorValue(v) || v instanceof PlsqlRecord) return v
  if (NUMERIC.test(t.name) && typeof v === "string") {
    const s = v.trim()
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) throw valueError("character to number conversion error")
    const n = Number(s)
    return INTEGRAL.test(t.name) ? Math.round(n) : t.name === "NUMBER" && t.size === undefined ? numberOfText(s) : n
  }
  if (INTEGRAL.test(t.name) && typeof v === "number") return Math.round(v)
  if (/^(NUMBER|DECIMAL|DEC|NUMERIC)$/.test(t.name) && typeof v === "number" && t.size !== undefined) {
    // NUMBER(p,s): rounded to s decimals; more than p - s integer digits is ORA-06502
    const scale = t.scale ?? 0
    const rounded = Number(v.toFixed(Math.max(0, Math.min(scale, 100))))
    if (Math.abs(rounded) >= 10 ** (t.size - scale)) throw valueError("number precision too large")
    return rounded
  }
  // a YEAR TO MONTH result computed in exact storage (its months: interval-exprs.ts, `INTERVAL '1' YEAR * 1.5`) is
  // the interval it stands for
  if (/^INTERVAL YEAR\b/.test(t.name) && (typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v)))) return new DuckDBIntervalValue(Number(v), 0, 0n)
  // TIMESTAMP(p): the fraction rounded half up to the declared digits, as a value written into such a column
  // (datetime-writes.ts)
  // (a TIMESTAMP(p) WITH [LOCAL] TIME ZONE value is text with its offset, kept)
  if (/^TIMESTAMP(?: WITH (?:LOCAL )?TIME ZONE)?$/.test(t.name) && t.size !== undefined && t.size < 9) {
    const rounded = roundedTimestamp(v, t.size, t.name !== "TIMESTAMP")
    if (rounded !== undefined) return rounded
  }
  if (CHARACTER.test(t.name) && typeof v === "string" && t.size !== undefined) {
    const length = /^N/.test(t.name) || t.chars === true ? [...v].length : Buffer.byteLength(v)
    if (length > t.size) throw valueError("character string buffer too small")
    // a CHAR(n) / NCHAR(n) variable holds its value blank-padded to n (PL/SQL Language Reference, "Blank-Padding
    // Shorter Character Values": "If the data type of the receiver is CHAR, PL/SQL blank-pads the value to the maximum size")
    if (/^N?CHAR(ACTER)?$/.test(t.name)) return v + " ".repeat(t.size - length)
  }
  return v
}

/**
 * A TIMESTAMP value (a DuckDB TIMESTAMP or wall-clock text) with its fraction rounded half up to `digits`, or with
 * `zoned` a TIMESTAMP WITH TIME ZONE value (text with its offset and region, kept); undefined for other values.
 */
const roundedTimestamp = (v: Value, digits: number, zoned = false): Value | undefined => {
  const roundedNanos = (nanos: bigint, unit: bigint) => {
    const shifted = nanos + unit / 2n
    return shifted - (((shifted % unit) + unit) % unit)
  }
  if (v instanceof DuckDBTimestampValue) return zoned ? undefined : digits >= 6 ? v : new DuckDBTimestampValue(roundedNanos(v.micros, 10n ** BigInt(6 - digits)))
  if (typeof v !== "string") return undefined
  const parsed = parseDatetimeText(v)
  if (parsed === undefined || (parsed.offsetMinutes !== undefined) !== zoned) return undefined
  return datetimeText({ ...parsed, wall: roundedNanos(parsed.wall, 10n ** BigInt(9 - digits)) })
}

/** A value as field `field` of `record` holds it (a declared record type's field types; %ROWTYPE fields take any). */
export function coerceField(ctx: Frame, record: PlsqlRecord, field: string, v: Value): DuckDBValue {
  const f = record.type?.fields.find((x) => x.name === field)
  return (f === undefined ? v : coerce(ctx, fieldType(ctx, f), v)) as DuckDBValue
}

const NUMERIC = /^(NUMBER|INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURAL|NATURALN|POSITIVE|POSITIVEN|SIGNTYPE|DECIMAL|DEC|NUMERIC|FLOAT|REAL|DOUBLE PRECISION|BINARY_FLOAT|BINARY_DOUBLE)$/
const INTEGRAL = /^(INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURAL|NATURALN|POSITIVE|POSITIVEN|SIGNTYPE)$/
const CHARACTER = /^(VARCHAR2|VARCHAR|NVARCHAR2|CHAR|NCHAR|STRING|CHARACTER)$/
/** Type names that are no collection type's (spares a type lookup on every conversion). */
const SCALAR = /^(NUMBER|NUMERIC|DECIMAL|INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURAL|POSITIVE|SIGNTYPE|REAL|DOUBLE|VARCHAR2|VARCHAR|NVARCHAR2|CHAR|NCHAR|STRING|LONG|DATE|BOOLEAN|CLOB|NCLOB|BLOB|RAW|BINARY_DOUBLE|BINARY_FLOAT|FLOAT|TIMESTAMP|INTERVAL|SYS_REFCURSOR|ROWID|UROWID)\b/
