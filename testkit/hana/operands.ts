/** The whole operand (a literal, a `( … )` group or call, a CASE … END, a dotted name) before or after an operator's token. */
import { upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

/** End (exclusive) of the operand starting at `i`: a literal, a `( … )` group, a CASE … END, or a name with its call. */
export const operandEnd = (tokens: readonly Token[], i: number): number | undefined => {
  const t = tokens[i]
  if (t === undefined) return undefined
  const closing = (open: number, opens: (t: Token) => boolean, closes: (t: Token) => boolean): number | undefined => {
    let depth = 0
    for (let j = open; j < tokens.length; j++) {
      if (opens(tokens[j]!)) depth++
      else if (closes(tokens[j]!) && --depth === 0) return j + 1
    }
    return undefined
  }
  const isOp = (v: string) => (x: Token) => x.t === "op" && x.v === v
  if (t.t === "op" && (t.v === "-" || t.v === "+")) return operandEnd(tokens, i + 1)
  if (t.t === "op" && t.v === "(") return closing(i, isOp("("), isOp(")"))
  if (t.t === "number" || t.t === "string" || t.t === "hex" || t.t === "param") return i + 1
  if (upper(t) === "CASE") return closing(i, (x) => upper(x) === "CASE", (x) => upper(x) === "END")
  if (t.t !== "word" && t.t !== "qident") return undefined
  let end = i + 1
  while (tokens[end] !== undefined && isOp(".")(tokens[end]!) && (tokens[end + 1]?.t === "word" || tokens[end + 1]?.t === "qident")) end += 2
  return tokens[end]?.t === "op" && tokens[end]!.v === "(" ? closing(end, isOp("("), isOp(")")) : end
}

/** Keywords that may stand right before a parenthesised operand. */
const GROUP_KEYWORDS = new Set(["SELECT", "WHERE", "HAVING", "ON", "WHEN", "THEN", "ELSE", "AND", "OR", "NOT", "RETURN", "BY", "AS", "IN", "EXISTS", "DISTINCT"])

/** Start of the operand ending at `end` (inclusive): a literal, a `( … )` group with its function name, a CASE … END, or a dotted name. */
export const operandStart = (tokens: readonly Token[], end: number): number | undefined => {
  const t = tokens[end]
  if (t === undefined) return undefined
  if (t.t === "number" || t.t === "string" || t.t === "hex" || t.t === "param") return end
  const back = (opens: (x: Token) => boolean, closes: (x: Token) => boolean): number | undefined => {
    let depth = 0
    for (let j = end; j >= 0; j--) {
      if (closes(tokens[j]!)) depth++
      else if (opens(tokens[j]!) && --depth === 0) return j
    }
    return undefined
  }
  let start: number | undefined
  if (t.t === "op" && t.v === ")") {
    start = back((x) => x.t === "op" && x.v === "(", (x) => x.t === "op" && x.v === ")")
    // a function's name, not a keyword before a group (`WHEN (SELECT …) < NOW()`)
    const before = tokens[start === undefined ? -1 : start - 1]
    if (start !== undefined && (before?.t === "qident" || (before?.t === "word" && !GROUP_KEYWORDS.has(upper(before))))) start--
  } else if (upper(t) === "END") start = back((x) => upper(x) === "CASE", (x) => upper(x) === "END")
  else if (t.t === "word" || t.t === "qident") start = end
  if (start === undefined) return undefined
  while (tokens[start - 1]?.t === "op" && tokens[start - 1]!.v === "." && (tokens[start - 2]?.t === "word" || tokens[start - 2]?.t === "qident")) start -= 2
  return start
}

/** Words after which a `+`, `-` or `*` starts an operand rather than combining two (`SELECT *`, `WHEN -x`). */
const NO_OPERAND_END = new Set([
  "SELECT", "DISTINCT", "ALL", "FROM", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "THEN", "ELSE", "AS", "IN", "IS", "BY", "HAVING",
  "SET", "VALUES", "RETURN", "TOP", "LIMIT", "OFFSET", "BETWEEN", "LIKE", "CASE", "EXISTS", "DEFAULT"
])

/** Whether `t` is the last token of an operand (so that `+`, `-`, `*` after it is binary). */
export const endsOperand = (t: Token | undefined): boolean =>
  t !== undefined && ((t.t === "op" && t.v === ")") || ["number", "string", "qident", "param", "hex"].includes(t.t) || (t.t === "word" && !NO_OPERAND_END.has(upper(t))))

const ARITHMETIC = new Set(["+", "-", "*", "/", "||"])
const isArithmetic = (t: Token | undefined): boolean => t?.t === "op" && ARITHMETIC.has(t.v)

/** End (exclusive) of the arithmetic expression starting at `i`: operands joined by `+ - * / ||` (`d + 1`, `a || b`). */
export const expressionEnd = (tokens: readonly Token[], i: number): number | undefined => {
  let end = operandEnd(tokens, i)
  while (end !== undefined && isArithmetic(tokens[end]) && tokens[end + 1] !== undefined) end = operandEnd(tokens, end + 1)
  return end
}

/** Start of the arithmetic expression ending at `end` (inclusive): operands joined by binary `+ - * / ||`. */
export const expressionStart = (tokens: readonly Token[], end: number): number | undefined => {
  let start = operandStart(tokens, end)
  while (start !== undefined && isArithmetic(tokens[start - 1]) && endsOperand(tokens[start - 2])) start = operandStart(tokens, start - 2)
  return start
}
