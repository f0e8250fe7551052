/**
 * HANA SQL errors (code, SQLSTATE, message) and the mapping of DuckDB engine errors onto them.
 *
 * Codes and message wording follow HANA ("invalid table name: Could not find table/view X in schema Y", code 259).
 * SQLSTATEs: 10 → 28000 as observed with real hdb;
 * 259 → HY000 as hdb reports it (a @cap-js/hana error fixture quoting `{ code: 259, sqlState: 'HY000' }`);
 * HANA reports most engine errors with the generic HY000. Syntax errors use 42000 and constraint violations 23000,
 * the SQL-standard classes; these two are not confirmed against a real server.
 */
import { INVALID_DATETIME } from "./datetime-formats.ts"
import { EngineError } from "../engine/index.ts"
import { decodeName } from "./names.ts"
import { checkText } from "./check-text.ts"
import { invalidNumber, numberError, numericOverflow } from "./number-errors.ts"

/** A HANA SQL error as sent in an ERROR part. */
export class HanaError extends Error {
  override readonly name = "HanaError"
  constructor(
    readonly code: number,
    readonly sqlState: string,
    message: string,
    readonly position = 0,
    /** 1 = error, 2 = fatal (hdb then closes the connection). */
    readonly level = 1
  ) {
    super(message)
  }

  static syntax(detail: string, position: number): HanaError {
    return new HanaError(257, "42000", `sql syntax error: ${detail}`, position)
  }
  static unsupported(what: string): HanaError {
    return new HanaError(7, "HY000", `feature not supported: ${what}`)
  }
  static auth(): HanaError {
    return new HanaError(10, "28000", "authentication failed")
  }
  static privilege(detail: string): HanaError {
    return new HanaError(258, "HY000", `insufficient privilege: ${detail}`)
  }
  static cancelled(): HanaError {
    return new HanaError(139, "HY000", "current operation cancelled by request and transaction rolled back")
  }
  static invalidTable(table: string, schema: string): HanaError {
    return new HanaError(259, "HY000", `invalid table name: Could not find table/view ${table} in schema ${schema}`)
  }
  static invalidSchema(schema: string): HanaError {
    return new HanaError(362, "HY000", `invalid schema name: ${schema}`)
  }
  // Codes from the SAP HANA SQL Reference, "SQL Error Codes" (help.sap.com, loio 20a78d3275191014b41bae7c4a46d835):
  // 578 ERR_API_INV_STATEMENT "invalid statement", 587 ERR_API_INV_RESULTSET "result set is currently invalid".
  static invalidStatement(): HanaError {
    return new HanaError(578, "HY000", "invalid statement")
  }
  static invalidResultSet(): HanaError {
    return new HanaError(587, "HY000", "result set is currently invalid")
  }
  static general(detail: string): HanaError {
    return new HanaError(2, "HY000", `general error: ${detail}`)
  }
}

/**
 * HANA's 274 naming the column and the refused value (SAP HANA SQL Reference, "SQL Error Codes": 274
 * ERR_SQL_INS_LARGE_VALUE; the text as SAP's JDBC driver reports it: `inserted value too large for column: Failed in
 * "NAME" column with the value 'abcd'`). Binary values are shown as hex digits.
 */
export const valueTooLarge = (column: string, value: string, suffix = ""): HanaError =>
  new HanaError(274, "HY000", `${VALUE_TOO_LARGE}${column}" column with the value '${value}'${suffix}`)

/** The start of valueTooLarge's text; the declared-length CHECKs (ddl.ts lengthCheck) raise it as it is. */
export const VALUE_TOO_LARGE = `inserted value too large for column: Failed in "`

/** The start of the texts the server's functions fail with for a bad argument (regexpr-functions.ts, misc-functions.ts; 8). */
export const INVALID_ARGUMENT = "invalid argument: "

/** The start of the text an invalid regular expression or flag fails with (regexpr-functions.ts; 8). */
export const INVALID_REGEX = `${INVALID_ARGUMENT}invalid regular expression: `

/** The start of 266's text, raised as it is by the server's own functions (misc-functions.ts: BITOR / BITXOR lengths). */
export const INCONSISTENT_DATATYPE = "inconsistent datatype: "

/** The struct key a TIMESTAMP's ticks fail on as a number (timestamp-arithmetic.ts; DuckDB's binder error names it; 266). */
export const TIMESTAMP_NO_NUMBER_KEY = "hana_timestamp_is_no_number"
/** The key of timestamp-arithmetic.ts's failure for a TIMESTAMP compared with a number. */
export const TIMESTAMP_NUMBER_COMPARISON_KEY = "hana_timestamp_compared_with_number"

