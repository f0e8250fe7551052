/**
 * Row-valued subqueries Oracle runs and the engine cannot (it takes a subquery giving several columns only after
 * IN): `UPDATE t SET (a, b) = (SELECT x, y FROM s WHERE ...)` (and `SET (a) = (SELECT x ...)`) and the conditions `(a, b) = (SELECT x, y ...)` and
 * `(a, b) <> (SELECT x, y ...)`, correlated or not. Each becomes one scalar subquery per column, on the same tokens
 * (a bind inside stays one bind): `a = (SELECT x FROM s WHERE ...), b = (SELECT y FROM s WHERE ...)`, and
 * `(a = (SELECT x ...) AND b = (SELECT y ...))` (`<>`: `OR` of `<>`). That keeps Oracle's meaning: no row sets every
 * column to NULL and makes the condition unknown, two rows fail ORA-01427 ("single-row subquery returns more than
 * one row"), NULL compares as unknown field by field (SQL Language Reference, "UPDATE" update_set_clause, and
 * "Comparison Conditions": a row compared with a subquery's row compares each pair of fields).
 *
 * `(a, b) NOT IN (SELECT x, y ...)` becomes a NOT EXISTS with Oracle's reading of NULL fields, `(a, b) IN (SELECT
 * ...)` an EXISTS comparing field by field (so that each pair compares as a scalar comparison does, exact NUMBER
 * columns included: `membershipOf`).
 *
 * A subquery with a set operator or an ORDER BY, or whose column count differs from the list (ORA-00913 / 00947,
 * statement-checks.ts), is left as written.
 */
