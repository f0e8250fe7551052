/**
 * DuckDB failures mapped onto the ORA- errors Oracle raises for the same mistake (binder failures by
 * binder-errors.ts, the rest here), so no DuckDB text reaches a client where Oracle has its own error.
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
  schema: string
): OraError => {
  let m: RegExpMatchArray | null
  // DuckDB's own interruption ("INTERRUPT Error: Interrupted!"), not any message that quotes a name holding "interrupt"
  if (/INTERRUPT Error|Interrupted!/.test(message)) return ora.cancelled()
  // errors raised on purpose by the server's SQL macros carry their ORA- text
  // (a failed CHECK quotes its expression, which holds the ORA- text too: take the raised one, "(Error: ORA-...)")
  if ((m = message.match(/\(Error: ORA-(\d{5}): ([^\n]*)\)\s*$/m)) !== null) return new OraError(Number(m[1]), m[2]!)
  if ((m = message.match(/ORA-(\d{5}): ([^\n]*)/)) !== null) return new OraError(Number(m[1]), m[2]!)
  const binder = fromDuckDbBinder(message, version, decodeName, schema)
  if (binder !== undefined) return binder
  const datetime = fromDuckDbDatetime(message)
  if (datetime !== undefined) return datetime
  if (/already exists/i.test(message)) return ora.nameInUse()
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
  if (/Not implemented|not supported/i.test(message)) return ora.unimplemented(message.split("\n")[0]!)
  return new OraError(604, `error occurred at recursive SQL level 1: ${message.split("\n")[0]}`)
}
