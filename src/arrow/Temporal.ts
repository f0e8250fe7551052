/**
 * Exact temporal text parsing and unit conversion for date, time and timestamp columns, without `Date` objects or
 * bigints on the common path.
 *
 * The `hdb` client returns HANA temporal values as text: DATE/DAYDATE `YYYY-MM-DD`, TIME/SECONDTIME `HH:MM:SS`,
 * TIMESTAMP `YYYY-MM-DDTHH:MM:SS[.fff]`, SECONDDATE `YYYY-MM-DD HH:MM:SS`, LONGDATE `YYYY-MM-DD HH:MM:SS.fffffff`
 * (see node_modules/hdb/lib/protocol/Reader.js, readDate/readTime/readTimestamp/readSecondDate/readLongDate), so
 * both separators and up to 9 fractional digits are accepted.
 */
import { ArrowAssemblyError, previewValue } from "./ArrowAssemblyError.ts"
import { TWO_32 } from "./Words.ts"

/** Seconds and nanoseconds (0 ≤ nanos < 1e9) of a parsed time of day or instant; filled in place by the parsers. */
export interface TemporalParts {
  /** Seconds since midnight (times) or since 1970-01-01T00:00:00Z (timestamps). */
  seconds: number
  /** Sub-second part, 0 ≤ nanos < 1e9. */
  nanos: number
}

const SECONDS_PER_DAY = 86_400
const TWO_POW_20 = 1_048_576
const TWO_POW_12 = 4_096
const TWO_POW_31 = 2_147_483_648
/** nanoseconds per unit for TimeUnit SECOND, MILLISECOND, MICROSECOND, NANOSECOND. */
const NANOS_PER_UNIT: ReadonlyArray<number> = [1e9, 1e6, 1e3, 1]
/** units per second for the same. */
const UNITS_PER_SECOND: ReadonlyArray<number> = [1, 1e3, 1e6, 1e9]
const FRACTION_SCALE: ReadonlyArray<number> = [1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1]

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (month 1–12). Exact for any year in JS number range
 * (H. Hinnant's days_from_civil, https://howardhinnant.github.io/date_algorithms.html#days_from_civil).
 */
export const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const mp = (month + 9) % 12
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28)
    : month === 4 || month === 6 || month === 9 || month === 11
    ? 30
    : 31

const bad = (text: string, what: string, column: string | undefined): ArrowAssemblyError =>
  new ArrowAssemblyError(`${previewValue(text)} is not ${what}`, column)

/** Reads exactly `count` digits at `at`; -1 if any is not a digit. */
const digits = (text: string, at: number, count: number): number => {
  let value = 0
  for (let k = 0; k < count; k++) {
    const d = text.charCodeAt(at + k) - 48
    if (!(d >= 0 && d <= 9)) return -1
    value = value * 10 + d
  }
  return value
}

/** Parses `[-]YYYY-MM-DD` (4 or more year digits) at the start of `text`; returns days and the end index via `end`. */
const parseDatePart = (text: string, column: string | undefined, end: { at: number }): number => {
  let i = 0
  let negative = false
  if (text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43) {
    negative = text.charCodeAt(0) === 45
    i = 1
  }
  const yearStart = i
  let year = 0
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57 && i - yearStart < 9) {
    year = year * 10 + (text.charCodeAt(i) - 48)
    i++
  }
  if (i - yearStart < 4 || text.charCodeAt(i) !== 45 || text.charCodeAt(i + 3) !== 45) {
    throw bad(text, "an ISO date (YYYY-MM-DD)", column)
  }
  if (negative) year = -year
  const month = digits(text, i + 1, 2)
  const day = digits(text, i + 4, 2)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw bad(text, "a valid calendar date", column)
  }
  end.at = i + 6
  return daysFromCivil(year, month, day)
}

