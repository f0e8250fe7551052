/**
 * Synonyms: `CREATE [OR REPLACE] [PUBLIC] SYNONYM [schema.]name FOR [schema.]object` and `DROP [PUBLIC] SYNONYM`, and
 * their resolution in queries and DML (the statement's text names the target instead).
 *
 * SQL Language Reference, "CREATE SYNONYM": a name resolves to an object of the schema first, then to a private
 * synonym there, then to a public synonym; the target need not exist when the synonym is created, and using a
 * synonym whose target is gone fails with ORA-00980 (synonym translation is no longer valid); privileges are those
 * on the target. A private synonym shares its schema's namespace with tables, views and sequences (ORA-00955); a
 * public one needs CREATE PUBLIC SYNONYM (here: the DBA role, ORA-01031); dropping a missing one is ORA-01434
 * (private) / ORA-01432 (public). A synonym `FOR object@link` is created; using it is ORA-02019, as the server has no database links.
 */
import type { TableDdl } from "./ddl-tables.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"
import { insufficientPrivileges } from "./privileges.ts"
import { objectExists, resolveName, type SynonymDatabase } from "./synonym-resolution.ts"
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
  if (!who.dba && (isPublic || owner !== who.user)) throw insufficientPrivileges()
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
  if (!who.dba && (isPublic || owner !== who.user)) throw insufficientPrivileges()
  store.delete(`${owner}.${q.name}`)
}

const TABLE_POSITION = new Set(["FROM", "JOIN", "INTO", "UPDATE", "TABLE"])
const NOT_AN_ALIAS = new Set(["WHERE", "GROUP", "ORDER", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "UNION", "MINUS", "INTERSECT", "EXCEPT", "CONNECT", "START", "HAVING", "FOR", "FETCH", "OFFSET", "PARTITION", "SAMPLE", "AS", "SET", "VALUES", "WITH", "MODEL", "PIVOT", "UNPIVOT", "RETURNING", "LOG", "USING", "WHEN"])
const quoted = (n: string) => `"${n.replace(/"/g, '""')}"`

const isName = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/**
 * The `[schema.]name` before `.NEXTVAL` / `.CURRVAL` at `k`: its parts, the text end of the name and the index of
 * the pseudocolumn; undefined when no sequence reference starts at `k`.
 */
const sequenceReference = (toks: ReadonlyArray<Tok>, k: number): { schema: string | undefined; name: string; end: number; next: number } | undefined => {
  const t = toks[k]
  if (!isName(t) || isOp(toks[k - 1], ".") || !isOp(toks[k + 1], ".")) return undefined
  const pseudo = (i: number) => isKw(toks[i], "NEXTVAL", "CURRVAL")
  if (pseudo(k + 2)) return { schema: undefined, name: oracleName(t), end: t.pos + t.text.length, next: k + 2 }
  const last = toks[k + 2]
  if (isName(last) && isOp(toks[k + 3], ".") && pseudo(k + 4)) return { schema: oracleName(t), name: oracleName(last), end: last.pos + last.text.length, next: k + 4 }
  return undefined
}

/**
 * The text of statement `sql` with every table reference that names a synonym (after FROM, JOIN, INTO, UPDATE or a
 * comma of a FROM list) and every sequence reference (`syn.NEXTVAL`, `syn.CURRVAL`) replaced by its target, qualified; in a query the synonym's name stays as the reference's
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
    const sequence = sequenceReference(toks, k)
    if (sequence !== undefined) {
      const target = resolveName(db, schema, sequence.schema, sequence.name)
      if (target !== undefined) edits.push({ from: t.pos, to: sequence.end, text: `${quoted(target.owner)}.${quoted(target.name)}` })
      k = sequence.next
      continue
    }
    const position = prev !== undefined && ((prev.kind === "ident" && TABLE_POSITION.has(prev.value)) || (inFrom && isOp(prev, ",")))
    if (!position || (t.kind !== "ident" && t.kind !== "qident")) continue
    const qualifiedName = isOp(toks[k + 1], ".") && (toks[k + 2]?.kind === "ident" || toks[k + 2]?.kind === "qident")
    const last = qualifiedName ? toks[k + 2]! : t
    const after = toks[qualifiedName ? k + 3 : k + 1]
    if (isOp(after, "(") || isOp(after, ".")) continue
    const target = resolveName(db, schema, qualifiedName ? oracleName(t) : undefined, oracleName(last))
    if (target === undefined) continue
    const hasAlias = after !== undefined && (after.kind === "ident" || after.kind === "qident") && !NOT_AN_ALIAS.has(after.value)
    const alias = query && !hasAlias ? ` ${quoted(oracleName(last))}` : ""
    edits.push({ from: t.pos, to: last.pos + last.text.length, text: `${quoted(target.owner)}.${quoted(target.name)}${alias}` })
  }
  let out = sql
  for (const e of edits.reverse()) out = out.slice(0, e.from) + e.text + out.slice(e.to)
  return out
}
