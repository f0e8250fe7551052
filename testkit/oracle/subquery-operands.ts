/**
 * A single value compared with a subquery of several columns: `x [NOT] IN (SELECT a, b ...)`, `x = ANY (SELECT a, b
 * ...)`. Oracle's parser refuses it with ORA-00913 "too many values" whatever the data (Database Error Messages,
 * ORA-00913: "The SQL statement requires two sets of values equal in number"); the engine would compare with the first
 * column. A row operand `(x, y) IN (SELECT ...)` is row-subqueries.ts's.
 */
import { OraError } from "./errors.ts"
import { findTopLevel, isKw, isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"

/** ORA-00913 for the first single value compared with a subquery of more than one column, else undefined. */
export const subqueryOperandError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  for (let k = 1; k < toks.length; k++) {
    if (!isOp(toks[k], "(") || !isKw(toks[k + 1], "SELECT")) continue
    const before = toks[k - 1]!
    const quantified = isKw(before, "ANY", "SOME", "ALL")
    if (!isKw(before, "IN") && !quantified) continue
    // the operand before IN / the comparison: a parenthesised one may be a row (or a call), left alone
    const operator = quantified ? k - 2 : isKw(toks[k - 2], "NOT") ? k - 2 : k - 1
    const operand = operator - 1
    if (quantified && !(toks[operator]?.kind === "op" && /^(=|<>|!=|\^=|<|>|<=|>=)$/.test(toks[operator]!.value))) continue
    // a PL/SQL cursor FOR loop (`FOR r IN (SELECT a, b ...)`) is no comparison
    if (operand < 0 || isOp(toks[operand], ")") || isKw(toks[operand - 1], "FOR")) continue
    const close = matchParen(toks, k)
    if (close < 0) continue
    const from = findTopLevel(toks, k + 2, close, (t) => isKw(t, "FROM"))
    if (from < 0) continue
    if (splitTopLevel(toks.slice(k + 2, from)).length > 1) return new OraError(913, "too many values")
  }
  return undefined
}