/** Parses `H[H]:MM[:S[S][.f…]]` starting at `at`; fills `out` with second of day and nanos; returns the end index. */
const parseTimePart = (text: string, at: number, out: TemporalParts, column: string | undefined): number => {
  let i = at
  const oneDigitHour = text.charCodeAt(i + 1) === 58
  const hour = digits(text, i, oneDigitHour ? 1 : 2)
  i += oneDigitHour ? 1 : 2
  if (hour < 0 || hour > 23 || text.charCodeAt(i) !== 58) throw bad(text, "an ISO time (HH:MM:SS)", column)
  const minute = digits(text, i + 1, 2)
  i += 3
  if (minute < 0 || minute > 59) throw bad(text, "an ISO time (HH:MM:SS)", column)
  let second = 0
  let nanos = 0
  if (text.charCodeAt(i) === 58) {
    // hdb prints fractional seconds unpadded ("12:34:5.5"), so one seconds digit is accepted.
    const oneDigit = !(text.charCodeAt(i + 2) >= 48 && text.charCodeAt(i + 2) <= 57)
    second = digits(text, i + 1, oneDigit ? 1 : 2)
    i += oneDigit ? 2 : 3
    if (second < 0 || second > 59) throw bad(text, "an ISO time (HH:MM:SS)", column)
    if (text.charCodeAt(i) === 46) {
      i++
      const start = i
      while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
        if (i - start < 9) nanos = nanos * 10 + (text.charCodeAt(i) - 48)
        else if (text.charCodeAt(i) !== 48) throw bad(text, "a time with at most nanosecond precision", column)
        i++
      }
      const count = i - start
      if (count === 0) throw bad(text, "an ISO time (HH:MM:SS.fff)", column)
      nanos *= FRACTION_SCALE[Math.min(count, 9)]!
    }
  }
  out.seconds = hour * 3600 + minute * 60 + second
  out.nanos = nanos
  return i
}

/** Parses an ISO date `YYYY-MM-DD` into days since 1970-01-01. */
export const parseIsoDate = (text: string, column?: string): number => {
  const end = { at: 0 }
  const days = parseDatePart(text, column, end)
  if (end.at !== text.length) throw bad(text, "an ISO date (YYYY-MM-DD)", column)
  return days
}

/** Parses an ISO time of day `HH:MM[:SS[.fffffffff]]` into `out` (second of day, nanos). */
export const parseIsoTime = (text: string, out: TemporalParts, column?: string): void => {
  if (parseTimePart(text, 0, out, column) !== text.length) throw bad(text, "an ISO time (HH:MM:SS)", column)
}

/**
 * Parses an ISO timestamp `YYYY-MM-DD[(T| )HH:MM[:SS[.fffffffff]]][Z|±HH[:MM]]` into `out` (seconds since the
 * epoch, nanos). A zone offset, when present, is applied so the result is UTC; without one the wall-clock value
 * is taken as is.
 */
export const parseIsoTimestamp = (text: string, out: TemporalParts, column?: string): void => {
  const end = { at: 0 }
  const days = parseDatePart(text, column, end)
  let i = end.at
  out.seconds = 0
  out.nanos = 0
  if (i < text.length && (text.charCodeAt(i) === 84 || text.charCodeAt(i) === 32)) {
    i = parseTimePart(text, i + 1, out, column)
  }
  let offset = 0
  if (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 90 && i + 1 === text.length) {
      i++
    } else if (c === 43 || c === 45) {
      const hours = digits(text, i + 1, 2)
      let j = i + 3
      if (text.charCodeAt(j) === 58) j++
      const minutes = j < text.length ? digits(text, j, 2) : 0
      if (j < text.length) j += 2
      if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) throw bad(text, "an ISO timestamp", column)
      offset = (c === 45 ? -1 : 1) * (hours * 3600 + minutes * 60)
      i = j
    }
  }
  if (i !== text.length) throw bad(text, "an ISO timestamp", column)
  out.seconds += days * SECONDS_PER_DAY - offset
}

/**
 * Writes `seconds * unitsPerSecond(unit) + floor(nanos / nanosPerUnit(unit))` exactly as an int64 into
 * `words[2 * index]` (low) and `words[2 * index + 1]` (high), without bigints. Sub-unit digits are truncated.
 * Returns false (writing nothing) when the result is outside the int64 range. `unit` is an Arrow TimeUnit
 * (0 = s, 1 = ms, 2 = us, 3 = ns); |seconds| must be below 2^40.
 */
export const writeSecondsAndNanos = (
  words: Int32Array,
  index: number,
  seconds: number,
  nanos: number,
  unit: number
): boolean => {
  const factor = UNITS_PER_SECOND[unit]!
  const sub = Math.floor(nanos / NANOS_PER_UNIT[unit]!)
  // seconds = sh * 2^20 + sl, so every product below stays under 2^53 and is exact.
  const sh = Math.floor(seconds / TWO_POW_20)
  const sl = seconds - sh * TWO_POW_20
  const a = sh * factor // value = a * 2^20 + b
  const b = sl * factor + sub
  const ah = Math.floor(a / TWO_POW_12)
  const al = a - ah * TWO_POW_12 // a * 2^20 = ah * 2^32 + al * 2^20
  const bh = Math.floor(b / TWO_32)
  let lo = al * TWO_POW_20 + (b - bh * TWO_32)
  const carry = Math.floor(lo / TWO_32)
  lo -= carry * TWO_32
  const hi = ah + bh + carry
  if (hi < -TWO_POW_31 || hi >= TWO_POW_31) return false
  words[2 * index] = lo
  words[2 * index + 1] = hi
  return true
}
