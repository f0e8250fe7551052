/**
 * Mistakes Oracle finds while it compiles a query or DML statement, before any row is read, checked on the Oracle
 * text: a built-in taking a fixed number of arguments called with another number (ORA-00909, as
 * function-arguments.ts reports the same call when the engine finds no overload, so that `NVL(1)`, which the
 * engine would run, fails too), and a sequence's NEXTVAL or CURRVAL where Oracle does not allow one (ORA-02287).
 *
 * Restrictions on sequence values: Oracle SQL Language Reference, "Sequence Pseudocolumns" ("You cannot use CURRVAL
 * and NEXTVAL in ... a subquery in a DELETE, SELECT, or UPDATE statement; a SELECT statement with the DISTINCT
 * operator; a SELECT statement with a GROUP BY clause or ORDER BY clause; a SELECT statement that is combined with
 * another SELECT statement with the UNION, INTERSECT, or MINUS set operator; the WHERE clause of a SELECT
 * statement"). Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00909/,
 * ora-02287).
 */
import { OraError } from "./errors.ts"
import { argumentCountError } from "./function-arguments.ts"
import { findTopLevel, isKw, isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"

const sequenceNotAllowed = () => new OraError(2287, "sequence number not allowed here")

/** The first call of a known built-in with a number of arguments it never takes, as Oracle reports it. */
const callCountError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (t.kind !== "ident" || !isOp(toks[k + 1], "(") || isOp(toks[k - 1], ".")) continue
    const close = matchParen(toks, k + 1)
    if (close < 0) continue
    const inner = toks.slice(k + 2, close)
    const error = argumentCountError(t.value, inner.length === 0 ? 0 : splitTopLevel(inner).length)
    if (error !== undefined) return error
  }
  return undefined
}

/** Positions of `seq.NEXTVAL` / `seq.CURRVAL` (the pseudocolumn's token). */
const sequenceUses = (toks: ReadonlyArray<Tok>): Array<number> =>
  toks.flatMap((t, k) => (isKw(t, "NEXTVAL", "CURRVAL") && isOp(toks[k - 1], ".") ? [k] : []))

/** True when the token at `at` lies inside a parenthesised subquery. */
const inSubquery = (toks: ReadonlyArray<Tok>, at: number): boolean => {
  for (let k = 0; k < at; k++) {
    if (!isOp(toks[k], "(") || !isKw(toks[k + 1], "SELECT", "WITH")) continue
    const close = matchParen(toks, k)
    if (close < 0 || close > at) return true
  }
  return false
}

/** ORA-02287 for NEXTVAL / CURRVAL where Oracle's restrictions above forbid it. */
const sequenceUseError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  const uses = sequenceUses(toks)
  if (uses.length === 0) return undefined
  if (isKw(toks[0], "SELECT")) {
    const topLevel = (kw: ReadonlyArray<string>) => findTopLevel(toks, 1, toks.length, (t) => isKw(t, ...kw))
    if (isKw(toks[1], "DISTINCT", "UNIQUE") || topLevel(["GROUP", "ORDER", "UNION", "INTERSECT", "MINUS"]) >= 0) return sequenceNotAllowed()
    const where = topLevel(["WHERE"])
    if (where >= 0 && uses.some((k) => k > where)) return sequenceNotAllowed()
  }
  if (isKw(toks[0], "SELECT", "UPDATE", "DELETE") && uses.some((k) => inSubquery(toks, k))) return sequenceNotAllowed()
  return undefined
}

/** The ORA- error Oracle's compiler gives the statement (tokens without white space), or undefined. */
export const semanticError = (toks: ReadonlyArray<Tok>): OraError | undefined => callCountError(toks) ?? sequenceUseError(toks)

/** Tables a `LOCK TABLE name [, name] IN mode MODE` statement names, each with its schema when qualified. */
export const lockedTables = (toks: ReadonlyArray<Tok>): Array<{ readonly schema: Tok | undefined; readonly name: Tok }> => {
  if (!isKw(toks[0], "LOCK") || !isKw(toks[1], "TABLE")) return []
  const end = findTopLevel(toks, 2, toks.length, (t) => isKw(t, "IN"))
  return splitTopLevel(toks.slice(2, end < 0 ? toks.length : end)).flatMap((part) => {
    const name = part.length >= 3 && isOp(part[1], ".") ? part[2] : part[0]
    return name === undefined ? [] : [{ schema: part.length >= 3 && isOp(part[1], ".") ? part[0] : undefined, name }]
  })
}
