/**
 * HANA's datetime format models for TO_VARCHAR / TO_NVARCHAR / TO_CHAR (a datetime printed in a format) and TO_DATE /
 * TO_TIMESTAMP / TO_SECONDDATE (text read in a format), as DuckDB scalar functions the session macros call
 * (session-macros.ts).
 *
 * The elements follow the SAP HANA SQL Reference, "Datetime Data Types" (the default formats, `FF7`) and the format
 * symbols of the conversion functions (SAP HANA SQL Reference, "TO_VARCHAR Function (Data Type Conversion)", "TO_DATE
 * Function (Data Type Conversion)"; listed with their meaning in Brandeis Consulting's SQLScript course, "Datum und
 * Zeit in SQLScript", https://captainabap.github.io/slides/docs/SQLScript/SQL_GL_7b_date_and_time.html): YYYY, YY,
 * Q, MM, MONTH, MON, RM, W, WW, DD, DDD, DAY, DY, HH / HH12, HH24, AM / PM, MI, SS, SSSSS (the seconds past
 * midnight, 0-86399), FF1-FF7, quoted text and the separators. Names are English. Not confirmed against a server: the case of MONTH / MON / DAY / DY follows the
 * element's own case (`MON` → JAN, `Mon` → Jan, `mon` → jan, as Oracle's models do), names are not blank-padded, and
 * reading accepts any separator where the format has one.
 *
 * Values are DuckDB's text of the stored value (its labels are HANA's, README "Day numbers"), so no day is renumbered.
 */
import { DATE, TIMESTAMP, VARCHAR, dateValue, timestampValue } from "@duckdb/node-api"
import type { DuckDBScalarFunction } from "@duckdb/node-api"
import { civilFromDays, daysFromCivil } from "../common/civil.ts"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"

/** The text HANA's 303 carries for text that does not match its format (errors.ts maps it to 303). */
export const INVALID_DATETIME = "invalid DATE, TIME or TIMESTAMP value"

const MONTHS = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"]
const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]

/** Elements longest first, so that `HH24` is not read as `HH` followed by `24`. */
const ELEMENTS = [
  "SSSSS", "YYYY", "MONTH", "HH24", "HH12", "DDD", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FF7", "MON", "DAY",
  "YY", "MM", "RM", "WW", "DD", "DY", "HH", "AM", "PM", "MI", "SS", "FF", "Q", "W"
] as const
type Element = (typeof ELEMENTS)[number]

type Token =
  | { readonly kind: "element"; readonly element: Element; readonly text: string }
  | { readonly kind: "literal"; readonly text: string }

const tokenCache = new Map<string, ReadonlyArray<Token>>()

/** The tokens of format `format`; an unknown letter is an error naming it (before any value is read). */
const tokens = (format: string): ReadonlyArray<Token> => {
  const cached = tokenCache.get(format)
  if (cached !== undefined) return cached
  const out: Array<Token> = []
  let i = 0
  while (i < format.length) {
    const c = format[i]!
    if (c === '"') {
      const end = format.indexOf('"', i + 1)
      if (end < 0) throw new Error(`${INVALID_DATETIME}: unterminated quoted text in format ${format}`)
      out.push({ kind: "literal", text: format.slice(i + 1, end) })
      i = end + 1
      continue
    }
    if (/[A-Za-z]/.test(c)) {
      const upper = format.slice(i).toUpperCase()
      const element = ELEMENTS.find((e) => upper.startsWith(e))
      if (element === undefined) {
        throw new Error(`${INVALID_DATETIME}: format element ${format.slice(i).replace(/[^A-Za-z0-9].*$/, "")} is not one of ${ELEMENTS.join(", ")}`)
      }
      out.push({ kind: "element", element, text: format.slice(i, i + element.length) })
      i += element.length
      continue
    }
    out.push({ kind: "literal", text: c })
    i++
  }
  if (tokenCache.size > 1000) tokenCache.clear()
  tokenCache.set(format, out)
  return out
}

/** A name in the case its element is written: `MON` upper, `Mon` capitalised, `mon` lower. */
const cased = (name: string, written: string): string =>
  written === written.toUpperCase() ? name
  : written[0] === written[0]!.toUpperCase() ? name[0] + name.slice(1).toLowerCase()
  : name.toLowerCase()

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

interface Fields {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  /** Fraction of the second in 100 ns units (0 .. 9,999,999). */
  readonly ticks: number
}

