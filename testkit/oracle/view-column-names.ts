/**
 * The column names a DML statement through a view may use: the view's own. A view shows only its select list's
 * columns, so a statement naming another column of the table or view under it fails as for any column that does not
 * exist, ORA-00904 "invalid identifier" (Database Error Messages, ORA-00904); once the statement is rewritten onto the
 * object under the view (view-dml.ts, join-view-dml.ts) that column would be found there, so it is checked before.
 *
 * Checked: names qualified by the statement's name for the view (its alias, else the view's name) anywhere, and the
 * bare names that can only be the view's: an UPDATE's or DELETE's outside subqueries, the written columns of an
 * INSERT's list or a MERGE's SET / INSERT lists, and a RETURNING clause's. A bare name inside a subquery or in a
 * MERGE's ON clause may be another table's, and is left to the statement as rewritten.
 */
import { ora } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isName, isOp, type Tok } from "./lexer.ts"


/**
 * Checks statement `sig` (significant tokens; the text after its target from index `from`) against the view's
 * columns `own`: ORA-00904 for a name of `hidden` (the columns of the objects under the view) that is not one of
 * them. `qualifiers`: the statement's name for the view; `written`: positions of the columns the statement writes.
 */
export const checkViewColumnNames = (sig: ReadonlyArray<Tok>, from: number, qualifiers: ReadonlySet<string>, own: ReadonlySet<string>, hidden: ReadonlySet<string>, written: ReadonlyArray<number>): void => {
  const unknown = (t: Tok) => {
    const name = oracleName(t)
    return hidden.has(name) && !own.has(name)
  }
  const verb = sig[0]
  const everywhere = isKw(verb, "UPDATE", "DELETE")
  // open parentheses: whether each begins a subquery
  const open: Array<boolean> = []
  let returning = false
  for (let k = from; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) open.push(isKw(sig[k + 1], "SELECT", "WITH"))
    else if (isOp(t, ")")) open.pop()
    else if (open.length === 0 && isKw(t, "RETURNING", "RETURN")) returning = true
    else if (open.length === 0 && isKw(t, "INTO", "LOG")) returning = false
    if (!isName(t) || isOp(sig[k - 1], ".") || isOp(sig[k + 1], "(")) continue
    if (isOp(sig[k + 1], ".") && isName(sig[k + 2])) {
      if (qualifiers.has(oracleName(t)) && !isOp(sig[k + 3], ".") && !isOp(sig[k + 3], "(") && unknown(sig[k + 2]!)) throw ora.invalidIdentifier(`${oracleName(t)}"."${oracleName(sig[k + 2]!)}`)
      continue
    }
    if (isOp(sig[k + 1], ".")) continue
    if ((everywhere || returning) && !open.includes(true) && unknown(t)) throw ora.invalidIdentifier(oracleName(t))
  }
  for (const k of written) if (unknown(sig[k]!)) throw ora.invalidIdentifier(oracleName(sig[k]!))
}
