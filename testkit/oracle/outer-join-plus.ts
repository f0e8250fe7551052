/**
 * Oracle's outer join operator `(+)` in a WHERE clause rewritten into ANSI `LEFT OUTER JOIN ... ON`, before
 * translation.
 *
 * SQL Language Reference, "Joins" / "Outer Joins": the table whose columns carry `(+)` is the one Oracle fills with
 * NULLs (`a.x = b.x(+)` keeps every row of `a`, `a.x(+) = b.x` every row of `b`); every condition that marks a table's
 * columns with `(+)`, also against a constant (`b.y(+) = 1`), belongs to that table's join; the others filter the
 * joined rows. Restrictions Oracle enforces, with its errors:
 * - a condition with `(+)` cannot be an operand of OR, nor compare with IN (ORA-01719);
 * - a condition may mark columns of one table only (ORA-01468);
 * - two tables cannot be outer-joined to each other (ORA-01416);
 * - `(+)` cannot be mixed with ANSI joins in one FROM clause (ORA-25156), nor stand outside WHERE (ORA-30563).
 * Since Oracle 12c a table may be outer-joined to several tables ("a single table can be the null-generated table for
 * multiple tables", Database New Features Guide 12.1), so ORA-01417 is no longer raised: the table joins after all of
 * them with all their conditions in its ON.
 */
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import { blockEnd, type TableLookup, topLevelAt } from "./query-blocks.ts"

const isPlus = (toks: ReadonlyArray<Tok>, k: number): boolean => isOp(toks[k], "(") && isOp(toks[k + 1], "+") && isOp(toks[k + 2], ")")
const END_OF_WHERE = ["GROUP", "HAVING", "ORDER", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "MODEL", "WINDOW"]
const JOIN_WORDS = ["JOIN", "NATURAL", "APPLY"]

/** One FROM item: its tokens and the names its columns are qualified with. */
interface FromItem {
  readonly toks: ReadonlyArray<Tok>
  readonly names: ReadonlyArray<string>
  readonly columns: ReadonlySet<string>
}

/** The query block containing token `p`: its SELECT and its end (exclusive). */
const blockAround = (toks: ReadonlyArray<Tok>, p: number): { start: number; end: number } | undefined => {
  for (let s = p - 1; s >= 0; s--) {
    if (!isKw(toks[s], "SELECT")) continue
    const end = blockEnd(toks, s + 1)
    if (end > p) return { start: s, end }
  }
  return undefined
}

/** Splits a WHERE condition at its top-level ANDs (not the AND of BETWEEN). */
const conjuncts = (toks: ReadonlyArray<Tok>): Array<Array<Tok>> => {
  const parts: Array<Array<Tok>> = [[]]
  let depth = 0
  let between = false
  for (const t of toks) {
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isKw(t, "BETWEEN")) between = true
    else if (depth === 0 && isKw(t, "AND")) {
      if (between) between = false
      else {
        parts.push([])
        continue
      }
    }
    parts[parts.length - 1]!.push(t)
  }
  return parts
}

const fromItemOf = (toks: ReadonlyArray<Tok>, lookup: TableLookup): FromItem => {
  const last = toks[toks.length - 1]
  const aliased = toks.length > 1 && (last?.kind === "ident" || last?.kind === "qident") && !isOp(toks[toks.length - 2], ".")
  const tableAt = isOp(toks[1], ".") ? 2 : 0
  const table = toks[tableAt]
  const schema = tableAt === 2 ? toks[0]!.value : undefined
  const meta = table !== undefined && (table.kind === "ident" || table.kind === "qident") ? lookup(schema, table.value) : undefined
  const names = aliased ? [last!.value] : table !== undefined ? [table.value] : []
  return { toks, names, columns: new Set(meta?.columns.map((c) => c.name) ?? []) }
}

/** Which FROM item each column reference of a condition belongs to, and whether it carries (+). */
const referencesOf = (cond: ReadonlyArray<Tok>, items: ReadonlyArray<FromItem>): Array<{ item: number; outer: boolean }> => {
  const refs: Array<{ item: number; outer: boolean }> = []
  for (let k = 0; k < cond.length; k++) {
    const t = cond[k]!
    if ((t.kind !== "ident" && t.kind !== "qident") || isOp(cond[k - 1], ".") || isOp(cond[k + 1], "(") && !isPlus(cond, k + 1)) continue
    let item = -1
    let end = k
    if (isOp(cond[k + 1], ".") && (cond[k + 2]?.kind === "ident" || cond[k + 2]?.kind === "qident")) {
      item = items.findIndex((i) => i.names.includes(t.value))
      end = k + 2
      if (item < 0 && isPlus(cond, end + 1)) throw ora.invalidIdentifier(`${t.value}"."${cond[k + 2]!.value}`)
    } else item = items.findIndex((i) => i.columns.has(t.value))
    if (item >= 0) refs.push({ item, outer: isPlus(cond, end + 1) })
    k = end
  }
  return refs
}

