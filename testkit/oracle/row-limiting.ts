/**
 * The row_limiting_clause forms DuckDB's LIMIT cannot say (SQL Language Reference, SELECT, "row_limiting_clause"):
 * `FETCH {FIRST | NEXT} n PERCENT ROWS ...` (a percentage of the query's rows, rounded up: Oracle's own plan filters on
 * `CEIL(total * percent / 100)`) and `... WITH TIES` ("return all rows that have the same sort keys as the last row of
 * the row-limited result set"; without an ORDER BY no additional rows), each after an optional `OFFSET m ROWS` (a
 * negative offset is 0, a fraction truncated, as the rowcount's). They become a DuckDB `QUALIFY` over the query's
 * ORDER BY, written just before it: row_number() past the offset, and up to offset + n by row_number() (ONLY) or by
 * rank() (WITH TIES). `FETCH ... n ROWS ONLY` stays LIMIT (translate-calls.ts).
 *
 * {@link rowLimitingSql} renders the ORDER, OFFSET and FETCH keywords of such a query; {@link withRowLimitPositions}
 * replaces an ORDER BY position of such a query by the select item it names beforehand (a window orders by
 * expressions only). A DISTINCT query or a set operation so limited (where Oracle limits the combined, de-duplicated
 * rows, and a QUALIFY would filter one branch's rows before them) becomes `SELECT * FROM (query) ORDER BY ... FETCH
 * ...` first ({@link withRowLimitBlocks}); its ORDER BY then names the result's columns (positions by the first
 * branch's aliases or column names, qualifiers dropped); a position of an unaliased expression there is ORA-03001.
 */
import { ora } from "./errors.ts"
import { isKw, isOp, matchParen, tokenize, type Tok } from "./lexer.ts"
import type { TranslatorCore } from "./translate-core.ts"

/** A `FETCH` clause: its count's token range (none: 1 row), PERCENT, WITH TIES, and the index after it. */
interface FetchClause {
  readonly count: readonly [number, number] | undefined
  readonly percent: boolean
  readonly ties: boolean
  readonly end: number
}

/** The row_limiting_clause of a query block: its OFFSET (keyword index, expression range) and FETCH. */
interface RowLimit {
  readonly offsetAt: number | undefined
  readonly offset: readonly [number, number] | undefined
  readonly fetchAt: number
  readonly fetch: FetchClause
}

/** The FETCH clause starting at `at`, when it is one. */
const fetchClauseAt = (toks: ReadonlyArray<Tok>, at: number): FetchClause | undefined => {
  if (!isKw(toks[at], "FETCH") || !isKw(toks[at + 1], "FIRST", "NEXT")) return undefined
  let k = at + 2
  const start = k
  while (k < toks.length && !isKw(toks[k], "ROW", "ROWS", "PERCENT")) k = isOp(toks[k], "(") ? matchParen(toks, k) + 1 : k + 1
  const count: readonly [number, number] | undefined = k > start ? [start, k] : undefined
  const percent = isKw(toks[k], "PERCENT")
  if (percent) k++
  if (!isKw(toks[k], "ROW", "ROWS")) return undefined
  k++
  const ties = isKw(toks[k], "WITH") && isKw(toks[k + 1], "TIES")
  if (ties) k += 2
  else if (isKw(toks[k], "ONLY")) k++
  else return undefined
  return { count, percent, ties, end: k }
}

/** Index of the next token at depth 0 of the block from `from` (not past its closing parenthesis) matching `match`. */
const nextAtDepth = (toks: ReadonlyArray<Tok>, from: number, match: (k: number) => boolean): number => {
  let depth = 0
  for (let k = from; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) {
      if (--depth < 0) return -1
    } else if (depth === 0 && (isOp(toks[k], ";") || match(k))) return isOp(toks[k], ";") ? -1 : k
  }
  return -1
}

/** Index of the previous token at depth 0 of the block before `from` (not before its opening parenthesis) matching `match`. */
const previousAtDepth = (toks: ReadonlyArray<Tok>, from: number, match: (k: number) => boolean): number => {
  let depth = 0
  for (let k = from - 1; k >= 0; k--) {
    if (isOp(toks[k], ")")) depth++
    else if (isOp(toks[k], "(")) {
      if (--depth < 0) return -1
    } else if (depth === 0 && match(k)) return k
  }
  return -1
}

