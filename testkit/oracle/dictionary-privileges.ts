/**
 * The data dictionary of object privileges: ALL_ / USER_ / DBA_TAB_PRIVS over the grants of privileges.ts, and the
 * filter that makes every other ALL_* view list only the objects accessible to the current user.
 *
 * Database Reference (19c / 23ai): ALL_TAB_PRIVS describes "object grants for which the current user is the object
 * owner, grantor, or grantee" and those "for which an enabled role or PUBLIC is the grantee"; USER_TAB_PRIVS the
 * grants where the user is owner, grantor or grantee (with OWNER where ALL_TAB_PRIVS has TABLE_SCHEMA); DBA_TAB_PRIVS
 * every grant. ALL_TABLES "describes the relational tables accessible to the current user", and so on for the others:
 * the user's own objects, those it holds an object privilege on (directly, through PUBLIC or an enabled role), and every object for
 * a user with the system privileges of the DBA role (SELECT ANY TABLE, SELECT ANY DICTIONARY, ...).
 */
import type { Session as EngineSession } from "../engine/index.ts"
import type { Grants } from "./privileges.ts"
import { synonymsOf } from "./synonym-store.ts"
import { duckIdent } from "./names.ts"
import { charType, type OraType } from "./types.ts"

type ColumnMeta = { name: string; type: OraType; nullable: boolean; defaultText: null }
const v = (name: string, n: number): ColumnMeta => ({ name, type: charType("VARCHAR2", n), nullable: true, defaultText: null })
const TAIL = [v("PRIVILEGE", 40), v("GRANTABLE", 3), v("HIERARCHY", 3), v("COMMON", 3), v("TYPE", 24), v("INHERITED", 3)]
const USER_SHAPE = [v("GRANTEE", 128), v("OWNER", 128), v("TABLE_NAME", 128), v("GRANTOR", 128), ...TAIL]

/** The columns of ALL_TAB_PRIVS (its snapshot table holds every grant), USER_TAB_PRIVS and DBA_TAB_PRIVS. */
export const privilegeDictionaryShapes: Record<string, Array<ColumnMeta>> = {
  // Database Reference, ALL_SYNONYMS (USER_SYNONYMS / DBA_SYNONYMS follow from catalog.ts OWNED_VIEWS)
  ALL_SYNONYMS: [v("OWNER", 128), v("SYNONYM_NAME", 128), v("TABLE_OWNER", 128), v("TABLE_NAME", 128), v("DB_LINK", 128)],
  ALL_TAB_PRIVS: [v("GRANTOR", 128), v("GRANTEE", 128), v("TABLE_SCHEMA", 128), v("TABLE_NAME", 128), ...TAIL],
  USER_TAB_PRIVS: USER_SHAPE,
  DBA_TAB_PRIVS: USER_SHAPE
}

/**
 * The rows of ALL_TAB_PRIVS's snapshot (every grant, with the type of its object, `typeOf`) and of ALL_SYNONYMS's
 * (every synonym of `db`), by snapshot.
 */
export const accessDictionaryRows = (db: object, grants: Grants, typeOf: (owner: string, name: string) => string): Array<[string, Array<Array<unknown>>]> => [
  // column privileges show in *_COL_PRIVS (role-dictionary.ts)
  ["ALL_TAB_PRIVS", grants.all().filter((g) => g.column === undefined).map((g) => [g.grantor, g.grantee, g.owner, g.name, g.privilege, g.grantable ? "YES" : "NO", "NO", "NO", typeOf(g.owner, g.name), "NO"])],
  ["ALL_SYNONYMS", [...synonymsOf(db).values()].map((s) => [s.owner, s.name, s.targetOwner, s.targetName, s.targetLink])]
]

