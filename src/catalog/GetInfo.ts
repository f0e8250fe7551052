/**
 * AdbcConnectionGetInfo: info codes, the exact result schema and a builder from driver-supplied values.
 *
 * Sources: apache/arrow-adbc c/include/arrow-adbc/adbc.h (ADBC 1.1.0 codes and schema; branch spec-1.2.0 for
 * the draft feature codes 200..250), go/adbc/standard_schemas.go (`GetInfoSchema`), and the C validation suite
 * c/validation/adbc_validation_connection.cc `TestMetadataGetInfo` (field names, nullability, map children).
 */
import { Bool, DenseUnion, Field, Int32, Int64, List, Map_, RecordBatch, Schema, Struct, Uint32, Utf8 } from "apache-arrow"
import { CatalogError } from "./CatalogError.ts"
import {
  boolData,
  denseUnionData,
  int32Data,
  int64Data,
  listData,
  mapData,
  recordBatch,
  structData,
  uint32Data,
  utf8Data
} from "./internal/arrowData.ts"

/**
 * ADBC info codes. [0, 10 000) is reserved for ADBC, [500, 1 000) for XDBC (Flight SQL SqlInfo).
 * Codes 200..250 are the draft ADBC 1.2.0 feature flags (all `bool` except `FEATURE_INGEST_MODES`, a string list).
 */
export const InfoCode = {
  /** Database vendor name (string). */
  VENDOR_NAME: 0,
  /** Database vendor version (string). */
  VENDOR_VERSION: 1,
  /** Arrow library version used by the vendor (string). */
  VENDOR_ARROW_VERSION: 2,
  /** Whether the vendor supports SQL queries (bool). */
  VENDOR_SQL: 3,
  /** Whether the vendor supports Substrait queries (bool). */
  VENDOR_SUBSTRAIT: 4,
  /** Minimum supported Substrait version (string). */
  VENDOR_SUBSTRAIT_MIN_VERSION: 5,
  /** Maximum supported Substrait version (string). */
  VENDOR_SUBSTRAIT_MAX_VERSION: 6,
  /** Driver name (string). */
  DRIVER_NAME: 100,
  /** Driver version (string). */
  DRIVER_VERSION: 101,
  /** Arrow library version used by the driver (string). */
  DRIVER_ARROW_VERSION: 102,
  /** ADBC API version implemented by the driver (int64, one of {@link AdbcVersion}). */
  DRIVER_ADBC_VERSION: 103,
  /** Draft 1.2.0: bulk ingest supported (bool). */
  FEATURE_INGEST: 200,
  /** Draft 1.2.0: supported ingest modes, the mode option values themselves (string list). */
  FEATURE_INGEST_MODES: 201,
  /** Draft 1.2.0: ingest into a temporary table supported (bool). */
  FEATURE_INGEST_TEMPORARY: 202,
  /** Draft 1.2.0: ingest target catalog supported (bool). */
  FEATURE_INGEST_TARGET_CATALOG: 203,
  /** Draft 1.2.0: ingest target schema supported (bool). */
  FEATURE_INGEST_TARGET_SCHEMA: 204,
  /** Draft 1.2.0: GetObjects supported (bool). */
  FEATURE_OBJECTS: 220,
  /** Draft 1.2.0: GetTableSchema supported (bool). */
  FEATURE_TABLE_SCHEMA: 221,
  /** Draft 1.2.0: GetTableTypes supported (bool). */
  FEATURE_TABLE_TYPES: 222,
  /** Draft 1.2.0: transactions supported, i.e. autocommit can be disabled (bool). */
  FEATURE_TRANSACTIONS: 240,
  /** Draft 1.2.0: setting the transaction isolation level supported (bool). */
  FEATURE_TRANSACTION_ISOLATION_LEVEL: 241,
  /** Draft 1.2.0: GetStatistics supported (bool). */
  FEATURE_STATISTICS: 242,
  /** Draft 1.2.0: getting/setting the current catalog supported (bool). */
  FEATURE_CURRENT_CATALOG: 243,
  /** Draft 1.2.0: getting/setting the current db schema supported (bool). */
  FEATURE_CURRENT_DB_SCHEMA: 244,
  /** Draft 1.2.0: binding parameters supported (bool). */
  FEATURE_BIND: 245,
  /** Draft 1.2.0: partitioned execution supported (bool). */
  FEATURE_EXECUTE_PARTITIONS: 246,
  /** Draft 1.2.0: multiple result sets supported (bool). */
  FEATURE_EXECUTE_MULTI: 247,
  /** Draft 1.2.0: ExecuteSchema supported (bool). */
  FEATURE_EXECUTE_SCHEMA: 248,
  /** Draft 1.2.0: GetParameterSchema supported (bool). */
  FEATURE_PARAMETER_SCHEMA: 249,
  /** Draft 1.2.0: extended error metadata (error details) supported (bool). */
  FEATURE_ERROR_METADATA: 250
} as const

