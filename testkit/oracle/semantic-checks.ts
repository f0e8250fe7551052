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
import { findTopLevel, isKw, isName, isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"

const sequenceNotAllowed = () => new OraError(2287, "sequence number not allowed here")

/** The first call of a known built-in with a number of arguments it never takes, as Oracle reports it. */
const callCountError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (t.kind !== "ident" || !isOp(toks[k + 1], "(") || isOp(toks[k - 1], ".")) continue
    const close = matchParen(toks, k + 1)
    if (close < 0) continue
    const inner = toks.slice(k + 2, close)
    // TRANSLATE (text USING CHAR_CS | NCHAR_CS) is the other TRANSLATE (SQL Language Reference, "TRANSLATE ... USING")
    if (isKw(t, "TRANSLATE") && inner.some((x) => isKw(x, "USING"))) continue
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
  // the query of INSERT INTO t [(cols)] SELECT ... is held to a SELECT statement's rules (ORA-02287 for
  // `INSERT ... SELECT DISTINCT s.NEXTVAL ...` as in https://orafaq.com/wiki/ORA-02287, "How to fix it")
  const query = isKw(toks[0], "INSERT") && isKw(toks[1], "INTO") ? findTopLevel(toks, 2, toks.length, (t) => isKw(t, "SELECT", "VALUES")) : 0
  if (query > 0 && isKw(toks[query], "SELECT")) return sequenceUseError(toks.slice(query))
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
export const semanticError = (toks: ReadonlyArray<Tok>): OraError | undefined => nameError(toks) ?? callCountError(toks) ?? sequenceUseError(toks)

/**
 * Oracle's reserved words (SQL Language Reference, "Oracle SQL Reserved Words"): none may name a table (ORA-00903)
 * or a column (ORA-00904) unless quoted.
 */
const RESERVED = new Set(("ACCESS ADD ALL ALTER AND ANY AS ASC AUDIT BETWEEN BY CHAR CHECK CLUSTER COLUMN COMMENT COMPRESS " +
  "CONNECT CREATE CURRENT DATE DECIMAL DEFAULT DELETE DESC DISTINCT DROP ELSE EXCLUSIVE EXISTS FILE FLOAT FOR FROM GRANT " +
  "GROUP HAVING IDENTIFIED IMMEDIATE IN INCREMENT INDEX INITIAL INSERT INTEGER INTERSECT INTO IS LEVEL LIKE LOCK LONG " +
  "MAXEXTENTS MINUS MLSLABEL MODE MODIFY NOAUDIT NOCOMPRESS NOT NOWAIT NULL NUMBER OF OFFLINE ON ONLINE OPTION OR ORDER " +
  "PCTFREE PRIOR PUBLIC RAW RENAME RESOURCE REVOKE ROW ROWID ROWNUM ROWS SELECT SESSION SET SHARE SIZE SMALLINT START " +
  "SUCCESSFUL SYNONYM SYSDATE TABLE THEN TO TRIGGER UID UNION UNIQUE UPDATE USER VALIDATE VALUES VARCHAR VARCHAR2 VIEW " +
  "WHENEVER WHERE WITH").split(" "))

/** Reserved type names left to the engine as column names (whether Oracle refuses each is not confirmed here). */
const TYPE_WORDS = ["RAW", "DATE", "NUMBER", "CHAR", "LONG", "FLOAT", "INTEGER", "DECIMAL", "SMALLINT", "VARCHAR", "VARCHAR2"]

/** The longest identifier Oracle accepts, in bytes (12.2 and later: SQL Language Reference, "Database Object Naming Rules"). */
const MAX_IDENTIFIER_BYTES = 128

/**
 * Names a statement (tokens without white space) may not use: an identifier past 128 bytes (ORA-00972, any
 * statement), a reserved word naming the table (ORA-00903) or a column (ORA-00904) of CREATE TABLE, and a column
 * named twice in an INSERT column list or an UPDATE's SET list (ORA-00957).
 */
export const nameError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  if (toks.some((t) => (t.kind === "ident" || t.kind === "qident") && Buffer.byteLength(t.value) > MAX_IDENTIFIER_BYTES)) return new OraError(972, "identifier is too long")
  if (isKw(toks[0], "CREATE") && isKw(toks[1], "TABLE")) {
    const name = isOp(toks[3], ".") ? toks[4] : toks[2]
    if (name?.kind === "ident" && RESERVED.has(name.value)) return new OraError(903, "invalid table name")
    const open = isOp(toks[3], ".") ? 5 : 3
    if (isOp(toks[open], "(")) {
      const close = matchParen(toks, open)
      for (const part of splitTopLevel(toks.slice(open + 1, close < 0 ? toks.length : close)))
        if (part[0]?.kind === "ident" && RESERVED.has(part[0].value) && !isKw(part[0], "CHECK", "UNIQUE", ...TYPE_WORDS)) return new OraError(904, ": invalid identifier")
    }
  }
  const repeated = (names: ReadonlyArray<ReadonlyArray<Tok>>) => {
    const seen = new Set<string>()
    for (const n of names) {
      const last = n[n.length - 1]
      if (last === undefined || !(last.kind === "ident" || last.kind === "qident")) continue
      if (seen.has(last.value)) return true
      seen.add(last.value)
    }
    return false
  }
  if (isKw(toks[0], "INSERT") && isKw(toks[1], "INTO")) {
    // the column list after the table's name and alias, not a call's parentheses (`SELECT 1, NVL(t, t) FROM u`)
    let open = isOp(toks[3], ".") ? 5 : 3
    if (isName(toks[open]) && !isKw(toks[open], "SELECT", "VALUES", "WITH")) open++
    if (isOp(toks[open], "(") && !isKw(toks[open + 1], "SELECT", "WITH")) {
      const close = matchParen(toks, open)
      if (close > 0 && repeated(splitTopLevel(toks.slice(open + 1, close)))) return new OraError(957, "duplicate column name")
    }
  }
  if (isKw(toks[0], "UPDATE")) {
    const set = findTopLevel(toks, 1, toks.length, (t) => isKw(t, "SET"))
    const where = findTopLevel(toks, set + 1, toks.length, (t) => isKw(t, "WHERE", "RETURNING", "RETURN", "LOG"))
    if (set > 0) {
      const targets = splitTopLevel(toks.slice(set + 1, where < 0 ? toks.length : where)).map((a) => {
        const eq = a.findIndex((t) => isOp(t, "="))
        return eq < 0 ? [] : a.slice(0, eq)
      })
      if (targets.every((t) => t.length > 0 && !isOp(t[0], "(")) && repeated(targets)) return new OraError(957, "duplicate column name")
    }
  }
  return undefined
}
