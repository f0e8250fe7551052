/**
 * Datetime format models checked as Oracle checks them before converting (SQL Language Reference, "Datetime Format
 * Models", "Datetime Format Elements"): a letter that starts no element is ORA-01821 "date format not recognized"
 * (TO_CHAR, TO_DATE, TO_TIMESTAMP), and an element given twice in a model that reads a text (TO_DATE,
 * TO_TIMESTAMP) is ORA-01810 "format code appears twice". A text literal read by a literal model is checked for
 * what DuckDB's strptime does not refuse: year 0 is ORA-01841, a day its month lacks (29 February of a common year)
 * ORA-01839. Codes and texts: Oracle Database Error Messages (ora-01810, ora-01821, ora-01839, ora-01841).
 */
import { daysFromCivil } from "../common/civil.ts"
import { datetimeTextOfFormat } from "./datetime-parse.ts"
import { OraError } from "./errors.ts"

/** Oracle's datetime format elements with the field each one sets when read (undefined: sets none). */
const ELEMENTS: ReadonlyArray<readonly [string, string | undefined]> = (
  [
    ["Y,YYY", "year"], ["SYYYY", "year"], ["SYEAR", "year"], ["YEAR", "year"], ["YYYY", "year"], ["YYY", "year"],
    ["YY", "year"], ["Y", "year"], ["RRRR", "year"], ["RR", "year"], ["IYYY", undefined], ["IYY", undefined],
    ["IY", undefined], ["I", undefined], ["SCC", undefined], ["CC", undefined], ["MONTH", "month"], ["MON", "month"],
    ["MM", "month"], ["RM", "month"], ["Q", undefined], ["WW", undefined], ["IW", undefined], ["W", undefined],
    ["DDD", "dayOfYear"], ["DD", "day"], ["DAY", "weekday"], ["DY", "weekday"], ["DL", undefined], ["DS", undefined],
    ["D", "weekday"], ["HH24", "hour"], ["HH12", "hour"], ["HH", "hour"], ["MI", "minute"], ["SSSSS", "secondsOfDay"],
    ["SS", "second"], ["FF1", "fraction"], ["FF2", "fraction"], ["FF3", "fraction"], ["FF4", "fraction"],
    ["FF5", "fraction"], ["FF6", "fraction"], ["FF7", "fraction"], ["FF8", "fraction"], ["FF9", "fraction"],
    ["FF", "fraction"], ["A.M.", "meridian"], ["P.M.", "meridian"], ["AM", "meridian"], ["PM", "meridian"],
    ["A.D.", "era"], ["B.C.", "era"], ["AD", "era"], ["BC", "era"], ["J", "julian"], ["TZH", "tzh"], ["TZM", "tzm"],
    ["TZR", "tzr"], ["TZD", "tzd"], ["TS", undefined], ["X", undefined], ["EE", undefined], ["E", undefined],
    ["FM", undefined], ["FX", undefined], ["SPTH", undefined], ["THSP", undefined], ["SP", undefined], ["TH", undefined]
  ] as const
).slice().sort((a, b) => b[0].length - a[0].length)

/** The error Oracle gives the datetime format model `format`, or undefined; `reads`: TO_DATE / TO_TIMESTAMP. */
export const datetimeFormatError = (format: string, reads: boolean): OraError | undefined => {
  const seen = new Set<string>()
  for (let s = format; s.length > 0; ) {
    if (s.startsWith('"')) {
      const end = s.indexOf('"', 1)
      s = end < 0 ? "" : s.slice(end + 1)
      continue
    }
    if (!/^[A-Za-z]/.test(s)) {
      s = s.slice(1)
      continue
    }
    const upper = s.toUpperCase()
    const hit = ELEMENTS.find(([element]) => upper.startsWith(element))
    if (hit === undefined) return new OraError(1821, "date format not recognized")
    const field = hit[1]
    if (reads && field !== undefined) {
      if (seen.has(field)) return new OraError(1810, "format code appears twice")
      seen.add(field)
    }
    s = s.slice(hit[0].length)
  }
  return undefined
}

/** The error Oracle gives TO_DATE / TO_TIMESTAMP of the text literal `text` in `format`, where strptime accepts it. */
export const datetimeTextError = (text: string, format: string): OraError | undefined => {
  const read = datetimeTextOfFormat(text, format)
  const m = read === undefined ? null : /^(-?\d+)-(\d+)-(\d+)/.exec(read)
  if (m === null) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // without a year element the year is the current one (SQL Language Reference, "Datetime Format Models")
  if (year === 0 && /Y|RR/i.test(format.replace(/"[^"]*"?/g, ""))) return new OraError(1841, "(full) year must be between -4713 and +9999, and not be 0")
  if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
    const monthDays = daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1)
    if (day > monthDays) return new OraError(1839, "date not valid for month specified")
  }
  return undefined
}
