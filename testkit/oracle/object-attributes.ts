/**
 * Attribute access on object columns: `alias.column.attribute[.attribute...]`. An object is stored as the JSON text
 * of the array of its attribute values (named-types.ts, pickle.ts), so a reference to a scalar attribute becomes
 * `CAST(json_extract_string(alias.column, '$[i][j]') AS type)`, typed as the attribute is declared and NULL when the
 * object (or an object on the path) is NULL.
 *
 * Oracle resolves such a reference only through a table alias: "To reference an attribute or method of a table
 * element, you must give the table an alias and use the alias to qualify the reference" (Oracle Database PL/SQL
 * Language Reference 23, "Avoiding Inner Capture in SELECT and DML Statements", Example B-8,
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/avoiding-inner-capture-select-and-dml-statements.html);
 * a table name in its place, or a name that is no attribute, is ORA-00904.
 */
import { ora, OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import type { ColumnMeta, TableMeta } from "./catalog.ts"
import { rewriteSubstitution } from "./object-substitution.ts"
import type { NamedType } from "./pickle.ts"
import type { OraType } from "./types.ts"

type LookupTable = (schema: string | undefined, name: string) => TableMeta | undefined
/** The column type of the named (object) type a constructor call of `name` builds, if any. */
type LookupType = (name: string) => OraType | undefined


/** Significant-token indexes (whitespace and comments skipped). */
const significant = (toks: ReadonlyArray<Tok>): Array<number> => toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))

/** The tables the statement names, by the alias that follows each (`FROM tab t`, `JOIN s.tab t`). */
export const aliasedTables = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, lookup: LookupTable, lookupType?: LookupType): Map<string, TableMeta> => {
  const out = new Map<string, TableMeta>()
  for (let n = 0; n < sig.length; n++) {
    const t = toks[sig[n]!]
    // an inline view `(SELECT ...) alias`: the columns of its select list that name a table's columns
    if (isOp(t, "(") && isKw(toks[sig[n + 1] ?? -1], "SELECT")) {
      const close = matchParen(toks, sig[n]!)
      const after = sig.findIndex((k) => k > close)
      const name = toks[sig[after] ?? -1]
      if (close > 0 && isName(name) && !isKw(name, ...NO_ALIAS)) out.set(name.value, inlineView(name.value, toks.slice(sig[n + 1]!, close), lookup, lookupType))
    }
    if (!isName(t) || isOp(toks[sig[n - 1] ?? -1], ".")) continue
    const qualified = isOp(toks[sig[n + 1] ?? -1], ".") && isName(toks[sig[n + 2] ?? -1])
    const meta = qualified ? lookup(t.value, toks[sig[n + 2]!]!.value) : lookup(undefined, t.value)
    const alias = toks[sig[n + (qualified ? 3 : 1)] ?? -1]
    if (meta !== undefined && isName(alias) && !isKw(alias, ...NO_ALIAS)) out.set(alias.value, meta)
  }
  return out
}

