/**
 * Comparisons of objects in a client's SQL (Object-Relational Developer's Guide, "Comparing Objects" and "Performance
 * of Object Comparisons"): `a op b` of two object operands (object columns, `alias.col` or unqualified, and
 * constructor calls) of a type with a MAP member function compares what it maps them to, with an ORDER member
 * function what it answers for the pair against 0 (`a [NOT] IN (b, c)` likewise); an ORDER BY item that is an object
 * column sorts by its MAP value, or by its rank under the ORDER method.
 * Without either method only equality and inequality are allowed, attribute by attribute: `<`, `>`, ... and ORDER BY
 * of such objects fail ORA-22950 "cannot ORDER objects without MAP or ORDER method", and equality, DISTINCT and GROUP
 * BY of a type with a VARRAY or LOB attribute ORA-22901 (Database Error Messages); `a [NOT] IN (b, c)`, DISTINCT and
 * GROUP BY of objects with a TIMESTAMP WITH TIME ZONE attribute at any depth compare their keys (object-keys.ts), as
 * MAP values are compared (`a = b` of them is nested-table-equality.ts's). `o [NOT] IN (SELECT p FROM ...)` compares
 * o and p likewise, by MAP value or key. The rest of the statement is left as it is.
 */
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { checkAttributeComparison, type StatementTable, type StatementTables } from "./multiset-conditions.ts"
import { objectKey } from "./object-keys.ts"
import { oracleName } from "./translate.ts"
import { comparisonOf } from "./type-inheritance.ts"
import type { NamedType } from "./type-shapes.ts"


const COMPARISONS = ["=", "<>", "!=", "^=", "~=", "<", ">", "<=", ">="]
const EQUALITY = ["=", "<>", "!=", "^=", "~="]

/** An object operand: significant tokens `start` to `end` (exclusive) and its type. */
export interface ObjectOperand {
  readonly start: number
  readonly end: number
  readonly type: NamedType
  /** The table and column of a column operand. */
  readonly column?: { readonly table: StatementTable; readonly name: string; readonly qualified: string }
}

/**
 * The object operand (an object column, `alias.col` or unqualified, or a constructor call) starting at significant
 * token `n` of `toks` (`sig` the indexes of its significant tokens); undefined for another operand.
 */
export const objectOperandAt = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  n: number,
  tables: () => StatementTables,
  lookupType: (name: string) => NamedType | undefined
): ObjectOperand | undefined => {
  const at = (m: number) => toks[sig[m] ?? -1]
  const first = at(n)
  if (!isName(first) || isOp(at(n - 1), ".")) return undefined
  if (isOp(at(n + 1), "(")) {
    const type = lookupType(oracleName(first))
    if (type?.kind !== "object") return undefined
    const close = matchParen(toks, sig[n + 1]!)
    const end = sig.findIndex((k) => k > close)
    const next = end < 0 ? sig.length : end
    return close < 0 || isOp(at(next), ".") ? undefined : { start: n, end: next, type }
  }
  const qualified = isOp(at(n + 1), ".") && isName(at(n + 2))
  const end = qualified ? n + 3 : n + 1
  if (isOp(at(end), ".") || isOp(at(end), "(")) return undefined
  const name = oracleName(at(end - 1)!)
  const owners = qualified ? [[oracleName(first), tables().get(oracleName(first))] as const] : [...tables()].filter(([, t]) => t.columns.some((c) => c.name === name))
  const [qualifier, table] = owners.length === 1 ? owners[0]! : []
  const type = table?.columns.find((c) => c.name === name)?.type.named
  return table !== undefined && type?.kind === "object" ? { start: n, end, type, column: { table, name, qualified: `"${qualifier}"."${name}"` } } : undefined
}

const noOrder = () => new OraError(22950, "cannot ORDER objects without MAP or ORDER method")

/**
 * Which objects a pass compares: those of types with a MAP or ORDER method, by calls of it (before stored function
 * calls are resolved, plsql/object-methods.ts), or those without either, by their keys (object-keys.ts; at
 * translation, session-translate.ts).
 */
export type ComparedBy = "method" | "key"

/**
 * `toks` with the object comparisons described above that `by` takes rewritten; `tables` gives the statement's tables
 * (by alias, or by name when unaliased), `lookupType` an object type by name. The same tokens when there is none.
 */
