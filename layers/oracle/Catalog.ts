/**
 * GetObjects rows from Oracle's data dictionary: the current pluggable database (`SYS_CONTEXT('USERENV',
 * 'CON_NAME')`) is the only catalog, with the database users (ALL_USERS) as its schemas; TABLE and VIEW objects from
 * ALL_TABLES and ALL_VIEWS; columns from ALL_TAB_COLUMNS (comments from ALL_COL_COMMENTS); primary key, unique,
 * foreign key and check constraints (NOT NULL ones excepted) from ALL_CONSTRAINTS and ALL_CONS_COLUMNS (Oracle
 * Database Reference, "Static Data
 * Dictionary Views"). The container database and database links are not surfaced as catalogs.
 *
 * Patterns are pushed down as `=` or `LIKE`; the core filters again and builds the Arrow result. Names are
 * case-sensitive: unquoted identifiers are stored in upper case.
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
  type TableRow
} from "../../src/catalog/index.ts"
import { queryAll } from "./DbCalls.ts"
import type { OracleConnection } from "./DbTypes.ts"

/** SQL reading the current pluggable database's name. @category constants @since 0.1.0 */
export const CURRENT_CATALOG_SQL = "SELECT SYS_CONTEXT('USERENV', 'CON_NAME') FROM DUAL"

/** A WHERE fragment with numbered binds for one pattern; `null` when nothing can match. */
const condition = (
  column: string,
  pattern: string | null | undefined,
  binds: Array<string>
): string | null => {
  const p = patternPushdown(pattern)
  switch (p._tag) {
    case "All":
      return ""
    case "Missing":
      return null
    case "Equals":
      binds.push(p.value)
      return ` AND ${column} = :${binds.length}`
    case "Like":
      binds.push(p.pattern)
      return ` AND ${column} LIKE :${binds.length}`
  }
}

const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v))
/**
 * A NOT NULL constraint: Oracle keeps it as a check constraint (type C) whose condition is `"COL" IS NOT NULL` on its
 * one column (Database Reference, ALL_CONSTRAINTS; the dictionary views have nothing else telling the two apart:
 * https://www.orafaq.com/forum/t/58863). It is the column's nullability (`xdbc_is_nullable`), not listed as a CHECK.
 * A check written with exactly that text looks the same in the dictionary views and is left out too.
 */
const isNotNullConstraint = (columns: ReadonlyArray<string>, condition: unknown): boolean =>
  columns.length === 1 && str(condition).trim() === `"${columns[0]!.replaceAll('"', '""')}" IS NOT NULL`

const num = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v))

/** JDBC type codes (java.sql.Types) of Oracle type names, for `xdbc_data_type`. */
const jdbcType = (name: string): number => {
  if (name === "NUMBER" || name === "FLOAT") return 3
  if (name === "BINARY_FLOAT") return 7
  if (name === "BINARY_DOUBLE") return 8
  if (name === "BOOLEAN") return 16
  if (name === "CHAR") return 1
  if (name === "NCHAR") return -15
  if (name === "VARCHAR2") return 12
  if (name === "NVARCHAR2") return -9
  if (name === "RAW") return -3
  if (name === "DATE") return 91
  if (name.startsWith("TIMESTAMP")) return name.includes("TIME ZONE") ? 2014 : 93
  if (name === "CLOB") return 2005
  if (name === "NCLOB") return 2011
  if (name === "BLOB") return 2004
  if (name === "LONG") return -1
  if (name === "LONG RAW") return -4
  return 1111
}

/**
 * Reads the catalog rows GetObjects needs at `depth` with `filters`.
 *
 * @category catalog
 * @since 0.1.0
 */
