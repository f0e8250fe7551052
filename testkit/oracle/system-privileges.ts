/**
 * System privileges and roles: who holds CREATE SESSION, CREATE TABLE, SELECT ANY TABLE, ..., directly, through a
 * role or through PUBLIC, and which roles a user's session has enabled.
 *
 * Oracle (Database Security Guide, "Configuring Privilege and Role Authorization"; SQL Language Reference, GRANT,
 * REVOKE, CREATE ROLE): a new user holds no privilege at all, so it cannot even log on (ORA-01045) until it is granted
 * CREATE SESSION; a system privilege or role is granted to a user, a role or PUBLIC, optionally WITH ADMIN OPTION (the
 * grantee may grant it on and revoke it); the creator of a role holds it WITH ADMIN OPTION. The predefined roles
 * CONNECT (CREATE SESSION, SET CONTAINER), RESOURCE (CREATE CLUSTER, INDEXTYPE, OPERATOR, PROCEDURE, SEQUENCE, TABLE,
 * TRIGGER, TYPE) and DBA (every system privilege) exist from the start (DBA_SYS_PRIVS of CONNECT and RESOURCE as
 * 12c and later list them). Revoking a role or system privilege revokes only that grant, never in cascade.
 */
import { OraError } from "./errors.ts"

/** The system privileges the server knows (SQL Language Reference, GRANT, "System Privileges"); any other name is ORA-00990. */
export const SYSTEM_PRIVILEGES: ReadonlyArray<string> = [
  "CREATE SESSION", "ALTER SESSION", "RESTRICTED SESSION", "SET CONTAINER", "UNLIMITED TABLESPACE", "CREATE TABLESPACE",
  "CREATE TABLE", "CREATE ANY TABLE", "ALTER ANY TABLE", "DROP ANY TABLE", "SELECT ANY TABLE", "INSERT ANY TABLE",
  "UPDATE ANY TABLE", "DELETE ANY TABLE", "LOCK ANY TABLE", "COMMENT ANY TABLE", "FLASHBACK ANY TABLE", "READ ANY TABLE",
  "CREATE VIEW", "CREATE ANY VIEW", "DROP ANY VIEW", "CREATE MATERIALIZED VIEW", "CREATE ANY MATERIALIZED VIEW",
  "ALTER ANY MATERIALIZED VIEW", "DROP ANY MATERIALIZED VIEW",
  "CREATE SEQUENCE", "CREATE ANY SEQUENCE", "ALTER ANY SEQUENCE", "DROP ANY SEQUENCE", "SELECT ANY SEQUENCE",
  "CREATE PROCEDURE", "CREATE ANY PROCEDURE", "ALTER ANY PROCEDURE", "DROP ANY PROCEDURE", "EXECUTE ANY PROCEDURE",
  "CREATE TYPE", "CREATE ANY TYPE", "ALTER ANY TYPE", "DROP ANY TYPE", "EXECUTE ANY TYPE", "UNDER ANY TYPE",
  "CREATE SYNONYM", "CREATE ANY SYNONYM", "DROP ANY SYNONYM", "CREATE PUBLIC SYNONYM", "DROP PUBLIC SYNONYM",
  "CREATE TRIGGER", "CREATE ANY TRIGGER", "ALTER ANY TRIGGER", "DROP ANY TRIGGER",
  "CREATE ANY INDEX", "ALTER ANY INDEX", "DROP ANY INDEX", "CREATE CLUSTER", "CREATE INDEXTYPE", "CREATE OPERATOR",
  "CREATE DATABASE LINK", "CREATE PUBLIC DATABASE LINK", "CREATE ANY CONTEXT", "DROP ANY CONTEXT", "CREATE JOB",
  "CREATE ANY DIRECTORY", "DROP ANY DIRECTORY", "CREATE ROLE", "ALTER ANY ROLE", "DROP ANY ROLE", "GRANT ANY ROLE",
  "GRANT ANY PRIVILEGE", "GRANT ANY OBJECT PRIVILEGE", "CREATE USER", "ALTER USER", "DROP USER", "BECOME USER",
  "SELECT ANY DICTIONARY", "ANALYZE ANY", "AUDIT ANY", "ALTER SYSTEM", "ALTER DATABASE", "DEBUG CONNECT SESSION"
]

const KNOWN = new Set(SYSTEM_PRIVILEGES)

/** The predefined roles and the system privileges each holds (DBA: all of them, kept apart). */
export const PREDEFINED_ROLES: Readonly<Record<string, ReadonlyArray<string>>> = {
  CONNECT: ["CREATE SESSION", "SET CONTAINER"],
  RESOURCE: ["CREATE CLUSTER", "CREATE INDEXTYPE", "CREATE OPERATOR", "CREATE PROCEDURE", "CREATE SEQUENCE", "CREATE TABLE", "CREATE TRIGGER", "CREATE TYPE"],
  DBA: []
}

/**
 * What the server's start-up users (its `users` option) hold: CONNECT and RESOURCE, as the application user of the
 * Oracle Database Free container images (gvenzl/oracle-free `APP_USER`), and the privileges a schema owner uses
 * beyond them (views, synonyms, materialized views, unlimited quota).
 */