const withoutPlus = (toks: ReadonlyArray<Tok>): Array<Tok> => toks.filter((_, k) => !(isPlus(toks, k) || isPlus(toks, k - 1) || isPlus(toks, k - 2)))

const spaced = (toks: ReadonlyArray<Tok>): Array<Tok> => toks.flatMap((t) => [t, { kind: "ws" as const, text: " ", value: " ", pos: t.pos }])

/** Rewrites every query block whose WHERE clause uses `(+)`; statements without it are returned as they are. */
export const rewriteOuterJoinPlus = (source: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  if (!source.some((t, k) => isOp(t, "+") && isOp(source[k - 1], "(") && isOp(source[k + 1], ")"))) return source
  const toks = significant(source)
  const plus = toks.findIndex((_, k) => isPlus(toks, k))
  if (plus < 0) return source
  const block = blockAround(toks, plus)
  if (block === undefined) throw new OraError(30563, "outer join operator (+) is not allowed here")
  const { start, end } = block
  const from = topLevelAt(toks, start + 1, end, (t) => isKw(t, "FROM"))
  const where = topLevelAt(toks, from, end, (t) => isKw(t, "WHERE"))
  if (plus < where || where === end) throw new OraError(30563, "outer join operator (+) is not allowed here")
  const whereEnd = topLevelAt(toks, where + 1, end, (t) => isKw(t, ...END_OF_WHERE))
  if (plus > whereEnd) throw new OraError(30563, "outer join operator (+) is not allowed here")
  const fromToks = toks.slice(from + 1, where)
  if (topLevelAt(fromToks, 0, fromToks.length, (t) => isKw(t, ...JOIN_WORDS)) < fromToks.length) {
    throw new OraError(25156, "old style outer join (+) cannot be used with ANSI joins")
  }
  const items = splitTopLevel(fromToks).map((t) => fromItemOf(t, lookup))

  const filters: Array<Array<Tok>> = []
  const joinConditions = new Map<number, Array<Array<Tok>>>()
  const dependsOn = new Map<number, Set<number>>()
  for (const cond of conjuncts(toks.slice(where + 1, whereEnd))) {
    if (!cond.some((_, k) => isPlus(cond, k))) {
      filters.push(cond)
      continue
    }
    if (cond.some((t, k) => isKw(t, "OR") || (isKw(t, "IN") && isOp(cond[k + 1], "(")))) {
      throw new OraError(1719, "outer join operator (+) not allowed in operand of OR or IN")
    }
    const refs = referencesOf(cond, items)
    const outer = [...new Set(refs.filter((r) => r.outer).map((r) => r.item))]
    if (outer.length > 1) throw new OraError(1468, "a predicate may reference only one outer-joined table")
    const optional = outer[0]
    if (optional === undefined) throw new OraError(30563, "outer join operator (+) is not allowed here")
    joinConditions.set(optional, [...(joinConditions.get(optional) ?? []), withoutPlus(cond)])
    const deps = dependsOn.get(optional) ?? new Set<number>()
    for (const r of refs) if (r.item !== optional) deps.add(r.item)
    dependsOn.set(optional, deps)
  }
  for (const [b, deps] of dependsOn) for (const a of deps) if (dependsOn.get(a)?.has(b)) throw new OraError(1416, "two tables cannot be outer-joined to each other")

  // the tables every row is kept of first (cross joined), then each outer-joined table once the tables it joins to are in
  const pos = toks[from]!.pos
  const gen = (text: string) => tokenize(text).map((t) => ({ ...t, pos }))
  const joined: Array<Tok> = []
  const placed = new Set<number>()
  items.forEach((item, k) => {
    if (dependsOn.has(k)) return
    joined.push(...(placed.size > 0 ? gen(" CROSS JOIN ") : []), ...spaced(item.toks))
    placed.add(k)
  })
  while (placed.size < items.length) {
    const next = items.findIndex((_, k) => !placed.has(k) && [...(dependsOn.get(k) ?? [])].every((d) => placed.has(d)))
    if (next < 0 || placed.size === 0) throw new OraError(1416, "two tables cannot be outer-joined to each other")
    const on = joinConditions.get(next)!.flatMap((c, n) => [...gen(n === 0 ? " (" : " AND ("), ...spaced(c), ...gen(")")])
    joined.push(...gen(" LEFT OUTER JOIN "), ...spaced(items[next]!.toks), ...gen(" ON "), ...on)
    placed.add(next)
  }
  const filter = filters.length === 0 ? [] : [...gen(" WHERE "), ...filters.flatMap((c, n) => [...gen(n === 0 ? " (" : " AND ("), ...spaced(c), ...gen(") ")])]
  const rewritten = [...spaced(toks.slice(0, from + 1)), ...joined, ...filter, ...gen(" "), ...spaced(toks.slice(whereEnd))]
  return rewriteOuterJoinPlus(rewritten, lookup)
}
