/**
 * Oracle's floating-point conditions `expr IS [NOT] NAN` and `expr IS [NOT] INFINITE` (SQL Language Reference,
 * "Floating-Point Conditions": "Oracle Database first converts expr to BINARY_DOUBLE"), rewritten before translation
 * into DuckDB's isnan / isinf of the operand as a BINARY_DOUBLE. A NULL operand gives NULL (unknown), as there.
 */
import { isKw, tokenize, type Tok } from "./lexer.ts"
import { operandStart } from "./json-sql.ts"

/** `toks` with every floating-point condition rewritten (the tokens themselves when there is none). */
export const rewriteFloatConditions = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "NAN", "INFINITE"))) return toks
  const out = [...toks]
  const next = (k: number) => {
    let n = k + 1
    while (out[n]?.kind === "ws") n++
    return n
  }
  for (let k = out.length - 1; k >= 0; k--) {
    if (!isKw(out[k], "IS")) continue
    const negated = isKw(out[next(k)], "NOT")
    const wordAt = negated ? next(next(k)) : next(k)
    const word = out[wordAt]
    if (!isKw(word, "NAN", "INFINITE")) continue
    const start = operandStart(out, k)
    const pos = out[k]!.pos
    const generated = (sql: string) => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))
    const heading = out.slice(start, wordAt + 1).filter((t) => t.kind !== "ws").map((t) => t.text.toUpperCase()).join("")
    const replacement = [
      ...generated(`${negated ? "NOT " : ""}${word!.value === "NAN" ? "isnan" : "isinf"}(CAST(`),
      ...out.slice(start, k),
      ...generated(" AS BINARY_DOUBLE)) ")
    ].map((t, n) => (n === 0 ? { ...t, heading } : t))
    out.splice(start, wordAt + 1 - start, ...replacement)
    k = start
  }
  return out
}
