/**
 * Recursive subquery factoring (SQL Language Reference, SELECT, subquery_factoring_clause, "Recursive Subquery
 * Factoring"): a WITH block whose query reads the block itself is recursive. Oracle writes no RECURSIVE keyword (the
 * block's column alias list and its UNION ALL of an anchor and a recursive member make it one); DuckDB needs
 * `WITH RECURSIVE`, which this rewrite adds to such a WITH clause before translation.
 */
import { OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isName, isOp, matchParen, significant, type Tok } from "./lexer.ts"

/** Whether the WITH clause at `at` has a block reading itself; ORA-32039 for such a block without a column list. */
const readsItself = (toks: ReadonlyArray<Tok>, at: number): boolean => {
  let recursive = false
  for (let k = at + 1; ; k++) {
    const name = toks[k]
    if (!isName(name)) return recursive
    const listed = isOp(toks[k + 1], "(")
    const as = listed ? matchParen(toks, k + 1) + 1 : k + 1
    if (as <= 0 || !isKw(toks[as], "AS") || !isOp(toks[as + 1], "(")) return recursive
    const close = matchParen(toks, as + 1)
    if (close < 0) return recursive
    let self = false
    for (let j = as + 2; j < close && !self; j++) self = isKw(toks[j - 1], "FROM", "JOIN") && isName(toks[j]) && !isOp(toks[j + 1], ".") && oracleName(toks[j]!) === oracleName(name!)
    if (self && !listed) throw new OraError(32039, "recursive WITH clause must have column alias list")
    recursive ||= self
    // a SEARCH / CYCLE clause may follow the block (not handled here: it stays for DuckDB to refuse)
    k = close + 1
    if (!isOp(toks[k], ",")) return recursive
  }
}

/** `toks` with RECURSIVE after each WITH whose clause has a block reading itself (the same tokens when none has). */
export const markRecursiveWith = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const sig = significant(toks)
  const recursive = new Set(sig.filter((t, k) => isKw(t, "WITH") && !isKw(sig[k + 1], "RECURSIVE") && readsItself(sig, k)))
  if (recursive.size === 0) return toks
  return toks.flatMap((t) => (recursive.has(t) ? [t, { kind: "ws", text: " ", value: " ", pos: t.pos }, { kind: "ident", text: "RECURSIVE", value: "RECURSIVE", pos: t.pos }] : [t]))
}