export const START_UP_USER_ROLES: ReadonlyArray<string> = ["CONNECT", "RESOURCE"]
/** The system privileges granted directly to the start-up users beside {@link START_UP_USER_ROLES}. */
export const START_UP_USER_PRIVILEGES: ReadonlyArray<string> = ["CREATE VIEW", "CREATE SYNONYM", "CREATE MATERIALIZED VIEW", "UNLIMITED TABLESPACE"]

/** One role. */
export interface Role {
  readonly name: string
  readonly oracleMaintained: boolean
  readonly roleId: number
}

/** Whether `name` is a system privilege the server knows. */
export const isSystemPrivilege = (name: string): boolean => KNOWN.has(name)

/** ORA-01031. */
const insufficient = () => new OraError(1031, "insufficient privileges")

/**
 * The system privileges and roles granted in one database, by grantee (a user, a role or PUBLIC), with their ADMIN
 * OPTION. A user's effective privileges are its own, those of every role it holds (transitively) and PUBLIC's.
 */
export class Authorizations {
  /** Every role, predefined ones included. */
  readonly roles = new Map<string, Role>()
  private readonly sys = new Map<string, Map<string, boolean>>()
  private readonly roleGrants = new Map<string, Map<string, boolean>>()
  /** The passwords of roles created or altered IDENTIFIED BY a password. */
  private readonly passwords = new Map<string, string>()
  /** Users whose default roles ALTER USER set: all their roles but `roles` (`all`), or only `roles`. */
  private readonly defaults = new Map<string, { readonly all: boolean; readonly roles: ReadonlySet<string> }>()
  private nextRoleId = 1

  constructor() {
    for (const [role, privileges] of Object.entries(PREDEFINED_ROLES)) {
      this.roles.set(role, { name: role, oracleMaintained: true, roleId: this.nextRoleId++ })
      this.grantSystem(role, privileges, false)
    }
  }

  /** CREATE ROLE (IDENTIFIED BY `password` when given): the creator holds it WITH ADMIN OPTION. */
  createRole(name: string, creator: string, password?: string): void {
    this.roles.set(name, { name, oracleMaintained: false, roleId: this.nextRoleId++ })
    this.setRolePassword(name, password)
    this.grantRole(creator, name, true)
  }

  /** ALTER ROLE ... IDENTIFIED BY `password` | NOT IDENTIFIED (undefined). */
  setRolePassword(name: string, password: string | undefined): void {
    if (password === undefined) this.passwords.delete(name)
    else this.passwords.set(name, password)
  }

  /** The password enabling `role` (SET ROLE ... IDENTIFIED BY), undefined for a role without one. */
  rolePassword(role: string): string | undefined {
    return this.passwords.get(role)
  }

  /** ALTER USER ... DEFAULT ROLE: all of the user's roles but `roles` (`all`), or only `roles` (NONE: none). */
  setDefaultRoles(user: string, all: boolean, roles: ReadonlySet<string>): void {
    this.defaults.set(user, { all, roles })
  }

  /**
   * Whether `role`, granted to `user` directly, is one of its default roles: every role is until ALTER USER ...
   * DEFAULT ROLE says otherwise; after `DEFAULT ROLE role, ...` a role granted later is not (Unconfirmed).
   */
  isDefaultRole(user: string, role: string): boolean {
    const d = this.defaults.get(user)
    return d === undefined || (d.all ? !d.roles.has(role) : d.roles.has(role))
  }

  /** The roles granted to `grantee` directly (not through other roles or PUBLIC). */
  directRoles(grantee: string): ReadonlySet<string> {
    return new Set(this.roleGrants.get(grantee)?.keys() ?? [])
  }

  /** `roles` with every role granted to them, transitively. */
  withGrantedRoles(roles: Iterable<string>): Set<string> {
    const out = new Set<string>()
    for (const r of roles) {
      if (!this.roles.has(r)) continue
      out.add(r)
      for (const x of this.closure(r)) out.add(x)
    }
    return out
  }

  /** Every role `user` holds, directly, through other roles or through PUBLIC (what SET ROLE may enable). */
  grantedRolesOf(user: string): ReadonlySet<string> {
    return new Set([...this.closure(user), ...this.closure("PUBLIC")])
  }

  /** DROP ROLE: the role and every grant of it or to it. */
  dropRole(name: string): void {
    this.roles.delete(name)
    this.sys.delete(name)
    this.roleGrants.delete(name)
    this.passwords.delete(name)
    for (const m of this.roleGrants.values()) m.delete(name)
  }

  /** DROP USER: every grant to the user. */
  dropGrantee(name: string): void {
    this.sys.delete(name)
    this.roleGrants.delete(name)
    this.defaults.delete(name)
  }

  /** Grants system privileges (WITH ADMIN OPTION when `admin`; a grant again only adds the option). */
  grantSystem(grantee: string, privileges: ReadonlyArray<string>, admin: boolean): void {
    let m = this.sys.get(grantee)
    if (m === undefined) this.sys.set(grantee, (m = new Map()))
    for (const p of privileges) m.set(p, admin || m.get(p) === true)
  }

