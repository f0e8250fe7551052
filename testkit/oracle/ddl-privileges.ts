/**
 * Who may run a DDL statement: the system privileges CREATE / DROP / ALTER / TRUNCATE need, and GRANT / REVOKE of
 * object and system privileges and roles (the latter in role-statements.ts).
 */
import { OraError, ora } from "./errors.ts"
import type { DdlHost } from "./ddl-host.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { insufficientPrivileges, objectAccessError, objectPrivileges } from "./privileges.ts"
import { sequenceGrantTarget } from "./sequence-privileges.ts"
import { checkGrantedColumns, privilegeList } from "./column-privileges.ts"
import { checkTablePrivileges, type ExecutableKind, executableGrantTarget } from "./execute-privileges.ts"
import { packagesOf } from "./plsql/stored-packages.ts"
import { checkGrantee, ddlSystemPrivilege, grantSystem, type RoleHost } from "./role-statements.ts"
import { oracleName } from "./translate.ts"
import { namedTypesOf } from "./named-types.ts"
import { checkViewGrant, viewRightsOf } from "./view-owner-privileges.ts"

/** Reads a possibly schema-qualified object name at token index `at` (Ddl.qualified). */
export type Qualify = (at: number) => { schema: string; name: string; next: number }

/**
 * The system privileges DDL needs (CREATE TABLE in one's own schema, CREATE ANY TABLE, DROP ANY TABLE, ... in
 * another's: role-statements.ts) and user management's: ORA-01031 without them, or ORA-00942 for a table or view
 * the user holds no privilege on (privileges.ts).
 */
export const checkDdlPrivileges = (s: DdlHost, toks: ReadonlyArray<Tok>, qualified: Qualify): void => {
  const who = s.requester
  if (who.dba) return
  const kw = toks[0]?.value
  if (kw === "CREATE" || kw === "DROP") {
    let k = 1
    while (isKw(toks[k], "OR", "REPLACE", "GLOBAL", "PRIVATE", "TEMPORARY", "FORCE", "NOFORCE", "EDITIONABLE", "NONEDITIONABLE", "UNIQUE", "BITMAP")) k++
    const what = toks[k]?.value
    if (what === "USER") return requirePrivilege(s, `${kw} USER`)
    // contexts are not in a schema: CREATE / DROP ANY CONTEXT (SQL Language Reference, CREATE CONTEXT, DROP CONTEXT)
    if (what === "CONTEXT") return requirePrivilege(s, `${kw} ANY CONTEXT`)
    if (kw === "CREATE" && what === "MATERIALIZED" && isKw(toks[k + 1], "VIEW") && toks[k + 2] !== undefined) return checkMaterializedViewCreation(s, qualified(k + 2).schema)
    // "The materialized view must be in your own schema or you must have the DROP ANY MATERIALIZED VIEW system
    // privilege. You must also have the privileges to drop the internal table ... that the database uses to maintain
    // the materialized view data" (SQL Language Reference, DROP MATERIALIZED VIEW, Prerequisites)
    if (kw === "DROP" && what === "MATERIALIZED" && isKw(toks[k + 1], "VIEW") && toks[k + 2] !== undefined && !isKw(toks[k + 2], "LOG"))
      return requireInOtherSchema(s, qualified(k + 2).schema, "DROP ANY MATERIALIZED VIEW", "DROP ANY TABLE")
    if (!isKw(toks[k], "TABLE", "VIEW", "INDEX", "SEQUENCE", "PROCEDURE", "FUNCTION", "PACKAGE", "TYPE", "TRIGGER") || toks[k + 1] === undefined) return
    if (isKw(toks[k + 1], "BODY")) k++
    const q = qualified(k + 1)
    const own = q.schema === who.user
    const meta = !own && kw === "DROP" && (what === "TABLE" || what === "VIEW") ? s.db.catalog.getTable(q.schema, q.name) : undefined
    if (meta !== undefined) {
      const e = objectAccessError(who, meta.owner, meta.name, "DROP")
      if (e !== undefined) throw e
      return
    }
    if (kw === "CREATE" && what === "INDEX") checkIndexedTable(s, toks, q.next, qualified)
    const needed = ddlSystemPrivilege(kw, what!, own)
    if (needed === undefined || who.has(needed)) return
    if (kw === "CREATE" || (s.db.catalog.users.has(q.schema) && what !== "TABLE" && what !== "VIEW")) throw insufficientPrivileges()
    return
  }
  // "The index must be in your own schema or you must have the ALTER ANY INDEX system privilege" (SQL Language
  // Reference, ALTER INDEX, Prerequisites)
  if (kw === "ALTER" && isKw(toks[1], "INDEX") && toks[2] !== undefined) return requireInOtherSchema(s, qualified(2).schema, "ALTER ANY INDEX")
  if ((kw === "ALTER" || kw === "TRUNCATE") && isKw(toks[1], "TABLE") && toks[2] !== undefined) {
    const q = qualified(2)
    const meta = q.schema === who.user ? undefined : s.db.catalog.getTable(q.schema, q.name)
    const e = meta === undefined ? undefined : objectAccessError(who, meta.owner, meta.name, kw === "ALTER" ? "ALTER" : "DROP")
    if (e !== undefined) throw e
  }
}

