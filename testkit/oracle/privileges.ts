/**
 * The ownership model: object privileges granted on tables and views, and the checks that use them.
 *
 * A user may do anything with the objects of its own schema; a DBA anything with every schema's. On another user's
 * table or view a user needs the object privilege (GRANT SELECT / INSERT / UPDATE / DELETE / ALL ON t TO u, or to
 * PUBLIC). Oracle hides an object the user holds no privilege on at all, so the statement fails with ORA-00942 as if
 * it did not exist, and fails with ORA-01031 when the user holds some privilege on it but not the one the statement
 * needs (Database Security Guide, "Managing Object Privileges"; ORA-00942 / ORA-01031 in Error Messages:
 * https://docs.oracle.com/en/error-help/db/ora-00942/, https://docs.oracle.com/en/error-help/db/ora-01031/).
 * Creating an object in another schema needs a system privilege (CREATE ANY TABLE, ...): ORA-01031 without it, and
 * the DBA_* views need SELECT ANY DICTIONARY (ORA-00942 without it).
 */
import { ora, OraError, type OracleVersion } from "./errors.ts"

/** An object privilege the server checks. */
export type ObjectPrivilege = "SELECT" | "INSERT" | "UPDATE" | "DELETE" | "ALTER" | "INDEX" | "REFERENCES" | "EXECUTE" | "DEBUG" | "UNDER"

const ALL: ReadonlyArray<ObjectPrivilege> = ["SELECT", "INSERT", "UPDATE", "DELETE", "ALTER", "INDEX", "REFERENCES"]
/** The privileges of stored units (execute-privileges.ts). */
const UNIT_PRIVILEGES: ReadonlyArray<ObjectPrivilege> = ["EXECUTE", "DEBUG", "UNDER"]

/** One object privilege one grantor gave one grantee (PUBLIC for everyone), as *_TAB_PRIVS show it. */
export interface Grant {
  readonly owner: string
  readonly name: string
  readonly grantee: string
  readonly grantor: string
  readonly privilege: ObjectPrivilege
  /** The column of a column privilege (UPDATE / INSERT / REFERENCES (col)); undefined for the whole object. */
  readonly column?: string
  /** Granted WITH GRANT OPTION: the grantee may grant it on. */
  grantable: boolean
}

/**
 * Object privileges granted on tables and views. A grant is kept per grantor, as Oracle keeps it: only its grantor
 * revokes it, and revoking it from a grantee that held it WITH GRANT OPTION also revokes what that grantee granted
 * (Database Security Guide, "Cascading Effects of Revoking Privileges").
 */
export class Grants {
  /**
   * `rolesOf`: the roles enabled for a user, whose object privileges the user holds too (system-privileges.ts);
   * `byObject`: the grants, shared with the views {@link forSession} makes.
   */
  constructor(
    private readonly rolesOf: (user: string) => ReadonlySet<string> = () => new Set(),
    private readonly byObject = new Map<string, Array<Grant>>()
  ) {}

  /** The same grants as a session of `user` with `roles` enabled uses them (its roles, not a new session's). */
  forSession(user: string, roles: ReadonlySet<string>): Grants {
    return new Grants((u) => (u === user ? roles : this.rolesOf(u)), this.byObject)
  }

  /** Grants `privileges` on `owner.name` (its `column` only, when given) to `grantee` from `grantor` (WITH GRANT OPTION when `grantable`). */
  grant(owner: string, name: string, grantee: string, privileges: ReadonlyArray<ObjectPrivilege>, grantor = owner, grantable = false, column?: string): void {
    const key = `${owner}.${name}`
    let list = this.byObject.get(key)
    if (list === undefined) this.byObject.set(key, (list = []))
    for (const privilege of privileges) {
      const old = list.find((g) => g.grantee === grantee && g.grantor === grantor && g.privilege === privilege && g.column === column)
      if (old !== undefined) old.grantable ||= grantable
      else list.push({ owner, name, grantee, grantor, privilege, grantable, ...(column === undefined ? {} : { column }) })
    }
  }

  /**
   * Revokes the `privileges` on `owner.name` that `grantor` gave `grantee` (any grantor's when undefined: a DBA),
   * and, in cascade, what the grantee granted of them; the number of grants revoked from `grantee`.
   */
  revoke(owner: string, name: string, grantee: string, privileges: ReadonlyArray<ObjectPrivilege>, grantor?: string): number {
    const list = this.byObject.get(`${owner}.${name}`)
    if (list === undefined) return 0
    const gone = list.filter((g) => g.grantee === grantee && (grantor === undefined || g.grantor === grantor) && privileges.includes(g.privilege))
    this.byObject.set(`${owner}.${name}`, list.filter((g) => !gone.includes(g)))
    for (const g of gone) {
      if (this.grantable(owner, name, grantee, g.privilege)) continue
      for (const next of [...(this.byObject.get(`${owner}.${name}`) ?? [])])
        if (next.grantor === grantee && next.privilege === g.privilege) this.revoke(owner, name, next.grantee, [g.privilege], grantee)
    }
    return gone.length
  }

  /** Forgets every grant on `owner.name` (the object was dropped). */
  dropObject(owner: string, name: string): void {
    this.byObject.delete(`${owner}.${name}`)
  }

  /** The privileges `user` holds on the whole of `owner.name`, directly, through PUBLIC or through an enabled role. */
  held(owner: string, name: string, user: string): ReadonlySet<ObjectPrivilege> {
    const list = this.byObject.get(`${owner}.${name}`) ?? []
    if (list.length === 0) return new Set()
    const roles = this.rolesOf(user)
    return new Set(list.filter((g) => g.column === undefined && (g.grantee === user || g.grantee === "PUBLIC" || roles.has(g.grantee))).map((g) => g.privilege))
  }

