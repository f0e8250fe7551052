/**
 * Reading a text in an Oracle datetime format model (TO_DATE, TO_TIMESTAMP, TO_TIMESTAMP_TZ with or without a model):
 * the text rebuilt in the form datetime.ts `parseDatetimeText` reads, with the zone the text gives (TZH:TZM offset or
 * TZR region) or none. The text is read element by element as Oracle reads it, so that a text the model does not
 * read fails with Oracle's error for the element where it stops.
 *
 * Elements read (Oracle SQL Language Reference, "Datetime Format Elements"): SYYYY, YYYY, RRRR, YYY, YY, Y, RR (two
 * digits by RR's rule: "The RR Datetime Format Element"), J (the Julian day, January 1, 4712 BC being day 1), DDD,
 * MM, RM, MON, MONTH, DD, D, DAY, DY, HH24, HH12, HH, MI, SS, SSSSS, FF[1-9], AM/PM/A.M./P.M., TZH, TZM, TZR, TZD (read and
 * ignored), AD / BC / A.D. / B.C., X (the radix character), FM, FX, DL / DS / TS (the territory's date and time
 * formats, read as their models), punctuation and quoted text.
 *
 * "String-to-Date Conversion Rules" (same book): punctuation of the model may be left out of the text, any
 * non-alphanumeric character of the text matches a punctuation character of the model, fields at the end of the model
 * may be left out of the text, and where an element does not match Oracle tries its alternative (MM: MON and MONTH;
 * MON: MONTH and back; YY: YYYY; RR: RRRR). Without FX blanks in the text are ignored and numbers may lack leading
 * zeros; with FX ("Format Model Modifiers") punctuation and quoted text match exactly, there are no extra blanks and a
 * number has its element's digits (ORA-01862; any count up to them under FX FM). Fields the text does not give are
 * the current year, the current month, day 1 and midnight ("Datetime Literals": "If you specify a date value without
 * a date component, then the default date is the first day of the current month").
 *
 * Punctuation left out: where the text holds a letter or digit at a punctuation character of the model, the text
 * goes on only if the next element reads that kind of character; else ORA-01861. That is the reading under which
 * `TO_DATE('2008-03-01')` under `DD-MON-RR` fails ORA-01861 and `TO_DATE('1-Nov-2011')` under
 * `yyyy-mm-dd HH24:mi:ss` gives 0001-11-20 11:00:00 as reported of real servers; Oracle does not document it.
 *
 * Errors (Database Error Messages): ORA-01858 a non-numeric character where a number is read, ORA-01861 a literal or
 * punctuation that does not match, ORA-01862 FX digit counts, ORA-01830 text left over, ORA-01840 text ending early
 * under FX, ORA-01843 month, ORA-01847 / ORA-01839 day, ORA-01848 day of year, ORA-01849 / ORA-01850 hour, ORA-01851
 * minutes, ORA-01852 seconds, ORA-01853 seconds in day, ORA-01854 Julian day, ORA-01855 AM/PM, ORA-01841 year,
 * ORA-01874 / ORA-01875 time zone hour / minute, ORA-01820 a week or century element (WW, W, IW, ... as reported of
 * real servers: "SELECT TO_DATE(200803, 'YYYYWW')" gives ORA-01820; E / EE, OUTPUT_ONLY), ORA-01821 other elements it
 * does not read (Q).
 */
import { civilFromDays, daysFromCivil } from "../common/civil.ts"
import { monthOfName, weekdayOfName } from "./date-language.ts"
import { OraError } from "./errors.ts"

/** Number elements: the digits each reads at most. */
const NUMBER_WIDTH: Readonly<Record<string, number>> = {
  SYYYY: 4, YYYY: 4, RRRR: 4, YYY: 3, YY: 2, RR: 2, Y: 1, MM: 2, DD: 2, DDD: 3, HH24: 2, HH12: 2, HH: 2, MI: 2, SS: 2,
  SSSSS: 5, J: 7, FF: 9, TZM: 2, D: 1
}

/** Every element the reader knows, longest first where one is the prefix of another. */
const ELEMENTS = [
  "SYYYY", "YYYY", "RRRR", "YYY", "YY", "Y", "RR", "MONTH", "MON", "MM", "RM", "DDD", "DD", "DAY", "DY", "HH24", "HH12",
  "HH", "MI", "SSSSS", "SS", "FF", "A.M.", "P.M.", "AM", "PM", "A.D.", "B.C.", "AD", "BC", "J", "TZH", "TZM", "TZR", "TZD", "X", "FM", "FX", "D"
]

