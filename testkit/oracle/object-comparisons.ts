/**
 * Comparisons of objects in a client's SQL (Object-Relational Developer's Guide, "Comparing Objects" and "Performance
 * of Object Comparisons"): `a op b` of two object operands (object columns, `alias.col` or unqualified, and
 * constructor calls) of a type with a MAP member function compares what it maps them to, with an ORDER member
 * function what it answers for the pair against 0 (`a [NOT] IN (b, c)` likewise); an ORDER BY item that is an object
 * column sorts by its MAP value, or by its rank under the ORDER method.
 * Without either method only equality and inequality are allowed, attribute by attribute (as the stored values
 * compare): `<`, `>`, ... and ORDER BY of such objects fail ORA-22950 "cannot ORDER objects without MAP or ORDER
 * method", and equality, DISTINCT and GROUP BY of a type with a VARRAY or LOB attribute ORA-22901 (Database Error
 * Messages). The rest of the statement is left as it is.
 */
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { checkAttributeComparison, type StatementTable, type StatementTables } from "./multiset-conditions.ts"
import { oracleName } from "./translate.ts"
import type { MethodSpec, NamedType } from "./type-shapes.ts"


const COMPARISONS = ["=", "<>", "!=", "^=", "~=", "<", ">", "<=", ">="]
const EQUALITY = ["=", "<>", "!=", "^=", "~="]

/** An object operand: significant tokens `start` to `end` (exclusive) and its type. */
interface Operand {
  readonly start: number
  readonly end: number
  readonly type: NamedType
  /** The table and column of a column operand. */
  readonly column?: { readonly table: StatementTable; readonly name: string; readonly qualified: string }
}

/** The type declaring the MAP or ORDER method objects of `type` compare by: its own, or the one it inherits. */
const comparisonOwner = (type: NamedType): NamedType => {
  for (let c: NamedType | undefined = type; c !== undefined; c = c.supertype) if (c.methods?.some((m) => m.comparison !== undefined)) return c
  return type
}

const comparisonMethod = (type: NamedType) => comparisonOwner(type).methods?.find((m) => m.comparison !== undefined)

/** The MAP or ORDER method objects of `type` compare by and the type declaring it (its own, or a supertype's). */
export const comparisonOf = (type: NamedType): { readonly owner: NamedType; readonly method: MethodSpec } | undefined => {
  const method = comparisonMethod(type)
  return method === undefined ? undefined : { owner: comparisonOwner(type), method }
}

const noOrder = () => new OraError(22950, "cannot ORDER objects without MAP or ORDER method")

/**
 * `toks` with the object comparisons described above rewritten; `tables` gives the statement's tables (by alias, or
 * by name when unaliased), `lookupType` an object type by name. The same tokens when there is none.
 */
