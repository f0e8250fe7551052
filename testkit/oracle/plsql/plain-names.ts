/**
 * The plain names a PL/SQL expression reads: what Oracle's PL/SQL compiler resolves before the unit runs, so that a
 * name no scope declares is `PLS-00201: identifier 'X' must be declared` at compile time (PL/SQL Language Reference
 * 23ai, "PL/SQL Name Resolution"; Error Messages, PLS-00201).
 *
 * Only an unqualified name standing as a value is one: not a call (`f(`), not the head of a qualified name (`pkg.x`,
 * `r.f`, `c%ROWCOUNT`), not a named argument (`p =>`), not a word of SQL's expression syntax (operators, literals'
 * keywords, interval qualifiers, IS NULL / IS EMPTY / MEMBER OF, ...), not an Oracle function taken without
 * parentheses (SYSDATE, USER, ...), not a type after AS (CAST). An expression holding a query (its columns are no
 * PL/SQL names) and the arguments of functions with their own syntax (CAST, EXTRACT, TRIM, JSON and XML functions)
 * are not read.
 */
import { isKw, isOp, type Tok } from "../lexer.ts"
import { ORACLE_FUNCTIONS } from "../function-names.ts"
import { BINARY_CONSTANTS } from "../translate-literals.ts"
import type { Expr } from "./ast.ts"

/** Words of SQL's and PL/SQL's expression syntax that stand where a name could. */
const SYNTAX_WORDS: ReadonlySet<string> = new Set([
  "AND", "OR", "NOT", "NULL", "TRUE", "FALSE", "IS", "IN", "LIKE", "LIKE2", "LIKE4", "LIKEC", "ESCAPE", "BETWEEN",
  "CASE", "WHEN", "THEN", "ELSE", "END", "MEMBER", "OF", "SUBMULTISET", "MULTISET", "UNION", "INTERSECT", "EXCEPT",
  "MINUS", "ALL", "DISTINCT", "ANY", "SOME", "EXISTS", "EMPTY", "A", "SET", "NAN", "INFINITE", "JSON", "TYPE", "ONLY",
  "DATE", "TIMESTAMP", "INTERVAL", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO", "AT", "TIME", "ZONE",
  "LOCAL", "WITH", "AS", "FROM", "USING", "CHAR_CS", "NCHAR_CS", "DEFAULT", "ON", "CONVERSION", "ERROR", "COLLATE",
  "PRIOR", "MOD", "REM", "SELF", "INSERTING", "UPDATING", "DELETING", "SQLCODE", "SQLERRM", "ROWNUM", "LEVEL", "ROWID",
  "FIRST", "LAST", "NULLS", "ASC", "DESC", "STRICT", "LAX", "WITHOUT", "UNIQUE", "KEYS", "ORA_LOGIN_USER", "ORA_SYSEVENT",
  "ORA_DICT_OBJ_NAME", "ORA_DICT_OBJ_TYPE", "ORA_DICT_OBJ_OWNER", "ORA_DATABASE_NAME", "ORA_INSTANCE_NUM", "ORA_IS_SERVERERROR", "BINARY_DOUBLE_MAX_NORMAL", "BINARY_DOUBLE_MIN_NORMAL",
  "BINARY_DOUBLE_MAX_SUBNORMAL", "BINARY_DOUBLE_MIN_SUBNORMAL", "BINARY_FLOAT_MAX_NORMAL", "BINARY_FLOAT_MIN_NORMAL",
  "BINARY_FLOAT_MAX_SUBNORMAL", "BINARY_FLOAT_MIN_SUBNORMAL", ...Object.keys(BINARY_CONSTANTS)
])

/** Functions whose arguments are no plain expressions (keywords, types, paths): their parentheses are not read. */
const OWN_SYNTAX = (name: string): boolean => ["CAST", "EXTRACT", "TRIM", "TREAT", "XMLCAST", "VALIDATE_CONVERSION", "TRANSLATE", "LISTAGG"].includes(name) || name.startsWith("JSON") || name.startsWith("XML")

const isName = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** The index of the `)` closing the `(` at `open` (the last index when it is missing). */
const closing = (toks: Expr, open: number): number => {
  let depth = 0
  for (let k = open; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")") && --depth === 0) return k
  }
  return toks.length - 1
}

/** The index of the innermost `(` still open at `k` (-1 when none). */
const enclosingParen = (toks: Expr, k: number): number => {
  let depth = 0
  for (let j = k - 1; j >= 0; j--) {
    if (isOp(toks[j], ")")) depth++
    else if (isOp(toks[j], "(") && depth-- === 0) return j
  }
  return -1
}

/** The tokens of `expr` that are plain names read as values (see the module's comment), in order. */
export const plainNames = (expr: Expr): Array<Tok> => {
  if (expr.some((t) => isKw(t, "SELECT"))) return []
  const out: Array<Tok> = []
  for (let k = 0; k < expr.length; k++) {
    const t = expr[k]!
    if (!isName(t)) continue
    const next = expr[k + 1]
    if (isOp(next, "(") && t.kind === "ident" && OWN_SYNTAX(t.value)) {
      k = closing(expr, k + 1)
      continue
    }
    const prev = expr[k - 1]
    if (isOp(prev, ".") || isOp(prev, "%") || isKw(prev, "AS", "COLLATE")) continue
    // `x IS OF (ONLY t, u)`: type names
    if (isKw(expr[enclosingParen(expr, k) - 1], "OF")) continue
    if (isOp(next, "(") || isOp(next, ".") || isOp(next, "%") || isOp(next, "=>") || isOp(next, "@")) continue
    if (t.kind === "ident" && (SYNTAX_WORDS.has(t.value) || ORACLE_FUNCTIONS.has(t.value))) continue
    out.push(t)
  }
  return out
}

/** The first token of each call `name(` and qualified name `name.` that is not itself qualified: what a unit may depend on. */
export const referencedHeads = (expr: Expr): Array<{ readonly tok: Tok; readonly qualified: boolean }> =>
  expr.flatMap((t, k) =>
    isName(t) && !isOp(expr[k - 1], ".") && !isOp(expr[k - 1], "%") && (isOp(expr[k + 1], "(") || isOp(expr[k + 1], ".")) ? [{ tok: t, qualified: isOp(expr[k + 1], ".") }] : []
  )
