/**
 * HANA's system schema as DuckDB views over DuckDB's own catalog functions, with HANA's view and column names:
 * SYS.SCHEMAS, TABLES, VIEWS, TABLE_COLUMNS, VIEW_COLUMNS, CONSTRAINTS, REFERENTIAL_CONSTRAINTS, SEQUENCES, INDEXES, USERS,
 * M_DATABASE, M_TEMPORARY_TABLES, M_TEMPORARY_TABLE_COLUMNS, plus SYS.DUMMY.
 *
 * Column names follow the SAP HANA SQL and System Views Reference (help.sap.com, "System Views Reference": TABLES,
 * TABLE_COLUMNS, CONSTRAINTS, REFERENTIAL_CONSTRAINTS, USERS, SCHEMAS, VIEWS, M_DATABASE, M_TEMPORARY_TABLES);
 * only a documented subset of each view's columns is provided (testkit/hana/README.md lists them).
 * Views run in the querying session, so DuckDB's catalog functions show that session's TEMP tables, and session
 * values come from DuckDB variables set at login (`hana_user`, `hana_schema`, `hana_connection_id`).
 */
import type { Session } from "../engine/index.ts"
import { COLUMN_OPTION_COLUMNS, COLUMN_OPTIONS_TABLE } from "./column-options.ts"
import { EXPLAIN_PLAN_TABLE } from "./explain-plan.ts"
import { SERVER_CHECK_TEXTS } from "./errors.ts"
import { MONITORING_VIEWS, OTHER_TEMPORARY_TABLES } from "./monitoring-views.ts"
import { ticksOfText } from "./longdate.ts"
import { encodeName, quoteString } from "./names.ts"

/**
 * Whether CHECK `k` is the user's: the server's own CHECKs (ddl.ts lengthCheck) raise one of SERVER_CHECK_TEXTS
 * through error(), so their expression holds that text as a literal; tables made before lengthCheck raised its texts
 * hold a plain `(length(col) <= n)` (errors.ts reads a failure of either as 274).
 */
const USER_CHECK = [
  ...SERVER_CHECK_TEXTS.map((text) => `NOT contains(k.expression, ${quoteString(text)})`),
  `NOT regexp_matches(k.expression, '^\\((octet_)?length\\("?[^")]+"?\\) <= \\d+\\)$')`
].join(" AND ")

const decode = (expr: string): string => `regexp_replace(${expr}, '~(.)', '\\1', 'g')`

/** A constraint's name: the one its DDL gave (alter-table.ts keeps it), else DuckDB's. */
const constraintName = (k: string): string =>
  `COALESCE((SELECT min(n.CONSTRAINT_NAME) FROM "SYS"."_CONSTRAINT_NAMES" n WHERE n.TABLE_OID = ${k}.table_oid AND n.CONSTRAINT_TEXT = ${k}.constraint_text), ${k}.constraint_name)`

/** HANA type text of a column: its comment (written by CREATE TABLE) or a mapping of the DuckDB type. */
export const HANA_TYPE = `COALESCE(NULLIF(c.comment, ''), CASE
  WHEN c.data_type = 'INTEGER' THEN 'INTEGER'
  WHEN c.data_type = 'BIGINT' THEN 'BIGINT'
  WHEN c.data_type IN ('SMALLINT', 'TINYINT') THEN 'SMALLINT'
  WHEN c.data_type = 'UTINYINT' THEN 'TINYINT'
  WHEN c.data_type = 'DOUBLE' THEN 'DOUBLE'
  WHEN c.data_type = 'FLOAT' THEN 'REAL'
  WHEN c.data_type = 'BOOLEAN' THEN 'BOOLEAN'
  WHEN c.data_type = 'DATE' THEN 'DATE'
  WHEN c.data_type = 'TIME' THEN 'TIME'
  WHEN c.data_type = 'TIMESTAMP_S' THEN 'SECONDDATE'
  WHEN c.data_type = 'UBIGINT' THEN 'TIMESTAMP'
  WHEN c.data_type LIKE 'TIMESTAMP%' THEN 'TIMESTAMP'
  WHEN c.data_type = 'BLOB' THEN 'VARBINARY(5000)'
  WHEN c.data_type LIKE 'DECIMAL%' THEN 'DECIMAL(' || c.numeric_precision || ',' || c.numeric_scale || ')'
  WHEN c.data_type = 'BIT' THEN 'BIT'
  ELSE 'NVARCHAR(5000)' END)`