export const rewriteObjectComparisons = (toks: ReadonlyArray<Tok>, tables: () => StatementTables, lookupType: (name: string) => NamedType | undefined): ReadonlyArray<Tok> => {
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => toks[sig[n] ?? -1]
  if (!sig.some((k) => COMPARISONS.some((op) => isOp(toks[k], op)) || isKw(toks[k], "BY", "DISTINCT", "UNIQUE", "IN"))) return toks
  /** The object operand starting at significant token `n`. */
  const operandAt = (n: number): Operand | undefined => {
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
  const textOf = (o: Operand) => toks.slice(sig[o.start], sig[o.end - 1]! + 1).map((t) => t.text).join("")
  const mapped = (o: Operand, method: string) => `"${comparisonOwner(o.type).name}"."${method}"(${textOf(o)})`
  /** The object operands of type `type` of the parenthesised list opening at `n`, and where it ends; undefined for another list. */
  const objectList = (n: number, type: NamedType): { items: Array<Operand>; end: number } | undefined => {
    if (!isOp(at(n), "(")) return undefined
    const items: Array<Operand> = []
    for (let m = n + 1; ; ) {
      const o = operandAt(m)
      if (o === undefined || o.type !== type) return undefined
      items.push(o)
      if (isOp(at(o.end), ")")) return { items, end: o.end + 1 }
      if (!isOp(at(o.end), ",")) return undefined
      m = o.end + 1
    }
  }
  const byEnd = new Map<number, Operand>()
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
      const method = comparisonMethod(left.type)
      if (method === undefined) {
        if (!EQUALITY.includes(op)) throw noOrder()
        checkAttributeComparison(left.type)
        continue
      }
      const text = method.comparison === "MAP" ? `${mapped(left, method.name)} ${op} ${mapped(right, method.name)}` : `"${comparisonOwner(left.type).name}"."${method.name}"(${textOf(left)}, ${textOf(right)}) ${op} 0`
      edits.push({ from: left.start, to: right.end, text })
      n = right.end - 1
      continue
    }
    const inList = isKw(t, "IN") || (isKw(t, "NOT") && isKw(at(n + 1), "IN")) ? byEnd.get(n) : undefined
    if (inList !== undefined) {
      const negated = isKw(t, "NOT")
      const list = objectList(negated ? n + 2 : n + 1, inList.type)
      if (list === undefined) continue
      const method = comparisonMethod(inList.type)
      if (method === undefined) {
        checkAttributeComparison(inList.type)
        continue
      }
      const text =
        method.comparison === "MAP"
          ? `${mapped(inList, method.name)} ${negated ? "NOT " : ""}IN (${list.items.map((o) => mapped(o, method.name)).join(", ")})`
          : `${negated ? "NOT " : ""}(${list.items.map((o) => `"${comparisonOwner(o.type).name}"."${method.name}"(${textOf(inList)}, ${textOf(o)}) = 0`).join(" OR ")})`
      edits.push({ from: inList.start, to: list.end, text })
      n = list.end - 1
      continue
    }
    const ordering = isKw(t, "BY") && isKw(at(n - 1), "ORDER")
    if (ordering || (isKw(t, "BY") && isKw(at(n - 1), "GROUP")) || (isKw(t, "DISTINCT", "UNIQUE") && isKw(at(n - 1), "SELECT"))) {
      for (const item of listItems(toks, sig, n + 1)) {
        const o = operandAt(item)
        if (o === undefined || !itemEnds(toks, sig, o.end)) continue
        const method = comparisonMethod(o.type)
        if (method === undefined) {
          if (ordering) throw noOrder()
          checkAttributeComparison(o.type)
        } else if (ordering && method.comparison === "MAP") edits.push({ from: o.start, to: o.end, text: mapped(o, method.name) })
        else if (method.comparison === "MAP" && !isKw(t, "BY")) {
          const grouped = distinctByMap(toks, sig, n, operandAt, (x) => { const m = comparisonMethod(x.type); return m?.comparison === "MAP" ? mapped(x, m.name) : undefined }, textOf)
          edits.push(...grouped)
          if (grouped.length > 0) break
        } else if (method.comparison === "MAP") {
          // GROUP BY the MAP value; the object itself selected as one of its group's (ANY_VALUE)
          edits.push({ from: o.start, to: o.end, text: mapped(o, method.name) })
          edits.push(...groupedSelections(toks, sig, n, operandAt, textOf(o), textOf))
        }
        else if (ordering) {
          const ranked = rankedByOrder(o, method.name)
          if (ranked !== undefined) edits.push({ from: o.start, to: o.end, text: ranked })
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
const anyValue = (o: Operand, text: string, toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>): Edit => ({
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
const groupedSelections = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, n: number, operandAt: (m: number) => Operand | undefined, text: string, textOf: (o: Operand) => string): Array<Edit> => {
  const select = selectOf(toks, sig, n)
  if (select === undefined) return []
  const first = isKw(toks[sig[select + 1] ?? -1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
  return listItems(toks, sig, first).flatMap((m) => {
    const o = operandAt(m)
    return o !== undefined && itemEnds(toks, sig, o.end) && textOf(o) === text ? [anyValue(o, text, toks, sig)] : []
  })
}

/**
 * `SELECT DISTINCT items ...` (DISTINCT at `n`) with an object item of a type with a MAP method, as Oracle compares
 * such objects by their MAP values: `SELECT items ... GROUP BY <items, objects by their MAP value>`, the objects
 * selected as ANY_VALUE; nothing when the block groups already.
 */
const distinctByMap = (
  toks: ReadonlyArray<Tok>,
  sig: ReadonlyArray<number>,
  n: number,
  operandAt: (m: number) => Operand | undefined,
  mappedOf: (o: Operand) => string | undefined,
  textOf: (o: Operand) => string
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
    const mapped = o !== undefined && itemEnds(toks, sig, o.end) ? mappedOf(o) : undefined
    if (o !== undefined && mapped !== undefined) {
      edits.push(anyValue(o, textOf(o), toks, sig))
      keys.push(mapped)
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
 * An ORDER BY item `col` of a type with ORDER method `method` as a key that sorts alike: how many values of the column
 * in its whole table the method orders before it (under the method's order, the count of smaller values in a
 * superset of the rows sorted grows with the value); NULL for a NULL object, which sorts as NULL. Undefined for a
 * column of a table that is not named (an inline view's).
 */
const rankedByOrder = (o: Operand, method: string): string | undefined => {
  const table = o.column?.table
  if (!table?.owner || !table.name) return undefined
  const text = o.column!.qualified
  const other = `ora_ox."${o.column!.name}"`
  return `CASE WHEN ${text} IS NULL THEN NULL ELSE (SELECT COUNT(*) FROM "${table.owner}"."${table.name}" ora_ox WHERE ${other} IS NOT NULL AND "${comparisonOwner(o.type).name}"."${method}"(${other}, ${text}) < 0) END`
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