/** The row limit of the query block whose ORDER BY, OFFSET or FETCH keyword is at `at`. */
const rowLimitFrom = (toks: ReadonlyArray<Tok>, at: number): RowLimit | undefined => {
  const offsetAt = isKw(toks[at], "OFFSET") ? at : isKw(toks[at], "FETCH") ? undefined : nextAtDepth(toks, at, (k) => isKw(toks[k], "OFFSET", "FETCH"))
  let fetchAt = at
  let offset: readonly [number, number] | undefined
  if (offsetAt !== undefined && offsetAt >= 0 && isKw(toks[offsetAt], "OFFSET")) {
    const rows = nextAtDepth(toks, offsetAt + 1, (k) => isKw(toks[k], "ROW", "ROWS"))
    if (rows < 0) return undefined
    offset = [offsetAt + 1, rows]
    fetchAt = rows + 1
  } else if (offsetAt !== undefined) {
    if (offsetAt < 0) return undefined
    fetchAt = offsetAt
  }
  const fetch = fetchClauseAt(toks, fetchAt)
  if (fetch === undefined) return undefined
  return { offsetAt: offset === undefined ? undefined : offset[0] - 1, offset, fetchAt, fetch }
}

/** The ORDER keyword of the ORDER BY before `at` in its query block, or -1. */
const orderBefore = (toks: ReadonlyArray<Tok>, at: number): number => previousAtDepth(toks, at, (k) => isKw(toks[k], "ORDER") && isKw(toks[k + 1], "BY"))

/** ORA-03001 for a PERCENT / WITH TIES limit of a DISTINCT query or a set operation. */
const checkPlainBlock = (toks: ReadonlyArray<Tok>, at: number): void => {
  if (previousAtDepth(toks, at, (k) => isKw(toks[k], "UNION", "INTERSECT", "MINUS", "EXCEPT")) >= 0)
    throw ora.unimplemented("FETCH ... PERCENT | WITH TIES after a set operation")
  const select = previousAtDepth(toks, at, (k) => isKw(toks[k], "SELECT"))
  if (select >= 0 && isKw(toks[select + 1], "DISTINCT", "UNIQUE")) throw ora.unimplemented("FETCH ... PERCENT | WITH TIES of a DISTINCT query")
}

/** Whether the limit needs a QUALIFY: a percentage, or ties with an ORDER BY to tie on. */
const needsQualify = (limit: RowLimit, ordered: boolean): boolean => limit.fetch.percent || (limit.fetch.ties && ordered)

/** The ORDER / OFFSET / FETCH keyword being rendered inside the window of its own QUALIFY, per translator. */
const rendering = new WeakMap<TranslatorCore, Set<number>>()

/** The QUALIFY condition of `limit` over the window order `order` (`""`: none). */
const qualify = (tr: TranslatorCore, limit: RowLimit, order: string): string => {
  const window = `OVER (${order})`
  const rowNumber = `row_number() ${window}`
  const offset = limit.offset === undefined ? undefined : `greatest(trunc(CAST(${tr.range(limit.offset[0], limit.offset[1])} AS DOUBLE)), 0)`
  const count = limit.fetch.count === undefined ? "1" : `CAST(${tr.range(limit.fetch.count[0], limit.fetch.count[1])} AS DOUBLE)`
  const rows = limit.fetch.percent ? `ceil(count(*) OVER () * ${count} / 100)` : `trunc(${count})`
  const last = offset === undefined ? rows : `${offset} + ${rows}`
  const kept = `${limit.fetch.ties && order !== "" ? `rank() ${window}` : rowNumber} <= ${last}`
  return `QUALIFY ${offset === undefined ? kept : `${rowNumber} > ${offset} AND ${kept}`}`
}

/**
 * The DuckDB text of the ORDER, OFFSET or FETCH keyword at `i` and the index after what it covers, when it belongs to
 * a PERCENT or WITH TIES row limit: `QUALIFY ... ORDER` for the ORDER keyword, nothing for OFFSET / FETCH (QUALIFY
 * at FETCH's place when the query has no ORDER BY).
 */
export const rowLimitingSql = (tr: TranslatorCore, i: number): [string, number] | undefined => {
  const toks = tr.toks
  const t = toks[i]
  if (!isKw(t, "ORDER", "OFFSET", "FETCH") || rendering.get(tr)?.has(i) === true) return undefined
  if (isKw(t, "ORDER") && !isKw(toks[i + 1], "BY")) return undefined
  const limit = rowLimitFrom(toks, i)
  if (limit === undefined) return undefined
  const orderAt = isKw(t, "ORDER") ? i : orderBefore(toks, limit.offsetAt ?? limit.fetchAt)
  if (!needsQualify(limit, orderAt >= 0)) return undefined
  checkPlainBlock(toks, i)
  if (isKw(t, "OFFSET")) return ["", limit.fetchAt]
  if (isKw(t, "FETCH")) return [orderAt >= 0 ? "" : qualify(tr, limit, ""), limit.fetch.end]
  const own = rendering.get(tr) ?? new Set<number>()
  rendering.set(tr, own)
  own.add(i)
  try {
    return [`${qualify(tr, limit, tr.range(i, limit.offsetAt ?? limit.fetchAt))} ORDER`, i + 1]
  } finally {
    own.delete(i)
  }
}

