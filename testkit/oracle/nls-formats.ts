/**
 * The session's default datetime formats (NLS_DATE_FORMAT, NLS_TIMESTAMP_FORMAT, NLS_TIMESTAMP_TZ_FORMAT), which
 * ALTER SESSION sets, applied where Oracle converts a datetime to text or text to a datetime without a format model:
 * TO_CHAR(datetime), CAST(datetime AS VARCHAR2), `datetime || text`, TO_DATE / TO_TIMESTAMP / TO_TIMESTAMP_TZ(text).
 * SQL Language Reference, "TO_CHAR (datetime)": "If you omit fmt, then date is converted to a VARCHAR2 value as
 * follows: DATE values are converted to values in the default date format. TIMESTAMP and TIMESTAMP WITH LOCAL TIME
 * ZONE values are converted to values in the default timestamp format. TIMESTAMP WITH TIME ZONE values are converted
 * to values in the default timestamp with time zone format"; "TO_DATE": "If you omit fmt, then char must be in the
 * default date format" (likewise TO_TIMESTAMP, TO_TIMESTAMP_TZ). Defaults are the AMERICA territory's (Database
 * Globalization Support Guide, "NLS_DATE_FORMAT", "NLS_TIMESTAMP_FORMAT", "NLS_TIMESTAMP_TZ_FORMAT").
 *
 * The formats are read at run time from the session's DuckDB variables (`ora_nls_date_format`, ...), so a statement
 * translated before an ALTER SESSION follows the new setting. `ora_nls_text` formats a value in TypeScript with the
 * translator's own format-model conversion (translate-datetime-sql.ts convertDateFormat, datetime-functions.ts).
 */
import { BIGINT, BOOLEAN, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBScalarFunction } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { SESSION_DATE_LANGUAGE } from "./date-language.ts"
import { formatElement, yearText } from "./datetime-functions.ts"
import { datetimeTextOfFormat } from "./datetime-parse.ts"
import { type Civil, civilOfNanos, parseDatetimeText, type DatetimeValue } from "./datetime.ts"
import { daysFromCivil } from "../common/civil.ts"
import { OraError } from "./errors.ts"
import { convertDateFormat, fillModeBefore, TEXT_DATETIME_ELEMENT } from "./translate-datetime-sql.ts"

/** The AMERICA territory's defaults (Globalization Support Guide, the NLS_* parameters' sections). */
export const DEFAULT_NLS_FORMATS = {
  date: "DD-MON-RR",
  timestamp: "DD-MON-RR HH.MI.SSXFF AM",
  timestampTz: "DD-MON-RR HH.MI.SSXFF AM TZR"
} as const

/** The session's formats as ALTER SESSION SET NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT / NLS_TIMESTAMP_TZ_FORMAT leave them. */
export interface NlsFormats {
  date: string
  timestamp: string
  timestampTz: string
}

/** The ALTER SESSION parameter each format is set by, with the DuckDB variable the SQL reads it from. */
export const NLS_FORMAT_PARAMETERS = [
  ["NLS_DATE_FORMAT", "date", "ora_nls_date_format"],
  ["NLS_TIMESTAMP_FORMAT", "timestamp", "ora_nls_timestamp_format"],
  ["NLS_TIMESTAMP_TZ_FORMAT", "timestampTz", "ora_nls_timestamp_tz_format"]
] as const

