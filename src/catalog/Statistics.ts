/**
 * AdbcConnectionGetStatistics and AdbcConnectionGetStatisticNames (ADBC 1.1): standard statistic keys, the
 * exact result schemas and builders from driver-supplied statistic rows.
 *
 * Sources: apache/arrow-adbc c/include/arrow-adbc/adbc.h (AdbcConnectionGetStatistics table, the
 * `ADBC_STATISTIC_*` keys and names) and go/adbc/standard_schemas.go (`GetStatisticsSchema`,
 * `GetStatisticNamesSchema`; union members nullable, lists named `item`).
 */
import {
  Binary,
  Bool,
  DenseUnion,
  Field,
  Float64,
  Int16,
  Int64,
  List,
  type RecordBatch,
  Schema,
  Struct,
  Uint64,
  Utf8
} from "apache-arrow"
import { CatalogError } from "./CatalogError.ts"
import {
  binaryData,
  boolData,
  denseUnionData,
  float64Data,
  int16Data,
  int64Data,
  listData,
  recordBatch,
  structData,
  uint64Data,
  utf8Data
} from "./internal/arrowData.ts"
import { compilePattern } from "./Pattern.ts"

/** The standard statistics: key (int16, [0, 1024) reserved for ADBC) and name. */
export const StandardStatistic = {
  /** Average byte width of a column's values (float64). */
  AVERAGE_BYTE_WIDTH: { key: 0, name: "adbc.statistic.byte_width" },
  /** Number of distinct values (int64). */
  DISTINCT_COUNT: { key: 1, name: "adbc.statistic.distinct_count" },
  /** Maximum byte width of a column's values (int64). */
  MAX_BYTE_WIDTH: { key: 2, name: "adbc.statistic.max_byte_width" },
  /** Maximum value of a column (any member). */
  MAX_VALUE: { key: 3, name: "adbc.statistic.max_value" },
  /** Minimum value of a column (any member). */
  MIN_VALUE: { key: 4, name: "adbc.statistic.min_value" },
  /** Number of nulls (int64). */
  NULL_COUNT: { key: 5, name: "adbc.statistic.null_count" },
  /** Number of rows (int64). */
  ROW_COUNT: { key: 6, name: "adbc.statistic.row_count" }
} as const

/** A statistic value, tagged with the `statistic_value` union member it is written to. */
export type StatisticValue =
  | { readonly _tag: "int64"; readonly value: bigint }
  | { readonly _tag: "uint64"; readonly value: bigint }
  | { readonly _tag: "float64"; readonly value: number }
  | { readonly _tag: "binary"; readonly value: Uint8Array }

/** One statistic of a table (`column` null/absent) or of a column. */
export interface StatisticRow {
  readonly catalog: string | null
  readonly schema: string | null
  readonly table: string
  readonly column?: string | null | undefined
  /** int16; see {@link StandardStatistic}, or a driver-specific key ≥ 1024. */
  readonly key: number
  readonly value: StatisticValue
  readonly approximate: boolean
}

/** GetStatistics filters: search patterns (see Pattern.ts); null/undefined means no filter. */
export interface GetStatisticsFilters {
  readonly catalog?: string | null | undefined
  readonly dbSchema?: string | null | undefined
  readonly tableName?: string | null | undefined
}

/** The `statistic_value` dense union: int64 (0), uint64 (1), float64 (2), binary (3). */
export const StatisticValueType = new DenseUnion(
  [0, 1, 2, 3],
  [
    new Field("int64", new Int64(), true),
    new Field("uint64", new Uint64(), true),
    new Field("float64", new Float64(), true),
    new Field("binary", new Binary(), true)
  ]
)

/** `STATISTICS_SCHEMA`: one statistic. */
export const STATISTICS_SCHEMA = new Struct([
  new Field("table_name", new Utf8(), false),
  new Field("column_name", new Utf8(), true),
  new Field("statistic_key", new Int16(), false),
  new Field("statistic_value", StatisticValueType, false),
  new Field("statistic_is_approximate", new Bool(), false)
])

/** `DB_SCHEMA_SCHEMA` of GetStatistics: a schema with its statistics. */
export const STATISTICS_DB_SCHEMA_SCHEMA = new Struct([
  new Field("db_schema_name", new Utf8(), true),
  new Field("db_schema_statistics", new List(new Field("item", STATISTICS_SCHEMA, true)), false)
])

/** The exact GetStatistics result schema. */
export const GET_STATISTICS_SCHEMA = new Schema([
  new Field("catalog_name", new Utf8(), true),
  new Field("catalog_db_schemas", new List(new Field("item", STATISTICS_DB_SCHEMA_SCHEMA, true)), false)
])

/** The exact GetStatisticNames result schema. */
export const GET_STATISTIC_NAMES_SCHEMA = new Schema([
  new Field("statistic_name", new Utf8(), false),
  new Field("statistic_key", new Int16(), false)
])

const typeIdOf = { int64: 0, uint64: 1, float64: 2, binary: 3 } as const

const invalidRow = (what: string) => new CatalogError("invalid-row", `GetStatistics: ${what}`)

