/**
 * DuckDB scalar functions over the TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9) values the server stores as text
 * (datetime.ts `datetimeText`; DuckDB has no datetime type that keeps a value's zone, nor one with nanoseconds over
 * Oracle's years -4712..9999; see README.md). The translator (translate.ts) routes comparisons, ORDER BY, `± INTERVAL`,
 * AT TIME ZONE, EXTRACT, TO_CHAR and CAST of such values through them. Each takes the value's text (a stored value, a literal's
 * text, or DuckDB's rendering of one of its own datetimes) and the zone a zoneless text is read in: the session time
 * zone where a zoned value is involved (Oracle converts a TIMESTAMP to TIMESTAMP WITH TIME ZONE in the session time
 * zone), '' for TIMESTAMP(7-9) values, which stay wall clocks. Zoned results are typed `VARCHAR` with the alias
 * {@link ZONED_ALIAS}, zoneless ones {@link WALL_ALIAS}, which describe them as TIMESTAMP(9) [WITH TIME ZONE].
 */
import { BIGINT, BOOLEAN, DOUBLE, DuckDBVarCharType, INTERVAL, TIMESTAMP, TIMESTAMPTZ, VARCHAR, timestampTZValue, timestampValue } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBIntervalValue, DuckDBScalarFunction, DuckDBTimestampValue, DuckDBValue } from "@duckdb/node-api"
import { OraError } from "./errors.ts"
import { localizedName } from "./date-language.ts"
import { casedLike, spelledYear, withSuffix } from "./datetime-spelling.ts"
import { datetimeTextOfFormat } from "./datetime-parse.ts"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { zoneFunctions } from "./zone-functions.ts"
import { civilFromDays, daysFromCivil } from "../common/civil.ts"
import { durationOfExactMonths, durationOfExactSeconds } from "./intervals.ts"
import { addToNanos, atInstant, canonicalRegion, civilOfNanos, datetimeText, type DatetimeValue, offsetText, parseDatetimeText, parseOffset, utcNanos, zoneAbbreviation } from "./datetime.ts"

/** Alias of the VARCHAR type zoned results are typed (described as TIMESTAMP(9) WITH TIME ZONE). */
export const ZONED_ALIAS = "ORA_TSTZ"
/** Alias of the VARCHAR type zoneless results are typed (described as TIMESTAMP(9)). */
export const WALL_ALIAS = "ORA_TS"

const zonedText = new DuckDBVarCharType(ZONED_ALIAS)
const wallText = new DuckDBVarCharType(WALL_ALIAS)

/** The value of a text argument read in `zone` ('' = zoneless); ORA-01861 for text that is no datetime. */
const valueOf = (text: DuckDBValue | undefined, zone: DuckDBValue | undefined): DatetimeValue => {
  const z = zone === null || zone === undefined ? "" : String(zone)
  const v = parseDatetimeText(String(text), z === "" ? undefined : z)
  if (v === undefined) throw new OraError(1861, "literal does not match format string")
  return v
}

const KEY_BIAS = 1n << 80n
/** A text whose order is the order of the instants (zoned) or wall clocks (zoneless), exact to the nanosecond. */
const orderKey = (v: DatetimeValue): string => (utcNanos(v) + KEY_BIAS).toString().padStart(26, "0")

const floorMicros = (ns: bigint): bigint => ns / 1000n - (ns < 0n && ns % 1000n !== 0n ? 1n : 0n)

/**
 * One element of a datetime format model that the server formats itself (Oracle SQL Language Reference, "Datetime
 * Format Elements"): TZH, TZM, TZH:TZM, TZR (the region, or the offset of a value given with one), TZD (the daylight
 * abbreviation of a region, empty for an offset), FF and FF1-FF9 (fraction digits, truncated).
 */