/** The name of a standard info code, e.g. `"DRIVER_NAME"`. */
export type InfoCodeName = keyof typeof InfoCode

/** ADBC API version numbers, the value of `DRIVER_ADBC_VERSION` (adbc.h `ADBC_VERSION_*`). */
export const AdbcVersion = {
  /** ADBC 1.0.0. */
  V1_0_0: 1_000_000n,
  /** ADBC 1.1.0. */
  V1_1_0: 1_001_000n,
  /** ADBC 1.2.0 (draft). */
  V1_2_0: 1_002_000n
} as const

/** Dense-union type ids of the `info_value` column, in schema order. */
export const InfoValueTypeId = {
  /** `string_value` (utf8). */
  string: 0,
  /** `bool_value` (bool). */
  bool: 1,
  /** `int64_value` (int64). */
  int64: 2,
  /** `int32_bitmask` (int32). */
  int32Bitmask: 3,
  /** `string_list` (list<utf8>). */
  stringList: 4,
  /** `int32_to_int32_list_map` (map<int32, list<int32>>). */
  int32ToInt32ListMap: 5
} as const

/** One info value, tagged with the union branch it is written to. */
export type InfoValue =
  | { readonly _tag: "string"; readonly value: string }
  | { readonly _tag: "bool"; readonly value: boolean }
  | { readonly _tag: "int64"; readonly value: bigint }
  | { readonly _tag: "int32Bitmask"; readonly value: number }
  | { readonly _tag: "stringList"; readonly value: ReadonlyArray<string> }
  | { readonly _tag: "int32ToInt32ListMap"; readonly value: ReadonlyMap<number, ReadonlyArray<number>> }

/** Constructors for {@link InfoValue}. */
export const InfoValue = {
  /** A `string_value`. */
  string: (value: string): InfoValue => ({ _tag: "string", value }),
  /** A `bool_value`. */
  bool: (value: boolean): InfoValue => ({ _tag: "bool", value }),
  /** An `int64_value`; numbers must be safe integers. */
  int64: (value: bigint | number): InfoValue => ({ _tag: "int64", value: BigInt(value) }),
  /** An `int32_bitmask`. */
  int32Bitmask: (value: number): InfoValue => ({ _tag: "int32Bitmask", value }),
  /** A `string_list`. */
  stringList: (value: ReadonlyArray<string>): InfoValue => ({ _tag: "stringList", value }),
  /** An `int32_to_int32_list_map`. */
  int32ToInt32ListMap: (value: ReadonlyMap<number, ReadonlyArray<number>>): InfoValue => ({
    _tag: "int32ToInt32ListMap",
    value
  })
} as const

/** The info values a driver knows, by code. Codes without a value are unknown and omitted from results. */
export type InfoValues =
  | ReadonlyMap<number, InfoValue>
  | { readonly [code: number]: InfoValue | undefined }

const item = <T extends Int32 | Utf8>(type: T) => new Field("item", type, true)

const stringListType = new List(item(new Utf8()))
const int32ListType = new List(item(new Int32()))
const mapEntriesType = new Struct([new Field("key", new Int32(), false), new Field("value", int32ListType, true)])
const int32ToInt32ListMapType = new Map_(new Field("entries", mapEntriesType, false), false)

/** The `info_value` dense union type (type ids 0..5, see {@link InfoValueTypeId}). */
export const InfoValueType = new DenseUnion(
  [0, 1, 2, 3, 4, 5],
  [
    new Field("string_value", new Utf8(), true),
    new Field("bool_value", new Bool(), true),
    new Field("int64_value", new Int64(), true),
    new Field("int32_bitmask", new Int32(), true),
    new Field("string_list", stringListType, true),
    new Field("int32_to_int32_list_map", int32ToInt32ListMapType, true)
  ]
)

/** The exact ADBC GetInfo result schema: `info_name uint32 not null, info_value dense_union` (nullable). */
export const GET_INFO_SCHEMA = new Schema([
  new Field("info_name", new Uint32(), false),
  new Field("info_value", InfoValueType, true)
])

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

