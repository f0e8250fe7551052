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

/** `CREATE ROLE name [NOT IDENTIFIED | IDENTIFIED BY password]` (`at`: the role name). */
export const createRole = (host: RoleHost, toks: ReadonlyArray<Tok>, at: number): void => {
  if (!host.who.has("CREATE ROLE")) throw insufficientPrivileges()
  const t = toks[at]
  if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) throw new OraError(1937, "missing or invalid role name")
  const name = oracleName(t)
  if (host.users.has(name) || host.auth.roles.has(name) || name === "PUBLIC") throw new OraError(1921, `role name '${name}' conflicts with another user or role name`)
  host.auth.createRole(name, host.who.user, rolePasswordClause(toks, at + 1))
}

/**
 * `ALTER ROLE name NOT IDENTIFIED | IDENTIFIED BY password` (`at`: the role name): needs the role WITH ADMIN OPTION or
 * ALTER ANY ROLE (SQL Language Reference, ALTER ROLE, Prerequisites), ORA-01031 otherwise; ORA-01919 for no such role.
 */
export const alterRole = (host: RoleHost, toks: ReadonlyArray<Tok>, at: number): void => {
  const t = toks[at]
  if (t === undefined) throw new OraError(1937, "missing or invalid role name")
  const name = oracleName(t)
  if (!host.auth.roles.has(name)) throw new OraError(1919, `role '${name}' does not exist`)
  if (!host.who.has("ALTER ANY ROLE") && !host.auth.mayAdminRole(host.who.user, name)) throw insufficientPrivileges()
  if (!isKw(toks[at + 1], "IDENTIFIED", "NOT")) throw new OraError(922, "missing or invalid option")
  host.auth.setRolePassword(name, rolePasswordClause(toks, at + 1))
}

/** The password of `IDENTIFIED BY password` at `at` (undefined for none or NOT IDENTIFIED). */
const rolePasswordClause = (toks: ReadonlyArray<Tok>, at: number): string | undefined => {
  if (!isKw(toks[at], "IDENTIFIED")) return undefined
  const pw = toks[at + 2]
  if (!isKw(toks[at + 1], "BY") || pw === undefined) throw new OraError(988, "missing or invalid password(s)")
  // case-sensitive, as user passwords are (ddl.ts ALTER USER)
  return pw.kind === "qident" ? pw.value : pw.text
}

/** Names separated by commas from `from` to the end of `toks`. */
const namesFrom = (toks: ReadonlyArray<Tok>, from: number): Array<string> => toks.slice(from).filter((t) => !isOp(t, ",")).map(oracleName)

/**
 * `ALTER USER user DEFAULT ROLE role, ... | ALL [EXCEPT role, ...] | NONE` (`at`: after ROLE): the roles a session of
 * the user enables at logon. They must be granted to the user directly (ORA-01955 otherwise: SQL Language
 * Reference, ALTER USER, DEFAULT ROLE clause; Error Messages, ORA-01955).
 */
export const alterDefaultRoles = (host: RoleHost, user: string, toks: ReadonlyArray<Tok>, at: number): void => {
  const direct = host.auth.directRoles(user)
  const check = (roles: ReadonlyArray<string>) => {
    for (const r of roles) {
      if (!host.auth.roles.has(r)) throw new OraError(1919, `role '${r}' does not exist`)
      if (!direct.has(r)) throw new OraError(1955, `DEFAULT ROLE '${r}' not granted to user`)
    }
    return new Set(roles)
  }
  if (isKw(toks[at], "NONE")) return host.auth.setDefaultRoles(user, false, new Set())
  if (isKw(toks[at], "ALL")) return host.auth.setDefaultRoles(user, true, isKw(toks[at + 1], "EXCEPT") ? check(namesFrom(toks, at + 2)) : new Set())
  host.auth.setDefaultRoles(user, false, check(namesFrom(toks, at)))
}

/** What SET ROLE needs of its session. */
export interface SetRoleHost {
  readonly auth: Authorizations
  readonly user: string
  /** Enables `roles` (and only them) in the session. */
  setEnabledRoles(roles: ReadonlySet<string>): Promise<void>
}

/**
 * `SET ROLE role [IDENTIFIED BY password], ... | ALL [EXCEPT role, ...] | NONE` (`toks`: from SET): enables the roles
 * named (with the roles granted to them) and disables the others (SQL Language Reference, SET ROLE). A role must be
 * granted to the user, directly or through another role (ORA-01924 otherwise), and a role IDENTIFIED BY a password
 * needs it (ORA-01979); ALL enables every role granted to the user but those of EXCEPT and the password-protected ones
 * granted directly ("You cannot use this clause to enable roles with passwords that have been granted directly to
 * you"); NONE disables every role.
 */
export const setRole = async (host: SetRoleHost, toks: ReadonlyArray<Tok>): Promise<void> => {
  const auth = host.auth
  const held = auth.grantedRolesOf(host.user)
  const granted = (r: string) => {
    if (!auth.roles.has(r) || !held.has(r)) throw new OraError(1924, `role '${r}' not granted or does not exist`)
  }
  if (isKw(toks[2], "NONE") && toks.length === 3) return host.setEnabledRoles(new Set())
  if (isKw(toks[2], "ALL")) {
    const except = isKw(toks[3], "EXCEPT") ? namesFrom(toks, 4) : []
    except.forEach(granted)
    const direct = [...auth.directRoles(host.user), ...auth.directRoles("PUBLIC")].filter((r) => !except.includes(r) && auth.rolePassword(r) === undefined)
    return host.setEnabledRoles(auth.withGrantedRoles(direct))
  }
  const named: Array<string> = []
  for (let k = 2; k < toks.length; k++) {
    if (isOp(toks[k], ",")) continue
    const role = oracleName(toks[k]!)
    granted(role)
    let given: string | undefined
    if (isKw(toks[k + 1], "IDENTIFIED")) {
      given = rolePasswordClause(toks, k + 1)
      k += 3
    }
    const password = auth.rolePassword(role)
    if (password !== undefined && given !== password) throw new OraError(1979, `missing or invalid password for role '${role}'`)
    named.push(role)
  }
  if (named.length === 0) throw new OraError(1937, "missing or invalid role name")
  await host.setEnabledRoles(auth.withGrantedRoles(named))
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