const TYPE_ID = (name: string): string => `CASE ${name}
  WHEN 'TINYINT' THEN -6 WHEN 'SMALLINT' THEN 5 WHEN 'INTEGER' THEN 4 WHEN 'BIGINT' THEN -5
  WHEN 'DECIMAL' THEN 3 WHEN 'SMALLDECIMAL' THEN 3 WHEN 'REAL' THEN 7 WHEN 'DOUBLE' THEN 8 WHEN 'BOOLEAN' THEN 16
  WHEN 'VARCHAR' THEN 12 WHEN 'NVARCHAR' THEN -9 WHEN 'CHAR' THEN 1 WHEN 'NCHAR' THEN -15 WHEN 'ALPHANUM' THEN -9
  WHEN 'SHORTTEXT' THEN -9 WHEN 'VARBINARY' THEN -3 WHEN 'BINARY' THEN -2 WHEN 'DATE' THEN 91 WHEN 'TIME' THEN 92
  WHEN 'SECONDDATE' THEN 93 WHEN 'TIMESTAMP' THEN 93 WHEN 'CLOB' THEN 2005 WHEN 'NCLOB' THEN 2011 WHEN 'TEXT' THEN 2011
  WHEN 'BLOB' THEN 2004 WHEN 'BIT' THEN -7 ELSE 1111 END`

const LENGTH = `CAST(COALESCE(DECLARED_LENGTH, CASE DATA_TYPE_NAME WHEN 'TINYINT' THEN 3 WHEN 'SMALLINT' THEN 5
  WHEN 'INTEGER' THEN 10 WHEN 'BIGINT' THEN 19 WHEN 'REAL' THEN 24 WHEN 'DOUBLE' THEN 53 WHEN 'BOOLEAN' THEN 1 WHEN 'DATE' THEN 10
  WHEN 'TIME' THEN 8 WHEN 'SECONDDATE' THEN 19 WHEN 'TIMESTAMP' THEN 27 WHEN 'SMALLDECIMAL' THEN 16 WHEN 'DECIMAL' THEN 34 ELSE 0 END) AS INTEGER)`

/** Options describing the server, shown by SYS.M_DATABASE. */
export interface CatalogInfo {
  readonly systemId: string
  readonly databaseName: string
  readonly version: string
}