/**
 * Elements TO_CHAR prints that a text is not read in: ORA-01820 "format code cannot appear in date input format". E
 * and EE (the era name) are among them: the SQL Quick Reference's "Datetime Format Elements" table (10g Release 1,
 * Table 7-2) answers "Specify in TO_* datetime functions?" with No for both (**unconfirmed** code).
 */
const OUTPUT_ONLY = ["IYYY", "IYY", "IW", "IY", "I", "SCC", "CC", "WW", "W", "EE", "E"]

/**
 * DL, DS and TS read as the AMERICA territory's long date, short date and short time formats, the models "Datetime
 * Format Elements" gives for the AMERICAN_AMERICA locale: DL "'fmDay, Month dd, yyyy'", DS "'MM/DD/RRRR'"; TS as
 * TO_CHAR prints it (`10:18:59 AM`, translate-datetime-sql.ts). Each is valid in the TO_* datetime functions (same
 * table: Yes). Oracle's restriction that DL and DS be used only with TS, separated by white space, is not enforced.
 */
const TERRITORY_MODELS: Readonly<Record<string, string>> = { DL: "fmDay, Month dd, yyyy", DS: "MM/DD/RRRR", TS: "HH:MI:SS AM" }

/** A model's pieces: an element, a literal (punctuation, blanks, or quoted text) and the FM / FX switches. */
type Piece =
  | { readonly kind: "element"; readonly name: string; readonly digits?: number }
  | { readonly kind: "literal"; readonly text: string; readonly quoted: boolean }
  | { readonly kind: "switch"; readonly name: "FM" | "FX" }

const pieceCache = new Map<string, ReadonlyArray<Piece>>()

/** The pieces of `format` (ORA-01821 for a word that is no element, ORA-01820 for one only TO_CHAR prints). */
const piecesOf = (format: string): ReadonlyArray<Piece> => {
  const known = pieceCache.get(format)
  if (known !== undefined) return known
  const pieces: Array<Piece> = []
  for (let s = format; s.length > 0; ) {
    if (s.startsWith('"')) {
      const end = s.indexOf('"', 1)
      pieces.push({ kind: "literal", text: s.slice(1, end < 0 ? undefined : end), quoted: true })
      s = end < 0 ? "" : s.slice(end + 1)
      continue
    }
    if (!/^[A-Za-z]/.test(s)) {
      pieces.push({ kind: "literal", text: s[0]!, quoted: false })
      s = s.slice(1)
      continue
    }
    const upper = s.toUpperCase()
    const territory = /^(?:DL|DS|TS)/.exec(upper)?.[0]
    if (territory !== undefined) {
      // the model's own pieces, its FM switches undone after it so that the fill mode around it is unchanged
      const expanded = piecesOf(TERRITORY_MODELS[territory]!)
      pieces.push(...expanded)
      if (expanded.filter((p) => p.kind === "switch" && p.name === "FM").length % 2 === 1) pieces.push({ kind: "switch", name: "FM" })
      s = s.slice(2)
      continue
    }
    const fraction = /^FF([1-9])/.exec(upper)
    if (fraction !== null) {
      pieces.push({ kind: "element", name: "FF", digits: Number(fraction[1]) })
      s = s.slice(3)
      continue
    }
    const name = ELEMENTS.find((e) => upper.startsWith(e))
    if (name === undefined) {
      if (OUTPUT_ONLY.some((e) => upper.startsWith(e))) throw new OraError(1820, "format code cannot appear in date input format")
      throw new OraError(1821, "date format not recognized")
    }
    pieces.push(name === "FM" || name === "FX" ? { kind: "switch", name } : { kind: "element", name })
    s = s.slice(name.length)
  }
  pieceCache.set(format, pieces)
  return pieces
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9"
const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c)
const isBlank = (c: string | undefined) => c !== undefined && /\s/.test(c)

/** Whether an element reads a text starting with a digit (`digit`) or a letter. */
const readsKind = (name: string, digit: boolean): boolean => {
  if (digit) return NUMBER_WIDTH[name] !== undefined || name === "TZH" || name === "TZR" || name === "X"
  return ["MONTH", "MON", "MM", "RM", "DAY", "DY", "A.M.", "P.M.", "AM", "PM", "A.D.", "B.C.", "AD", "BC", "TZR", "TZD"].includes(name)
}

const ROMAN_MONTHS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]