/** The SQL reading the session's format of `kind` (a DuckDB variable; the default before any session variable is set). */
export const sessionFormat = (kind: keyof NlsFormats): string => {
  const [, , variable] = NLS_FORMAT_PARAMETERS.find((p) => p[1] === kind)!
  return `coalesce(getvariable('${variable}'), '${DEFAULT_NLS_FORMATS[kind]}')`
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

/** A strftime directive's text of a wall clock; `bare` (`%-d`) drops a number's leading zeros. */
type Directive = (c: Civil, bare: boolean) => string

const number = (of: (c: Civil) => number, width: number): Directive => (c, bare) => (bare ? String(of(c)) : pad(of(c), width))
const weekday = (c: Civil) => ((daysFromCivil(c.year, c.month, c.day) % 7) + 11) % 7

/** The directives convertDateFormat writes, over a value's wall clock (names in English, as DuckDB's). */
const DIRECTIVES: Readonly<Record<string, Directive>> = {
  Y: (c) => `${c.year < 0 ? "-" : ""}${pad(Math.abs(c.year), 4)}`,
  y: number((c) => Math.abs(c.year) % 100, 2),
  m: number((c) => c.month, 2),
  d: number((c) => c.day, 2),
  j: number((c) => daysFromCivil(c.year, c.month, c.day) - daysFromCivil(c.year, 1, 1) + 1, 3),
  H: number((c) => c.hour, 2),
  I: number((c) => (c.hour % 12 === 0 ? 12 : c.hour % 12), 2),
  M: number((c) => c.minute, 2),
  S: number((c) => c.second, 2),
  g: (c) => pad(Math.floor(c.nanos / 1_000_000), 3),
  f: (c) => pad(Math.floor(c.nanos / 1000), 6),
  n: (c) => pad(c.nanos, 9),
  p: (c) => (c.hour < 12 ? "AM" : "PM"),
  b: (c) => MONTHS[c.month - 1]!.slice(0, 3),
  B: (c) => MONTHS[c.month - 1]!,
  a: (c) => DAYS[weekday(c)]!.slice(0, 3),
  A: (c) => DAYS[weekday(c)]!
}

/** strftime of `fmt` (convertDateFormat's directives), read once: the text of a wall clock. */
const strftimeOf = (fmt: string): ((c: Civil) => string) => {
  const parts: Array<string | { readonly directive: Directive; readonly bare: boolean }> = []
  let last = 0
  for (const m of fmt.matchAll(/%(-?)([A-Za-z%])/g)) {
    parts.push(fmt.slice(last, m.index))
    const directive = DIRECTIVES[m[2]!]
    parts.push(m[2] === "%" ? "%" : directive === undefined ? m[0] : { directive, bare: m[1] === "-" })
    last = m.index + m[0].length
  }
  parts.push(fmt.slice(last))
  return (c) => {
    let text = ""
    for (const part of parts) text += typeof part === "string" ? part : part.directive(c, part.bare)
    return text
  }
}

/** Marks convertDateFormat leaves for yearText (years, names, calendar elements, fractions): none, no yearText. */
const YEAR_TEXT_MARKS = /[\u0001-\u0008]/

/**
 * The text of a value in the Oracle datetime format model `format`, the model read once: the wall clock by
 * convertDateFormat's directives (year, name and calendar marks resolved by datetime-functions.ts yearText in
 * `language`), zone elements and fractions by formatElement; FF alone gives `digits` digits (the value's precision).
 * The wall clock's fields are worked out once per value for all the pieces.
 */
export const formatterOfModel = (format: string, digits: number, language: string): ((v: DatetimeValue) => string) => {
  const pieces: Array<(v: DatetimeValue, c: Civil) => string> = []
  let rest = format
  const local = (fmt: string) => {
    const directives = convertDateFormat(fmt, true)
    const text = strftimeOf(directives)
    return YEAR_TEXT_MARKS.test(directives) ? (_: DatetimeValue, c: Civil) => yearText(text(c), language) : (_: DatetimeValue, c: Civil) => text(c)
  }
  for (let m = TEXT_DATETIME_ELEMENT.exec(rest); m !== null; m = TEXT_DATETIME_ELEMENT.exec(rest)) {
    if (m.index > 0) pieces.push(local(fillModeBefore(format, rest, m.index)))
    const upper = m[0].toUpperCase()
    const element = upper === "FF" ? `FF${digits}` : upper
    // a fraction's digits from the wall clock worked out (as formatElement gives them), a zone element by formatElement
    const fraction = element.startsWith("FF") ? Number(element.slice(2)) : undefined
    pieces.push(fraction === undefined ? (v) => formatElement(v, element) : (_, c) => String(c.nanos).padStart(9, "0").slice(0, fraction))
    rest = rest.slice(m.index + m[0].length)
  }
  if (rest !== "" || pieces.length === 0) pieces.push(local(fillModeBefore(format, rest, rest.length)))
  return (v) => {
    const c = civilOfNanos(v.wall)
    let text = ""
    for (const piece of pieces) text += piece(v, c)
    return text
  }
}

/** `v` in the Oracle datetime format model `format` ({@link formatterOfModel}). */
export const formatInModel = (v: DatetimeValue, format: string, digits: number, language: string): string => formatterOfModel(format, digits, language)(v)

/**
 * `ora_nls_text(value, zone, format, digits, language)`: a datetime's text (stored text, a literal's, or DuckDB's
 * rendering; read in `zone` when zoneless and `zone` is not '') in `format`, FF giving `digits` digits.
 */
const nlsTextFunction = (): DuckDBScalarFunction =>
  fn("ora_nls_text", [VARCHAR, VARCHAR, VARCHAR, BIGINT, VARCHAR], VARCHAR, ([t, z, f, d, language]) => {
    const zone = z === null || z === undefined ? "" : String(z)
    const v = parseDatetimeText(String(t), zone === "" ? undefined : zone)
    if (v === undefined) throw new OraError(1861, "literal does not match format string")
    return formatInModel(v, String(f), Number(d), String(language ?? "AMERICAN"))
  })

/**
 * `ora_datetime_of_default(text, format, language, duck)`: a text read in the session's default format (TO_DATE /
 * TO_TIMESTAMP / TO_TIMESTAMP_TZ without a format model), as DuckDB reads a TIMESTAMP (`duck`) or in the stored form
 * ora_tstz takes; a text the format does not read fails as Oracle fails it ("TO_DATE": "If you omit fmt, then char
 * must be in the default date format"; `TO_DATE('2008-03-01')` under DD-MON-RR is ORA-01861, datetime-parse.ts).
 */
const datetimeOfDefaultFunction = (): DuckDBScalarFunction =>
  fn("ora_datetime_of_default", [VARCHAR, VARCHAR, VARCHAR, BOOLEAN], VARCHAR, ([t, f, language, duck]) => {
    const read = datetimeTextOfFormat(String(t), String(f), String(language ?? "AMERICAN"))
    if (duck !== true) return read
    const v = parseDatetimeText(read)!
    const c = civilOfNanos(v.wall)
    const year = c.year > 0 ? pad(c.year, 4) : pad(1 - c.year, 4)
    return `${year}-${pad(c.month, 2)}-${pad(c.day, 2)}${c.year > 0 ? "" : " (BC)"} ${pad(c.hour, 2)}:${pad(c.minute, 2)}:${pad(c.second, 2)}.${pad(Math.floor(c.nanos / 1000), 6)}`
  })

/** Registers `ora_nls_text` and `ora_datetime_of_default` in the database `connection` belongs to. */
export const registerNlsFunctions = (connection: DuckDBConnection): void => {
  connection.registerScalarFunction(nlsTextFunction())
  connection.registerScalarFunction(datetimeOfDefaultFunction())
}

/** The SQL of TO_DATE / TO_TIMESTAMP / TO_TIMESTAMP_TZ(text) without a format model: the text in the session's format of `kind`. */
export const defaultFormatRead = (kind: keyof NlsFormats, text: string, duck: boolean): string =>
  `ora_datetime_of_default(ora_char_of(${text}), ${sessionFormat(kind)}, ${SESSION_DATE_LANGUAGE}, ${duck})`


/**
 * The SQL of a datetime's text in the session's format of `kind` (TO_CHAR without a format model): `text` is the
 * value's text as ora_nls_text takes it, `zone` the SQL of the zone a zoneless text is read in ('' none), `digits`
 * the fraction digits FF gives.
 */
export const nlsText = (kind: keyof NlsFormats, text: string, zone: string, digits: number): string =>
  `ora_nls_text(CAST(${text} AS VARCHAR), ${zone}, ${sessionFormat(kind)}, ${digits}, ${SESSION_DATE_LANGUAGE})`
