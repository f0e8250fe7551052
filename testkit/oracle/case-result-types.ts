/**
 * A CASE expression mixing data type families, which Oracle refuses when parsing with ORA-00932 "inconsistent
 * datatypes: expected X got Y", naming the first operand's type as expected (SQL Language Reference, "CASE
 * Expressions": "all of the return_exprs and the else_expr must be of the same data type" family, and in a simple
 * CASE "the expr and all comparison_exprs must ... have the same data type" family; Database Error Messages
 * ORA-00932). The engine would cast one to the other. Judged are results (and a simple CASE's selector and
 * comparison values) that are one literal (number, text, DATE), SYSDATE / CURRENT_DATE, or, where the caller knows
 * the statement's columns, one NUMBER, DATE or VARCHAR2 / CHAR column: `THEN 1 ELSE 'a'`, `THEN num_col ELSE 'a'`,
 * `CASE num_col WHEN 'a'`, `CASE text_col WHEN 1`. Other expressions are the engine's.
 */
import { ora, type OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"

type Family = "NUMBER" | "CHAR" | "DATE"

/** The family of the NUMBER / DATE / character column a name denotes in the statement, undefined when unknown or ambiguous. */
export type ColumnFamily = (name: string) => Family | undefined

/** The family of the operand starting at `at` when it is one whole operand ending before a keyword of `ends`. */
const operandFamily = (toks: ReadonlyArray<Tok>, at: number, ends: ReadonlyArray<string>, columnFamily: ColumnFamily | undefined): Family | undefined => {
  const t = toks[at]
  if (t === undefined) return undefined
  if (isKw(t, "DATE") && toks[at + 1]?.kind === "str") return isKw(toks[at + 2], ...ends) ? "DATE" : undefined
  if (isKw(t, "SYSDATE", "CURRENT_DATE")) return isKw(toks[at + 1], ...ends) ? "DATE" : undefined
  if (t.kind === "str") return isKw(toks[at + 1], ...ends) ? "CHAR" : undefined
  // 1.5f / 2d are BINARY_FLOAT / BINARY_DOUBLE literals
  if (t.kind === "num") return t.text === t.value && isKw(toks[at + 1], ...ends) ? "NUMBER" : undefined
  if (columnFamily === undefined || (t.kind !== "ident" && t.kind !== "qident") || isKw(t, "NULL")) return undefined
  let end = at
  while (isOp(toks[end + 1], ".") && (toks[end + 2]?.kind === "ident" || toks[end + 2]?.kind === "qident")) end += 2
  return isKw(toks[end + 1], ...ends) ? columnFamily(toks[end]!.value) : undefined
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