const checkRow = (row: StatisticRow): void => {
  if (typeof row.table !== "string") throw invalidRow(`table name must be a string, got ${String(row.table)}`)
  if (!Number.isInteger(row.key) || row.key < -32768 || row.key > 32767) {
    throw invalidRow(`statistic key ${row.key} does not fit int16`)
  }
  const { _tag, value } = row.value
  const ok =
    _tag === "int64"
      ? typeof value === "bigint" && value >= -(2n ** 63n) && value < 2n ** 63n
      : _tag === "uint64"
      ? typeof value === "bigint" && value >= 0n && value < 2n ** 64n
      : _tag === "float64"
      ? typeof value === "number"
      : _tag === "binary" && value instanceof Uint8Array
  if (!ok) throw invalidRow(`statistic ${row.key} of ${JSON.stringify(row.table)}: value does not fit ${String(_tag)}`)
}

type Name = string | null
const compareNames = (a: Name, b: Name): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1)
const key = (...parts: ReadonlyArray<Name>) => JSON.stringify(parts)

/**
 * Builds the GetStatistics result from statistic rows, filtered again by the patterns. Catalogs and schemas
 * appear when they hold at least one matching statistic. Order: catalog, schema, table, column (table-level
 * first), key. Throws {@link CatalogError} `invalid-row` for a row the schema cannot hold.
 */
export const buildGetStatistics = (filters: GetStatisticsFilters, rows: ReadonlyArray<StatisticRow>): RecordBatch => {
  const matchCatalog = compilePattern(filters.catalog)
  const matchSchema = compilePattern(filters.dbSchema)
  const matchTable = compilePattern(filters.tableName)
  const selected = rows
    .filter((row) => (checkRow(row), matchCatalog(row.catalog) && matchSchema(row.schema) && matchTable(row.table)))
    .sort(
      (a, b) =>
        compareNames(a.catalog, b.catalog) ||
        compareNames(a.schema, b.schema) ||
        compareNames(a.table, b.table) ||
        compareNames(a.column ?? null, b.column ?? null) ||
        a.key - b.key
    )

  const catalogs: Array<Name> = []
  const schemaCounts: Array<number> = []
  const schemas: Array<Name> = []
  const statCounts: Array<number> = []
  let lastCatalog: string | undefined
  let lastSchema: string | undefined
  for (const row of selected) {
    const catalogKey = key(row.catalog)
    const schemaKey = key(row.catalog, row.schema)
    if (catalogKey !== lastCatalog) {
      catalogs.push(row.catalog)
      schemaCounts.push(0)
      lastCatalog = catalogKey
      lastSchema = undefined
    }
    if (schemaKey !== lastSchema) {
      schemas.push(row.schema)
      statCounts.push(0)
      schemaCounts[schemaCounts.length - 1]!++
      lastSchema = schemaKey
    }
    statCounts[statCounts.length - 1]!++
  }

  const typeIds = new Int8Array(selected.length)
  const offsets = new Int32Array(selected.length)
  const members = { int64: [] as Array<bigint>, uint64: [] as Array<bigint>, float64: [] as Array<number>, binary: [] as Array<Uint8Array> }
  selected.forEach((row, i) => {
    typeIds[i] = typeIdOf[row.value._tag]
    offsets[i] = (members[row.value._tag] as Array<unknown>).push(row.value.value) - 1
  })
  const statistics = structData(STATISTICS_SCHEMA, selected.length, [
    utf8Data(selected.map((r) => r.table)),
    utf8Data(selected.map((r) => r.column)),
    int16Data(selected.map((r) => r.key)),
    denseUnionData(StatisticValueType, typeIds, offsets, [
      int64Data(members.int64),
      uint64Data(members.uint64),
      float64Data(members.float64),
      binaryData(members.binary)
    ]),
    boolData(selected.map((r) => r.approximate))
  ])
  const schemaData = structData(STATISTICS_DB_SCHEMA_SCHEMA, schemas.length, [
    utf8Data(schemas),
    listData(STATISTICS_DB_SCHEMA_SCHEMA.children[1]!.type, statCounts, statistics)
  ])
  return recordBatch(GET_STATISTICS_SCHEMA, catalogs.length, [
    utf8Data(catalogs),
    listData(GET_STATISTICS_SCHEMA.fields[1]!.type, schemaCounts, schemaData)
  ])
}

/**
 * Builds the GetStatisticNames result: driver-specific statistic names and keys, in the order given.
 * Throws {@link CatalogError} `invalid-row` for a key outside int16 or a non-string name.
 */
export const buildGetStatisticNames = (
  names: ReadonlyArray<{ readonly name: string; readonly key: number }>
): RecordBatch => {
  for (const { key, name } of names) {
    if (typeof name !== "string" || !Number.isInteger(key) || key < -32768 || key > 32767) {
      throw new CatalogError("invalid-row", `GetStatisticNames: invalid statistic ${JSON.stringify(name)} = ${key}`)
    }
  }
  return recordBatch(GET_STATISTIC_NAMES_SCHEMA, names.length, [
    utf8Data(names.map((n) => n.name)),
    int16Data(names.map((n) => n.key))
  ])
}
