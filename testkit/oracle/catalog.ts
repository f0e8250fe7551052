/**
 * The Oracle side of the catalog: declared column types, constraints, views, sequences and users the
 * server keeps next to DuckDB's own catalog, and the data dictionary views (ALL_*, USER_*, DBA_*, V$*)
 * built from it.
 *
 * Dictionary column names follow the Oracle Database Reference, e.g.
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/refrn/ALL_TAB_COLUMNS.html,
 * .../ALL_TABLES.html, .../ALL_CONSTRAINTS.html, .../ALL_CONS_COLUMNS.html, .../ALL_OBJECTS.html,
 * .../ALL_USERS.html, .../ALL_VIEWS.html, .../V-VERSION.html, .../V-SESSION.html, .../PRODUCT_COMPONENT_VERSION.html.
 */
import type { Tok } from "./lexer.ts"
import { typeDictionaryShapes } from "./type-dictionary.ts"
import { objectTableDictionaryShapes } from "./object-table-dictionary.ts"
import { privilegeDictionaryShapes } from "./dictionary-privileges.ts"
import { roleDictionaryShapes } from "./role-dictionary.ts"
import { materializedViewShapes } from "./materialized-views.ts"
import type { NamedType } from "./type-shapes.ts"
import type { OraType } from "./types.ts"
import { charType, dateType, dictionaryNumberType, timestampType } from "./types.ts"

/** A declared column. */
export interface ColumnMeta {
  readonly name: string
  readonly type: OraType
  readonly nullable: boolean
  readonly defaultText: string | null
  /**
   * An object column restricted to instances of one type: its own, and its attributes' too, when NOT SUBSTITUTABLE AT
   * ALL LEVELS (`allLevels`); t when IS OF TYPE (ONLY t) (substitutable-columns.ts).
   */
  readonly substitution?: { readonly only: NonNullable<OraType["named"]>; readonly allLevels: boolean }
}

/** A declared constraint. */
export interface ConstraintMeta {
  readonly name: string
  /** P primary key, U unique, R foreign key, C check / not null. */
  readonly type: "P" | "U" | "R" | "C"
  readonly columns: ReadonlyArray<string>
  readonly searchCondition: string | null
  readonly refOwner: string | null
  readonly refConstraint: string | null
  readonly generated: boolean
  /** DISABLEd (`ALTER TABLE ... DISABLE CONSTRAINT`, constraint-state.ts): kept in the dictionary, not enforced. */
  readonly disabled?: boolean
  /** Enabled or disabled NOVALIDATE: the rows present then were not checked. */
  readonly notValidated?: boolean
}

/** A table or view known to the server. */
export interface TableMeta {
  readonly owner: string
  readonly name: string
  readonly kind: "TABLE" | "VIEW"
  columns: Array<ColumnMeta>
  constraints: Array<ConstraintMeta>
  readonly objectId: number
  readonly created: Date
  viewText: string | null
  /** COMMENT ON TABLE text, and COMMENT ON COLUMN texts by column name. */
  comment?: string | null
  columnComments?: Record<string, string>
  /** An object table's type (`CREATE TABLE t OF type`, object-tables.ts): its columns are the type's attributes. */
  objectType?: NamedType
}

/** Other schema objects (sequences, indexes, procedures). */
export interface ObjectMeta {
  readonly owner: string
  readonly name: string
  readonly type: "SEQUENCE" | "INDEX" | "PROCEDURE" | "FUNCTION" | "PACKAGE" | "PACKAGE BODY" | "TYPE" | "TYPE BODY" | "TRIGGER" | "MATERIALIZED VIEW"
  readonly objectId: number
  readonly created: Date
  readonly tableName?: string
  /** Indexes: the owner of the indexed table when it is not the index's (an index in one's schema on another's table). */
  readonly tableOwner?: string
  /** Indexes: key columns (with DESC), uniqueness, and whether a constraint created it. */
  readonly indexColumns?: ReadonlyArray<{ readonly name: string; readonly descending: boolean }>
  readonly unique?: boolean
  readonly constraintIndex?: boolean
}

