/** The synonyms of a database (a leaf module: synonyms.ts creates and resolves them, dictionary-privileges.ts lists them). */

/** A synonym: `owner` is PUBLIC for a public one. */
export interface Synonym {
  readonly owner: string
  readonly name: string
  readonly targetOwner: string
  readonly targetName: string
  /** The database link of `FOR object@link`, as written (upper-cased), or null. */
  readonly targetLink: string | null
}

const stores = new WeakMap<object, Map<string, Synonym>>()

/** The synonyms of database `db`, by `OWNER.NAME`. */
export const synonymsOf = (db: object): Map<string, Synonym> => {
  let s = stores.get(db)
  if (s === undefined) stores.set(db, (s = new Map()))
  return s
}
