/**
 * `INSERT INTO t [(columns)] SELECT * FROM s ...` over one table or view `s`: the `*` spelled out as the source's
 * columns, so that the rewrites of what an INSERT writes into each target column (number-writes.ts canonical NUMBER
 * text, character-writes.ts a NUMBER(p,s) written as TO_CHAR's text) see each value, as they do for a select list
 * naming its columns. Oracle converts each value to its target column's type ("Implicit Data Conversion"), whatever
 * the select list's spelling.
 */
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import type { TableLookup } from "./number-writes.ts"
import { quoteDuck } from "./names.ts"


/** `all` with the `*` of such an INSERT replaced by the source's column names (unchanged for any other statement). */
export const expandInsertSelectStar = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const at = all.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const sig = at.map((k) => all[k]!)
  if (!isKw(sig[0], "INSERT") || !isKw(sig[1], "INTO") || !isName(sig[2])) return all
  let k = isOp(sig[3], ".") ? 5 : 3
  if (isName(sig[k]) && !isKw(sig[k], "SELECT", "VALUES", "WITH")) k++
  if (isOp(sig[k], "(") && !isKw(sig[k + 1], "SELECT", "WITH")) k = matchParen(sig, k) + 1
  if (!isKw(sig[k], "SELECT") || !isOp(sig[k + 1], "*") || !isKw(sig[k + 2], "FROM") || !isName(sig[k + 3])) return all
  const qualified = isOp(sig[k + 4], ".") && isName(sig[k + 5])
  const source = qualified ? lookup(sig[k + 3]!.value, sig[k + 5]!.value) : lookup(undefined, sig[k + 3]!.value)
  if (source === undefined) return all
  // one table: no join, comma or set operation after it at the top level
  for (let j = k + 4; j < sig.length; j++) {
    if (isOp(sig[j], "(")) j = matchParen(sig, j)
    else if (isOp(sig[j], ",") || isKw(sig[j], "JOIN", "UNION", "INTERSECT", "MINUS", "EXCEPT", "CONNECT", "PIVOT", "UNPIVOT", "MODEL")) return all
  }
  const star = at[k + 1]!
  const pos = all[star]!.pos
  const names = source.columns.flatMap((c, n): Array<Tok> => [
    ...(n > 0 ? [{ kind: "op" as const, text: ",", value: ",", pos }] : []),
    { kind: "qident" as const, text: `${quoteDuck(c.name)}`, value: c.name, pos }
  ])
  return [...all.slice(0, star), ...names, ...all.slice(star + 1)]
}
