/**
 * The object view of object tables (object-tables.ts): `VALUE(p)`, `REF(p)`, `DEREF(r)`, REF columns (`col REF type
 * [SCOPE IS table]`), navigation through them (`e.mgr.name`), `r IS [NOT] DANGLING` and `REFTOHEX(r)` (SQL Language
 * Reference, "VALUE", "REF", "DEREF", "REFTOHEX", "REF Data Type", "IS DANGLING Condition"; Object-Relational
 * Developer's Guide, "Object Tables", "REFs", "Object Identifiers").
 *
 * `VALUE(p)` over an object table alias p is the constructor call of p's type over p's attribute columns, so it is
 * fetched as a DbObject. A REF is held as the hexadecimal text REFTOHEX shows, in the layout of the reference's
 * example (`0000220208`, the row's 16-byte object identifier, the table's 16-byte object identifier): the row's
 * identifier is derived from the table and its primary key, the table's from the table. A REF column is VARCHAR text
 * described with Oracle's REF data type code 111; node-oracledb supports no REF ("Oracle objects with REF references
 * are not supported", node-oracledb User Guide, "Oracle Database Object Type Limitations"; its type table has no type
 * number 111, lib/types.js), so a client fetching a REF column or `REF(p)` gets NJS-110 from the description, as it
 * would from Oracle, and reads REFs through DEREF, navigation or REFTOHEX.
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, significant, type Tok, tokenize } from "./lexer.ts"
import { aliasedTables } from "./object-attributes.ts"
import type { NamedTypes } from "./named-types.ts"
import type { NamedType } from "./pickle.ts"
import type { OraType } from "./types.ts"
import { createHash } from "node:crypto"
import { quoteDuck } from "./names.ts"

type LookupTable = (schema: string | undefined, name: string) => TableMeta | undefined

/** Oracle's data type code of a REF (the internal type, as the describe information carries it). */
export const REF_DTY = 111

/** The `SCOPE IS table` of a REF column's type. */
const scopes = new WeakMap<OraType, { readonly owner: string; readonly name: string }>()

/** The column type of `REF type [SCOPE IS owner.name]`: hex text, described as Oracle's REF. */
export const refColumnType = (named: NamedType, scope?: { readonly owner: string; readonly name: string }): OraType => {
  const t: OraType = { kind: "varchar", dty: REF_DTY, csfrm: 0, maxSize: 42, charSize: 0, precision: 0, scale: 0, dictName: named.name, dictPrecision: null, dictScale: null, duck: "VARCHAR", named }
  if (scope !== undefined) scopes.set(t, scope)
  return t
}

/**
 * The column type of `REF [schema.]type [WITH ROWID]` (`typeToks`, after REF) with its `SCOPE IS [schema.]table`
 * (`scopeToks`, after IS; unqualified names in `schema`), or undefined when the name is no object type.
 */
export const refColumnTypeOf = (types: NamedTypes, schema: string, typeToks: ReadonlyArray<Tok>, scopeToks: ReadonlyArray<Tok> | undefined, tableSchema: string): OraType | undefined => {
  const [a, dot, b] = typeToks
  const named = isOp(dot, ".") && isName(a) && isName(b) ? types.lookup(schema, a.value, b.value) : isName(a) ? types.lookup(schema, undefined, a.value) : undefined
  if (named?.kind !== "object") return undefined
  const [s, sdot, t] = scopeToks ?? []
  const scope = isOp(sdot, ".") && isName(s) && isName(t) ? { owner: s.value, name: t.value } : isName(s) ? { owner: tableSchema, name: s.value } : undefined
  return refColumnType(named, scope)
}

/** Whether a column type is a REF. */
export const isRefType = (t: OraType | undefined): boolean => t?.dty === REF_DTY

const hex16 = (text: string) => createHash("md5").update(text).digest("hex").toUpperCase()

/** A table's 16-byte object identifier, as hex. */
const tableOid = (t: TableMeta) => hex16(`${t.owner}.${t.name}.${t.objectId}`)

/**
 * The REF of the row of object table `t` that `alias` names: `0000220208` || row identifier || table identifier. The
 * row identifier is derived from the primary key, so a table without one cannot give REFs here (ORA-03001).
 */