/** The owner of the table an object (an index, a trigger) is on: its own owner unless the index says another. */
export const indexedTableOwner = (o: ObjectMeta): string => o.tableOwner ?? o.owner

/** A database user (and schema). */
export interface UserMeta {
  readonly name: string
  password: string
  readonly userId: number
  readonly created: Date
  readonly oracleMaintained: boolean
}

const key = (owner: string, name: string) => `${owner}\u0000${name}`

const v = (n: number) => charType("VARCHAR2", n)
const num = dictionaryNumberType
const col = (name: string, type: OraType, nullable = true): ColumnMeta => ({ name, type, nullable, defaultText: null })

/** Declared shapes of the dictionary views (the server describes their columns with these types). */
export const dictionaryShapes: Record<string, Array<ColumnMeta>> = {
  ...typeDictionaryShapes,
  ...objectTableDictionaryShapes,
  ...privilegeDictionaryShapes,
  ...roleDictionaryShapes,
  ...materializedViewShapes,
  // view-dml.ts gives the rows (Database Reference, "ALL_UPDATABLE_COLUMNS")
  ALL_UPDATABLE_COLUMNS: ["OWNER", "TABLE_NAME", "COLUMN_NAME"].map((name) => col(name, v(128))).concat(["UPDATABLE", "INSERTABLE", "DELETABLE"].map((name) => col(name, v(3)))),
  ALL_USERS: [
    col("USERNAME", v(128), false),
    col("USER_ID", num, false),
    col("CREATED", dateType, false),
    col("COMMON", v(3)),
    col("ORACLE_MAINTAINED", v(1)),
    col("INHERITED", v(3)),
    col("DEFAULT_COLLATION", v(100)),
    col("IMPLICIT", v(3)),
    col("ALL_SHARD", v(3))
  ],
  ALL_TABLES: [
    col("OWNER", v(128), false),
    col("TABLE_NAME", v(128), false),
    col("TABLESPACE_NAME", v(30)),
    col("CLUSTER_NAME", v(128)),
    col("IOT_NAME", v(128)),
    col("STATUS", v(8)),
    col("NUM_ROWS", num),
    col("BLOCKS", num),
    col("AVG_ROW_LEN", num),
    col("LAST_ANALYZED", dateType),
    col("PARTITIONED", v(3)),
    col("IOT_TYPE", v(12)),
    col("TEMPORARY", v(1)),
    col("SECONDARY", v(1)),
    col("NESTED", v(3)),
    col("DURATION", v(15)),
    col("DROPPED", v(3)),
    col("READ_ONLY", v(3)),
    col("EXTERNAL", v(3))
  ],
  ALL_VIEWS: [
    col("OWNER", v(128), false),
    col("VIEW_NAME", v(128), false),
    col("TEXT_LENGTH", num),
    col("TEXT", v(4000)),
    col("TEXT_VC", v(4000)),
    col("TYPE_TEXT_LENGTH", num),
    col("TYPE_TEXT", v(4000)),
    col("OID_TEXT_LENGTH", num),
    col("OID_TEXT", v(4000)),
    col("VIEW_TYPE_OWNER", v(128)),
    col("VIEW_TYPE", v(128)),
    col("SUPERVIEW_NAME", v(128)),
    col("EDITIONING_VIEW", v(1)),
    col("READ_ONLY", v(1))
  ],
  ALL_TAB_COLUMNS: [
    col("OWNER", v(128), false),
    col("TABLE_NAME", v(128), false),
    col("COLUMN_NAME", v(128), false),
    col("DATA_TYPE", v(128)),
    col("DATA_TYPE_MOD", v(3)),
    col("DATA_TYPE_OWNER", v(128)),
    col("DATA_LENGTH", num, false),
    col("DATA_PRECISION", num),
    col("DATA_SCALE", num),
    col("NULLABLE", v(1)),
    col("COLUMN_ID", num),
    col("DEFAULT_LENGTH", num),
    col("DATA_DEFAULT", v(4000)),
    col("CHAR_COL_DECL_LENGTH", num),
    col("CHAR_LENGTH", num),
    col("CHAR_USED", v(1))
  ],
  ALL_CONSTRAINTS: [
    col("OWNER", v(128)),
    col("CONSTRAINT_NAME", v(128)),
    col("CONSTRAINT_TYPE", v(1)),
    col("TABLE_NAME", v(128)),
    col("SEARCH_CONDITION", v(4000)),
    col("SEARCH_CONDITION_VC", v(4000)),
    col("R_OWNER", v(128)),
    col("R_CONSTRAINT_NAME", v(128)),
    col("DELETE_RULE", v(9)),
    col("STATUS", v(8)),
    col("DEFERRABLE", v(14)),
    col("DEFERRED", v(9)),
    col("VALIDATED", v(13)),
    col("GENERATED", v(14)),
    col("INDEX_OWNER", v(128)),
    col("INDEX_NAME", v(128))
  ],
  ALL_CONS_COLUMNS: [
    col("OWNER", v(128), false),
    col("CONSTRAINT_NAME", v(128), false),
    col("TABLE_NAME", v(128), false),
    col("COLUMN_NAME", v(4000)),
    col("POSITION", num)
  ],
  ALL_OBJECTS: [
    col("OWNER", v(128), false),
    col("OBJECT_NAME", v(128), false),
    col("SUBOBJECT_NAME", v(128)),
    col("OBJECT_ID", num, false),
    col("DATA_OBJECT_ID", num),
    col("OBJECT_TYPE", v(23)),
    col("CREATED", dateType, false),
    col("LAST_DDL_TIME", dateType, false),
    col("TIMESTAMP", v(19)),
    col("STATUS", v(7)),
    col("TEMPORARY", v(1)),
    col("GENERATED", v(1)),
    col("SECONDARY", v(1)),
    col("NAMESPACE", num, false),
    col("EDITION_NAME", v(128)),
    col("SHARING", v(18)),
    col("EDITIONABLE", v(1)),
    col("ORACLE_MAINTAINED", v(1))
  ],
  ALL_INDEXES: [
    col("OWNER", v(128), false),
    col("INDEX_NAME", v(128), false),
    col("INDEX_TYPE", v(27)),
    col("TABLE_OWNER", v(128), false),
    col("TABLE_NAME", v(128), false),
    col("TABLE_TYPE", v(11)),
    col("UNIQUENESS", v(9)),
    col("TABLESPACE_NAME", v(30)),
    col("STATUS", v(8)),
    col("GENERATED", v(1)),
    col("CONSTRAINT_INDEX", v(3))
  ],
  ALL_IND_COLUMNS: [
    col("INDEX_OWNER", v(128), false),
    col("INDEX_NAME", v(128), false),
    col("TABLE_OWNER", v(128), false),
    col("TABLE_NAME", v(128), false),
    col("COLUMN_NAME", v(4000)),
    col("COLUMN_POSITION", num, false),
    col("COLUMN_LENGTH", num, false),
    col("CHAR_LENGTH", num),
    col("DESCEND", v(4))
  ],
  ALL_TAB_COMMENTS: [col("OWNER", v(128), false), col("TABLE_NAME", v(128), false), col("TABLE_TYPE", v(11)), col("COMMENTS", v(4000)), col("ORIGIN_CON_ID", num)],
  ALL_COL_COMMENTS: [col("OWNER", v(128), false), col("TABLE_NAME", v(128), false), col("COLUMN_NAME", v(128), false), col("COMMENTS", v(4000)), col("ORIGIN_CON_ID", num)],
  ALL_SEQUENCES: [
    col("SEQUENCE_OWNER", v(128), false),
    col("SEQUENCE_NAME", v(128), false),
    col("MIN_VALUE", num),
    col("MAX_VALUE", num),
    col("INCREMENT_BY", num, false),
    col("CYCLE_FLAG", v(1)),
    col("ORDER_FLAG", v(1)),
    col("CACHE_SIZE", num, false),
    col("LAST_NUMBER", num, false)
  ],
  // stored PL/SQL (plsql/stored-code.ts): Database Reference 23ai, ALL_SOURCE, ALL_ERRORS, ALL_PROCEDURES, ALL_ARGUMENTS
  ALL_SOURCE: [col("OWNER", v(128), false), col("NAME", v(128), false), col("TYPE", v(12)), col("LINE", num, false), col("TEXT", v(4000)), col("ORIGIN_CON_ID", num)],
  ALL_ERRORS: [
    col("OWNER", v(128), false),
    col("NAME", v(128), false),
    col("TYPE", v(12)),
    col("SEQUENCE", num, false),
    col("LINE", num, false),
    col("POSITION", num, false),
    col("TEXT", v(4000), false),
    col("ATTRIBUTE", v(9)),
    col("MESSAGE_NUMBER", num)
  ],
  ALL_PROCEDURES: [
    col("OWNER", v(128)),
    col("OBJECT_NAME", v(128)),
    col("PROCEDURE_NAME", v(128)),
    col("OBJECT_ID", num),
    col("SUBPROGRAM_ID", num),
    col("OVERLOAD", v(40)),
    col("OBJECT_TYPE", v(13)),
    col("AGGREGATE", v(3)),
    col("PIPELINED", v(3)),
    col("PARALLEL", v(3)),
    col("INTERFACE", v(3)),
    col("DETERMINISTIC", v(3)),
    col("AUTHID", v(12))
  ],
  ALL_ARGUMENTS: [
    col("OWNER", v(128), false),
    col("OBJECT_NAME", v(128)),
    col("PACKAGE_NAME", v(128)),
    col("OBJECT_ID", num, false),
    col("OVERLOAD", v(40)),
    col("SUBPROGRAM_ID", num),
    col("ARGUMENT_NAME", v(128)),
    col("POSITION", num, false),
    col("SEQUENCE", num, false),
    col("DATA_LEVEL", num, false),
    col("DATA_TYPE", v(30)),
    col("DEFAULTED", v(1)),
    col("IN_OUT", v(9))
  ],
  // triggers (plsql/triggers.ts): Database Reference 23ai, ALL_TRIGGERS (TRIGGER_BODY, a LONG there, as VARCHAR2)
  ALL_TRIGGERS: [
    col("OWNER", v(128)),
    col("TRIGGER_NAME", v(128)),
    col("TRIGGER_TYPE", v(16)),
    col("TRIGGERING_EVENT", v(246)),
    col("TABLE_OWNER", v(128)),
    col("BASE_OBJECT_TYPE", v(18)),
    col("TABLE_NAME", v(128)),
    col("COLUMN_NAME", v(4000)),
    col("REFERENCING_NAMES", v(422)),
    col("WHEN_CLAUSE", v(4000)),
    col("STATUS", v(8)),
    col("DESCRIPTION", v(4000)),
    col("ACTION_TYPE", v(11)),
    col("TRIGGER_BODY", v(4000))
  ],
  V$VERSION: [col("BANNER", v(80)), col("BANNER_FULL", v(160)), col("BANNER_LEGACY", v(80)), col("CON_ID", num)],
  PRODUCT_COMPONENT_VERSION: [col("PRODUCT", v(80)), col("VERSION", v(20)), col("VERSION_FULL", v(160)), col("STATUS", v(20))],
  V$SESSION: [
    col("SADDR", v(16)),
    col("SID", num),
    col("SERIAL#", num),
    col("AUDSID", num),
    col("USER#", num),
    col("USERNAME", v(128)),
    col("STATUS", v(8)),
    col("SCHEMANAME", v(128)),
    col("OSUSER", v(128)),
    col("PROCESS", v(24)),
    col("MACHINE", v(64)),
    col("PORT", num),
    col("TERMINAL", v(30)),
    col("PROGRAM", v(84)),
    col("TYPE", v(10)),
    col("SQL_ID", v(13)),
    col("PREV_SQL_ID", v(13)),
    col("MODULE", v(64)),
    col("ACTION", v(64)),
    col("CLIENT_INFO", v(64)),
    col("LOGON_TIME", dateType),
    col("SERVICE_NAME", v(64)),
    col("CON_ID", num),
    col("CLIENT_IDENTIFIER", v(64)),
    col("ECID", v(64))
  ],
  // V$OPEN_CURSOR lists the cursors each session "currently has opened and parsed, or cached"
  // (docs.oracle.com/en/database/oracle/oracle-database/23/refrn/V-OPEN_CURSOR.html); V$SESSTAT holds per-session
  // statistics by V$STATNAME number, among them 'opened cursors current' and 'opened cursors cumulative'.
  V$OPEN_CURSOR: [
    col("SADDR", v(16)),
    col("SID", num),
    col("USER_NAME", v(128)),
    col("SQL_ID", v(13)),
    col("SQL_TEXT", v(60)),
    col("CURSOR_TYPE", v(64)),
    col("CON_ID", num)
  ],
  // V$SQL: one row per child cursor of a statement the server parsed or ran (sql-area.ts)
  V$SQL: [
    col("SQL_TEXT", v(1000)),
    col("SQL_ID", v(13)),
    col("CHILD_NUMBER", num),
    col("HASH_VALUE", num),
    col("EXECUTIONS", num),
    col("PARSE_CALLS", num),
    col("LOADS", num),
    col("PARSING_SCHEMA_NAME", v(128)),
    col("MODULE", v(64)),
    col("ACTION", v(64)),
    col("FIRST_LOAD_TIME", v(19)),
    col("LAST_LOAD_TIME", v(19)),
    col("LAST_ACTIVE_TIME", dateType),
    col("CON_ID", num)
  ],
  V$STATNAME: [col("STATISTIC#", num), col("NAME", v(64)), col("CLASS", num), col("CON_ID", num)],
  V$SESSTAT: [col("SID", num), col("STATISTIC#", num), col("VALUE", num), col("CON_ID", num)],
  V$DATABASE: [col("DBID", num), col("NAME", v(9)), col("CREATED", dateType), col("OPEN_MODE", v(20)), col("DB_UNIQUE_NAME", v(30)), col("CDB", v(3)), col("CON_ID", num)],
  V$INSTANCE: [col("INSTANCE_NUMBER", num), col("INSTANCE_NAME", v(16)), col("HOST_NAME", v(64)), col("VERSION", v(17)), col("VERSION_FULL", v(17)), col("STATUS", v(12)), col("DATABASE_STATUS", v(17)), col("CON_ID", num)],
  V$CONTAINERS: [col("CON_ID", num), col("DBID", num), col("NAME", v(128)), col("OPEN_MODE", v(10)), col("OPEN_TIME", timestampType(3, "tz"))],
  V$PDBS: [col("CON_ID", num), col("DBID", num), col("NAME", v(128)), col("OPEN_MODE", v(10)), col("OPEN_TIME", timestampType(3, "tz"))],
  GLOBAL_NAME: [col("GLOBAL_NAME", v(4000))],
  NLS_SESSION_PARAMETERS: [col("PARAMETER", v(30)), col("VALUE", v(64))],
  NLS_DATABASE_PARAMETERS: [col("PARAMETER", v(128), false), col("VALUE", v(64))],
  DUAL: [col("DUMMY", v(1))]
}