/**
 * An object of another existing user's schema needs `privileges` (ORA-01031 without one, as DROP INDEX without DROP
 * ANY INDEX; Unconfirmed: whether Oracle reports an object the user holds no privilege on as missing instead).
 */
const requireInOtherSchema = (s: DdlHost, schema: string, ...privileges: ReadonlyArray<string>): void => {
  if (schema !== s.requester.user && s.db.catalog.users.has(schema)) for (const p of privileges) requirePrivilege(s, p)
}

/**
 * CREATE MATERIALIZED VIEW: in one's own schema CREATE MATERIALIZED VIEW and CREATE TABLE (or CREATE ANY TABLE), in
 * another's CREATE ANY MATERIALIZED VIEW; ORA-01031 otherwise (SQL Language Reference, CREATE MATERIALIZED VIEW,
 * Prerequisites).
 */
const checkMaterializedViewCreation = (s: DdlHost, schema: string): void => {
  const who = s.requester
  const may = schema === who.user ? who.has("CREATE MATERIALIZED VIEW") && (who.has("CREATE TABLE") || who.has("CREATE ANY TABLE")) : who.has("CREATE ANY MATERIALIZED VIEW")
  if (!may) throw insufficientPrivileges()
}

/**
 * CREATE INDEX ... ON `table` of another schema: the INDEX object privilege on it or CREATE ANY INDEX, else ORA-01031
 * (ORA-00942 when the user holds no privilege on the table). "To create an index in your own schema, one of the
 * following conditions must be true: The table or cluster to be indexed must be in your own schema. You must have the
 * INDEX object privilege on the table to be indexed. You must have the CREATE ANY INDEX system privilege." (SQL
 * Language Reference, CREATE INDEX, Prerequisites.)
 */
const checkIndexedTable = (s: DdlHost, toks: ReadonlyArray<Tok>, from: number, qualified: Qualify): void => {
  const on = toks.findIndex((t, k) => k >= from && isKw(t, "ON"))
  if (on < 0 || toks[on + 1] === undefined) return
  const q = qualified(on + 1)
  const meta = s.db.catalog.getTable(q.schema, q.name)
  const e = meta === undefined ? undefined : objectAccessError(s.requester, meta.owner, meta.name, "INDEX")
  if (e !== undefined) throw e
}

/** Who runs the statement, with the database's users and authorizations (role-statements.ts). */
export const roleHost = (s: DdlHost): RoleHost => {
  return { users: s.db.catalog.users, auth: s.db.auth, who: s.requester }
}

/**
 * GRANT / REVOKE. Object privileges (`GRANT SELECT, INSERT ON t TO u, PUBLIC`) are recorded for the privilege
 * checks; the owner or a DBA may grant them. System privileges and roles: role-statements.ts.
 */