export const rewriteObjectComparisons = (toks: ReadonlyArray<Tok>, tables: () => StatementTables, lookupType: (name: string) => NamedType | undefined, by: ComparedBy): ReadonlyArray<Tok> => {
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => toks[sig[n] ?? -1]
  if (!sig.some((k) => COMPARISONS.some((op) => isOp(toks[k], op)) || isKw(toks[k], "BY", "DISTINCT", "UNIQUE", "IN"))) return toks
  const operandAt = (n: number): ObjectOperand | undefined => objectOperandAt(toks, sig, n, tables, lookupType)
  const textOf = (o: ObjectOperand) => toks.slice(sig[o.start], sig[o.end - 1]! + 1).map((t) => t.text).join("")
  /** The comparison method of `o`'s type as a packaged function of its declaring type's (plsql/object-methods.ts). */
  const methodCall = (o: ObjectOperand) => {
    const compared = comparisonOf(o.type)
    return compared === undefined ? undefined : { call: `"${compared.owner.name}"."${compared.method.name}"`, map: compared.method.comparison === "MAP" }
  }
  /** What `o` is compared by: its MAP value, or its key (object-keys.ts) without a MAP or ORDER method; undefined for an ORDER method or when its stored text does. */
  const keyOf = (o: ObjectOperand): string | undefined => {
    const method = methodCall(o)
    if (method === undefined) return by === "key" ? objectKey(o.type, `CAST(${textOf(o)} AS VARCHAR)`) : undefined
    return by === "method" && method.map ? `${method.call}(${textOf(o)})` : undefined
  }
  /**
   * The object operands of type `type` a subquery opening at `n` selects, its only item, one for each query of a chain
   * of set operations (whose rows are then compared as those keys); undefined for another subquery.
   */
  const subqueryItems = (n: number, type: NamedType): Array<ObjectOperand> | undefined => {
    if (!isOp(at(n), "(")) return undefined
    const items: Array<ObjectOperand> = []
    for (let m = n + 1; ; ) {
      if (!isKw(at(m), "SELECT")) return undefined
      const first = listItems(toks, sig, m + 1)
      const o = first.length === 1 ? operandAt(first[0]!) : undefined
      if (o?.type !== type || !isKw(at(o.end), "FROM")) return undefined
      items.push(o)
      // the next query of the chain, if any: after a set operator at the subquery's level
      let depth = 0
      for (m = o.end; m < sig.length; m++) {
        if (isOp(at(m), "(")) depth++
        else if (isOp(at(m), ")") && --depth < 0) return items
        else if (depth === 0 && isKw(at(m), "UNION", "INTERSECT", "MINUS", "EXCEPT")) break
      }
      m += isKw(at(m + 1), "ALL") ? 2 : 1
    }
  }
  /** The object operands of type `type` of the parenthesised list opening at `n`, and where it ends; undefined for another list. */
  const objectList = (n: number, type: NamedType): { items: Array<ObjectOperand>; end: number } | undefined => {
    if (!isOp(at(n), "(")) return undefined
    const items: Array<ObjectOperand> = []
    for (let m = n + 1; ; ) {
      // a bind item is a DbObject of the list's type (another bind's type is refused before: object-operand-checks.ts)
      const bound = at(m)?.kind === "bind" && (isOp(at(m + 1), ",") || isOp(at(m + 1), ")"))
      const o = bound ? { start: m, end: m + 1, type } : operandAt(m)
      if (o === undefined || o.type !== type) return undefined
      items.push(o)
      if (isOp(at(o.end), ")")) return { items, end: o.end + 1 }
      if (!isOp(at(o.end), ",")) return undefined
      m = o.end + 1
    }
  }
  const byEnd = new Map<number, ObjectOperand>()
  for (let n = 0; n < sig.length; n++) {
    const o = operandAt(n)
    if (o !== undefined) byEnd.set(o.end, o)
  }
  if (byEnd.size === 0) return toks
  const edits: Array<Edit> = []
  for (let n = 0; n < sig.length; n++) {
    const t = at(n)!
    const op = COMPARISONS.find((o) => isOp(t, o))
    if (op !== undefined) {
      const left = byEnd.get(n)
      const right = operandAt(n + 1)
      if (left === undefined || right === undefined || left.type !== right.type || (op === "=" && isAssignment(toks, sig, left.start))) continue
      const method = methodCall(left)
      if (method === undefined) {
        if (!EQUALITY.includes(op)) throw noOrder()
        checkAttributeComparison(left.type)
        continue
      }
      if (by === "key") continue
      const text = method.map ? `${keyOf(left)} ${op} ${keyOf(right)}` : `${method.call}(${textOf(left)}, ${textOf(right)}) ${op} 0`
      edits.push({ from: left.start, to: right.end, text })
      n = right.end - 1
      continue
    }
    const inList = isKw(t, "IN") || (isKw(t, "NOT") && isKw(at(n + 1), "IN")) ? byEnd.get(n) : undefined
    if (inList !== undefined) {
      const negated = isKw(t, "NOT")
      const open = negated ? n + 2 : n + 1
      const method = methodCall(inList)
      if (method === undefined) checkAttributeComparison(inList.type)
      const key = keyOf(inList)
      const list = objectList(open, inList.type)
      if (list === undefined) {
        // `o IN (SELECT p FROM ...)`: both compared by what they compare by
        const items = key === undefined ? undefined : subqueryItems(open, inList.type)
        if (items !== undefined) edits.push({ from: inList.start, to: inList.end, text: key! }, ...items.map((o) => ({ from: o.start, to: o.end, text: keyOf(o)! })))
        continue
      }
      const text =
        method !== undefined && !method.map
          ? by === "key" ? undefined : `${negated ? "NOT " : ""}(${list.items.map((o) => `${method.call}(${textOf(inList)}, ${textOf(o)}) = 0`).join(" OR ")})`
          : key === undefined ? undefined : `${key} ${negated ? "NOT " : ""}IN (${list.items.map(keyOf).join(", ")})`
      if (text === undefined) continue
      edits.push({ from: inList.start, to: list.end, text })
      n = list.end - 1
      continue
    }
    const ordering = isKw(t, "BY") && isKw(at(n - 1), "ORDER")
    if (ordering || (isKw(t, "BY") && isKw(at(n - 1), "GROUP")) || (isKw(t, "DISTINCT", "UNIQUE") && isKw(at(n - 1), "SELECT"))) {
      for (const item of listItems(toks, sig, n + 1)) {
        const o = operandAt(item)
        if (o === undefined || !itemEnds(toks, sig, o.end)) continue
        const method = methodCall(o)
        if (method === undefined) {
          if (ordering) throw noOrder()
          checkAttributeComparison(o.type)
        }
        const key = keyOf(o)
        if (ordering) {
          const ranked = by === "key" ? undefined : method!.map ? key : rankedByOrder(o, method!.call)
          if (ranked !== undefined) edits.push({ from: o.start, to: o.end, text: ranked })
        } else if (key !== undefined && !isKw(t, "BY")) {
          const grouped = distinctByKey(toks, sig, n, operandAt, keyOf, textOf)
          edits.push(...grouped)
          if (grouped.length > 0) break
        } else if (key !== undefined) {
          // GROUP BY the MAP value or key; the object itself selected as one of its group's (ANY_VALUE)
          edits.push({ from: o.start, to: o.end, text: key })
          edits.push(...groupedSelections(toks, sig, n, operandAt, textOf(o), textOf))
        }
      }
    }
  }
  if (edits.length === 0) return toks
  const out = [...toks]
  for (const e of edits.sort((a, b) => a.from - b.from || a.to - b.to).reverse()) {
    // an edit with from === to inserts before that token (or at the end)
    const at = sig[e.from] ?? toks.length
    const pos = out[at]?.pos ?? out[sig[e.from - 1]!]!.pos
    const made = tokenize(e.text).map((g, k) => ({ ...g, pos, ...(k === 0 && e.heading !== undefined ? { heading: e.heading, constructs: e.constructs } : k > 0 && e.heading !== undefined ? { heading: "" } : {}) }))
    out.splice(at, e.from === e.to ? 0 : sig[e.to - 1]! + 1 - at, ...made)
  }
  return out
}

