/**
 * `JOIN ... USING (cols)` and NATURAL joins over datetimes the server keeps as text (TIMESTAMP WITH TIME ZONE,
 * TIMESTAMP(7-9), TIMESTAMP(7-9) WITH LOCAL TIME ZONE: datetime-functions.ts). DuckDB's USING compares the stored
 * text, so rows at one instant in two zones would not join, where Oracle compares TIMESTAMP WITH TIME ZONE values by
 * their UTC instant (Database Globalization Support Guide, "Datetime Comparisons"). Such a join is rewritten, before
 * translation, into the equivalent `ON left.c = right.c AND ...`, whose comparisons the translator renders by instant;
 * the statement's unqualified references to a join column become the left table's column (the right one's for a
 * RIGHT join; both coalesced for a FULL join), and a `SELECT *` over the two tables lists the join columns once, first, then the other columns of
 * the left and of the right table (the order the SQL standard gives a NATURAL or USING join's `*`, as e.g. Apache
 * Derby's reference, "NATURAL JOIN operation", spells out; **unconfirmed** for Oracle). Handled: an INNER, LEFT, RIGHT or
 * FULL join of two named tables or WITH blocks (with or without aliases; a block's column list names its items) or subqueries (`(SELECT ...) s`, given an alias when they have none; their columns
 * named by their select lists: insert-select-stars.ts), and one whose left side is itself a join of those
 * (`a JOIN b USING (x) JOIN c USING (t)`: each join column taken from the one left table that has it; with a
 * `SELECT *` over a FROM clause of any joins and commas, its columns listed join by join); other joins over such
 * columns are left as they are.
 */
