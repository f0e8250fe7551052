/**
 * PL/SQL errors: compile errors (PLS- inside ORA-06550, with line and column), the predefined exceptions and the
 * exception a running block raises, as the Oracle Database PL/SQL Language Reference, "PL/SQL Error Handling"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-error-handling.html) lists them.
 */
import { OraError } from "../errors.ts"

/** Line and column (both from 1) of a position in the source text. */
export const lineColumn = (source: string, pos: number): { line: number; column: number } => {
  const before = source.slice(0, pos)
  const nl = before.lastIndexOf("\n")
  return { line: before.split("\n").length, column: pos - nl }
}

/**
 * A compile error: `ORA-06550: line l, column c:` then `PLS-nnnnn: text`. Exception handlers never catch it (Oracle
 * reports it before the block runs); the server finds some (undeclared names) only when it reaches them.
 */
export class PlsCompileError extends OraError {
  constructor(source: string, pos: number, pls: number, text: string, detail?: string) {
    const { line, column } = lineColumn(source, pos)
    super(6550, detail ?? `line ${line}, column ${column}:\nPLS-${String(pls).padStart(5, "0")}: ${text}`)
  }
}

/**
 * The compile error of a SQL statement of a block (an unknown column or name, ORA-00904): `PL/SQL: ORA-nnnnn: text`
 * at the name, then `PL/SQL: SQL Statement ignored` at the statement, each after its own `ORA-06550: line l, column c:`
 * (the layout SQL*Plus and oracledb show, e.g. the PL/SQL Language Reference's examples of "PL/SQL: ORA-00904").
 */
export const sqlCompileError = (source: string, namePos: number, statementPos: number, e: OraError): PlsCompileError => {
  const at = lineColumn(source, namePos)
  const statement = lineColumn(source, statementPos)
  const detail = `line ${at.line}, column ${at.column}:\nPL/SQL: ORA-${String(e.code).padStart(5, "0")}: ${e.detail}\nORA-06550: line ${statement.line}, column ${statement.column}:\nPL/SQL: SQL Statement ignored`
  return new PlsCompileError(source, namePos, 0, "", detail)
}

/**
 * A compile error with the line Oracle closes it with for the statement or declaration it stopped:
 * `ORA-06550: line l, column c:` / `PL/SQL: Statement ignored` (`Item ignored` for a declaration), as the PL/SQL
 * Language Reference's examples show (e.g. Example 6-37, "Collection Types Defined in Package Specifications",
 * PLS-00306 then "PL/SQL: Statement ignored" at the call). Errors of the parser (PLS-00103) and errors that already
 * have such a line are returned as they are.
 */
export const ignoredAt = (source: string, pos: number, e: unknown, what: "Statement" | "Item"): unknown => {
  if (!(e instanceof PlsCompileError) || /\nPLS-00103:|ignored$/.test(e.detail) || !/\nPLS-\d{5}: /.test(e.detail)) return e
  const { line, column } = lineColumn(source, pos)
  return new PlsCompileError(source, pos, 0, "", `${e.detail}\nORA-06550: line ${line}, column ${column}:\nPL/SQL: ${what} ignored`)
}

/** PLS-00103, the parser's error: the symbol found and what could have stood there. */
export const unexpectedSymbol = (source: string, pos: number, symbol: string, expected: ReadonlyArray<string>): PlsCompileError =>
  new PlsCompileError(source, pos, 103, `Encountered the symbol "${symbol}" when expecting one of the following:\n\n   ${expected.join(" ")}\n`)

/** The predefined exceptions of package STANDARD this interpreter raises, by name: their ORA- numbers. */
export const PREDEFINED: ReadonlyMap<string, number> = new Map([
  ["NO_DATA_FOUND", 1403],
  ["TOO_MANY_ROWS", 1422],
  ["DUP_VAL_ON_INDEX", 1],
  ["ZERO_DIVIDE", 1476],
  ["VALUE_ERROR", 6502],
  ["INVALID_NUMBER", 1722],
  ["INVALID_CURSOR", 1001],
  ["CURSOR_ALREADY_OPEN", 6511],
  ["CASE_NOT_FOUND", 6592],
  ["ROWTYPE_MISMATCH", 6504],
  ["TIMEOUT_ON_RESOURCE", 51],
  ["COLLECTION_IS_NULL", 6531],
  ["SUBSCRIPT_OUTSIDE_LIMIT", 6532],
  ["SUBSCRIPT_BEYOND_COUNT", 6533],
  ["ACCESS_INTO_NULL", 6530]
])