export const formatElement = (v: DatetimeValue, element: string): string => {
  const e = element.toUpperCase()
  const offset = offsetText(v.offsetMinutes ?? 0)
  if (e === "TZH:TZM") return offset
  if (e === "TZH") return offset.slice(0, 3)
  if (e === "TZM") return offset.slice(4)
  if (e === "TZR") return v.region ?? offset
  if (e === "TZD") return v.region === undefined ? "" : zoneAbbreviation(v.region, utcNanos(v))
  const digits = e === "FF" ? 9 : Number(e.slice(2))
  return String(civilOfNanos(v.wall).nanos).padStart(9, "0").slice(0, digits)
}


/** `v` ± an interval: a zoned value in UTC keeping its zone, a zoneless one on its wall clock. */
const addInterval = (v: DatetimeValue, interval: DuckDBValue | undefined): DatetimeValue => {
  const iv = interval as DuckDBIntervalValue
  const nanos = BigInt(iv.days) * 86_400_000_000_000n + iv.micros * 1000n
  if (v.offsetMinutes === undefined) return { wall: addToNanos(v.wall, iv.months, nanos) }
  return atInstant(v, addToNanos(utcNanos(v), iv.months, nanos))
}

/**
 * The value a fraction `f` of the way from `a` to `b` (by instant, or wall clock for zoneless values), in `a`'s zone:
 * PERCENTILE_CONT's interpolation between two rows (percentile-windows.ts), to the nanosecond.
 */
const interpolated = (a: DatetimeValue, b: DatetimeValue, f: number): DatetimeValue => {
  const step = ((utcNanos(b) - utcNanos(a)) * BigInt(Math.round(f * 1e9))) / 1_000_000_000n
  return atInstant(a, utcNanos(a) + step)
}

/**
 * The instant of `v` in the time zone `zone` (an offset such as `+05:00` or a region name), as `v AT TIME ZONE zone`
 * gives it (SQL Language Reference, "Datetime Expressions"); an unknown region raises ORA-01882.
 */
const atZone = (v: DatetimeValue, zone: string): DatetimeValue => {
  const z = zone.trim()
  if (/^[+-]\d{1,2}(?::?\d{2})?$/.test(z)) return atInstant({ wall: 0n, offsetMinutes: parseOffset(z) }, utcNanos(v))
  const region = canonicalRegion(z)
  if (region === undefined) throw new OraError(1882, "timezone region not found")
  return atInstant({ wall: 0n, offsetMinutes: 0, region }, utcNanos(v))
}

/**
 * Marks around DuckDB's `%Y` in a TO_CHAR format (translate.ts convertDateFormat) that `ora_year_text` turns into
 * Oracle's year: YYYY the absolute year in four digits, SYYYY a leading minus for BC years and a space for AD ones
 * (nothing under FM): "SYYYY, YYYY: 4-digit year; S prefixes BC dates with a minus sign" (Oracle SQL Language
 * Reference, "Datetime Format Elements", e.g. the TimesTen edition of that table:
 * https://docs.oracle.com/en/database/other-databases/timesten/22.1/sql-reference/datetime-format-elements.html);
 * the blank sign of AD years goes with FM like every blank padding ("FM: returns a value with no leading or trailing
 * blanks", same table).
 */
export const YEAR_MARK = { absolute: "\u0001", absoluteFm: "\u0005", signed: "\u0003", signedFm: "\u0004", fraction: "\u0006", name: "\u0007", calendar: "\u0008", end: "\u0002" } as const

/**
 * The calendar elements strftime has no directive for, computed from the date and time strftime writes between
 * `calendar` marks (`\u0008` element, `F` under FM else `-`, `|%Y|%m|%d|%H|%M|%S`, `end`): Q (quarter), WW (week of
 * the year, days 1-7 being week 1), W (week of the month, likewise), IW / IYYY / IYY / IY (ISO 8601 week and year),
 * D (day of the week, Sunday 1 as under NLS_TERRITORY AMERICA, the server's territory), J (Julian day, 1 January
 * 4712 BC being day 1), CC (century) and SSSSS (seconds past midnight). SQL Language Reference, "Datetime Format
 * Elements"; FM drops the leading zeros ("Format Model Modifiers").
 */
export const CALENDAR_ELEMENTS = ["IYYY", "IYY", "IY", "SSSSS", "CC", "WW", "IW", "Q", "W", "J", "D"] as const