/** SQL creating the SYS schema, the _SYS_* schemas and every catalog view. */
export const catalogSql = (info: CatalogInfo): string => {
  const columnsBase = `SELECT ${decode("c.schema_name")} AS SCHEMA_NAME, ${decode("c.table_name")} AS TABLE_NAME,
      CAST(c.table_oid AS BIGINT) AS TABLE_OID, ${decode("c.column_name")} AS COLUMN_NAME,
      CAST(c.column_index AS INTEGER) AS POSITION, ${HANA_TYPE} AS HANA_TYPE,
      CASE WHEN c.is_nullable THEN 'TRUE' ELSE 'FALSE' END AS IS_NULLABLE, c.column_default AS DEFAULT_VALUE,
      c.database_name AS DATABASE_NAME
    FROM duckdb_columns() c`
  const typed = (from: string): string => `SELECT *, regexp_extract(HANA_TYPE, '^([A-Z_]+)', 1) AS DATA_TYPE_NAME,
      TRY_CAST(NULLIF(regexp_extract(HANA_TYPE, '\\((\\d+)', 1), '') AS INTEGER) AS DECLARED_LENGTH,
      TRY_CAST(NULLIF(regexp_extract(HANA_TYPE, ',(\\d+)\\)', 1), '') AS INTEGER) AS DECLARED_SCALE FROM (${from})`
  const columnList = `SCHEMA_NAME, TABLE_NAME, TABLE_OID, COLUMN_NAME, POSITION, ${TYPE_ID("DATA_TYPE_NAME")} AS DATA_TYPE_ID,
      DATA_TYPE_NAME, CAST(0 AS INTEGER) AS OFFSET,
      ${LENGTH} AS LENGTH,
      CAST(CASE WHEN DATA_TYPE_NAME = 'DECIMAL' THEN DECLARED_SCALE WHEN DATA_TYPE_NAME = 'TIMESTAMP' THEN 7 ELSE NULL END AS INTEGER) AS SCALE,
      IS_NULLABLE, DEFAULT_VALUE, CAST(NULL AS VARCHAR) AS COLLATION, ${COLUMN_OPTION_COLUMNS},
      'NONE' AS GENERATION_TYPE`
  const sysSchemas = ["SYS", "_SYS_BIC", "_SYS_REPO", "_SYS_STATISTICS", "_SYS_TASK", "_SYS_AFL"]
  return [
    ...sysSchemas.map((s) => `CREATE SCHEMA IF NOT EXISTS "${s}"`),
    `CREATE TABLE "SYS"."DUMMY" ("DUMMY" VARCHAR)`,
    `INSERT INTO "SYS"."DUMMY" VALUES ('X')`,
    `COMMENT ON COLUMN "SYS"."DUMMY"."DUMMY" IS 'VARCHAR(1)'`,
    `CREATE TABLE "SYS"."_ROW_TABLES" (TABLE_OID BIGINT)`,
    // UNLOAD PRIORITY and PARTITION BY of a table (table-clauses.ts), by oid.
    `CREATE TABLE "SYS"."_TABLE_OPTIONS" (TABLE_OID BIGINT, UNLOAD_PRIORITY INTEGER, PARTITION_SPEC VARCHAR)`,
    // The names `CONSTRAINT n` gave, by table oid and DuckDB's constraint text (DuckDB keeps no names; alter-table.ts).
    `CREATE TABLE "SYS"."_CONSTRAINT_NAMES" (TABLE_OID BIGINT, CONSTRAINT_NAME VARCHAR, CONSTRAINT_TEXT VARCHAR)`,
    COLUMN_OPTIONS_TABLE,
    EXPLAIN_PLAN_TABLE,
    `CREATE TABLE "SYS"."_USERS" (USER_NAME VARCHAR, USER_ID BIGINT, CREATOR VARCHAR, CREATE_TIME UBIGINT,
      DEFAULT_SCHEMA VARCHAR)`,
    // Which login mechanisms each user has enabled: written by identity/catalog.ts (ALTER USER … ENABLE X509 & co.).
    `CREATE TABLE "SYS"."_USER_AUTHENTICATION" (USER_NAME VARCHAR, IS_PASSWORD_ENABLED VARCHAR, IS_X509_ENABLED VARCHAR,
      IS_JWT_ENABLED VARCHAR, IS_SAML_ENABLED VARCHAR)`,
    `CREATE VIEW "SYS"."USERS" AS SELECT u.USER_NAME, USER_ID, CAST(NULL AS VARCHAR) AS USERGROUP_NAME, CREATOR, CREATE_TIME,
      CAST(NULL AS UBIGINT) AS VALID_FROM, CAST(NULL AS UBIGINT) AS VALID_UNTIL,
      CAST(NULL AS UBIGINT) AS LAST_SUCCESSFUL_CONNECT, 'FALSE' AS USER_DEACTIVATED,
      COALESCE(a.IS_PASSWORD_ENABLED, 'TRUE') AS IS_PASSWORD_ENABLED, DEFAULT_SCHEMA AS DEFAULT_SCHEMA_NAME,
      COALESCE(a.IS_X509_ENABLED, 'FALSE') AS IS_X509_ENABLED, COALESCE(a.IS_JWT_ENABLED, 'FALSE') AS IS_JWT_ENABLED,
      COALESCE(a.IS_SAML_ENABLED, 'FALSE') AS IS_SAML_ENABLED
      FROM "SYS"."_USERS" u LEFT JOIN "SYS"."_USER_AUTHENTICATION" a ON a.USER_NAME = u.USER_NAME`,
    `CREATE VIEW "SYS"."SCHEMAS" AS SELECT ${decode("schema_name")} AS SCHEMA_NAME,
      CASE WHEN schema_name = 'SYS' OR schema_name LIKE '\\_SYS\\_%' ESCAPE '\\' THEN 'SYS' ELSE 'SYSTEM' END AS SCHEMA_OWNER,
      'TRUE' AS HAS_PRIVILEGES, CAST(NULL AS UBIGINT) AS CREATE_TIME
      FROM duckdb_schemas() WHERE database_name = current_database() AND schema_name NOT IN ('main', 'information_schema', 'pg_catalog')`,
    `CREATE VIEW "SYS"."TABLES" AS SELECT ${decode("t.schema_name")} AS SCHEMA_NAME, ${decode("t.table_name")} AS TABLE_NAME,
      CAST(t.table_oid AS BIGINT) AS TABLE_OID, t.comment AS COMMENTS,
      CASE WHEN t.schema_name = 'SYS' THEN 'TRUE' ELSE 'FALSE' END AS IS_SYSTEM_TABLE,
      CASE WHEN t.table_oid IN (SELECT TABLE_OID FROM "SYS"."_ROW_TABLES") THEN 'FALSE' ELSE 'TRUE' END AS IS_COLUMN_TABLE,
      CASE WHEN t.table_oid IN (SELECT TABLE_OID FROM "SYS"."_ROW_TABLES") THEN 'ROW' ELSE 'COLUMN' END AS TABLE_TYPE, 'FALSE' AS IS_TEMPORARY, 'NONE' AS TEMPORARY_TABLE_TYPE, 'TRUE' AS IS_LOGGED,
      CASE WHEN t.has_primary_key THEN 'TRUE' ELSE 'FALSE' END AS HAS_PRIMARY_KEY, 'FALSE' AS IS_USER_DEFINED_TYPE,
      CAST(NULL AS UBIGINT) AS CREATE_TIME,
      CAST(COALESCE((SELECT o.UNLOAD_PRIORITY FROM "SYS"."_TABLE_OPTIONS" o WHERE o.TABLE_OID = t.table_oid), 5) AS SMALLINT) AS UNLOAD_PRIORITY,
      (SELECT o.PARTITION_SPEC FROM "SYS"."_TABLE_OPTIONS" o WHERE o.TABLE_OID = t.table_oid) AS PARTITION_SPEC
      FROM duckdb_tables() t WHERE t.database_name = current_database() AND t.schema_name <> 'main'
        AND NOT (t.schema_name = 'SYS' AND t.table_name LIKE '\\_%' ESCAPE '\\')`,
    `CREATE VIEW "SYS"."VIEWS" AS SELECT ${decode("v.schema_name")} AS SCHEMA_NAME, ${decode("v.view_name")} AS VIEW_NAME,
      CAST(v.view_oid AS BIGINT) AS VIEW_OID, 'SYSTEM' AS OWNER_NAME, v.comment AS COMMENTS, 'TRUE' AS IS_VALID,
      v.sql AS DEFINITION, 'ROW' AS VIEW_TYPE, 'FALSE' AS IS_READ_ONLY, CAST(NULL AS UBIGINT) AS CREATE_TIME
      FROM duckdb_views() v WHERE v.database_name = current_database() AND NOT v.internal AND v.schema_name <> 'main'`,
    `CREATE VIEW "SYS"."_COLUMNS" AS ${typed(columnsBase)}`,
    `CREATE VIEW "SYS"."TABLE_COLUMNS" AS SELECT ${columnList} FROM "SYS"."_COLUMNS" c
      WHERE c.DATABASE_NAME = current_database() AND c.SCHEMA_NAME <> 'main'
        AND EXISTS (SELECT 1 FROM duckdb_tables() t WHERE t.table_oid = c.TABLE_OID)`,
    `CREATE VIEW "SYS"."VIEW_COLUMNS" AS SELECT SCHEMA_NAME, TABLE_NAME AS VIEW_NAME, TABLE_OID AS VIEW_OID, COLUMN_NAME, POSITION,
      ${TYPE_ID("DATA_TYPE_NAME")} AS DATA_TYPE_ID, DATA_TYPE_NAME,
      ${LENGTH} AS LENGTH, CAST(DECLARED_SCALE AS INTEGER) AS SCALE, IS_NULLABLE,
      DEFAULT_VALUE, CAST(NULL AS VARCHAR) AS COMMENTS
      FROM "SYS"."_COLUMNS" c WHERE c.DATABASE_NAME = current_database()
        AND EXISTS (SELECT 1 FROM duckdb_views() v WHERE v.view_oid = c.TABLE_OID AND NOT v.internal)`,
    `CREATE VIEW "SYS"."CONSTRAINTS" AS SELECT ${decode("k.schema_name")} AS SCHEMA_NAME, ${decode("k.table_name")} AS TABLE_NAME,
      ${decode("u.col")} AS COLUMN_NAME, CAST(u.pos AS INTEGER) AS POSITION, ${constraintName("k")} AS CONSTRAINT_NAME,
      CASE WHEN k.constraint_type = 'PRIMARY KEY' THEN 'TRUE' ELSE 'FALSE' END AS IS_PRIMARY_KEY,
      'TRUE' AS IS_UNIQUE_KEY, CAST(NULL AS VARCHAR) AS CHECK_CONDITION
      FROM duckdb_constraints() k,
        LATERAL (SELECT unnest(k.constraint_column_names) AS col, generate_subscripts(k.constraint_column_names, 1) AS pos) u
      WHERE k.database_name = current_database() AND k.constraint_type IN ('PRIMARY KEY', 'UNIQUE')
    UNION ALL SELECT ${decode("k.schema_name")}, ${decode("k.table_name")}, ${decode("u.col")}, CAST(u.pos AS INTEGER),
      ${constraintName("k")}, 'FALSE', 'FALSE', hana_check_text(${decode("k.expression")})
      FROM duckdb_constraints() k,
        -- each column once: a condition the query rewrite wrapped in conversion macros names it more often (check-text.ts)
        LATERAL (SELECT unnest(n.names) AS col, generate_subscripts(n.names, 1) AS pos
          FROM (SELECT list_filter(k.constraint_column_names, (x, i) -> list_position(k.constraint_column_names, x) = i) AS names) n) u
      WHERE k.database_name = current_database() AND k.constraint_type = 'CHECK'
        AND ${USER_CHECK}`,
    `CREATE VIEW "SYS"."REFERENTIAL_CONSTRAINTS" AS SELECT ${decode("k.schema_name")} AS SCHEMA_NAME,
      ${decode("k.table_name")} AS TABLE_NAME, ${decode("u.col")} AS COLUMN_NAME, CAST(u.pos AS INTEGER) AS POSITION,
      ${constraintName("k")} AS CONSTRAINT_NAME, ${decode("k.schema_name")} AS REFERENCED_SCHEMA_NAME,
      ${decode("k.referenced_table")} AS REFERENCED_TABLE_NAME, ${decode("k.referenced_column_names[u.pos]")} AS REFERENCED_COLUMN_NAME,
      CAST(NULL AS VARCHAR) AS REFERENCED_CONSTRAINT_NAME, 'RESTRICT' AS UPDATE_RULE, 'RESTRICT' AS DELETE_RULE,
      'TRUE' AS IS_VALIDATED, 'TRUE' AS IS_ENABLED
      FROM duckdb_constraints() k,
        LATERAL (SELECT unnest(k.constraint_column_names) AS col, generate_subscripts(k.constraint_column_names, 1) AS pos) u
      WHERE k.database_name = current_database() AND k.constraint_type = 'FOREIGN KEY'`,
    // SEQUENCES and INDEXES: the columns public code reads from a real HANA (FluentMigrator's SAP HANA processor,
    // `SELECT 1 FROM SEQUENCES WHERE SCHEMA_NAME = CURRENT_SCHEMA and upper(SEQUENCE_NAME) = …` and the same of
    // INDEXES with INDEX_NAME; SAP-samples/hana-developer-cli-tool-example bin/indexes.js, `SELECT SCHEMA_NAME,
    // TABLE_NAME, INDEX_NAME, INDEX_TYPE, CONSTRAINT, CREATE_TIME from INDEXES`; a Java data layer selecting
    // `sequence_name, max_value, min_value, increment_by, start_number, is_cycled FROM sequences`). DuckDB's
    // unbounded limits read as HANA's NO MAXVALUE / NO MINVALUE (SAP HANA SQL Reference, "CREATE SEQUENCE":
    // 4611686018427387903 for an ascending sequence, -4611686018427387903 for a descending one).
    `CREATE VIEW "SYS"."SEQUENCES" AS SELECT ${decode("s.schema_name")} AS SCHEMA_NAME, ${decode("s.sequence_name")} AS SEQUENCE_NAME,
      CAST(s.sequence_oid AS BIGINT) AS SEQUENCE_OID, CAST(s.start_value AS BIGINT) AS START_NUMBER,
      CAST(CASE WHEN s.min_value = -9223372036854775808 THEN -4611686018427387903 ELSE s.min_value END AS BIGINT) AS MIN_VALUE,
      CAST(CASE WHEN s.max_value = 9223372036854775807 THEN 4611686018427387903 ELSE s.max_value END AS BIGINT) AS MAX_VALUE,
      CAST(s.increment_by AS BIGINT) AS INCREMENT_BY, CASE WHEN s.cycle THEN 'TRUE' ELSE 'FALSE' END AS IS_CYCLED,
      CAST(NULL AS VARCHAR) AS RESET_BY_QUERY, CAST(0 AS BIGINT) AS CACHE_SIZE, CAST(NULL AS UBIGINT) AS CREATE_TIME
      FROM duckdb_sequences() s WHERE s.database_name = current_database() AND s.schema_name <> 'SYS'`,
    // An index per CREATE INDEX, and one per primary key and unique constraint (HANA makes an index for each),
    // named as SYS.CONSTRAINTS names the constraint. INDEX_TYPE: HANA's default for the table's store (as
    // remembered: INVERTED VALUE for column tables, CPBTREE for row tables; not confirmed against a server).
    `CREATE VIEW "SYS"."INDEXES" AS SELECT ${decode("i.schema_name")} AS SCHEMA_NAME, ${decode("i.table_name")} AS TABLE_NAME,
      CAST(i.table_oid AS BIGINT) AS TABLE_OID, ${decode("i.index_name")} AS INDEX_NAME, CAST(i.index_oid AS BIGINT) AS INDEX_OID,
      CASE WHEN i.table_oid IN (SELECT TABLE_OID FROM "SYS"."_ROW_TABLES") THEN 'CPBTREE' ELSE 'INVERTED VALUE' END AS INDEX_TYPE,
      CASE WHEN i.is_unique THEN 'UNIQUE' ELSE CAST(NULL AS VARCHAR) END AS "CONSTRAINT", CAST(NULL AS UBIGINT) AS CREATE_TIME
      FROM duckdb_indexes() i WHERE i.database_name = current_database()
    UNION ALL SELECT ${decode("k.schema_name")}, ${decode("k.table_name")}, CAST(k.table_oid AS BIGINT), ${constraintName("k")},
      CAST(NULL AS BIGINT),
      CASE WHEN k.table_oid IN (SELECT TABLE_OID FROM "SYS"."_ROW_TABLES") THEN 'CPBTREE' ELSE 'INVERTED VALUE' END,
      k.constraint_type, CAST(NULL AS UBIGINT)
      FROM duckdb_constraints() k WHERE k.database_name = current_database() AND k.constraint_type IN ('PRIMARY KEY', 'UNIQUE')`,
    `CREATE VIEW "SYS"."M_DATABASE" AS SELECT ${quoteString(info.systemId)} AS SYSTEM_ID,
      ${quoteString(info.databaseName)} AS DATABASE_NAME, 'localhost' AS HOST, CAST(${ticksOfText("2024-01-01 00:00:00")} AS UBIGINT) AS START_TIME,
      ${quoteString(info.version)} AS VERSION, 'TEST' AS USAGE`,
    `CREATE VIEW "SYS"."M_TEMPORARY_TABLES" AS SELECT 'localhost' AS HOST, 30015 AS PORT,
      CAST(getvariable('hana_schema') AS VARCHAR) AS SCHEMA_NAME, ${decode("t.table_name")} AS TABLE_NAME, 'COLUMN' AS TABLE_TYPE,
      'LOCAL' AS TEMPORARY_TABLE_TYPE, CAST(getvariable('hana_connection_id') AS INTEGER) AS CONNECTION_ID,
      CAST(NULL AS UBIGINT) AS CREATE_TIME
      FROM duckdb_tables() t WHERE t.database_name = 'temp'
    UNION ALL ${OTHER_TEMPORARY_TABLES}`,
    // Columns SCHEMA_NAME, TABLE_NAME, COLUMN_NAME, POSITION, DATA_TYPE_NAME, LENGTH, SCALE are confirmed by public
    // user code querying a real HANA (an ABAP class selecting `column_name, data_type_name, length, scale FROM
    // M_TEMPORARY_TABLE_COLUMNS WHERE table_name = … AND schema_name = … ORDER BY position`, and a SQLScript procedure
    // ordering by `position`); both views are listed among HANA's monitoring views by DBeaver's HANA system-view list.
    `CREATE VIEW "SYS"."M_TEMPORARY_TABLE_COLUMNS" AS SELECT 'localhost' AS HOST, 30015 AS PORT,
      CAST(getvariable('hana_schema') AS VARCHAR) AS SCHEMA_NAME, TABLE_NAME, COLUMN_NAME, POSITION,
      ${TYPE_ID("DATA_TYPE_NAME")} AS DATA_TYPE_ID, DATA_TYPE_NAME,
      ${LENGTH} AS LENGTH, CAST(DECLARED_SCALE AS INTEGER) AS SCALE, IS_NULLABLE,
      DEFAULT_VALUE, CAST(getvariable('hana_connection_id') AS INTEGER) AS CONNECTION_ID
      FROM "SYS"."_COLUMNS" c WHERE c.DATABASE_NAME = 'temp' AND EXISTS (SELECT 1 FROM duckdb_tables() t WHERE t.table_oid = c.TABLE_OID)`,
    ...MONITORING_VIEWS
  ].join(";\n")
}

