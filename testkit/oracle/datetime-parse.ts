/**
 * Reading a text in an Oracle datetime format model (TO_TIMESTAMP_TZ(text, format)): the text rebuilt in the form
 * datetime.ts `parseDatetimeText` reads, with the zone the text gives (TZH:TZM offset or TZR region) or none.
 * Elements read (Oracle SQL Language Reference, "Datetime Format Elements"): SYYYY, YYYY, RRRR, YY, RR (two digits
 * in the current century, or by RR's rule in the one nearest: "The RR Datetime Format Element"), J (the Julian day,
 * January 1, 4712 BC being day 1), DDD (day of the year), MM, MON, MONTH, DD, HH24, HH12, HH, MI, SS, FF[1-9], AM/PM,
 * TZH, TZM, TZR, TZD (read and ignored), FM (no effect here), FX (format exact: from there on every number has its
 * element's digits and punctuation, quoted text and blanks match as written, "Format Model Modifiers"), punctuation
 * and quoted text; without FX blanks in the text around punctuation are accepted and numbers may lack leading zeros.
 */
import { civilFromDays, daysFromCivil } from "../common/civil.ts"
import { monthOfName, weekdayOfName } from "./date-language.ts"
import { OraError } from "./errors.ts"

/** Format elements, the text each one reads and, under FX, exactly; longest first where one is the prefix of another. */
const ELEMENTS: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/^SYYYY/i, "([-+ ]?\\d{1,4})", "([- ]\\d{4})"],
  [/^(?:YYYY|RRRR)/i, "(\\d{1,4})", "(\\d{4})"],
  [/^(?:YY|RR)/i, "(\\d{1,4})", "(\\d{2})"],
  [/^MONTH/i, "([A-Za-z\u00C0-\u017F.]+)", "([A-Za-z\u00C0-\u017F.]+\\s*)"],
  [/^MON/i, "([A-Za-z\u00C0-\u017F.]{2,5})", "([A-Za-z\u00C0-\u017F.]{2,5})"],
  [/^(?:DAY|DY)/i, "([A-Za-z\u00C0-\u017F.]+)", "([A-Za-z\u00C0-\u017F.]+\\s*)"],
  [/^DDD/i, "(\\d{1,3})", "(\\d{3})"],
  [/^(?:MM|DD|HH24|HH12|HH|MI|SS)/i, "(\\d{1,2})", "(\\d{2})"],
  [/^J/i, "(\\d{1,7})", "(\\d{7})"],
  [/^FF[1-9]?/i, "(\\d{1,9})", "(\\d{1,9})"],
  [/^(?:AM|PM|A\.M\.|P\.M\.)/i, "([AaPp]\\.?[Mm]\\.?)", "([AaPp]\\.?[Mm]\\.?)"],
  [/^TZH/i, "([+-]?\\s*\\d{1,2})", "([+-]\\d{2})"],
  [/^TZM/i, "(\\d{1,2})", "(\\d{2})"],
  [/^TZR/i, "([A-Za-z_]+(?:/[A-Za-z_]+)*|[+-]\\d{1,2}:\\d{2})", "([A-Za-z_]+(?:/[A-Za-z_]+)*|[+-]\\d{1,2}:\\d{2})"],
  [/^TZD/i, "([A-Za-z]*)", "([A-Za-z]*)"],
  [/^(?:FM|FX)/i, "", ""]
]

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** A format model as a pattern and the element each of its groups captures. */
interface CompiledFormat {
  readonly regex: RegExp
  readonly names: ReadonlyArray<string>
}

/** Compiled format models: the format is nearly always a constant while the function runs per row. */
const compiledFormats = new Map<string, CompiledFormat>()