/** HANA's 1843 ERR_TZ_NOT_FOUND and 1841 ERR_TZ_INVALID_DATASET texts ("SQL Error Codes"; misc-functions.ts). */
export const TIMEZONE_NOT_FOUND = "timezone not found: "
export const INVALID_TZ_DATASET = "invalid timezone dataset specified: "

/** The start of the text `BITAND` of VARBINARY values of different lengths fails with (builtin-functions.ts; 266). */
export const BITAND_LENGTHS = "BITAND of VARBINARY values of different lengths "

/** HANA's 303 text for a date outside 0001-01-01 .. 9999-12-31 (raised by ddl.ts lengthCheck's CHECK). */
export const DATE_OUT_OF_RANGE = "invalid DATE, TIME or TIMESTAMP value: out of range 0001-01-01 .. 9999-12-31: "

/**
 * The texts only the server's own CHECKs raise (ddl.ts lengthCheck: declared lengths, the date range). DuckDB
 * keeps no name for a CHECK, so these texts mark a CHECK as the server's: SYS.CONSTRAINTS (catalog.ts) leaves such
 * CHECKs out, as a real HANA enforces lengths and ranges without listing constraints for them.
 */
export const SERVER_CHECK_TEXTS: readonly string[] = [VALUE_TOO_LARGE, DATE_OUT_OF_RANGE]

const quoted = (message: string): string | undefined => {
  const m = /(?:with name|name) "?([^"!\s]+)"?/.exec(message)
  return m?.[1] === undefined ? undefined : decodeName(m[1])
}

