/**
 * `SELECT [DISTINCT] TOP n …` in a subquery (an INSERT's, or one in parentheses in a query or an INSERT) as DuckDB's
 * `… LIMIT n`.
 * HANA's select clause is `SELECT [TOP <unsigned_integer>] [ALL | DISTINCT] <select_list>` in every subquery (SAP HANA
 * SQL Reference, "SELECT Statement": <subquery> ::= <select_clause> <from_clause> …; "INSERT Statement":
 * `INSERT INTO <table_name> [(<column_list>)] {<value_list_clause> | <subquery>}`). query.ts takes the TOP of a
 * query's own top-level SELECT itself and this for its subqueries.
 */
import { matching, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

const SET_OPERATORS = new Set(["UNION", "INTERSECT", "EXCEPT", "MINUS"])

/**
 * The end (exclusive) of the query block starting at `from`: the closing parenthesis of its group or the end of
 * the tokens, past any set operation that follows at its level (its ORDER BY included).
 */
const blockEnd = (tokens: readonly Token[], from: number): number => {
  for (let j = from; j < tokens.length; j++) {
    const t = tokens[j]!
    if (t.t === "op" && t.v === "(") j = matching(tokens, j)
    else if (t.t === "op" && t.v === ")") return j
  }
  return tokens.length
}

/** Whether the SELECT at `i` follows a set operator (`UNION [ALL | DISTINCT] SELECT …`): a later branch. */
const laterBranch = (tokens: readonly Token[], i: number): boolean => {
  const before = ["ALL", "DISTINCT"].includes(upper(tokens[i - 1])) ? i - 2 : i - 1
  return SET_OPERATORS.has(upper(tokens[before]))
}

/**
 * `tokens` with each `SELECT [DISTINCT] TOP n` (a number, or a parameter no later parameter of its block follows,
 * so the parameters keep their order) written as a `LIMIT n` at the end of its query block. The TOP of a block's
 * first SELECT limits the block's whole set operation, as a statement's own TOP does (query.ts): SAP HANA SQL
 * Reference, "SELECT Statement", `<subquery> ::= <select_clause> <from_clause> … [<set_operator> <subquery> …]
 * [<order_by_clause>] [<limit>]`, TOP giving "the first <unsigned_integer> records from the SQL statement". A TOP
 * of a later branch (`… UNION SELECT TOP 1 …`) is left as it is.
 */
export const topAsLimit = (tokens: readonly Token[]): readonly Token[] => {
  if (!tokens.some((t) => upper(t) === "TOP")) return tokens
  let out = [...tokens]
  for (let i = out.length - 1; i >= 0; i--) {
    if (upper(out[i]) !== "SELECT") continue
    const at = upper(out[i + 1]) === "DISTINCT" || upper(out[i + 1]) === "ALL" ? i + 2 : i + 1
    const count = out[at + 1]
    if (upper(out[at]) !== "TOP" || (count?.t !== "number" && count?.t !== "param") || laterBranch(out, i)) continue
    const end = blockEnd(out, at + 2)
    if (count.t === "param" && out.slice(at + 2, end).some((t) => t.t === "param")) continue
    out = [...out.slice(0, at), ...out.slice(at + 2, end), { t: "word", v: "LIMIT" }, count, ...out.slice(end)]
  }
  return out
}