export const grantOrRevoke = (s: DdlHost, toks: ReadonlyArray<Tok>, revoke: boolean, qualified: Qualify): void => {
  const on = toks.findIndex((t) => isKw(t, "ON"))
  const toAt = toks.findIndex((t) => isKw(t, revoke ? "FROM" : "TO"))
  if (toAt < 0) throw new OraError(revoke ? 996 : 905, revoke ? "missing FROM keyword" : "missing keyword")
  if (on < 0) return grantSystem(roleHost(s), toks, toAt, revoke)
  const grantees: Array<string> = []
  for (let k = toAt + 1; k < toks.length && !isKw(toks[k], "WITH"); k++) {
    const t = toks[k]!
    if (isOp(t, ",")) continue
    const name = oracleName(t)
    checkGrantee(roleHost(s), name)
    grantees.push(name)
  }
  const { words, columns } = privilegeList(toks.slice(1, on), revoke)
  const who = s.requester
  const privileges = words.length === 0 ? [] : objectPrivileges(words.filter((w) => w !== "PRIVILEGES"))
  if (privileges === undefined) throw new OraError(990, "missing or invalid privilege")
  const q = qualified(on + 1)
  const table = s.db.catalog.getTable(q.schema, q.name)
  if (table !== undefined) checkTablePrivileges(privileges)
  const unitKind = table === undefined ? executableKind(s, q.schema, q.name) : undefined
  const unit = unitKind === undefined ? undefined : executableGrantTarget(unitKind, q.schema, q.name, privileges, words[0] === "ALL", who.version)
  if (unit !== undefined) privileges.splice(0, privileges.length, ...unit.privileges)
  const meta = table ?? unit ?? sequenceGrantTarget(s.db.catalog, q.schema, q.name, privileges)
  if (meta === undefined) throw ora.tableNotFound(who.version, q.schema, q.name)
  if (columns.length > 0) {
    if (table === undefined) throw new OraError(942, "table or view does not exist")
    checkGrantedColumns(table, columns)
  }
  const grants = s.db.grants
  const mine = who.dba || meta.owner === who.user
  // another user grants what it holds WITH GRANT OPTION, and revokes only what it granted (ORA-01927)
  if (!mine && (revoke ? grants.held(meta.owner, meta.name, who.user).size === 0 : ![...privileges, ...columns.map((c) => c.privilege)].every((p) => grants.grantable(meta.owner, meta.name, who.user, p))))
    throw objectAccessError(who, meta.owner, meta.name, "DROP")!
  // a view's owner grants on it what it may grant on the objects of other schemas under it (view-owner-privileges.ts)
  if (!revoke && table?.kind === "VIEW") checkViewGrant(viewRightsOf(s.db), table, privileges)
  const withGrantOption = !revoke && isKw(toks.at(-3), "WITH") && isKw(toks.at(-2), "GRANT") && isKw(toks.at(-1), "OPTION")
  // a role cannot hold an object privilege WITH GRANT OPTION (SQL Language Reference, GRANT)
  if (withGrantOption && grantees.some((g) => s.db.auth.roles.has(g))) throw new OraError(1926, "cannot GRANT to a role WITH GRANT OPTION")
  const grantor = mine ? meta.owner : who.user
  for (const g of grantees) {
    if (!revoke) {
      grants.grant(meta.owner, meta.name, g, privileges, grantor, withGrantOption)
      for (const c of columns) grants.grant(meta.owner, meta.name, g, [c.privilege], grantor, withGrantOption, c.column)
    }
    else if (grants.revoke(meta.owner, meta.name, g, privileges, who.dba ? undefined : grantor) === 0) throw new OraError(1927, "cannot REVOKE privileges you did not grant")
  }
}

/** The kind of the stored unit `owner.name` (a procedure, function, package or type), undefined for none. */
const executableKind = (s: DdlHost, owner: string, name: string): ExecutableKind | undefined => {
  const proc = s.db.procedures.get(`${owner}.${name}`)
  if (proc !== undefined) return proc.isFunction === true ? "FUNCTION" : "PROCEDURE"
  if (packagesOf(s.db).has(`${owner}.${name}`)) return "PACKAGE"
  return namedTypesOf(s.db).lookup(owner, owner, name) !== undefined ? "TYPE" : undefined
}

/** ORA-01031 unless the session user holds the system privilege (CREATE USER, ALTER USER, DROP USER). */
export const requirePrivilege = (s: DdlHost, privilege: string): void => {
  if (!s.requester.has(privilege)) throw insufficientPrivileges()
}

