/**
 * Types a bind parameter that is an operand of `+ - * /` from the other operand (`x / ?`, `? + 1`,
 * `UPDATE t SET b = b + ?`), as HANA does.
 *
 * HANA derives such a parameter's type from the expression: a bare `SELECT ? … FROM DUMMY` is described as a string
 * parameter, while `SELECT ? + 0 … FROM DUMMY` takes a number, "as HANA now has extra type information and knows to
 * bind the 2nd parameter as an int (or at least, a numeric type)" (SAP/node-hdb issue #110,
 * https://github.com/SAP/node-hdb/issues/110). That is SQL-92's rule: a parameter that is "one operand of a binary
 * arithmetic or comparison operator" has the type of "the other operand"
 * (https://learn.microsoft.com/sql/odbc/reference/appendixes/parameter-data-types).
 *
 * DuckDB infers no type for a parameter of an arithmetic operator (its node API reports "Unexpected type id: 0"), so
 * the translated statement is rewritten: the parameter becomes `(CASE WHEN FALSE THEN <other operand> ELSE ? END)`,
 * whose type DuckDB takes from the other operand while its value is always the parameter's. A parameter that is a
 * divisor is wrapped in the division-by-zero guard too, so a bound 0 raises 304 as a literal 0 does.
 */
import { tokenize } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { DIVISOR_GUARD } from "./sql-rewrite.ts"
import { operandEnd } from "./operands.ts"

const PRECEDENCE: ReadonlyMap<string, number> = new Map([["+", 1], ["-", 1], ["*", 2], ["/", 2]])

const arithmetic = (tok: Token | undefined): string | undefined =>
  tok?.t === "op" && PRECEDENCE.has(tok.v) ? tok.v : undefined

/**
 * A function name in translated SQL: sql-rewrite.ts writes functions in lower case (and CAST as is) and keywords in
 * upper case, so an upper-case word before `(` is a keyword (`IN (`, `VALUES (`).
 */
const isFunctionName = (tok: Token | undefined): boolean => tok?.t === "word" && (/[a-z]/.test(tok.v) || tok.v === "CAST")

/** Whether `tok` can be the last token of an operand (else a following `+`/`-` is a sign, not an operator). */
const endsOperand = (tok: Token | undefined): boolean => {
  if (tok === undefined) return false
  if (tok.t === "op") return tok.v === ")"
  if (tok.t === "word") return /[a-z]/.test(tok.v) || ["END", "NULL", "TRUE", "FALSE"].includes(tok.v.toUpperCase())
  return tok.t !== "ws"
}

/** Start of the operand whose last token is at `j`: a literal, a `( … )` group or call, a CASE … END, or a name. */
const operandStart = (tokens: readonly Token[], j: number): number | undefined => {
  const t = tokens[j]
  if (t === undefined) return undefined
  const opening = (closes: (x: Token) => boolean, opens: (x: Token) => boolean): number | undefined => {
    let depth = 0
    for (let k = j; k >= 0; k--) {
      if (closes(tokens[k]!)) depth++
      else if (opens(tokens[k]!) && --depth === 0) return k
    }
    return undefined
  }
  if (t.t === "op" && t.v === ")") {
    const open = opening((x) => x.t === "op" && x.v === ")", (x) => x.t === "op" && x.v === "(")
    if (open === undefined) return undefined
    return isFunctionName(tokens[open - 1]) ? open - 1 : open
  }
  if (t.t === "word" && t.v.toUpperCase() === "END") {
    return opening((x) => x.t === "word" && x.v.toUpperCase() === "END", (x) => x.t === "word" && x.v.toUpperCase() === "CASE")
  }
  if (t.t === "word" || t.t === "qident") {
    let k = j
    while (tokens[k - 1]?.t === "op" && tokens[k - 1]!.v === "." && (tokens[k - 2]?.t === "qident" || tokens[k - 2]?.t === "word")) k -= 2
    return k
  }
  return t.t === "number" || t.t === "string" || t.t === "hex" ? j : undefined
}

/**
 * Start of the whole left operand of an operator of precedence `level` whose last token is at `j`: operators bind
 * left to right, so it takes in every operator of the same or higher precedence before it (`a - b * c + ?` → all).
 */
const leftOperandStart = (tokens: readonly Token[], j: number, level: number): number | undefined => {
  let start = operandStart(tokens, j)
  while (start !== undefined) {
    const op = arithmetic(tokens[start - 1])
    if (op === undefined || PRECEDENCE.get(op)! < level || !endsOperand(tokens[start - 2])) break
    start = operandStart(tokens, start - 2)
  }
  return start
}

/**
 * End (exclusive) of the whole right operand of an operator of precedence `level` starting at `i`: it takes in the
 * operators that bind tighter (`? + a * b` → a * b; `? / a * b` → a).
 */
const rightOperandEnd = (tokens: readonly Token[], i: number, level: number): number | undefined => {
  let end = operandEnd(tokens, i)
  while (end !== undefined) {
    const op = arithmetic(tokens[end])
    if (op === undefined || PRECEDENCE.get(op)! <= level) break
    end = operandEnd(tokens, end + 1)
  }
  return end
}

/**
 * `sql` (translated, DuckDB SQL) with each parameter that is an operand of `+ - * /` typed by the other operand
 * (see the module comment); undefined when no parameter is such an operand with a parameter-free other operand.
 */
export const typeArithmeticParameters = (sql: string): string | undefined => {
  const tokens = tokenize(sql).filter((t) => t.t !== "ws")
  const edits: Array<{ readonly from: number; readonly to: number; readonly text: string }> = []
  tokens.forEach((tok, i) => {
    if (tok.t !== "param" || tok.pos === undefined || tok.end === undefined) return
    const left = endsOperand(tokens[i - 2]) ? arithmetic(tokens[i - 1]) : undefined
    const right = arithmetic(tokens[i + 1])
    if (left === undefined && right === undefined) return
    // The other operand is on the side whose operator binds first: `a * ? + b` → a, `a + ? * b` → b, `a - ? + b` → a.
    const fromLeft = left !== undefined && (right === undefined || PRECEDENCE.get(left)! >= PRECEDENCE.get(right)!)
    const start = fromLeft ? leftOperandStart(tokens, i - 2, PRECEDENCE.get(left)!) : i + 2
    const end = fromLeft ? i - 1 : rightOperandEnd(tokens, i + 2, PRECEDENCE.get(right!)!)
    if (start === undefined || end === undefined || end <= start) return
    const operand = tokens.slice(start, end)
    if (operand.some((t) => t.t === "param")) return
    const first = operand[0]!.pos
    const last = operand[operand.length - 1]!.end
    if (first === undefined || last === undefined) return
    const typed = `(CASE WHEN FALSE THEN ${sql.slice(first, last)} ELSE ? END)`
    edits.push({ from: tok.pos, to: tok.end, text: left === "/" ? `${DIVISOR_GUARD}(${typed})` : typed })
  })
  if (edits.length === 0) return undefined
  let out = ""
  let from = 0
  for (const edit of edits) {
    out += sql.slice(from, edit.from) + edit.text
    from = edit.to
  }
  return out + sql.slice(from)
}
