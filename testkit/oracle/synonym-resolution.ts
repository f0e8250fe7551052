/**
 * Which object a name stands for through the synonyms of a database: synonyms.ts rewrites statements
 * with it, the PL/SQL interpreter calls procedures with it. A synonym of an object over a database link fails the
 * statement that uses it with ORA-02019 (database-links.ts); a chain whose end is gone with ORA-00980.
 */
import { linkNotFound } from "./database-links.ts"
import { OraError } from "./errors.ts"
import { synonymsOf } from "./synonym-store.ts"

/** What synonym resolution needs of the database. */
export interface SynonymDatabase {
  readonly catalog: {
    getTable(owner: string, name: string): unknown
    getObject(owner: string, type: "SEQUENCE" | "PROCEDURE", name: string): unknown
  }
}

/** True when `owner.name` is a table, view, sequence or procedure (a synonym of that name is hidden by it). */
export const objectExists = (db: SynonymDatabase, owner: string, name: string): boolean =>
  db.catalog.getTable(owner, name) !== undefined || db.catalog.getObject(owner, "SEQUENCE", name) !== undefined || db.catalog.getObject(owner, "PROCEDURE", name) !== undefined

/** The object `schema.name` (schema undefined: unqualified in `current`) stands for, through synonyms; undefined when it names no synonym. */
export const resolveName = (db: SynonymDatabase, current: string, schema: string | undefined, name: string): { owner: string; name: string } | undefined => {
  const store = synonymsOf(db)
  let owner = schema ?? current
  if (objectExists(db, owner, name)) return undefined
  let syn = store.get(`${owner}.${name}`) ?? (schema === undefined ? store.get(`PUBLIC.${name}`) : undefined)
  if (syn === undefined) return undefined
  for (let depth = 0; depth < 32; depth++) {
    if (syn.targetLink !== null) throw linkNotFound()
    owner = syn.targetOwner
    if (objectExists(db, owner, syn.targetName)) return { owner, name: syn.targetName }
    const next = store.get(`${owner}.${syn.targetName}`)
    if (next === undefined) break
    syn = next
  }
  throw new OraError(980, "synonym translation is no longer valid")
}

/**
 * The object `[schema.]name` (schema undefined: unqualified in the session's `current` schema) names through a
 * synonym, as `owner.name`; undefined when it names no synonym (PL/SQL calls of a synonym of a procedure or function).
 */
export const synonymTarget = (db: SynonymDatabase, current: string, schema: string | undefined, name: string): { owner: string; name: string } | undefined =>
  synonymsOf(db).size === 0 ? undefined : resolveName(db, current, schema, name)