import { findTopLevel, isKw, isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"

const tok = (kind: "ident" | "op" | "ws", text: string, pos: number): Tok => ({ kind, text, value: kind === "ws" ? " " : text, pos })

/** The subquery opened at `open` (a `(` followed by SELECT) split into its head, select items and FROM onwards. */
const subqueryOf = (toks: ReadonlyArray<Tok>, open: number) => {
  if (!isOp(toks[open], "(") || !isKw(toks[open + 1], "SELECT")) return undefined
  const close = matchParen(toks, open)
  if (close < 0) return undefined
  const from = findTopLevel(toks, open + 2, close, (t) => isKw(t, "FROM"))
  if (from < 0 || findTopLevel(toks, open + 2, close, (t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT", "ORDER")) >= 0) return undefined
  const quantifier = isKw(toks[open + 2], "DISTINCT", "UNIQUE", "ALL") ? [toks[open + 2]!] : []
  const items = splitTopLevel(toks.slice(open + 2 + quantifier.length, from))
  return { close, quantifier, items, rest: toks.slice(from, close) }
}

/** `(SELECT [quantifier] item rest)` as tokens, separated by blanks. */
const scalar = (at: number, quantifier: ReadonlyArray<Tok>, item: ReadonlyArray<Tok>, rest: ReadonlyArray<Tok>): Array<Tok> => {
  const out: Array<Tok> = [tok("op", "(", at), tok("ident", "SELECT", at)]
  for (const t of [...quantifier, ...item, ...rest]) out.push(tok("ws", " ", at), t)
  out.push(tok("op", ")", at))
  return out
}

/** Tokens of `parts` joined by blanks. */
const spaced = (parts: ReadonlyArray<ReadonlyArray<Tok>>, at: number): Array<Tok> =>
  parts.flatMap((p, k) => (k === 0 ? [...p] : [tok("ws", " ", at), ...p]))

/** The alias an item gives its column (`x AS c`, `x c`), or undefined. */
const aliasOf = (item: ReadonlyArray<Tok>): Tok | undefined => {
  const last = item[item.length - 1]
  const before = item[item.length - 2]
  if (item.length < 2 || !(last?.kind === "ident" || last?.kind === "qident")) return undefined
  return isKw(before, "AS") || before?.kind === "ident" || before?.kind === "qident" || before?.kind === "num" || before?.kind === "str" || isOp(before, ")") ? last : undefined
}

/**
 * `(a, b) IN (SELECT x, y ...)` as `EXISTS (SELECT 1 FROM (SELECT x ORA_C1, y ORA_C2 ...) WHERE a = ORA_C1 AND b =
 * ORA_C2)` (the same rows wherever a condition decides on rows); and `(a, b) NOT IN (SELECT x, y ...)` as Oracle reads it: true when every row differs in some field, so a row equal
 * in its non-NULL fields and NULL in another keeps the condition from being true; the engine would make any
 * NULL field unknown. Becomes `NOT EXISTS (SELECT 1 FROM (SELECT x ORA_C1, y ORA_C2 ...) WHERE CASE WHEN a <> ORA_C1
 * OR b <> ORA_C2 THEN 0 ELSE 1 END = 1)`.
 */
const membershipOf = (sig: ReadonlyArray<Tok>, open: number, close: number, negated: boolean): { tokens: Array<Tok>; close: number } | undefined => {
  const sub = subqueryOf(sig, close + (negated ? 3 : 2))
  const list = splitTopLevel(sig.slice(open + 1, close))
  if (sub === undefined || list.length < 2 || sub.items.length !== list.length) return undefined
  const pos = sig[open]!.pos
  const sp = tok("ws", " ", pos)
  const names = sub.items.map((item, n) => aliasOf(item) ?? tok("ident", `ORA_C${n + 1}`, pos))
  const items = sub.items.map((item, n) => (aliasOf(item) !== undefined ? [...item] : [...item, sp, names[n]!]))
  const differs = list.map((target, n) => [...target, sp, tok("op", "<>", pos), sp, names[n]!])
  const word = (w: string) => tok("ident", w, pos)
  if (!negated) {
    const equal = list.map((target, n) => [...target, sp, tok("op", "=", pos), sp, names[n]!])
    const tokens = [
      word("EXISTS"), sp, tok("op", "(", pos), word("SELECT"), sp, { kind: "num" as const, text: "1", value: "1", pos }, sp, word("FROM"), sp, tok("op", "(", pos), word("SELECT"), sp,
      ...spaced([...sub.quantifier.map((q) => [q]), ...items.flatMap((item, n) => (n === 0 ? [item] : [[tok("op", ",", pos)], item]))], pos), sp,
      ...spaced(sub.rest.map((t) => [t]), pos), tok("op", ")", pos), sp, word("WHERE"), sp,
      ...spaced(equal.flatMap((d, n) => (n === 0 ? [d] : [[word("AND")], d])), pos), tok("op", ")", pos)
    ]
    return { tokens, close: sub.close }
  }
  const tokens = [
    word("NOT"), sp, word("EXISTS"), sp, tok("op", "(", pos), word("SELECT"), sp, { kind: "num" as const, text: "1", value: "1", pos }, sp, word("FROM"), sp, tok("op", "(", pos), word("SELECT"), sp,
    ...spaced([...sub.quantifier.map((q) => [q]), ...items.flatMap((item, n) => (n === 0 ? [item] : [[tok("op", ",", pos)], item]))], pos), sp,
    ...spaced(sub.rest.map((t) => [t]), pos), tok("op", ")", pos), sp, word("WHERE"), sp, word("CASE"), sp, word("WHEN"), sp,
    ...spaced(differs.flatMap((d, n) => (n === 0 ? [d] : [[word("OR")], d])), pos), sp, word("THEN"), sp, { kind: "num" as const, text: "0", value: "0", pos }, sp,
    word("ELSE"), sp, { kind: "num" as const, text: "1", value: "1", pos }, sp, word("END"), sp, tok("op", "=", pos), sp, { kind: "num" as const, text: "1", value: "1", pos }, tok("op", ")", pos)
  ]
  return { tokens, close: sub.close }
}

/** `toks` (with white space) with every row-valued subquery above rewritten; `toks` itself when there is none. */
export const rewriteRowSubqueries = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const at: Array<number> = []
  toks.forEach((t, k) => t.kind !== "ws" && at.push(k))
  const sig = at.map((k) => toks[k]!)
  if (!sig.some((t) => isKw(t, "SELECT")) || !sig.some((t, k) => isOp(t, ")") && (isOp(sig[k + 1], "=") || isOp(sig[k + 1], "<>") || isOp(sig[k + 1], "!=") || isKw(sig[k + 1], "NOT", "IN")))) return toks
  const update = isKw(sig[0], "UPDATE")
  const set = update ? findTopLevel(sig, 1, sig.length, (t) => isKw(t, "SET")) : -1
  const where = update ? findTopLevel(sig, 1, sig.length, (t) => isKw(t, "WHERE")) : -1
  const out: Array<Tok> = []
  let copied = 0
  for (let k = 0; k < sig.length; k++) {
    if (!isOp(sig[k], "(") || isKw(sig[k + 1], "SELECT")) continue
    // a parenthesised list, not a call's arguments
    const prev = sig[k - 1]
    if (prev !== undefined && (prev.kind === "ident" && !isKw(prev, "SET", "WHERE", "AND", "OR", "NOT", "ON", "HAVING", "WHEN") || prev.kind === "qident")) continue
    const close = matchParen(sig, k)
    const negated = isKw(sig[close + 1], "NOT") && isKw(sig[close + 2], "IN")
    if (negated || isKw(sig[close + 1], "IN")) {
      const notIn = membershipOf(sig, k, close, negated)
      if (notIn === undefined) continue
      out.push(...toks.slice(copied, at[k]!), ...notIn.tokens)
      copied = at[notIn.close]! + 1
      k = notIn.close
      continue
    }
    const op = sig[close + 1]
    if (close < 0 || !(isOp(op, "=") || isOp(op, "<>") || isOp(op, "!="))) continue
    const sub = subqueryOf(sig, close + 2)
    const list = splitTopLevel(sig.slice(k + 1, close))
    const inSet = update && k > set && (where < 0 || k < where)
    // `SET (c) = (SELECT x ...)` too, so that the value written into c is cast to its column's type as `c = e` is
    if (sub === undefined || list.length < (inSet ? 1 : 2) || sub.items.length !== list.length) continue
    const pos = sig[k]!.pos
    // a SET target list becomes one assignment per column, a condition one comparison per column
    const pairs = list.map((target, n) => [...target, tok("ws", " ", pos), isOp(op, "=") || inSet ? tok("op", "=", pos) : tok("op", "<>", pos), tok("ws", " ", pos), ...scalar(pos, sub.quantifier, sub.items[n]!, sub.rest)])
    const joiner = inSet ? [tok("op", ",", pos)] : [tok("ident", isOp(op, "=") ? "AND" : "OR", pos)]
    const body = spaced(pairs.flatMap((p, n) => (n === 0 ? [p] : [joiner, p])), pos)
    if (inSet && !isOp(op, "=")) continue
    out.push(...toks.slice(copied, at[k]!), ...(inSet ? body : [tok("op", "(", pos), ...body, tok("op", ")", pos)]))
    copied = at[sub.close]! + 1
    k = sub.close
  }
  if (copied === 0) return toks
  out.push(...toks.slice(copied))
  return out
}
