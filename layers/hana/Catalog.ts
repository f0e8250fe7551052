/**
 * GetObjects rows from HANA's dictionary: one synthetic catalog `db`; schemas from SYS.SCHEMAS; TABLE and VIEW
 * objects from SYS.TABLES and SYS.VIEWS; the current connection's local temporary tables (listed as TABLE with
 * their `#` name, the v0.1.0-alpha.5 rule) from SYS.M_TEMPORARY_TABLES; columns from SYS.TABLE_COLUMNS,
 * SYS.VIEW_COLUMNS and SYS.M_TEMPORARY_TABLE_COLUMNS; constraints (primary key, unique, check) from SYS.CONSTRAINTS and
 * SYS.REFERENTIAL_CONSTRAINTS. The schema SYS and schemas matching `_SYS_*` are excluded.
 *
 * Only the dictionary queries the depth needs run, with the search patterns pushed down (`=` or `LIKE`); the core
 * filters again and builds the Arrow result. Names are case-sensitive: unquoted identifiers are stored in upper
 * case, so a table created as `CREATE TABLE foo` is found as `FOO`, one created as `"Foo"` only as `Foo`.
 *
 * View names: SAP HANA SQL and System Views Reference (SCHEMAS, TABLES, VIEWS, TABLE_COLUMNS, VIEW_COLUMNS,
 * CONSTRAINTS, REFERENTIAL_CONSTRAINTS, M_TEMPORARY_TABLES, M_TEMPORARY_TABLE_COLUMNS).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import {
  type CatalogRows,
  type ColumnRow,
  compilePattern,
  type ConstraintRow,
  type GetObjectsFilters,
  type ObjectDepth,
  objectDepthLevels,
  patternPushdown,
  type SchemaRow,
  type TableRow
} from "../../src/catalog/index.ts"
import { queryAll } from "./DbCalls.ts"
import type { HdbClient } from "./DbTypes.ts"

/** The one catalog name. @category constants @since 0.1.0 */
export const CATALOG = "db"

/** Whether a schema is a system schema hidden from listings (SYS, _SYS_*). @category catalog @since 0.1.0 */
export const isSystemSchema = (name: string): boolean => name === "SYS" || name.startsWith("_SYS_")

/** A WHERE fragment and its values for one pattern on one column; `null` when nothing can match. */
const condition = (
  column: string,
  pattern: string | null | undefined
): { sql: string; values: Array<string> } | null => {
  const p = patternPushdown(pattern)
  switch (p._tag) {
    case "All":
      return { sql: "", values: [] }
    case "Missing":
      return null
    case "Equals":
      return { sql: ` AND ${column} = ?`, values: [p.value] }
    case "Like":
      return { sql: ` AND ${column} LIKE ?`, values: [p.pattern] }
  }
}

const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v))
const num = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v))

/** JDBC type codes of HANA type names (java.sql.Types), for `xdbc_data_type`. */
const JDBC_TYPES: Readonly<Record<string, number>> = {
  TINYINT: -6,
  SMALLINT: 5,
  INTEGER: 4,
  BIGINT: -5,
  DECIMAL: 3,
  SMALLDECIMAL: 3,
  REAL: 7,
  DOUBLE: 8,
  BOOLEAN: 16,
  CHAR: 1,
  NCHAR: -15,
  VARCHAR: 12,
  NVARCHAR: -9,
  ALPHANUM: -9,
  SHORTTEXT: -9,
  BINARY: -2,
  VARBINARY: -3,
  DATE: 91,
  TIME: 92,
  SECONDDATE: 93,
  TIMESTAMP: 93,
  CLOB: 2005,
  NCLOB: 2011,
  TEXT: 2011,
  BLOB: 2004
}

const columnRow = (
  schema: string,
  table: string,
  row: ReadonlyArray<unknown>,
  hasRemarks: boolean
): ColumnRow => {
  const [name, position, typeName, length, scale, nullable, def, remarks] = row
  const type = str(typeName)
  const jdbc = JDBC_TYPES[type] ?? 1111
  const isNullable = str(nullable).toUpperCase() === "TRUE"
  return {
    catalog: CATALOG,
    schema,
    table,
    name: str(name),
    ordinalPosition: Number(position),
    remarks: hasRemarks && remarks !== null && remarks !== undefined ? String(remarks) : null,
    xdbcDataType: jdbc,
    xdbcTypeName: type,
    xdbcColumnSize: num(length),
    xdbcDecimalDigits: num(scale),
    xdbcNumPrecRadix: [3, -6, 5, 4, -5, 7, 8].includes(jdbc) ? 10 : null,
    xdbcNullable: isNullable ? 1 : 0,
    xdbcColumnDef: def === null || def === undefined ? null : String(def),
    xdbcSqlDataType: jdbc,
    xdbcIsNullable: isNullable ? "YES" : "NO",
    xdbcIsAutoincrement: false,
    xdbcIsGeneratedcolumn: false
  }
}