/** The column naming an ALL_* view's object, beside its owner column (catalog.ts OWNED_VIEWS). */
const NAME_COLUMN: Record<string, string> = {
  ALL_TYPES: "TYPE_NAME",
  ALL_TYPE_ATTRS: "TYPE_NAME",
  ALL_COLL_TYPES: "TYPE_NAME",
  ALL_PLSQL_COLL_TYPES: "PACKAGE_NAME",
  ALL_VIEWS: "VIEW_NAME",
  ALL_SYNONYMS: "SYNONYM_NAME",
  ALL_MVIEWS: "MVIEW_NAME",
  ALL_OBJECTS: "OBJECT_NAME",
  ALL_SEQUENCES: "SEQUENCE_NAME",
  ALL_SOURCE: "NAME",
  ALL_ERRORS: "NAME",
  ALL_PROCEDURES: "OBJECT_NAME",
  ALL_ARGUMENTS: `COALESCE(o."PACKAGE_NAME", o."OBJECT_NAME")`
}

const SNAPSHOT = `"SYS".${duckIdent("ORA$ALL_TAB_PRIVS")}`
const USER = `getvariable('ora_user')`
/** The grantee of snapshot row `g` is one of the session's enabled roles (session-variables.ts `ora_roles`). */
const ROLE_GRANTEE = `list_contains(string_split(coalesce(getvariable('ora_roles'), ''), ','), g."GRANTEE")`
/** The Oracle-maintained schemas whose objects every user may use (Oracle grants them to PUBLIC: STANDARD, SDO_GEOMETRY, XMLTYPE). */
const PUBLIC_OWNERS = `'SYS', 'PUBLIC', 'MDSYS', 'XDB'`

/** The condition an ALL_* view's row meets when its object (owner column `ownerCol`) is accessible to the user. */
const accessible = (view: string, ownerCol: string): string => {
  const name = NAME_COLUMN[view] ?? "TABLE_NAME"
  const nameSql = name.includes("(") ? name : `o."${name}"`
  return (
    `getvariable('ora_dba') = 1 OR o."${ownerCol}" IN (${USER}, ${PUBLIC_OWNERS}) OR EXISTS (SELECT 1 FROM ${SNAPSHOT} g ` +
    `WHERE g."TABLE_SCHEMA" = o."${ownerCol}" AND g."TABLE_NAME" = ${nameSql} AND (g."GRANTEE" IN (${USER}, 'PUBLIC') OR ${ROLE_GRANTEE}))`
  )
}

/**
 * Redefines the ALL_* views (`owned`: view → owner column) to list only accessible objects, and defines USER_ and
 * DBA_TAB_PRIVS over ALL_TAB_PRIVS's snapshot.
 */
export const createPrivilegeViews = async (a: EngineSession, owned: Readonly<Record<string, string>>): Promise<void> => {
  for (const [view, ownerCol] of Object.entries(owned))
    await a.execute(`CREATE OR REPLACE VIEW "SYS".${duckIdent(view)} AS SELECT o.* FROM "SYS".${duckIdent(`ORA$${view}`)} o WHERE ${accessible(view, ownerCol)}`)
  const tail = TAIL.map((c) => `"${c.name}"`).join(", ")
  const userCols = `"GRANTEE", "TABLE_SCHEMA" AS "OWNER", "TABLE_NAME", "GRANTOR", ${tail}`
  const mine = `${USER} IN ("GRANTOR", "GRANTEE", "TABLE_SCHEMA")`
  await a.execute(`CREATE OR REPLACE VIEW "SYS"."ALL_TAB_PRIVS" AS SELECT * FROM ${SNAPSHOT} g WHERE ${mine} OR "GRANTEE" = 'PUBLIC' OR ${ROLE_GRANTEE}`)
  await a.execute(`CREATE OR REPLACE VIEW "SYS"."USER_TAB_PRIVS" AS SELECT ${userCols} FROM ${SNAPSHOT} WHERE ${mine}`)
  await a.execute(`CREATE OR REPLACE VIEW "SYS"."DBA_TAB_PRIVS" AS SELECT ${userCols} FROM ${SNAPSHOT}`)
}
