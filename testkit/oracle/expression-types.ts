/**
 * The Oracle data type of an expression as far as its text shows it, for the checks Oracle makes when parsing (set
 * operation branches: set-operation-types.ts; CASE results: case-result-types.ts). Typed are literals, NULL, DATE /
 * TIMESTAMP literals, SYSDATE and the other datetime functions without arguments, TO_CHAR (always VARCHAR2, SQL
 * Language Reference "TO_CHAR (character)" / "(datetime)" / "(number)"), TO_NUMBER, TO_DATE, TO_TIMESTAMP[_TZ],
 * TO_BINARY_*, COUNT and LENGTH (NUMBER), CAST to a named type, columns a caller resolves, concatenations of typed
 * operands (character) and arithmetic (numeric, or DATE for a datetime plus or minus a number: SQL Language Reference,
 * "Datetime/Interval Arithmetic"). Anything else is undefined: left to the engine.
 */
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"
import type { OraType } from "./types.ts"

/** An expression's type: BINARY is BINARY_FLOAT / BINARY_DOUBLE, TIMESTAMP any TIMESTAMP [WITH [LOCAL] TIME ZONE]. */
export type ExprType = "NUMBER" | "BINARY" | "CHAR" | "DATE" | "TIMESTAMP" | "NULL"

/** The type of the column a dotted name denotes (its parts as Oracle names), undefined when unknown or ambiguous. */
export type ColumnTypeOf = (parts: ReadonlyArray<string>) => ExprType | undefined

/** The type of a column Oracle declared as `t` (national character, LOB, interval, RAW and object columns: undefined). */
export const columnExprType = (t: OraType): ExprType | undefined => {
  if (t.named !== undefined) return undefined
  switch (t.kind) {
    case "number":
      return "NUMBER"
    case "float":
    case "double":
      return "BINARY"
    case "varchar":
      return t.dictName === "VARCHAR2" || t.dictName === "CHAR" ? "CHAR" : undefined
    case "date":
      return "DATE"
    case "timestamp":
    case "timestamptz":
    case "timestampltz":
      return "TIMESTAMP"
    default:
      return undefined
  }
}

const FUNCTION_TYPES: Readonly<Record<string, ExprType>> = {
  TO_CHAR: "CHAR",
  TO_NUMBER: "NUMBER",
  TO_DATE: "DATE",
  TO_TIMESTAMP: "TIMESTAMP",
  TO_TIMESTAMP_TZ: "TIMESTAMP",
  TO_BINARY_DOUBLE: "BINARY",
  TO_BINARY_FLOAT: "BINARY",
  COUNT: "NUMBER",
  LENGTH: "NUMBER"
}

const CAST_TYPES: Readonly<Record<string, ExprType>> = {
  NUMBER: "NUMBER",
  INTEGER: "NUMBER",
  INT: "NUMBER",
  SMALLINT: "NUMBER",
  DECIMAL: "NUMBER",
  DEC: "NUMBER",
  NUMERIC: "NUMBER",
  FLOAT: "NUMBER",
  REAL: "NUMBER",
  BINARY_FLOAT: "BINARY",
  BINARY_DOUBLE: "BINARY",
  VARCHAR2: "CHAR",
  VARCHAR: "CHAR",
  CHAR: "CHAR",
  CHARACTER: "CHAR",
  DATE: "DATE",
  TIMESTAMP: "TIMESTAMP"
}

const DATETIME_VALUES: Readonly<Record<string, ExprType>> = {
  SYSDATE: "DATE",
  CURRENT_DATE: "DATE",
  SYSTIMESTAMP: "TIMESTAMP",
  CURRENT_TIMESTAMP: "TIMESTAMP",
  LOCALTIMESTAMP: "TIMESTAMP"
}