/** A rewrite of significant tokens `from` to `to` (exclusive); a heading and described type for a select item it makes. */
interface Edit {
  readonly from: number
  readonly to: number
  readonly text: string
  readonly heading?: string
  readonly constructs?: NamedType
}

/** `ANY_VALUE(o)` for select item `o`: one of its group's objects, headed and described as the column. */
const anyValue = (o: ObjectOperand, text: string, toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>): Edit => ({
  from: o.start,
  to: o.end,
  text: `ANY_VALUE(${text})`,
  heading: oracleName(toks[sig[o.end - 1]!]!),
  constructs: o.type
})

/** The significant index of the SELECT of the query block whose clause word is at `n`. */
const selectOf = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, n: number): number | undefined => {
  for (let m = n - 1, depth = 0; m >= 0; m--) {
    const t = toks[sig[m]!]
    if (isOp(t, ")")) depth++
    else if (isOp(t, "(") && --depth < 0) return undefined
    else if (depth === 0 && isKw(t, "SELECT")) return m
  }
  return undefined
}

/** The select items of the GROUP BY's block (BY at `n`) that are the grouped object `text`: as ANY_VALUE of it. */
const groupedSelections = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, n: number, operandAt: (m: number) => ObjectOperand | undefined, text: string, textOf: (o: ObjectOperand) => string): Array<Edit> => {
  const select = selectOf(toks, sig, n)
  if (select === undefined) return []
  const first = isKw(toks[sig[select + 1] ?? -1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
  return listItems(toks, sig, first).flatMap((m) => {
    const o = operandAt(m)
    return o !== undefined && itemEnds(toks, sig, o.end) && textOf(o) === text ? [anyValue(o, text, toks, sig)] : []
  })
}

/**
 * `SELECT DISTINCT items ...` (DISTINCT at `n`) with an object item that compares by a key (its MAP value, or its
 * key of object-keys.ts without a MAP or ORDER method), as Oracle compares such objects:
 * `SELECT items ... GROUP BY <items, objects by their key>`, the objects selected as ANY_VALUE; nothing when the block
 * groups already.
 */
const distinctByKey = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  n: number,
  operandAt: (m: number) => ObjectOperand | undefined,
  keyOf: (o: ObjectOperand) => string | undefined,
  textOf: (o: ObjectOperand) => string
): Array<Edit> => {
  let end = n + 1
  for (let depth = 0; end < sig.length; end++) {
    const t = toks[sig[end]!]
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")") && --depth < 0) break
    else if (depth === 0 && isKw(t, "GROUP", "HAVING")) return []
    else if (depth === 0 && isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT", "ORDER", "FETCH", "OFFSET", "FOR")) break
  }
  const items = listItems(toks, sig, n + 1)
  const edits: Array<Edit> = [{ from: n, to: n + 1, text: "" }]
  const keys: Array<string> = []
  items.forEach((m, k) => {
    const o = operandAt(m)
    const key = o !== undefined && itemEnds(toks, sig, o.end) ? keyOf(o) : undefined
    if (o !== undefined && key !== undefined) {
      edits.push(anyValue(o, textOf(o), toks, sig))
      keys.push(key)
      return
    }
    // the item's expression, without its alias
    const stop = k + 1 < items.length ? items[k + 1]! - 1 : sig.findIndex((x, j) => j > m && isKw(toks[x], "FROM"))
    let last = stop - 1
    if (last > m && (toks[sig[last]!]!.kind === "ident" || toks[sig[last]!]!.kind === "qident") && !isOp(toks[sig[last - 1]!], ".")) last -= isKw(toks[sig[last - 1]!], "AS") ? 2 : 1
    keys.push(toks.slice(sig[m], sig[last]! + 1).map((t) => t.text).join(""))
  })
  if (edits.length === 1) return []
  return [...edits, { from: end, to: end, text: ` GROUP BY ${keys.join(", ")} ` }]
}