const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))

/** The significant-token ranges of the select items of the SELECT at `select` (up to its FROM), or undefined. */
const selectItems = (s: ReadonlyArray<Tok>, select: number): Array<[number, number]> | undefined => {
  const from = nextAtDepth(s, select + 1, (k) => isKw(s[k], "FROM"))
  if (from < 0) return undefined
  const items: Array<[number, number]> = []
  let start = isKw(s[select + 1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
  for (let k = start; k <= from; k++) {
    if (isOp(s[k], "(")) k = matchParen(s, k)
    else if (k === from || isOp(s[k], ",")) {
      items.push([start, k])
      start = k + 1
    }
  }
  return items
}

/** The name a select item [a, b) gives its column when it is an alias or a (qualified) column, else undefined. */
const itemName = (s: ReadonlyArray<Tok>, [a, b]: [number, number]): Tok | undefined => {
  const last = s[b - 1]!
  const before = s[b - 2]
  if (last.kind !== "ident" && last.kind !== "qident") return undefined
  if (b - a === 1) return last
  if (isKw(last, "END")) return undefined
  if (isKw(before, "AS") || before?.kind === "ident" || before?.kind === "qident" || isOp(before, ")")) return last
  // t.column
  for (let k = a; k < b - 1; k += 2) if (!(s[k]!.kind === "ident" || s[k]!.kind === "qident") || !isOp(s[k + 1], ".")) return undefined
  return last
}

/**
 * `toks` with each DISTINCT query or set operation limited by PERCENT or WITH TIES wrapped as `SELECT * FROM (query)`
 * before its ORDER BY / OFFSET / FETCH, the ORDER BY naming the wrapped query's columns.
 */
export const withRowLimitBlocks = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "PERCENT", "TIES"))) return toks
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const s = sig.map((k) => toks[k]!)
  const before = new Map<number, Array<Tok>>()
  const replaced = new Map<number, Array<Tok>>()
  for (let f = 0; f < s.length; f++) {
    const fetch = fetchClauseAt(s, f)
    if (fetch === undefined) continue
    const offset = previousAtDepth(s, f, (k) => isKw(s[k], "OFFSET"))
    const limitAt = offset >= 0 && nextAtDepth(s, offset, (k) => isKw(s[k], "FETCH")) === f ? offset : f
    const order = orderBefore(s, limitAt)
    if (!fetch.percent && !(fetch.ties && order >= 0)) continue
    const end = order >= 0 ? order : limitAt
    // the query block: from its enclosing parenthesis (or the statement's start) to `end`
    let depth = 0
    let blockOpen = -1
    for (let k = end - 1; k >= 0; k--) {
      if (isOp(s[k], ")")) depth++
      else if (isOp(s[k], "(") && --depth < 0) {
        blockOpen = k
        break
      }
    }
    const main = nextAtDepth(s, blockOpen + 1, (k) => isKw(s[k], "SELECT") || (isOp(s[k], "(") && isKw(s[k + 1], "SELECT", "WITH")))
    if (main < 0 || main >= end) continue
    const setOperation = nextAtDepth(s, main, (k) => k < end && isKw(s[k], "UNION", "INTERSECT", "MINUS", "EXCEPT"))
    const distinct = isKw(s[main], "SELECT") && isKw(s[main + 1], "DISTINCT", "UNIQUE")
    if (!(setOperation >= 0 && setOperation < end) && !distinct) continue
    const firstSelect = isKw(s[main], "SELECT") ? main : nextAtDepth(s, main + 1, (k) => isKw(s[k], "SELECT"))
    const items = firstSelect < 0 ? undefined : selectItems(s, firstSelect)
    if (order >= 0) {
      // an ORDER BY item that repeats a select item's expression names its column (alias or column name)
      // a select item's expression, without its alias
      const expressionOf = ([a, b]: [number, number]): [number, number] => {
        const last = s[b - 1]
        const prev = s[b - 2]
        if (b - a < 2 || (last?.kind !== "ident" && last?.kind !== "qident") || isKw(last, "END")) return [a, b]
        if (isKw(prev, "AS")) return [a, b - 2]
        return prev?.kind === "ident" || prev?.kind === "qident" || isOp(prev, ")") ? [a, b - 1] : [a, b]
      }
      const same = (x: [number, number], y: [number, number]) => x[1] - x[0] === y[1] - y[0] && s.slice(x[0], x[1]).every((t, n) => t.kind === s[y[0] + n]!.kind && t.value === s[y[0] + n]!.value)
      let itemFrom = order + 2
      for (let k = order + 2; k <= limitAt; k++) {
        if (isOp(s[k], "(")) k = matchParen(s, k)
        else if (k === limitAt || isOp(s[k], ",")) {
          let e = k
          while (e > itemFrom + 1 && isKw(s[e - 1], "ASC", "DESC", "NULLS", "FIRST", "LAST")) e--
          const match = items?.find((item) => same(expressionOf(item), [itemFrom, e]))
          const name = match === undefined ? undefined : itemName(s, match)
          if (name !== undefined && e - itemFrom > 1) {
            replaced.set(sig[itemFrom]!, [name])
            for (let j = itemFrom + 1; j < e; j++) replaced.set(sig[j]!, [])
          }
          itemFrom = k + 1
        }
      }
      for (let k = order + 2; k < limitAt; k++) {
        if (replaced.has(sig[k]!)) continue
        const t = s[k]!
        const itemStart = isOp(s[k - 1], ",") || isKw(s[k - 1], "BY")
        if (itemStart && t.kind === "num" && (k + 1 === limitAt || isOp(s[k + 1], ",") || isKw(s[k + 1], "ASC", "DESC", "NULLS"))) {
          const item = items?.[Number(t.value) - 1]
          const name = item === undefined ? undefined : itemName(s, item)
          if (name === undefined) throw ora.unimplemented("ORDER BY the position of an expression with FETCH ... PERCENT | WITH TIES over DISTINCT or a set operation")
          replaced.set(sig[k]!, [name])
        } else if ((t.kind === "ident" || t.kind === "qident") && isOp(s[k + 1], ".") && (s[k + 2]?.kind === "ident" || s[k + 2]?.kind === "qident") && !isOp(s[k - 1], ".")) {
          // a qualified column names the wrapped query's column
          replaced.set(sig[k]!, [])
          replaced.set(sig[k + 1]!, [])
        }
      }
    }
    before.set(sig[main]!, generated("SELECT * FROM (", s[main]!.pos))
    before.set(sig[end]!, [...(before.get(sig[end]!) ?? []), ...generated(") ", s[end]!.pos)])
  }
  if (before.size === 0 && replaced.size === 0) return toks
  return toks.flatMap((t, k) => [...(before.get(k) ?? []), ...(replaced.get(k) ?? [t])])
}

