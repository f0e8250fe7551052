/**
 * The data dictionary of system privileges, roles and column privileges: USER_ / DBA_SYS_PRIVS, SESSION_PRIVS,
 * SESSION_ROLES, USER_ / DBA_ROLE_PRIVS, ROLE_SYS_PRIVS, ROLE_TAB_PRIVS, DBA_ROLES, USER_ / ALL_COL_PRIVS, with the
 * columns the Oracle Database Reference gives them (19c / 23ai). USER_SYS_PRIVS and USER_ROLE_PRIVS list the grants
 * to the user and to PUBLIC; SESSION_PRIVS the system privileges the session may use (through its roles too);
 * SESSION_ROLES its enabled roles; ROLE_SYS_PRIVS / ROLE_TAB_PRIVS the grants to the roles the user holds (every role
 * for a DBA); *_COL_PRIVS the column grants the user owns, granted or received (ALL_: also through PUBLIC or a role).
 *
 * The snapshot table of a per-user view holds every user's rows with the user in an extra column `ORA$USER`; the view
 * keeps the querying session's.
 */
import type { Session as EngineSession } from "../engine/index.ts"
import type { Grants } from "./privileges.ts"
import type { Authorizations } from "./system-privileges.ts"
import { duckIdent } from "./names.ts"
import { charType, dictionaryNumberType, type OraType } from "./types.ts"

type ColumnMeta = { name: string; type: OraType; nullable: boolean; defaultText: null }
const v = (name: string, n = 128): ColumnMeta => ({ name, type: charType("VARCHAR2", n), nullable: true, defaultText: null })
const TAIL = [v("COMMON", 3), v("INHERITED", 3)]

/** The columns of each view. */
export const roleDictionaryShapes: Record<string, Array<ColumnMeta>> = {
  USER_SYS_PRIVS: [v("USERNAME"), v("PRIVILEGE", 40), v("ADMIN_OPTION", 3), ...TAIL],
  DBA_SYS_PRIVS: [v("GRANTEE"), v("PRIVILEGE", 40), v("ADMIN_OPTION", 3), ...TAIL],
  SESSION_PRIVS: [v("PRIVILEGE", 40)],
  SESSION_ROLES: [v("ROLE")],
  USER_ROLE_PRIVS: [v("USERNAME"), v("GRANTED_ROLE"), v("ADMIN_OPTION", 3), v("DELEGATE_OPTION", 3), v("DEFAULT_ROLE", 3), v("OS_GRANTED", 3), ...TAIL],
  DBA_ROLE_PRIVS: [v("GRANTEE"), v("GRANTED_ROLE"), v("ADMIN_OPTION", 3), v("DELEGATE_OPTION", 3), v("DEFAULT_ROLE", 3), ...TAIL],
  ROLE_SYS_PRIVS: [v("ROLE"), v("PRIVILEGE", 40), v("ADMIN_OPTION", 3), ...TAIL],
  ROLE_TAB_PRIVS: [v("ROLE"), v("OWNER"), v("TABLE_NAME"), v("COLUMN_NAME"), v("PRIVILEGE", 40), v("GRANTABLE", 3), ...TAIL],
  DBA_ROLES: [
    v("ROLE"),
    { name: "ROLE_ID", type: dictionaryNumberType, nullable: false, defaultText: null },
    v("PASSWORD_REQUIRED", 8),
    v("AUTHENTICATION_TYPE", 11),
    v("COMMON", 3),
    v("ORACLE_MAINTAINED", 1),
    v("INHERITED", 3),
    v("IMPLICIT", 3),
    v("EXTERNAL_NAME", 4000)
  ],
  USER_COL_PRIVS: [v("GRANTEE"), v("OWNER"), v("TABLE_NAME"), v("COLUMN_NAME"), v("GRANTOR"), v("PRIVILEGE", 40), v("GRANTABLE", 3), ...TAIL],
  ALL_COL_PRIVS: [v("GRANTOR"), v("GRANTEE"), v("TABLE_SCHEMA"), v("TABLE_NAME"), v("COLUMN_NAME"), v("PRIVILEGE", 40), v("GRANTABLE", 3), ...TAIL]
}

/** The views whose rows depend on the querying user. */
const PER_USER = ["USER_SYS_PRIVS", "SESSION_PRIVS", "SESSION_ROLES", "USER_ROLE_PRIVS", "ROLE_SYS_PRIVS", "ROLE_TAB_PRIVS", "USER_COL_PRIVS", "ALL_COL_PRIVS"]

/**
 * The names a query over these views asks the dictionary to refresh (session-dictionary.ts `dictionaryTablesOf`
 * turns USER_X / DBA_X into ALL_X).
 */
const REFRESHED_BY = new Set(["ALL_SYS_PRIVS", "SESSION_PRIVS", "SESSION_ROLES", "ALL_ROLE_PRIVS", "ROLE_SYS_PRIVS", "ROLE_TAB_PRIVS", "ALL_ROLES", "ALL_COL_PRIVS"])