const calendarText = (written: string, fm: boolean, y: number, m: number, d: number, hh: number, mi: number, ss: number): string => {
  // a number element with a TH / SP / SPTH / THSP suffix (`DD#TH`): its number, then the suffix (datetime-spelling.ts)
  const [element, suffix] = written.split("#") as [string, string | undefined]
  if (suffix !== undefined) {
    const upper = element.toUpperCase()
    const number = suffixedNumber(upper, y, m, d, hh, mi, ss)
    const digits = calendarText(NUMBER_ELEMENT_TEXT[upper] ?? upper, fm, y, m, d, hh, mi, ss)
    return withSuffix(number, digits, suffix.toUpperCase(), element + suffix)
  }
  const pad = (n: number, width: number) => (fm ? String(n) : String(n).padStart(width, "0"))
  // as written: upper-case, initial capital or lower-case like the element ("Datetime Format Elements": "Capitalization
  // in a spelled-out word, abbreviation, or Roman numeral follows capitalization in the corresponding format element")
  const cased = (text: string) => (/^[a-z]/.test(element) ? text.toLowerCase() : text)
  const dotted = (two: string) => (element.includes(".") ? `${two[0]}.${two[1]}.` : two)
  switch (element.toUpperCase()) {
    // the year spelled out, a minus before a BC year's under SYEAR (datetime-spelling.ts)
    case "YEAR": case "SYEAR": return (y < 0 && element.length === 5 ? "-" : "") + casedLike(element, spelledYear(Math.abs(y)))
    // SCC: "S prefixes BC dates with a minus sign", a blank before an AD century's unless FM (as SYYYY)
    case "SCC": return (y < 0 ? "-" : fm ? "" : " ") + pad(Math.abs(y > 0 ? Math.ceil(y / 100) : Math.floor((y - 1) / 100)), 2)
    // E / EE, the era name: Oracle documents them for the Japanese Imperial, ROC Official and Thai Buddha calendars
    // only; under the GREGORIAN calendar the server prints the era as AD does (**unconfirmed**)
    case "E": case "EE": return cased(y > 0 ? "AD" : "BC")
    case "YYYY": case "RRRR": return pad(Math.abs(y), 4)
    case "YY": case "RR": return pad(Math.abs(y) % 100, 2)
    case "MM": return pad(m, 2)
    case "DD": return pad(d, 2)
    case "DDD": return pad(daysFromCivil(y, m, d) - daysFromCivil(y, 1, 1) + 1, 3)
    case "HH": case "HH12": return pad(hh % 12 === 0 ? 12 : hh % 12, 2)
    case "HH24": return pad(hh, 2)
    case "MI": return pad(mi, 2)
    case "SS": return pad(ss, 2)
    case "YYY": return pad(Math.abs(y) % 1000, 3)
    case "Y": return String(Math.abs(y) % 10)
    case "RM": return cased(["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"][m - 1]!)
    case "AM": case "PM": case "A.M.": case "P.M.": return cased(dotted(hh < 12 ? "AM" : "PM"))
    case "AD": case "BC": case "A.D.": case "B.C.": return cased(dotted(y > 0 ? "AD" : "BC"))
  }
  // the day counts only the elements below print
  const days = daysFromCivil(y, m, d)
  const dayOfYear = days - daysFromCivil(y, 1, 1) + 1
  // ISO 8601: the week holding the year's first Thursday is week 1 (Monday first)
  const isoWeekday = ((((days + 3) % 7) + 7) % 7) + 1
  const thursday = days - isoWeekday + 4
  const isoYear = civilFromDays(thursday).year
  const isoWeek = Math.floor((thursday - daysFromCivil(isoYear, 1, 1)) / 7) + 1
  switch (element) {
    case "Q": return String(Math.floor((m - 1) / 3) + 1)
    case "WW": return pad(Math.floor((dayOfYear - 1) / 7) + 1, 2)
    case "W": return String(Math.floor((d - 1) / 7) + 1)
    case "IW": return pad(isoWeek, 2)
    case "IYYY": return pad(isoYear, 4)
    case "IYY": return String(isoYear).padStart(4, "0").slice(-3)
    case "IY": return String(isoYear).padStart(4, "0").slice(-2)
    case "D": return String((isoWeekday % 7) + 1)
    case "J": return pad(days + 2_440_588, 7)
    case "CC": return pad(y > 0 ? Math.ceil(y / 100) : Math.floor((y - 1) / 100), 2)
    default: return pad(hh * 3600 + mi * 60 + ss, 5)
  }
}

