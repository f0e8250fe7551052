/**
 * The aliased items of a statement's select lists, for the modules that learn what a subquery or WITH block passes on
 * under a name (number-aliases.ts: exact NUMBERs, zoned-aliases.ts: TIMESTAMP WITH TIME ZONE values).
 */
import { findTopLevel, isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"


/**
 * Calls `visit(from, to, alias)` for every item `expr [AS] alias` of every select list in the significant tokens
 * `toks` (the expression is tokens [from, to)), until a round adds nothing (`visit` returns whether it learnt a name;
 * an alias may feed another query's item, `WITH a AS (...), b AS (SELECT x * 2 y FROM a)`), at most four rounds.
 * `visitUnaliased(from, to)`, when given, is called likewise for every item of more than one token without an alias
 * (an expression an enclosing query names by its heading, `"V*2"`).
 */
export const visitAliasedItems = (toks: ReadonlyArray<Tok>, visit: (from: number, to: number, alias: Tok) => boolean, visitUnaliased?: (from: number, to: number) => boolean): void => {
  for (let round = 0; round < 4; round++) {
    let learnt = false
    toks.forEach((t, at) => {
      if (!isKw(t, "SELECT")) return
      let start = at + 1
      if (isKw(toks[start], "DISTINCT", "UNIQUE", "ALL")) start++
      const fromAt = findTopLevel(toks, start, toks.length, (x) => isKw(x, "FROM"))
      if (fromAt < 0) return
      let itemStart = start
      for (let k = start; k <= fromAt; k++) {
        if (k < fromAt && !isOp(toks[k], ",")) {
          if (isOp(toks[k], "(")) k = matchParen(toks, k)
          continue
        }
        const last = toks[k - 1]
        const prev = toks[k - 2]
        const end = isKw(prev, "AS") ? k - 2 : k - 1
        // no alias: a CASE's END, the unit ending an interval literal (`t + INTERVAL '1' HOUR`), AT LOCAL
        const word = isKw(last, "END") || (isKw(last, "LOCAL") && isKw(prev, "AT")) || (isKw(last, "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND") && toks.slice(itemStart, k).some((t) => isKw(t, "INTERVAL")))
        const aliased = !word && k - itemStart >= 2 && isName(last) && prev !== undefined && !isOp(prev, ".") && (isKw(prev, "AS") || prev.kind !== "op" || isOp(prev, ")"))
        if (aliased && visit(itemStart, end, last)) learnt = true
        else if (!aliased && k - itemStart >= 2 && visitUnaliased?.(itemStart, k) === true) learnt = true
        itemStart = k + 1
      }
    })
    if (!learnt) break
  }
}
