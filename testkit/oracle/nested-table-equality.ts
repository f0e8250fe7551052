/**
 * `a = b` and `a <> b` (`!=`, `^=`, `~=`) of two nested tables, and of two objects whose stored text does not tell
 * equal ones apart, in SQL (a client's statement or a PL/SQL block's). Operands are columns (`c`, `alias.c`),
 * constructor calls (`numtab(1, 2)`) and binds compared with one of those (a client's DbObject, taken as of the other
 * operand's type).
 *
 * - Nested tables compare as multisets: equal when they hold the same elements as often, in any order; NULL when
 *   either is NULL or holds a NULL element (PL/SQL Language Reference, "Collection Comparisons": "Two nested table
 *   variables are equal if and only if they have the same set of elements (in any order)"; SQL Language Reference,
 *   "Comparison Conditions"), elements compared by value as in the multiset conditions (multiset-conditions.ts).
 * - Nested tables of objects need a MAP method on the element type, ORA-22952 "Nested Table equality requires a map
 *   method on the element ADT" otherwise ("Comparison Conditions": nested tables of user-defined object types must
 *   have MAP methods to be used in equality conditions; an ORDER method does not do). With one, the comparison is
 *   rewritten by {@link rewriteNestedTableEqualityByMap} where member functions are callable.
 * - VARRAYs cannot be compared ("Collection Comparisons": only nested tables compare with relational operators):
 *   ORA-00932 "inconsistent datatypes: expected UDT got OWNER.TYPE", the error Oracle gives for other operations a
 *   VARRAY does not take (CARDINALITY, SET, MEMBER OF; the code for `=` is unconfirmed).
 * - Objects without a MAP or ORDER method compare attribute by attribute; a TIMESTAMP WITH TIME ZONE attribute of
 *   theirs, at any depth, compares as its instant, whatever offset it was written at (object-keys.ts objectKey).
 *
 * A comparison of other operands is left as it is, so is the `=` of an UPDATE's or MERGE's SET clause.
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, openingParen, type Tok, tokenize } from "./lexer.ts"
import { aliasedTables } from "./object-attributes.ts"
import { elementComparisonOf, elements, type StatementTables } from "./multiset-conditions.ts"
import { objectKey } from "./object-keys.ts"
import { comparisonOf } from "./type-inheritance.ts"
import { oracleName } from "./translate.ts"
import type { NamedType } from "./type-shapes.ts"

const EQUALITY = ["=", "<>", "!=", "^=", "~="]


/** An operand: tokens `start` to `end` (exclusive) of the statement, and its type (a bind's: the other operand's). */
interface Operand {
  readonly start: number
  readonly end: number
  readonly type: NamedType | undefined
  /** The column it names (undefined for a constructor call). */
  readonly column?: ReadonlyArray<Tok>
}

/** How operands are typed: a column by its name (and qualifier), a constructor by its type's name. */
export interface OperandTypes {
  readonly column: (name: string, qualifier: string | undefined) => NamedType | undefined
  readonly constructed: (name: string) => NamedType | undefined
}

/** The OBJECT / VARRAY / nested TABLE types of the columns of the tables `toks` name, by column name (the first table's of a name two share). */
export const namedColumnsOf = (toks: ReadonlyArray<Tok>, lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined): ReadonlyMap<string, NamedType> => {
  const out = new Map<string, NamedType>()
  for (const t of toks) if (isName(t)) for (const c of lookupTable(undefined, oracleName(t))?.columns ?? []) if (c.type.named !== undefined && !out.has(c.name)) out.set(c.name, c.type.named)
  return out
}

/**
 * {@link OperandTypes} of a statement's tokens `toks`: a qualified column by its table (alias or name), another by its
 * name among the statement's tables' columns; constructors of schema types.
 */
export const statementOperandTypes = (toks: ReadonlyArray<Tok>, lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined, lookupType: (name: string) => NamedType | undefined): OperandTypes => {
  let named: ReadonlyMap<string, NamedType> | undefined
  let aliases: Map<string, TableMeta> | undefined
  return {
    column: (name, qualifier) => {
      const table = qualifier === undefined ? undefined : ((aliases ??= aliasedTables(toks, toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k])), lookupTable)).get(qualifier) ?? lookupTable(undefined, qualifier))
      if (table !== undefined) return table.columns.find((c) => c.name === name)?.type.named
      return (named ??= namedColumnsOf(toks, lookupTable)).get(name)
    },
    constructed: (name) => {
      const type = lookupType(name)
      return type?.kind === "table" || type?.kind === "varray" || type?.kind === "object" ? type : undefined
    }
  }
}

const skipWs = (toks: ReadonlyArray<Tok>, k: number, step: 1 | -1): number => {
  let n = k
  while (toks[n]?.kind === "ws") n += step
  return n
}