import type { ColumnMeta } from "./catalog.ts"
import { blockSelectBefore, isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { subqueryColumns } from "./insert-select-stars.ts"
import type { TableLookup } from "./number-writes.ts"
import { quoteDuck } from "./names.ts"


/** Keywords that end a table reference or start a clause, never an alias. */
const NOT_ALIAS = new Set(["FROM", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "NATURAL", "CROSS", "USING", "ON", "WHERE", "GROUP", "ORDER", "HAVING", "UNION", "INTERSECT", "MINUS", "FETCH", "OFFSET", "CONNECT", "START", "FOR"])

/** True for a column the server stores as datetime text (see the module comment). */
const isTextDatetime = (c: ColumnMeta): boolean => (c.type.kind === "timestamp" || c.type.kind === "timestamptz" || c.type.kind === "timestampltz") && c.type.duck === "VARCHAR"

/** A table reference `[schema.]table [alias]` in significant tokens [start, end). */
interface TableRef {
  readonly start: number
  readonly end: number
  readonly qualifier: string
  readonly columns: ReadonlyArray<ColumnMeta>
  /** The closing parenthesis of a subquery without an alias, which the rewrite gives it the alias `qualifier` after. */
  readonly unaliasedAt?: number
}


/**
 * The statement's WITH blocks: the position of each one's opening parenthesis and the names of its column list (if
 * it has one), by name.
 */
type WithBlocks = ReadonlyMap<string, { readonly open: number; readonly names?: ReadonlyArray<string> }>

const withBlocksOf = (sig: ReadonlyArray<Tok>): WithBlocks => {
  const out = new Map<string, { open: number; names?: Array<string> }>()
  if (!isKw(sig[0], "WITH")) return out
  for (let k = 1; isName(sig[k]); ) {
    const list = isOp(sig[k + 1], "(") ? matchParen(sig, k + 1) : -1
    const as = list < 0 ? k + 1 : list + 1
    if (!isKw(sig[as], "AS") || !isOp(sig[as + 1], "(")) break
    const names = list < 0 ? undefined : sig.slice(k + 2, list).filter(isName).map((t) => t.value)
    out.set(sig[k]!.value, { open: as + 1, ...(names !== undefined ? { names } : {}) })
    const close = matchParen(sig, as + 1)
    if (close < 0 || !isOp(sig[close + 1], ",")) break
    k = close + 2
  }
  return out
}

/** The alias given a subquery without one, whose `)` is at `close`, so that the rewritten join can name its columns. */
const generatedAlias = (close: number): string => `"ORA$JOINED_${close}"`

/** The columns of table or WITH block `name`. */
const columnsOf = (sig: ReadonlyArray<Tok>, schema: string | undefined, name: string, lookup: TableLookup, blocks: WithBlocks): ReadonlyArray<ColumnMeta> | undefined => {
  const block = schema === undefined ? blocks.get(name) : undefined
  // a query name hides a table of that name (SQL Language Reference, SELECT, subquery_factoring_clause); its column
  // list names its items
  if (block === undefined) return lookup(schema, name)?.columns
  const columns = subqueryColumns(sig, block.open, lookup)
  const names = block.names
  if (names === undefined || columns === undefined) return columns
  return names.length === columns.length ? columns.map((c, n) => ({ ...c, name: names[n]! })) : undefined
}

/** The table reference ending just before `end` (exclusive) of `sig`, looked up; undefined when it is not one. */
const refEndingAt = (sig: ReadonlyArray<Tok>, end: number, lookup: TableLookup, blocks: WithBlocks): TableRef | undefined => {
  let k = end - 1
  // a subquery `(SELECT ...) s`, or without an alias
  const aliased = isName(sig[k]) && !NOT_ALIAS.has(sig[k]!.value) && isOp(sig[k - 1], ")")
  if (aliased || isOp(sig[k], ")")) {
    const close = aliased ? k - 1 : k
    let open = close
    for (let depth = 0; open >= 0; open--) {
      if (isOp(sig[open], ")")) depth++
      else if (isOp(sig[open], "(") && --depth === 0) break
    }
    if (open < 0 || !(isKw(sig[open - 1], "FROM") || isOp(sig[open - 1], ","))) return undefined
    const columns = subqueryColumns(sig, open, lookup)
    if (columns === undefined) return undefined
    return aliased ? { start: open, end, qualifier: quoteDuck(sig[k]!.value), columns } : { start: open, end, qualifier: generatedAlias(close), columns, unaliasedAt: close }
  }
  let alias: Tok | undefined
  if (isName(sig[k]) && isName(sig[k - 1]) && !NOT_ALIAS.has(sig[k - 1]!.value) && !NOT_ALIAS.has(sig[k]!.value)) alias = sig[k--]
  if (!isName(sig[k]) || NOT_ALIAS.has(sig[k]!.value)) return undefined
  const schema = isOp(sig[k - 1], ".") && isName(sig[k - 2]) ? sig[k - 2]!.value : undefined
  const start = schema === undefined ? k : k - 2
  if (!(isKw(sig[start - 1], "FROM") || isOp(sig[start - 1], ","))) return undefined
  const columns = columnsOf(sig, schema, sig[k]!.value, lookup, blocks)
  return columns === undefined ? undefined : { start, end, qualifier: quoteDuck(alias?.value ?? sig[k]!.value), columns }
}

/** The table reference starting at `start` of `sig` (up to `limit`), looked up. */
const refStartingAt = (sig: ReadonlyArray<Tok>, start: number, lookup: TableLookup, blocks: WithBlocks): TableRef | undefined => {
  if (isOp(sig[start], "(") && isKw(sig[start + 1], "SELECT")) {
    const close = matchParen(sig, start)
    if (close < 0) return undefined
    const alias = sig[close + 1]
    const aliased = isName(alias) && !NOT_ALIAS.has(alias.value)
    const columns = subqueryColumns(sig, start, lookup)
    if (columns === undefined) return undefined
    return aliased ? { start, end: close + 2, qualifier: quoteDuck(alias.value), columns } : { start, end: close + 1, qualifier: generatedAlias(close), columns, unaliasedAt: close }
  }
  if (!isName(sig[start]) || NOT_ALIAS.has(sig[start]!.value)) return undefined
  const qualified = isOp(sig[start + 1], ".") && isName(sig[start + 2])
  const nameAt = qualified ? start + 2 : start
  let end = nameAt + 1
  const alias = isName(sig[end]) && !NOT_ALIAS.has(sig[end]!.value) ? sig[end++] : undefined
  const columns = columnsOf(sig, qualified ? sig[start]!.value : undefined, sig[nameAt]!.value, lookup, blocks)
  return columns === undefined ? undefined : { start, end, qualifier: quoteDuck(alias?.value ?? sig[nameAt]!.value), columns }
}

/**
 * The named tables of the join chain before `m` in the FROM clause of its query block (`FROM a JOIN b USING (x)`,
 * `FROM a, b`), looked up; undefined when one of them is no named table (a subquery) or no FROM is found.
 */
const chainEndingAt = (sig: ReadonlyArray<Tok>, m: number, lookup: TableLookup, blocks: WithBlocks): Array<TableRef> | undefined => {
  let from = m - 1
  for (let depth = 0; from >= 0; from--) {
    if (isOp(sig[from], ")")) depth++
    else if (isOp(sig[from], "(")) depth--
    if (depth < 0 || (depth === 0 && isKw(sig[from], "SELECT"))) return undefined
    if (depth === 0 && isKw(sig[from], "FROM")) break
  }
  if (from < 0) return undefined
  const refs: Array<TableRef> = []
  for (let k = from + 1; k < m; k++) {
    const itemStart = k === from + 1 || isKw(sig[k - 1], "JOIN") || isOp(sig[k - 1], ",")
    if (isOp(sig[k], "(") && !itemStart) {
      k = matchParen(sig, k)
      if (k < 0) return undefined
      continue
    }
    if (!itemStart) continue
    const ref = refStartingAt(sig, k, lookup, blocks)
    if (ref === undefined) return undefined
    refs.push(ref)
    k = ref.end - 1
  }
  return refs.length === 0 ? undefined : refs
}

/**
 * True when the joins in tokens [from, to) of `sig` are INNER or LEFT joins one of which is NATURAL or names column
 * `c` in its USING list.
 */
const joinedBy = (sig: ReadonlyArray<Tok>, from: number, to: number, c: string): boolean => {
  let joined = false
  for (let k = from, depth = 0; k < to; k++) {
    if (isOp(sig[k], "(")) {
      if (depth === 0 && isKw(sig[k - 1], "USING") && sig.slice(k + 1, matchParen(sig, k)).some((t) => isName(t) && t.value === c)) joined = true
      depth++
    } else if (isOp(sig[k], ")")) depth--
    else if (depth === 0 && isKw(sig[k], "RIGHT", "FULL")) return false
    else if (depth === 0 && isKw(sig[k], "NATURAL")) joined = true
  }
  return joined
}

/**
 * A join of a `SELECT *` chain: the table reference joined, its USING columns (undefined for NATURAL, null for an ON
 * or CROSS join or a comma), its kind, and whether a comma joined it.
 */
interface ChainJoin {
  readonly ref: TableRef
  readonly using: ReadonlyArray<string> | undefined | null
  readonly kind: "INNER" | "LEFT" | "RIGHT" | "FULL"
  readonly comma: boolean
}

/** Words that start a join, which end an ON condition. */
const JOIN_WORDS = ["NATURAL", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "JOIN"]

/** Words that end a FROM clause. */
const FROM_END = ["WHERE", "GROUP", "ORDER", "HAVING", "CONNECT", "START", "FETCH", "OFFSET", "FOR", "UNION", "INTERSECT", "MINUS", "EXCEPT", "MODEL", "WINDOW"]

/**
 * The FROM clause whose FROM keyword is at `from` when it is table references joined by commas or joins of any kind
 * (USING, NATURAL, ON, CROSS; INNER, LEFT, RIGHT, FULL), up to a clause, a `)` or the end; undefined otherwise.
 */
const usingChain = (sig: ReadonlyArray<Tok>, from: number, lookup: TableLookup, blocks: WithBlocks): { readonly first: TableRef; readonly joins: ReadonlyArray<ChainJoin> } | undefined => {
  const first = refStartingAt(sig, from + 1, lookup, blocks)
  if (first === undefined) return undefined
  const joins: Array<ChainJoin> = []
  let k = first.end
  while (isKw(sig[k], ...JOIN_WORDS) || isOp(sig[k], ",")) {
    if (isOp(sig[k], ",")) {
      const ref = refStartingAt(sig, k + 1, lookup, blocks)
      if (ref === undefined) return undefined
      joins.push({ ref, using: null, kind: "INNER", comma: true })
      k = ref.end
      continue
    }
    const start = k
    while (isKw(sig[k], "NATURAL", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS")) k++
    const ref = isKw(sig[k], "JOIN") ? refStartingAt(sig, k + 1, lookup, blocks) : undefined
    if (ref === undefined) return undefined
    const words = sig.slice(start, k)
    const kind = words.some((t) => isKw(t, "LEFT")) ? "LEFT" : words.some((t) => isKw(t, "RIGHT")) ? "RIGHT" : words.some((t) => isKw(t, "FULL")) ? "FULL" : "INNER"
    k = ref.end
    if (words.some((t) => isKw(t, "NATURAL"))) {
      joins.push({ ref, using: undefined, kind, comma: false })
      continue
    }
    if (isKw(sig[k], "ON")) {
      // the condition: up to the next join, comma or clause at its depth
      for (k++; k < sig.length && !isOp(sig[k], ")") && !isOp(sig[k], ",") && !isKw(sig[k], ...JOIN_WORDS, ...FROM_END); k++) if (isOp(sig[k], "(")) k = matchParen(sig, k)
      if (k < 0) return undefined
      joins.push({ ref, using: null, kind, comma: false })
      continue
    }
    if (!isKw(sig[k], "USING")) {
      joins.push({ ref, using: null, kind, comma: false })
      continue
    }
    const close = isOp(sig[k + 1], "(") ? matchParen(sig, k + 1) : -1
    const names = close < 0 ? [] : sig.slice(k + 2, close).filter((t) => !isOp(t, ","))
    if (close < 0 || names.some((t) => !isName(t))) return undefined
    joins.push({ ref, using: names.map((t) => t.value), kind, comma: false })
    k = close + 1
  }
  const ends = k >= sig.length || isOp(sig[k], ")") || isKw(sig[k], ...FROM_END)
  return ends && joins.length > 0 ? { first, joins } : undefined
}

/**
 * The columns `SELECT *` lists over such a chain, as the SQL standard forms them join by join: of a USING or NATURAL
 * join its columns (the left side's, the right table's for a RIGHT join, whichever side has the row for a FULL
 * join), the left side's other columns and the right table's other columns; of any other join both sides' columns; a
 * comma joins what follows it as a join of its own (it binds less tightly than the joins).
 */
const chainStarList = (first: TableRef, joins: ReadonlyArray<ChainJoin>): Array<string> => {
  interface Item { readonly name: string; readonly text: string; readonly expression?: boolean }
  const of = (r: TableRef, c: ColumnMeta): Item => ({ name: c.name, text: `${r.qualifier}.${quoteDuck(c.name)}` })
  const done: Array<Item> = []
  let list = first.columns.map((c) => of(first, c))
  for (const { ref, using, kind, comma } of joins) {
    if (comma) {
      done.push(...list)
      list = ref.columns.map((c) => of(ref, c))
      continue
    }
    if (using === null) {
      list = [...list, ...ref.columns.map((c) => of(ref, c))]
      continue
    }
    const names = using ?? list.filter((x) => ref.columns.some((c) => c.name === x.name)).map((x) => x.name)
    const joined = new Set(names)
    const column = (n: string): Array<Item> => {
      const left = list.find((x) => x.name === n)
      if (left === undefined) return []
      const right = `${ref.qualifier}.${quoteDuck(n)}`
      return [kind === "RIGHT" ? { name: n, text: right } : kind === "FULL" ? { name: n, text: `COALESCE(${left.text}, ${right})`, expression: true } : left]
    }
    list = [...names.flatMap(column), ...list.filter((x) => !joined.has(x.name)), ...ref.columns.filter((c) => !joined.has(c.name)).map((c) => of(ref, c))]
  }
  return [...done, ...list].map((x) => (x.expression === true ? `${x.text} AS ${quoteDuck(x.name)}` : x.text))
}

interface Rewrite {
  readonly from: number
  readonly to: number
  readonly text: string
}

/** `all` with each USING / NATURAL join over text datetime columns written as an ON join (see the module comment). */
export const datetimeJoins = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  if (!all.some((t) => isKw(t, "USING", "NATURAL"))) return all
  const sig = all.filter((t) => t.kind !== "ws")
  const blocks = withBlocksOf(sig)
  const rewrites: Array<Rewrite> = []
  // the `*` select lists spelled out (a chain's once)
  const spelled = new Set<number>()
  for (let j = 0; j < sig.length; j++) {
    if (!isKw(sig[j], "JOIN")) continue
    let m = j
    while (isKw(sig[m - 1], "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "NATURAL")) m--
    const modifiers = sig.slice(m, j).map((t) => t.value)
    const natural = modifiers.includes("NATURAL")
    const single = refEndingAt(sig, m, lookup, blocks)
    const chain = single === undefined ? chainEndingAt(sig, m, lookup, blocks) : [single]
    const right = refStartingAt(sig, j + 1, lookup, blocks)
    if (chain === undefined || right === undefined) continue
    let columns: Array<string>
    let conditionEnd = right.end
    if (natural) columns = [...new Set(chain.flatMap((l) => l.columns.filter((c) => right.columns.some((r) => r.name === c.name)).map((c) => c.name)))]
    else if (isKw(sig[right.end], "USING") && isOp(sig[right.end + 1], "(")) {
      const close = matchParen(sig, right.end + 1)
      const names = sig.slice(right.end + 2, close).filter((t) => !isOp(t, ","))
      if (close < 0 || names.some((t) => !isName(t))) continue
      columns = names.map((t) => t.value)
      conditionEnd = close + 1
    } else continue
    if (natural && columns.length === 0 && [...chain, right].every((r) => r.unaliasedAt === undefined)) {
      // no common column: a cross join (of an outer join, every row of its outer side), as the SQL standard has it
      // (PostgreSQL's "Table Expressions": "If there are no common columns, NATURAL behaves like CROSS JOIN"), where
      // DuckDB refuses the join; **unconfirmed** for Oracle, whose reference does not say
      rewrites.push({ from: m + modifiers.indexOf("NATURAL"), to: m + modifiers.indexOf("NATURAL") + 1, text: "" }, { from: right.end, to: right.end, text: " ON (1 = 1) " })
      continue
    }
    const textDatetime = (name: string) => [...chain, right].some((r) => r.columns.some((c) => c.name === name && isTextDatetime(c)))
    if (columns.length === 0 || !columns.some(textDatetime)) continue
    // each join column from the one left table that has it (two would make it ambiguous), or from the first of those
    // when the chain's earlier INNER / LEFT joins joined them by it (USING or NATURAL make it one column)
    const owners = new Map(columns.map((c) => {
      const having = chain.filter((l) => l.columns.some((x) => x.name === c))
      return [c, having.length > 1 && joinedBy(sig, chain[0]!.start, m, c) ? having.slice(0, 1) : having] as const
    }))
    if ([...owners.values()].some((o) => o.length !== 1)) continue
    const leftOf = (c: string): TableRef => owners.get(c)![0]!
    const left = chain[0]!
    // the query block: from its SELECT to the end of its parenthesis (or of the statement)
    const select = blockSelectBefore(sig, m)
    if (select < 0) continue
    let blockEnd = conditionEnd
    for (let depth = 0; blockEnd < sig.length; blockEnd++) {
      if (isOp(sig[blockEnd], "(")) depth++
      else if (isOp(sig[blockEnd], ")") && --depth < 0) break
      if (depth === 0 && (isKw(sig[blockEnd], "UNION", "INTERSECT", "MINUS", "EXCEPT", "JOIN") || isOp(sig[blockEnd], ","))) break
    }
    // a `*` select list is spelled out: over the whole FROM clause of joins and commas it is one of, once; where that
    // clause has items it cannot read (a table function), other tables joined with this one would be lost, so not then
    const listStart = isKw(sig[select + 1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
    const star = isOp(sig[listStart], "*") && isKw(sig[listStart + 1], "FROM")
    const starChain = star ? usingChain(sig, listStart + 1, lookup, blocks) : undefined
    const joinedWithOthers = isKw(sig[blockEnd], "JOIN") || isOp(sig[blockEnd], ",") || chain.length > 1 || !isKw(sig[chain[0]!.start - 1], "FROM")
    if (star && starChain === undefined && joinedWithOthers) continue
    const owner = (c: string) => (modifiers.includes("RIGHT") ? right : leftOf(c))
    // a FULL join's column is whichever side has the row (the SQL standard's COALESCE of the two columns)
    const joined = (c: string) => (modifiers.includes("FULL") ? `COALESCE(${leftOf(c).qualifier}.${quoteDuck(c)}, ${right.qualifier}.${quoteDuck(c)})` : `${owner(c).qualifier}.${quoteDuck(c)}`)
    const join = new Set(columns)
    const local: Array<Rewrite> = []
    if (star && !spelled.has(listStart)) {
      spelled.add(listStart)
      const list = starChain !== undefined ? chainStarList(starChain.first, starChain.joins) : [
        ...columns.map((c) => (modifiers.includes("FULL") ? `${joined(c)} AS ${quoteDuck(c)}` : joined(c))),
        ...left.columns.filter((c) => !join.has(c.name)).map((c) => `${left.qualifier}.${quoteDuck(c.name)}`),
        ...right.columns.filter((c) => !join.has(c.name)).map((c) => `${right.qualifier}.${quoteDuck(c.name)}`)
      ]
      local.push({ from: listStart, to: listStart + 1, text: list.join(", ") })
    }
    // unqualified references to a join column in this block (not in its subqueries, nor the table references)
    for (let k = star ? listStart + 1 : listStart; k < blockEnd; k++) {
      if (isOp(sig[k], "(") && isKw(sig[k + 1], "SELECT", "WITH")) {
        k = matchParen(sig, k)
        continue
      }
      if (chain.some((l) => k >= l.start && k < l.end) || (k >= m && k < conditionEnd)) continue
      const t = sig[k]!
      if (!isName(t) || !join.has(t.value) || isOp(sig[k - 1], ".") || isOp(sig[k + 1], ".") || isOp(sig[k + 1], "(")) continue
      local.push({ from: k, to: k + 1, text: joined(t.value) })
    }
    const condition = columns.map((c) => `${leftOf(c).qualifier}.${quoteDuck(c)} = ${right.qualifier}.${quoteDuck(c)}`).join(" AND ")
    if (natural) local.push({ from: m + modifiers.indexOf("NATURAL"), to: m + modifiers.indexOf("NATURAL") + 1, text: "" })
    // parenthesised: a NATURAL join that follows is no part of the condition's last operand
    local.push(natural ? { from: right.end, to: right.end, text: ` ON (${condition}) ` } : { from: right.end, to: conditionEnd, text: ` ON (${condition})` })
    for (const r of [...chain, right]) if (r.unaliasedAt !== undefined) local.push({ from: r.unaliasedAt, to: r.unaliasedAt + 1, text: `) ${r.qualifier}` })
    rewrites.push(...local)
  }
  if (rewrites.length === 0) return all
  // rebuild from the significant tokens, each rewrite replacing its range by the tokens of its text; an insertion
  // (an empty range: a NATURAL join's ON) goes before a replacement at the same token (the next NATURAL dropped)
  const inserted = new Map<number, Array<Rewrite>>()
  for (const r of rewrites) if (r.to === r.from) inserted.set(r.from, [...(inserted.get(r.from) ?? []), r])
  const replaced = new Map(rewrites.filter((r) => r.to > r.from).map((r) => [r.from, r]))
  const out: Array<Tok> = []
  const space = (pos: number) => out.push({ kind: "ws", text: " ", value: " ", pos })
  for (let k = 0; k <= sig.length; ) {
    const pos = (sig[k] ?? sig.at(-1)!).pos
    for (const r of inserted.get(k) ?? []) {
      if (out.length > 0) space(pos)
      out.push(...tokenize(r.text).map((t) => ({ ...t, pos })))
    }
    if (k === sig.length) break
    if (out.length > 0) space(pos)
    const r = replaced.get(k)
    if (r === undefined) {
      out.push(sig[k]!)
      k++
      continue
    }
    // a column reference keeps its heading (the column's name as written)
    const heading = r.to === r.from + 1 && isName(sig[k])
    for (const [n, t] of tokenize(r.text).entries()) out.push({ ...t, pos, ...(heading ? { heading: n === 0 ? sig[k]!.text.toUpperCase() : "" } : {}) })
    k = r.to
  }
  return out
}
