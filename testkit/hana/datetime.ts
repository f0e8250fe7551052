/**
 * HANA's day numbering (DAYDATE, and the day part of SECONDDATE/LONGDATE): day 1 is 0001-01-01 and days before
 * 1582-10-15 are labelled in the Julian calendar, later ones in the Gregorian (SAP's own client computes it so:
 * SAP/node-hdb lib/util/calendar.js, DAYDATE()/DATE() with TURN_OF_ERAS = JDN 1721424 and the Gregorian switch at
 * JDN 2299161). DuckDB stores dates as proleptic Gregorian day counts, so a stored date is mapped label for label:
 * DuckDB's 0001-01-01 is HANA day 1, as a client reads it back.
 */
import { civilFromDays, daysFromCivil, daysFromJulianCivil, julianCivilFromDays } from "../common/civil.ts"

/** HANA day number of 1970-01-01. */
export const EPOCH_DAYDATE = 719165
/** Days since 1970-01-01 of 1582-10-15, the first Gregorian day. */
const GREGORIAN_START_EPOCH_DAY = -141427

/** HANA day number of the date DuckDB stores as `epochDay` (days since 1970-01-01, proleptic Gregorian). */
export const hanaDayOfEpochDay = (epochDay: number): number => {
  if (epochDay >= GREGORIAN_START_EPOCH_DAY) return epochDay + EPOCH_DAYDATE
  const { year, month, day } = civilFromDays(epochDay)
  return daysFromJulianCivil(year, month, day) + EPOCH_DAYDATE
}

/** The DuckDB date (days since 1970-01-01, proleptic Gregorian) with the label HANA gives day number `dayNumber`. */
export const epochDayOfHanaDay = (dayNumber: number): number => {
  const actual = dayNumber - EPOCH_DAYDATE
  if (actual >= GREGORIAN_START_EPOCH_DAY) return actual
  const { year, month, day } = julianCivilFromDays(actual)
  return daysFromCivil(year, month, day)
}

/** Days HANA's numbering of `epochDay` differs from its proleptic Gregorian count (0 from 1582-10-15 on). */
export const hanaDayShift = (epochDay: number): number => hanaDayOfEpochDay(epochDay) - EPOCH_DAYDATE - epochDay