/** Redefines the views over their snapshot tables (the per-user ones keyed by `ORA$USER`). */
export const createRoleDictionaryViews = async (a: EngineSession): Promise<void> => {
  for (const view of PER_USER) {
    const table = `"SYS".${duckIdent(`ORA$${view}`)}`
    await a.execute(`ALTER TABLE ${table} ADD COLUMN "ORA$USER" VARCHAR`)
    const cols = roleDictionaryShapes[view]!.map((c) => duckIdent(c.name)).join(", ")
    await a.execute(`CREATE OR REPLACE VIEW "SYS".${duckIdent(view)} AS SELECT ${cols} FROM ${table} WHERE "ORA$USER" = getvariable('ora_user')`)
  }
}

const yn = (b: boolean) => (b ? "YES" : "NO")

/** The rows of every snapshot, per-user ones with their user last, for `users`. */
const rowsOf = (auth: Authorizations, grants: Grants, users: ReadonlyArray<string>, asker?: { readonly user: string; readonly roles: ReadonlySet<string> }): Record<string, Array<Array<unknown>>> => {
  const sys = auth.systemGrants()
  const roleGrants = auth.roleGrantRows()
  const objectGrants = grants.all()
  const out: Record<string, Array<Array<unknown>>> = {
    DBA_SYS_PRIVS: sys.map(([g, p, a]) => [g, p, yn(a), "NO", "NO"]),
    DBA_ROLE_PRIVS: roleGrants.map(([g, r, a]) => [g, r, yn(a), "NO", yn(auth.isDefaultRole(g, r)), "NO", "NO"]),
    DBA_ROLES: [...auth.roles.values()].map((r) => {
      const password = auth.rolePassword(r.name) !== undefined
      return [r.name, r.roleId, yn(password), password ? "PASSWORD" : "NONE", "NO", r.oracleMaintained ? "Y" : "N", "NO", "NO", null]
    })
  }
  for (const view of PER_USER) out[view] = []
  for (const u of users) {
    // the querying session's enabled roles (SET ROLE), else those a new session of the user enables
    const enabled = asker?.user === u ? asker.roles : auth.rolesOf(u)
    const roles = enabled.has("DBA") ? new Set(auth.roles.keys()) : enabled
    const mine = (g: string) => g === u || g === "PUBLIC"
    out.USER_SYS_PRIVS!.push(...sys.filter(([g]) => mine(g)).map(([g, p, a]) => [g, p, yn(a), "NO", "NO", u]))
    out.SESSION_PRIVS!.push(...[...auth.privilegesOf(u, enabled)].map((p) => [p, u]))
    out.SESSION_ROLES!.push(...[...enabled].map((r) => [r, u]))
    out.USER_ROLE_PRIVS!.push(...roleGrants.filter(([g]) => mine(g)).map(([g, r, a]) => [g, r, yn(a), "NO", yn(auth.isDefaultRole(g, r)), "NO", "NO", "NO", u]))
    out.ROLE_SYS_PRIVS!.push(...sys.filter(([g]) => roles.has(g)).map(([g, p, a]) => [g, p, yn(a), "NO", "NO", u]))
    out.ROLE_TAB_PRIVS!.push(...objectGrants.filter((g) => roles.has(g.grantee)).map((g) => [g.grantee, g.owner, g.name, g.column ?? null, g.privilege, yn(g.grantable), "NO", "NO", u]))
    for (const g of objectGrants) {
      if (g.column === undefined) continue
      const party = g.owner === u || g.grantor === u || g.grantee === u
      if (party) out.USER_COL_PRIVS!.push([g.grantee, g.owner, g.name, g.column, g.grantor, g.privilege, yn(g.grantable), "NO", "NO", u])
      if (party || g.grantee === "PUBLIC" || enabled.has(g.grantee)) out.ALL_COL_PRIVS!.push([g.grantor, g.grantee, g.owner, g.name, g.column, g.privilege, yn(g.grantable), "NO", "NO", u])
    }
  }
  return out
}

const lit = (x: unknown): string => (x === null || x === undefined ? "NULL" : typeof x === "number" ? String(x) : `'${String(x).replace(/'/g, "''")}'`)

/** Rewrites the snapshots when a query names one of the views (`names`: the dictionary tables it reads); admin session only. */
export const refreshRoleDictionary = async (
  s: Pick<EngineSession, "execute">,
  names: ReadonlySet<string>,
  auth: Authorizations,
  grants: Grants,
  users: ReadonlyArray<string>,
  asker?: { readonly user: string; readonly roles: ReadonlySet<string> }
): Promise<void> => {
  if (![...names].some((n) => REFRESHED_BY.has(n) || n in roleDictionaryShapes)) return
  for (const [view, rows] of Object.entries(rowsOf(auth, grants, users, asker))) {
    const table = `"SYS".${duckIdent(`ORA$${view}`)}`
    await s.execute(`DELETE FROM ${table}`)
    if (rows.length === 0) continue
    const cols = [...roleDictionaryShapes[view]!.map((c) => duckIdent(c.name)), ...(PER_USER.includes(view) ? [`"ORA$USER"`] : [])]
    await s.execute(`INSERT INTO ${table} (${cols.join(", ")}) VALUES ${rows.map((r) => `(${r.map(lit).join(", ")})`).join(", ")}`)
  }
}