/** Views that exist as ALL_x, USER_x (filtered by owner, without the owner column) and DBA_x. */
export const OWNED_VIEWS: Record<string, string> = {
  ALL_TYPES: "OWNER",
  ALL_TYPE_ATTRS: "OWNER",
  ALL_COLL_TYPES: "OWNER",
  ALL_PLSQL_COLL_TYPES: "OWNER",
  ALL_TABLES: "OWNER",
  ALL_OBJECT_TABLES: "OWNER",
  ALL_VIEWS: "OWNER",
  ALL_TAB_COLUMNS: "OWNER",
  ALL_CONSTRAINTS: "OWNER",
  ALL_CONS_COLUMNS: "OWNER",
  ALL_OBJECTS: "OWNER",
  ALL_SEQUENCES: "SEQUENCE_OWNER",
  ALL_TAB_COMMENTS: "OWNER",
  ALL_INDEXES: "OWNER",
  ALL_IND_COLUMNS: "INDEX_OWNER",
  ALL_COL_COMMENTS: "OWNER",
  ALL_SOURCE: "OWNER",
  ALL_ERRORS: "OWNER",
  ALL_PROCEDURES: "OWNER",
  ALL_ARGUMENTS: "OWNER",
  ALL_TRIGGERS: "OWNER",
  ALL_SYNONYMS: "OWNER",
  ALL_MVIEWS: "OWNER",
  ALL_UPDATABLE_COLUMNS: "OWNER"
}

