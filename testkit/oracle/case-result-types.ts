/**
 * A CASE expression whose results are a number literal and a character literal: Oracle requires every result of a
 * CASE to be of the same data type family and refuses the mix when parsing with ORA-00932 "inconsistent datatypes:
 * expected NUMBER got CHAR", naming the first result's type as expected (SQL Language Reference, CASE Expressions:
 * "all of the return_exprs and the else_expr must be of the same data type" family; Database Error Messages
 * ORA-00932). The engine would cast one to the other. Only literal results are judged: columns and expressions are
 * the engine's.
 */
import { ora, type OraError } from "./errors.ts"
import { isKw, type Tok } from "./lexer.ts"

/** The type family of a result that is one literal token, else undefined. */
const literalType = (toks: ReadonlyArray<Tok>, at: number): "NUMBER" | "CHAR" | undefined => {
  const t = toks[at]
  if (t === undefined || !isKw(toks[at + 1], "WHEN", "ELSE", "END")) return undefined
  // a DATE / TIMESTAMP / INTERVAL literal's text is no character result
  if (t.kind === "str") return isKw(toks[at - 1], "THEN", "ELSE") ? "CHAR" : undefined
  // 1.5f / 2d are BINARY_FLOAT / BINARY_DOUBLE literals
  return t.kind === "num" && t.text === t.value ? "NUMBER" : undefined
}

/** ORA-00932 for the first CASE mixing number and character literal results, else undefined. */
export const caseResultTypeError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  for (let k = 0; k < toks.length; k++) {
    if (!isKw(toks[k], "CASE")) continue
    let depth = 0
    let expected: "NUMBER" | "CHAR" | undefined
    for (let j = k + 1; j < toks.length; j++) {
      const t = toks[j]!
      if (isKw(t, "CASE")) depth++
      else if (isKw(t, "END")) {
        if (depth === 0) break
        depth--
      } else if (depth === 0 && isKw(t, "THEN", "ELSE")) {
        const type = literalType(toks, j + 1)
        if (type === undefined) continue
        if (expected === undefined) expected = type
        else if (type !== expected) return ora.inconsistentTypes(`expected ${expected} got ${type}`)
      }
    }
  }
  return undefined
}
