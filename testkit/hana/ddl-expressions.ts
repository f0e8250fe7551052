/**
 * The parts of a DDL statement that hold the expressions a query holds: a view's query (`CREATE [OR REPLACE] VIEW
 * v [(…)] AS <query>`) and a CHECK's condition (`CHECK (…)`, in a column, a table element or `ALTER TABLE … ADD`),
 * so that a rewrite of query expressions reaches them too. Everything else of a DDL statement (types, DEFAULTs,
 * names) is no query expression and is left alone.
 */
import { matching, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v

/**
 * `tokens` with `rewrite` applied to the query expressions of a DDL statement (see the module comment), or to the
 * whole statement when it is no DDL.
 */
export const rewriteQueryExpressions = (tokens: readonly Token[], rewrite: (part: readonly Token[]) => readonly Token[]): readonly Token[] => {
  const first = upper(tokens[0])
  if (first === "CREATE") {
    let i = 1
    if (upper(tokens[i]) === "OR" && upper(tokens[i + 1]) === "REPLACE") i += 2
    if (upper(tokens[i]) === "VIEW") {
      let depth = 0
      for (let j = i + 1; j < tokens.length; j++) {
        if (isOp(tokens[j], "(")) depth++
        else if (isOp(tokens[j], ")")) depth--
        else if (depth === 0 && upper(tokens[j]) === "AS") return [...tokens.slice(0, j + 1), ...rewrite(tokens.slice(j + 1))]
      }
      return tokens
    }
  }
  const ddl = ["CREATE", "ALTER", "DROP"].includes(first)
  if (!ddl && !tokens.some((t) => upper(t) === "CHECK")) return rewrite(tokens)
  // a CHECK's condition, in a statement or in a table element ddl.ts rewrites on its own
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    if (upper(t) === "CHECK" && isOp(tokens[i + 1], "(")) {
      const close = matching(tokens, i + 1)
      out.push(t, tokens[i + 1]!, ...rewrite(tokens.slice(i + 2, close)), tokens[close]!)
      i = close + 1
      continue
    }
    out.push(t)
    i++
  }
  return out
}
