/**
 * EXECUTE on stored procedures, functions, packages and types: what GRANT ... ON a stored unit accepts, and whether
 * a user may call one of another schema.
 *
 * SQL Language Reference, GRANT, "Object Privileges": procedures, functions and packages take EXECUTE and DEBUG
 * (ORA-02225 for another privilege), types EXECUTE, DEBUG and UNDER (ORA-02305); EXECUTE is no table privilege
 * (ORA-02224). A call of another schema's unit without EXECUTE (directly, through PUBLIC or, outside stored code,
 * through an enabled role) or EXECUTE ANY PROCEDURE fails as if the unit did not exist: "PLS-00201: identifier
 * 'string' must be declared ... for security reasons, you will be notified only that the item is not declared";
 * stored code runs with its owner's privileges and "no roles enabled except PUBLIC" (Error Messages, PLS-00201,
 * https://docs.oracle.com/en/error-help/db/pls-00201/).
 */
import { OraError, type OracleVersion } from "./errors.ts"
import type { Grants, ObjectPrivilege, Requester } from "./privileges.ts"
import type { Authorizations } from "./system-privileges.ts"

/** The kinds of stored unit EXECUTE is granted on. */
export type ExecutableKind = "PROCEDURE" | "FUNCTION" | "PACKAGE" | "TYPE"

/** The Oracle-maintained schemas whose units every user may call (their EXECUTE is granted to PUBLIC). */
const PUBLIC_OWNERS = new Set(["SYS", "PUBLIC", "MDSYS", "XDB"])

/**
 * The stored unit `owner.name` of `kind` as a GRANT's object; ORA-02225 / ORA-02305 for a privilege it does not take
 * (`ALL [PRIVILEGES]` is EXECUTE and DEBUG, and UNDER for a type).
 */
export const executableGrantTarget = (kind: ExecutableKind, owner: string, name: string, privileges: ReadonlyArray<ObjectPrivilege>, all: boolean, version: OracleVersion): { owner: string; name: string; privileges: Array<ObjectPrivilege> } => {
  const allowed: ReadonlyArray<ObjectPrivilege> = kind === "TYPE" ? ["EXECUTE", "DEBUG", "UNDER"] : ["EXECUTE", "DEBUG"]
  if (all) return { owner, name, privileges: [...allowed] }
  if (privileges.some((p) => !allowed.includes(p)))
    throw kind === "TYPE"
      ? new OraError(2305, "only EXECUTE, DEBUG, and UNDER privileges are valid for types")
      : // the 23ai text (https://docs.oracle.com/en/error-help/db/ora-02225/); 19c's is the classic one
        new OraError(2225, version === "23ai" ? "You can only grant or revoke EXECUTE and DEBUG object privileges for this object." : "only EXECUTE and DEBUG privileges are valid for procedures")
  return { owner, name, privileges: [...privileges] }
}

/** ORA-02224 when a table grant names EXECUTE. */
export const checkTablePrivileges = (privileges: ReadonlyArray<ObjectPrivilege>): void => {
  if (privileges.some((p) => p === "EXECUTE" || p === "DEBUG" || p === "UNDER")) throw new OraError(2224, "EXECUTE privilege not allowed for tables")
}

/**
 * Whether `user` may call the stored unit `owner.name`: its owner, a holder of EXECUTE ANY PROCEDURE, or of EXECUTE
 * granted to it, to PUBLIC or (when `withRoles`: not inside stored code) to an enabled role.
 */
export const mayExecute = (db: { readonly auth: Authorizations; readonly grants: Grants }, user: string, owner: string, name: string, withRoles: boolean): boolean => {
  if (user === owner || PUBLIC_OWNERS.has(owner) || db.auth.has(user, "EXECUTE ANY PROCEDURE")) return true
  return (withRoles ? db.grants.held(owner, name, user) : db.grants.heldDirectly(owner, name, user)).has("EXECUTE")
}

/**
 * Whether `who` may use the type `owner.name` to define a table column: "EXECUTE enables you to use the type to ...
 * Define a column in a relational table" (Object-Relational Developer's Guide, "Privileges on Object Types and Their
 * Methods"), granted to it, to PUBLIC or to an enabled role, or EXECUTE ANY TYPE.
 */
export const mayUseType = (who: Requester, owner: string, name: string): boolean =>
  who.dba || owner === who.user || PUBLIC_OWNERS.has(owner) || who.has("EXECUTE ANY TYPE") || who.grants.held(owner, name, who.user).has("EXECUTE")

/** The user whose privileges code running in `unit` (`OWNER.NAME` of a stored unit, undefined in an anonymous block) uses. */
export const currentUserOf = (unit: string | undefined, sessionUser: string): { readonly user: string; readonly withRoles: boolean } => {
  const owner = unit?.split(".")[0]
  return owner === undefined ? { user: sessionUser, withRoles: true } : { user: owner, withRoles: false }
}