  /** Revokes system privileges granted to `grantee`: ORA-01952 when one of them was not. */
  revokeSystem(grantee: string, privileges: ReadonlyArray<string>): void {
    const m = this.sys.get(grantee)
    if (privileges.some((p) => m?.has(p) !== true)) throw new OraError(1952, `system privileges not granted to '${grantee}'`)
    for (const p of privileges) m!.delete(p)
  }

  /** Whether granting `role` to the role `grantee` would make a cycle (ORA-01934). */
  wouldCycle(grantee: string, role: string): boolean {
    return grantee === role || this.closure(role).has(grantee)
  }

  /** Grants a role. */
  grantRole(grantee: string, role: string, admin: boolean): void {
    let m = this.roleGrants.get(grantee)
    if (m === undefined) this.roleGrants.set(grantee, (m = new Map()))
    m.set(role, admin || m.get(role) === true)
  }

  /** Revokes a role granted to `grantee`: ORA-01951 when it was not. */
  revokeRole(grantee: string, role: string): void {
    const m = this.roleGrants.get(grantee)
    if (m?.has(role) !== true) throw new OraError(1951, `ROLE '${role}' not granted to '${grantee}'`)
    m.delete(role)
  }

  /** The roles `grantee` holds, through other roles too (not those of PUBLIC). */
  private closure(grantee: string): Set<string> {
    const out = new Set<string>()
    const visit = (g: string) => {
      for (const r of this.roleGrants.get(g)?.keys() ?? []) {
        if (out.has(r)) continue
        out.add(r)
        visit(r)
      }
    }
    visit(grantee)
    return out
  }

  /**
   * The roles a session of `user` enables at logon: its default roles and PUBLIC's roles, with the roles granted to
   * them. "When a user logs on, Oracle Database enables all privileges granted explicitly to the user and all
   * privileges in the user's default roles" (SQL Language Reference, SET ROLE); a session keeps them until SET ROLE
   * (Database Security Guide, "When Grants and Revokes Take Effect").
   */
  rolesOf(user: string): ReadonlySet<string> {
    const defaults = [...this.directRoles(user)].filter((r) => this.isDefaultRole(user, r))
    return this.withGrantedRoles([...defaults, ...this.directRoles("PUBLIC")])
  }

  /** Whether `user` holds the DBA role (among `roles` enabled, by default those of a new session). */
  isDba(user: string, roles: ReadonlySet<string> = this.rolesOf(user)): boolean {
    return roles.has("DBA")
  }

  /**
   * The system privileges `user` may use with `roles` enabled (by default a new session's): its own, PUBLIC's and the
   * roles' as they are now (every one for a DBA), as SESSION_PRIVS lists them.
   */
  privilegesOf(user: string, roles: ReadonlySet<string> = this.rolesOf(user)): ReadonlySet<string> {
    if (roles.has("DBA")) return KNOWN
    const out = new Set<string>()
    for (const g of [user, "PUBLIC", ...roles]) for (const p of this.sys.get(g)?.keys() ?? []) out.add(p)
    return out
  }

  /** Whether `user` may use the system privilege `privilege` (with `roles` enabled, by default a new session's). */
  has(user: string, privilege: string, roles?: ReadonlySet<string>): boolean {
    return this.privilegesOf(user, roles).has(privilege)
  }

  /** Whether `user` may grant and revoke the system privilege (ADMIN OPTION, directly or through a role; GRANT ANY PRIVILEGE). */
  mayAdminSystem(user: string, privilege: string): boolean {
    if (this.has(user, "GRANT ANY PRIVILEGE")) return true
    return [user, ...this.rolesOf(user)].some((g) => this.sys.get(g)?.get(privilege) === true)
  }

  /** Whether `user` may grant and revoke `role`, drop it or alter it (ADMIN OPTION on it; GRANT ANY ROLE). */
  mayAdminRole(user: string, role: string): boolean {
    if (this.has(user, "GRANT ANY ROLE")) return true
    return [user, ...this.rolesOf(user)].some((g) => this.roleGrants.get(g)?.get(role) === true)
  }

  /**
   * Checks that `user` may grant or revoke every item: ORA-01031 otherwise, for a role too (Unconfirmed: some
   * releases may report ORA-01932 "ADMIN option not granted for role" for a role).
   */
  checkAdmin(user: string, items: ReadonlyArray<string>): void {
    for (const item of items) if (!(this.roles.has(item) ? this.mayAdminRole(user, item) : this.mayAdminSystem(user, item))) throw insufficient()
  }

  /** Every system privilege grant, as DBA_SYS_PRIVS lists them: grantee, privilege, admin option. */
  systemGrants(): Array<readonly [string, string, boolean]> {
    return [...this.sys].flatMap(([g, m]) => [...m].map(([p, a]) => [g, p, a] as const))
  }

  /** Every role grant, as DBA_ROLE_PRIVS lists them: grantee, role, admin option. */
  roleGrantRows(): Array<readonly [string, string, boolean]> {
    return [...this.roleGrants].flatMap(([g, m]) => [...m].map(([r, a]) => [g, r, a] as const))
  }
}
