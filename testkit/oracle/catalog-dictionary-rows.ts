/**
 * The rows of the data dictionary views that show the catalog and the database's settings (ALL_USERS, ALL_TABLES,
 * ALL_TAB_COLUMNS, ALL_CONSTRAINTS, ALL_OBJECTS, ALL_INDEXES, ..., V$VERSION, V$DATABASE, NLS_*_PARAMETERS), which
 * database.ts writes into their snapshot tables when the catalog changed.
 */
import { type Catalog, dataLength, indexedTableOwner } from "./catalog.ts"
import type { OracleVersion } from "./errors.ts"
import { objectTableRows } from "./object-table-dictionary.ts"
import { REF_DTY } from "./object-references.ts"
import { versionInfo } from "./server-versions.ts"

/** What those rows are read from: the database's catalog and settings. */
export interface CatalogDictionarySource {
  readonly catalog: Catalog
  readonly settings: { readonly version: OracleVersion; readonly serviceName: string; readonly numericCharacters?: string }
  /** Name of the pluggable database. */
  pdbName(): string
}

/**
 * Each such view with its rows, in the order they are written; `objectStatus` gives a stored object's
 * ALL_OBJECTS.STATUS (VALID or INVALID).
 */
export function* catalogDictionaryRows(db: CatalogDictionarySource, objectStatus: (owner: string, type: string, name: string) => string): Generator<readonly [string, Array<Array<unknown>>]> {
  const catalog = db.catalog
  const vi = versionInfo(db.settings.version)
  // Only user tables appear in ALL_TABLES/ALL_TAB_COLUMNS; SYS views are listed in ALL_OBJECTS.
  const tables = [...catalog.allTables()].filter((t) => t.owner !== "PUBLIC")
  const userTables = tables.filter((t) => t.owner !== "SYS")
  yield [
    "ALL_USERS",
    [...catalog.users.values()].map((u) => [u.name, u.userId, u.created, "NO", u.oracleMaintained ? "Y" : "N", "NO", "USING_NLS_COMP", "NO", "NO"])
  ]
  yield [
    "ALL_TABLES",
    // an object table is in ALL_OBJECT_TABLES, not ALL_TABLES (object-table-dictionary.ts)
    userTables.filter((t) => t.kind === "TABLE" && t.objectType === undefined).map((t) => [t.owner, t.name, "USERS", null, null, "VALID", null, null, null, null, "NO", null, "N", "N", "NO", null, "NO", "NO", "NO"])
  ]
  yield ["ALL_OBJECT_TABLES", objectTableRows(userTables)]
  yield [
    "ALL_VIEWS",
    tables.filter((t) => t.kind === "VIEW" && t.owner !== "SYS").map((t) => [t.owner, t.name, (t.viewText ?? "").length, t.viewText, t.viewText, null, null, null, null, null, null, null, "N", "N"])
  ]
  yield [
    "ALL_TAB_COLUMNS",
    tables
      .filter((t) => t.owner !== "SYS")
      .flatMap((t) =>
        t.columns.map((c, i) => {
          const isChar = c.type.kind === "varchar" || c.type.kind === "nvarchar"
          return [
            t.owner,
            t.name,
            c.name,
            c.type.dictName,
            c.type.dty === REF_DTY ? "REF" : null, // DATA_TYPE_MOD of a REF column (object-references.ts)
            c.type.named?.schema ?? null, // DATA_TYPE_OWNER of an object-type column
            dataLength(c.type),
            c.type.dictPrecision,
            c.type.dictScale,
            c.nullable ? "Y" : "N",
            i + 1,
            c.defaultText === null ? null : c.defaultText.length,
            c.defaultText,
            isChar ? c.type.charSize : 0,
            isChar ? c.type.charSize : 0,
            isChar ? (c.type.kind === "nvarchar" ? "C" : "B") : null
          ]
        })
      )
  ]
  yield [
    "ALL_CONSTRAINTS",
    userTables.flatMap((t) =>
      t.constraints.map((c) => [
        t.owner,
        c.name,
        c.type,
        t.name,
        c.searchCondition,
        c.searchCondition,
        c.refOwner,
        c.refConstraint,
        c.type === "R" ? "NO ACTION" : null,
        c.disabled === true ? "DISABLED" : "ENABLED",
        "NOT DEFERRABLE",
        "IMMEDIATE",
        c.notValidated === true ? "NOT VALIDATED" : "VALIDATED",
        c.generated ? "GENERATED NAME" : "USER NAME",
        c.type === "P" || c.type === "U" ? t.owner : null,
        c.type === "P" || c.type === "U" ? c.name : null
      ])
    )
  ]
  yield [
    "ALL_CONS_COLUMNS",
    userTables.flatMap((t) => t.constraints.flatMap((c) => c.columns.map((col, i) => [t.owner, c.name, t.name, col, c.type === "C" ? null : i + 1])))
  ]
  const objRows: Array<Array<unknown>> = []
  for (const t of tables) objRows.push([t.owner, t.name, null, t.objectId, t.kind === "TABLE" ? t.objectId : null, t.kind, t.created, t.created, t.created.toISOString().slice(0, 19).replace("T", ":"), "VALID", "N", "N", "N", 1, null, "NONE", t.kind === "VIEW" ? "Y" : null, t.owner === "SYS" ? "Y" : "N"])
  for (const o of catalog.allObjects())
    objRows.push([o.owner, o.name, null, o.objectId, o.type === "INDEX" ? o.objectId : null, o.type, o.created, o.created, o.created.toISOString().slice(0, 19).replace("T", ":"), objectStatus(o.owner, o.type, o.name), "N", "N", "N", o.type === "INDEX" ? 4 : 1, null, "NONE", o.type === "PROCEDURE" ? "Y" : null, "N"])
  yield ["ALL_OBJECTS", objRows]
  const indexes = [...catalog.allObjects()].filter((o) => o.type === "INDEX")
  yield [
    "ALL_INDEXES",
    indexes.map((o) => [o.owner, o.name, "NORMAL", indexedTableOwner(o), o.tableName ?? null, "TABLE", o.unique === true ? "UNIQUE" : "NONUNIQUE", "USERS", "VALID", o.constraintIndex === true && /^SYS_C/.test(o.name) ? "Y" : "N", o.constraintIndex === true ? "YES" : "NO"])
  ]
  yield [
    "ALL_IND_COLUMNS",
    indexes.flatMap((o) => {
      const table = o.tableName !== undefined ? catalog.getTable(indexedTableOwner(o), o.tableName) : undefined
      return (o.indexColumns ?? []).map((c, i) => {
        const meta = table?.columns.find((x) => x.name === c.name)
        return [o.owner, o.name, indexedTableOwner(o), o.tableName ?? null, c.name, i + 1, meta !== undefined ? dataLength(meta.type) : 0, meta?.type.charSize ?? 0, c.descending ? "DESC" : "ASC"]
      })
    })
  ]
  yield [
    "ALL_TAB_COMMENTS",
    tables.filter((t) => t.owner !== "SYS").map((t) => [t.owner, t.name, t.kind, t.comment ?? null, 3])
  ]
  yield [
    "ALL_COL_COMMENTS",
    tables.filter((t) => t.owner !== "SYS").flatMap((t) => t.columns.map((c) => [t.owner, t.name, c.name, t.columnComments?.[c.name] ?? null, 3]))
  ]
  yield [
    "ALL_SEQUENCES",
    [...catalog.allObjects()].filter((o) => o.type === "SEQUENCE").map((o) => [o.owner, o.name, 1, "9999999999999999999999999999", 1, "N", "N", 20, 1])
  ]
  yield ["V$VERSION", [[vi.banner, vi.full, vi.banner, 0]]]
  yield ["PRODUCT_COMPONENT_VERSION", [["Oracle Database " + (db.settings.version === "23ai" ? "23ai Free" : "19c Enterprise Edition"), vi.version, vi.versionFull, db.settings.version === "23ai" ? "Develop, Learn, and Run for Free" : "Production"]]]
  yield ["V$DATABASE", [[1234567890, "FREE", new Date(Date.UTC(2024, 0, 1)), "READ WRITE", "FREE", "YES", 0]]]
  yield ["V$INSTANCE", [[1, "FREE", "localhost", vi.version, vi.versionFull, "OPEN", "ACTIVE", 0]]]
  const pdbs = [
    [2, 111, "PDB$SEED", "READ ONLY", new Date(Date.UTC(2024, 0, 1))],
    [3, 222, db.pdbName(), "READ WRITE", new Date(Date.UTC(2024, 0, 1))]
  ]
  yield ["V$CONTAINERS", pdbs.slice(1)]
  yield ["V$PDBS", pdbs.slice(1)]
  yield ["GLOBAL_NAME", [[db.settings.serviceName.toUpperCase()]]]
  const nls = [
    ["NLS_LANGUAGE", "AMERICAN"],
    ["NLS_TERRITORY", "AMERICA"],
    ["NLS_CHARACTERSET", "AL32UTF8"],
    ["NLS_NCHAR_CHARACTERSET", "AL16UTF16"],
    ["NLS_DATE_FORMAT", "DD-MON-RR"], ["NLS_DATE_LANGUAGE", "AMERICAN"],
    ["NLS_TIMESTAMP_FORMAT", "DD-MON-RR HH.MI.SSXFF AM"], ["NLS_TIMESTAMP_TZ_FORMAT", "DD-MON-RR HH.MI.SSXFF AM TZR"],
    ["NLS_NUMERIC_CHARACTERS", db.settings.numericCharacters ?? ".,"],
    ["NLS_LENGTH_SEMANTICS", "BYTE"]
  ]
  yield ["NLS_SESSION_PARAMETERS", nls.filter((r) => !r[0]!.includes("CHARACTERSET"))]
  yield ["NLS_DATABASE_PARAMETERS", nls]
}
