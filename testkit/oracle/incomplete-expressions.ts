/**
 * ORA-00936 "missing expression" for a select list whose expression stops after an operator (`SELECT 1 + FROM dual`,
 * `SELECT 1 +`) and for `*` after DISTINCT / ALL in a call (`COUNT(DISTINCT *)`), as Oracle's parser reports it, with the error offset at the token where an operand was expected
 * (oracledb's `error.offset`), where DuckDB would fail with a syntax error mapped to ORA-00933.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"

const BINARY = new Set(["+", "-", "*", "/", "||"])

/** Throws ORA-00936 when an arithmetic or concatenation operator is followed by no operand. */
export const checkIncompleteExpressions = (toks: ReadonlyArray<Tok>): void => {
  const sig = toks.filter((t) => t.kind !== "ws")
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (t.kind !== "op" || !BINARY.has(t.value)) continue
    // `COUNT(DISTINCT *)`: an aggregate takes `*` alone, DISTINCT / ALL an expression (SQL Language Reference, COUNT)
    if (t.value === "*" && isKw(sig[k - 1], "DISTINCT", "UNIQUE", "ALL") && isOp(sig[k - 2], "(")) throw new OraError(936, "missing expression", t.pos)
    // `SELECT * FROM`, `COUNT(*)`, `t.*`: a star that is no multiplication
    if (t.value === "*" && (isKw(sig[k - 1], "SELECT", "DISTINCT", "UNIQUE", "ALL") || isOp(sig[k - 1], "(") || isOp(sig[k - 1], ".") || isOp(sig[k - 1], ","))) continue
    // Oracle's outer-join marker `(+)`
    if (t.value === "+" && isOp(sig[k - 1], "(") && isOp(sig[k + 1], ")")) continue
    const next = sig[k + 1]
    if (next === undefined || isKw(next, "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "UNION", "MINUS", "INTERSECT") || isOp(next, ",") || isOp(next, ")") || isOp(next, ";"))
      throw new OraError(936, "missing expression", next?.pos ?? t.pos + t.text.length)
  }
}
