/**
 * Synonyms: `CREATE [OR REPLACE] [PUBLIC] SYNONYM [schema.]name FOR [schema.]object` and `DROP [PUBLIC] SYNONYM`, and
 * their resolution in queries and DML (the statement's text names the target instead).
 *
 * SQL Language Reference, "CREATE SYNONYM": a name resolves to an object of the schema first, then to a private
 * synonym there, then to a public synonym; the target need not exist when the synonym is created, and using a
 * synonym whose target is gone fails with ORA-00980 (synonym translation is no longer valid); privileges are those
 * on the target. A private synonym shares its schema's namespace with tables, views and sequences (ORA-00955); a
 * public one needs CREATE PUBLIC SYNONYM (here: the DBA role, ORA-01031); dropping a missing one is ORA-01434
 * (private) / ORA-01432 (public). The server has no database links: `FOR object@link` is ORA-03001.
 */
import type { TableDdl } from "./ddl-tables.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"
import { insufficientPrivileges } from "./privileges.ts"
import { synonymsOf } from "./synonym-store.ts"
import { oracleName } from "./translate.ts"

/** What synonym resolution needs of the database. */
export interface SynonymDatabase {
  readonly catalog: {
    getTable(owner: string, name: string): unknown
    getObject(owner: string, type: "SEQUENCE" | "PROCEDURE", name: string): unknown
  }
}

const objectExists = (db: SynonymDatabase, owner: string, name: string): boolean =>
  db.catalog.getTable(owner, name) !== undefined || db.catalog.getObject(owner, "SEQUENCE", name) !== undefined || db.catalog.getObject(owner, "PROCEDURE", name) !== undefined

/** `CREATE [OR REPLACE] [PUBLIC] SYNONYM ...`, `k` at PUBLIC or SYNONYM. */
export const createSynonym = (ddl: TableDdl, toks: ReadonlyArray<Tok>, k: number, orReplace: boolean): void => {
  const isPublic = isKw(toks[k], "PUBLIC")
  if (isPublic) k++
  if (!isKw(toks[k], "SYNONYM")) throw ora.invalidSql()
  const q = ddl.qualified(toks, k + 1)
  const owner = isPublic ? "PUBLIC" : q.schema
  const who = ddl.s.requester
  if (!who.dba && (isPublic || owner !== who.user)) throw insufficientPrivileges()
  if (!isKw(toks[q.next], "FOR")) throw new OraError(905, "missing keyword")
  const t = ddl.qualified(toks, q.next + 1)
  if (toks.slice(t.next).some((x) => isOp(x, "@") || x.text.startsWith("@"))) throw ora.unimplemented("synonyms for objects over a database link")
  const store = synonymsOf(ddl.s.db)
  const key = `${owner}.${q.name}`
  if ((!orReplace && store.has(key)) || (!isPublic && objectExists(ddl.s.db, owner, q.name))) throw ora.nameInUse()
  store.set(key, { owner, name: q.name, targetOwner: t.schema, targetName: t.name })
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
  if (!who.dba && (isPublic || owner !== who.user)) throw insufficientPrivileges()
  store.delete(`${owner}.${q.name}`)
}

/** The object `schema.name` (schema undefined: unqualified in `current`) stands for, through synonyms; undefined when it names no synonym. */
const resolve = (db: SynonymDatabase, current: string, schema: string | undefined, name: string): { owner: string; name: string } | undefined => {
  const store = synonymsOf(db)
  let owner = schema ?? current
  if (objectExists(db, owner, name)) return undefined
  let syn = store.get(`${owner}.${name}`) ?? (schema === undefined ? store.get(`PUBLIC.${name}`) : undefined)
  if (syn === undefined) return undefined
  for (let depth = 0; depth < 32; depth++) {
    owner = syn.targetOwner
    if (objectExists(db, owner, syn.targetName)) return { owner, name: syn.targetName }
    const next = store.get(`${owner}.${syn.targetName}`)
    if (next === undefined) break
    syn = next
  }
  throw new OraError(980, "synonym translation is no longer valid")
}

const TABLE_POSITION = new Set(["FROM", "JOIN", "INTO", "UPDATE", "TABLE"])
const NOT_AN_ALIAS = new Set(["WHERE", "GROUP", "ORDER", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "UNION", "MINUS", "INTERSECT", "EXCEPT", "CONNECT", "START", "HAVING", "FOR", "FETCH", "OFFSET", "PARTITION", "SAMPLE", "AS", "SET", "VALUES", "WITH", "MODEL", "PIVOT", "UNPIVOT", "RETURNING", "LOG", "USING", "WHEN"])
const quoted = (n: string) => `"${n.replace(/"/g, '""')}"`

/**
 * The text of statement `sql` with every table reference that names a synonym (after FROM, JOIN, INTO, UPDATE or a
 * comma of a FROM list) replaced by its target, qualified; in a query the synonym's name stays as the reference's
 * alias when it has none, so `syn.col` still resolves. Unchanged when the database has no synonyms.
 */
export const resolveSynonyms = (db: SynonymDatabase, schema: string, sql: string): string => {
  if (synonymsOf(db).size === 0) return sql
  const toks = significant(tokenize(sql))
  const query = isKw(toks[0], "SELECT", "WITH")
  const edits: Array<{ from: number; to: number; text: string }> = []
  let inFrom = false
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isKw(t, "FROM")) inFrom = true
    else if (isKw(t, "WHERE", "GROUP", "ORDER", "SELECT", "SET", "VALUES", "CONNECT", "START", "HAVING", "ON")) inFrom = false
    const prev = toks[k - 1]
    const position = prev !== undefined && ((prev.kind === "ident" && TABLE_POSITION.has(prev.value)) || (inFrom && isOp(prev, ",")))
    if (!position || (t.kind !== "ident" && t.kind !== "qident")) continue
    const qualifiedName = isOp(toks[k + 1], ".") && (toks[k + 2]?.kind === "ident" || toks[k + 2]?.kind === "qident")
    const last = qualifiedName ? toks[k + 2]! : t
    const after = toks[qualifiedName ? k + 3 : k + 1]
    if (isOp(after, "(") || isOp(after, ".")) continue
    const target = resolve(db, schema, qualifiedName ? oracleName(t) : undefined, oracleName(last))
    if (target === undefined) continue
    const hasAlias = after !== undefined && (after.kind === "ident" || after.kind === "qident") && !NOT_AN_ALIAS.has(after.value)
    const alias = query && !hasAlias ? ` ${quoted(oracleName(last))}` : ""
    edits.push({ from: t.pos, to: last.pos + last.text.length, text: `${quoted(target.owner)}.${quoted(target.name)}${alias}` })
  }
  let out = sql
  for (const e of edits.reverse()) out = out.slice(0, e.from) + e.text + out.slice(e.to)
  return out
}
