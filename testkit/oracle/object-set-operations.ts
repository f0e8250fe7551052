/**
 * UNION, INTERSECT and MINUS of object values in a client's SQL. Oracle compares the rows of these set operations as
 * DISTINCT does: objects of a type with a MAP method by what it maps them to (Object-Relational Developer's Guide,
 * "Comparing Objects": the MAP method "is called implicitly ... by the DISTINCT, GROUP BY, UNION, and ORDER BY
 * clauses"), while DuckDB would compare the stored text. A chain `Q1 op Q2 [op Q3 ...]` whose first query selects
 * such an object becomes, one operator at a time and left to right (the set operators have equal precedence, SQL
 * Language Reference, "The UNION [ALL], INTERSECT, MINUS Operators"):
 *
 *     SELECT ANY_VALUE(w."O") "O", w."X" "X" FROM (SELECT u.*, 0 "ORA$SIDE" FROM (Q1) u
 *       UNION ALL SELECT v.*, 1 FROM (Q2) v) w GROUP BY "T"."MAP"(w."O"), w."X" [HAVING ...]
 *
 * UNION keeps one row per key; INTERSECT the keys both sides have, MINUS the keys only the left side has, each with
 * one of the left side's objects. Objects of a type without a MAP or ORDER method compare attribute by attribute,
 * which their stored text does unless they have a TIMESTAMP WITH TIME ZONE attribute (at any depth): those are grouped
 * by their key instead of a MAP value (object-keys.ts), which takes each such attribute as its instant. UNION ALL
 * compares nothing and is left as it is, as are chains whose first query has an item without a name an outer query
 * could read (an unaliased expression), `*`, or objects of a type with an ORDER method.
 */
import { isKw, isName, isOp, matchParen, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import type { StatementTables } from "./multiset-conditions.ts"
import type { ComparedBy } from "./object-comparisons.ts"
import { objectKey } from "./object-keys.ts"
import { oracleName } from "./translate.ts"
import { comparisonOf } from "./type-inheritance.ts"
import type { NamedType } from "./type-shapes.ts"


/** One select item of a chain's first query: its output name and, for an object compared by a key, how. */
interface Item {
  readonly name: string
  readonly keyed?: Keyed
}

/** How objects of `type` compare: `key` gives the key of a column (engine text) holding them, `map` whether it is a MAP value. */
interface Keyed {
  readonly type: NamedType
  readonly key: (column: string) => string
  readonly map: boolean
}

/** How objects of `type` are compared by a key in a pass that takes `by`: by their MAP method's value, or without a method by their key of object-keys.ts. */
const keyedBy = (type: NamedType, by: ComparedBy): Keyed | undefined => {
  const compared = comparisonOf(type)
  if (by === "key") return compared === undefined && objectKey(type, "") !== undefined ? { type, key: (c) => objectKey(type, `CAST(${c} AS VARCHAR)`)!, map: false } : undefined
  if (compared?.method.comparison === "MAP") return { type, key: (c) => `${quoted(compared.owner.name)}.${quoted(compared.method.name)}(${c})`, map: true }
  return undefined
}

/** A set operator of a chain at significant token `at`; the first token of its right operand at `next`. */
interface Operator {
  readonly at: number
  readonly next: number
  readonly op: "UNION" | "UNION ALL" | "INTERSECT" | "MINUS"
}

/**
 * `toks` with each chain of set operations over objects compared by a key (by a MAP method or by their keys, as `by`
 * says: see object-comparisons.ts ComparedBy) rewritten as the module comment says; `tables` gives the statement's
 * tables by alias, `lookupType` an object type by name. The same tokens when there is none.
 */
export const rewriteObjectSetOperations = (toks: ReadonlyArray<Tok>, tables: () => StatementTables, lookupType: (name: string) => NamedType | undefined, by: ComparedBy): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "UNION", "INTERSECT", "MINUS"))) return toks
  const at = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const sig = at.map((k) => toks[k]!)
  // the chains, each at the level of one pair of parentheses (or the statement): its first SELECT, operators and end
  const edits: Array<{ from: number; to: number; with: Array<Tok> }> = []
  const visit = (from: number, end: number): void => {
    const operators: Array<Operator> = []
    let trailing = end
    for (let k = from; k < end; k++) {
      if (isOp(sig[k], "(")) {
        const close = matchParen(sig, k)
        visit(k + 1, close)
        k = close
      } else if (isKw(sig[k], "UNION", "INTERSECT", "MINUS")) {
        const all = isKw(sig[k], "UNION") && isKw(sig[k + 1], "ALL")
        operators.push({ at: k, next: all ? k + 2 : k + 1, op: all ? "UNION ALL" : (sig[k]!.value.toUpperCase() as Operator["op"]) })
        trailing = end
      } else if (operators.length > 0 && trailing === end && ((isKw(sig[k], "ORDER") && isKw(sig[k + 1], "BY")) || isKw(sig[k], "FETCH", "OFFSET"))) trailing = k
    }
    if (operators.length === 0 || operators.every((o) => o.op === "UNION ALL")) return
    // the chain's first query: the last SELECT at this level before the first operator (after a WITH clause's blocks)
    let start = -1
    for (let k = from; k < operators[0]!.at; k++) {
      if (isOp(sig[k], "(")) k = matchParen(sig, k)
      else if (isKw(sig[k], "SELECT")) start = k
    }
    if (start < 0) return
    const items = selectItems(sig, start, operators[0]!.at, tables, lookupType, by)
    if (items === undefined || !items.some((i) => i.keyed !== undefined)) return
    const pos = sig[start]!.pos
    const text = (a: number, b: number) => sig.slice(a, b).map((t) => t.text).join(" ")
    let acc = text(start, operators[0]!.at)
    operators.forEach((o, n) => {
      const right = text(o.next, n + 1 < operators.length ? operators[n + 1]!.at : trailing)
      acc = o.op === "UNION ALL" ? `${acc} UNION ALL ${right}` : combined(acc, right, o.op, items)
    })
    // a trailing ORDER BY sorts the result's objects by their MAP values too
    let to = trailing
    if (isKw(sig[trailing], "ORDER")) {
      to = trailing + 2
      while (to < end && !isKw(sig[to], "FETCH", "OFFSET")) to = isOp(sig[to], "(") ? matchParen(sig, to) + 1 : to + 1
      acc = ordered(acc, splitTopLevel(sig.slice(trailing + 2, to)), items)
    }
    const made = tokenize(acc).map((t) => ({ ...t, pos, heading: "" }))
    edits.push({ from: start, to, with: headed(made, items) })
  }
  visit(0, sig.length)
  if (edits.length === 0) return toks
  // a chain inside another's operands first: the outer one is rewritten from the rewritten tokens
  const innermost = edits.filter((e) => !edits.some((o) => o !== e && o.from >= e.from && o.to <= e.to))
  const out = [...toks]
  for (const e of innermost.sort((a, b) => a.from - b.from).reverse()) out.splice(at[e.from]!, at[e.to - 1]! - at[e.from]! + 1, ...e.with)
  return innermost.length < edits.length ? rewriteObjectSetOperations(out, tables, lookupType, by) : out
}