const refSql = (t: TableMeta, alias: string): string => {
  const key = t.constraints.find((c) => c.type === "P")
  if (key === undefined) throw new OraError(3001, "unimplemented feature: REF to a row of an object table without a primary key (test server)")
  const oid = tableOid(t)
  const parts = key.columns.map((c) => `${quoteDuck(alias)}.${quoteDuck(c)}`).join(` || '/' || `)
  return `('0000220208' || UPPER(md5('${oid}/' || ${parts})) || '${oid}')`
}

/** The object tables a REF of `type` may point into: its scope, or every object table of the type. */
const targetsOf = (type: NamedType, scope: { owner: string; name: string } | undefined, tables: () => Iterable<TableMeta>, lookup: LookupTable): Array<TableMeta> => {
  if (scope !== undefined) {
    const t = lookup(scope.owner, scope.name)
    return t === undefined ? [] : [t]
  }
  return [...tables()].filter((t) => t.objectType === type)
}

/**
 * The pseudocolumns of an object table: OBJECT_VALUE (formerly SYS_NC_ROWINFO$) "returns system-generated names for
 * the columns of an object table", OBJECT_ID (formerly SYS_NC_OID$) "returns the object identifier of a column of an
 * object table" (SQL Language Reference, "OBJECT_VALUE Pseudocolumn", "OBJECT_ID Pseudocolumn"): here the row's
 * object, and the RAW(16) row identifier its REF carries.
 */
const PSEUDOCOLUMNS = ["OBJECT_VALUE", "SYS_NC_ROWINFO$", "OBJECT_ID", "SYS_NC_OID$"]

/**
 * The one object table a statement reads (by alias or by name), for an unqualified pseudocolumn; undefined when there
 * is none or more than one.
 */
const soleObjectTable = (toks: ReadonlyArray<Tok>, aliases: Map<string, TableMeta>, lookup: LookupTable, column: string): { table: TableMeta; objectType: NamedType; name: string } | undefined => {
  const found = new Map<TableMeta, string>()
  for (const [alias, t] of aliases) found.set(t, alias)
  toks.forEach((t, k) => {
    if (!isName(t) || isOp(toks[k - 1], ".") || isOp(toks[k + 1], ".") || isOp(toks[k + 1], "(")) return
    const meta = isKw(toks[k - 1], "FROM", "JOIN", "UPDATE", "INTO") || isOp(toks[k - 1], ",") ? lookup(undefined, t.value) : undefined
    if (meta !== undefined && !found.has(meta)) found.set(meta, t.value)
  })
  // a table with a column of the name (ALL_OBJECTS.OBJECT_ID) keeps it
  if ([...found.keys()].some((t) => t.columns.some((c) => c.name === column))) return undefined
  const [only, ...others] = [...found].filter(([t]) => t.objectType !== undefined)
  if (only === undefined || others.length > 0) return undefined
  return { table: only[0], objectType: only[0].objectType!, name: only[1] }
}

/** What rewriting the object view needs of the session. */
export interface ObjectReferenceContext {
  readonly lookup: LookupTable
  /** Every table of the database (the object tables a REF without scope may point into). */
  readonly tables: () => Iterable<TableMeta>
}

/**
 * Rewrites VALUE, REF, DEREF, REFTOHEX, navigation through REF columns and IS [NOT] DANGLING (see the module
 * comment); statements without them are returned as they are.
 */
