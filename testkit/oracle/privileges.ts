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
export type ObjectPrivilege = "SELECT" | "INSERT" | "UPDATE" | "DELETE" | "ALTER" | "INDEX" | "REFERENCES"

const ALL: ReadonlyArray<ObjectPrivilege> = ["SELECT", "INSERT", "UPDATE", "DELETE", "ALTER", "INDEX", "REFERENCES"]

/** Object privileges granted on tables and views, by `OWNER.NAME` and grantee (PUBLIC for everyone). */
export class Grants {
  private readonly byObject = new Map<string, Map<string, Set<ObjectPrivilege>>>()

  /** Grants `privileges` on `owner.name` to `grantee`. */
  grant(owner: string, name: string, grantee: string, privileges: ReadonlyArray<ObjectPrivilege>): void {
    const key = `${owner}.${name}`
    let grantees = this.byObject.get(key)
    if (grantees === undefined) this.byObject.set(key, (grantees = new Map()))
    let held = grantees.get(grantee)
    if (held === undefined) grantees.set(grantee, (held = new Set()))
    for (const p of privileges) held.add(p)
  }

  /** Revokes `privileges` on `owner.name` from `grantee`. */
  revoke(owner: string, name: string, grantee: string, privileges: ReadonlyArray<ObjectPrivilege>): void {
    const held = this.byObject.get(`${owner}.${name}`)?.get(grantee)
    for (const p of privileges) held?.delete(p)
  }

  /** Forgets every grant on `owner.name` (the object was dropped). */
  dropObject(owner: string, name: string): void {
    this.byObject.delete(`${owner}.${name}`)
  }

  /** The privileges `user` holds on `owner.name`, directly or through PUBLIC. */
  held(owner: string, name: string, user: string): ReadonlySet<ObjectPrivilege> {
    const grantees = this.byObject.get(`${owner}.${name}`)
    if (grantees === undefined) return new Set()
    return new Set([...(grantees.get(user) ?? []), ...(grantees.get("PUBLIC") ?? [])])
  }
}

/** The object privileges a GRANT / REVOKE list names (`ALL [PRIVILEGES]` is all of them); undefined when unknown. */
export const objectPrivileges = (words: ReadonlyArray<string>): Array<ObjectPrivilege> | undefined => {
  if (words[0] === "ALL") return [...ALL]
  const out: Array<ObjectPrivilege> = []
  for (const w of words) {
    // READ (12c) allows queries without SELECT ... FOR UPDATE: the server checks it as SELECT
    const p = w === "READ" ? "SELECT" : w
    if (!(ALL as ReadonlyArray<string>).includes(p)) return undefined
    out.push(p as ObjectPrivilege)
  }
  return out
}

/** Who is asking, and what the server knows of its rights. */
export interface Requester {
  readonly user: string
  readonly dba: boolean
  readonly grants: Grants
  readonly version: OracleVersion
}

/**
 * Checks that `who` may use `privilege` on the table or view `owner.name` (DROP: drop or truncate it): undefined when
 * it may, else the error
 * Oracle raises (ORA-00942 when it holds no privilege on the object, ORA-01031 when it holds another one).
 */
export const objectAccessError = (who: Requester, owner: string, name: string, privilege: ObjectPrivilege | "DROP"): OraError | undefined => {
  if (who.dba || owner === who.user || owner === "SYS" || owner === "PUBLIC") return undefined
  const held = who.grants.held(owner, name, who.user)
  // DROP / TRUNCATE of another schema's table need the DROP ANY TABLE system privilege: no object privilege suffices
  if (privilege !== "DROP" && held.has(privilege)) return undefined
  return held.size > 0 ? insufficientPrivileges() : ora.tableNotFound(who.version, owner, name)
}

/** ORA-01031. */
export const insufficientPrivileges = (): OraError => new OraError(1031, "insufficient privileges")
