/**
 * Functions of Oracle 21c and 23ai that the engine has under no name of its own (SQL Language Reference 23ai, each
 * function's page):
 * - TO_BOOLEAN(expr): a number is TRUE unless 0; a text (leading and trailing blanks ignored, any case) TRUE for
 *   'true', 't', 'yes', 'y', 'on', '1', FALSE for 'false', 'f', 'no', 'n', 'off', '0' (the literals of "Boolean Data
 *   Type"; the text listed for PLSQL_IMPLICIT_CONVERSION_BOOL in the Database Reference). Another text fails ORA-01722
 *   here, as CAST to BOOLEAN does (Oracle's code for it **unconfirmed**).
 * - TO_UTC_TIMESTAMP_TZ(iso): the ISO 8601 text `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ss[.s{1,6}][Z|±hh:mm]` (without a
 *   zone: UTC) as a TIMESTAMP WITH TIME ZONE normalised to UTC; another text fails ORA-01861 (code **unconfirmed**).
 * - GROUP_ID(): 0, which it is for every group unless GROUP BY names one grouping set twice (the repeats are
 *   numbered 1, 2, ... by group-ids.ts, which rewrites such a query first).
 */
import { BOOLEAN, DOUBLE, VARCHAR } from "@duckdb/node-api"
import type { DuckDBScalarFunction } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"

const TRUE_TEXTS = new Set(["true", "t", "yes", "y", "on", "1"])
const FALSE_TEXTS = new Set(["false", "f", "no", "n", "off", "0"])

/** TO_BOOLEAN of a text: one of the Boolean literals, whatever its case and surrounding blanks. */
export const booleanOfText = (s: string): boolean => {
  const word = s.trim().toLowerCase()
  if (TRUE_TEXTS.has(word)) return true
  if (FALSE_TEXTS.has(word)) return false
  throw new OraError(1722, "invalid number")
}

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})?)?$/

/** TO_UTC_TIMESTAMP_TZ's text as `YYYY-MM-DD HH24:MI:SS.FF6` of the instant in UTC. */
export const utcTextOfIso = (s: string): string => {
  const m = ISO_DATETIME.exec(s)
  const bad = () => new OraError(1861, "literal does not match format string")
  if (m === null) throw bad()
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59 || year < 1) throw bad()
  const zone = m[8] === undefined || m[8] === "Z" ? 0 : (m[8].startsWith("-") ? -1 : 1) * (Number(m[8].slice(1, 3)) * 60 + Number(m[8].slice(4, 6)))
  if (m[8] === "-00:00") throw bad()
  const local = new Date(0)
  local.setUTCFullYear(year, month - 1, day)
  if (local.getUTCMonth() !== month - 1) throw bad()
  local.setUTCHours(hour, minute - zone, second, 0)
  const pad = (n: number, w = 2) => String(n).padStart(w, "0")
  const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`
  return `${date} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${(m[7] ?? "").padEnd(6, "0")}`
}

/** The engine functions behind the calls {@link newerFunctionSql} writes. */
export const newerFunctions = (): Array<DuckDBScalarFunction> => [
  fn("ora_to_boolean", [VARCHAR], BOOLEAN, ([s]) => booleanOfText(String(s))),
  fn("ora_to_boolean", [DOUBLE], BOOLEAN, ([n]) => Number(n) !== 0),
  fn("ora_to_boolean", [BOOLEAN], BOOLEAN, ([b]) => b === true),
  fn("ora_utc_text_of_iso", [VARCHAR], VARCHAR, ([s]) => utcTextOfIso(String(s)))
]

/**
 * Engine SQL for a call of `name` over translated arguments (`exact(k)`: argument k is an exact NUMBER, decimal text
 * in the engine), or undefined for another function.
 */
export const newerFunctionSql = (name: string, args: ReadonlyArray<string>, exact: (k: number) => boolean): string | undefined => {
  switch (name) {
    case "TO_BOOLEAN":
      return args.length === 1 ? `ora_to_boolean(${exact(0) ? `CAST(${args[0]} AS DOUBLE)` : args[0]})` : undefined
    case "TO_UTC_TIMESTAMP_TZ":
      return args.length === 1 ? `ora_tstz(ora_utc_text_of_iso(CAST(${args[0]} AS VARCHAR)), '+00:00')` : undefined
    case "GROUP_ID":
      return args.length === 0 ? "CAST(0 AS BIGINT)" : undefined
    default:
      return undefined
  }
}