/**
 * Reads the catalog rows GetObjects needs at `depth` with `filters`.
 *
 * @category catalog
 * @since 0.1.0
 */
export const catalogRows = (
  client: HdbClient,
  depth: ObjectDepth,
  filters: GetObjectsFilters
): Effect.Effect<CatalogRows, AdbcError> =>
  Effect.gen(function*() {
    const levels = objectDepthLevels(depth)
    const catalogs = [CATALOG]
    if (!levels.schemas || !compilePattern(filters.catalog)(CATALOG)) return { catalogs }

    const schemaCond = condition("SCHEMA_NAME", filters.dbSchema)
    if (schemaCond === null) return { catalogs, schemas: [], tables: [], columns: [], constraints: [] }
    const schemaRows = yield* queryAll(
      client,
      `SELECT SCHEMA_NAME FROM SYS.SCHEMAS WHERE 1 = 1${schemaCond.sql}`,
      schemaCond.values
    )
    const schemas: Array<SchemaRow> = schemaRows
      .map((r) => str(r[0]))
      .filter((name) => !isSystemSchema(name))
      .map((schema) => ({ catalog: CATALOG, schema }))
    if (!levels.tables) return { catalogs, schemas }

    const tableCond = condition("TABLE_NAME", filters.tableName)
    const viewCond = condition("VIEW_NAME", filters.tableName)
    const types = filters.tableTypes ?? []
    const wantTables = types.length === 0 || types.includes("TABLE")
    const wantViews = types.length === 0 || types.includes("VIEW")
    const tables: Array<TableRow> = []
    const temporary = new Set<string>()
    if (tableCond !== null && viewCond !== null) {
      if (wantTables) {
        const rows = yield* queryAll(
          client,
          `SELECT SCHEMA_NAME, TABLE_NAME FROM SYS.TABLES WHERE 1 = 1${schemaCond.sql}${tableCond.sql}`,
          [...schemaCond.values, ...tableCond.values]
        )
        for (const r of rows) tables.push({ catalog: CATALOG, schema: str(r[0]), name: str(r[1]), type: "TABLE" })
        // Local temporary tables are the `#` ones of this connection (the filter real HANA code uses:
        // `M_TEMPORARY_TABLES WHERE ... CONNECTION_ID = CURRENT_CONNECTION`); global temporary tables have no `#`.
        const temps = yield* queryAll(
          client,
          `SELECT SCHEMA_NAME, TABLE_NAME FROM SYS.M_TEMPORARY_TABLES WHERE CONNECTION_ID = CURRENT_CONNECTION${schemaCond.sql}${tableCond.sql}`,
          [...schemaCond.values, ...tableCond.values]
        )
        for (const r of temps) {
          if (!str(r[1]).startsWith("#")) continue
          tables.push({ catalog: CATALOG, schema: str(r[0]), name: str(r[1]), type: "TABLE" })
          temporary.add(`${str(r[0])}\u0000${str(r[1])}`)
        }
      }
      if (wantViews) {
        const rows = yield* queryAll(
          client,
          `SELECT SCHEMA_NAME, VIEW_NAME FROM SYS.VIEWS WHERE 1 = 1${schemaCond.sql}${viewCond.sql}`,
          [...schemaCond.values, ...viewCond.values]
        )
        for (const r of rows) tables.push({ catalog: CATALOG, schema: str(r[0]), name: str(r[1]), type: "VIEW" })
      }
    }
    const visibleTables = tables.filter((t) => !isSystemSchema(t.schema ?? ""))
    if (!levels.columns || visibleTables.length === 0) return { catalogs, schemas, tables: visibleTables }

    const columnCond = condition("COLUMN_NAME", filters.columnName)
    const columns: Array<ColumnRow> = []
    const constraints: Array<ConstraintRow> = []
    const listed = new Set(visibleTables.map((t) => `${t.schema}\u0000${t.name}`))
    const keep = (schema: string, table: string) => listed.has(`${schema}\u0000${table}`)
    const tableFilter = tableCond ?? { sql: "", values: [] }
    const viewFilter = viewCond ?? { sql: "", values: [] }
    if (columnCond !== null) {
      const columnList = "COLUMN_NAME, POSITION, DATA_TYPE_NAME, LENGTH, SCALE, IS_NULLABLE, DEFAULT_VALUE"
      if (wantTables) {
        const rows = yield* queryAll(
          client,
          `SELECT SCHEMA_NAME, TABLE_NAME, ${columnList}, COMMENTS FROM SYS.TABLE_COLUMNS WHERE 1 = 1${schemaCond.sql}${tableFilter.sql}${columnCond.sql}`,
          [...schemaCond.values, ...tableFilter.values, ...columnCond.values]
        )
        for (const r of rows) {
          if (keep(str(r[0]), str(r[1]))) columns.push(columnRow(str(r[0]), str(r[1]), r.slice(2), true))
        }
        if (temporary.size > 0) {
          const temps = yield* queryAll(
            client,
            `SELECT SCHEMA_NAME, TABLE_NAME, ${columnList} FROM SYS.M_TEMPORARY_TABLE_COLUMNS WHERE CONNECTION_ID = CURRENT_CONNECTION${schemaCond.sql}${tableFilter.sql}${columnCond.sql}`,
            [...schemaCond.values, ...tableFilter.values, ...columnCond.values]
          )
          for (const r of temps) {
            if (temporary.has(`${str(r[0])}\u0000${str(r[1])}`)) {
              columns.push(columnRow(str(r[0]), str(r[1]), r.slice(2), false))
            }
          }
        }
      }
      if (wantViews) {
        const rows = yield* queryAll(
          client,
          `SELECT SCHEMA_NAME, VIEW_NAME, ${columnList}, COMMENTS FROM SYS.VIEW_COLUMNS WHERE 1 = 1${schemaCond.sql}${viewFilter.sql}${columnCond.sql}`,
          [...schemaCond.values, ...viewFilter.values, ...columnCond.values]
        )
        for (const r of rows) {
          if (keep(str(r[0]), str(r[1]))) columns.push(columnRow(str(r[0]), str(r[1]), r.slice(2), true))
        }
      }
    }
    if (wantTables) {
      const keyRows = yield* queryAll(
        client,
        `SELECT SCHEMA_NAME, TABLE_NAME, CONSTRAINT_NAME, IS_PRIMARY_KEY, COLUMN_NAME, POSITION, CHECK_CONDITION FROM SYS.CONSTRAINTS WHERE 1 = 1${schemaCond.sql}${tableFilter.sql}`,
        [...schemaCond.values, ...tableFilter.values]
      )
      const grouped = new Map<string, { row: ReadonlyArray<unknown>; columns: Array<[number, string]> }>()
      for (const r of keyRows) {
        if (!keep(str(r[0]), str(r[1]))) continue
        const key = `${str(r[0])}\u0000${str(r[1])}\u0000${str(r[2])}`
        const entry = grouped.get(key) ?? { row: r, columns: [] }
        if (r[4] !== null && r[4] !== undefined) entry.columns.push([Number(r[5]), str(r[4])])
        grouped.set(key, entry)
      }
      for (const { columns: cols, row } of grouped.values()) {
        // SYS.CONSTRAINTS holds primary keys, unique and check constraints; a check one has its CHECK_CONDITION
        // (SAP's sqlalchemy-hana dialect reads checks as the rows with CHECK_CONDITION IS NOT NULL)
        const type = str(row[3]).toUpperCase() === "TRUE" ? "PRIMARY KEY" : row[6] !== null && row[6] !== undefined ? "CHECK" : "UNIQUE"
        constraints.push({
          catalog: CATALOG,
          schema: str(row[0]),
          table: str(row[1]),
          name: str(row[2]),
          type,
          columns: cols.sort((a, b) => a[0] - b[0]).map((c) => c[1])
        })
      }
      const fkRows = yield* queryAll(
        client,
        `SELECT SCHEMA_NAME, TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, POSITION, REFERENCED_SCHEMA_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM SYS.REFERENTIAL_CONSTRAINTS WHERE 1 = 1${schemaCond.sql}${tableFilter.sql}`,
        [...schemaCond.values, ...tableFilter.values]
      )
      const fks = new Map<string, { row: ReadonlyArray<unknown>; parts: Array<ReadonlyArray<unknown>> }>()
      for (const r of fkRows) {
        if (!keep(str(r[0]), str(r[1]))) continue
        const key = `${str(r[0])}\u0000${str(r[1])}\u0000${str(r[2])}`
        const entry = fks.get(key) ?? { row: r, parts: [] }
        entry.parts.push(r)
        fks.set(key, entry)
      }
      for (const { parts, row } of fks.values()) {
        const sorted = [...parts].sort((a, b) => Number(a[4]) - Number(b[4]))
        constraints.push({
          catalog: CATALOG,
          schema: str(row[0]),
          table: str(row[1]),
          name: str(row[2]),
          type: "FOREIGN KEY",
          columns: sorted.map((p) => str(p[3])),
          usage: sorted.map((p) => ({
            fkCatalog: CATALOG,
            fkDbSchema: str(p[5]),
            fkTable: str(p[6]),
            fkColumnName: str(p[7])
          }))
        })
      }
    }
    return { catalogs, schemas, tables: visibleTables, columns, constraints }
  })