/** The fields a text gives, by element. */
interface Fields {
  year?: number
  /** the year element's digits and name, for YY / RR / YYY / Y resolution */
  yearElement?: { readonly name: string; readonly digits: string }
  month?: number
  day?: number
  dayOfYear?: number
  julian?: number
  hour?: number
  hour12?: boolean
  meridian?: "A" | "P"
  /** AD / BC read: a BC year is the negative year (TO_CHAR's SYYYY) */
  bc?: boolean
  minute?: number
  second?: number
  secondsOfDay?: number
  fraction?: string
  weekday?: number
  tzh?: { readonly negative: boolean; readonly hours: number }
  tzm?: number
  tzr?: string
}

/**
 * The text `text` shows in the format model `format` (month and day names in `language`), as
 * `YYYY-MM-DD HH:MI:SS.fffffffff[ zone]`; throws the OraError Oracle raises where the text does not match.
 */
export const datetimeTextOfFormat = (text: string, format: string, language = "AMERICAN"): string => {
  const pieces = piecesOf(format)
  const f: Fields = {}
  let exact = false
  let fill = false
  let pos = 0
  // leading blanks of the text are never part of it (ORA-01861's cause: "excluding leading spaces")
  while (isBlank(text[pos])) pos++
  const skipBlanks = () => {
    if (!exact) while (isBlank(text[pos])) pos++
  }
  const nextElement = (k: number): string | undefined => {
    for (let j = k + 1; j < pieces.length; j++) {
      const p = pieces[j]!
      if (p.kind === "element") return p.name
      if (p.kind === "literal") return undefined
    }
    return undefined
  }
  /** Digits at `pos`, at most `width` of them (an optional sign first where `signed`); ORA-01858 when there are none. */
  const readNumber = (name: string, width: number, signed: boolean): string => {
    skipBlanks()
    let sign = ""
    if (signed && (text[pos] === "-" || text[pos] === "+")) sign = text[pos++]!
    if (signed && !exact) while (isBlank(text[pos])) pos++
    const start = pos
    while (pos - start < width && isDigit(text[pos])) pos++
    const digits = text.slice(start, pos)
    // under FX an extra blank is text the model does not have (**unconfirmed** which code Oracle gives for it)
    if (digits === "" && exact && isBlank(text[pos])) throw new OraError(1861, "literal does not match format string")
    if (digits === "") throw new OraError(1858, "a non-numeric character was found where a numeric was expected")
    if (exact && !fill && digits.length !== width && name !== "FF" && name !== "J")
      throw new OraError(1862, "the numeric value does not match the length of the format item")
    return sign + digits
  }
  /** The longest run of letters (and dots) at `pos`. */
  const readWord = (): string => {
    skipBlanks()
    const start = pos
    while (isLetter(text[pos]) || (text[pos] === "." && pos > start)) pos++
    return text.slice(start, pos)
  }
  /** A month or day name at `pos`: the longest prefix of the word `of` reads. */
  const readName = (of: (word: string) => number, none: number): number => {
    const word = readWord()
    const wordStart = pos - word.length
    for (let n = word.length; n > 0; n--) {
      const value = of(word.slice(0, n))
      if (value !== none) {
        pos = wordStart + n
        return value
      }
    }
    pos = wordStart
    return none
  }
  const monthName = (): number => {
    const m = readName((w) => monthOfName(w, language), 0)
    if (m === 0) throw new OraError(1843, "not a valid month")
    return m
  }

  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k]!
    if (piece.kind === "switch") {
      if (piece.name === "FX") exact = !exact
      else fill = !fill
      continue
    }
    // the text ends: the rest of the model is left out (not under FX)
    const rest = exact ? text.slice(pos) : text.slice(pos).trimStart()
    if (rest === "") {
      if (exact && pieces.slice(k).some((p) => p.kind !== "switch")) throw new OraError(1840, "input value not long enough for date format")
      break
    }
    if (piece.kind === "literal") {
      if (piece.quoted) {
        skipBlanks()
        if (text.slice(pos, pos + piece.text.length).toUpperCase() !== piece.text.toUpperCase()) throw new OraError(1861, "literal does not match format string")
        pos += piece.text.length
        continue
      }
      if (exact) {
        if (text[pos] !== piece.text) throw new OraError(1861, "literal does not match format string")
        pos++
        continue
      }
      skipBlanks()
      if (isBlank(piece.text)) continue
      const c = text[pos]
      if (c !== undefined && !isDigit(c) && !isLetter(c)) {
        pos++
        continue
      }
      // punctuation left out of the text: the next element must read what is there
      const next = nextElement(k)
      if (next === undefined || !readsKind(next, isDigit(c))) throw new OraError(1861, "literal does not match format string")
      continue
    }
    const name = piece.name
    switch (name) {
      case "SYYYY":
      case "YYYY":
      case "RRRR":
      case "YYY":
      case "YY":
      case "RR":
      case "Y": {
        // YY and RR read four digits where the text has them and no number element follows ("YY: YYYY", "RR: RRRR")
        const next = nextElement(k)
        const wide = (name === "YY" || name === "RR") && !exact && (next === undefined || NUMBER_WIDTH[next] === undefined)
        const digits = readNumber(name, wide ? 4 : NUMBER_WIDTH[name]!, name === "SYYYY")
        f.yearElement = { name, digits: digits.replace(/^[-+]/, "") }
        f.year = Number(digits)
        break
      }
      case "MM":
        skipBlanks()
        if (isLetter(text[pos]) && !exact) f.month = monthName()
        else f.month = Number(readNumber(name, 2, false))
        break
      case "MON":
      case "MONTH":
        f.month = monthName()
        if (exact) while (isBlank(text[pos])) pos++
        break
      case "RM": {
        const word = readWord().toUpperCase()
        const m = [...ROMAN_MONTHS].reverse().find((r) => word.startsWith(r))
        if (m === undefined) throw new OraError(1843, "not a valid month")
        pos -= word.length - m.length
        f.month = ROMAN_MONTHS.indexOf(m) + 1
        break
      }
      case "DAY":
      case "DY": {
        const weekday = readName((w) => weekdayOfName(w, language), -1)
        if (weekday < 0) throw new OraError(1846, "not a valid day of the week")
        f.weekday = weekday
        if (exact) while (isBlank(text[pos])) pos++
        break
      }
      case "D": {
        // the day of the week, Sunday 1 as under NLS_TERRITORY AMERICA, checked against the date as DAY is
        const d = Number(readNumber(name, 1, false))
        if (d < 1 || d > 7) throw new OraError(1846, "not a valid day of the week")
        f.weekday = d - 1
        break
      }
      case "DD":
        f.day = Number(readNumber(name, 2, false))
        break
      case "DDD":
        f.dayOfYear = Number(readNumber(name, 3, false))
        break
      case "J":
        f.julian = Number(readNumber(name, 7, false))
        break
      case "HH24":
        f.hour = Number(readNumber(name, 2, false))
        f.hour12 = false
        break
      case "HH":
      case "HH12":
        f.hour = Number(readNumber(name, 2, false))
        f.hour12 = true
        break
      case "MI":
        f.minute = Number(readNumber(name, 2, false))
        break
      case "SS":
        f.second = Number(readNumber(name, 2, false))
        break
      case "SSSSS":
        f.secondsOfDay = Number(readNumber(name, 5, false))
        break
      case "FF": {
        const digits = readNumber(name, 9, false)
        if (piece.digits !== undefined && exact && !fill && digits.length !== piece.digits)
          throw new OraError(1862, "the numeric value does not match the length of the format item")
        f.fraction = digits
        break
      }
      case "AM":
      case "PM":
      case "A.M.":
      case "P.M.": {
        skipBlanks()
        const m = /^([AaPp])(\.?)[Mm]\2/.exec(text.slice(pos))
        if (m === null) throw new OraError(1855, "AM/A.M. or PM/P.M. required")
        f.meridian = m[1]!.toUpperCase() as "A" | "P"
        pos += m[0].length
        break
      }
      // AD / BC with or without periods, either read for either ("Datetime Format Elements": AD, BC "indicator with
      // or without periods", valid in TO_* functions); ORA-01856 "BC/B.C. or AD/A.D. required"
      case "AD":
      case "BC":
      case "A.D.":
      case "B.C.": {
        skipBlanks()
        const m = /^([AaBb])(\.?)([DdCc])\2/.exec(text.slice(pos))
        if (m === null || (m[1]!.toUpperCase() === "A") !== (m[3]!.toUpperCase() === "D")) throw new OraError(1856, "BC/B.C. or AD/A.D. required")
        f.bc = m[1]!.toUpperCase() === "B"
        pos += m[0].length
        break
      }
      case "X":
        skipBlanks()
        if (text[pos] !== ".") throw new OraError(1861, "literal does not match format string")
        pos++
        break
      case "TZH": {
        const hours = readNumber(name, 2, true)
        if (Math.abs(Number(hours)) > 15) throw new OraError(1874, "time zone hour must be between -15 and 15")
        f.tzh = { negative: hours.startsWith("-"), hours: Math.abs(Number(hours)) }
        break
      }
      case "TZM": {
        const minutes = Number(readNumber(name, 2, false))
        if (minutes > 59) throw new OraError(1875, "time zone minute must be between -59 and 59")
        f.tzm = minutes
        break
      }
      case "TZR": {
        skipBlanks()
        const m = /^(?:[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*|[+-]\d{1,2}:\d{2})/.exec(text.slice(pos))
        if (m === null) throw new OraError(1882, "timezone region not found")
        f.tzr = m[0]
        pos += m[0].length
        break
      }
      case "TZD":
        readWord()
        break
    }
  }
  if (exact ? pos < text.length : text.slice(pos).trim() !== "")
    throw new OraError(1830, "date format picture ends before converting entire input string")
  return fieldsText(f)
}