/** In-memory catalog of Oracle metadata. */
export class Catalog {
  private readonly tables = new Map<string, TableMeta>()
  private readonly objects = new Map<string, ObjectMeta>()
  readonly users = new Map<string, UserMeta>()
  private nextObjectId = 73000
  private nextUserId = 100
  /** Bumped on every change so dictionary snapshots can be refreshed lazily. */
  version = 0

  newObjectId(): number {
    return this.nextObjectId++
  }

  addUser(name: string, password: string, oracleMaintained: boolean, userId?: number): UserMeta {
    const u: UserMeta = { name, password, userId: userId ?? this.nextUserId++, created: new Date(Date.UTC(2024, 0, 1)), oracleMaintained }
    this.users.set(name, u)
    this.version++
    return u
  }

  getTable(owner: string, name: string): TableMeta | undefined {
    return this.tables.get(key(owner, name))
  }

  putTable(t: TableMeta): void {
    this.tables.set(key(t.owner, t.name), t)
    this.version++
  }

  dropTable(owner: string, name: string): void {
    this.tables.delete(key(owner, name))
    for (const [k, o] of this.objects) if (indexedTableOwner(o) === owner && o.tableName === name) this.objects.delete(k)
    this.version++
  }

  putObject(o: ObjectMeta): void {
    this.objects.set(key(o.owner, `${o.type}:${o.name}`), o)
    this.version++
  }

