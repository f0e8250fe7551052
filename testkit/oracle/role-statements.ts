/**
 * The statements of system privileges and roles: `GRANT | REVOKE system_privilege | role, ... TO | FROM grantee, ...
 * [WITH ADMIN OPTION]`, `CREATE ROLE`, `DROP ROLE`, and the system privilege each DDL statement needs.
 *
 * SQL Language Reference: GRANT ("To grant a system privilege, you must either have been granted the system privilege
 * with the ADMIN OPTION or have been granted the GRANT ANY PRIVILEGE system privilege"; a role likewise with ADMIN
 * OPTION on it or GRANT ANY ROLE, ORA-01932 otherwise), CREATE ROLE (needs CREATE ROLE; the name may not be a user's
 * or role's, ORA-01921), DROP ROLE (needs ADMIN OPTION on it or DROP ANY ROLE; ORA-01919 for a missing role), REVOKE
 * (ORA-01951 / ORA-01952 for a role / privilege not granted). Creating an object in one's own schema needs CREATE
 * TABLE, VIEW, SEQUENCE, PROCEDURE, TYPE, TRIGGER; in another schema CREATE ANY ...; dropping another schema's
 * object DROP ANY ... (ORA-01031 without).
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { insufficientPrivileges, type Requester } from "./privileges.ts"
import { type Authorizations, isSystemPrivilege, SYSTEM_PRIVILEGES } from "./system-privileges.ts"
import { oracleName } from "./translate.ts"

/** What the statements need of the database: its users and its authorizations. */
export interface RoleHost {
  readonly users: { has(name: string): boolean }
  readonly auth: Authorizations
  readonly who: Requester
}

/** The kind of object a CREATE / DROP names, as the word of its system privilege (FUNCTION and PACKAGE are PROCEDURE). */
const PRIVILEGE_WORD: Record<string, string> = {
  TABLE: "TABLE",
  VIEW: "VIEW",
  SEQUENCE: "SEQUENCE",
  PROCEDURE: "PROCEDURE",
  FUNCTION: "PROCEDURE",
  PACKAGE: "PROCEDURE",
  TYPE: "TYPE",
  TRIGGER: "TRIGGER",
  INDEX: "INDEX"
}

/**
 * The system privilege `CREATE | DROP what` needs (`own`: in the user's own schema), undefined when none: CREATE TABLE
 * in one's own schema, CREATE ANY TABLE in another's, DROP ANY TABLE to drop another's; an index of one's own needs none.
 */
export const ddlSystemPrivilege = (kw: string, what: string, own: boolean): string | undefined => {
  const word = PRIVILEGE_WORD[what]
  if (word === undefined || (own && (kw === "DROP" || word === "INDEX"))) return undefined
  return own ? `CREATE ${word}` : `${kw} ANY ${word}`
}

/** ORA-01917 unless `name` is a user, a role or PUBLIC. */
export const checkGrantee = (host: RoleHost, name: string): void => {
  if (name !== "PUBLIC" && !host.users.has(name) && !host.auth.roles.has(name)) throw new OraError(1917, `user or role '${name}' does not exist`)
}

/** The items of a GRANT / REVOKE without ON (tokens between the verb and TO / FROM): privileges and roles. */
const itemsOf = (host: RoleHost, toks: ReadonlyArray<Tok>): Array<string> => {
  const items: Array<string> = []
  let words: Array<Tok> = []
  const flush = () => {
    const name = words.map((w) => (w.kind === "qident" ? oracleName(w) : w.value)).join(" ")
    if (name === "ALL PRIVILEGES" || name === "ALL") items.push(...SYSTEM_PRIVILEGES)
    else if (host.auth.roles.has(name) || isSystemPrivilege(name)) items.push(name)
    else if (words.length === 1) throw new OraError(1919, `role '${name}' does not exist`)
    else throw new OraError(990, "missing or invalid privilege")
    words = []
  }
  for (const t of toks) {
    if (isOp(t, ",")) flush()
    else words.push(t)
  }
  if (words.length > 0) flush()
  return items
}

/** `GRANT | REVOKE privileges and roles TO | FROM grantees [WITH ADMIN OPTION]` (`toAt`: the index of TO / FROM). */
export const grantSystem = (host: RoleHost, toks: ReadonlyArray<Tok>, toAt: number, revoke: boolean): void => {
  const items = itemsOf(host, toks.slice(1, toAt))
  const withAt = toks.findIndex((t, i) => i > toAt && isKw(t, "WITH"))
  const admin = withAt > 0 && (isKw(toks[withAt + 1], "ADMIN") || isKw(toks[withAt + 1], "DELEGATE"))
  if (withAt > 0 && !admin) throw new OraError(905, "missing keyword")
  const grantees = toks.slice(toAt + 1, withAt > 0 ? withAt : undefined).filter((t) => !isOp(t, ",")).map(oracleName)
  if (grantees.length === 0) throw new OraError(987, "missing or invalid username(s)")
  for (const g of grantees) checkGrantee(host, g)
  // a role granted to a role it holds (a start-up user may share a predefined role's name: it is the user then)
  for (const g of grantees) if (!host.users.has(g) && host.auth.roles.has(g) && items.some((i) => host.auth.roles.has(i) && host.auth.wouldCycle(g, i))) throw new OraError(1934, "circular role grant detected")
  host.auth.checkAdmin(host.who.user, items)
  for (const g of grantees)
    for (const item of items) {
      const role = host.auth.roles.has(item)
      if (revoke) role ? host.auth.revokeRole(g, item) : host.auth.revokeSystem(g, [item])
      else if (role) host.auth.grantRole(g, item, admin)
      else host.auth.grantSystem(g, [item], admin)
    }
}

/** `CREATE ROLE name [NOT IDENTIFIED]` (`at`: the role name). */
export const createRole = (host: RoleHost, toks: ReadonlyArray<Tok>, at: number): void => {
  if (!host.who.has("CREATE ROLE")) throw insufficientPrivileges()
  const t = toks[at]
  if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) throw new OraError(1937, "missing or invalid role name")
  const name = oracleName(t)
  if (host.users.has(name) || host.auth.roles.has(name) || name === "PUBLIC") throw new OraError(1921, `role name '${name}' conflicts with another user or role name`)
  host.auth.createRole(name, host.who.user)
}

/** `DROP ROLE name` (`at`: the role name). */
export const dropRole = (host: RoleHost, toks: ReadonlyArray<Tok>, at: number): void => {
  const t = toks[at]
  if (t === undefined) throw new OraError(1937, "missing or invalid role name")
  const name = oracleName(t)
  if (!host.auth.roles.has(name)) throw new OraError(1919, `role '${name}' does not exist`)
  if (!host.who.has("DROP ANY ROLE") && !host.auth.mayAdminRole(host.who.user, name)) throw insufficientPrivileges()
  host.auth.dropRole(name)
}