/** The `YYYY-MM-DD HH:MI:SS.fffffffff[ zone]` text of the fields read, each checked as Oracle checks it. */
const fieldsText = (f: Fields): string => {
  const now = new Date()
  const thisYear = now.getUTCFullYear()
  let year = thisYear
  if (f.yearElement !== undefined) {
    const { name, digits } = f.yearElement
    if (name === "RR" || (name === "RRRR" && digits.length <= 2)) year = digits.length > 2 ? Number(digits) : roundYear(Number(digits), thisYear)
    else if ((name === "YY" || name === "YYY" || name === "Y") && digits.length <= NUMBER_WIDTH[name]!) {
      const unit = 10 ** NUMBER_WIDTH[name]!
      year = thisYear - (thisYear % unit) + Number(digits)
    } else year = f.year!
  }
  if (f.bc === true) year = -Math.abs(year)
  if (year === 0 || year < -4712 || year > 9999) throw new OraError(1841, "(full) year must be between -4713 and +9999, and not be 0")
  let month = f.month ?? now.getUTCMonth() + 1
  if (month < 1 || month > 12) throw new OraError(1843, "not a valid month")
  let day = f.day ?? 1
  if (day < 1 || day > 31) throw new OraError(1847, "day of month must be between 1 and last day of month")
  if (f.julian !== undefined) {
    if (f.julian < 1 || f.julian > 5_373_484) throw new OraError(1854, "julian date must be between 1 and 5373484")
    ;({ year, month, day } = civilFromDays(f.julian - JULIAN_EPOCH))
  } else if (f.dayOfYear !== undefined) {
    const length = daysFromCivil(year + 1, 1, 1) - daysFromCivil(year, 1, 1)
    if (f.dayOfYear < 1 || f.dayOfYear > length) throw new OraError(1848, "day of year must be between 1 and 365 (366 for leap year)")
    ;({ year, month, day } = civilFromDays(daysFromCivil(year, 1, 1) + f.dayOfYear - 1))
  } else if (civilFromDays(daysFromCivil(year, month, day)).day !== day) throw new OraError(1839, "date not valid for month specified")
  let hour = f.hour ?? 0
  if (f.hour12 === true || (f.meridian !== undefined && f.hour !== undefined)) {
    if (hour < 1 || hour > 12) throw new OraError(1849, "hour must be between 1 and 12")
    hour = (hour % 12) + (f.meridian === "P" ? 12 : 0)
  } else if (hour > 23) throw new OraError(1850, "hour must be between 0 and 23")
  let minute = f.minute ?? 0
  if (minute > 59) throw new OraError(1851, "minutes must be between 0 and 59")
  let second = f.second ?? 0
  if (second > 59) throw new OraError(1852, "seconds must be between 0 and 59")
  if (f.secondsOfDay !== undefined) {
    if (f.secondsOfDay > 86_399) throw new OraError(1853, "seconds in day must be between 0 and 86399")
    ;[hour, minute, second] = [Math.floor(f.secondsOfDay / 3600), Math.floor(f.secondsOfDay / 60) % 60, f.secondsOfDay % 60]
  }
  // DAY / DY must name the date's day of the week: ORA-01835 "day of week conflicts with Julian date"
  if (f.weekday !== undefined && (((daysFromCivil(year, month, day) + 4) % 7) + 7) % 7 !== f.weekday)
    throw new OraError(1835, "day of week conflicts with Julian date")
  const two = (n: number) => String(n).padStart(2, "0")
  const fraction = (f.fraction ?? "").padEnd(9, "0")
  const zone =
    f.tzr ?? (f.tzh !== undefined ? `${f.tzh.negative ? "-" : "+"}${two(f.tzh.hours)}:${two(f.tzm ?? 0)}` : "")
  const yearText = `${year < 0 ? "-" : ""}${String(Math.abs(year)).padStart(4, "0")}`
  return `${yearText}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}.${fraction}${zone === "" ? "" : ` ${zone}`}`
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