const compileFormat = (format: string): CompiledFormat => {
  const known = compiledFormats.get(format)
  if (known !== undefined) return known
  const names: Array<string> = []
  let exact = false
  let pattern = ""
  for (let s = format; s.length > 0; ) {
    if (s.startsWith('"')) {
      const end = s.indexOf('"', 1)
      pattern += escape(s.slice(1, end < 0 ? undefined : end))
      s = end < 0 ? "" : s.slice(end + 1)
      continue
    }
    // X: the radix character ("Datetime Format Elements"), '.' in the AMERICA territory (NLS_TIMESTAMP_FORMAT's HH.MI.SSXFF)
    if (/^X/i.test(s)) {
      pattern += exact ? "\\." : "\\s*\\.\\s*"
      s = s.slice(1)
      continue
    }
    const hit = ELEMENTS.find(([re]) => re.test(s))
    if (hit !== undefined) {
      const element = s.match(hit[0])![0]
      if (/^FX$/i.test(element)) exact = !exact
      if (hit[1] !== "") {
        names.push(element.toUpperCase().replace(/^FF\d$/, "FF"))
        pattern += exact ? hit[2] : hit[1]
      }
      s = s.slice(element.length)
    } else {
      pattern += exact ? escape(s[0]!) : /\s/.test(s[0]!) ? "\\s*" : `\\s*${escape(s[0]!)}\\s*`
      s = s.slice(1)
    }
  }
  // under FX the text has no extra blanks either
  const compiled = { regex: new RegExp(/FX/i.test(format.replace(/"[^"]*"?/g, "")) ? `^${pattern}$` : `^\\s*${pattern}\\s*$`), names }
  compiledFormats.set(format, compiled)
  return compiled
}

/** The text `text` shows in the format model `format`, as `YYYY-MM-DD HH:MI:SS.fffffffff[ zone]`; undefined when it does not match. */
export const datetimeTextOfFormat = (text: string, format: string, language = "AMERICAN"): string | undefined => {
  const { names, regex } = compileFormat(format)
  const m = regex.exec(text)
  if (m === null) return undefined
  const got = new Map(names.map((n, k) => [n, m[k + 1]!.replace(/\s+/g, "")]))
  const num = (...keys: Array<string>) => Number(keys.map((k) => got.get(k)).find((v) => v !== undefined) ?? 0)
  const monthName = got.get("MON") ?? got.get("MONTH")
  const month = monthName !== undefined ? monthOfName(monthName, language) : num("MM") || 1
  let hour = num("HH24", "HH12", "HH")
  const meridian = [...got.keys()].find((k) => /^[AP]/.test(k))
  if (meridian !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (/^p/i.test(got.get(meridian)!) ? 12 : 0)
  }
  let year = num("SYYYY", "YYYY", "RRRR")
  const now = new Date().getUTCFullYear()
  const twoDigits = got.get("YY") ?? got.get("RR")
  if (twoDigits !== undefined) year = twoDigits.length > 2 ? Number(twoDigits) : got.has("RR") ? roundYear(Number(twoDigits), now) : now - (now % 100) + Number(twoDigits)
  let day = num("DD") || 1
  let monthOf = month
  const julian = got.get("J")
  const dayOfYear = got.get("DDD")
  if (julian !== undefined || dayOfYear !== undefined) {
    // J: day 2440588 is 1970-01-01; DDD: the day of the year given
    const civil = civilFromDays(julian !== undefined ? Number(julian) - JULIAN_EPOCH : daysFromCivil(year, 1, 1) + Number(dayOfYear) - 1)
    if (dayOfYear !== undefined && julian === undefined && civil.year !== year) return undefined
    ;[year, monthOf, day] = [civil.year, civil.month, civil.day]
  }
  const month2 = monthOf
  if (month2 < 1 || day > 31 || hour > 23 || num("MI") > 59 || num("SS") > 59) return undefined
  // DAY / DY must name the date's day of the week: ORA-01835 "day of week conflicts with Julian date" (Database
  // Error Messages); a name the language does not have is ORA-01846 "not a valid day of the week"
  const dayName = got.get("DAY") ?? got.get("DY")
  if (dayName !== undefined) {
    const weekday = weekdayOfName(dayName, language)
    if (weekday < 0) throw new OraError(1846, "not a valid day of the week")
    if ((((daysFromCivil(year, month2, day) + 4) % 7) + 7) % 7 !== weekday) throw new OraError(1835, "day of week conflicts with Julian date")
  }
  const two = (n: number) => String(n).padStart(2, "0")
  const fraction = (got.get("FF") ?? "").padEnd(9, "0")
  const tzh = got.get("TZH")
  const zone =
    got.get("TZR") ?? (tzh !== undefined ? `${tzh.startsWith("-") ? "-" : "+"}${two(Math.abs(Number(tzh)))}:${two(num("TZM"))}` : "")
  const yearText = `${year < 0 ? "-" : ""}${String(Math.abs(year)).padStart(4, "0")}`
  return `${yearText}-${two(month2)}-${two(day)} ${two(hour)}:${two(num("MI"))}:${two(num("SS"))}.${fraction}${zone === "" ? "" : ` ${zone}`}`
}

/** Julian day of 1970-01-01. */
const JULIAN_EPOCH = 2_440_588

/**
 * RR: a two-digit year in the century that puts it nearest the current year (`now`): 00-49 in the current century
 * while the current year ends in 00-49, else the next; 50-99 in the previous century while it ends in 00-49, else
 * the current one (SQL Language Reference, "The RR Datetime Format Element").
 */
const roundYear = (yy: number, now: number): number => {
  const century = now - (now % 100)
  const lowHalf = now % 100 < 50
  if (yy < 50) return lowHalf ? century + yy : century + 100 + yy
  return lowHalf ? century - 100 + yy : century + yy
}