/** Operand starting at `at` (before `to`): its type (undefined when unknown) and where it ends (exclusive), or undefined when it is no operand. */
const operandAt = (toks: ReadonlyArray<Tok>, at: number, to: number, columnType: ColumnTypeOf | undefined): { type: ExprType | undefined; next: number } | undefined => {
  const t = toks[at]
  if (t === undefined || at >= to) return undefined
  if (isOp(t, "(")) {
    const close = matchParen(toks, at)
    if (close < 0 || close >= to) return undefined
    const subquery = isKw(toks[at + 1], "SELECT", "WITH")
    return { type: subquery ? undefined : expressionType(toks, at + 1, close, columnType), next: close + 1 }
  }
  if (t.kind === "num") return { type: /[fFdD]$/.test(t.text) ? "BINARY" : "NUMBER", next: at + 1 }
  // N'...' is NVARCHAR2, of the national character set
  if (t.kind === "str") return { type: /^[nN]'/.test(t.text) ? undefined : "CHAR", next: at + 1 }
  if (t.kind !== "ident" && t.kind !== "qident") return t.kind === "bind" ? { type: undefined, next: at + 1 } : undefined
  if (t.kind === "ident") {
    if (t.value === "NULL") return { type: "NULL", next: at + 1 }
    if ((t.value === "DATE" || t.value === "TIMESTAMP") && toks[at + 1]?.kind === "str" && at + 1 < to) return { type: t.value, next: at + 2 }
    const datetime = DATETIME_VALUES[t.value]
    if (datetime !== undefined) {
      const precision = isOp(toks[at + 1], "(") && t.value !== "SYSDATE" && t.value !== "CURRENT_DATE" ? matchParen(toks, at + 1) : -1
      return { type: datetime, next: precision > 0 && precision < to ? precision + 1 : at + 1 }
    }
    if (isOp(toks[at + 1], "(") && !isOp(toks[at - 1], ".")) return callAt(toks, at, to)
    if (t.value === "CASE" || t.value === "INTERVAL" || t.value === "PRIOR" || t.value === "CONNECT_BY_ROOT") return undefined
  }
  const parts = [oracleName(t)]
  let end = at + 1
  while (isOp(toks[end], ".") && isName(toks[end + 1]) && end + 1 < to) {
    parts.push(oracleName(toks[end + 1]!))
    end += 2
  }
  if (isOp(toks[end], "(")) return undefined
  return { type: columnType?.(parts), next: end }
}

/** A built-in call at `at` (its name) with the type FUNCTION_TYPES or its CAST target gives it. */
const callAt = (toks: ReadonlyArray<Tok>, at: number, to: number): { type: ExprType | undefined; next: number } | undefined => {
  const close = matchParen(toks, at + 1)
  if (close < 0 || close >= to) return undefined
  const name = toks[at]!.value
  let type: ExprType | undefined = FUNCTION_TYPES[name]
  if (name === "CAST") {
    let depth = 0
    for (let k = at + 2; k < close; k++) {
      if (isOp(toks[k], "(")) depth++
      else if (isOp(toks[k], ")")) depth--
      else if (depth === 0 && isKw(toks[k], "AS")) type = toks[k + 1]?.kind === "ident" ? CAST_TYPES[toks[k + 1]!.value] : undefined
    }
  }
  // an analytic COUNT(...) OVER (...) is a NUMBER too
  const over = isKw(toks[close + 1], "OVER") && isOp(toks[close + 2], "(") ? matchParen(toks, close + 2) : -1
  if (over > 0 && over < to) return { type: name === "COUNT" ? type : undefined, next: over + 1 }
  return { type, next: close + 1 }
}

const ARITHMETIC = new Set(["+", "-", "*", "/"])

/** The type of the expression in tokens [from, to), undefined when its text does not show it. */
export const expressionType = (toks: ReadonlyArray<Tok>, from: number, to: number, columnType?: ColumnTypeOf): ExprType | undefined => {
  const operands: Array<ExprType | undefined> = []
  const operators: Array<string> = []
  let k = from
  for (;;) {
    let negated = false
    while (k < to && (isOp(toks[k], "-") || isOp(toks[k], "+"))) {
      negated = true
      k++
    }
    const operand = operandAt(toks, k, to, columnType)
    if (operand === undefined) return undefined
    const type = operand.type
    operands.push(negated && type !== "NUMBER" && type !== "BINARY" && type !== "NULL" ? undefined : type)
    k = operand.next
    if (k >= to) break
    const op = toks[k]
    if (op?.kind !== "op" || (!ARITHMETIC.has(op.value) && op.value !== "||")) return undefined
    operators.push(op.value)
    k++
  }
  if (operators.length === 0) return operands[0]
  if (operands.includes(undefined)) return undefined
  if (operators.every((o) => o === "||")) return "CHAR"
  if (operators.includes("||")) return undefined
  const datetimes = operands.filter((t) => t === "DATE" || t === "TIMESTAMP").length
  if (datetimes === 0) return operands.includes("BINARY") ? "BINARY" : "NUMBER"
  // a datetime plus or minus a number, or a number plus a datetime, is a DATE
  const [left, right] = operands
  const isDatetime = (t: ExprType | undefined) => t === "DATE" || t === "TIMESTAMP"
  if (operands.length !== 2) return undefined
  if (isDatetime(left) && right === "NUMBER" && (operators[0] === "+" || operators[0] === "-")) return "DATE"
  if (left === "NUMBER" && isDatetime(right) && operators[0] === "+") return "DATE"
  return undefined
}
