/**
 * Object privileges on sequences: SELECT (NEXTVAL / CURRVAL) and ALTER, the only two a sequence takes (SQL Language
 * Reference, "GRANT": ORA-02205 for another). Another schema's sequence without any privilege on it is hidden:
 * ORA-02289 "sequence does not exist" (https://docs.oracle.com/en/error-help/db/ora-02289/); with ALTER only,
 * NEXTVAL is ORA-01031.
 */
import type { Catalog } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isOp, type Tok } from "./lexer.ts"
import { insufficientPrivileges, type ObjectPrivilege, type Requester } from "./privileges.ts"
import { oracleName } from "./translate.ts"

/** The sequence `owner.name` as a GRANT's object (undefined when there is none); ORA-02205 for a privilege other than SELECT / ALTER. */
export const sequenceGrantTarget = (catalog: Catalog, owner: string, name: string, privileges: ReadonlyArray<ObjectPrivilege>): { owner: string; name: string } | undefined => {
  if (catalog.getObject(owner, "SEQUENCE", name) === undefined) return undefined
  if (privileges.some((p) => p !== "SELECT" && p !== "ALTER")) throw new OraError(2205, "only SELECT and ALTER privileges are valid for sequences")
  return { owner, name }
}

/** Checks SELECT on every other schema's sequence statement `toks` reads as `owner.sequence.NEXTVAL | CURRVAL`. */
export const checkSequenceAccess = (who: Requester, catalog: Catalog, toks: ReadonlyArray<Tok>): void => {
  if (who.dba) return
  const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident")
  for (let k = 0; k + 4 < toks.length; k++) {
    if (!isName(toks[k]) || !isOp(toks[k + 1], ".") || !isName(toks[k + 2]) || !isOp(toks[k + 3], ".") || isOp(toks[k - 1], ".")) continue
    const pseudo = toks[k + 4]!
    if (pseudo.kind !== "ident" || (pseudo.value !== "NEXTVAL" && pseudo.value !== "CURRVAL")) continue
    const owner = oracleName(toks[k]!)
    const name = oracleName(toks[k + 2]!)
    if (owner === who.user || owner === "SYS" || catalog.getObject(owner, "SEQUENCE", name) === undefined) continue
    const held = who.grants.held(owner, name, who.user)
    if (held.has("SELECT")) continue
    throw held.size > 0 ? insufficientPrivileges() : new OraError(2289, "sequence does not exist")
  }
}

/** The error of `who` altering another schema's sequence `owner.name` without ALTER on it (ORA-02289 / ORA-01031); undefined when it may. */
export const sequenceAlterError = (who: Requester, owner: string, name: string): OraError | undefined => {
  if (who.dba || owner === who.user) return undefined
  const held = who.grants.held(owner, name, who.user)
  if (held.has("ALTER")) return undefined
  return held.size > 0 ? insufficientPrivileges() : new OraError(2289, "sequence does not exist")
}
