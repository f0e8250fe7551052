/**
 * How Oracle describes a NUMBER-valued select item that is no plain column (results.ts applies it when the engine's
 * result is a number):
 *
 * - a computed value over columns (arithmetic, functions, CASE, the aggregates COUNT / SUM / AVG, `COUNT(*)`):
 *   NUMBER with precision 0 and scale 0. Oracle JDBC's metadata of `X1 / X2` is 0, 0
 *   (https://github.com/OHDSI/DatabaseConnector/pull/189); of `COUNT(*)` NUMERIC precision 0, scale 0
 *   (https://github.com/confluentinc/kafka-connect-jdbc/issues/1066, https://github.com/exasol/virtual-schemas/issues/364),
 *   of `AVG(bar)` both zero ("Oracle JDBC driver doesn't provide scale/precision information for expressions (they
 *   both are equal to zero)", https://github.com/dbeaver/dbeaver/issues/1767), of `COUNT(*)`, `SUM()` and
 *   `EXTRACT(YEAR FROM ...)` columnSize 0, decimalDigits 0 (https://github.com/trinodb/trino/pull/30517);
 *   python-oracledb typed `n1/sqrt(252)` and `CreditScore/4` as integers by that scale 0 until it required a
 *   non-zero precision (https://github.com/oracle/python-oracledb/issues/510, commit 968da54);
 * - a constant (a literal `0.1` or `1.5`, `1/10`): precision 0, scale -127, NUMBER without precision (the same JDBC
 *   sources; node-oracledb's own test 162.1 describes `select 1 as col from dual` so, test/getStmtInfo.js);
 * - a value of a declared type, kept: `CAST(x AS NUMBER(p,s))` (JDBC: `CAST(1.1 AS NUMBER(1,0))` is 1, 0), and MIN /
 *   MAX, which return their argument's type.
 */
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { type OraType, parseOracleType } from "./types.ts"

/** How a number-valued item is described: `columns` precision 0 scale 0, `constants` 0 / -127, `declared` as the engine types it. */
export type NumberDescription = "columns" | "constants" | "declared"

/** Words inside an expression that name no column. */
const NOT_COLUMNS = new Set([
  "CASE", "WHEN", "THEN", "ELSE", "END", "AND", "OR", "NOT", "IS", "NULL", "IN", "BETWEEN", "LIKE", "AS", "DISTINCT", "ALL",
  "UNIQUE", "OVER", "PARTITION", "BY", "ORDER", "ASC", "DESC", "NULLS", "FIRST", "LAST", "ROWS", "RANGE", "UNBOUNDED",
  "PRECEDING", "FOLLOWING", "CURRENT", "ROW", "FROM", "TRUE", "FALSE", "SYSDATE", "SYSTIMESTAMP", "CURRENT_DATE",
  "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "DBTIMEZONE", "SESSIONTIMEZONE", "USER", "UID", "ROWNUM", "LEVEL", "DATE",
  "TIMESTAMP", "INTERVAL", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO", "TIMEZONE_HOUR", "TIMEZONE_MINUTE",
  "TIMEZONE_REGION", "TIMEZONE_ABBR", "BINARY_DOUBLE_NAN", "BINARY_DOUBLE_INFINITY", "BINARY_FLOAT_NAN",
  "BINARY_FLOAT_INFINITY", "WITHIN", "GROUP", "KEEP", "DENSE_RANK", "IGNORE", "RESPECT", "NULLS"
])

/** The item's expression without a trailing alias (`expr [AS] alias`). */
const withoutAlias = (part: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const last = part[part.length - 1]
  const before = part[part.length - 2]
  if (part.length < 2 || last === undefined || (last.kind !== "ident" && last.kind !== "qident") || isOp(before, ".")) return part
  if (isKw(before, "AS")) return part.slice(0, -2)
  if (last.kind === "ident" && NOT_COLUMNS.has(last.value)) return part
  return before !== undefined && (before.kind !== "op" || isOp(before, ")")) ? part.slice(0, -1) : part
}

/** True when the whole of `expr` is one call `NAME(...)` of one of `names` (with an optional `OVER (...)`). */
const wholeCall = (expr: ReadonlyArray<Tok>, ...names: Array<string>): boolean => {
  if (!isKw(expr[0], ...names) || !isOp(expr[1], "(")) return false
  let k = matchParen(expr, 1) + 1
  if (isKw(expr[k], "OVER") && isOp(expr[k + 1], "(")) k = matchParen(expr, k + 1) + 1
  return k === expr.length
}

/** How Oracle describes select item `part` (with its alias, if any) when its value is a NUMBER (see the module's sources). */
export const numberDescription = (part: ReadonlyArray<Tok>): NumberDescription => {
  const expr = withoutAlias(part)
  if (wholeCall(expr, "MIN", "MAX")) return "declared"
  // CAST(x AS NUMBER) is NUMBER without precision, CAST(x AS NUMBER(p,s) | INTEGER | ...) that type
  if (isKw(expr[0], "CAST") && isOp(expr[1], "(") && matchParen(expr, 1) === expr.length - 1) return isKw(expr[expr.length - 2], "NUMBER") ? "constants" : "declared"
  if (wholeCall(expr, "COUNT")) return "columns"
  const named = expr.some((t, k) => (t.kind === "qident" || (t.kind === "ident" && !NOT_COLUMNS.has(t.value))) && !isOp(expr[k + 1], "(") && !isOp(expr[k + 1], "."))
  return named ? "columns" : "constants"
}

/**
 * The declared type of select item `part` when it is `CAST(x AS NUMBER(p,-s))` (with an alias or not): its engine
 * storage, an integer DECIMAL(p+s,0), would describe it as NUMBER(p+s) (types.ts numberType).
 */
export const negativeScaleCast = (part: ReadonlyArray<Tok>): OraType | undefined => {
  const expr = withoutAlias(part)
  if (!isKw(expr[0], "CAST") || !isOp(expr[1], "(") || matchParen(expr, 1) !== expr.length - 1) return undefined
  let asAt = -1
  for (let k = 2; k < expr.length - 1; k++) {
    if (isOp(expr[k], "(")) k = matchParen(expr, k)
    else if (isKw(expr[k], "AS")) asAt = k
  }
  const type = asAt < 0 ? undefined : parseOracleType(expr.slice(asAt + 1, -1).map((t) => t.text).join(" "))
  return type?.kind === "number" && type.dictName === "NUMBER" && type.scale < 0 && type.scale !== -127 ? type : undefined
}

/**
 * The declared type of select item `part` when it is MIN or MAX of a NUMBER(p,-s) column of `columns` (by name): they
 * "return their argument's type", where the column's engine storage, an integer DECIMAL(p+s,0), would describe the
 * result as NUMBER(p+s).
 */
export const negativeScaleExtreme = (part: ReadonlyArray<Tok>, columns: ReadonlyMap<string, OraType> | undefined): OraType | undefined => {
  const expr = withoutAlias(part)
  if (columns === undefined || columns.size === 0 || !wholeCall(expr, "MIN", "MAX")) return undefined
  const close = matchParen(expr, 1)
  const inner = expr.slice(2, close)
  const name = inner.length === 1 ? inner[0] : inner.length === 3 && isOp(inner[1], ".") ? inner[2] : undefined
  return name === undefined || (name.kind !== "ident" && name.kind !== "qident") ? undefined : columns.get(name.value)
}