  /** The columns of `owner.name` on which `user` holds the column privilege `privilege` (directly, PUBLIC or a role). */
  columnsHeld(owner: string, name: string, user: string, privilege: ObjectPrivilege): ReadonlySet<string> {
    const roles = this.rolesOf(user)
    const list = this.byObject.get(`${owner}.${name}`) ?? []
    return new Set(list.filter((g) => g.column !== undefined && g.privilege === privilege && (g.grantee === user || g.grantee === "PUBLIC" || roles.has(g.grantee))).map((g) => g.column!))
  }

  /** Whether `user` holds any column privilege on `owner.name` (the table is visible to it). */
  holdsColumnPrivilege(owner: string, name: string, user: string): boolean {
    const roles = this.rolesOf(user)
    return (this.byObject.get(`${owner}.${name}`) ?? []).some((g) => g.column !== undefined && (g.grantee === user || g.grantee === "PUBLIC" || roles.has(g.grantee)))
  }

  /** The privileges `user` holds on `owner.name` directly or through PUBLIC, not through roles (as stored code uses them). */
  heldDirectly(owner: string, name: string, user: string): ReadonlySet<ObjectPrivilege> {
    return new Set((this.byObject.get(`${owner}.${name}`) ?? []).filter((g) => g.column === undefined && (g.grantee === user || g.grantee === "PUBLIC")).map((g) => g.privilege))
  }

  /** Whether `user` holds `privilege` on `owner.name` WITH GRANT OPTION. */
  grantable(owner: string, name: string, user: string, privilege: ObjectPrivilege): boolean {
    return (this.byObject.get(`${owner}.${name}`) ?? []).some((g) => g.column === undefined && g.grantee === user && g.privilege === privilege && g.grantable)
  }

  /** Every grant, for the *_TAB_PRIVS views. */
  all(): ReadonlyArray<Grant> {
    return [...this.byObject.values()].flat()
  }
}

/** The object privileges a GRANT / REVOKE list names (`ALL [PRIVILEGES]` is all of them); undefined when unknown. */
export const objectPrivileges = (words: ReadonlyArray<string>): Array<ObjectPrivilege> | undefined => {
  if (words[0] === "ALL") return [...ALL]
  const out: Array<ObjectPrivilege> = []
  for (const w of words) {
    // READ (12c) allows queries without SELECT ... FOR UPDATE: the server checks it as SELECT
    const p = w === "READ" ? "SELECT" : w
    if (!(ALL as ReadonlyArray<string>).includes(p) && !(UNIT_PRIVILEGES as ReadonlyArray<string>).includes(p)) return undefined
    out.push(p as ObjectPrivilege)
  }
  return out
}

/** Who is asking, and what the server knows of its rights. */
export interface Requester {
  readonly user: string
  /** Holds the DBA role (every system privilege). */
  readonly dba: boolean
  /** Whether the user may use a system privilege (CREATE TABLE, SELECT ANY TABLE, ...; system-privileges.ts). */
  readonly has: (privilege: string) => boolean
  /** The object grants as this session sees them (through its enabled roles). */
  readonly grants: Grants
  readonly version: OracleVersion
}

/**
 * Checks that `who` may use `privilege` on the table or view `owner.name` (DROP: drop or truncate it): undefined when
 * it may, else the error
 * Oracle raises (ORA-00942 when it holds no privilege on the object, ORA-01031 when it holds another one).
 */
export const objectAccessError = (who: Requester, owner: string, name: string, privilege: ObjectPrivilege | "DROP", columns?: ReadonlyArray<string>): OraError | undefined => {
  if (who.dba || owner === who.user || owner === "SYS" || owner === "PUBLIC") return undefined
  // SELECT ANY TABLE, INSERT ANY TABLE, ..., DROP ANY TABLE: the system privilege stands for the object privilege
  const any = ANY_TABLE[privilege]
  if (any !== undefined && who.has(any)) return undefined
  const held = who.grants.held(owner, name, who.user)
  // DROP / TRUNCATE of another schema's table need the DROP ANY TABLE system privilege: no object privilege suffices
  if (privilege !== "DROP" && held.has(privilege)) return undefined
  // an INSERT / UPDATE writing only columns the user holds the column privilege on (column-privileges.ts)
  if (privilege !== "DROP" && columns !== undefined && columns.length > 0) {
    const cols = who.grants.columnsHeld(owner, name, who.user, privilege)
    if (columns.every((c) => cols.has(c))) return undefined
  }
  // the object is visible (ORA-01031, not ORA-00942) to a holder of some privilege on it or of SELECT ANY TABLE
  return held.size > 0 || who.has("SELECT ANY TABLE") || who.grants.holdsColumnPrivilege(owner, name, who.user) ? insufficientPrivileges() : ora.tableNotFound(who.version, owner, name)
}

/** The system privilege that gives an object privilege on every schema's tables. */
const ANY_TABLE: Partial<Record<ObjectPrivilege | "DROP", string>> = {
  SELECT: "SELECT ANY TABLE",
  INSERT: "INSERT ANY TABLE",
  UPDATE: "UPDATE ANY TABLE",
  DELETE: "DELETE ANY TABLE",
  ALTER: "ALTER ANY TABLE",
  INDEX: "CREATE ANY INDEX",
  DROP: "DROP ANY TABLE"
}

/** ORA-01031. */
export const insufficientPrivileges = (): OraError => new OraError(1031, "insufficient privileges")
