/**
 * Row ids for LOB columns a query reads through a FROM subquery (an inline view) or the branches of a UNION ALL: a
 * table's LOB locator names its own row whatever query selected it (SecureFiles and Large Objects Developer's Guide,
 * "LOB Locators"), so each such column gets hidden items carrying its row id up to the query's select list. Each
 * branch or subquery selects `"rowid"` (or its subquery's hidden item) under a statement-unique name after its own
 * items; a UNION ALL branch that reads another table at that position selects NULL there, so that one hidden item per
 * source table and column serves all branches. The enclosing query's items name them last (undescribed columns).
 *
 * A star (`*`, `s.*`) over such a subquery becomes the list of its named columns, so that the hidden items stay out
 * of the result; a WITH block is read as the subquery it names (its column list, if any, naming its columns and
 * hidden items), and a subquery's expression without alias is given its heading (`ID+0`) as alias. Left as they were
 * (read-only locators): other set operations, DISTINCT and grouping (Oracle takes no LOBs there: SecureFiles and
 * Large Objects Developer's Guide, "Restrictions on SQL Operations on LOBs").
 */
import type { TableMeta } from "./catalog.ts"
import { isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import type { LobSource, QueryResult, ResultColumn } from "./statement.ts"
import { oracleName } from "./translate.ts"
import { itemHeading } from "./expression-names.ts"
import { quoteDuck } from "./names.ts"

/** Resolves a table name as the session sees it. */
type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** One place a result column's LOB may come from: its table column, and which hidden item holds the row id. */
export interface LobRowRef {
  readonly source: LobSource
  /** Index among the hidden items, in the order they follow the query's own items. */
  readonly hidden: number
}

/** The rewritten query and, per result column position, where its LOB rows come from. */
export interface DerivedLobRows {
  readonly toks: Array<Tok>
  /** How many hidden items follow the query's own items. */
  readonly hidden: number
  readonly columns: ReadonlyMap<number, ReadonlyArray<LobRowRef>>
}

/** A ref of one branch: where the value comes from and the branch's expression (Oracle text) of its row id. */
interface BranchRef {
  readonly source: LobSource
  readonly key: string
  readonly expr: string
}

/** A query level's result: per output position its refs as hidden names, and each output's name. */
interface Level {
  readonly names: ReadonlyArray<string | undefined>
  readonly refs: ReadonlyArray<ReadonlyArray<{ readonly source: LobSource; readonly key: string; readonly name: string }>>
}

const isLob = (meta: TableMeta, column: string) => meta.columns.some((c) => c.name === column && (c.type.kind === "clob" || c.type.kind === "nclob" || c.type.kind === "blob"))
/** The words of an interval literal after its text: `INTERVAL '1' DAY(2) TO SECOND(3)`. */
const INTERVAL_WORDS = new Set(["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO"])

/** Whether an item is an interval literal alone, whose last word is its unit, not an alias (SQL Language Reference, "Interval Literals"). */
const isIntervalLiteral = (part: ReadonlyArray<Tok>): boolean =>
  isKw(part[0], "INTERVAL") && part[1]?.kind === "str" && part.slice(2).every((t) => (t.kind === "ident" && INTERVAL_WORDS.has(t.value)) || t.kind === "num" || isOp(t, "(") || isOp(t, ")") || isOp(t, ","))

const NOT_ALIAS = new Set(["WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "ON", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "EXCEPT", "FETCH", "OFFSET", "HAVING", "CONNECT", "START", "NATURAL", "FOR", "USING", "PIVOT", "UNPIVOT", "OUTER"])

/**
 * The query rewritten with hidden row id items, when it reads a table's LOB column through a FROM subquery or a
 * UNION ALL; undefined otherwise (a plain query's LOB columns are the caller's: session-columns.ts lobTablesOf).
 */
export const derivedLobRows = (all: ReadonlyArray<Tok>, lookup: TableLookup): DerivedLobRows | undefined => {
  const at: Array<number> = []
  all.forEach((t, k) => {
    if (t.kind !== "ws") at.push(k)
  })
  const s = at.map((k) => all[k]!)
  // only a query with a UNION or a FROM subquery can have such columns (a cheap test first)
  if (!isKw(s[0], "SELECT", "WITH") || !s.some((t, k) => isKw(t, "UNION") || (isOp(t, "(") && isKw(s[k + 1], "SELECT")))) return undefined
  /** Token edits: `text` put at `at` of `all`, replacing `remove` tokens there; dropped ones are not made. */
  const inserts: Array<{ at: number; text: string; remove?: number; dropped?: boolean }> = []
  let counter = 0
  // WITH blocks (`name AS (query)`), read as the FROM subqueries they are where a FROM item names them; one a star
  // cannot name the columns of gives up the rewrite (another reference may use its hidden items)
  const blocks = new Map<string, { readonly open: number; readonly close: number; readonly list?: { readonly names: ReadonlyArray<string>; readonly close: number }; level?: Level | null; edits?: [number, number] }>()
  let unsafe = false
  let mainAt = 0
  if (isKw(s[0], "WITH")) {
    let k = 1
    for (;;) {
      const name = s[k]
      if (!isName(name)) return undefined
      let n = k + 1
      // `name (a, b) AS (...)`: the column list renames the block's columns
      const listClose = isOp(s[n], "(") ? matchParen(s, n) : -1
      const list = listClose < 0 ? undefined : { names: s.slice(n + 1, listClose).filter((t) => !isOp(t, ",")).map(oracleName), close: listClose }
      if (list !== undefined) n = listClose + 1
      if (!isKw(s[n], "AS") || !isOp(s[n + 1], "(")) return undefined
      const close = matchParen(s, n + 1)
      blocks.set(oracleName(name), { open: n + 1, close, ...(list !== undefined && { list }) })
      k = close + 1
      if (!isOp(s[k], ",")) break
      k++
    }
    if (!isKw(s[k], "SELECT")) return undefined
    mainAt = k
  }
  let derived = false

  /**
   * A WITH block's `level` under its column list `list`: its columns renamed, its hidden items named in the list too
   * (the edits from `first` dropped, and null, when the list does not name every column).
   */
  const renamedLevel = (level: Level | undefined, list: { readonly names: ReadonlyArray<string>; readonly close: number } | undefined, first: number): Level | null => {
    if (level === undefined || list === undefined) return level ?? null
    if (level.names.length !== list.names.length) {
      for (let e = first; e < inserts.length; e++) inserts[e]!.dropped = true
      return null
    }
    // the hidden items follow the block's own in the order they were numbered
    const hidden = [...new Set(level.refs.flatMap((refs) => refs.map((r) => r.name)))].sort((x, y) => Number(x.slice(12)) - Number(y.slice(12)))
    if (hidden.length > 0) inserts.push({ at: at[list.close]!, text: ` , ${hidden.map(quoteDuck).join(" , ")} ` })
    return { names: list.names, refs: level.refs }
  }

  /** The query [a, b) of significant tokens (SELECT at a), its branches rewritten. */
  const query = (a: number, b: number, top: boolean): Level | undefined => {
    const branches: Array<[number, number]> = []
    let start = a
    let depth = 0
    for (let k = a; k < b; k++) {
      const t = s[k]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) {
        if (!isKw(t, "UNION") || !isKw(s[k + 1], "ALL") || !isKw(s[k + 2], "SELECT")) return undefined
        branches.push([start, k])
        start = k + 2
      }
    }
    branches.push([start, b])
    const read = branches.map(([x, y]) => branch(x, y, top))
    if (read.some((r) => r === undefined)) return undefined
    if (branches.length > 1) derived = true
    // one hidden item per (position, source) over all branches
    const hidden: Array<{ position: number; key: string; source: LobSource; name: string }> = []
    read.forEach((r) =>
      r!.refs.forEach((refs, position) => {
        for (const ref of refs) if (!hidden.some((h) => h.position === position && h.key === ref.key)) hidden.push({ position, key: ref.key, source: ref.source, name: `ORA$LOB_ROW_${counter++}` })
      })
    )
    if (hidden.length > 0)
      read.forEach((r) => {
        const items = hidden.map((h) => `${r!.refs[h.position]?.find((ref) => ref.key === h.key)?.expr ?? "NULL"} AS ${quoteDuck(h.name)}`)
        inserts.push({ at: at[r!.fromAt]!, text: ` , ${items.join(" , ")} ` })
      })
    const names = read[0]!.names
    if (top && !derived) return undefined
    return { names, refs: names.map((_, position) => hidden.filter((h) => h.position === position).map((h) => ({ source: h.source, key: h.key, name: h.name }))) }
  }

  /** One SELECT [a, b): its output names, per position its refs, and where its FROM is. */
  const branch = (a: number, b: number, top: boolean): { names: Array<string | undefined>; refs: Array<Array<BranchRef>>; fromAt: number } | undefined => {
    if (!isKw(s[a], "SELECT")) return undefined
    let listStart = a + 1
    const distinct = isKw(s[listStart], "DISTINCT", "UNIQUE")
    if (distinct || isKw(s[listStart], "ALL")) listStart++
    let fromAt = -1
    let grouped = false
    let depth = 0
    for (let k = listStart; k < b; k++) {
      const t = s[k]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && isKw(t, "FROM") && fromAt < 0) fromAt = k
      else if (depth === 0 && isKw(t, "GROUP", "HAVING", "CONNECT")) grouped = true
    }
    if (fromAt < 0) return undefined
    // the select list's items
    const items: Array<Array<Tok>> = []
    const itemStarts: Array<number> = []
    let itemStart = listStart
    for (let k = listStart; k <= fromAt; k++) {
      if (k < fromAt && !isOp(s[k], ",")) {
        if (isOp(s[k], "(")) k = matchParen(s, k)
        continue
      }
      items.push(s.slice(itemStart, k))
      itemStarts.push(itemStart)
      itemStart = k + 1
    }
    // the FROM items: tables and subqueries (a subquery a star covers is not rewritten)
    const froms: Array<{ names: ReadonlyArray<string>; meta?: TableMeta; level?: Level; alias?: string; table?: string; edits?: [number, number]; shared?: boolean }> = []
    let k = fromAt + 1
    depth = 0
    for (let expectItem = true; k < b; k++) {
      const t = s[k]!
      if (depth === 0 && isKw(t, "WHERE", "GROUP", "ORDER", "CONNECT", "START", "HAVING", "FETCH", "OFFSET", "FOR")) break
      if (depth === 0 && expectItem) {
        expectItem = false
        if (isOp(t, "(") && isKw(s[k + 1], "SELECT")) {
          const close = matchParen(s, k)
          let n = close + 1
          if (isKw(s[n], "AS")) n++
          const alias = isName(s[n]) && !(s[n]!.kind === "ident" && NOT_ALIAS.has(s[n]!.value)) ? oracleName(s[n]!) : undefined
          const first = inserts.length
          const level = query(k + 1, close, false)
          froms.push({ names: level?.names.map((n) => n ?? "") ?? [], ...(level !== undefined && { level }), ...(alias !== undefined && { alias }), edits: [first, inserts.length] })
          k = close
          continue
        }
        if (isName(t)) {
          const qualified = isOp(s[k + 1], ".") && isName(s[k + 2])
          const table = oracleName(qualified ? s[k + 2]! : t)
          let n = qualified ? k + 3 : k + 1
          if (isKw(s[n], "AS")) n++
          const alias = isName(s[n]) && !(s[n]!.kind === "ident" && NOT_ALIAS.has(s[n]!.value)) ? oracleName(s[n]!) : undefined
          const block = qualified ? undefined : blocks.get(table)
          if (block !== undefined) {
            if (block.level === undefined) {
              const first = inserts.length
              // a recursive WITH block reads itself: no LOB rows through that reference
              block.level = null
              block.level = renamedLevel(query(block.open + 1, block.close, false), block.list, first)
              block.edits = [first, inserts.length]
            }
            const level = block.level ?? undefined
            froms.push({ names: level?.names.map((x) => x ?? "") ?? [], ...(level !== undefined && { level }), ...(alias !== undefined && { alias }), table, shared: true })
            continue
          }
          const meta = lookup(qualified ? oracleName(t) : undefined, table)
          froms.push({ names: meta?.columns.map((c) => c.name) ?? [], ...(meta?.kind === "TABLE" && { meta }), ...(alias !== undefined && { alias }), table })
          continue
        }
      }
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && (isOp(t, ",") || isKw(t, "JOIN"))) expectItem = true
    }
    const names: Array<string | undefined> = []
    const refs: Array<Array<BranchRef>> = []
    const rowidOf = (f: (typeof froms)[number], column: string): Array<BranchRef> => {
      const q = f.alias ?? f.table
      const prefix = froms.length > 1 && q !== undefined ? `${quoteDuck(q)}.` : ""
      if (f.meta !== undefined && isLob(f.meta, column)) {
        const source = { owner: f.meta.owner, table: f.meta.name, column }
        return [{ source, key: `${source.owner}.${source.table}.${column}`, expr: `${prefix}"ROWID"` }]
      }
      const position = f.names.indexOf(column)
      if (f.level === undefined || position < 0) return []
      derived = true
      return (f.level.refs[position] ?? []).map((r) => ({ source: r.source, key: r.key, expr: `${prefix}${quoteDuck(r.name)}` }))
    }
    const named = (q: string | undefined) => froms.filter((f) => q === undefined || f.alias === q || (f.alias === undefined && f.table === q))
    for (const [n, part] of items.entries()) {
      if (isOp(part[part.length - 1], "*")) {
        const covered = named(part.length === 3 ? oracleName(part[0]!) : undefined)
        // a star over a subquery with hidden items names its columns instead (the hidden ones left out), when it can
        const expanded: Array<string> = []
        let expand = false
        for (const f of covered) {
          const hidden = f.level?.refs.some((r) => r.length > 0) === true
          const nameable = f.level !== undefined && f.level.names.every((x) => x !== undefined) && (f.alias !== undefined || froms.length === 1)
          if (hidden && !nameable) {
            // its hidden items would become columns: the subquery is left as it was
            if (f.shared === true) unsafe = true
            else for (let e = f.edits![0]; e < f.edits![1]; e++) inserts[e]!.dropped = true
            delete f.level
          }
          expand ||= hidden && nameable
          const prefix = f.alias !== undefined ? `${quoteDuck(f.alias)}.` : ""
          if (f.level !== undefined) expanded.push(...f.names.map((x) => `${prefix}${quoteDuck(x)}`))
          else expanded.push(`${quoteDuck(f.alias ?? f.table ?? "")}.*`)
        }
        if (expand) {
          if (covered.some((f) => f.level === undefined && f.alias === undefined && f.table === undefined)) return undefined
          const first = at[itemStarts[n]!]!
          inserts.push({ at: first, remove: at[itemStarts[n]! + part.length - 1]! - first + 1, text: ` ${expanded.join(" , ")} ` })
        }
        for (const f of covered)
          for (const column of f.names) {
            names.push(column)
            refs.push(grouped || distinct || (f.meta === undefined && f.level === undefined) ? [] : rowidOf(f, column))
          }
        continue
      }
      const asAlias = part.length >= 3 && isKw(part[part.length - 2], "AS") && isName(part[part.length - 1])
      const bare = !asAlias && (part.length === 2 || (part.length === 4 && isOp(part[1], "."))) && isName(part[part.length - 1])
      const body = asAlias ? part.slice(0, -2) : bare ? part.slice(0, -1) : part
      const alias = asAlias || bare ? oracleName(part[part.length - 1]!) : undefined
      const plain = (body.length === 1 && isName(body[0])) || (body.length === 3 && isName(body[0]) && isOp(body[1], ".") && isName(body[2]))
      const column = plain ? oracleName(body[body.length - 1]!) : undefined
      // an unnamed expression of a subquery: named by its heading, as Oracle names its column, so a star can list it
      // (not one ending in a word that may be an alias, `x + 0 y`; a `CASE ... END` whose last END closes a CASE is none)
      const [before, last] = part.slice(-2)
      const caseEnd = isKw(last, "END") && part.filter((t) => isKw(t, "CASE")).length === part.filter((t) => isKw(t, "END")).length
      const ambiguous = part.length >= 2 && isName(last) && !caseEnd && !isIntervalLiteral(part) && !isOp(before, ".") && (before!.kind !== "op" || isOp(before, ")"))
      const heading = alias === undefined && column === undefined && !top && !ambiguous ? itemHeading(part) : undefined
      if (heading !== undefined) inserts.push({ at: at[itemStarts[n]! + part.length]!, text: ` AS ${quoteDuck(heading)} ` })
      names.push(alias ?? column ?? heading)
      const source = column === undefined || grouped || distinct ? undefined : named(body.length === 3 ? oracleName(body[0]!) : undefined).find((f) => f.names.includes(column))
      refs.push(source === undefined ? [] : rowidOf(source, column!))
    }
    return { names, refs, fromAt }
  }

  const top = query(mainAt, s.length, true)
  if (unsafe || top === undefined || !top.refs.some((r) => r.length > 0)) return undefined
  // the hidden names of the top level, in the order its hidden items were inserted (the first branch's)
  const order = top.refs.flatMap((refs) => refs.map((r) => r.name)).sort((x, y) => Number(x.slice(12)) - Number(y.slice(12)))
  const columns = new Map<number, Array<LobRowRef>>()
  top.refs.forEach((refs, position) => {
    if (refs.length > 0) columns.set(position, refs.map((r) => ({ source: r.source, hidden: order.indexOf(r.name) })))
  })
  const toks = [...all]
  // spaced as the query is (PL/SQL's statements come without whitespace tokens)
  const spaced = all.some((t) => t.kind === "ws")
  for (const ins of inserts.filter((e) => e.dropped !== true).sort((x, y) => y.at - x.at))
    toks.splice(ins.at, ins.remove ?? 0, ...tokenize(ins.text).filter((t) => spaced || t.kind !== "ws").map((t) => ({ ...t, pos: all[ins.at]!.pos })))
  return { toks, hidden: order.length, columns }
}

