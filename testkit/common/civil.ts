/**
 * Civil-calendar day arithmetic shared by the test servers, on integers (no JS Date, no process time zone): days
 * since 1970-01-01 to and from year/month/day in the proleptic Gregorian calendar (H. Hinnant, "chrono-Compatible
 * Low-Level Date Algorithms") and in the Julian calendar (Julian Day Number arithmetic).
 */

/** A calendar date. */
export interface CivilDate {
  readonly year: number
  readonly month: number
  readonly day: number
}

/** Julian Day Number of 1970-01-01. */
const JDN_EPOCH = 2440588

/** Proleptic Gregorian year/month/day of a day count since 1970-01-01. */
export const civilFromDays = (days: number): CivilDate => {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

/** Days since 1970-01-01 of a proleptic Gregorian year/month/day. */
export const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/** Julian-calendar year/month/day of a day count since 1970-01-01. */
export const julianCivilFromDays = (days: number): CivilDate => {
  const c = days + JDN_EPOCH + 32082
  const d = Math.floor((4 * c + 3) / 1461)
  const e = c - Math.floor((1461 * d) / 4)
  const m = Math.floor((5 * e + 2) / 153)
  return { year: d - 4800 + Math.floor(m / 10), month: m + 3 - 12 * Math.floor(m / 10), day: e - Math.floor((153 * m + 2) / 5) + 1 }
}

/** Days since 1970-01-01 of a Julian-calendar year/month/day. */
export const daysFromJulianCivil = (year: number, month: number, day: number): number => {
  const a = Math.floor((14 - month) / 12)
  const y = year + 4800 - a
  const m = month + 12 * a - 3
  return day + Math.floor((153 * m + 2) / 5) + 365 * y + Math.floor(y / 4) - 32083 - JDN_EPOCH
}
