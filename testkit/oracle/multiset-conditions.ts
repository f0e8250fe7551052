/**
 * Multiset conditions and CARDINALITY over nested table and VARRAY columns in SQL (SQL Language Reference, "Multiset
 * Conditions" and "CARDINALITY"): `c IS [NOT] EMPTY`, `c IS [NOT] A SET`, `x [NOT] MEMBER [OF] c` and
 * `CARDINALITY(c)`, rewritten before translation over the column's stored JSON array. A NULL collection gives NULL;
 * MEMBER OF is NULL for an empty collection or a NULL element; CARDINALITY is NULL for an empty collection. Elements
 * are compared by value, as "the element types must be comparable" there: numbers by their canonical text (`1.50` is
 * `1.5`, as ora_num_text prints them), DATE and TIMESTAMP elements as timestamps (whether a SQL constructor stored
 * `2024-01-01 00:00:00` or a DbObject bind `2024-01-01T00:00:00`), TIMESTAMP WITH TIME ZONE as instants, CHAR without
 * trailing blanks, RAW as hex, objects without a MAP or ORDER method by their key (object-keys.ts; see
 * {@link ElementComparison}); other elements as their stored text.
 */
import { isKw, isOp, tokenize, type Tok } from "./lexer.ts"
import { operandStart } from "./json-sql.ts"
import { oracleName } from "./translate.ts"
import { OraError } from "./errors.ts"
import type { NamedType, OraType } from "./type-shapes.ts"
import { OBJECT_KEY_MACROS, objectKey, objectKeys, storedScalarText } from "./object-keys.ts"
import { comparisonOf } from "./type-inheritance.ts"

/**
 * How the elements of a collection column compare: NUMBER / BINARY_* by number, DATE / TIMESTAMP by timestamp,
 * TIMESTAMP WITH TIME ZONE by instant (SQL Language Reference, "TIMESTAMP WITH TIME ZONE Data Type": two values at
 * the same instant in UTC are identical whatever their offsets; likewise OraTimeStampTZ IsEqual "only compares the
 * Coordinated Universal Time (UTC) date-time values", https://docs.oracle.com/cd/E11882_01/win.112/e17727/sermthod110.htm),
 * CHAR / NCHAR with blank-padded semantics (trailing blanks ignored: "Data Type Comparison Rules", "Blank-Padded and
 * Nonpadded Comparison Semantics"), RAW by its bytes (stored or bound as hex in either case); any other as its stored
 * text.
 */
export type ElementComparison = "number" | "datetime" | "instant" | "padded" | "raw" | "text" | KeyedObjects

/**
 * Objects of a type without a MAP or ORDER method compared attribute by attribute, as Oracle compares them, whose
 * stored text does not do for that: a TIMESTAMP WITH TIME ZONE attribute (its own or a nested object's) compares as
 * its instant (object-keys.ts objectKey).
 */
export interface KeyedObjects {
  readonly keyed: NamedType
}

/** The comparisons other than "text", which session-translate.ts asks the columns of. */
export const ELEMENT_COMPARISONS = ["number", "datetime", "instant", "padded", "raw"] as const

/** How the elements of a nested table or VARRAY type `t` compare ("text" for any other type). */
export const elementComparison = (t: OraType): ElementComparison => elementComparisonOf(t.named)

/** How the elements of nested table or VARRAY type `named` compare ("text" for any other type). */
export const elementComparisonOf = (named: NamedType | undefined): ElementComparison => {
  const element = named?.kind === "table" || named?.kind === "varray" ? named.element : undefined
  if (element !== undefined && "named" in element) return objectKey(element.named, "ora_k") === undefined ? "text" : { keyed: element.named }
  const scalar = element !== undefined && "scalar" in element ? element.scalar : undefined
  const kind = scalar?.kind
  if (kind === "number" || kind === "float" || kind === "double") return "number"
  if (kind === "timestamptz") return "instant"
  if (kind === "raw") return "raw"
  if (scalar !== undefined && (scalar.dictName === "CHAR" || scalar.dictName === "NCHAR")) return "padded"
  return kind === "date" || kind === "timestamp" ? "datetime" : "text"
}

