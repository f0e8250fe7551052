/**
 * Test helpers: describe Arrow fields as plain data (to compare against independently written ADBC schema
 * specs) and convert result values to plain JS (to compare whole results).
 */
import { type DataType, type Field, type RecordBatch, Table, tableFromIPC, tableToIPC, Type, UnionMode, Vector } from "apache-arrow"

/** A field as plain data: name, type tag, nullability and children. */
export interface FieldSpec {
  readonly name: string
  readonly type: string
  readonly nullable: boolean
  readonly children?: ReadonlyArray<FieldSpec>
}

const typeTag = (type: DataType): string => {
  switch (type.typeId) {
    case Type.Utf8:
      return "utf8"
    case Type.Bool:
      return "bool"
    case Type.Null:
      return "null"
    case Type.Binary:
      return "binary"
    case Type.Float:
      return `float${[16, 32, 64][(type as unknown as { precision: number }).precision]}`
    case Type.Int: {
      const { bitWidth, isSigned } = type as unknown as { bitWidth: number; isSigned: boolean }
      return `${isSigned ? "int" : "uint"}${bitWidth}`
    }
    case Type.List:
      return "list"
    case Type.Struct:
      return "struct"
    case Type.Map:
      return `map(keysSorted=${(type as unknown as { keysSorted: boolean }).keysSorted})`
    case Type.Union:
    case Type.DenseUnion:
    case Type.SparseUnion: {
      const { mode, typeIds } = type as unknown as { mode: UnionMode; typeIds: ArrayLike<number> }
      return `${mode === UnionMode.Dense ? "dense_union" : "sparse_union"}[${Array.from(typeIds).join(",")}]`
    }
    default:
      return `other(${String(type)})`
  }
}

/** Describes a field (recursively) as a {@link FieldSpec}. */
export const describeField = (field: Field): FieldSpec => {
  const children = (field.type.children ?? []) as Array<Field>
  return children.length === 0
    ? { name: field.name, type: typeTag(field.type), nullable: field.nullable }
    : { name: field.name, type: typeTag(field.type), nullable: field.nullable, children: children.map(describeField) }
}

/** Converts an Arrow cell (vectors, struct rows, map rows) into plain arrays/objects; bigints stay bigints. */
export const toPlain = (value: unknown): unknown => {
  if (value === null || value === undefined) return null
  if (value instanceof Vector) return Array.from(value as Vector, toPlain)
  if (value instanceof Map) return new Map(Array.from(value, ([k, v]) => [toPlain(k), toPlain(v)]))
  if (typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    const json = (value as { toJSON: () => unknown }).toJSON()
    if (json !== null && typeof json === "object" && !Array.isArray(json)) {
      return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, toPlain(v)]))
    }
    return json
  }
  return value
}

/** All rows of a batch as plain objects. */
export const batchRows = (batch: RecordBatch): Array<Record<string, unknown>> =>
  Array.from({ length: batch.numRows }, (_, i) =>
    Object.fromEntries(batch.schema.fields.map((f) => [f.name, toPlain(batch.getChild(f.name)!.get(i))]))
  )

/** Serializes a batch to the Arrow IPC stream format and reads it back as a table. */
export const roundTrip = (batch: RecordBatch): Table => tableFromIPC(tableToIPC(new Table(batch), "stream"))

/** All rows of a table as plain objects. */
export const tableRows = (table: Table): Array<Record<string, unknown>> =>
  table.batches.flatMap(batchRows)