  dropObject(owner: string, type: ObjectMeta["type"], name: string): void {
    this.objects.delete(key(owner, `${type}:${name}`))
    this.version++
  }

  getObject(owner: string, type: ObjectMeta["type"], name: string): ObjectMeta | undefined {
    return this.objects.get(key(owner, `${type}:${name}`))
  }

  allTables(): IterableIterator<TableMeta> {
    return this.tables.values()
  }

  allObjects(): IterableIterator<ObjectMeta> {
    return this.objects.values()
  }

  /** Constraint names in use by an owner (for generated SYS_C names and lookups). */
  findConstraint(owner: string, name: string): { table: TableMeta; constraint: ConstraintMeta } | undefined {
    for (const t of this.tables.values()) {
      if (t.owner !== owner) continue
      const c = t.constraints.find((x) => x.name === name)
      if (c !== undefined) return { table: t, constraint: c }
    }
    return undefined
  }
}

/** DATA_LENGTH as ALL_TAB_COLUMNS shows it. */
export const dataLength = (t: OraType): number => {
  switch (t.kind) {
    case "number":
      return 22
    case "float":
      return 4
    case "double":
      return 8
    case "date":
      return 7
    case "timestamp":
    case "timestampltz":
      return 11
    case "timestamptz":
      return 13
    case "intervalds":
      return 11
    case "intervalym":
      return 5
    case "clob":
    case "nclob":
    case "blob":
      return 4000
    case "long":
    case "longraw":
      return 0
    case "json":
      return 8200
    case "boolean":
      return 1
    case "rowid":
      return 10
    default:
      return t.maxSize
  }
}

/** A stored procedure or function. */
export interface PlsqlProcedure {
  readonly owner: string
  readonly name: string
  /** Parameters; `type` the first word of the declared type (NUMBER, VARCHAR2, ...). */
  readonly params: ReadonlyArray<{ readonly name: string; readonly mode: "IN" | "OUT" | "IN OUT"; readonly type?: string; readonly default?: ReadonlyArray<Tok> }>
  /** A function (CREATE FUNCTION ... RETURN type): its RETURN value is the call's. */
  readonly isFunction?: boolean
  /** The package a function called from SQL belongs to (`pkg.f(x)`; plsql/stored-packages.ts). */
  readonly package?: string
  /** Compile errors of a unit created with them (INVALID; plsql/stored-code.ts). */
  readonly errors?: ReadonlyArray<{ readonly line: number; readonly position: number; readonly text: string }>
  /** A function's declared RETURN type (its first word: NUMBER, VARCHAR2, DATE, ...). */
  readonly returns?: string
  readonly body: ReadonlyArray<Tok>
  readonly source: string
}