/** The element whose digits a suffixed element prints (`SYYYY` as YYYY: a suffix spells the absolute year). */
const NUMBER_ELEMENT_TEXT: Readonly<Record<string, string>> = { SYYYY: "YYYY" }

/** The number a number element stands for, for its suffix. */
const suffixedNumber = (element: string, y: number, m: number, d: number, hh: number, mi: number, ss: number): number => {
  const text = calendarText(NUMBER_ELEMENT_TEXT[element] ?? element, true, y, m, d, hh, mi, ss)
  return Number(text)
}

/**
 * Month and day names (MONTH, MON, DAY, DY) marked `name`, their capitalisation (`U` upper, `I` initial, `L` lower),
 * the width to blank-pad to (0: none), the name, `end`: "Capitalization in a spelled-out word, abbreviation, or Roman
 * numeral follows capitalization in the corresponding format element", and MONTH / DAY are padded with blanks to the
 * length of the longest name (nine characters in English) unless FM is in force (SQL Language Reference, "Datetime
 * Format Elements" and "Format Model Modifiers": "In a datetime format element of a TO_CHAR function, this modifier
 * suppresses blanks in subsequent characters or spaces in the results of the MONTH or DAY element").
 */
const nameText = (text: string, language: string): string =>
  text.replace(/\u0007([UIL])(\d)([A-Za-z]+)\u0002/g, (_, kind: string, width: string, english: string) => {
    // in the session's or the call's NLS_DATE_LANGUAGE (date-language.ts), padded to that language's longest name
    const { name, longest } = localizedName(english, language)
    return (kind === "U" ? name.toUpperCase() : kind === "L" ? name.toLowerCase() : name[0]!.toUpperCase() + name.slice(1).toLowerCase()).padEnd(Number(width) > 0 ? longest : 0, " ")
  })