/** The operand compared with the elements (engine text `e`, named once), as the value it is compared by. */
const comparable = (how: ElementComparison, e: string): string => {
  if (typeof how === "object") return objectKey(how.keyed, `CAST(${e} AS VARCHAR)`)!
  switch (how) {
    case "number":
      return `ora_num_text(trim(CAST(${e} AS VARCHAR)))`
    case "datetime":
      return `TRY_CAST(${e} AS TIMESTAMP_NS)`
    case "instant":
      return `ora_multiset_instant(${e})`
    case "padded":
      return `rtrim(CAST(${e} AS VARCHAR), ' ')`
    case "raw":
      return `ora_multiset_raw(${e})`
    case "text":
      return `CAST(${e} AS VARCHAR)`
  }
}

/** A stored element's text (engine text `e`) as the value it is compared by; a bound one may be extended JSON (`{"$oracleDate": "..."}`). */
const elementValue = (how: Exclude<ElementComparison, KeyedObjects>, e: string): string =>
  how === "datetime" || how === "instant" || how === "raw" ? comparable(how, storedScalarText(e)) : comparable(how, e)

/** The elements of collection `c` (engine text) as a list of comparable values. */
export const elements = (how: ElementComparison, c: string): string =>
  typeof how === "object" ? objectKeys(how.keyed, c)! : how === "text" ? `from_json(${c}, '["VARCHAR"]')` : `ora_multiset_${how}s(${c})`

/**
 * DuckDB macros the rewrites call: a collection column's elements as comparable values (an object's as its key,
 * object-keys.ts); two such lists' multiset equality (nested-table-equality.ts); a TIMESTAMP WITH TIME ZONE
 * (text as stored: nine fraction digits at most, an offset, then the region it was written in, if any; or the engine's
 * own value) as its instant; a
 * RAW (bytes, or hex text) as upper-case hex.
 */
export const MULTISET_MACROS: ReadonlyArray<string> = [
  `ora_multiset_instant(x) AS TRY_CAST(regexp_replace(regexp_replace(CAST(x AS VARCHAR), '(\\.\\d{6})\\d+', '\\1'), '([+-]\\d{2}:\\d{2})\\s+\\S+$', '\\1') AS TIMESTAMPTZ)`,
  `ora_multiset_raw(x) AS CASE WHEN typeof(x) = 'BLOB' THEN hex(CAST(x AS BLOB)) ELSE upper(CAST(x AS VARCHAR)) END`,
  ...OBJECT_KEY_MACROS,
  `ora_multiset_equal(a, b) AS CASE WHEN a IS NULL OR b IS NULL OR len(list_filter(a, ora_x -> ora_x IS NULL)) + len(list_filter(b, ora_x -> ora_x IS NULL)) > 0 THEN NULL ELSE list_sort(a) = list_sort(b) END`,
  ...ELEMENT_COMPARISONS.map((how) => `ora_multiset_${how}s(c) AS list_transform(from_json(c, '["VARCHAR"]'), ora_e -> ${elementValue(how, "ora_e")})`)
]

const significant = (toks: ReadonlyArray<Tok>, k: number): number => {
  let n = k
  while (toks[n]?.kind === "ws") n++
  return n
}

/** The end (exclusive) of a column reference `c` / `t.c` at `k` whose column is one of `nested`; -1 when it is none. */
const columnEnd = (toks: ReadonlyArray<Tok>, k: number, nested: ReadonlySet<string>): number => {
  let n = k
  let last: Tok | undefined
  for (;;) {
    const t = toks[n]
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) return -1
    last = t
    if (!isOp(toks[n + 1], ".")) break
    n += 2
  }
  return nested.has(oracleName(last)) ? n + 1 : -1
}