/**
 * `query` (whose items are `items`) ordered by ORDER BY items `order`: an item naming a select item (by position or
 * name) of an object with a MAP method sorts by the MAP value, as Oracle orders objects ("Comparing Objects").
 */
const ordered = (query: string, order: ReadonlyArray<ReadonlyArray<Tok>>, items: ReadonlyArray<Item>): string => {
  const keys = order.map((part) => {
    const head = part[0]
    const k = head?.kind === "num" ? Number(head.value) - 1 : isName(head) ? items.findIndex((i) => i.name === oracleName(head)) : -1
    const item = items[k]
    const rest = part.slice(1).map((t) => t.text).join(" ")
    if (item === undefined || (head?.kind !== "num" && part.length > 1 && !isKw(part[1], "ASC", "DESC", "NULLS"))) return part.map((t) => t.text).join(" ")
    const column = `ora$x.${quoted(item.name)}`
    return `${item.keyed?.map === true ? item.keyed.key(column) : column} ${rest}`
  })
  // an object item as a call, which its heading and type are given to (as TREAT's value is: object-substitution.ts)
  const selected = items.map((i) => (i.keyed !== undefined ? `CAST(ora$x.${quoted(i.name)} AS VARCHAR) ${quoted(i.name)}` : `ora$x.${quoted(i.name)} ${quoted(i.name)}`))
  return `SELECT ${selected.join(", ")} FROM (${query}) ora$x ORDER BY ${keys.join(", ")}`
}

