/**
 * Weeks in Oracle's date functions (SQL Language Reference, "ROUND and TRUNC Date Functions",
 * https://docs.oracle.com/database/122/SQLRF/ROUND-and-TRUNC-Date-Functions.htm, and "NEXT_DAY"):
 * - TRUNC(date, fmt) to the start of its week: 'IW' the ISO week's Monday, 'WW' the same day of the week as the
 *   year's first day, 'W' the same day of the week as the month's first day, 'DAY' / 'DY' / 'D' the territory's first
 *   day of the week (Sunday: the server's NLS_TERRITORY is AMERICA); 'IYYY' / 'IY' / 'I' the ISO year's first Monday.
 * - ROUND(date, fmt) to the nearer week start: the next one from half a week (3.5 days) into the week on; a 'WW' / 'W'
 *   week cut short by the year's or month's end rounds up to that end (**unconfirmed**: Oracle documents no rule for
 *   those short weeks).
 * - NEXT_DAY(date, char): the first later date that is the weekday `char` names (a name or abbreviation in the
 *   session's NLS_DATE_LANGUAGE, ORA-01846 for another text), the time of day kept.
 * The results are DATEs (DuckDB TIMESTAMP_S); `x` is the operand as a DuckDB TIMESTAMP.
 */
import { INTEGER, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { SESSION_DATE_LANGUAGE, weekdayOfName } from "./date-language.ts"
import { OraError } from "./errors.ts"

type WeekUnit = "iw" | "ww" | "w" | "day" | "iyear"

const UNITS: Readonly<Record<string, WeekUnit>> = { IW: "iw", WW: "ww", W: "w", DAY: "day", DY: "day", D: "day", IYYY: "iyear", IYY: "iyear", IY: "iyear", I: "iyear" }

/** The week unit a ROUND / TRUNC date format model names, if any. */
export const weekUnitOf = (format: string): WeekUnit | undefined => UNITS[format.trim().toUpperCase()]

const day = (x: string) => `CAST(date_trunc('day', ${x}) AS TIMESTAMP)`

/** The start of `x`'s week of `unit` (a DuckDB TIMESTAMP). */
const weekStart = (x: string, unit: WeekUnit): string => {
  switch (unit) {
    case "iw":
      return `CAST(date_trunc('week', ${x}) AS TIMESTAMP)`
    case "day":
      return `(${day(x)} - to_days(CAST(dayofweek(${x}) AS INTEGER)))`
    case "iyear":
      return `CAST(date_trunc('week', make_date(CAST(isoyear(${x}) AS BIGINT), 1, 4)) AS TIMESTAMP)`
    case "ww":
    case "w": {
      const period = `CAST(date_trunc('${unit === "ww" ? "year" : "month"}', ${x}) AS TIMESTAMP)`
      return `(${period} + to_days(CAST(date_diff('day', ${period}, ${day(x)}) // 7 * 7 AS INTEGER)))`
    }
  }
}

/** The start of the week after `x`'s: a week later, or the next year's / month's first day where that comes first. */
const nextStart = (x: string, unit: WeekUnit): string => {
  if (unit === "iyear") return weekStart(`(${x} + INTERVAL 1 YEAR)`, unit)
  const later = `(${weekStart(x, unit)} + INTERVAL 7 DAY)`
  if (unit === "ww" || unit === "w") return `least(${later}, CAST(date_trunc('${unit === "ww" ? "year" : "month"}', ${x}) AS TIMESTAMP) + INTERVAL 1 ${unit === "ww" ? "YEAR" : "MONTH"})`
  return later
}

/** TRUNC(x, fmt) for a week unit. */
export const weekTruncSql = (x: string, unit: WeekUnit): string => `CAST(${weekStart(x, unit)} AS TIMESTAMP_S)`

/** ROUND(x, fmt) for a week unit (an ISO year rounds up from its middle, as a year does on July 1). */
export const weekRoundSql = (x: string, unit: WeekUnit): string => {
  const start = weekStart(x, unit)
  const half = unit === "iyear" ? `(${start} + (${nextStart(x, unit)} - ${start}) / 2)` : `(${start} + INTERVAL 84 HOUR)`
  return `CAST(CASE WHEN ${x} >= ${half} THEN ${nextStart(x, unit)} ELSE ${start} END AS TIMESTAMP_S)`
}

/** NEXT_DAY(x, name): the next date on that weekday, the time kept. */
export const nextDaySql = (x: string, name: string): string =>
  `CAST(${x} + to_days(CAST((ora_weekday_of(CAST(${name} AS VARCHAR), ${SESSION_DATE_LANGUAGE}) - dayofweek(${x}) + 6) % 7 + 1 AS INTEGER)) AS TIMESTAMP_S)`

/** Registers `ora_weekday_of(name, language)`: 0 (Sunday) to 6, ORA-01846 for a text that names no weekday. */
export const registerWeekDates = (connection: DuckDBConnection): void => {
  connection.registerScalarFunction(
    fn("ora_weekday_of", [VARCHAR, VARCHAR], INTEGER, ([name, language]) => {
      const weekday = weekdayOfName(String(name).trim(), String(language))
      if (weekday < 0) throw new OraError(1846, "not a valid day of the week")
      return weekday
    })
  )
}
