/**
 * AdbcConnectionGetObjects assembled in the core from plain rows a driver supplies.
 *
 * Drivers list catalogs, schemas, tables, columns and constraints (they may pre-filter with the same patterns
 * to keep dictionary queries small); this module filters again, orders deterministically, applies the depth
 * nulling rules and writes the exact nested Arrow result ({@link GET_OBJECTS_SCHEMA}).
 *
 * Behaviour follows the ADBC reference implementations:
 * - Filters never prune parents: a catalog whose schemas all fail the db_schema filter is still listed with an
 *   empty `catalog_db_schemas`, a schema without matching tables with an empty `db_schema_tables`, a table
 *   without matching columns with an empty `table_columns` (apache/arrow-adbc c/driver/framework/objects.cc
 *   `GetObjectsBuilder::AppendCatalogs/AppendSchemas/AppendTables`, go/adbc/driver/internal/shared_utils.go
 *   `GetObjects.AppendCatalog`; c/validation/adbc_validation_connection.cc `TestMetadataGetObjectsDbSchemas`
 *   expects rows with empty schema lists for a nonexistent db_schema filter).
 * - Depth nulling (same sources, and the validation suites): CATALOGS → `catalog_db_schemas` null;
 *   DB_SCHEMAS → `db_schema_tables` null; TABLES → `table_columns` and `table_constraints` null;
 *   ALL → both non-null lists, possibly empty.
 * - The column filter only filters columns; `ordinal_position` stays the driver-supplied position in the
 *   table (TestMetadataGetObjectsColumns: filter `in%` yields `int64s` at position 1).
 * - Constraints are not affected by the column filter (objects.cc appends all constraints of a table).
 * - `constraint_column_usage` is null when a constraint row has no `usage` (objects.cc), a list otherwise.
 * - Table types match exactly (case-sensitive); an empty type list means no filter, as in the Go drivers
 *   (`len(tableType) > 0`).
 *
 * Ordering is deterministic: catalogs, schemas, tables by name (missing names first, then UTF-16 code unit
 * order), columns by ordinal position then name, constraints by name (missing last) then type; driver order
 * breaks remaining ties. Duplicate catalogs/schemas/tables (same key) are listed once, first row wins.
 */
import type { Data, RecordBatch } from "apache-arrow"
import { CatalogError } from "./CatalogError.ts"
import {
  COLUMN_SCHEMA,
  CONSTRAINT_SCHEMA,
  DB_SCHEMA_SCHEMA,
  GET_OBJECTS_SCHEMA,
  isObjectDepth,
  type ObjectDepth,
  objectDepthLevels,
  TABLE_SCHEMA,
  USAGE_SCHEMA
} from "./GetObjectsSchema.ts"
import type { Cell } from "./internal/arrowData.ts"
import { boolData, int16Data, int32Data, listData, recordBatch, structData, utf8Data } from "./internal/arrowData.ts"
import { compilePattern } from "./Pattern.ts"

/** A database schema within a catalog; `null` names mean "no catalog" / "no schema". */
export interface SchemaRow {
  readonly catalog: string | null
  readonly schema: string | null
}

/** A table or view (or any other object listed by GetTableTypes). */
export interface TableRow {
  readonly catalog: string | null
  readonly schema: string | null
  readonly name: string
  /** The table type as reported by GetTableTypes, e.g. `"TABLE"`, `"VIEW"`. */
  readonly type: string
}

/** A column; the optional fields become the `remarks` and `xdbc_*` fields (null when absent). */
export interface ColumnRow {
  readonly catalog: string | null
  readonly schema: string | null
  readonly table: string
  readonly name: string
  /** 1-based position of the column in its table (int32). */
  readonly ordinalPosition: number
  readonly remarks?: Cell<string>
  /** int16 */
  readonly xdbcDataType?: Cell<number>
  readonly xdbcTypeName?: Cell<string>
  /** int32 */
  readonly xdbcColumnSize?: Cell<number>
  /** int16 */
  readonly xdbcDecimalDigits?: Cell<number>
  /** int16 */
  readonly xdbcNumPrecRadix?: Cell<number>
  /** int16: 0 no nulls, 1 nullable, 2 unknown (JDBC `columnNoNulls`/`columnNullable`/`columnNullableUnknown`). */
  readonly xdbcNullable?: Cell<number>
  readonly xdbcColumnDef?: Cell<string>
  /** int16 */
  readonly xdbcSqlDataType?: Cell<number>
  /** int16 */
  readonly xdbcDatetimeSub?: Cell<number>
  /** int32 */
  readonly xdbcCharOctetLength?: Cell<number>
  /** `"YES"`, `"NO"` or `""` (unknown), as in JDBC `IS_NULLABLE`. */
  readonly xdbcIsNullable?: Cell<string>
  readonly xdbcScopeCatalog?: Cell<string>
  readonly xdbcScopeSchema?: Cell<string>
  readonly xdbcScopeTable?: Cell<string>
  readonly xdbcIsAutoincrement?: Cell<boolean>
  readonly xdbcIsGeneratedcolumn?: Cell<boolean>
}

