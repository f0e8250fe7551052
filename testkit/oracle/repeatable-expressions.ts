/**
 * Whether an expression may be written twice in the engine's SQL (a rewrite that compares it with several values)
 * without changing what the statement does: Oracle computes an operand once per comparison it takes part in, so a
 * value that changes from one evaluation to the next (DBMS_RANDOM, SYS_GUID) or a call of the user's code (a stored
 * or package function, which may have effects: a counter, a log row) must stay one occurrence. Columns, literals,
 * binds (one bind token written again stays one value: session-translate.ts numbers binds by token) and Oracle's
 * own deterministic functions may be repeated.
 */
import { ORACLE_FUNCTIONS } from "./function-names.ts"
import { isKw, isName, isOp, type Tok } from "./lexer.ts"

/** Built-in functions and packages whose value differs from one evaluation to the next. */
const VOLATILE_NAMES = ["SYS_GUID", "DBMS_RANDOM", "DBMS_UTILITY"]

/** Words followed by a parenthesis that are not calls (conditions, clauses, type names with a length). */
const NOT_CALLS = new Set([
  "IN", "EXISTS", "ANY", "SOME", "ALL", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "CASE", "SELECT", "FROM", "WHERE",
  "OVER", "BY", "ON", "VALUES", "LIKE", "BETWEEN", "DISTINCT", "KEEP", "GROUP", "TABLE", "MULTISET", "THE", "USING",
  "DAY", "MONTH", "YEAR", "SECOND", "TO", "CHAR", "NCHAR", "VARCHAR2", "NVARCHAR2", "RAW", "NUMBER", "FLOAT", "TIMESTAMP"
])

/** True when `toks` (significant or not) call nothing whose repeated evaluation could give another value or effect. */
export const isRepeatable = (toks: ReadonlyArray<Tok>): boolean => {
  const sig = toks.filter((t) => t.kind !== "ws")
  return sig.every((t, k) => {
    if (isKw(t, ...VOLATILE_NAMES)) return false
    if (!isName(t) || !isOp(sig[k + 1], "(")) return true
    // a package's function or an object's method: the user's code
    if (isOp(sig[k - 1], ".")) return false
    return t.kind === "ident" && (ORACLE_FUNCTIONS.has(t.value) || NOT_CALLS.has(t.value) || isKw(sig[k - 1], "AS"))
  })
}
