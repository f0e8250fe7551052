/**
 * Oracle 12c's APPLY joins (SQL Language Reference 23ai, "SELECT", cross_outer_apply_clause): `CROSS APPLY x` is an
 * inner lateral join of `x` ("returns only the rows from the table that produce a result set from the
 * table_reference or collection_expression"), `OUTER APPLY x` a left lateral join that keeps every row of the left
 * side; `x` a subquery, a table expression or a JSON_TABLE. Rewritten, before translation, into the LATERAL joins
 * DuckDB runs: `CROSS JOIN LATERAL x` and `LEFT JOIN LATERAL x ON 1 = 1` (a table expression needs no LATERAL).
 */
import { isKw, isOp, matchParen, tokenize, type Tok } from "./lexer.ts"

const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))

/** The index after the APPLY target starting at `at` (its parenthesised or called form, then an optional alias). */
const targetEnd = (toks: ReadonlyArray<Tok>, at: number): number => {
  let k = at
  const next = () => {
    k++
    while (toks[k]?.kind === "ws") k++
  }
  if (isOp(toks[k], "(")) k = matchParen(toks, k)
  else {
    // a name, `schema.name`, or a call such as JSON_TABLE(...) / TABLE(...)
    while (toks[k + 1] !== undefined && (isOp(toks[k + 1], ".") || toks[k + 1]!.kind === "ws") && !isOp(toks[k + 1], "(")) {
      let j = k + 1
      while (toks[j]?.kind === "ws") j++
      if (!isOp(toks[j], ".")) break
      j++
      while (toks[j]?.kind === "ws") j++
      k = j
    }
    let j = k + 1
    while (toks[j]?.kind === "ws") j++
    if (isOp(toks[j], "(")) k = matchParen(toks, j)
  }
  next()
  // an alias: a name that is no keyword starting the next clause
  const t = toks[k]
  if ((t?.kind === "ident" || t?.kind === "qident") && !isKw(t, "WHERE", "GROUP", "ORDER", "HAVING", "CROSS", "OUTER", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "NATURAL", "ON", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "CONNECT", "START", "FOR")) return k + 1
  return k
}

/** `toks` with `CROSS APPLY` / `OUTER APPLY` as LATERAL joins. */
export const rewriteApplyJoins = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && t.value === "APPLY")) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    let apply = k + 1
    while (toks[apply]?.kind === "ws") apply++
    if (!isKw(t, "CROSS", "OUTER") || !isKw(toks[apply], "APPLY")) {
      out.push(t)
      continue
    }
    let at = apply + 1
    while (toks[at]?.kind === "ws") at++
    const lateral = isOp(toks[at], "(") ? " LATERAL" : ""
    const end = targetEnd(toks, at)
    const target = toks.slice(at, end)
    if (isKw(t, "CROSS")) out.push(...generated(`CROSS JOIN${lateral} `, t.pos), ...target)
    else out.push(...generated(`LEFT JOIN${lateral} `, t.pos), ...target, ...generated(" ON 1 = 1 ", t.pos))
    k = end - 1
  }
  return out
}

/**
 * LISTAGG's `ON OVERFLOW ERROR | TRUNCATE ['indicator'] [WITH | WITHOUT COUNT]` (SQL Language Reference,
 * "LISTAGG", listagg_overflow_clause) left out: it only acts on a list longer than the 4000-byte VARCHAR2 limit, which
 * the server's lists do not have.
 */
export const withoutListaggOverflow = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && t.value === "OVERFLOW")) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const sig: Array<number> = []
    for (let j = k; j < toks.length && sig.length < 2; j++) if (toks[j]!.kind !== "ws") sig.push(j)
    if (isKw(toks[sig[0]!], "ON") && isKw(toks[sig[1]!], "OVERFLOW")) {
      // skip to the `)` that closes LISTAGG's arguments
      let j = sig[1]! + 1
      while (j < toks.length && !isOp(toks[j], ")")) j++
      k = j - 1
      continue
    }
    out.push(toks[k]!)
  }
  return out
}