/** The operand before `[NOT] MEMBER` at `k`: where it ends (`before`), whether NOT negates the condition, where it starts. */
const operandBeforeMember = (out: ReadonlyArray<Tok>, k: number): { before: number; negated: boolean; start: number } => {
  let before = k
  while (out[before - 1]?.kind === "ws") before--
  const negated = isKw(out[before - 1], "NOT")
  if (negated) {
    before--
    while (out[before - 1]?.kind === "ws") before--
  }
  return { before, negated, start: operandStart(out, before) }
}

const text = (toks: ReadonlyArray<Tok>) => toks.map((t) => t.text).join("")

/**
 * `toks` with every multiset condition over a column of `nested` rewritten (the tokens themselves when there is none);
 * `compareBy` tells how a column's elements compare.
 */
export const rewriteMultisetConditions = (
  toks: ReadonlyArray<Tok>,
  nested: ReadonlySet<string>,
  compareBy: (column: string) => ElementComparison = () => "text",
  varrayOf: (column: string) => NamedType | undefined = () => undefined
): ReadonlyArray<Tok> => {
  /**
   * ORA-00932 for CARDINALITY or MEMBER OF of a VARRAY column: they take nested tables only, whatever "Multiset
   * Conditions" says of MEMBER OF (a documentation bug: https://coderapp.vercel.app/answer/51837805; for CARDINALITY
   * https://db-oriented.com/2016/05/14/subtleties-part-2-nested-tables-and-varrays/, both "expected UDT got <type>").
   */
  const refuseVarray = (column: Tok) => {
    const varray = varrayOf(oracleName(column))
    if (varray !== undefined) throw new OraError(932, `inconsistent datatypes: expected UDT got ${varray.schema}.${varray.name}`)
  }
  if (nested.size === 0 || !toks.some((t) => isKw(t, "EMPTY", "SET", "MEMBER", "CARDINALITY"))) return toks
  const out = [...toks]
  for (let k = out.length - 1; k >= 0; k--) {
    const t = out[k]!
    const pos = t.pos
    const generated = (sql: string) => tokenize(sql).map((g) => ({ ...g, pos }))
    if (isKw(t, "CARDINALITY") && isOp(out[significant(out, k + 1)], "(") && !isOp(out[k - 1], ".")) {
      const open = significant(out, k + 1)
      const at = significant(out, open + 1)
      const end = columnEnd(out, at, nested)
      const close = end < 0 ? -1 : significant(out, end)
      if (close < 0 || !isOp(out[close], ")")) continue
      refuseVarray(out[end - 1]!)
      out.splice(k, close + 1 - k, ...generated(`NULLIF(json_array_length(${text(out.slice(at, end))}), 0)`))
      continue
    }
    if (isKw(t, "IS")) {
      const notAt = significant(out, k + 1)
      const negated = isKw(out[notAt], "NOT")
      const wordAt = negated ? significant(out, notAt + 1) : notAt
      const setAt = isKw(out[wordAt], "A") ? significant(out, wordAt + 1) : -1
      const empty = isKw(out[wordAt], "EMPTY")
      if (!empty && !(setAt >= 0 && isKw(out[setAt], "SET"))) continue
      const start = operandStart(out, k)
      let end = k
      while (out[end - 1]?.kind === "ws") end--
      if (columnEnd(out, start, nested) !== end) continue
      const c = text(out.slice(start, end))
      const list = elements(compareBy(oracleName(out[end - 1]!)), c)
      const condition = empty ? `json_array_length(${c}) = 0` : `len(list_distinct(${list})) + CASE WHEN list_position(${list}, NULL) IS NOT NULL THEN 1 ELSE 0 END = json_array_length(${c})`
      out.splice(start, (empty ? wordAt : setAt) + 1 - start, ...generated(`(${negated ? "NOT " : ""}(${condition}))`))
      k = start
      continue
    }
    if (isKw(t, "MEMBER")) {
      const ofAt = significant(out, k + 1)
      const at = isKw(out[ofAt], "OF") ? significant(out, ofAt + 1) : ofAt
      const end = columnEnd(out, at, nested)
      if (end < 0) continue
      refuseVarray(out[end - 1]!)
      const { before, negated, start } = operandBeforeMember(out, k)
      const c = text(out.slice(at, end))
      const how = compareBy(oracleName(out[end - 1]!))
      const element = out.slice(start, before)
      const [open, close] = comparable(how, "\u0000").split("\u0000")
      const replacement = [
        ...generated(`(${negated ? "NOT " : ""}(CASE WHEN json_array_length(${c}) = 0 THEN NULL ELSE list_contains(${elements(how, c)}, ${open}`),
        ...element,
        ...generated(`${close}) END))`)
      ]
      out.splice(start, end - start, ...replacement)
      k = start
    }
  }
  return out
}

