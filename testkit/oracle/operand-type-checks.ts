/**
 * Type mistakes Oracle finds before running a query, where the engine would convert, run or fail with another code:
 * a NUMBER compared with a DATE (`n = SYSDATE`: ORA-00932 "inconsistent datatypes: expected NUMBER got DATE", the
 * left operand's type expected) and EXTRACT of HOUR, MINUTE, SECOND or a TIMEZONE field from a DATE (ORA-30076
 * "invalid extract field for extract source": SQL Language Reference, "EXTRACT (datetime)": a DATE has no time
 * fields to extract by this function), a DATE averaged or summed (below), and a CASE mixing a NUMBER or DATE column
 * with a literal of another family (case-result-types.ts). Only operands whose type the text shows are checked: number literals, DATE
 * literals, SYSDATE / CURRENT_DATE, TO_DATE(...), and columns whose name is of that type alone in the statement's tables.
 */
import { caseResultTypeError } from "./case-result-types.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, significantTokensOf, type Tok } from "./lexer.ts"

/** Column names of the statement's tables by type (a name of several types is in several sets). */
export interface ColumnKinds {
  readonly numbers: ReadonlySet<string>
  readonly dates: ReadonlySet<string>
  readonly others: ReadonlySet<string>
  /** VARCHAR2 / CHAR column names (CASE operands of the character family). */
  readonly characters?: ReadonlySet<string>
}

type Kind = "NUMBER" | "DATE"

const COMPARISONS = new Set(["=", "<>", "!=", "^=", "<", ">", "<=", ">="])

/** The operand ending at `last` (inclusive) when it is one whole operand: the kind and where it starts. */
const operandBefore = (toks: ReadonlyArray<Tok>, last: number, columns: ColumnKinds): Kind | undefined => {
  const t = toks[last]
  if (t === undefined) return undefined
  let start = last
  let kind: Kind | undefined
  if (t.kind === "num") kind = "NUMBER"
  else if (t.kind === "str" && isKw(toks[last - 1], "DATE")) [kind, start] = ["DATE", last - 1]
  else if (isKw(t, "SYSDATE", "CURRENT_DATE")) kind = "DATE"
  else if (t.kind === "ident" || t.kind === "qident") {
    while (isOp(toks[start - 1], ".") && (toks[start - 2]?.kind === "ident" || toks[start - 2]?.kind === "qident")) start -= 2
    kind = columnKind(t.value, columns)
  }
  if (kind === undefined) return undefined
  const before = toks[start - 1]
  return before === undefined || isOp(before, "(") || isOp(before, ",") || isKw(before, "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING") ? kind : undefined
}

const operandAfter = (toks: ReadonlyArray<Tok>, first: number, columns: ColumnKinds): Kind | undefined => {
  const t = toks[first]
  if (t === undefined) return undefined
  let end = first
  let kind: Kind | undefined
  if (t.kind === "num") kind = "NUMBER"
  else if (isKw(t, "DATE") && toks[first + 1]?.kind === "str") [kind, end] = ["DATE", first + 1]
  else if (isKw(t, "SYSDATE", "CURRENT_DATE")) kind = "DATE"
  else if (isKw(t, "TO_DATE") && isOp(toks[first + 1], "(")) [kind, end] = ["DATE", matchParen(toks, first + 1)]
  else if (t.kind === "ident" || t.kind === "qident") {
    while (isOp(toks[end + 1], ".") && (toks[end + 2]?.kind === "ident" || toks[end + 2]?.kind === "qident")) end += 2
    if (isOp(toks[end + 1], "(")) return undefined
    kind = columnKind(toks[end]!.value, columns)
  }
  if (kind === undefined || end < 0) return undefined
  const after = toks[end + 1]
  return after === undefined || isOp(after, ")") || isOp(after, ",") || isKw(after, "AND", "OR", "THEN", "ORDER", "GROUP", "UNION", "MINUS", "INTERSECT", "FETCH") ? kind : undefined
}

const columnKind = (name: string, columns: ColumnKinds): Kind | undefined => {
  if (columns.others.has(name)) return undefined
  const number = columns.numbers.has(name)
  const date = columns.dates.has(name)
  return number && !date ? "NUMBER" : date && !number ? "DATE" : undefined
}

/**
 * Aggregates taking only a number: Oracle converts no DATE to NUMBER ("Implicit Data Conversion"), so `AVG(date_col)`,
 * which the engine would average, is ORA-00932 "expected NUMBER got DATE" ("AVG": "takes as an argument any numeric
 * data type or any nonnumeric data type that can be implicitly converted to a numeric data type").
 */
const NUMBER_AGGREGATES = ["SUM", "AVG", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP"]

const TIME_FIELDS = ["HOUR", "MINUTE", "SECOND", "TIMEZONE_HOUR", "TIMEZONE_MINUTE", "TIMEZONE_REGION", "TIMEZONE_ABBR"]

/** The error Oracle gives the query `sql` for one of the mistakes above, or undefined. */
export const operandTypeError = (sql: string, columns: ColumnKinds): OraError | undefined => {
  const toks = significantTokensOf(sql)
  if (toks === undefined) return undefined
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (t.kind === "op" && COMPARISONS.has(t.value)) {
      const left = operandBefore(toks, k - 1, columns)
      const right = left === undefined ? undefined : operandAfter(toks, k + 1, columns)
      if (left !== undefined && right !== undefined && left !== right) return new OraError(932, `inconsistent datatypes: expected ${left} got ${right}`)
    }
    if (isKw(t, ...NUMBER_AGGREGATES) && isOp(toks[k + 1], "(") && !isOp(toks[k - 1], ".")) {
      const close = matchParen(toks, k + 1)
      const first = isKw(toks[k + 2], "DISTINCT", "ALL") ? k + 3 : k + 2
      if (close > 0 && operandAfter(toks, first, columns) === "DATE" && operandEnd(toks, first) === close - 1) return ora.inconsistentTypes("expected NUMBER got DATE")
    }
    if (isKw(t, "EXTRACT") && isOp(toks[k + 1], "(") && isKw(toks[k + 2], ...TIME_FIELDS) && isKw(toks[k + 3], "FROM")) {
      const close = matchParen(toks, k + 1)
      if (close > 0 && operandAfter(toks, k + 4, columns) === "DATE" && operandEnd(toks, k + 4) === close - 1)
        return new OraError(30076, "invalid extract field for extract source")
    }
  }
  return caseResultTypeError(toks, (name) => columnKind(name, columns) ?? (columns.characters?.has(name) === true && !columns.numbers.has(name) && !columns.dates.has(name) ? "CHAR" : undefined))
}

/** Where a DATE operand starting at `first` ends (as operandAfter reads it). */
const operandEnd = (toks: ReadonlyArray<Tok>, first: number): number => {
  const t = toks[first]!
  if (isKw(t, "DATE") && toks[first + 1]?.kind === "str") return first + 1
  if (isKw(t, "TO_DATE") && isOp(toks[first + 1], "(")) return matchParen(toks, first + 1)
  let end = first
  while (isOp(toks[end + 1], ".") && (toks[end + 2]?.kind === "ident" || toks[end + 2]?.kind === "qident")) end += 2
  return end
}