/** The operand ending just before token `k` (whitespace skipped). */
const operandBefore = (toks: ReadonlyArray<Tok>, k: number, types: OperandTypes): Operand | undefined => {
  const last = skipWs(toks, k - 1, -1)
  const t = toks[last]
  if (t?.kind === "bind") return { start: last, end: last + 1, type: undefined }
  if (isOp(t, ")")) {
    const open = openingParen(toks, last)
    const name = toks[skipWs(toks, open - 1, -1)]
    const start = skipWs(toks, open - 1, -1)
    if (open < 0 || !isName(name) || isOp(toks[skipWs(toks, start - 1, -1)], ".")) return undefined
    const type = types.constructed(oracleName(name))
    return type === undefined ? undefined : { start, end: last + 1, type }
  }
  if (!isName(t)) return undefined
  let start = last
  const parts = [t]
  while (isOp(toks[skipWs(toks, start - 1, -1)], ".") && isName(toks[skipWs(toks, skipWs(toks, start - 1, -1) - 1, -1)])) {
    start = skipWs(toks, skipWs(toks, start - 1, -1) - 1, -1)
    parts.unshift(toks[start]!)
  }
  return columnOperand(parts, start, last + 1, types)
}

/** The operand starting at token `k` (whitespace skipped). */
const operandAfter = (toks: ReadonlyArray<Tok>, k: number, types: OperandTypes): Operand | undefined => {
  const start = skipWs(toks, k, 1)
  const t = toks[start]
  if (t?.kind === "bind") return { start, end: start + 1, type: undefined }
  if (!isName(t)) return undefined
  const next = skipWs(toks, start + 1, 1)
  if (isOp(toks[next], "(")) {
    const close = matchParen(toks, next)
    const type = types.constructed(oracleName(t))
    return close < 0 || type === undefined || isOp(toks[skipWs(toks, close + 1, 1)], ".") ? undefined : { start, end: close + 1, type }
  }
  const parts = [t]
  let end = start + 1
  while (isOp(toks[skipWs(toks, end, 1)], ".") && isName(toks[skipWs(toks, skipWs(toks, end, 1) + 1, 1)])) {
    end = skipWs(toks, skipWs(toks, end, 1) + 1, 1)
    parts.push(toks[end]!)
    end++
  }
  if (isOp(toks[skipWs(toks, end, 1)], "(")) return undefined
  return columnOperand(parts, start, end, types)
}

const columnOperand = (parts: ReadonlyArray<Tok>, start: number, end: number, types: OperandTypes): Operand | undefined => {
  const type = types.column(oracleName(parts[parts.length - 1]!), parts.length > 1 ? oracleName(parts[parts.length - 2]!) : undefined)
  return type === undefined ? undefined : { start, end, type, column: parts }
}

/** Whether the `=` at `k` assigns a column in an UPDATE's or MERGE's SET clause. */
const isAssignment = (toks: ReadonlyArray<Tok>, k: number): boolean => {
  let depth = 0
  for (let m = k - 1; m >= 0; m--) {
    const t = toks[m]!
    if (isOp(t, ")")) depth++
    else if (isOp(t, "(") && --depth < 0) return false
    else if (depth > 0) continue
    else if (isKw(t, "SET")) return !isKw(toks[skipWs(toks, m - 1, -1)], "A")
    else if (isKw(t, "WHERE", "SELECT", "FROM", "ON", "WHEN", "THEN", "ELSE", "AND", "OR", "NOT", "RETURN", "RETURNING")) return false
  }
  return false
}

const qualifiedName = (type: NamedType) => `${type.schema}.${type.name}`

/** Whether objects of `type` compare by a MAP method, its own or one it inherits. */
const hasMapMethod = (type: NamedType): boolean => comparisonOf(type)?.method.comparison === "MAP"

/** The element type of nested table type `type` when it is an object type. */
const objectElement = (type: NamedType): NamedType | undefined => (type.element !== undefined && "named" in type.element && type.element.named.kind === "object" ? type.element.named : undefined)

/**
 * The engine text that compares the operands, written before, between and after their own tokens (which keep their
 * binds); undefined to leave the comparison as it is.
 */
const equalityOf = (left: Operand, right: Operand, negated: boolean): { before: string; between: string; after: string } | undefined => {
  // a bind (a client's DbObject) compared with a typed operand is of its type
  const type = left.type ?? right.type
  const other = right.type ?? type
  if (type === undefined || other === undefined) return undefined
  if (type.kind === "varray" || other.kind === "varray") throw new OraError(932, `inconsistent datatypes: expected UDT got ${qualifiedName(type.kind === "varray" ? type : other)}`)
  if (type.name !== other.name || type.schema !== other.schema) return undefined
  if (type.kind === "table") {
    const element = objectElement(type)
    if (element !== undefined) {
      if (!hasMapMethod(element)) throw new OraError(22952, "Nested Table equality requires a map method on the element ADT")
      return undefined
    }
    const [open, close] = elements(elementComparisonOf(type), "\u0000").split("\u0000")
    return { before: `(${negated ? "NOT " : ""}ora_multiset_equal(${open}`, between: `${close}, ${open}`, after: `${close}))` }
  }
  if (type.kind !== "object") return undefined
  const [open, close] = objectKey(type, "CAST(\u0000 AS VARCHAR)")?.split("\u0000") ?? []
  if (open === undefined || close === undefined) return undefined
  return { before: `(${open}`, between: `${close} ${negated ? "<>" : "="} ${open}`, after: `${close})` }
}