/** A table of a statement: its columns, and its owner and name when it is a named table or view. */
export interface StatementTable {
  readonly owner?: string
  readonly name?: string
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: OraType }>
}

/** The statement's tables as {@link rewriteMemberOfByMethods} reads them: by alias, or by name when unaliased. */
export type StatementTables = ReadonlyMap<string, StatementTable>

/**
 * ORA-22901 when objects of `type`, which has no MAP or ORDER method, have a VARRAY or LOB attribute (an object
 * attribute's too): without either method Oracle compares objects attribute by attribute, which it refuses for those
 * (Database Error Messages, ORA-22901 "cannot compare VARRAY or LOB attributes of an object type"; Object-Relational
 * Developer's Guide, "Performance of Object Comparisons").
 */
export const checkAttributeComparison = (type: NamedType): void => {
  for (const a of type.attributes) {
    const named = "named" in a.member ? a.member.named : undefined
    const lob = "scalar" in a.member && (a.member.scalar.kind === "clob" || a.member.scalar.kind === "nclob" || a.member.scalar.kind === "blob")
    if (lob || named?.kind === "varray") throw new OraError(22901, "cannot compare VARRAY or LOB attributes of an object type")
    if (named?.kind === "object" && comparisonOf(named) === undefined) checkAttributeComparison(named)
  }
}

/**
 * `x [NOT] MEMBER [OF] c` and `c IS [NOT] A SET` where c (`alias.col`, or a column of one of the statement's tables)
 * is a nested table of an object type with a MAP or ORDER member function: Oracle compares the objects by it
 * ("Multiset Conditions": the element types must be comparable; Object-Relational Developer's Guide, "Comparing
 * Objects"), so MEMBER OF becomes a search of the collection's elements, each rebuilt by the type's constructor from
 * its attributes, for one the MAP function maps to x's value (or the ORDER function orders 0 against x); NULL for an
 * empty or NULL collection, as above. IS A SET counts distinct mapped values (MAP) or the pairs of elements the ORDER
 * function orders 0 (only each element with itself in a set). An object type with neither is left to
 * {@link rewriteMultisetConditions} (attribute by attribute, as its stored text) after {@link checkAttributeComparison}.
 * `tables` gives the statement's tables; the rest of the statement is left as it is.
 */