/**
 * An ORDER BY item `col` of a type with ORDER method `call` (a packaged function) as a key that sorts alike: how many values of the column
 * in its whole table the method orders before it (under the method's order, the count of smaller values in a
 * superset of the rows sorted grows with the value); NULL for a NULL object, which sorts as NULL. Undefined for a
 * column of a table that is not named (an inline view's).
 */
const rankedByOrder = (o: ObjectOperand, call: string): string | undefined => {
  const table = o.column?.table
  if (!table?.owner || !table.name) return undefined
  const text = o.column!.qualified
  const other = `ora_ox."${o.column!.name}"`
  return `CASE WHEN ${text} IS NULL THEN NULL ELSE (SELECT COUNT(*) FROM "${table.owner}"."${table.name}" ora_ox WHERE ${other} IS NOT NULL AND ${call}(${other}, ${text}) < 0) END`
}

/** The significant tokens starting the items of the comma-separated list starting at `n` (up to a clause word or a closing parenthesis). */
const listItems = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, n: number): Array<number> => {
  const items = [n]
  let depth = 0
  for (let m = n; m < sig.length; m++) {
    const t = toks[sig[m]!]
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")") && --depth < 0) break
    else if (depth === 0 && isKw(t, "FROM", "HAVING", "ORDER", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "WHERE")) break
    else if (depth === 0 && isOp(t, ",")) items.push(m + 1)
  }
  return items
}

/** Whether an item ends at significant token `n`: a `,`, `)`, the end, a sort option, an alias or a clause word follows. */
const itemEnds = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, n: number): boolean => {
  const t = toks[sig[n] ?? -1]
  return t === undefined || isOp(t, ",") || isOp(t, ")") || t.kind === "ident" || t.kind === "qident"
}

/** Whether the `=` after the operand starting at significant token `n` assigns a column in an UPDATE's SET clause. */
const isAssignment = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, n: number): boolean => {
  let depth = 0
  for (let m = n - 1; m >= 0; m--) {
    const t = toks[sig[m]!]
    if (isOp(t, ")")) depth++
    else if (isOp(t, "(") && --depth < 0) return false
    else if (depth > 0) continue
    else if (isKw(t, "SET")) return !isKw(toks[sig[m - 1] ?? -1], "A")
    else if (isKw(t, "WHERE", "SELECT", "FROM", "ON", "WHEN", "THEN", "ELSE", "AND", "OR", "NOT")) return false
  }
  return false
}
