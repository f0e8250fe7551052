/**
 * Helpers for the rewrites that restructure one query block before translation (hierarchical.ts,
 * outer-join-plus.ts).
 */
import type { TableMeta } from "./catalog.ts"
import { isOp, type Tok } from "./lexer.ts"

/** Finds a table by schema and name, as the session resolves it. */
export type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/**
 * The end (exclusive) of the query block that token `from` stands in: the parenthesis closing around it, the first
 * top-level token `stop` accepts, or the end of the statement.
 */
export const blockEnd = (toks: ReadonlyArray<Tok>, from: number, stop: (t: Tok) => boolean = () => false): number => {
  let depth = 0
  for (let k = from; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) {
      if (depth === 0) return k
      depth--
    } else if (depth === 0 && stop(toks[k]!)) return k
  }
  return toks.length
}

/** The first index at relative depth 0 in [from, to) whose token `match` accepts, or `to`. */
export const topLevelAt = (toks: ReadonlyArray<Tok>, from: number, to: number, match: (t: Tok, k: number) => boolean): number => {
  let depth = 0
  for (let k = from; k < to; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && match(toks[k]!, k)) return k
  }
  return to
}