export const rewriteMemberOfByMethods = (toks: ReadonlyArray<Tok>, tables: () => StatementTables): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "MEMBER", "SET"))) return toks
  const out = [...toks]
  /** The object type and comparison method of the elements of the column reference (`alias.col` or `col`) at `at`. */
  const elementsAt = (at: number) => {
    const first = out[at]
    if (first === undefined || (first.kind !== "ident" && first.kind !== "qident") || isOp(out[at - 1], ".")) return undefined
    const dot = significant(out, at + 1)
    const qualified = isOp(out[dot], ".")
    const column = qualified ? out[significant(out, dot + 1)] : first
    if (column === undefined || (column.kind !== "ident" && column.kind !== "qident")) return undefined
    const end = qualified ? significant(out, dot + 1) + 1 : at + 1
    if (isOp(out[significant(out, end)], ".") || isOp(out[significant(out, end)], "(")) return undefined
    const name = oracleName(column)
    const owners = qualified ? [[oracleName(first), tables().get(oracleName(first))] as const] : [...tables()].filter(([, t]) => t.columns.some((c) => c.name === name))
    if (owners.length !== 1) return undefined
    const [owner, table] = owners[0]!
    const collection = table?.columns.find((c) => c.name === name)?.type.named
    const element = collection?.kind === "table" && collection.element !== undefined && "named" in collection.element ? collection.element.named : undefined
    if (element?.kind !== "object") return undefined
    const compared = comparisonOf(element)
    if (compared === undefined) {
      checkAttributeComparison(element)
      return undefined
    }
    const { method } = compared
    // the member function, called as its declaring type's packaged function (plsql/object-methods.ts)
    const call = `"${compared.owner.name}"."${method.name}"`
    const rebuilt = (alias: string) => `"${element.name}"(${element.attributes.map((a) => `${alias}."${a.name}"`).join(", ")})`
    return { end, c: `"${owner}"."${name}"`, call, method, rebuilt }
  }
  for (let k = out.length - 1; k >= 0; k--) {
    if (isKw(out[k], "IS")) {
      const notAt = significant(out, k + 1)
      const negated = isKw(out[notAt], "NOT")
      const aAt = negated ? significant(out, notAt + 1) : notAt
      const setAt = significant(out, aAt + 1)
      if (!isKw(out[aAt], "A") || !isKw(out[setAt], "SET")) continue
      const start = operandStart(out, k)
      const found = elementsAt(start)
      if (found === undefined || significant(out, found.end) !== k) continue
      const { c, call, method, rebuilt } = found
      const distinct =
        method.comparison === "MAP"
          ? `(SELECT COUNT(DISTINCT ${call}(${rebuilt("ora_mm")})) FROM TABLE(${c}) ora_mm)`
          : `(SELECT COUNT(*) FROM TABLE(${c}) ora_mm, TABLE(${c}) ora_mn WHERE ${call}(${rebuilt("ora_mm")}, ${rebuilt("ora_mn")}) = 0)`
      const condition = `((CASE WHEN ${c} IS NULL THEN NULL WHEN (SELECT COUNT(*) FROM TABLE(${c}) ora_mm) = ${distinct} THEN 1 ELSE 0 END) = ${negated ? 0 : 1})`
      out.splice(start, setAt + 1 - start, ...tokenize(condition).map((g) => ({ ...g, pos: out[k]!.pos })))
      k = start
      continue
    }
    if (!isKw(out[k], "MEMBER") || isKw(out[k - 1], "MAP", "ORDER")) continue
    const ofAt = significant(out, k + 1)
    const at = isKw(out[ofAt], "OF") ? significant(out, ofAt + 1) : ofAt
    const found = elementsAt(at)
    if (found === undefined) continue
    const { end, c, call, method, rebuilt } = found
    const { before, negated, start } = operandBeforeMember(out, k)
    const x = text(out.slice(start, before)).trim()
    const match = method.comparison === "MAP" ? `${call}(${rebuilt("ora_mm")}) = ${call}(${x})` : `${call}(${rebuilt("ora_mm")}, ${x}) = 0`
    const condition = `((CASE WHEN CARDINALITY(${c}) IS NULL THEN NULL WHEN EXISTS (SELECT 1 FROM TABLE(${c}) ora_mm WHERE ${match}) THEN 1 ELSE 0 END) = ${negated ? 0 : 1})`
    out.splice(start, end - start, ...tokenize(condition).map((g) => ({ ...g, pos: out[k]!.pos })))
    k = start
  }
  return out
}
