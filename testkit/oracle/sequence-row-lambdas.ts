/**
 * One sequence value per row in translated (DuckDB) SQL, whatever the query block's FROM clause: the fallback for the
 * shapes sequence-rows.ts does not rewrite (a subquery or table function joined to something else, views joined by
 * NATURAL or USING, commas mixed with NATURAL / USING, ...).
 *
 * SQL Language Reference, "Sequence Pseudocolumns"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Sequence-Pseudocolumns.html): Oracle
 * increments a sequence once per row of the outer query block and "returns the same value for both CURRVAL and
 * NEXTVAL regardless of their order within the statement". DuckDB computes every `nextval('s')` / `currval('s')` as a
 * column of its own. Here a select list naming `nextval('s')` and another reference of `s` computes the new values
 * once per row as a list and hands it to a lambda that builds the items naming them (lambdas see the row's columns):
 *
 * `SELECT a.n, currval('s') AS "CURRVAL", nextval('s') AS "NEXTVAL", x.* FROM <from> WHERE w` becomes
 * `SELECT "__SEQ_Q"."__SEQ_1" AS n, "__SEQ_Q"."__SEQ_R"."__SEQ_2" AS "CURRVAL", "__SEQ_Q"."__SEQ_R"."__SEQ_3" AS
 * "NEXTVAL", unnest("__SEQ_Q"."__SEQ_4") FROM (SELECT a.n AS "__SEQ_1", x AS "__SEQ_4", list_transform([[nextval('s')]],
 * "__SEQ_V" -> struct_pack("__SEQ_2" := "__SEQ_V"[1], "__SEQ_3" := "__SEQ_V"[1]))[1] AS "__SEQ_R" FROM <from> WHERE w)
 * "__SEQ_Q"`; the FROM clause, and so every name of the block, stays as written, and the result keeps its columns'
 * names, order and types. `x.*` travels as the row of `x` (a struct), unnested again.
 */
import { isKw, isName, isOp, significant, type Tok, tokenize } from "./lexer.ts"