/** Looks up the declared HANA types of the columns of the tables a query reads. */
export const declaredTypes = async (
  session: Session,
  tables: readonly string[]
): Promise<Map<string, { schema: string; table: string; type: string; nullable: boolean }>> => {
  const out = new Map<string, { schema: string; table: string; type: string; nullable: boolean }>()
  if (tables.length === 0) return out
  const names = [...new Set(tables.map((t) => t.replace(/"/g, "").split(".").pop()!))]
  const rows = await session.queryAll(
    `SELECT column_name, schema_name, table_name, ${HANA_TYPE}, c.is_nullable FROM duckdb_columns() c
     WHERE c.table_name IN (${names.map(() => "?").join(", ")}) ORDER BY c.database_name = 'temp' DESC`,
    names
  )
  for (const [col, schema, table, type, nullable] of rows) {
    const key = String(col)
    if (!out.has(key)) out.set(key, { schema: String(schema), table: String(table), type: String(type), nullable: nullable !== false })
  }
  return out
}

/**
 * The declared type text of each column of `table` (HANA's type as the column comment keeps it, else DuckDB's type
 * name), by stored name and in column order; a TEMP table of the same name hides the schema's table.
 */
export const declaredColumnTypes = async (
  session: Session,
  schema: string | undefined,
  table: string
): Promise<{ readonly byName: Map<string, string>; readonly ordered: ReadonlyArray<string> }> => {
  const rows = await session.queryAll(
    `SELECT column_name, COALESCE(NULLIF(comment, ''), data_type) FROM duckdb_columns()
     WHERE table_name = ? ${schema === undefined ? "" : "AND schema_name = ?"}
     ORDER BY database_name = 'temp' DESC, column_index`,
    schema === undefined ? [encodeName(table)] : [encodeName(table), encodeName(schema)]
  )
  const byName = new Map<string, string>()
  const ordered: Array<string> = []
  for (const [name, text] of rows) {
    if (byName.has(String(name))) continue
    byName.set(String(name), String(text))
    ordered.push(String(text))
  }
  return { byName, ordered }
}