export const catalogRows = (
  connection: OracleConnection,
  depth: ObjectDepth,
  filters: GetObjectsFilters
): Effect.Effect<CatalogRows, AdbcError> =>
  Effect.gen(function*() {
    const catalog = str((yield* queryAll(connection, CURRENT_CATALOG_SQL))[0]?.[0])
    const levels = objectDepthLevels(depth)
    const catalogs = [catalog]
    if (!levels.schemas || !compilePattern(filters.catalog)(catalog)) return { catalogs }

    const schemaBinds: Array<string> = []
    const schemaCond = condition("USERNAME", filters.dbSchema, schemaBinds)
    if (schemaCond === null) return { catalogs, schemas: [], tables: [], columns: [], constraints: [] }
    const schemaRows = yield* queryAll(connection, `SELECT USERNAME FROM ALL_USERS WHERE 1 = 1${schemaCond}`, schemaBinds)
    const schemas = schemaRows.map((r) => ({ catalog, schema: str(r[0]) }))
    if (!levels.tables) return { catalogs, schemas }

    const types = filters.tableTypes ?? []
    const wantTables = types.length === 0 || types.includes("TABLE")
    const wantViews = types.length === 0 || types.includes("VIEW")
    const tables: Array<TableRow> = []
    const objectBinds: Array<string> = []
    const ownerCond = condition("OWNER", filters.dbSchema, objectBinds)
    const tableCond = condition("TABLE_NAME", filters.tableName, objectBinds)
    if (ownerCond !== null && tableCond !== null) {
      if (wantTables) {
        const rows = yield* queryAll(
          connection,
          `SELECT OWNER, TABLE_NAME FROM ALL_TABLES WHERE 1 = 1${ownerCond}${tableCond}`,
          objectBinds
        )
        for (const r of rows) tables.push({ catalog, schema: str(r[0]), name: str(r[1]), type: "TABLE" })
      }
      if (wantViews) {
        const rows = yield* queryAll(
          connection,
          `SELECT OWNER, VIEW_NAME FROM ALL_VIEWS WHERE 1 = 1${ownerCond}${tableCond.replace("TABLE_NAME", "VIEW_NAME")}`,
          objectBinds
        )
        for (const r of rows) tables.push({ catalog, schema: str(r[0]), name: str(r[1]), type: "VIEW" })
      }
    }
    if (!levels.columns || tables.length === 0) return { catalogs, schemas, tables }

    const listed = new Set(tables.map((t) => `${t.schema}\u0000${t.name}`))
    const keep = (schema: string, table: string) => listed.has(`${schema}\u0000${table}`)
    const columnBinds = [...objectBinds]
    const columnCond = condition("C.COLUMN_NAME", filters.columnName, columnBinds)
    const columns: Array<ColumnRow> = []
    if (ownerCond !== null && tableCond !== null && columnCond !== null) {
      const rows = yield* queryAll(
        connection,
        `SELECT C.OWNER, C.TABLE_NAME, C.COLUMN_NAME, C.COLUMN_ID, C.DATA_TYPE, C.DATA_PRECISION, C.DATA_SCALE, C.CHAR_LENGTH, C.NULLABLE, M.COMMENTS FROM ALL_TAB_COLUMNS C LEFT JOIN ALL_COL_COMMENTS M ON M.OWNER = C.OWNER AND M.TABLE_NAME = C.TABLE_NAME AND M.COLUMN_NAME = C.COLUMN_NAME WHERE 1 = 1${
          ownerCond.replaceAll("OWNER", "C.OWNER")
        }${tableCond.replaceAll("TABLE_NAME", "C.TABLE_NAME")}${columnCond}`,
        columnBinds
      )
      for (const r of rows) {
        if (!keep(str(r[0]), str(r[1]))) continue
        const type = str(r[4])
        const jdbc = jdbcType(type)
        const nullable = str(r[8]) !== "N"
        const precision = num(r[5])
        columns.push({
          catalog,
          schema: str(r[0]),
          table: str(r[1]),
          name: str(r[2]),
          ordinalPosition: Number(r[3]),
          remarks: r[9] === null || r[9] === undefined ? null : String(r[9]),
          xdbcDataType: jdbc,
          xdbcTypeName: type,
          xdbcColumnSize: precision ?? (num(r[7]) || null),
          xdbcDecimalDigits: num(r[6]),
          xdbcNumPrecRadix: jdbc === 3 || jdbc === 7 || jdbc === 8 ? 10 : null,
          xdbcNullable: nullable ? 1 : 0,
          xdbcSqlDataType: jdbc,
          xdbcIsNullable: nullable ? "YES" : "NO",
          xdbcIsAutoincrement: false,
          xdbcIsGeneratedcolumn: false
        })
      }
    }
    const constraints: Array<ConstraintRow> = []
    if (wantTables && ownerCond !== null && tableCond !== null) {
      const rows = yield* queryAll(
        connection,
        `SELECT K.OWNER, K.TABLE_NAME, K.CONSTRAINT_NAME, K.CONSTRAINT_TYPE, C.COLUMN_NAME, C.POSITION, R.OWNER, R.TABLE_NAME, RC.COLUMN_NAME, K.SEARCH_CONDITION_VC FROM ALL_CONSTRAINTS K JOIN ALL_CONS_COLUMNS C ON C.OWNER = K.OWNER AND C.CONSTRAINT_NAME = K.CONSTRAINT_NAME LEFT JOIN ALL_CONSTRAINTS R ON R.OWNER = K.R_OWNER AND R.CONSTRAINT_NAME = K.R_CONSTRAINT_NAME LEFT JOIN ALL_CONS_COLUMNS RC ON RC.OWNER = R.OWNER AND RC.CONSTRAINT_NAME = R.CONSTRAINT_NAME AND RC.POSITION = C.POSITION WHERE K.CONSTRAINT_TYPE IN ('P', 'U', 'R', 'C')${
          ownerCond.replaceAll("OWNER", "K.OWNER")
        }${tableCond.replaceAll("TABLE_NAME", "K.TABLE_NAME")}`,
        objectBinds
      )
      const grouped = new Map<string, Array<ReadonlyArray<unknown>>>()
      for (const r of rows) {
        if (!keep(str(r[0]), str(r[1]))) continue
        const key = `${str(r[0])}\u0000${str(r[1])}\u0000${str(r[2])}`
        grouped.set(key, [...(grouped.get(key) ?? []), r])
      }
      for (const parts of grouped.values()) {
        const sorted = [...parts].sort((a, b) => Number(a[5]) - Number(b[5]))
        const first = sorted[0]!
        const kind = str(first[3])
        if (kind === "C" && isNotNullConstraint(sorted.map((p) => str(p[4])), first[9])) continue
        constraints.push({
          catalog,
          schema: str(first[0]),
          table: str(first[1]),
          name: str(first[2]),
          type: kind === "P" ? "PRIMARY KEY" : kind === "U" ? "UNIQUE" : kind === "C" ? "CHECK" : "FOREIGN KEY",
          columns: sorted.map((p) => str(p[4])),
          ...(kind === "R"
            ? {
              usage: sorted.map((p) => ({
                fkCatalog: catalog,
                fkDbSchema: str(p[6]),
                fkTable: str(p[7]),
                fkColumnName: str(p[8])
              }))
            }
            : {})
        })
      }
    }
    return { catalogs, schemas, tables, columns, constraints }
  })