/** Also FF1-FF9 whose digits strftime has no width for: `fraction`, the digit count, the wider fraction, `end`. */
export const yearText = (text: string, language = "AMERICAN"): string =>
  nameText(text, language)
    .replace(/\u0008([A-Za-z0-9.#]+)([F-])\|(-?\d+)\|(\d+)\|(\d+)\|(\d+)\|(\d+)\|(\d+)\u0002/g, (_, e: string, fm: string, ...f: Array<string>) =>
      calendarText(e, fm === "F", ...(f.slice(0, 6).map(Number) as [number, number, number, number, number, number]))).replace(/\u0006(\d)(\d+)\u0002/g, (_, n: string, digits: string) => digits.slice(0, Number(n))).replace(/([\u0001\u0003\u0004\u0005])(-?)(\d+)\u0002/g, (_, kind: string, minus: string, digits: string) => {
    // under FM a number element loses its leading zeros (SQL Language Reference, "Format Model Modifiers")
    const fm = kind === YEAR_MARK.absoluteFm || kind === YEAR_MARK.signedFm
    const year = fm ? String(Number(digits)) : digits.padStart(4, "0")
    if (kind === YEAR_MARK.absolute || kind === YEAR_MARK.absoluteFm) return year
    return (minus === "-" ? "-" : kind === YEAR_MARK.signed ? " " : "") + year
  })

/** The functions, by the names the translator uses. */
const functions = (): Array<DuckDBScalarFunction> => [
  fn("ora_year_text", [VARCHAR], VARCHAR, ([t]) => yearText(String(t))),
  fn("ora_year_text", [VARCHAR, VARCHAR], VARCHAR, ([t, language]) => yearText(String(t), String(language))),
  // TO_TIMESTAMP_TZ(text, format): the text read in the format, as the text ora_tstz takes
  fn("ora_datetime_of_format", [VARCHAR, VARCHAR], VARCHAR, ([t, f]) => datetimeTextOfFormat(String(t), String(f))),
  // TO_DATE / TO_TIMESTAMP(text, format) with month names in NLS_DATE_LANGUAGE `language` (date-language.ts)
  fn("ora_datetime_of_format", [VARCHAR, VARCHAR, VARCHAR], VARCHAR, ([t, f, language]) => datetimeTextOfFormat(String(t), String(f), String(language))),
  // a value in the server's stored form: zoned (the zone given, else `zone`) or, with zone '', zoneless
  fn("ora_tstz", [VARCHAR, VARCHAR], zonedText, ([t, z]) => datetimeText(valueOf(t, z))),
  fn("ora_ts", [VARCHAR], wallText, ([t]) => datetimeText({ wall: valueOf(t, "").wall })),
  fn("ora_tstz_key", [VARCHAR, VARCHAR], VARCHAR, ([t, z]) => orderKey(valueOf(t, z))),
  // the instant (microseconds, floor) and the wall clock of the value's own zone
  fn("ora_tstz_utc", [VARCHAR, VARCHAR], TIMESTAMPTZ, ([t, z]) => timestampTZValue(floorMicros(utcNanos(valueOf(t, z))))),
  fn("ora_tstz_local", [VARCHAR, VARCHAR], TIMESTAMP, ([t, z]) => timestampValue(floorMicros(valueOf(t, z).wall))),
  // TZD of a value shown in the session time zone (its wall clock there and offset there): the region's abbreviation
  fn("ora_zone_abbreviation", [VARCHAR, TIMESTAMP, BIGINT], VARCHAR, ([zone, local, offset]) => {
    const region = canonicalRegion(String(zone))
    if (region === undefined || /^[+-]?\d/.test(String(zone))) return ""
    return zoneAbbreviation(region, (local as DuckDBTimestampValue).micros * 1000n - BigInt(offset as bigint) * 60_000_000_000n)
  }),
  fn("ora_tstz_format", [VARCHAR, VARCHAR, VARCHAR], VARCHAR, ([t, z, e]) => formatElement(valueOf(t, z), String(e ?? ""))),
  // datetime ± interval: computed on the UTC instant, the zone kept ("Oracle Database performs all timestamp
  // arithmetic in UTC time", Database Globalization Support Guide, "Datetime and Interval Arithmetic and Time Zones");
  // a zoneless value's result is a TIMESTAMP (ora_ts_add), as Oracle describes TIMESTAMP + INTERVAL
  fn("ora_tstz_add", [VARCHAR, VARCHAR, INTERVAL], zonedText, ([t, z, i]) => datetimeText(addInterval(valueOf(t, z), i))),
  fn("ora_tstz_between", [VARCHAR, VARCHAR, VARCHAR, DOUBLE], zonedText, ([a, b, z, f]) => datetimeText(interpolated(valueOf(a, z), valueOf(b, z), Number(f)))),
  fn("ora_ts_add", [VARCHAR, INTERVAL], wallText, ([t, i]) => datetimeText(addInterval(valueOf(t, ""), i))),
  // a DAY TO SECOND(7-9) / YEAR(9) TO MONTH value in its exact storage (intervals.ts) as a datetime ± INTERVAL takes it
  fn("ora_ds_duration", [VARCHAR, BOOLEAN], INTERVAL, ([s, forDate]) => durationOfExactSeconds(String(s), forDate === true)),
  fn("ora_ym_duration", [BIGINT], INTERVAL, ([m]) => durationOfExactMonths(BigInt(m as bigint))),
  fn("ora_tstz_at", [VARCHAR, VARCHAR, VARCHAR], zonedText, ([t, z, target]) => datetimeText(atZone(valueOf(t, z), String(target ?? ""))))
]

/** Registers the functions in the database `connection` belongs to (DuckDB keeps them in its system catalog). */
export const registerDatetimeFunctions = (connection: DuckDBConnection): void => {
  for (const f of [...functions(), ...zoneFunctions(zonedText)]) connection.registerScalarFunction(f)
}
