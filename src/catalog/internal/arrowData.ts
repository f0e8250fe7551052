/**
 * Small, explicit Arrow `Data` constructors for the catalog builders.
 *
 * Catalog results are tiny, so clarity beats speed here; building the buffers directly (instead of through
 * apache-arrow's per-value builders) keeps offsets, validity bitmaps and union type ids visibly correct.
 *
 * @internal
 */
import {
  Binary,
  Bool,
  type Data,
  type DataType,
  DenseUnion,
  Int16,
  Int32,
  Float64,
  Int64,
  List,
  makeData,
  Map_,
  RecordBatch,
  type Schema,
  Struct,
  Uint32,
  Uint64,
  Utf8
} from "apache-arrow"

const encoder = new TextEncoder()

/** A nullable cell as supplied by callers: `null` and `undefined` both mean SQL NULL. */
export type Cell<A> = A | null | undefined

/** Builds a validity bitmap, or `undefined` when every value is valid (Arrow allows omitting it). */
export const validityBitmap = (
  valid: ReadonlyArray<boolean>
): { readonly nullBitmap: Uint8Array | undefined; readonly nullCount: number } => {
  let nullCount = 0
  for (const v of valid) if (!v) nullCount++
  if (nullCount === 0) return { nullBitmap: undefined, nullCount }
  const bitmap = new Uint8Array((valid.length + 7) >> 3)
  valid.forEach((v, i) => {
    if (v) bitmap[i >> 3]! |= 1 << (i & 7)
  })
  return { nullBitmap: bitmap, nullCount }
}

const isPresent = <A>(value: Cell<A>): value is A => value !== null && value !== undefined

const withValidity = <T extends DataType>(props: { type: T; length: number }, valid: ReadonlyArray<boolean>) => {
  const { nullBitmap, nullCount } = validityBitmap(valid)
  return nullBitmap === undefined ? { ...props, nullCount } : { ...props, nullCount, nullBitmap }
}

const offsetsAndBytes = (encoded: ReadonlyArray<Uint8Array | undefined>) => {
  const valueOffsets = new Int32Array(encoded.length + 1)
  let total = 0
  encoded.forEach((bytes, i) => {
    total += bytes?.length ?? 0
    valueOffsets[i + 1] = total
  })
  const data = new Uint8Array(total)
  encoded.forEach((bytes, i) => {
    if (bytes !== undefined) data.set(bytes, valueOffsets[i]!)
  })
  return { valueOffsets, data }
}

/** Binary column. */
export const binaryData = (values: ReadonlyArray<Cell<Uint8Array>>): Data<Binary> =>
  makeData({
    ...withValidity({ type: new Binary(), length: values.length }, values.map(isPresent)),
    ...offsetsAndBytes(values.map((v) => (isPresent(v) ? v : undefined)))
  })

/** UTF-8 string column. */
export const utf8Data = (values: ReadonlyArray<Cell<string>>): Data<Utf8> => {
  const encoded = values.map((v) => (isPresent(v) ? encoder.encode(v) : undefined))
  return makeData({
    ...withValidity({ type: new Utf8(), length: values.length }, values.map(isPresent)),
    ...offsetsAndBytes(encoded)
  })
}

const fixedWidth = <T extends Int16 | Int32 | Uint32>(
  type: T,
  ArrayType: Int16ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor,
  values: ReadonlyArray<Cell<number>>
): Data<T> => {
  const data = new ArrayType(values.length)
  values.forEach((v, i) => {
    if (isPresent(v)) data[i] = v
  })
  return makeData<T>({
    ...withValidity({ type, length: values.length }, values.map(isPresent)),
    data: data as T["TArray"]
  })
}

/** Int16 column (values must already be range-checked). */
export const int16Data = (values: ReadonlyArray<Cell<number>>): Data<Int16> =>
  fixedWidth(new Int16(), Int16Array, values)

/** Int32 column (values must already be range-checked). */
export const int32Data = (values: ReadonlyArray<Cell<number>>): Data<Int32> =>
  fixedWidth(new Int32(), Int32Array, values)

/** Uint32 column (values must already be range-checked). */
export const uint32Data = (values: ReadonlyArray<Cell<number>>): Data<Uint32> =>
  fixedWidth(new Uint32(), Uint32Array, values)

