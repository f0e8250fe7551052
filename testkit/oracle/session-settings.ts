/**
 * ALTER SESSION clauses the server accepts without effect, as they change only how a real server plans or traces
 * (Oracle Database SQL Language Reference, ALTER SESSION): `{ENABLE | DISABLE | FORCE} PARALLEL {DML | DDL | QUERY}
 * [PARALLEL n]` and `SET EVENTS 'text'` (or `SET EVENTS = 'text'`). ALTER SESSION SET of parameters is in
 * sqlsession.ts (CURRENT_SCHEMA, TIME_ZONE, NLS_NUMERIC_CHARACTERS kept; other parameters accepted and ignored).
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"

/**
 * True for an ALTER SESSION (tokens without white space) that is one of the clauses above; a malformed PARALLEL clause
 * fails ORA-00922 as Oracle does.
 */
export const isAcceptedNoOp = (toks: ReadonlyArray<Tok>): boolean => {
  if (isKw(toks[2], "ENABLE", "DISABLE", "FORCE") && isKw(toks[3], "PARALLEL")) {
    const rest = toks.slice(5)
    const degree = isKw(toks[2], "FORCE") && isKw(rest[0], "PARALLEL") && rest[1]?.kind === "num" && rest.length === 2
    if (!isKw(toks[4], "DML", "DDL", "QUERY") || (rest.length > 0 && !degree)) throw new OraError(922, "missing or invalid option")
    return true
  }
  if (isKw(toks[2], "SET") && isKw(toks[3], "EVENTS")) {
    const value = isOp(toks[4], "=") ? 5 : 4
    return toks[value]?.kind === "str" && toks[value + 1] === undefined
  }
  return false
}