/** The items of the select list from SELECT at `start` to its FROM before `end`; undefined when one has no name. */
const selectItems = (
  sig: ReadonlyArray<Tok>,
  start: number,
  end: number,
  tables: () => StatementTables,
  lookupType: (name: string) => NamedType | undefined,
  by: ComparedBy
): Array<Item> | undefined => {
  const first = isKw(sig[start + 1], "DISTINCT", "UNIQUE", "ALL") ? start + 2 : start + 1
  let k = first
  while (k < end && !isKw(sig[k], "FROM")) k = isOp(sig[k], "(") ? matchParen(sig, k) + 1 : k + 1
  const parts = splitTopLevel(sig.slice(first, k))
  const items: Array<Item> = []
  for (const part of parts) {
    // `expr [AS] alias`: the alias names it; a column (`c`, `t.c`) is named by its column
    const last = part.at(-1)
    const aliased = part.length >= 2 && isName(last) && !isOp(part.at(-2), ".") && !isOp(part.at(-2), ")") || (part.length >= 3 && isKw(part.at(-2), "AS"))
    const expr = aliased ? part.slice(0, isKw(part.at(-2), "AS") ? -2 : -1) : part
    const column = expr.length === 1 && isName(expr[0]) ? expr[0] : expr.length === 3 && isName(expr[0]) && isOp(expr[1], ".") && isName(expr[2]) ? expr[2] : undefined
    const name = aliased ? oracleName(last!) : column !== undefined ? oracleName(column) : undefined
    if (name === undefined || expr.some((t) => isOp(t, "*"))) return undefined
    const type = objectTypeOf(expr, tables, lookupType)
    const keyed = type === undefined ? undefined : keyedBy(type, by)
    items.push(keyed === undefined ? { name } : { name, keyed })
  }
  return items
}

/** The object type of a select item's expression: an object column (`c`, `t.c`) or a constructor call. */
const objectTypeOf = (expr: ReadonlyArray<Tok>, tables: () => StatementTables, lookupType: (name: string) => NamedType | undefined): NamedType | undefined => {
  if (isName(expr[0]) && isOp(expr[1], "(") && matchParen(expr, 1) === expr.length - 1) {
    const type = lookupType(oracleName(expr[0]))
    return type?.kind === "object" ? type : undefined
  }
  const qualified = expr.length === 3 && isOp(expr[1], ".")
  if (!(expr.length === 1 || qualified) || !isName(expr[0]) || !isName(expr.at(-1))) return undefined
  const name = oracleName(expr.at(-1)!)
  const owners = qualified ? [tables().get(oracleName(expr[0]))] : [...tables().values()].filter((t) => t.columns.some((c) => c.name === name))
  const type = owners.length === 1 ? owners[0]?.columns.find((c) => c.name === name)?.type.named : undefined
  return type?.kind === "object" ? type : undefined
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`

/** `left op right` (op UNION, INTERSECT or MINUS) comparing the objects of `items` by their keys. */
const combined = (left: string, right: string, op: Operator["op"], items: ReadonlyArray<Item>): string => {
  const side = quoted("ORA$SIDE")
  const tagged = `SELECT ora$u.*, 0 ${side} FROM (${left}) ora$u UNION ALL SELECT ora$v.*, 1 FROM (${right}) ora$v`
  // an object of the left side's rows (INTERSECT, MINUS): the right side's, of equal key, may hold other attributes
  const picked = (name: string) => (op === "UNION" ? `ora$w.${quoted(name)}` : `CASE WHEN ora$w.${side} = 0 THEN ora$w.${quoted(name)} END`)
  const selected = items.map((i) => (i.keyed !== undefined ? `ANY_VALUE(${picked(i.name)}) ${quoted(i.name)}` : `ora$w.${quoted(i.name)} ${quoted(i.name)}`))
  const keys = items.map((i) => i.keyed?.key(`ora$w.${quoted(i.name)}`) ?? `ora$w.${quoted(i.name)}`)
  const having = op === "INTERSECT" ? ` HAVING MIN(ora$w.${side}) = 0 AND MAX(ora$w.${side}) = 1` : op === "MINUS" ? ` HAVING MAX(ora$w.${side}) = 0` : ""
  return `SELECT ${selected.join(", ")} FROM (${tagged}) ora$w GROUP BY ${keys.join(", ")}${having}`
}

/**
 * The rewritten chain's tokens with the outermost select list's items headed by their names, and its object items
 * described as their type (a column of the inline view would otherwise be described by its stored text).
 */
const headed = (made: Array<Tok>, items: ReadonlyArray<Item>): Array<Tok> => {
  const sig = made.filter((t) => t.kind !== "ws")
  let n = 0
  for (let k = 1, depth = 0; k < sig.length && n < items.length; k++) {
    if (isOp(sig[k], "(")) depth++
    else if (isOp(sig[k], ")")) depth--
    if (depth !== 0 || !(k === 1 || isOp(sig[k - 1], ","))) continue
    const item = items[n++]!
    Object.assign(sig[k]!, { heading: item.name, ...(item.keyed !== undefined ? { constructs: item.keyed.type } : {}) })
  }
  return made
}
