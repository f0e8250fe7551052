/**
 * The data dictionary of object tables (object-tables.ts): ALL_ / USER_ / DBA_OBJECT_TABLES, which "describes the
 * object tables accessible to the current user", while ALL_TABLES "describes the relational tables" only (Oracle
 * Database Reference, "ALL_OBJECT_TABLES", "ALL_TABLES"); a subset of the view's columns, named as there.
 */
import type { NamedType } from "./type-shapes.ts"
import { charType, numberType, type OraType } from "./types.ts"

const dictColumn = (name: string, type: OraType): { name: string; type: OraType; nullable: boolean; defaultText: null } => ({ name, type, nullable: true, defaultText: null })
const v = (n: number) => charType("VARCHAR2", n)

/** ALL_OBJECT_TABLES's columns (USER_ and DBA_ follow from catalog.ts OWNED_VIEWS). */
export const objectTableDictionaryShapes = {
  ALL_OBJECT_TABLES: [
    dictColumn("OWNER", v(128)),
    dictColumn("TABLE_NAME", v(128)),
    dictColumn("TABLESPACE_NAME", v(30)),
    dictColumn("STATUS", v(8)),
    dictColumn("NUM_ROWS", numberType()),
    dictColumn("PARTITIONED", v(3)),
    dictColumn("IOT_TYPE", v(12)),
    dictColumn("OBJECT_ID_TYPE", v(16)),
    dictColumn("TABLE_TYPE_OWNER", v(128)),
    dictColumn("TABLE_TYPE", v(128)),
    dictColumn("TEMPORARY", v(1)),
    dictColumn("SECONDARY", v(1)),
    dictColumn("NESTED", v(3))
  ]
}

/** What a table shows of itself here. */
interface TableRow {
  readonly owner: string
  readonly name: string
  readonly objectType?: NamedType
}

/**
 * ALL_OBJECT_TABLES's rows: each object table with its type. OBJECT_ID_TYPE is `SYSTEM GENERATED`, the default
 * object identifier (object-tables.ts takes `OBJECT IDENTIFIER IS PRIMARY KEY` without keeping it).
 */
export const objectTableRows = (tables: Iterable<TableRow>): Array<Array<unknown>> =>
  [...tables].flatMap((t) => (t.objectType === undefined ? [] : [[t.owner, t.name, "USERS", "VALID", null, "NO", null, "SYSTEM GENERATED", t.objectType.schema, t.objectType.name, "N", "N", "NO"]]))