/** Int64 column (values must already be range-checked). */
export const int64Data = (values: ReadonlyArray<Cell<bigint>>): Data<Int64> => {
  const data = new BigInt64Array(values.length)
  values.forEach((v, i) => {
    if (isPresent(v)) data[i] = v
  })
  return makeData({ ...withValidity({ type: new Int64(), length: values.length }, values.map(isPresent)), data })
}

/** Uint64 column (values must already be range-checked). */
export const uint64Data = (values: ReadonlyArray<Cell<bigint>>): Data<Uint64> => {
  const data = new BigUint64Array(values.length)
  values.forEach((v, i) => {
    if (isPresent(v)) data[i] = v
  })
  return makeData({ ...withValidity({ type: new Uint64(), length: values.length }, values.map(isPresent)), data })
}

/** Float64 column. */
export const float64Data = (values: ReadonlyArray<Cell<number>>): Data<Float64> => {
  const data = new Float64Array(values.length)
  values.forEach((v, i) => {
    if (isPresent(v)) data[i] = v
  })
  return makeData({ ...withValidity({ type: new Float64(), length: values.length }, values.map(isPresent)), data })
}

/** Boolean column (bit-packed). */
export const boolData = (values: ReadonlyArray<Cell<boolean>>): Data<Bool> => {
  const data = new Uint8Array((values.length + 7) >> 3)
  values.forEach((v, i) => {
    if (v === true) data[i >> 3]! |= 1 << (i & 7)
  })
  return makeData({ ...withValidity({ type: new Bool(), length: values.length }, values.map(isPresent)), data })
}

/**
 * List column from per-row child counts; `null` marks a null list (it owns no child values).
 * The child data must hold exactly the sum of the counts.
 */
export const listData = <T extends DataType>(
  type: List<T>,
  counts: ReadonlyArray<number | null>,
  child: Data<T>
): Data<List<T>> => {
  const valueOffsets = new Int32Array(counts.length + 1)
  counts.forEach((n, i) => {
    valueOffsets[i + 1] = valueOffsets[i]! + (n ?? 0)
  })
  return makeData({
    ...withValidity({ type, length: counts.length }, counts.map((n) => n !== null)),
    valueOffsets,
    child
  })
}

/** Map column from per-row entry counts; `null` marks a null map. `entries` is the key/value struct data. */
export const mapData = (type: Map_, counts: ReadonlyArray<number | null>, entries: Data<Struct>): Data<Map_> => {
  const valueOffsets = new Int32Array(counts.length + 1)
  counts.forEach((n, i) => {
    valueOffsets[i + 1] = valueOffsets[i]! + (n ?? 0)
  })
  return makeData({
    ...withValidity({ type, length: counts.length }, counts.map((n) => n !== null)),
    valueOffsets,
    child: entries
  })
}

/** Struct column; every child must have `length` values. `valid` defaults to all rows valid. */
export const structData = (
  type: Struct,
  length: number,
  children: ReadonlyArray<Data>,
  valid?: ReadonlyArray<boolean>
): Data<Struct> =>
  makeData({
    ...(valid === undefined ? { type, length, nullCount: 0 } : withValidity({ type, length }, valid)),
    children: [...children]
  })

/** Dense union column from explicit type ids and per-row offsets into the matching child. */
export const denseUnionData = (
  type: DenseUnion,
  typeIds: Int8Array,
  valueOffsets: Int32Array,
  children: ReadonlyArray<Data>
): Data<DenseUnion> =>
  // apache-arrow types `nullBitmap` as a required `never` for dense unions (unions have no validity buffer).
  makeData({
    type,
    length: typeIds.length,
    nullCount: 0,
    typeIds,
    valueOffsets,
    children: [...children]
  } as unknown as { type: DenseUnion; typeIds: Int8Array; valueOffsets: Int32Array; children: Array<Data>; nullBitmap: never })

/** A record batch whose columns are the given child data, in schema order. */
export const recordBatch = (schema: Schema, length: number, columns: ReadonlyArray<Data>): RecordBatch =>
  new RecordBatch(schema, structData(new Struct(schema.fields), length, columns))
