/**
 * DuckDB failures mapped onto the ORA- errors Oracle raises for the same mistake (binder failures by
 * binder-errors.ts, the rest here), so no DuckDB text reaches a client: a failure none of these mappings knows is
 * ORA-03001 naming the server's limitation (the session writes DuckDB's message to the server's debug log).
 */
import { fromDuckDbBinder } from "./binder-errors.ts"
import { fromDuckDbDatetime } from "./datetime-errors.ts"
import { ora, OraError } from "./errors.ts"
import type { OracleVersion } from "./errors.ts"

/**
 * Maps a DuckDB error message onto the closest ORA- error. Names are reported with `decodeName`
 * (DuckDB catalog name -> Oracle name).
 */
export const fromDuckDb = (
  message: string,
  version: OracleVersion,
  decodeName: (n: string) => string,
  schema: string,
  /** The Oracle statement that failed, for the errors Oracle words with its parts (a sequence's name). */
  sql = ""
): OraError => {
  // DuckDB's own assertion failures (after a FATAL one the database refuses every statement): the server failed, not
  // the statement, so ORA-00600 rather than "unimplemented feature"
  if (/^(?:INTERNAL|FATAL) Error:/i.test(message)) return ora.internal()
  let m: RegExpMatchArray | null
  // DuckDB's own interruption ("INTERRUPT Error: Interrupted!"), not any message that quotes a name holding "interrupt"
  if (/INTERRUPT Error|Interrupted!/.test(message)) return ora.cancelled()
  // errors raised on purpose by the server's SQL macros carry their ORA- text
  // (a failed CHECK quotes its expression, which holds the ORA- text too: take the raised one, "(Error: ORA-...)")
  if ((m = message.match(/\(Error: ORA-(\d{5}): ([^\n]*)\)\s*$/m)) !== null) return new OraError(Number(m[1]), m[2]!)
  // raised ones only ("Invalid Input Error: ORA-..."): a binder error quoting a macro's SQL text holds ORA- text too
  if ((m = message.match(/^(?:[A-Za-z]+ )*Error: ORA-(\d{5}): ([^\n]*)/)) !== null) return new OraError(Number(m[1]), m[2]!)
  const binder = fromDuckDbBinder(message, version, decodeName, schema, sql)
  if (binder !== undefined) return binder
  const datetime = fromDuckDbDatetime(message)
  if (datetime !== undefined) return datetime
  // a column named twice: by ALTER TABLE ADD ORA-01430, by CREATE TABLE ... AS SELECT ORA-00957
  if (/Column with name .+ already exists/i.test(message))
    return /^\s*ALTER\b/i.test(sql) ? new OraError(1430, "column being added already exists in table") : new OraError(957, "duplicate column name")
  if (/already exists/i.test(message)) return ora.nameInUse()
  // a NOCYCLE sequence used up (Database Error Messages, ORA-08004)
  if ((m = message.match(/nextval: reached (maximum|minimum) value of sequence "([^"]+)"/i)) !== null)
    return new OraError(8004, `sequence ${decodeName(m[2]!)}.NEXTVAL ${m[1]!.toLowerCase() === "maximum" ? "exceeds MAXVALUE" : "goes below MINVALUE"} and cannot be instantiated`)
  if (/More than one row returned by a subquery used as an expression/i.test(message))
    return new OraError(1427, "single-row subquery returns more than one row")
  if (/currval: sequence is not yet defined in this session/i.test(message)) {
    const name = /("(?:[^"]|"")+"|[A-Za-z][\w$#]*)\s*\.\s*CURRVAL\b/i.exec(sql)?.[1]
    const shown = name === undefined ? "" : name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toUpperCase()
    return new OraError(8002, `sequence ${shown}.CURRVAL is not yet defined in this session`)
  }
  // DuckDB detects write-write conflicts optimistically where Oracle would wait for the row lock
  if (/TransactionContext Error: (?:Conflict|Catalog write-write conflict)/i.test(message))
    return new OraError(8177, "can't serialize access for this transaction")
  if ((m = message.match(/column "?([^"\s]+)"? (?:not found|does not exist)/i)) !== null) return ora.invalidIdentifier(decodeName(m[1]!))
  if (/Duplicate key|violates (?:primary key|unique) constraint/i.test(message))
    return ora.uniqueViolated(`${schema}.SYS_C00${(message.length % 9000) + 1000}`)
  if ((m = message.match(/NOT NULL constraint failed: ([^\s.]+)\.([^\s]+)/i)) !== null)
    return ora.cannotInsertNull(`"${schema}"."${decodeName(m[1]!)}"."${decodeName(m[2]!)}"`)
  // a number that does not fit NUMBER(p,s) (DuckDB DECIMAL(p,s)) is ORA-01438, not an invalid number
  if (/Casting value "[-+0-9.eE]+" to type DECIMAL\(\d+,\d+\) failed: value is out of range|Could not cast value [-+0-9.eE]+ to DECIMAL/i.test(message))
    return new OraError(1438, "value larger than specified precision allowed for this column")
  if (/Could not convert string|Conversion Error.*(?:INT|DECIMAL|DOUBLE|FLOAT|NUMERIC)/i.test(message)) return ora.invalidNumber()
  // a datetime DuckDB cannot read (text stored in a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) column reaching a
  // DuckDB datetime where the server did not route it through datetime-functions.ts)
  if (/Conversion Error/i.test(message)) return ora.literalMismatch()
  // arithmetic past the range DuckDB computes in: Oracle's NUMBER arithmetic overflow (ORA-01426, Database Error Messages)
  if (/Overflow in (?:addition|subtraction|multiplication|division|negation)|Overflow in (?:integer|hugeint)/i.test(message))
    return new OraError(1426, "numeric overflow")
  if (/out of range|overflow/i.test(message)) return new OraError(1438, "value larger than specified precision allowed for this column")
  if (/Parser Error/i.test(message)) return /at end of input|at or near/i.test(message) ? ora.notProperlyEnded() : ora.invalidSql()
  // what is left has no Oracle error of its own: the server's limitation, without the engine's words
  return ora.engineLimitation()
}

/**
 * Writes an engine failure's own message with the ORA- error sent for it to the server's debug log (option
 * `debugLog`; else stderr when ORACLE_TESTKIT_DEBUG is set), the one place DuckDB's text goes.
 */
export const logEngineFailure = (settings: { readonly debugLog?: (line: string) => void }, message: string, sent: OraError): void => {
  const log = settings.debugLog ?? (process.env.ORACLE_TESTKIT_DEBUG !== undefined ? (line: string) => console.error(line) : undefined)
  log?.(`oracle testkit: ${sent.message} <= ${message}`)
}

/** The columns of the key a DuckDB duplicate-key failure names (`Duplicate key "A: 1, B: x"`), Oracle-named. */
export const duplicateKeyColumns = (message: string, decodeName: (n: string) => string): Array<string> | undefined => {
  const key = /Duplicate key "(.*)" violates/i.exec(message)?.[1]
  if (key === undefined) return undefined
  return [...key.matchAll(/(?:^|, )([^:,]+): /g)].map((m) => decodeName(m[1]!))
}