/** Maps a DuckDB failure to the HANA error a real server would raise for the same mistake. */
export const fromEngineError = (e: unknown, schema: string): HanaError => {
  if (e instanceof HanaError) return e
  if (!(e instanceof EngineError)) return HanaError.general(e instanceof Error ? e.message : String(e))
  const msg = e.message
  const firstLine = msg.split("\n")[0] ?? msg
  // SAP HANA SQL Reference, "SQL Error Codes": 294 ERR_SQL_MANY_PRIMARY_KEY "cannot have more than one primary key"
  // (a second PRIMARY KEY in CREATE TABLE, ALTER TABLE … ADD PRIMARY KEY on a table that has one).
  const table = /^Parser Error: table "([^"]+)" has more than one primary key/.exec(firstLine)?.[1]
  if (table !== undefined) return new HanaError(294, "HY000", `cannot have more than one primary key: ${decodeName(table)}`)
  if (e.kind === "Parser Error") return HanaError.syntax(firstLine.replace(/^Parser Error: /, ""), 0)
  if (e.kind === "INTERRUPT Error" || /Interrupted/i.test(msg)) return HanaError.cancelled()
  if (e.kind === "Catalog Error") {
    let m = /(?:Table|View) with name ([^ ]+) does not exist/.exec(msg)
    if (m !== null) return HanaError.invalidTable(decodeName(m[1]!.replace(/"/g, "")), schema)
    m = /Schema with name ([^ ]+) does not exist/.exec(msg)
    if (m !== null) return HanaError.invalidSchema(decodeName(m[1]!.replace(/"/g, "")))
    m = /(?:Table|View) with name "?([^"]+)"? already exists/.exec(msg)
    if (m !== null) return new HanaError(288, "HY000", `cannot use duplicate table name: ${decodeName(m[1]!)}`)
    m = /Could not rename "?[^"]+"? to "?([^"]+)"?: another entry with this name already exists/.exec(msg)
    if (m !== null) return new HanaError(288, "HY000", `cannot use duplicate table name: ${decodeName(m[1]!)}`)
    m = /Column with name "?([^"]+)"? already exists/.exec(msg)
    if (m !== null) return new HanaError(308, "HY000", `column name already exists: ${decodeName(m[1]!)}`)
    m = /Schema with name "?([^"]+)"? already exists/.exec(msg)
    if (m !== null) return new HanaError(386, "HY000", `cannot use duplicate schema name: ${decodeName(m[1]!)}`)
    m = /Type with name "?([^" ]+)"? does not exist/.exec(msg)
    if (m !== null) return HanaError.syntax(`invalid datatype: ${decodeName(m[1]!)}`, 0)
    m = /does not have a column named "?([^"]+)"?/.exec(msg)
    if (m !== null) return new HanaError(260, "HY000", `invalid column name: ${decodeName(m[1]!)}`)
    if (/Function with name/.test(msg)) return new HanaError(328, "HY000", `invalid name of function or procedure: ${quoted(msg) ?? firstLine}`)
    return new HanaError(259, "HY000", `invalid table name: ${decodeName(firstLine.replace(/^Catalog Error: /, ""))}`)
  }
  if (e.kind === "Dependency Error") {
    // DuckDB cannot alter (rename) a table other tables reference by foreign key; HANA can. Said, not leaked.
    const m = /Cannot alter entry "?([^"]+)"? because there are entries that depend on it/.exec(msg)
    if (m !== null) return HanaError.unsupported(`altering ${decodeName(m[1]!)}, which other tables reference by foreign key (a test-server limit)`)
  }
  if (e.kind === "Binder Error") {
    const m = /Referenced column "?([^"]+)"? not found/.exec(msg) ?? /column "?([^" ]+)"? (?:not found|does not exist)/i.exec(msg) ??
      /does not have a column with name "?([^"]+)"?/.exec(msg)
    if (m !== null) return new HanaError(260, "HY000", `invalid column name: ${decodeName(m[1]!)}`)
    const t = /Referenced table "?([^"]+)"? not found/.exec(msg)
    if (t !== null) return new HanaError(260, "HY000", `invalid column name: ${decodeName(t[1]!)}`)
    // A bare `?` as the date of ADD_DAYS & co. matches each typed overload of the session macro (session-macros.ts).
    if (/has multiple overloads that match/.test(firstLine)) {
      return new HanaError(266, "HY000", "inconsistent datatype: the type of a parameter cannot be determined; write CAST(? AS <type>)")
    }
    // A TIMESTAMP's ticks as an operand of + - * / or the argument of SUM & co. (timestamp-arithmetic.ts).
    if (msg.includes(`"${TIMESTAMP_NUMBER_COMPARISON_KEY}"`)) return new HanaError(266, "HY000", "inconsistent datatype: a number cannot be compared with a TIMESTAMP")
    if (msg.includes(`"${TIMESTAMP_NO_NUMBER_KEY}"`)) return new HanaError(266, "HY000", "inconsistent datatype: a TIMESTAMP is no operand of an arithmetic operator or a numeric function")
    // A session macro (a HANA function the server implements) called with arguments none of its forms takes: with
    // untyped forms only the number can be wrong, 316 ERR_SQL_INV_NUM_ARG_FUNC "wrong number of arguments in function
    // invocation"; with typed ones the types, 266 ("SQL Error Codes").
    const macro = /Macro (?:hana_)?([A-Za-z0-9_]+)\(\) does not support the supplied arguments/.exec(firstLine)?.[1]
    if (macro !== undefined) {
      const candidates = msg.split("\n").slice(1).filter((line) => /^\s+\w+\(.*\)\s*$/.test(line))
      const typed = candidates.some((line) => /\(.*\w+\s+\w+.*\)/.test(line))
      return typed
        ? new HanaError(266, "HY000", `inconsistent datatype: ${macro.toUpperCase()} does not take arguments of these types`)
        : new HanaError(316, "HY000", `wrong number of arguments in function invocation: ${macro.toUpperCase()}`)
    }
    if (/No function matches|Could not choose a best candidate/.test(msg)) {
      // the function's name only (a session macro's without its hana_ prefix): DuckDB's text and type names stay out
      const name = /(?:argument types '|function call ")(?:hana_)?([A-Za-z0-9_]+)\(/.exec(firstLine)?.[1]
      return new HanaError(266, "HY000", `inconsistent datatype: ${name === undefined ? "a function" : name.toUpperCase()} does not take arguments of these types`)
    }
    return HanaError.syntax(decodeName(firstLine.replace(/^Binder Error: /, "")), 0)
  }
  if (e.kind === "Constraint Error") {
    if (/NOT NULL constraint failed/.test(msg)) {
      const col = /failed: (.+)$/.exec(firstLine)?.[1]
      return new HanaError(287, "23000", `cannot insert NULL or update to NULL: ${col === undefined ? "" : decodeName(col)}`)
    }
    if (/PRIMARY KEY or UNIQUE constraint violat|Duplicate key/i.test(msg)) {
      return new HanaError(301, "23000", `unique constraint violated: ${firstLine.replace(/^Constraint Error: /, "")}`)
    }
    // Declared lengths are CHECKs that raise HANA's 274 text with the value (ddl.ts lengthCheck) …
    const dated = msg.indexOf(`(Error: ${DATE_OUT_OF_RANGE}`)
    if (dated >= 0) return new HanaError(303, "22007", msg.slice(dated + "(Error: ".length).replace(/\)\s*$/, ""))
    const raised = msg.indexOf(`(Error: ${VALUE_TOO_LARGE}`)
    if (raised >= 0) return new HanaError(274, "HY000", msg.slice(raised + "(Error: ".length).replace(/\)\s*$/, ""))
    // … or, in tables made before, plain CHECK (length(col) <= n) constraints.
    const tooLong = /CHECK constraint failed.*CHECK\(\((?:octet_)?length\("?([^")]+)"?\) <= \d+\)\)/.exec(firstLine)
    if (tooLong !== null) return new HanaError(274, "HY000", `inserted value too large for column: ${decodeName(tooLong[1]!)}`)
    if (/CHECK constraint failed/.test(msg)) return new HanaError(677, "HY000", `check constraint violation: ${checkText(firstLine.replace(/^Constraint Error: /, ""))}`)
    if (/foreign key/i.test(msg)) return new HanaError(461, "23000", `foreign key constraint violation: ${firstLine.replace(/^Constraint Error: /, "")}`)
    return new HanaError(301, "23000", firstLine)
  }
  if (e.kind === "TransactionContext Error") {
    return new HanaError(133, "HY000", `transaction rolled back by detected deadlock or conflict: ${firstLine}`)
  }
  // Raised by the hana_divisor macro (session-macros.ts). SQLSTATE 22012 is the SQL standard's "division by zero"; not confirmed
  // against a real server. Code and wording as HANA reports them ("[304]: division by zero undefined: …", SAP
  // Community, "SAP HANA SQL Error: [304]: division by zero", 2017).
  if (/division by zero undefined/.test(firstLine)) return new HanaError(304, "22012", "division by zero undefined")
  // Text that does not parse as a date or timestamp: HANA's 303 ("[303]: invalid DATE, TIME or TIMESTAMP value",
  // L. Breddemann, "Be careful with dates and timestamps", lbreddemann.org).
  if (e.kind === "Conversion Error" && /(date|timestamp) field (format|value)/i.test(firstLine)) {
    return new HanaError(303, "22007", `invalid DATE, TIME or TIMESTAMP value: ${firstLine.replace(/^Conversion Error: /, "")}`)
  }
  // A text that is no number cast to UBIGINT: only a TIMESTAMP's ticks are stored so (longdate.ts), so it is a text
  // written into or compared with a TIMESTAMP that is no datetime, HANA's 303 (hana_ld fails the others so).
  const ticksText = e.kind === "Conversion Error" ? /Could not convert string '(.*)' to UINT64/.exec(firstLine) : null
  if (ticksText !== null) return new HanaError(303, "22007", `${INVALID_DATETIME}: ${ticksText[1]!.trim()}`)
  // HANA's own texts only (number-errors.ts): DuckDB's wording and type names never reach the client.
  if (e.kind === "Conversion Error" || e.kind === "Out of Range Error") {
    const text = firstLine.replace(/^[A-Za-z ]+Error: /, "")
    const n = numberError(text) ?? (e.kind === "Out of Range Error" ? numericOverflow() : invalidNumber())
    return new HanaError(n.code, n.sqlState, n.message)
  }
  if (e.kind === "Invalid Input Error") {
    // Texts the server's own scalar functions raise (datetime-functions.ts, spatial.ts) pass; DuckDB's stay out.
    const text = firstLine.replace(/^Invalid Input Error: /, "")
    // Text that does not match its TO_DATE / TO_TIMESTAMP format, or an unknown format element (datetime-formats.ts).
    if (text.startsWith(INVALID_DATETIME)) return new HanaError(303, "22007", text)
    // SAP HANA SQL Reference, "SQL Error Codes": 266 ERR_SQL_INCONSISTENT_DATATYPE "inconsistent datatype".
    if (text.startsWith(BITAND_LENGTHS)) return new HanaError(266, "HY000", `inconsistent datatype: ${text}`)
    // "SQL Error Codes": 8 ERR_INV_ARGUMENT "invalid argument" (HANA's code for a bad pattern is not confirmed).
    if (text.startsWith(INVALID_ARGUMENT)) return new HanaError(8, "HY000", text)
    if (text.startsWith(INCONSISTENT_DATATYPE)) return new HanaError(266, "HY000", text)
    if (text.startsWith(TIMEZONE_NOT_FOUND)) return new HanaError(1843, "HY000", text)
    if (text.startsWith(INVALID_TZ_DATASET)) return new HanaError(1841, "HY000", text)
    const own = /^(?:Date out of range: |invalid spatial value: |ST_AsText of |ST_X and ST_Y )/.test(text)
    return new HanaError(339, "HY000", own ? `invalid number: ${text}` : invalidNumber().message)
  }
  if (e.kind === "Not implemented Error") return HanaError.unsupported(firstLine.replace(/^Not implemented Error: /, ""))
  return HanaError.general(decodeName(firstLine))
}