/** The constraint types ADBC defines for `constraint_type`. */
export const CONSTRAINT_TYPES = ["CHECK", "FOREIGN KEY", "PRIMARY KEY", "UNIQUE"] as const

/** One of {@link CONSTRAINT_TYPES}. */
export type ConstraintType = (typeof CONSTRAINT_TYPES)[number]

/** A column referenced by a foreign key constraint. */
export interface ConstraintUsageRow {
  readonly fkCatalog: string | null
  readonly fkDbSchema: string | null
  readonly fkTable: string
  readonly fkColumnName: string
}

/** A table constraint. */
export interface ConstraintRow {
  readonly catalog: string | null
  readonly schema: string | null
  readonly table: string
  readonly name: string | null
  readonly type: ConstraintType
  /** Constrained columns, in key order. */
  readonly columns: ReadonlyArray<string>
  /** Referenced columns (foreign keys); absent → `constraint_column_usage` null. */
  readonly usage?: ReadonlyArray<ConstraintUsageRow> | undefined
}

/**
 * Everything a driver knows for one GetObjects call. Only the levels the depth needs are read:
 * `schemas` from DB_SCHEMAS, `tables` from TABLES, `columns` and `constraints` at ALL.
 * Rows whose parent is not listed are ignored.
 */
export interface CatalogRows {
  readonly catalogs: ReadonlyArray<string | null>
  readonly schemas?: ReadonlyArray<SchemaRow> | undefined
  readonly tables?: ReadonlyArray<TableRow> | undefined
  readonly columns?: ReadonlyArray<ColumnRow> | undefined
  readonly constraints?: ReadonlyArray<ConstraintRow> | undefined
}

/**
 * GetObjects filters. `catalog`, `dbSchema`, `tableName`, `columnName` are search patterns (see Pattern.ts);
 * null/undefined means no filter. `tableTypes` are exact names; null/undefined/empty means no filter.
 */
export interface GetObjectsFilters {
  readonly catalog?: string | null | undefined
  readonly dbSchema?: string | null | undefined
  readonly tableName?: string | null | undefined
  readonly tableTypes?: ReadonlyArray<string> | null | undefined
  readonly columnName?: string | null | undefined
}

type Name = string | null

const compareNames = (a: Name, b: Name): number => {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a < b ? -1 : 1
}

const compareNamesNullsLast = (a: Name, b: Name): number =>
  a === null || b === null ? compareNames(b, a) : compareNames(a, b)

const key = (...parts: ReadonlyArray<Name>) => JSON.stringify(parts)

const groupBy = <A>(rows: ReadonlyArray<A>, keyOf: (row: A) => string): Map<string, Array<A>> => {
  const groups = new Map<string, Array<A>>()
  for (const row of rows) {
    const k = keyOf(row)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [row])
    else group.push(row)
  }
  return groups
}