const isInt32 = (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX
const isUint32 = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff

const lookup = (values: InfoValues, code: number): InfoValue | undefined =>
  values instanceof Map ? values.get(code) : (values as { readonly [code: number]: InfoValue | undefined })[code]

const knownCodes = (values: InfoValues): Array<number> => {
  const codes = values instanceof Map ? [...values.keys()] : Object.keys(values).map(Number)
  return codes.filter((code) => lookup(values, code) !== undefined).sort((a, b) => a - b)
}

const invalidRow = (code: number, why: string) => new CatalogError("invalid-row", `GetInfo code ${code}: ${why}`)

const checkValue = (code: number, value: InfoValue): void => {
  switch (value._tag) {
    case "string":
      if (typeof value.value !== "string") throw invalidRow(code, "string value expected")
      return
    case "bool":
      if (typeof value.value !== "boolean") throw invalidRow(code, "boolean value expected")
      return
    case "int64":
      if (typeof value.value !== "bigint" || value.value < INT64_MIN || value.value > INT64_MAX) {
        throw invalidRow(code, "int64 value out of range")
      }
      return
    case "int32Bitmask":
      if (!isInt32(value.value)) throw invalidRow(code, "int32 bitmask out of range")
      return
    case "stringList":
      if (!value.value.every((s) => typeof s === "string")) throw invalidRow(code, "string list expected")
      return
    case "int32ToInt32ListMap":
      for (const [k, list] of value.value) {
        if (!isInt32(k) || !list.every(isInt32)) throw invalidRow(code, "int32 map keys and values expected")
      }
      return
    default:
      throw invalidRow(code, `unknown value tag ${String((value as { _tag?: unknown })._tag)}`)
  }
}

/**
 * Builds the GetInfo result.
 *
 * - `requested` undefined or empty: every code that has a value, ascending.
 * - Otherwise the requested codes in request order, duplicates once; codes without a value are omitted
 *   ("Drivers/vendors will ignore requests for unrecognized codes (the row will be omitted from the result)",
 *   adbc.h AdbcConnectionGetInfo).
 *
 * Throws {@link CatalogError} `invalid-argument` for a requested code outside uint32, `invalid-row` for a
 * value that does not fit its union branch.
 */
export const buildGetInfo = (values: InfoValues, requested?: ReadonlyArray<number> | null): RecordBatch => {
  for (const code of requested ?? []) {
    if (!isUint32(code)) {
      throw new CatalogError("invalid-argument", `GetInfo: info code ${code} is not an unsigned 32-bit integer`)
    }
  }
  const codes =
    requested === undefined || requested === null || requested.length === 0 ? knownCodes(values) : [...new Set(requested)]
  const rows: Array<readonly [number, InfoValue]> = []
  for (const code of codes) {
    const value = lookup(values, code)
    if (value === undefined) continue
    checkValue(code, value)
    rows.push([code, value])
  }

  const typeIds = new Int8Array(rows.length)
  const offsets = new Int32Array(rows.length)
  const strings: Array<string> = []
  const bools: Array<boolean> = []
  const int64s: Array<bigint> = []
  const bitmasks: Array<number> = []
  const stringLists: Array<ReadonlyArray<string>> = []
  const maps: Array<ReadonlyMap<number, ReadonlyArray<number>>> = []
  const push = <A>(i: number, typeId: number, target: Array<A>, value: A) => {
    typeIds[i] = typeId
    offsets[i] = target.push(value) - 1
  }
  rows.forEach(([, value], i) => {
    switch (value._tag) {
      case "string":
        return push(i, InfoValueTypeId.string, strings, value.value)
      case "bool":
        return push(i, InfoValueTypeId.bool, bools, value.value)
      case "int64":
        return push(i, InfoValueTypeId.int64, int64s, value.value)
      case "int32Bitmask":
        return push(i, InfoValueTypeId.int32Bitmask, bitmasks, value.value)
      case "stringList":
        return push(i, InfoValueTypeId.stringList, stringLists, value.value)
      case "int32ToInt32ListMap":
        return push(i, InfoValueTypeId.int32ToInt32ListMap, maps, value.value)
    }
  })

  const mapEntries = maps.flatMap((m) => [...m])
  const mapColumn = mapData(
    int32ToInt32ListMapType,
    maps.map((m) => m.size),
    structData(mapEntriesType, mapEntries.length, [
      int32Data(mapEntries.map(([k]) => k)),
      listData(
        int32ListType,
        mapEntries.map(([, list]) => list.length),
        int32Data(mapEntries.flatMap(([, list]) => list))
      )
    ])
  )
  const infoValue = denseUnionData(InfoValueType, typeIds, offsets, [
    utf8Data(strings),
    boolData(bools),
    int64Data(int64s),
    int32Data(bitmasks),
    listData(
      stringListType,
      stringLists.map((l) => l.length),
      utf8Data(stringLists.flat())
    ),
    mapColumn
  ])
  return recordBatch(GET_INFO_SCHEMA, rows.length, [uint32Data(rows.map(([code]) => code)), infoValue])
}
