/**
 * The `*` and `q.*` select items of an `INSERT ... SELECT` written as the columns they stand for, when a table of the
 * statement has a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) column (kept as text): with one item per column,
 * datetime-writes.ts casts each item written into a DATE or TIMESTAMP(0-6) column to it, which the translator renders
 * as the value's own wall clock (Oracle drops the zone converting to DATE or TIMESTAMP, Database Globalization Support
 * Guide, "Datetime Data Types and Time Zone Support"), and the items of a subquery reach the enclosing query as the
 * zoned columns they are (zoned-aliases.ts). Handled: stars over named tables, WITH blocks and parenthesised
 * subqueries (a subquery's own WITH clause too; their items named by alias or column, their own stars expanded alike)
 * joined with ON or by commas; any other star is left as written.
 */
import type { ColumnMeta } from "./catalog.ts"
import { blockSelectBefore, findTopLevel, isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import type { TableLookup } from "./number-writes.ts"
import { numberType } from "./types.ts"
import { headingOf } from "./expression-names.ts"
import { quoteDuck } from "./names.ts"



/** Words that end a FROM item rather than alias it. */
const NOT_ALIAS = new Set(["WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "ON", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "EXCEPT", "FETCH", "OFFSET", "HAVING", "CONNECT", "START", "NATURAL", "FOR", "USING", "PIVOT", "UNPIVOT", "SAMPLE", "PARTITION"])

/** Words that end a FROM clause. */
const FROM_END = new Set(["WHERE", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "EXCEPT", "FETCH", "OFFSET", "HAVING", "CONNECT", "START", "FOR"])

/** A FROM item: the name that qualifies its columns (undefined for an unaliased subquery) and its column names. */
interface Source {
  readonly qualifier: string | undefined
  readonly columns: ReadonlyArray<string>
  /** The columns its USING or NATURAL join makes one with those of the items before it ("natural": every shared name). */
  merged?: ReadonlyArray<string> | "natural"
}

/** True for a text datetime column (see the module comment). */
const isTextDatetime = (c: { type: { kind: string; duck: string } }): boolean =>
  c.type.kind === "timestamptz" || (c.type.duck === "VARCHAR" && (c.type.kind === "timestamp" || c.type.kind === "timestampltz"))

/** The FROM items of the FROM clause at `fromAt` of `sig` (up to `end`); undefined when one is not handled. */
const sourcesOf = (sig: ReadonlyArray<Tok>, fromAt: number, end: number, lookup: TableLookup): Array<Source> | undefined => {
  const out: Array<Source> = []
  let k = fromAt + 1
  let natural = false
  for (;;) {
    let source: Source | undefined
    if (isOp(sig[k], "(") && isKw(sig[k + 1], "SELECT", "WITH")) {
      const close = matchParen(sig, k)
      const select = queryAfterWith(sig, k + 1)
      if (close < 0 || select < 0) return undefined
      const columns = selectNames(sig, select, close, lookup)
      if (columns === undefined) return undefined
      k = close + 1
      if (isKw(sig[k], "AS")) k++
      const alias = isName(sig[k]) && !NOT_ALIAS.has(sig[k]!.value) ? sig[k++]!.text : undefined
      source = { qualifier: alias, columns }
    } else if (isName(sig[k]) && !NOT_ALIAS.has(sig[k]!.value)) {
      const qualified = isOp(sig[k + 1], ".") && isName(sig[k + 2])
      // a WITH block's name hides a table of that name (SQL Language Reference, SELECT, subquery_factoring_clause)
      const block = qualified ? undefined : withBlockColumns(sig, sig[k]!.value, lookup)
      const columns = block ?? (qualified ? lookup(sig[k]!.value, sig[k + 2]!.value) : lookup(undefined, sig[k]!.value))?.columns.map((c) => c.name)
      if (columns === undefined) return undefined
      const table = sig[qualified ? k + 2 : k]!.text
      k += qualified ? 3 : 1
      const alias = isName(sig[k]) && !NOT_ALIAS.has(sig[k]!.value) ? sig[k++]!.text : undefined
      source = { qualifier: alias ?? table, columns }
    } else return undefined
    if (natural) source.merged = "natural"
    natural = false
    out.push(source)
    // to the next FROM item: after a comma or a JOIN (an ON condition skipped), else the end of the clause
    let next = k
    for (let depth = 0; next < end; next++) {
      const t = sig[next]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && (isOp(t, ",") || isKw(t, "JOIN") || (isKw(t, ...FROM_END) && t.kind === "ident"))) break
      else if (depth === 0 && isKw(t, "NATURAL")) natural = true
      else if (depth === 0 && isKw(t, "USING") && isOp(sig[next + 1], "(")) {
        const close = matchParen(sig, next + 1)
        source.merged = sig.slice(next + 2, close).filter(isName).map((x) => x.value)
        next = close
      }
    }
    if (next >= end || isKw(sig[next], ...FROM_END)) return out
    k = next + 1
  }
}

/** The SELECT of the query at `at`, after its WITH clause when it has one (`WITH w AS (...), ... SELECT`); -1 when none. */
const queryAfterWith = (sig: ReadonlyArray<Tok>, at: number): number => {
  if (isKw(sig[at], "SELECT")) return at
  if (!isKw(sig[at], "WITH")) return -1
  for (let k = at + 1; k < sig.length; k++) {
    if (isOp(sig[k], "(")) k = matchParen(sig, k)
    else if (isKw(sig[k], "SELECT")) return k
    if (k < 0) return -1
  }
  return -1
}

/**
 * The column names of the statement's WITH block `name` (`WITH name [(cols)] AS (SELECT ...)`): its column list, or
 * its query's select list's names; undefined when the statement has no such block or an item has no name.
 */
export const withBlockColumns = (sig: ReadonlyArray<Tok>, name: string, lookup: TableLookup): Array<string> | undefined => {
  for (let k = 1; k < sig.length; k++) {
    if (!(isKw(sig[k - 1], "WITH") || isOp(sig[k - 1], ",")) || !isName(sig[k]) || sig[k]!.value !== name) continue
    const list = isOp(sig[k + 1], "(") ? matchParen(sig, k + 1) : k
    const open = list + 2
    if (list < 0 || !isKw(sig[list + 1], "AS") || !isOp(sig[open], "(") || !isKw(sig[open + 1], "SELECT")) continue
    if (list > k) return sig.slice(k + 2, list).filter(isName).map((t) => t.value)
    return selectNames(sig, open + 1, matchParen(sig, open), lookup)
  }
  return undefined
}

/** The column names the select list of the query `SELECT ...` at `select` (up to `end`) gives; undefined when one has none. */
const selectNames = (sig: ReadonlyArray<Tok>, select: number, end: number, lookup: TableLookup): Array<string> | undefined => {
  let start = select + 1
  if (isKw(sig[start], "DISTINCT", "UNIQUE", "ALL")) start++
  const fromAt = findTopLevel(sig, start, end, (t) => isKw(t, "FROM"))
  if (fromAt < 0) return undefined
  const names: Array<string> = []
  let itemStart = start
  for (let k = start; k <= fromAt; k++) {
    if (k < fromAt && !isOp(sig[k], ",")) {
      if (isOp(sig[k], "(")) k = matchParen(sig, k)
      continue
    }
    const part = sig.slice(itemStart, k)
    itemStart = k + 1
    const star = starOf(part)
    if (star !== undefined) {
      const expanded = starColumns(sig, fromAt, end, star.qualifier, lookup)
      if (expanded === undefined) return undefined
      names.push(...expanded.map((c) => c.name))
      continue
    }
    const last = part[part.length - 1]
    const before = part[part.length - 2]
    // an alias, or the column a reference names
    const literal = before !== undefined && (before.kind === "str" || before.kind === "num")
    // (not the unit ending an interval literal, `t + INTERVAL '1' HOUR`, nor a CASE's END)
    const named = isName(last) && !isKw(last, "END") && !(isKw(last, "LOCAL") && isKw(before, "AT")) && !(isKw(last, "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND") && part.some((t) => isKw(t, "INTERVAL")))
    if (named && (part.length === 1 || literal || isKw(before, "AS") || isOp(before, ".") || isOp(before, ")") || isName(before))) names.push(last.value)
    // an expression without an alias: its heading, under which the translator passes it on (translate.ts nestedHeadings)
    else if (part.length > 1) names.push(headingOf(part))
    else return undefined
  }
  return names
}

/**
 * The columns of the parenthesised subquery `(SELECT ...)` opening at `open` of `sig`, named as its select list names
 * them, each typed as the column of that name of a table it reads (a number when none has one); undefined when an
 * item has no name.
 */
export const subqueryColumns = (sig: ReadonlyArray<Tok>, open: number, lookup: TableLookup): Array<ColumnMeta> | undefined => {
  const close = matchParen(sig, open)
  if (close < 0 || !isKw(sig[open + 1], "SELECT")) return undefined
  const names = selectNames(sig, open + 1, close, lookup)
  if (names === undefined) return undefined
  const read: Array<ColumnMeta> = []
  for (let k = open + 1; k < close; k++) if (isName(sig[k]) && !isOp(sig[k - 1], ".")) read.push(...(lookup(undefined, sig[k]!.value)?.columns ?? []))
  return names.map((name) => {
    const same = read.filter((c) => c.name === name)
    return same.find(isTextDatetime) ?? same[0] ?? { name, type: numberType(), nullable: true, defaultText: null }
  })
}

/** A select item that is `*` or `q.*`, with its qualifier. */
const starOf = (part: ReadonlyArray<Tok>): { readonly qualifier: string | undefined } | undefined => {
  if (part.length === 1 && isOp(part[0], "*")) return { qualifier: undefined }
  if (part.length === 3 && isName(part[0]) && isOp(part[1], ".") && isOp(part[2], "*")) return { qualifier: part[0].value }
  return undefined
}

/** The columns a star (qualified or not) of the query whose FROM is at `fromAt` stands for, each with its qualifier. */
const starColumns = (sig: ReadonlyArray<Tok>, fromAt: number, end: number, qualifier: string | undefined, lookup: TableLookup): Array<{ qualifier: string | undefined; name: string; merged?: true }> | undefined => {
  const sources = sourcesOf(sig, fromAt, end, lookup)
  if (sources === undefined) return undefined
  const wanted = qualifier === undefined ? sources : sources.filter((s) => s.qualifier !== undefined && tokenize(s.qualifier)[0]?.value === qualifier)
  if (wanted.length === 0) return undefined
  if (qualifier !== undefined || !sources.some((s) => s.merged !== undefined)) return wanted.flatMap((s) => s.columns.map((name) => ({ qualifier: s.qualifier, name })))
  // a USING or NATURAL join lists its common columns once, unqualified, at the left item's place (DuckDB's `*`)
  const mergedOf = (n: number): Set<string> => {
    const m = sources[n]!.merged
    return new Set(m === undefined ? [] : m === "natural" ? sources.slice(0, n).flatMap((s) => s.columns).filter((c) => sources[n]!.columns.includes(c)) : m)
  }
  const merged = sources.map((_, n) => mergedOf(n))
  return sources.flatMap((s, n) =>
    s.columns.filter((name) => !merged[n]!.has(name)).map((name) => (merged.slice(n + 1).some((m) => m.has(name)) ? { qualifier: undefined, name, merged: true } : { qualifier: s.qualifier, name }))
  )
}

/**
 * `all` (an INSERT ... SELECT) with its star select items written as their columns (see the module comment); `always`
 * also where no table keeps datetimes as text (char-writes.ts pads each item written into a CHAR column).
 */
export const expandedInsertSelectStars = (all: ReadonlyArray<Tok>, lookup: TableLookup, always = false): ReadonlyArray<Tok> => {
  const at = all.map((t, k) => ({ t, k })).filter(({ t }) => t.kind !== "ws")
  const sig = at.map(({ t }) => t)
  if (!isKw(sig[0], "INSERT") || !sig.some((t) => isOp(t, "*"))) return all
  // only where a table of the statement keeps datetimes as text
  if (!always && !sig.some((t, k) => isName(t) && !isOp(sig[k - 1], ".") && (lookup(undefined, t.value)?.columns.some(isTextDatetime) ?? false))) return all
  // by the index in `all` of the first token replaced: the index after the last one and the text put there
  const replaced = new Map<number, { readonly to: number; readonly text: string }>()
  for (let k = 0; k < sig.length; k++) {
    const plain = isOp(sig[k], "*") && isKw(sig[k - 1], "SELECT", "DISTINCT", "UNIQUE", "ALL") && (isKw(sig[k + 1], "FROM") || isOp(sig[k + 1], ","))
    const qualified = isOp(sig[k], "*") && isOp(sig[k - 1], ".") && isName(sig[k - 2]) && (isKw(sig[k - 3], "SELECT", "DISTINCT", "UNIQUE", "ALL") || isOp(sig[k - 3], ",")) && (isKw(sig[k + 1], "FROM") || isOp(sig[k + 1], ","))
    if (!plain && !qualified) continue
    // the star's query block: its SELECT and the end of its parenthesis (or of the statement)
    const select = blockSelectBefore(sig, k - 1)
    if (select < 0) continue
    let end = k
    for (let depth = 0; end < sig.length; end++) {
      if (isOp(sig[end], "(")) depth++
      else if (isOp(sig[end], ")") && --depth < 0) break
    }
    const fromAt = findTopLevel(sig, k + 1, end, (t) => isKw(t, "FROM"))
    if (fromAt < 0) continue
    const columns = starColumns(sig, fromAt, end, plain ? undefined : sig[k - 2]!.value, lookup)
    if (columns === undefined) continue
    // an unqualified name two FROM items share would be ambiguous
    const unqualified = columns.filter((c) => c.qualifier === undefined && !("merged" in c)).map((c) => c.name)
    if (new Set(unqualified).size < unqualified.length || (unqualified.length > 0 && columns.length > unqualified.length)) continue
    const text = columns.map((c) => (c.qualifier === undefined ? quoteDuck(c.name) : `${c.qualifier}.${quoteDuck(c.name)}`)).join(", ")
    replaced.set(at[plain ? k : k - 2]!.k, { to: at[k]!.k + 1, text })
  }
  if (replaced.size === 0) return all
  const out: Array<Tok> = []
  for (let k = 0; k < all.length; ) {
    const r = replaced.get(k)
    if (r === undefined) {
      out.push(all[k++]!)
      continue
    }
    out.push(...tokenize(r.text).map((x) => ({ ...x, pos: all[k]!.pos })))
    k = r.to
  }
  return out
}
