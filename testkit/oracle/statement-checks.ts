/**
 * Mistakes Oracle finds while parsing a statement, reported with the code Oracle's parser gives them rather than the
 * one the engine's parser (or a later run) would: checked on the Oracle text before it is translated
 * (`parseTimeError`), and used to name a syntax error the engine reported (`syntaxErrorOf`).
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00903/, ora-00905,
 * ora-00907, ora-00908, ora-00913, ora-00924, ora-00936, ora-00947, ora-00971). Which code Oracle's parser gives a
 * malformed statement is not documented statement by statement: these follow the message each code's "Cause" names
 * (ORA-00924 "the keyword BY was omitted in a GROUP BY or ORDER BY clause", ORA-00971 "the keyword SET ... was
 * omitted", ORA-00908 "IS NULL or IS NOT NULL ... the keyword NULL was missing", ORA-00903 "a table name ... is
 * missing or invalid", ORA-00936 "a required part of a clause or expression has been omitted").
 */
import { caseResultTypeError } from "./case-result-types.ts"
import { likeEscapeError } from "./like-escapes.ts"
import { databaseLinkError } from "./database-links.ts"
import { OraError } from "./errors.ts"
import { nameError, semanticError } from "./semantic-checks.ts"
import { subqueryOperandError } from "./subquery-operands.ts"
import { findTopLevel, isKw, isOp, matchParen, significantTokensOf, splitTopLevel, type Tok } from "./lexer.ts"

const tooMany = () => new OraError(913, "too many values")
const notEnough = () => new OraError(947, "not enough values")

const tokensOf = significantTokensOf

/** Items of the select list of the query whose SELECT is at `select` (undefined when it has no FROM at its level). */
const selectItems = (toks: ReadonlyArray<Tok>, select: number, end: number): number | undefined => {
  const from = findTopLevel(toks, select + 1, end, (t) => isKw(t, "FROM"))
  return from < 0 ? undefined : splitTopLevel(toks.slice(select + 1, from)).length
}

/**
 * Value-count mistakes Oracle rejects when parsing, whatever the data: a scalar subquery in a select list giving
 * more than one column (ORA-00913), and `UPDATE ... SET (a, b) = (SELECT ...)` whose subquery gives more or fewer
 * columns than the list names (ORA-00913 / ORA-00947), also on a table without rows. Undefined when neither.
 */
export const parseTimeError = (sql: string): OraError | undefined => {
  const toks = tokensOf(sql)
  if (toks === undefined || toks.length === 0) return undefined
  let depth = 0
  for (const t of toks) depth += isOp(t, "(") ? 1 : isOp(t, ")") ? -1 : 0
  if (depth > 0) return new OraError(907, "missing right parenthesis")
  if (isKw(toks[0], "SELECT")) {
    const from = findTopLevel(toks, 1, toks.length, (t) => isKw(t, "FROM"))
    for (let k = 1; k < (from < 0 ? toks.length : from); k++) {
      if (!isOp(toks[k], "(") || !isKw(toks[k + 1], "SELECT") || !(isKw(toks[k - 1], "SELECT", "DISTINCT") || isOp(toks[k - 1], ","))) continue
      const close = matchParen(toks, k)
      const items = close < 0 ? undefined : selectItems(toks, k + 1, close)
      if (items !== undefined && items > 1) return tooMany()
    }
  }
  if (isKw(toks[0], "UPDATE")) {
    const set = findTopLevel(toks, 1, toks.length, (t) => isKw(t, "SET"))
    for (let k = set + 1; set > 0 && k < toks.length; k++) {
      if (!isOp(toks[k], "(") || !(isKw(toks[k - 1], "SET") || isOp(toks[k - 1], ","))) continue
      const close = matchParen(toks, k)
      if (close < 0 || !isOp(toks[close + 1], "=") || !isOp(toks[close + 2], "(") || !isKw(toks[close + 3], "SELECT")) continue
      const targets = splitTopLevel(toks.slice(k + 1, close)).length
      const end = matchParen(toks, close + 2)
      const items = end < 0 ? undefined : selectItems(toks, close + 3, end)
      if (items !== undefined && items !== targets) return items > targets ? tooMany() : notEnough()
    }
  }
  return databaseLinkError(toks) ?? subqueryOperandError(toks) ?? caseResultTypeError(toks) ?? likeEscapeError(toks) ?? semanticError(toks)
}

/**
 * Column data types of CREATE TABLE / ALTER TABLE that Oracle refuses when parsing: a character or RAW type without
 * its length (ORA-00906), a length past the largest any type allows (32767 bytes: ORA-00910), a NUMBER precision
 * outside 1..38 (ORA-01727) or scale outside -84..127 (ORA-01728). Undefined for other statements (PL/SQL
 * parameters take no length) and for valid types. Limits: Oracle SQL Language Reference, "Data Types".
 */