/** The described columns with the LOB rows {@link derivedLobRows} found (lobSource, lobRowid, lobOtherRows). */
export const withDerivedLobRows = (columns: ReadonlyArray<ResultColumn>, derived: DerivedLobRows): Array<ResultColumn> =>
  columns.map((c, position) => {
    const refs = derived.columns.get(position)
    const lob = c.type.kind === "clob" || c.type.kind === "nclob" || c.type.kind === "blob"
    // the row ids follow only the hidden items: no other column names a row
    const { lobSource: _source, lobRowid: _rowid, lobOtherRows: _others, ...plain } = c
    if (refs === undefined || refs.length === 0 || !lob || c.lobTemporary === true) return plain
    const [first, ...others] = refs
    return { ...plain, lobSource: first!.source, lobRowid: first!.hidden, ...(others.length > 0 && { lobOtherRows: others.map((r) => ({ source: r.source, rowid: r.hidden })) }) }
  })

/** A query result whose last columns are the hidden items of `derived`: described without them, their LOB rows set. */
export const hidingDerivedLobRows = (result: QueryResult, derived: DerivedLobRows): QueryResult => {
  const described = result.columns.length - derived.hidden
  return { ...result, columns: withDerivedLobRows(result.columns.slice(0, described), derived), rowidColumn: described }
}