const NO_ALIAS = ["WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "ON", "GROUP", "ORDER", "UNION", "SET", "VALUES", "MINUS", "INTERSECT", "EXCEPT", "CONNECT", "START", "FETCH", "OFFSET", "HAVING"]

/**
 * An inline view's columns as a table's: the select items of `query` that are column references (`c`, `t.c`, `t.*`,
 * `*`) keep the column's type under their output name (alias or column name), an aliased constructor call has its
 * type; other items are left out.
 */
const inlineView = (alias: string, query: ReadonlyArray<Tok>, lookup: LookupTable, lookupType?: LookupType): TableMeta => {
  const sig = significant(query)
  let depth = 0
  const from = sig.findIndex((k) => {
    const t = query[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    return depth === 0 && isKw(t, "FROM")
  })
  const tables = aliasedTables(query, sig, lookup, lookupType)
  const named: Array<TableMeta> = [...tables.values()]
  for (const k of from < 0 ? [] : sig.slice(from + 1)) {
    const t = query[k]!
    const meta = isName(t) && !isOp(query[sig[sig.indexOf(k) - 1] ?? -1], ".") ? lookup(undefined, t.value) : undefined
    if (meta !== undefined && !named.includes(meta)) named.push(meta)
  }
  const tableOf = (q: string) => tables.get(q) ?? lookup(undefined, q)
  const columns: Array<ColumnMeta> = []
  const listStart = isKw(query[sig[1] ?? -1], "DISTINCT", "ALL", "UNIQUE") ? 2 : 1
  const list = from < 0 ? [] : query.slice(sig[listStart] ?? 0, sig[from])
  for (const item of splitTopLevel(list)) {
    const w = item.filter((t) => t.kind !== "ws")
    if (w.length === 1 && isOp(w[0], "*")) columns.push(...named.flatMap((m) => m.columns))
    else if (w.length === 3 && isName(w[0]) && isOp(w[1], ".") && isOp(w[2], "*")) columns.push(...(tableOf(w[0].value)?.columns ?? []))
    else if (isName(w[0]) && isOp(w[1], "(") && lookupType !== undefined) {
      // a constructor call: `type(args) [AS] alias`
      const rest = w.slice(matchParen(w, 1) + 1)
      const outName = isKw(rest[0], "AS") && rest.length === 2 ? rest[1] : rest.length === 1 ? rest[0] : undefined
      const type = matchParen(w, 1) > 0 && isName(outName) ? lookupType(w[0].value) : undefined
      if (type !== undefined) columns.push({ name: outName!.value, type, nullable: true, defaultText: null })
    } else {
      const [ref, rest] = isName(w[0]) && isOp(w[1], ".") && isName(w[2]) ? [w.slice(0, 3), w.slice(3)] : [w.slice(0, 1), w.slice(1)]
      const outName = rest.length === 0 ? ref.at(-1) : isKw(rest[0], "AS") && rest.length === 2 ? rest[1] : rest.length === 1 ? rest[0] : undefined
      if (!isName(ref[0]) || !isName(outName) || !isName(ref.at(-1))) continue
      const column = ref.length === 3
        ? tableOf(ref[0].value)?.columns.find((c) => c.name === ref[2]!.value)
        : named.flatMap((m) => m.columns).find((c) => c.name === ref[0]!.value)
      if (column !== undefined) columns.push({ ...column, name: outName.value })
    }
  }
  return { owner: "", name: alias, kind: "VIEW", columns, constraints: [], objectId: 0, created: new Date(0), viewText: null }
}

/** The Oracle type text of a scalar attribute, for the CAST that gives the extracted text its declared type. */
const castTarget = (t: OraType): string => {
  if (t.kind === "number" && t.dictPrecision !== null) return `${t.dictName}(${t.dictPrecision}${t.dictScale ? `,${t.dictScale}` : ""})`
  if (["varchar", "nvarchar", "char", "nchar"].includes(t.kind)) return `${t.dictName}(${t.charSize > 0 ? t.charSize : t.maxSize})`
  return t.dictName
}

/** The JSON path and scalar type of `attrs` in an object of type `type`; ORA-00904 (naming `ref`) when one is no attribute. */
const attributePath = (type: NamedType, attrs: ReadonlyArray<string>, ref: string): { path: string; scalar: OraType } | { path: string; named: NamedType } => {
  let current: NamedType = type
  let path = "$"
  for (let a = 0; a < attrs.length; a++) {
    const k = current.kind === "object" ? current.attributes.findIndex((x) => x.name === attrs[a]) : -1
    if (k < 0) throw new OraError(904, `${ref}: invalid identifier`)
    path += `[${k}]`
    const member = current.attributes[k]!.member
    if ("scalar" in member) {
      if (a !== attrs.length - 1) throw new OraError(904, `${ref}: invalid identifier`)
      return { path, scalar: member.scalar }
    }
    current = member.named
  }
  return { path, named: current }
}

/**
 * The tokens reading attributes `attrs` (a path) of the object `value` (tokens giving its JSON text) of type `type`,
 * typed as the attribute is declared; `heading` names the select item, `ref` the reference in an ORA-00904.
 */
export const attributeExtraction = (
  type: NamedType,
  attrs: ReadonlyArray<Tok>,
  ref: string,
  value: ReadonlyArray<Tok>,
  pos: number,
  heading: string
): Array<Tok> => {
  const target = attributePath(type, attrs.map((t) => t.value), ref)
  const { path } = target
  // RAW attributes are held as hex text (named-types.ts); an object or collection attribute is its own JSON text,
  // described and sent as its named type (the first token carries it, as a constructor call's does: named-types.ts
  // constructedType)
  const [open, close] = "named" in target ? ["CAST(", " AS VARCHAR)"] : target.scalar.kind === "raw" ? ["HEXTORAW(", ")"] : ["CAST(", ` AS ${castTarget(target.scalar)})`]
  return [
    ...tokenize(`${open}json_extract_string(`).map((t) => ({ ...t, pos })),
    ...value,
    ...tokenize(`, '${path}')${close}`).map((t) => ({ ...t, pos }))
  ].map((t, k): Tok => ({
    ...t,
    heading: k === 0 ? heading : "",
    ...(k === 0 && "named" in target ? { constructs: target.named } : {})
  }))
}

/**
 * Rewrites `alias.column.attribute...` references to object columns into typed JSON extraction (see the module
 * comment); raises ORA-00904 for a table name used as the qualifier or a name that is no attribute.
 */
export const rewriteAttributeAccess = (source: ReadonlyArray<Tok>, lookup: LookupTable, lookupType?: LookupType): ReadonlyArray<Tok> => {
  const toks = lookupType === undefined ? source : substitutions(source, lookup, lookupType)
  const sig = significant(toks)
  const chains: Array<{ from: number; to: number; names: Array<Tok> }> = []
  for (let n = 0; n < sig.length; n++) {
    if (!isName(toks[sig[n]!]) || isOp(toks[sig[n - 1] ?? -1], ".")) continue
    const names = [toks[sig[n]!]!]
    let m = n
    while (isOp(toks[sig[m + 1] ?? -1], ".") && isName(toks[sig[m + 2] ?? -1])) {
      names.push(toks[sig[m + 2]!]!)
      m += 2
    }
    if (names.length >= 3 && !isOp(toks[sig[m + 1] ?? -1], "(")) chains.push({ from: sig[n]!, to: sig[m]!, names })
    n = m
  }
  if (chains.length === 0) return toks
  const aliases = aliasedTables(toks, sig, lookup, lookupType)
  const out = [...toks]
  for (const { from, to, names } of chains.reverse()) {
    const [qualifier, column, ...attrs] = names as [Tok, Tok, ...Array<Tok>]
    const ref = names.map((t) => `"${t.value}"`).join(".")
    const aliased = aliases.get(qualifier.value)
    const meta = aliased ?? lookup(undefined, qualifier.value)
    const type = meta?.columns.find((c) => c.name === column.value)?.type.named
    if (type === undefined || type.kind !== "object") continue
    if (aliased === undefined) throw new OraError(904, `${ref}: invalid identifier`)
    const heading = names.map((x) => (x.kind === "qident" ? x.value : x.text.toUpperCase())).join(".")
    const replacement = attributeExtraction(type, attrs, ref, toks.slice(from, toks.indexOf(column, from) + 1), qualifier.pos, heading)
    out.splice(from, to - from + 1, ...replacement)
  }
  return out
}

/** The `.attribute[.attribute...]` names after a call's closing parenthesis `close`, unless a method call. */
export const attributeChainAt = (toks: ReadonlyArray<Tok>, close: number): { names: Array<Tok>; end: number } | undefined => {
  const names: Array<Tok> = []
  let end = close
  for (let k = close + 1; k < toks.length; k++) {
    if (toks[k]!.kind === "ws") continue
    if (!isOp(toks[k], ".")) break
    let n = k + 1
    while (toks[n]?.kind === "ws") n++
    const name = toks[n]
    if (name === undefined || (name.kind !== "ident" && name.kind !== "qident")) break
    names.push(name)
    end = n
    k = n
  }
  let after = end + 1
  while (toks[after]?.kind === "ws") after++
  return names.length === 0 || isOp(toks[after], "(") ? undefined : { names, end }
}

/** TREAT, IS OF and SYS_TYPEID of object values (object-substitution.ts), with this module's helpers. */
const substitutions = (toks: ReadonlyArray<Tok>, lookup: LookupTable, lookupType: LookupType): ReadonlyArray<Tok> => {
  let aliases: Map<string, TableMeta> | undefined
  const declaredType = (expr: ReadonlyArray<Tok>): NamedType | undefined => {
    aliases ??= aliasedTables(toks, significant(toks), lookup, lookupType)
    const names = expr.filter((t, k) => (k % 2 === 0 ? isName(t) : isOp(t, "."))).length === expr.length && expr.length % 2 === 1 ? expr.filter(isName) : []
    const [first, column, ...attrs] = names.map((t) => t.value)
    const meta = column === undefined ? [...aliases.values()].find((m) => m.columns.some((c) => c.name === first)) : aliases.get(first ?? "")
    let type = meta?.columns.find((c) => c.name === (column ?? first))?.type.named
    for (const a of attrs) {
      const member = type?.attributes.find((x) => x.name === a)?.member
      type = member !== undefined && "named" in member ? member.named : undefined
    }
    return type?.kind === "object" ? type : undefined
  }
  const objectType = (name: string): NamedType | undefined => (lookupType(name)?.named?.kind === "object" ? lookupType(name)!.named : undefined)
  return rewriteSubstitution(toks, { objectType, declaredType, extract: attributeExtraction, chainAt: attributeChainAt })
}

/** The tables of a statement by alias ({@link aliasedTables}), and those named without one by their name. */
export const statementTables = (toks: ReadonlyArray<Tok>, lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined): Map<string, TableMeta> => {
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const out = aliasedTables(toks, sig, lookupTable)
  // whether the tokens read are a FROM clause's, where `, table` names one more table
  let inFrom = false
  for (let n = 1; n < sig.length; n++) {
    const t = toks[sig[n]!]
    const before = toks[sig[n - 1]!]
    if (isKw(before, "FROM")) inFrom = true
    else if (isKw(before, "SELECT", "WHERE", "GROUP", "ORDER", "CONNECT", "START", "HAVING")) inFrom = false
    const after = toks[sig[n + 1] ?? -1]
    if (!isName(t) || !(isKw(before, "FROM", "JOIN") || (inFrom && isOp(before, ","))) || isOp(after, ".") || (isName(after) && !isKw(after, ...CLAUSE_WORDS))) continue
    const meta = lookupTable(undefined, t.value)
    if (meta !== undefined) out.set(t.value, meta)
  }
  return out
}

/** Words that may follow a table named without an alias. */
const CLAUSE_WORDS = ["WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "ON", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "CONNECT", "START", "FETCH", "OFFSET", "HAVING", "FOR"]