export const columnTypeError = (sql: string): OraError | undefined => {
  const names = tokensOf(sql)
  const named = names === undefined ? undefined : nameError(names)
  if (named !== undefined) return named
  if (!/^\s*(?:CREATE\s+(?:(?:GLOBAL|PRIVATE)\s+TEMPORARY\s+)?TABLE|ALTER\s+TABLE)\b/i.test(sql)) return undefined
  const toks = tokensOf(sql)
  if (toks === undefined) return undefined
  for (let k = 1; k < toks.length; k++) {
    const typed = isOp(toks[k - 1], ",") || isOp(toks[k - 1], "(") || toks[k - 1]!.kind === "ident" || toks[k - 1]!.kind === "qident"
    if (!typed) continue
    // LONG RAW takes no length
    if (isKw(toks[k], "VARCHAR2", "NVARCHAR2", "RAW", "VARCHAR") && !(isKw(toks[k], "RAW") && isKw(toks[k - 1], "LONG"))) {
      // the type ends its column definition (a column may itself be named RAW: then a type follows the name)
      const ends = isOp(toks[k + 1], ",") || isOp(toks[k + 1], ")") || isKw(toks[k + 1], "NOT", "NULL", "DEFAULT", "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES")
      if (ends) return new OraError(906, "missing left parenthesis")
      if (toks[k + 2]?.kind === "num" && Number(toks[k + 2]!.value) > 32767) return new OraError(910, "specified length too long for its datatype")
    }
    if (isKw(toks[k], "NUMBER") && isOp(toks[k + 1], "(") && toks[k + 2]?.kind === "num") {
      const precision = Number(toks[k + 2]!.value)
      if (precision < 1 || precision > 38) return new OraError(1727, "numeric precision specifier is out of range (1 to 38)")
      const scaleAt = isOp(toks[k + 4], "-") ? k + 5 : k + 4
      if (isOp(toks[k + 3], ",") && toks[scaleAt]?.kind === "num") {
        const scale = Number(toks[scaleAt]!.value) * (scaleAt === k + 5 ? -1 : 1)
        if (scale < -84 || scale > 127) return new OraError(1728, "numeric scale specifier is out of range (-84 to 127)")
      }
    }
  }
  return undefined
}

/** Operators that need an operand after them, and the words that start the next clause instead of one. */
const OPERATORS = new Set(["+", "-", "/", "||", "=", "<", ">", "<=", ">=", "<>", "!="])
const CLAUSE_WORDS = ["FROM", "WHERE", "GROUP", "ORDER", "HAVING", "AND", "OR", "THEN", "ELSE", "END", "UNION", "INTERSECT", "MINUS"]

/** Words that may follow IS (and IS NOT) in an Oracle condition. */
const AFTER_IS = ["NULL", "NOT", "JSON", "OF", "A", "EMPTY", "NAN", "INFINITE", "DANGLING", "PRESENT", "TRUE", "FALSE"]

/**
 * The ORA- error Oracle's parser gives the statement the engine failed to parse, when its text shows which part is
 * missing; undefined to keep the general ORA-00933.
 */
export const syntaxErrorOf = (sql: string): OraError | undefined => {
  const toks = tokensOf(sql)
  if (toks === undefined || toks.length === 0) return undefined
  for (let k = 0; k < toks.length; k++) {
    const afterIs = isKw(toks[k + 1], "NOT") ? toks[k + 2] : toks[k + 1]
    if (isKw(toks[k], "IS") && !isKw(afterIs, ...AFTER_IS)) return new OraError(908, "missing NULL keyword")
    if (OPERATORS.has(toks[k]!.kind === "op" ? toks[k]!.value : "") && isKw(toks[k + 1], ...CLAUSE_WORDS)) return new OraError(936, "missing expression")
    if (isKw(toks[k], "ORDER", "GROUP") && toks[k + 1] !== undefined && !isKw(toks[k + 1], "BY") && !isOp(toks[k - 1], ".")) return new OraError(924, "missing BY keyword")
    if (isKw(toks[k], "IN") && isOp(toks[k + 1], "(") && isOp(toks[k + 2], ")")) return new OraError(936, "missing expression")
  }
  if (isKw(toks[0], "UPDATE") && findTopLevel(toks, 1, toks.length, (t) => isKw(t, "SET")) < 0) return new OraError(971, "missing SET keyword")
  if (isKw(toks[0], "INSERT") && isKw(toks[1], "INTO") && isKw(toks[2], "VALUES", "SELECT")) return new OraError(903, "invalid table name")
  const count = (...kws: string[]) => toks.filter((t) => isKw(t, ...kws)).length
  if (count("CASE") > count("END")) return new OraError(905, "missing keyword")
  const last = toks[toks.length - 1]!
  if (isKw(last, "FROM", "INTO", "JOIN", "TABLE", "UPDATE")) return new OraError(903, "invalid table name")
  // BETWEEN needs its AND at the same level
  for (let k = 0; k < toks.length; k++) {
    if (isKw(toks[k], "BETWEEN") && findTopLevel(toks, k + 1, toks.length, (t) => isKw(t, "AND")) < 0) return new OraError(905, "missing keyword")
  }
  // the statement stops where an expression must follow
  if (last.kind === "op" && last.value !== ")" || isKw(last, "WHERE", "AND", "OR", "NOT", "BY", "SET", "HAVING", "ON", "SELECT", "VALUES", "THEN", "ELSE", "WHEN", "LIKE", "IN"))
    return new OraError(936, "missing expression")
  return undefined
}