/** The fields of DuckDB's text of a DATE, TIME, TIMESTAMP[_S|_MS] value (`2024-01-02 03:04:05.123456`). */
const fieldsOfText = (text: string): Fields => {
  const m = /^(-?\d{1,4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?$/.exec(text) ??
    /^()()()(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$/.exec(text)
  if (m === null) throw new Error(`${INVALID_DATETIME}: ${text} is not a datetime`)
  const num = (s: string | undefined, d: number) => (s === undefined || s === "" ? d : Number(s))
  return {
    year: num(m[1], 1900), month: num(m[2], 1), day: num(m[3], 1),
    hour: num(m[4], 0), minute: num(m[5], 0), second: num(m[6], 0),
    ticks: Number((m[7] ?? "").padEnd(7, "0").slice(0, 7))
  }
}

const dayOfYear = (f: Fields): number => daysFromCivil(f.year, f.month, f.day) - daysFromCivil(f.year, 1, 1) + 1
/** Monday = 0, as HANA's WEEKDAY counts. */
const weekday = (f: Fields): number => (((daysFromCivil(f.year, f.month, f.day) + 3) % 7) + 7) % 7

const printElement = (t: Extract<Token, { kind: "element" }>, f: Fields): string => {
  switch (t.element) {
    case "YYYY": return pad(f.year, 4)
    case "YY": return pad(f.year % 100, 2)
    case "Q": return String(Math.floor((f.month - 1) / 3) + 1)
    case "MM": return pad(f.month, 2)
    case "MONTH": return cased(MONTHS[f.month - 1]!, t.text)
    case "MON": return cased(MONTHS[f.month - 1]!.slice(0, 3), t.text)
    case "RM": return cased(ROMAN[f.month - 1]!, t.text)
    case "W": return String(Math.floor((f.day - 1) / 7) + 1)
    case "WW": return pad(Math.floor((dayOfYear(f) - 1) / 7) + 1, 2)
    case "DD": return pad(f.day, 2)
    case "DDD": return pad(dayOfYear(f), 3)
    case "DAY": return cased(DAYS[weekday(f)]!, t.text)
    case "DY": return cased(DAYS[weekday(f)]!.slice(0, 3), t.text)
    case "HH":
    case "HH12": return pad(((f.hour + 11) % 12) + 1, 2)
    case "HH24": return pad(f.hour, 2)
    case "AM":
    case "PM": return cased(f.hour < 12 ? "AM" : "PM", t.text)
    case "MI": return pad(f.minute, 2)
    case "SS": return pad(f.second, 2)
    case "SSSSS": return pad(f.hour * 3600 + f.minute * 60 + f.second, 5)
    case "FF": return pad(f.ticks, 7)
    default: return pad(f.ticks, 7).slice(0, Number(t.element.slice(2)))
  }
}

/** `text` (DuckDB's text of a datetime) printed in HANA format `format`. */
export const formatDatetime = (text: string, format: string): string => {
  const f = fieldsOfText(text)
  return tokens(format).map((t) => (t.kind === "literal" ? t.text : printElement(t, f))).join("")
}

const NUMERIC_WIDTH: Partial<Record<Element, number>> = {
  YYYY: 4, YY: 2, MM: 2, DD: 2, DDD: 3, HH: 2, HH12: 2, HH24: 2, MI: 2, SS: 2, SSSSS: 5, Q: 1, W: 1, WW: 2,
  FF: 7, FF1: 1, FF2: 2, FF3: 3, FF4: 4, FF5: 5, FF6: 6, FF7: 7
}

/** The fields `text` gives in HANA format `format`: day 1 of January 1 unless the format says otherwise. */
const readFields = (text: string, format: string): Fields => {
  const fail = (why: string): never => {
    throw new Error(`${INVALID_DATETIME}: Error while parsing ${text} with format ${format}: ${why}`)
  }
  let year = 1, month = 1, day = 1, hour = 0, minute = 0, second = 0, ticks = 0, pm: boolean | undefined, twelve = false
  let dayOfYearRead: number | undefined
  let at = 0
  for (const t of tokens(format)) {
    if (t.kind === "literal") {
      // Any separator stands for any other (or for several blanks); quoted text must match.
      if (t.text.length === 1 && !/[A-Za-z0-9]/.test(t.text)) {
        while (at < text.length && /[^A-Za-z0-9]/.test(text[at]!)) at++
      } else if (text.slice(at, at + t.text.length).toUpperCase() === t.text.toUpperCase()) at += t.text.length
      else fail(`expected "${t.text}" at position ${at + 1}`)
      continue
    }
    const width = NUMERIC_WIDTH[t.element]
    if (width !== undefined) {
      const digits = /^\d+/.exec(text.slice(at, at + width))?.[0]
      if (digits === undefined) fail(`expected ${t.element} at position ${at + 1}`)
      at += digits!.length
      const n = Number(digits)
      switch (t.element) {
        case "YYYY": year = n; break
        case "YY": year = 2000 + n; break
        case "MM": month = n; break
        case "DD": day = n; break
        case "DDD": dayOfYearRead = n; break
        case "HH": case "HH12": hour = n; twelve = true; break
        case "HH24": hour = n; break
        case "MI": minute = n; break
        case "SS": second = n; break
        case "SSSSS":
          if (n > 86_399) fail(`seconds past midnight ${n} is not between 0 and 86399`)
          hour = Math.floor(n / 3600); minute = Math.floor(n / 60) % 60; second = n % 60
          break
        case "Q": case "W": case "WW": break
        default: ticks = Number(digits!.padEnd(7, "0").slice(0, 7))
      }
      continue
    }
    const rest = text.slice(at).toUpperCase()
    const named = (names: ReadonlyArray<string>): number => {
      const i = names.findIndex((n) => rest.startsWith(n))
      if (i < 0) fail(`expected ${t.element} at position ${at + 1}`)
      at += names[i]!.length
      return i
    }
    switch (t.element) {
      case "MONTH": month = named(MONTHS) + 1; break
      case "MON": month = named(MONTHS.map((m) => m.slice(0, 3))) + 1; break
      case "RM": month = 12 - named([...ROMAN].reverse()); break
      case "DAY": named(DAYS); break
      case "DY": named(DAYS.map((d) => d.slice(0, 3))); break
      default: pm = named(["AM", "PM"]) === 1
    }
  }
  if (text.slice(at).trim() !== "") fail(`unexpected "${text.slice(at)}" after the format's end`)
  if (twelve || pm !== undefined) {
    if (hour < 1 || hour > 12) fail(`hour ${hour} is not between 1 and 12`)
    hour = (hour % 12) + (pm === true ? 12 : 0)
  }
  if (year < 1 || year > 9999) fail(`year ${year} is not between 1 and 9999`)
  if (dayOfYearRead !== undefined) {
    const daysInYear = daysFromCivil(year + 1, 1, 1) - daysFromCivil(year, 1, 1)
    if (dayOfYearRead < 1 || dayOfYearRead > daysInYear) fail(`day of year ${dayOfYearRead} is not in ${pad(year, 4)}`)
    const civil = civilFromDays(daysFromCivil(year, 1, 1) + dayOfYearRead - 1)
    month = civil.month
    day = civil.day
  }
  if (month < 1 || month > 12) fail(`month ${month} is not between 1 and 12`)
  const lastDay = daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1)
  if (day < 1 || day > lastDay) fail(`day ${day} is not in ${pad(year, 4)}-${pad(month, 2)}`)
  if (hour > 23 || minute > 59 || second > 59) fail(`time ${hour}:${minute}:${second} is out of range`)
  return { year, month, day, hour, minute, second, ticks }
}

const epochDay = (f: Fields): number => daysFromCivil(f.year, f.month, 1) + f.day - 1

/** `text` read as a date in HANA format `format`. */
export const parseDate = (text: string, format: string): number => epochDay(readFields(text, format))

/**
 * `text` read as a timestamp in HANA format `format`, in microseconds since 1970 (the seventh fraction digit is cut,
 * as the server stores TIMESTAMP: README, "TIMESTAMP (LONGDATE) keeps microseconds").
 */
export const parseTimestamp = (text: string, format: string): bigint => {
  const f = readFields(text, format)
  const seconds = BigInt(epochDay(f)) * 86_400n + BigInt(f.hour * 3600 + f.minute * 60 + f.second)
  return seconds * 1_000_000n + BigInt(Math.floor(f.ticks / 10))
}

/**
 * `hana_format_datetime(text, format)`, `hana_parse_date(text, format)` and `hana_parse_timestamp(text, format)`:
 * the macros pass a datetime as DuckDB's text, so one function serves DATE, TIME, SECONDDATE and TIMESTAMP.
 */
export const datetimeFormatFunctions = (): Array<DuckDBScalarFunction> => [
  fn("hana_format_datetime", [VARCHAR, VARCHAR], VARCHAR, ([v, f]) => formatDatetime(String(v), String(f))),
  fn("hana_parse_date", [VARCHAR, VARCHAR], DATE, ([v, f]) => dateValue(parseDate(String(v), String(f)))),
  fn("hana_parse_timestamp", [VARCHAR, VARCHAR], TIMESTAMP, ([v, f]) => timestampValue(parseTimestamp(String(v), String(f))))
]
