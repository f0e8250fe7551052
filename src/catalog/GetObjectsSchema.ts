/**
 * The exact ADBC 1.1 GetObjects result schema and depth constants.
 *
 * Field by field as in apache/arrow-adbc c/include/arrow-adbc/adbc.h (AdbcConnectionGetObjects),
 * go/adbc/standard_schemas.go and c/driver/framework/objects.cc `MakeGetObjectsSchema`: list children are
 * named `item` and nullable; only the fields marked NOT NULL there are non-nullable here.
 */
import { Bool, Field, Int16, Int32, List, Schema, Struct, Utf8 } from "apache-arrow"

/** GetObjects depth values (adbc.h `ADBC_OBJECT_DEPTH_*`). */
export const ObjectDepth = {
  /** Catalogs, schemas, tables, columns and constraints. */
  ALL: 0,
  /** Catalogs only (`catalog_db_schemas` null). */
  CATALOGS: 1,
  /** Catalogs and schemas (`db_schema_tables` null). */
  DB_SCHEMAS: 2,
  /** Catalogs, schemas and tables (`table_columns`, `table_constraints` null). */
  TABLES: 3,
  /** Same as `ALL`. */
  COLUMNS: 0
} as const

/** A GetObjects depth: 0 (all/columns), 1 (catalogs), 2 (db schemas) or 3 (tables). */
export type ObjectDepth = 0 | 1 | 2 | 3

/** True for the four valid depth values. */
export const isObjectDepth = (u: unknown): u is ObjectDepth => u === 0 || u === 1 || u === 2 || u === 3

/** Which levels below catalogs a depth lists, so drivers run only the dictionary queries they need. */
export interface ObjectDepthLevels {
  readonly schemas: boolean
  readonly tables: boolean
  /** Columns and constraints. */
  readonly columns: boolean
}

/** The levels listed at `depth`: CATALOGS none, DB_SCHEMAS schemas, TABLES schemas and tables, ALL all. */
export const objectDepthLevels = (depth: ObjectDepth): ObjectDepthLevels => ({
  schemas: depth !== ObjectDepth.CATALOGS,
  tables: depth === ObjectDepth.TABLES || depth === ObjectDepth.ALL,
  columns: depth === ObjectDepth.ALL
})

const utf8 = (name: string, nullable = true) => new Field(name, new Utf8(), nullable)
const int16 = (name: string) => new Field(name, new Int16(), true)
const int32 = (name: string) => new Field(name, new Int32(), true)
const bool = (name: string) => new Field(name, new Bool(), true)
const listOf = <T extends Utf8 | Struct>(type: T) => new List(new Field("item", type, true))

/** `USAGE_SCHEMA`: one foreign-key column reference. */
export const USAGE_SCHEMA = new Struct([
  utf8("fk_catalog"),
  utf8("fk_db_schema"),
  utf8("fk_table", false),
  utf8("fk_column_name", false)
])

/** `CONSTRAINT_SCHEMA`: one table constraint. */
export const CONSTRAINT_SCHEMA = new Struct([
  utf8("constraint_name"),
  utf8("constraint_type", false),
  new Field("constraint_column_names", listOf(new Utf8()), false),
  new Field("constraint_column_usage", listOf(USAGE_SCHEMA), true)
])

/** `COLUMN_SCHEMA`: one column with its XDBC (JDBC/ODBC-style) metadata; `xdbc_*` are null when unknown. */
export const COLUMN_SCHEMA = new Struct([
  utf8("column_name", false),
  int32("ordinal_position"),
  utf8("remarks"),
  int16("xdbc_data_type"),
  utf8("xdbc_type_name"),
  int32("xdbc_column_size"),
  int16("xdbc_decimal_digits"),
  int16("xdbc_num_prec_radix"),
  int16("xdbc_nullable"),
  utf8("xdbc_column_def"),
  int16("xdbc_sql_data_type"),
  int16("xdbc_datetime_sub"),
  int32("xdbc_char_octet_length"),
  utf8("xdbc_is_nullable"),
  utf8("xdbc_scope_catalog"),
  utf8("xdbc_scope_schema"),
  utf8("xdbc_scope_table"),
  bool("xdbc_is_autoincrement"),
  bool("xdbc_is_generatedcolumn")
])

/** `TABLE_SCHEMA`: one table with its columns and constraints. */
export const TABLE_SCHEMA = new Struct([
  utf8("table_name", false),
  utf8("table_type", false),
  new Field("table_columns", listOf(COLUMN_SCHEMA), true),
  new Field("table_constraints", listOf(CONSTRAINT_SCHEMA), true)
])

/** `DB_SCHEMA_SCHEMA`: one database schema with its tables. */
export const DB_SCHEMA_SCHEMA = new Struct([
  utf8("db_schema_name"),
  new Field("db_schema_tables", listOf(TABLE_SCHEMA), true)
])

/** The GetObjects result schema: `catalog_name utf8, catalog_db_schemas list<DB_SCHEMA_SCHEMA>`. */
export const GET_OBJECTS_SCHEMA = new Schema([
  utf8("catalog_name"),
  new Field("catalog_db_schemas", listOf(DB_SCHEMA_SCHEMA), true)
])