export const rewriteObjectReferences = (source: ReadonlyArray<Tok>, ctx: ObjectReferenceContext): ReadonlyArray<Tok> => {
  let toks = significant(source)
  // without a keyword only navigation (`alias.refcolumn.attribute`: two dots one name apart) is rewritten
  if (!toks.some((t) => isKw(t, "VALUE", "REF", "DEREF", "REFTOHEX", "DANGLING", ...PSEUDOCOLUMNS)) && !toks.some((t, k) => isOp(t, ".") && isOp(toks[k + 2], "."))) return source
  let aliases: Map<string, TableMeta> | undefined
  const aliasesOf = () => (aliases ??= aliasedTables(toks, toks.map((_, k) => k), ctx.lookup))
  let generated = 0
  let changed = false
  const gen = (sql: string, pos: number): Array<Tok> => tokenize(sql).filter((t) => t.kind !== "ws").map((t) => ({ ...t, pos }))
  /** The REF type (and scope) of an expression: `alias.column`, `column`, `REF(alias)`. */
  const refOf = (expr: ReadonlyArray<Tok>): { type: NamedType; scope?: { owner: string; name: string } } | undefined => {
    if (isKw(expr[0], "REF") && isOp(expr[1], "(") && isName(expr[2]) && isOp(expr[3], ")") && expr.length === 4) {
      const t = aliasesOf().get(expr[2].value)
      return t?.objectType === undefined ? undefined : { type: t.objectType, scope: { owner: t.owner, name: t.name } }
    }
    const names = expr.length === 3 && isName(expr[0]) && isOp(expr[1], ".") && isName(expr[2]) ? [expr[0].value, expr[2].value] : expr.length === 1 && isName(expr[0]) ? [expr[0].value] : undefined
    if (names === undefined) return undefined
    const tables = names.length === 2 ? [aliasesOf().get(names[0]!)].filter((t) => t !== undefined) : [...aliasesOf().values()]
    const column = tables.flatMap((t) => t.columns).find((c) => c.name === names.at(-1) && isRefType(c.type))
    const scope = column === undefined ? undefined : scopes.get(column.type)
    return column?.type.named === undefined ? undefined : { type: column.type.named, ...(scope === undefined ? {} : { scope }) }
  }
  /** `COALESCE((SELECT select FROM target d WHERE REF(d) = (ref)), ..., NULL)` over the REF's possible targets. */
  const lookupSql = (ref: { type: NamedType; scope?: { owner: string; name: string } }, refText: string, select: (alias: string) => string): string => {
    const subqueries = targetsOf(ref.type, ref.scope, ctx.tables, ctx.lookup).map((t) => {
      const alias = `ORA$REF${++generated}`
      return `(SELECT ${select(quoteDuck(alias))} AS "ORA$VALUE" FROM ${quoteDuck(t.owner)}.${quoteDuck(t.name)} ${quoteDuck(alias)} WHERE ${refSql(t, alias)} = (${refText}))`
    })
    return `COALESCE(${[...subqueries, "NULL"].join(", ")})`
  }
  const textOf = (expr: ReadonlyArray<Tok>) => expr.map((t) => t.text).join(" ")
  // an object- or collection-typed attribute's column holds its JSON text, which goes into the constructed object as
  // JSON (json_extract reads it again: its numbers as doubles), not as a string
  const constructorSql = (type: NamedType, alias: string) =>
    `${quoteDuck(type.schema)}.${quoteDuck(type.name)}(${type.attributes.map((a) => ("named" in a.member ? `json_extract(${alias}.${quoteDuck(a.name)}, '$')` : `${alias}.${quoteDuck(a.name)}`)).join(", ")})`
  const headed = (out: Array<Tok>, heading: string, marks: Record<string, unknown> = {}): Array<Tok> => out.map((t, k) => ({ ...t, heading: k === 0 ? heading : "", ...(k === 0 ? marks : {}) }))
  const headingOf = (part: ReadonlyArray<Tok>) => part.map((t) => (t.kind === "qident" ? t.value : t.kind === "str" ? t.text : t.text.toUpperCase())).join("")
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const prev = toks[k - 1]
    if (isOp(prev, ".") && !isKw(t, ...PSEUDOCOLUMNS)) continue
    // VALUE(alias), REF(alias), DEREF(expr), REFTOHEX(expr)
    if (isKw(t, "VALUE", "REF", "DEREF", "REFTOHEX") && isOp(toks[k + 1], "(")) {
      const close = matchParen(toks, k + 1)
      if (close < 0) continue
      const arg = toks.slice(k + 2, close)
      // inside a replacement read again, the heading is its own
      const heading = t.heading ?? headingOf(toks.slice(k, close + 1))
      let replacement: Array<Tok> | undefined
      if (isKw(t, "VALUE", "REF")) {
        const table = arg.length === 1 && isName(arg[0]) ? aliasesOf().get(arg[0].value) : undefined
        if (table?.objectType === undefined) continue
        replacement = isKw(t, "VALUE")
          ? headed(gen(constructorSql(table.objectType, quoteDuck(arg[0]!.value)), t.pos), heading)
          : headed(gen(`UPPER(${refSql(table, arg[0]!.value)})`, t.pos), heading, { describedAs: refColumnType(table.objectType, { owner: table.owner, name: table.name }) })
      } else if (isKw(t, "DEREF")) {
        const ref = refOf(arg)
        if (ref === undefined) continue
        replacement = headed(gen(lookupSql(ref, textOf(arg), (alias) => constructorSql(ref.type, alias)), t.pos), heading, { constructs: ref.type })
      } else {
        if (refOf(arg) === undefined) continue
        replacement = headed([...gen("(", t.pos), ...arg, ...gen(")", t.pos)], heading)
      }
      toks = [...toks.slice(0, k), ...replacement, ...toks.slice(close + 1)]
      // read again from here: the REF(p) of a DEREF(REF(p)) or REFTOHEX(REF(p))
      k--
      changed = true
      continue
    }
    // expr IS [NOT] DANGLING, expr being `alias.column` or `column`
    if (isKw(t, "IS") && (isKw(toks[k + 1], "DANGLING") || (isKw(toks[k + 1], "NOT") && isKw(toks[k + 2], "DANGLING")))) {
      const from = isOp(toks[k - 2], ".") && isName(toks[k - 3]) ? k - 3 : k - 1
      const expr = toks.slice(from, k)
      const ref = refOf(expr)
      if (ref === undefined) throw new OraError(932, "inconsistent datatypes: expected REF got CHAR")
      const negated = isKw(toks[k + 1], "NOT")
      const found = lookupSql(ref, textOf(expr), () => "1")
      const sql = negated ? `(${found} IS NOT NULL)` : `(${textOf(expr)} IS NOT NULL AND ${found} IS NULL)`
      const replacement = gen(sql, t.pos)
      toks = [...toks.slice(0, from), ...replacement, ...toks.slice(k + (negated ? 3 : 2))]
      k = from + replacement.length - 1
      changed = true
      continue
    }
    // OBJECT_VALUE / SYS_NC_ROWINFO$ and OBJECT_ID / SYS_NC_OID$ of the statement's one object table, `[alias.]name`
    if (isKw(t, ...PSEUDOCOLUMNS) && !isOp(toks[k + 1], "(") && !isOp(toks[k + 1], ".")) {
      const qualifier = isOp(prev, ".") ? toks[k - 2] : undefined
      const aliased = qualifier !== undefined && isName(qualifier) ? aliasesOf().get(qualifier.value) : undefined
      const table = qualifier === undefined ? soleObjectTable(toks, aliasesOf(), ctx.lookup, t.value) : aliased?.objectType === undefined ? undefined : { table: aliased, objectType: aliased.objectType, name: qualifier.value }
      if (table === undefined || table.table.columns.some((c) => c.name === t.value)) continue
      const from = qualifier === undefined ? k : k - 2
      const sql = isKw(t, "OBJECT_VALUE", "SYS_NC_ROWINFO$") ? constructorSql(table.objectType, quoteDuck(table.name)) : `HEXTORAW(SUBSTR(${refSql(table.table, table.name)}, 11, 32))`
      const replacement = headed(gen(sql, t.pos), headingOf(toks.slice(from, k + 1)))
      toks = [...toks.slice(0, from), ...replacement, ...toks.slice(k + 1)]
      k = from + replacement.length - 1
      changed = true
      continue
    }
    // alias.refcolumn.attribute[...]: the attribute of the object the REF points to
    if (isName(t) && isOp(toks[k + 1], ".") && isName(toks[k + 2]) && isOp(toks[k + 3], ".") && isName(toks[k + 4])) {
      const ref = refOf(toks.slice(k, k + 3))
      if (ref === undefined || !aliasesOf().has(t.value)) continue
      let end = k + 4
      while (isOp(toks[end + 1], ".") && isName(toks[end + 2])) end += 2
      if (isOp(toks[end + 1], "(")) continue
      const attrs = toks.slice(k + 4, end + 1).filter(isName)
      if (!ref.type.attributes.some((a) => a.name === attrs[0]!.value)) throw new OraError(904, `${toks.slice(k, end + 1).filter(isName).map((x) => quoteDuck(x.value)).join(".")}: invalid identifier`)
      const heading = headingOf(toks.slice(k, end + 1))
      const sql = lookupSql(ref, textOf(toks.slice(k, k + 3)), (alias) => [alias, ...attrs.map((a) => quoteDuck(a.value))].join("."))
      const replacement = headed(gen(sql, t.pos), heading)
      toks = [...toks.slice(0, k), ...replacement, ...toks.slice(end + 1)]
      k += replacement.length - 1
      changed = true
    }
  }
  // blanks between the tokens again, where the translator separates words
  return changed ? toks.flatMap((x, i): Array<Tok> => (i === 0 || x.kind === "op" || toks[i - 1]!.kind === "op" ? [x] : [{ kind: "ws", text: " ", value: " ", pos: x.pos }, x])) : source
}