/**
 * `toks` with each ORDER BY position (`ORDER BY 2 DESC`) of a query limited by PERCENT or WITH TIES replaced by the
 * select item it names: its alias or column, else its expression in parentheses.
 */
export const withRowLimitPositions = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "PERCENT", "TIES"))) return toks
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const s = sig.map((k) => toks[k]!)
  const replaced = new Map<number, Array<Tok>>()
  for (let j = 0; j < s.length; j++) {
    if (!isKw(s[j], "ORDER") || !isKw(s[j + 1], "BY")) continue
    const limit = rowLimitFrom(s, j)
    if (limit === undefined || !needsQualify(limit, true)) continue
    const select = previousAtDepth(s, j, (k) => isKw(s[k], "SELECT"))
    const items = select < 0 ? undefined : selectItems(s, select)
    if (items === undefined) continue
    const end = limit.offsetAt ?? limit.fetchAt
    for (let k = j + 2; k < end; k++) {
      const n = s[k]!
      if (n.kind !== "num" || !(isOp(s[k - 1], ",") || isKw(s[k - 1], "BY")) || !(k + 1 === end || isOp(s[k + 1], ",") || isKw(s[k + 1], "ASC", "DESC", "NULLS"))) continue
      const item = items[Number(n.value) - 1]
      if (item === undefined) continue
      const [a, b] = item
      const last = s[b - 1]!
      const before = s[b - 2]
      const aliased = b - a >= 2 && !isKw(last, "END") && (last.kind === "ident" || last.kind === "qident") && (isKw(before, "AS") || before?.kind === "ident" || before?.kind === "qident" || isOp(before, ")"))
      if (isOp(last, "*")) throw ora.unimplemented("ORDER BY the position of a * item with FETCH ... PERCENT | WITH TIES")
      replaced.set(sig[k]!, aliased || b - a === 1 ? [last] : [...generated("(", n.pos), ...toks.slice(sig[a]!, sig[b - 1]! + 1), ...generated(")", n.pos)])
    }
  }
  if (replaced.size === 0) return toks
  return toks.flatMap((t, k) => replaced.get(k) ?? [t])
}