const SEQUENCE_CALL = /\b(?:nextval|currval)\s*\(/gi


/** A `nextval('s')` / `currval('s')` call: its token range [from, to] and sequence. */
interface Call {
  readonly from: number
  readonly to: number
  readonly key: string
  readonly next: boolean
}

/** Bracket depth change of a token: `(`, `[`, `{` open, `)`, `]`, `}` close. */
const depthOf = (t: Tok): number => (t.kind !== "op" ? 0 : t.value === "(" || t.value === "[" || t.value === "{" ? 1 : t.value === ")" || t.value === "]" || t.value === "}" ? -1 : 0)

/** The index of the first token in [from, to) at depth 0 that `match` accepts, -1 when none (or the range closes first). */
const topLevel = (toks: ReadonlyArray<Tok>, from: number, to: number, match: (t: Tok) => boolean): number => {
  let depth = 0
  for (let k = from; k < to; k++) {
    if (depth === 0 && match(toks[k]!)) return k
    depth += depthOf(toks[k]!)
    if (depth < 0) return -1
  }
  return -1
}

/** `duckSql` with each query block that names a sequence's `nextval` and another reference of it rewritten as above. */
export const perRowSequenceValues = (duckSql: string): string => {
  if ((duckSql.match(SEQUENCE_CALL)?.length ?? 0) < 2 || !/\bnextval\s*\(/i.test(duckSql)) return duckSql
  const toks = significant(tokenize(duckSql))
  const calls: Array<Call> = []
  for (let k = 0; k < toks.length; k++)
    if (isKw(toks[k], "NEXTVAL", "CURRVAL") && isOp(toks[k + 1], "(") && toks[k + 2]?.kind === "str" && isOp(toks[k + 3], ")") && !isOp(toks[k - 1], "."))
      calls.push({ from: k, to: k + 3, key: toks[k + 2]!.value, next: isKw(toks[k], "NEXTVAL") })
  // the query blocks, innermost last: rewrite the last one that needs it, then look again
  for (let s = toks.length - 1; s >= 0; s--) {
    if (!isKw(toks[s], "SELECT")) continue
    const fromAt = topLevel(toks, s + 1, toks.length, (t) => isKw(t, "FROM"))
    if (fromAt < 0) continue
    const mine = calls.filter((c) => c.from > s && c.to < fromAt)
    const keys = [...new Set(mine.map((c) => c.key))].filter((key) => mine.some((c) => c.key === key && c.next) && mine.filter((c) => c.key === key).length > 1)
    if (keys.length === 0) continue
    const rewritten = rewriteBlock(duckSql, toks, s, fromAt, mine.filter((c) => keys.includes(c.key)), keys)
    return rewritten === undefined ? duckSql : perRowSequenceValues(rewritten)
  }
  return duckSql
}

/** The block whose SELECT is at `s` and FROM at `fromAt` rewritten; undefined when its select list is not one this can. */
const rewriteBlock = (sql: string, toks: ReadonlyArray<Tok>, s: number, fromAt: number, calls: ReadonlyArray<Call>, keys: ReadonlyArray<string>): string | undefined => {
  const text = (a: number, b: number) => (a > b ? "" : sql.slice(toks[a]!.pos, toks[b]!.pos + toks[b]!.text.length))
  // the block ends where its parenthesis closes, at RETURNING or at the statement's end
  const closeAt = topLevel(toks, fromAt + 1, toks.length, (t) => isOp(t, ")") || isOp(t, "]") || isOp(t, "}") || isKw(t, "RETURNING", "UNION", "INTERSECT", "EXCEPT"))
  const end = closeAt < 0 ? toks.length : closeAt
  if (isKw(toks[s + 1], "DISTINCT", "ALL")) return undefined
  // the select list's items
  const items: Array<[number, number]> = []
  let first = s + 1
  let depth = 0
  for (let k = first; k < fromAt; k++) {
    if (depth === 0 && isOp(toks[k], ",")) {
      items.push([first, k - 1])
      first = k + 1
    }
    depth += depthOf(toks[k]!)
  }
  items.push([first, fromAt - 1])
  const outer: Array<string> = []
  const inner: Array<string> = []
  const fields: Array<string> = []
  const subqueries: Array<string> = []
  for (const [n, [a, b]] of items.entries()) {
    const col = `"__SEQ_${n + 1}"`
    if (a > b) return undefined
    // `x.*`: the row of x, a struct, unnested again
    if (b - a === 2 && isName(toks[a]) && isOp(toks[a + 1], ".") && isOp(toks[b], "*")) {
      inner.push(`${toks[a]!.text} AS ${col}`)
      outer.push(`unnest("__SEQ_Q".${col})`)
      continue
    }
    if (isOp(toks[b], "*")) return undefined
    // its output name: the alias, or the column's name
    const aliased = isName(toks[b]) && b > a && (isKw(toks[b - 1], "AS") || (!isOp(toks[b - 1], ".") && (isName(toks[b - 1]) || isOp(toks[b - 1], ")") || toks[b - 1]!.kind === "str" || toks[b - 1]!.kind === "num")))
    const exprEnd = aliased ? (isKw(toks[b - 1], "AS") ? b - 2 : b - 1) : b
    const name = aliased || isName(toks[b]) ? ` AS ${toks[b]!.text}` : ""
    const own = calls.filter((c) => c.from >= a && c.to <= exprEnd)
    if (own.length === 0) {
      inner.push(`${text(a, exprEnd)} AS ${col}`)
      outer.push(`"__SEQ_Q".${col}${name}`)
      continue
    }
    // the sequence calls and the scalar subqueries in it (a lambda takes no subquery) become fields of its argument
    const pieces: Array<{ readonly from: number; readonly to: number; readonly value: string }> = own.map((c) => ({ from: c.from, to: c.to, value: `"__SEQ_V"."__SEQ_N${keys.indexOf(c.key) + 1}"` }))
    for (let k = a; k < exprEnd; k++) {
      if (!isOp(toks[k], "(") || !isKw(toks[k + 1], "SELECT", "WITH")) continue
      const close = topLevel(toks, k + 1, toks.length, (t) => isOp(t, ")"))
      if (close < 0) return undefined
      subqueries.push(`"__SEQ_S${subqueries.length + 1}" := ${text(k, close)}`)
      pieces.push({ from: k, to: close, value: `"__SEQ_V"."__SEQ_S${subqueries.length}"` })
      k = close
    }
    pieces.sort((x, y) => x.from - y.from)
    let expr = ""
    let at = a
    for (const p of pieces) {
      expr += `${sql.slice(toks[at]!.pos, toks[p.from]!.pos)}${p.value}`
      at = p.to + 1
    }
    expr += at <= exprEnd ? text(at, exprEnd) : ""
    fields.push(`${col} := ${expr}`)
    outer.push(`"__SEQ_Q"."__SEQ_R".${col}${name}`)
  }
  const nexts = keys.map((key, i) => {
    const next = calls.find((c) => c.key === key && c.next)!
    return `"__SEQ_N${i + 1}" := ${text(next.from, next.to)}`
  })
  inner.push(`list_transform([struct_pack(${[...nexts, ...subqueries].join(", ")})], lambda "__SEQ_V": struct_pack(${fields.join(", ")}))[1] AS "__SEQ_R"`)
  const head = sql.slice(0, toks[s]!.pos)
  const tail = end < toks.length ? sql.slice(toks[end]!.pos) : ""
  return `${head}SELECT ${outer.join(", ")} FROM (SELECT ${inner.join(", ")} ${text(fromAt, end - 1)}) "__SEQ_Q"${tail === "" ? "" : ` ${tail}`}`
}