const uniqueBy = <A>(rows: ReadonlyArray<A>, keyOf: (row: A) => string): Array<A> => {
  const seen = new Set<string>()
  return rows.filter((row) => {
    const k = keyOf(row)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

const invalidRow = (what: string) => new CatalogError("invalid-row", `GetObjects: ${what}`)

const checkName = (value: unknown, what: string, nullable: boolean): void => {
  if (typeof value === "string" || (nullable && value === null)) return
  throw invalidRow(`${what} must be a string${nullable ? " or null" : ""}, got ${String(value)}`)
}

const checkInt = (value: Cell<number>, bits: 16 | 32, what: string): void => {
  if (value === null || value === undefined) return
  const limit = 2 ** (bits - 1)
  if (!Number.isInteger(value) || value < -limit || value >= limit) {
    throw invalidRow(`${what} ${value} does not fit int${bits}`)
  }
}

const int16Fields = [
  "xdbcDataType",
  "xdbcDecimalDigits",
  "xdbcNumPrecRadix",
  "xdbcNullable",
  "xdbcSqlDataType",
  "xdbcDatetimeSub"
] as const
const int32Fields = ["ordinalPosition", "xdbcColumnSize", "xdbcCharOctetLength"] as const

const checkColumn = (column: ColumnRow): void => {
  checkName(column.name, "column name", false)
  const where = `column ${JSON.stringify(column.name)} of table ${JSON.stringify(column.table)}`
  for (const field of int16Fields) checkInt(column[field], 16, `${field} of ${where}`)
  for (const field of int32Fields) checkInt(column[field], 32, `${field} of ${where}`)
}

const checkConstraint = (constraint: ConstraintRow): void => {
  if (!(CONSTRAINT_TYPES as ReadonlyArray<string>).includes(constraint.type)) {
    throw invalidRow(
      `constraint type ${JSON.stringify(constraint.type)} on table ${JSON.stringify(constraint.table)} ` +
        `is not one of ${CONSTRAINT_TYPES.join(", ")}`
    )
  }
  checkName(constraint.name, "constraint name", true)
  for (const column of constraint.columns) checkName(column, "constraint column name", false)
  for (const usage of constraint.usage ?? []) {
    checkName(usage.fkTable, "fk_table", false)
    checkName(usage.fkColumnName, "fk_column_name", false)
  }
}

/** The nested result, one flat array per level plus per-parent child counts (`null` = null list). */
interface Levels {
  readonly catalogs: Array<Name>
  readonly schemaCounts: Array<number | null>
  readonly schemas: Array<Name>
  readonly tableCounts: Array<number | null>
  readonly tables: Array<TableRow>
  readonly columnCounts: Array<number | null>
  readonly columns: Array<ColumnRow>
  readonly constraintCounts: Array<number | null>
  readonly constraints: Array<ConstraintRow>
}

const collect = (depth: ObjectDepth, filters: GetObjectsFilters, rows: CatalogRows): Levels => {
  const matchCatalog = compilePattern(filters.catalog)
  const matchSchema = compilePattern(filters.dbSchema)
  const matchTable = compilePattern(filters.tableName)
  const matchColumn = compilePattern(filters.columnName)
  const tableTypes =
    filters.tableTypes === null || filters.tableTypes === undefined || filters.tableTypes.length === 0
      ? undefined
      : new Set(filters.tableTypes)

  const { columns: withColumns, schemas: withSchemas, tables: withTables } = objectDepthLevels(depth)

  for (const catalog of rows.catalogs) checkName(catalog, "catalog name", true)
  const schemasByCatalog = groupBy(
    withSchemas ? (rows.schemas ?? []).filter((s) => (checkName(s.schema, "schema name", true), matchSchema(s.schema))) : [],
    (s) => key(s.catalog)
  )
  const tablesBySchema = groupBy(
    withTables
      ? (rows.tables ?? []).filter((t) => {
          checkName(t.name, "table name", false)
          checkName(t.type, "table type", false)
          return matchTable(t.name) && (tableTypes === undefined || tableTypes.has(t.type))
        })
      : [],
    (t) => key(t.catalog, t.schema)
  )
  const columnsByTable = groupBy(
    withColumns ? (rows.columns ?? []).filter((c) => (checkColumn(c), matchColumn(c.name))) : [],
    (c) => key(c.catalog, c.schema, c.table)
  )
  const constraintsByTable = groupBy(
    withColumns ? (rows.constraints ?? []).filter((c) => (checkConstraint(c), true)) : [],
    (c) => key(c.catalog, c.schema, c.table)
  )

  const levels: Levels = {
    catalogs: [],
    schemaCounts: [],
    schemas: [],
    tableCounts: [],
    tables: [],
    columnCounts: [],
    columns: [],
    constraintCounts: [],
    constraints: []
  }
  const catalogs = uniqueBy(rows.catalogs.filter(matchCatalog), (c) => key(c)).sort(compareNames)
  for (const catalog of catalogs) {
    levels.catalogs.push(catalog)
    if (!withSchemas) {
      levels.schemaCounts.push(null)
      continue
    }
    const schemas = uniqueBy(schemasByCatalog.get(key(catalog)) ?? [], (s) => key(s.schema)).sort((a, b) =>
      compareNames(a.schema, b.schema)
    )
    levels.schemaCounts.push(schemas.length)
    for (const { schema } of schemas) {
      levels.schemas.push(schema)
      if (!withTables) {
        levels.tableCounts.push(null)
        continue
      }
      const tables = uniqueBy(tablesBySchema.get(key(catalog, schema)) ?? [], (t) => t.name).sort((a, b) =>
        compareNames(a.name, b.name)
      )
      levels.tableCounts.push(tables.length)
      for (const table of tables) {
        levels.tables.push(table)
        if (!withColumns) {
          levels.columnCounts.push(null)
          levels.constraintCounts.push(null)
          continue
        }
        const tableKey = key(catalog, schema, table.name)
        const columns = [...(columnsByTable.get(tableKey) ?? [])].sort(
          (a, b) => a.ordinalPosition - b.ordinalPosition || compareNames(a.name, b.name)
        )
        const constraints = [...(constraintsByTable.get(tableKey) ?? [])].sort(
          (a, b) => compareNamesNullsLast(a.name, b.name) || compareNames(a.type, b.type)
        )
        levels.columnCounts.push(columns.length)
        levels.columns.push(...columns)
        levels.constraintCounts.push(constraints.length)
        levels.constraints.push(...constraints)
      }
    }
  }
  return levels
}

const columnsData = (columns: ReadonlyArray<ColumnRow>): Data =>
  structData(COLUMN_SCHEMA, columns.length, [
    utf8Data(columns.map((c) => c.name)),
    int32Data(columns.map((c) => c.ordinalPosition)),
    utf8Data(columns.map((c) => c.remarks)),
    int16Data(columns.map((c) => c.xdbcDataType)),
    utf8Data(columns.map((c) => c.xdbcTypeName)),
    int32Data(columns.map((c) => c.xdbcColumnSize)),
    int16Data(columns.map((c) => c.xdbcDecimalDigits)),
    int16Data(columns.map((c) => c.xdbcNumPrecRadix)),
    int16Data(columns.map((c) => c.xdbcNullable)),
    utf8Data(columns.map((c) => c.xdbcColumnDef)),
    int16Data(columns.map((c) => c.xdbcSqlDataType)),
    int16Data(columns.map((c) => c.xdbcDatetimeSub)),
    int32Data(columns.map((c) => c.xdbcCharOctetLength)),
    utf8Data(columns.map((c) => c.xdbcIsNullable)),
    utf8Data(columns.map((c) => c.xdbcScopeCatalog)),
    utf8Data(columns.map((c) => c.xdbcScopeSchema)),
    utf8Data(columns.map((c) => c.xdbcScopeTable)),
    boolData(columns.map((c) => c.xdbcIsAutoincrement)),
    boolData(columns.map((c) => c.xdbcIsGeneratedcolumn))
  ])

const constraintsData = (constraints: ReadonlyArray<ConstraintRow>): Data => {
  const usages = constraints.flatMap((c) => c.usage ?? [])
  const usageData = structData(USAGE_SCHEMA, usages.length, [
    utf8Data(usages.map((u) => u.fkCatalog)),
    utf8Data(usages.map((u) => u.fkDbSchema)),
    utf8Data(usages.map((u) => u.fkTable)),
    utf8Data(usages.map((u) => u.fkColumnName))
  ])
  return structData(CONSTRAINT_SCHEMA, constraints.length, [
    utf8Data(constraints.map((c) => c.name)),
    utf8Data(constraints.map((c) => c.type)),
    listData(
      CONSTRAINT_SCHEMA.children[2]!.type,
      constraints.map((c) => c.columns.length),
      utf8Data(constraints.flatMap((c) => c.columns))
    ),
    listData(
      CONSTRAINT_SCHEMA.children[3]!.type,
      constraints.map((c) => c.usage?.length ?? null),
      usageData
    )
  ])
}

/**
 * Builds the GetObjects result for `depth` from driver rows, applying every filter (see the module comment).
 * Throws {@link CatalogError} `invalid-argument` for an unknown depth, `invalid-row` for a row the schema
 * cannot hold.
 */
export const buildGetObjects = (depth: number, filters: GetObjectsFilters, rows: CatalogRows): RecordBatch => {
  if (!isObjectDepth(depth)) {
    throw new CatalogError(
      "invalid-argument",
      `GetObjects: unknown depth ${depth}; expected 0 (all), 1 (catalogs), 2 (db_schemas) or 3 (tables)`
    )
  }
  const levels = collect(depth, filters, rows)
  const tables = structData(TABLE_SCHEMA, levels.tables.length, [
    utf8Data(levels.tables.map((t) => t.name)),
    utf8Data(levels.tables.map((t) => t.type)),
    listData(TABLE_SCHEMA.children[2]!.type, levels.columnCounts, columnsData(levels.columns)),
    listData(TABLE_SCHEMA.children[3]!.type, levels.constraintCounts, constraintsData(levels.constraints))
  ])
  const schemas = structData(DB_SCHEMA_SCHEMA, levels.schemas.length, [
    utf8Data(levels.schemas),
    listData(DB_SCHEMA_SCHEMA.children[1]!.type, levels.tableCounts, tables)
  ])
  return recordBatch(GET_OBJECTS_SCHEMA, levels.catalogs.length, [
    utf8Data(levels.catalogs),
    listData(GET_OBJECTS_SCHEMA.fields[1]!.type, levels.schemaCounts, schemas)
  ])
}