/** Texts of the predefined exceptions' errors when the interpreter raises them itself (`RAISE name`). */
const TEXTS: ReadonlyMap<number, string> = new Map([
  [1403, "no data found"],
  [1422, "exact fetch returns more than requested number of rows"],
  [1, "unique constraint violated"],
  [1476, "divisor is equal to zero"],
  [6502, "PL/SQL: numeric or value error"],
  [1722, "invalid number"],
  [1001, "invalid cursor"],
  [6511, "PL/SQL: cursor already open"],
  [6592, "CASE not found while executing CASE statement"],
  [6504, "PL/SQL: Return types of Result Set variables or query do not match"],
  [51, "timeout occurred while waiting for a resource"],
  [6531, "Reference to uninitialized collection"],
  [6532, "Subscript outside of limit"],
  [6533, "Subscript beyond count"],
  [6530, "Reference to uninitialized composite"]
])

/** A user-declared exception (`name EXCEPTION;`); `code` once PRAGMA EXCEPTION_INIT gave it a number. */
export interface UserException {
  readonly name: string
  code?: number
}

/**
 * An exception while a block runs: an ORA- error (positive number, as in the message) or a user exception without
 * a number. `line` is where it was raised (ORA-06512), `frames` the stored procedures it left on its way out.
 */
export class PlsqlException extends Error {
  frames: Array<string> = []
  constructor(
    readonly code: number,
    readonly text: string,
    public line: number,
    readonly user?: UserException
  ) {
    super(text)
  }

  /** SQLCODE: -code, +100 for NO_DATA_FOUND, +1 for a user exception without a number. */
  get sqlcode(): number {
    if (this.user !== undefined && this.code === 0) return 1
    return this.code === 1403 ? 100 : -this.code
  }

  /** SQLERRM: `ORA-nnnnn: text`, "User-Defined Exception" for a user exception without a number. */
  get sqlerrm(): string {
    if (this.user !== undefined && this.code === 0) return "User-Defined Exception"
    return `ORA-${String(this.code).padStart(5, "0")}: ${this.text}`
  }

  /** The error the client receives when nothing handled it: the error, then one ORA-06512 line per frame. */
  toClient(): OraError {
    const head = this.user !== undefined && this.code === 0 ? { code: 6510, text: "PL/SQL: unhandled user-defined exception" } : { code: this.code, text: this.text }
    const stack = [...this.frames, `at line ${this.line}`].map((f) => `\nORA-06512: ${f}`).join("")
    return new OraError(head.code, head.text + stack)
  }
}

/** The exception for an ORA- error raised at `line` (an OraError from the SQL engine, or one of the interpreter's). */
export const fromOraError = (e: OraError, line: number): PlsqlException => new PlsqlException(e.code, e.detail, line)

/**
 * Message templates of errors SQLERRM(n) names beyond the predefined exceptions' (TEXTS): Oracle returns the message
 * with its substitutions left empty.
 */
const TEMPLATES: ReadonlyMap<number, string> = new Map([
  [1, "unique constraint (.) violated"],
  [1400, "cannot insert NULL into ()"],
  [1407, "cannot update () to NULL"],
  [1438, "value larger than specified precision allowed for this column"],
  [2290, "check constraint (.) violated"],
  [2291, "integrity constraint (.) violated - parent key not found"],
  [2292, "integrity constraint (.) violated - child record found"],
  [12899, "value too large for column  (actual: , maximum: )"],
  [6510, "PL/SQL: unhandled user-defined exception"],
  [24381, "error(s) in array DML"]
])

/**
 * SQLERRM(n), as the PL/SQL Language Reference, "SQLERRM Function" states it: 0 is ORA-0000, +100 ORA-01403, another
 * positive number `-n: non-ORACLE exception`, a negative one the message of error -n (`Message n not found; ...` for a
 * number the server knows no message of).
 */
export const sqlerrmOf = (n: number): string => {
  if (n === 0) return "ORA-0000: normal, successful completion"
  if (n === 100) return "ORA-01403: no data found"
  if (n > 0) return `-${n}: non-ORACLE exception`
  const code = -n
  const text = TEMPLATES.get(code) ?? TEXTS.get(code)
  const ora = `ORA-${String(code).padStart(5, "0")}`
  return text !== undefined ? `${ora}: ${text}` : `${ora}: Message ${code} not found;  product=RDBMS; facility=ORA`
}

/** `RAISE name` of a predefined exception. */
export const predefined = (code: number, line: number): PlsqlException => new PlsqlException(code, TEXTS.get(code) ?? "", line)

/** ORA-06502 with its detail ("character string buffer too small", "character to number conversion error"). */
export const valueError = (detail: string): OraError => new OraError(6502, `PL/SQL: numeric or value error: ${detail}`)
