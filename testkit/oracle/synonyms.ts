/**
 * Synonyms: `CREATE [OR REPLACE] [PUBLIC] SYNONYM [schema.]name FOR [schema.]object` and `DROP [PUBLIC] SYNONYM`
 * (their resolution in statements: synonym-resolution.ts).
 *
 * SQL Language Reference, "CREATE SYNONYM": a name resolves to an object of the schema first, then to a private
 * synonym there, then to a public synonym; the target need not exist when the synonym is created, and using a
 * synonym whose target is gone fails with ORA-00980 (synonym translation is no longer valid); privileges are those
 * on the target. A private synonym shares its schema's namespace with tables, views and sequences (ORA-00955); a
 * private one needs CREATE SYNONYM (CREATE ANY SYNONYM in another schema), a
 * public one CREATE PUBLIC SYNONYM (ORA-01031 without; system-privileges.ts); dropping a missing one is ORA-01434
 * (private) / ORA-01432 (public). A synonym `FOR object@link` is created; using it is ORA-02019, as the server has no database links.
 */
import type { TableDdl } from "./ddl-tables.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { insufficientPrivileges } from "./privileges.ts"
import { objectExists } from "./synonym-resolution.ts"
import { synonymsOf } from "./synonym-store.ts"
import { oracleName } from "./translate.ts"

/** `CREATE [OR REPLACE] [PUBLIC] SYNONYM ...`, `k` at PUBLIC or SYNONYM. */
export const createSynonym = (ddl: TableDdl, toks: ReadonlyArray<Tok>, k: number, orReplace: boolean): void => {
  const isPublic = isKw(toks[k], "PUBLIC")
  if (isPublic) k++
  if (!isKw(toks[k], "SYNONYM")) throw ora.invalidSql()
  const q = ddl.qualified(toks, k + 1)
  const owner = isPublic ? "PUBLIC" : q.schema
  const who = ddl.s.requester
  if (!who.has(isPublic ? "CREATE PUBLIC SYNONYM" : owner === who.user ? "CREATE SYNONYM" : "CREATE ANY SYNONYM")) throw insufficientPrivileges()
  if (!isKw(toks[q.next], "FOR")) throw new OraError(905, "missing keyword")
  const t = ddl.qualified(toks, q.next + 1)
  // a synonym of a remote object is created without checking the link; its use fails (database-links.ts)
  const link = isOp(toks[t.next], "@") ? toks.slice(t.next + 1).map((x) => (x.kind === "qident" ? oracleName(x) : x.text.toUpperCase())).join("") : null
  const store = synonymsOf(ddl.s.db)
  const key = `${owner}.${q.name}`
  if ((!orReplace && store.has(key)) || (!isPublic && objectExists(ddl.s.db, owner, q.name))) throw ora.nameInUse()
  store.set(key, { owner, name: q.name, targetOwner: t.schema, targetName: t.name, targetLink: link })
}

/** `DROP [PUBLIC] SYNONYM [schema.]name [FORCE]`. */
export const dropSynonym = (ddl: TableDdl, toks: ReadonlyArray<Tok>): void => {
  const isPublic = isKw(toks[1], "PUBLIC")
  const q = ddl.qualified(toks, isPublic ? 3 : 2)
  const owner = isPublic ? "PUBLIC" : q.schema
  const store = synonymsOf(ddl.s.db)
  // a missing synonym is reported before the privilege to drop it is checked
  if (!store.has(`${owner}.${q.name}`))
    throw isPublic ? new OraError(1432, "public synonym to be dropped does not exist") : new OraError(1434, "private synonym to be dropped does not exist")
  const who = ddl.s.requester
  const needed = isPublic ? "DROP PUBLIC SYNONYM" : owner === who.user ? undefined : "DROP ANY SYNONYM"
  if (needed !== undefined && !who.has(needed)) throw insufficientPrivileges()
  store.delete(`${owner}.${q.name}`)
}
