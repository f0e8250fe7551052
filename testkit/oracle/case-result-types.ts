/**
 * A CASE expression mixing data type families, which Oracle refuses when parsing with ORA-00932 "inconsistent
 * datatypes: expected X got Y", naming the first operand's type as expected (SQL Language Reference, "CASE
 * Expressions": "all of the return_exprs and the else_expr must be of the same data type" family, and in a simple
 * CASE "the expr and all comparison_exprs must ... have the same data type" family; Database Error Messages
 * ORA-00932). The engine would cast one to the other. Judged are results (and a simple CASE's selector and
 * comparison values) whose NUMBER, VARCHAR2 or DATE type expression-types.ts reads from their text: literals,
 * SYSDATE / CURRENT_DATE, TO_CHAR / TO_NUMBER / TO_DATE / CAST, arithmetic and concatenation, and, where the caller
 * knows the statement's columns, NUMBER, DATE or VARCHAR2 / CHAR columns: `THEN 1 ELSE 'a'`, `THEN num_col ELSE 'a'`,
 * `THEN TO_CHAR(n) ELSE n + 1`, `CASE num_col WHEN 'a'`, `CASE text_col WHEN 1`. Other expressions are the engine's.
 */
import { ora, type OraError } from "./errors.ts"
import { expressionType } from "./expression-types.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"

type Family = "NUMBER" | "CHAR" | "DATE"

/** The family of the NUMBER / DATE / character column a name denotes in the statement, undefined when unknown or ambiguous. */
export type ColumnFamily = (name: string) => Family | undefined

/** The family of the operand starting at `at` and ending before a top-level keyword of `ends` (expression-types.ts types it). */
const operandFamily = (toks: ReadonlyArray<Tok>, at: number, ends: ReadonlyArray<string>, columnFamily: ColumnFamily | undefined): Family | undefined => {
  let end = at
  for (; end < toks.length && !isKw(toks[end], ...ends); end++) {
    // a nested CASE's own results are judged where it starts
    if (isKw(toks[end], "CASE")) return undefined
    if (isOp(toks[end], "(")) end = matchParen(toks, end)
    if (end < 0) return undefined
  }
  if (end >= toks.length || end === at) return undefined
  const type = expressionType(toks, at, end, columnFamily === undefined ? undefined : (parts) => columnFamily(parts[parts.length - 1]!))
  return type === "NUMBER" || type === "CHAR" || type === "DATE" ? type : undefined
}

/** ORA-00932 for the first CASE mixing families as above, else undefined; `columnFamily` judges single columns. */
export const caseResultTypeError = (toks: ReadonlyArray<Tok>, columnFamily?: ColumnFamily): OraError | undefined => {
  for (let k = 0; k < toks.length; k++) {
    if (!isKw(toks[k], "CASE")) continue
    // a simple CASE: its selector and each comparison value
    const selector = isKw(toks[k + 1], "WHEN") ? undefined : operandFamily(toks, k + 1, ["WHEN"], columnFamily)
    let depth = 0
    let expected: Family | undefined
    for (let j = k + 1; j < toks.length; j++) {
      const t = toks[j]!
      if (isKw(t, "CASE")) depth++
      else if (isKw(t, "END")) {
        if (depth === 0) break
        depth--
      } else if (depth === 0 && isKw(t, "WHEN") && selector !== undefined) {
        const value = operandFamily(toks, j + 1, ["THEN"], columnFamily)
        if (value !== undefined && value !== selector) return ora.inconsistentTypes(`expected ${selector} got ${value}`)
      } else if (depth === 0 && isKw(t, "THEN", "ELSE")) {
        const type = operandFamily(toks, j + 1, ["WHEN", "ELSE", "END"], columnFamily)
        if (type === undefined) continue
        if (expected === undefined) expected = type
        else if (type !== expected) return ora.inconsistentTypes(`expected ${expected} got ${type}`)
      }
    }
  }
  return undefined
}