/**
 * `toks` with each comparison described above rewritten for the engine (the tokens themselves when there is none);
 * `types` types the operands.
 */
export const rewriteNestedTableEquality = (toks: ReadonlyArray<Tok>, types: OperandTypes): ReadonlyArray<Tok> =>
  rewriteEqualities(toks, types, (out, left, right, negated) => {
    const made = equalityOf(left, right, negated)
    if (made === undefined) return undefined
    return [made.before, ...out.slice(left.start, left.end), made.between, ...out.slice(right.start, right.end), made.after]
  })

/**
 * Each `=` / `<>` of `toks` whose operands `types` knows, last first, and not an assignment's `=`: replaced by the
 * tokens `rewrite` makes of it (SQL text pieces are tokenized at the left operand's position), or left when it makes
 * none.
 */
const rewriteEqualities = (
  toks: ReadonlyArray<Tok>,
  types: OperandTypes,
  rewrite: (out: ReadonlyArray<Tok>, left: Operand, right: Operand, negated: boolean) => ReadonlyArray<Tok | string> | undefined
): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "op" && EQUALITY.includes(t.value))) return toks
  const out = [...toks]
  for (let k = out.length - 1; k >= 0; k--) {
    const t = out[k]!
    if (t.kind !== "op" || !EQUALITY.includes(t.value)) continue
    const left = operandBefore(out, k, types)
    const right = left === undefined ? undefined : operandAfter(out, k + 1, types)
    if (left === undefined || right === undefined || (t.value === "=" && isAssignment(out, left.start))) continue
    const made = rewrite(out, left, right, t.value !== "=")
    if (made === undefined) continue
    const pos = out[left.start]!.pos
    const generated = made.flatMap((m) => (typeof m === "string" ? tokenize(m).map((g) => ({ ...g, pos })) : [m]))
    out.splice(left.start, right.end - left.start, ...generated)
    k = left.start
  }
  return out
}

/**
 * `a = b` / `a <> b` of two nested table columns (`alias.col` or a column of one of the statement's `tables`) of
 * objects of a type with a MAP method, where member functions are callable (plsql/object-methods.ts): equal when
 * they hold as many elements and each element of a maps to a value as many elements of a and b map to ("Comparison
 * Conditions"; Object-Relational Developer's Guide, "Comparing Objects"); NULL when either is NULL. The rest of the
 * statement is left as it is.
 */
export const rewriteNestedTableEqualityByMap = (toks: ReadonlyArray<Tok>, tables: () => StatementTables): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "op" && EQUALITY.includes(t.value))) return toks
  const ownerOf = (name: string, qualifier: string | undefined) => (qualifier !== undefined ? [[qualifier, tables().get(qualifier)] as const] : [...tables()].filter(([, t]) => t.columns.some((c) => c.name === name)))
  const column = (name: string, qualifier: string | undefined): NamedType | undefined => {
    const owners = ownerOf(name, qualifier)
    const type = owners.length === 1 ? owners[0]![1]?.columns.find((c) => c.name === name)?.type.named : undefined
    const element = type?.kind === "table" ? objectElement(type) : undefined
    return element !== undefined && hasMapMethod(element) ? type : undefined
  }
  const types: OperandTypes = { column, constructed: () => undefined }
  return rewriteEqualities(toks, types, (_out, left, right, negated) => {
    if (left.type === undefined || left.type !== right.type) return undefined
    const element = objectElement(left.type)!
    const { owner, method: { name: method } } = comparisonOf(element)!
    const rebuilt = (alias: string) => `"${element.name}"(${element.attributes.map((a) => `${alias}."${a.name}"`).join(", ")})`
    const mapped = (alias: string) => `"${owner.name}"."${method}"(${rebuilt(alias)})`
    // a column as `"alias"."col"`, as TABLE(...) of it reads it (collection-columns.ts)
    const qualified = (o: Operand) => {
      const name = oracleName(o.column![o.column!.length - 1]!)
      const qualifier = o.column!.length > 1 ? oracleName(o.column![o.column!.length - 2]!) : undefined
      return `"${ownerOf(name, qualifier)[0]![0]}"."${name}"`
    }
    const a = qualified(left)
    const b = qualified(right)
    const count = (c: string) => `(SELECT COUNT(*) FROM TABLE(${c}) ora_mn WHERE ${mapped("ora_mn")} = ${mapped("ora_mm")})`
    const equal = `(SELECT COUNT(*) FROM TABLE(${a}) ora_mm) = (SELECT COUNT(*) FROM TABLE(${b}) ora_mm) AND NOT EXISTS (SELECT 1 FROM TABLE(${a}) ora_mm WHERE ${count(a)} <> ${count(b)})`
    return [`((CASE WHEN ${a} IS NULL OR ${b} IS NULL THEN NULL WHEN ${equal} THEN 1 ELSE 0 END) = ${negated ? 0 : 1})`]
  })
}
