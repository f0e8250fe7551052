/**
 * Calls of Oracle built-in functions and operators DuckDB finds no overload for, as Oracle reports them: a wrong
 * number of arguments (ORA-00938 / ORA-00939 for functions taking a varying number, ORA-00909 for those taking a
 * fixed number), text where a number is expected (ORA-01722: Oracle converts the text implicitly and fails on it),
 * a datetime where a number is expected (ORA-00932 "expected NUMBER got DATE": `SUM(date_col)`), and `date + date`
 * (ORA-00975).
 *
 * Argument counts: Oracle SQL Language Reference, each function's syntax diagram. Codes and texts: Oracle Database
 * Error Messages (https://docs.oracle.com/en/error-help/db/ora-00909/, ora-00938, ora-00939, ora-00975, ora-01722).
 * Which of ORA-00909 and ORA-00938/00939 Oracle raises for a given function is not documented per function; the rule
 * here (fixed count: 00909) matches NVL and LENGTH as Oracle reports them, not confirmed for every function.
 */
import { ora, OraError } from "./errors.ts"

/** Least and most arguments of common Oracle built-ins, and the positions (from 0) that take a number. */
const FUNCTIONS: ReadonlyMap<string, { readonly min: number; readonly max: number; readonly numeric: ReadonlyArray<number> }> = new Map(
  ([
    ["SUBSTR", 2, 3, [1, 2]], ["INSTR", 2, 4, [2, 3]], ["LPAD", 2, 3, [1]], ["RPAD", 2, 3, [1]], ["ROUND", 1, 2, [0, 1]],
    ["TRUNC", 1, 2, [0, 1]], ["MOD", 2, 2, [0, 1]], ["POWER", 2, 2, [0, 1]], ["ABS", 1, 1, [0]], ["SQRT", 1, 1, [0]],
    ["CEIL", 1, 1, [0]], ["FLOOR", 1, 1, [0]], ["SIGN", 1, 1, [0]], ["EXP", 1, 1, [0]], ["LN", 1, 1, [0]],
    ["LENGTH", 1, 1, []], ["UPPER", 1, 1, []], ["LOWER", 1, 1, []], ["INITCAP", 1, 1, []], ["REVERSE", 1, 1, []],
    ["NVL", 2, 2, []], ["NVL2", 3, 3, []], ["CONCAT", 2, 2, []], ["REPLACE", 2, 3, []], ["LTRIM", 1, 2, []],
    ["RTRIM", 1, 2, []], ["CHR", 1, 1, [0]], ["ASCII", 1, 1, []], ["SUM", 1, 1, [0]], ["AVG", 1, 1, [0]],
    ["MAX", 1, 1, []], ["MIN", 1, 1, []], ["GREATEST", 1, Infinity, []], ["LEAST", 1, Infinity, []], ["COALESCE", 1, Infinity, []],
    ["STDDEV", 1, 1, [0]], ["STDDEV_POP", 1, 1, [0]], ["STDDEV_SAMP", 1, 1, [0]], ["VARIANCE", 1, 1, [0]], ["VAR_POP", 1, 1, [0]],
    ["VAR_SAMP", 1, 1, [0]], ["ORA_HASH", 1, 3, [1, 2]], ["TRANSLATE", 3, 3, []]
  ] as const).map(([name, min, max, numeric]) => [name, { min, max, numeric }])
)

/**
 * The error of a call of a known built-in with a number of arguments it never takes: ORA-00909 for one taking a fixed
 * number, ORA-00938 / ORA-00939 (too few / too many) for one taking a varying number (`REPLACE(s)`, `GREATEST()`);
 * undefined for other functions and counts. Checked on the statement's text, whether or not the engine would accept
 * the call.
 */
export const argumentCountError = (name: string, count: number): OraError | undefined => {
  const known = FUNCTIONS.get(name.toUpperCase())
  if (known === undefined || (count >= known.min && count <= known.max)) return undefined
  if (known.min === known.max) return new OraError(909, "invalid number of arguments")
  return count < known.min ? new OraError(938, "not enough arguments for function") : new OraError(939, "too many arguments for function")
}

const isText = (type: string): boolean => /^(STRING_LITERAL|VARCHAR)$/i.test(type.trim())
const isDatetime = (type: string): boolean => /^(DATE|TIMESTAMP(_[A-Z]+)?|TIMESTAMP WITH TIME ZONE)$/i.test(type.trim())
/** Oracle's name of a DuckDB datetime type (the server keeps DATE as TIMESTAMP_S). */
const datetimeName = (type: string): string => {
  const t = type.trim().toUpperCase()
  return t === "TIMESTAMP_S" || t === "DATE" ? "DATE" : /TZ|TIME ZONE/.test(t) ? "TIMESTAMP WITH TIME ZONE" : "TIMESTAMP"
}

/**
 * The ORA- error for DuckDB's "No function matches ... 'name(TYPES)'" or "Could not choose a best candidate
 * function for the function call "name(TYPES)"", or undefined when the call is none this module knows.
 */
export const functionCallError = (message: string): OraError | undefined => {
  const m = message.match(/(?:argument types '|function call ")([^'"(]+)\(([^)]*)\)['"]/i)
  if (m === null) return undefined
  const name = m[1]!.trim().toUpperCase()
  const args = m[2]!.trim() === "" ? [] : m[2]!.split(",").map((a) => a.trim())
  if (["+", "-", "*", "/"].includes(name)) {
    if (name === "+" && args.length === 2 && args.every(isDatetime)) return new OraError(975, "date + date not allowed")
    // text with a number: Oracle converts the text to a number (text with a date or interval is converted to a date)
    return args.some(isText) && args.some((a) => !isText(a) && !isDatetime(a) && !/INTERVAL/i.test(a)) ? ora.invalidNumber() : undefined
  }
  // EXTRACT (DuckDB's date_part) of text: Oracle takes only a datetime or interval there ("EXTRACT (datetime)": "expr
  // can be any expression that evaluates to a datetime or interval data type"); the code, ORA-30076 "invalid extract
  // field for extract source", is **unconfirmed** for a character source
  if (name === "DATE_PART" && args.length === 2 && isText(args[1]!)) return new OraError(30076, "invalid extract field for extract source")
  const known = FUNCTIONS.get(name)
  if (known === undefined) return undefined
  if (args.length < known.min) return known.min === known.max ? new OraError(909, "invalid number of arguments") : new OraError(938, "not enough arguments for function")
  if (args.length > known.max) return known.min === known.max ? new OraError(909, "invalid number of arguments") : new OraError(939, "too many arguments for function")
  // a datetime where a number is taken: Oracle converts no datetime to a number ("Implicit Data Conversion"), so
  // `SUM(date_col)` is ORA-00932 naming both types (Database Error Messages, ORA-00932)
  const datetime = known.numeric.map((k) => args[k]).find((a) => a !== undefined && isDatetime(a))
  if (datetime !== undefined) return ora.inconsistentTypes(`expected NUMBER got ${datetimeName(datetime)}`)
  return known.numeric.some((k) => args[k] !== undefined && isText(args[k]!)) ? ora.invalidNumber() : undefined
}
