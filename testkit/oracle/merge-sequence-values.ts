/**
 * NEXTVAL in a MERGE's branches: "For each row merged by a MERGE statement. The reference to NEXTVAL can appear in
 * the merge_insert_clause or the merge_update_clause or both. The NEXTVAL value is incremented for each row updated
 * and for each row inserted, even if the sequence number is not actually used in the update or insert operation. If
 * NEXTVAL is specified more than once in any of these locations, then the sequence is incremented once for each row
 * and returns the same value for all occurrences of NEXTVAL for that row" (SQL Language Reference, "Sequence
 * Pseudocolumns"). The engine evaluates each branch's NEXTVAL on its own, so a MERGE naming it in both branches took
 * one value too many per row. Here the source takes the value, once per source row, as a column of a derived table
 * (`USING (SELECT "__SEQ_S".*, s.NEXTVAL AS "__SEQ_M1" FROM src "__SEQ_S") alias`) and the branches read that
 * column; a CURRVAL of the sequence in the branches reads it too. A source row that neither branch merges takes a
 * value as well (Oracle's count of those: **unconfirmed**).
 */
import { isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"


/** `toks` (a statement's tokens, whitespace included) with a MERGE's sequence values taken by its source rows. */
export const rewriteMergeSequenceValues = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "NEXTVAL"))) return toks
  const sig = toks.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "MERGE") || !isKw(sig[1], "INTO")) return toks
  // USING and ON at the statement's own depth
  const at = (kw: string, from: number) => {
    for (let k = from; k < sig.length; k++) {
      if (isOp(sig[k], "(")) k = matchParen(sig, k)
      else if (isKw(sig[k], kw)) return k
      if (k < 0) return -1
    }
    return -1
  }
  const usingAt = at("USING", 2)
  const onAt = usingAt < 0 ? -1 : at("ON", usingAt + 1)
  if (onAt < 0 || onAt === usingAt + 1) return toks
  // the sequences the branches name: [owner.]seq.NEXTVAL | CURRVAL
  const refs: Array<{ from: number; to: number; key: string; next: boolean }> = []
  for (let k = onAt + 1; k < sig.length; k++) {
    if (!isKw(sig[k], "NEXTVAL", "CURRVAL") || !isOp(sig[k - 1], ".") || !isName(sig[k - 2])) continue
    const from = isOp(sig[k - 3], ".") && isName(sig[k - 4]) ? k - 4 : k - 2
    refs.push({ from, to: k, key: sig.slice(from, k - 1).map((t) => t.text.toUpperCase()).join(""), next: isKw(sig[k], "NEXTVAL") })
  }
  const sequences = [...new Set(refs.filter((r) => r.next).map((r) => r.key))]
  if (sequences.length === 0) return toks
  // the source: `[owner.]name [alias]` or `(subquery) [alias]`
  const source = sig.slice(usingAt + 1, onAt)
  const sourceEnd = isOp(source[0], "(") ? matchParen(source, 0) + 1 : isOp(source[1], ".") ? 3 : 1
  const alias = source.length === sourceEnd + 1 && isName(source[sourceEnd]) ? source[sourceEnd]!.text : source.length === sourceEnd && !isOp(source[0], "(") ? source[sourceEnd - 1]!.text : source.length === sourceEnd ? `"__SEQ_SRC"` : undefined
  if (alias === undefined) return toks
  const text = (ts: ReadonlyArray<Tok>) => ts.map((t) => t.text).join(" ")
  const nameOf = (key: string) => `"__SEQ_M${sequences.indexOf(key) + 1}"`
  const values = sequences.map((key) => `${text(sig.slice(refs.find((r) => r.key === key)!.from, refs.find((r) => r.key === key)!.to - 1))}.NEXTVAL AS ${nameOf(key)}`)
  const derived = `(SELECT "__SEQ_S".*, ${values.join(", ")} FROM ${text(source.slice(0, sourceEnd))} "__SEQ_S") ${alias}`
  let out = `${text(sig.slice(0, usingAt + 1))} ${derived} `
  let k = onAt
  for (const r of refs) {
    out += `${text(sig.slice(k, r.from))} `
    out += sequences.includes(r.key) ? `${alias}.${nameOf(r.key)} ` : `${text(sig.slice(r.from, r.to + 1))} `
    k = r.to + 1
  }
  out += text(sig.slice(k))
  const pos = toks[0]!.pos
  return tokenize(out).map((t) => ({ ...t, pos: pos + t.pos }))
}
