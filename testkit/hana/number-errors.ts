/**
 * HANA's 314 (numeric overflow) and 339 (invalid number) for DuckDB's numeric conversion and arithmetic failures,
 * worded as HANA words them, never with DuckDB's text or type names (SAP HANA SQL Reference, "SQL Error Codes": 314
 * ERR_SQL_NUMERIC_OVERFLOW "numeric overflow", 339 ERR_SQL_INV_NUMBER "invalid number"). The detail names the value
 * and the HANA type it does not fit, as the server's own BIGINT sum check does (encode.ts); "not a valid number
 * string '…'" is the detail HANA gives for text that is no number (as SAP Community threads quote "[339]: invalid
 * number: not a valid number string"; not confirmed against a server here).
 */
/** HANA names of DuckDB's internal type names as its messages spell them. */
const HANA_TYPE_NAMES: Readonly<Record<string, string>> = {
  INT8: "TINYINT",
  UINT8: "TINYINT",
  UTINYINT: "TINYINT",
  INT16: "SMALLINT",
  UINT16: "INTEGER",
  INT32: "INTEGER",
  UINT32: "BIGINT",
  INT64: "BIGINT",
  UINT64: "BIGINT",
  INT128: "BIGINT",
  UINT128: "BIGINT",
  FLOAT: "REAL",
  DOUBLE: "DOUBLE"
}

/** The HANA name of a DuckDB type as its messages or `toString` spell it (`INT16` → SMALLINT, `DECIMAL(5,2)` kept). */
export const hanaType = (duck: string): string => HANA_TYPE_NAMES[duck] ?? duck.replace(/\s+/g, "")

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/

/** A HANA error code with its SQLSTATE and text (errors.ts makes the HanaError; this module stays below it). */
export interface NumberErrorText {
  readonly code: 314 | 339
  readonly sqlState: string
  readonly message: string
}

/** HANA's 314 for `value` beyond `type` (a HANA type name), or without detail when DuckDB's text names neither. */
export const numericOverflow = (value?: string, type?: string): NumberErrorText => ({
  code: 314,
  sqlState: "22003",
  message: value === undefined || type === undefined ? "numeric overflow" : `numeric overflow: ${value} is out of range for ${type}`
})

/** HANA's 339 for text that is no number. */
export const invalidNumber = (text?: string): NumberErrorText => ({
  code: 339,
  sqlState: "HY000",
  message: text === undefined ? "invalid number" : `invalid number: not a valid number string '${text}'`
})

/**
 * The HANA error for a DuckDB numeric failure given by the first line of its message (without the "… Error: "
 * prefix); undefined when the text is not a numeric failure DuckDB is known to raise.
 */
export const numberError = (text: string): NumberErrorText | undefined => {
  let m = /^Type \S+ with value (\S+) can't be cast because the value is out of range for the destination type (\S+)/.exec(text)
  if (m !== null) return numericOverflow(m[1]!, hanaType(m[2]!))
  m = /^Could not cast value (\S+) to (\S+)/.exec(text)
  if (m !== null) return numericOverflow(m[1]!, hanaType(m[2]!))
  m = /^Casting value "([^"]*)" to type (\S+) failed/.exec(text)
  if (m !== null) return numericOverflow(m[1]!, hanaType(m[2]!))
  m = /^Overflow in (?:addition|subtraction|multiplication|division) of (\S+) \((.+)\)!?$/.exec(text)
  if (m !== null) return numericOverflow(m[2]!, hanaType(m[1]!))
  if (/^Overflow in /.test(text) || /out of range/i.test(text)) return numericOverflow()
  m = /^Could not convert string (['"])(.*)\1 to (\S+)/.exec(text)
  if (m !== null) return NUMERIC.test(m[2]!) ? numericOverflow(m[2]!.trim(), hanaType(m[3]!)) : invalidNumber(m[2]!)
  return undefined
}
