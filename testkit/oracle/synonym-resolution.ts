/**
 * Which object a name stands for through the synonyms of a database, and statements (top-level text, or the tokens
 * of a statement inside a PL/SQL block) with their synonyms replaced by their targets. A synonym of an object over a database link fails the
 * statement that uses it with ORA-02019 (database-links.ts); a chain whose end is gone with ORA-00980.
 */
import { linkNotFound } from "./database-links.ts"
import { OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isName, isOp, significant, type Tok, tokenize } from "./lexer.ts"
import { synonymsOf } from "./synonym-store.ts"
import { quoteDuck } from "./names.ts"

/** What synonym resolution needs of the database. */
export interface SynonymDatabase {
  readonly catalog: {
    getTable(owner: string, name: string): unknown
    getObject(owner: string, type: "SEQUENCE" | "PROCEDURE" | "FUNCTION", name: string): unknown
  }
}

/** True when `owner.name` is a table, view, sequence, procedure or function (a synonym of that name is hidden by it). */
export const objectExists = (db: SynonymDatabase, owner: string, name: string): boolean =>
  db.catalog.getTable(owner, name) !== undefined ||
  db.catalog.getObject(owner, "SEQUENCE", name) !== undefined ||
  db.catalog.getObject(owner, "PROCEDURE", name) !== undefined ||
  db.catalog.getObject(owner, "FUNCTION", name) !== undefined

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

const TABLE_POSITION = new Set(["FROM", "JOIN", "INTO", "UPDATE", "TABLE"])
const NOT_AN_ALIAS = new Set(["WHERE", "GROUP", "ORDER", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "UNION", "MINUS", "INTERSECT", "EXCEPT", "CONNECT", "START", "HAVING", "FOR", "FETCH", "OFFSET", "PARTITION", "SAMPLE", "AS", "SET", "VALUES", "WITH", "MODEL", "PIVOT", "UNPIVOT", "RETURNING", "LOG", "USING", "WHEN"])


/**
 * The `[schema.]name` before `.NEXTVAL` / `.CURRVAL` at `k`: its parts, the index of its last name token and of the
 * pseudocolumn; undefined when no sequence reference starts at `k`.
 */
const sequenceReference = (toks: ReadonlyArray<Tok>, k: number): { schema: string | undefined; name: string; last: number; next: number } | undefined => {
  const t = toks[k]
  if (!isName(t) || isOp(toks[k - 1], ".") || !isOp(toks[k + 1], ".")) return undefined
  const pseudo = (i: number) => isKw(toks[i], "NEXTVAL", "CURRVAL")
  if (pseudo(k + 2)) return { schema: undefined, name: oracleName(t), last: k, next: k + 2 }
  const last = toks[k + 2]
  if (isName(last) && isOp(toks[k + 3], ".") && pseudo(k + 4)) return { schema: oracleName(t), name: oracleName(last), last: k + 2, next: k + 4 }
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
  let out = sql
  for (const e of synonymEdits(db, schema, toks).reverse()) {
    const text = `${quoteDuck(e.owner)}.${quoteDuck(e.name)}${e.alias === undefined ? "" : ` ${quoteDuck(e.alias)}`}`
    out = out.slice(0, toks[e.first]!.pos) + text + out.slice(toks[e.last]!.pos + toks[e.last]!.text.length)
  }
  return out
}

/**
 * The significant tokens of a statement inside a PL/SQL block with its synonyms resolved as {@link resolveSynonyms}
 * resolves a top-level statement's (the same tokens when none is named).
 */
export const resolveSynonymTokens = (db: SynonymDatabase, schema: string, toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (synonymsOf(db).size === 0) return toks
  const edits = synonymEdits(db, schema, toks)
  if (edits.length === 0) return toks
  const out = [...toks]
  for (const e of edits.reverse()) {
    const pos = toks[e.first]!.pos
    const name = (value: string): Tok => ({ kind: "qident", text: quoteDuck(value), value, pos })
    out.splice(e.first, e.last - e.first + 1, name(e.owner), { kind: "op", text: ".", value: ".", pos }, name(e.name), ...(e.alias === undefined ? [] : [name(e.alias)]))
  }
  return out
}

/** One synonym reference of a statement: its tokens `first..last`, its target, and the alias a query gives it. */
interface SynonymEdit {
  readonly first: number
  readonly last: number
  readonly owner: string
  readonly name: string
  readonly alias?: string
}

/**
 * The synonym references among a statement's significant tokens: table references (after FROM, JOIN, UPDATE, TABLE,
 * a comma of a FROM list, or INSERT's / MERGE's INTO, not the INTO of SELECT or RETURNING, whose targets are
 * variables) and sequence references (`syn.NEXTVAL`).
 */
const synonymEdits = (db: SynonymDatabase, schema: string, toks: ReadonlyArray<Tok>): Array<SynonymEdit> => {
  const query = isKw(toks[0], "SELECT", "WITH")
  const edits: Array<SynonymEdit> = []
  let inFrom = false
  let intoTable = isKw(toks[0], "INSERT", "MERGE")
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isKw(t, "FROM")) inFrom = true
    else if (isKw(t, "WHERE", "GROUP", "ORDER", "SELECT", "SET", "VALUES", "CONNECT", "START", "HAVING", "ON")) inFrom = false
    if (isKw(t, "RETURNING", "RETURN")) intoTable = false
    const prev = toks[k - 1]
    const sequence = sequenceReference(toks, k)
    if (sequence !== undefined) {
      const target = resolveName(db, schema, sequence.schema, sequence.name)
      if (target !== undefined) edits.push({ first: k, last: sequence.last, ...target })
      k = sequence.next
      continue
    }
    const tablePosition = prev !== undefined && prev.kind === "ident" && TABLE_POSITION.has(prev.value) && (prev.value !== "INTO" || intoTable)
    if (!(tablePosition || (inFrom && isOp(prev, ","))) || (t.kind !== "ident" && t.kind !== "qident")) continue
    const qualifiedName = isOp(toks[k + 1], ".") && (toks[k + 2]?.kind === "ident" || toks[k + 2]?.kind === "qident")
    const lastAt = qualifiedName ? k + 2 : k
    const last = toks[lastAt]!
    const after = toks[lastAt + 1]
    // `TABLE(...)`, a function call; but INSERT's `INTO t (columns)` names a table
    if ((isOp(after, "(") && !isKw(prev, "INTO")) || isOp(after, ".")) continue
    const target = resolveName(db, schema, qualifiedName ? oracleName(t) : undefined, oracleName(last))
    if (target === undefined) continue
    const hasAlias = after !== undefined && (after.kind === "ident" || after.kind === "qident") && !NOT_AN_ALIAS.has(after.value)
    edits.push({ first: k, last: lastAt, ...target, ...(query && !hasAlias ? { alias: oracleName(last) } : {}) })
  }
  return edits
}
