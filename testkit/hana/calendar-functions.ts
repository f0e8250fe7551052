/**
 * HANA datetime functions DuckDB has no namesake for, or one with other rules, as session macros (sql-rewrite.ts
 * maps the HANA names onto them). Semantics as the SAP HANA SQL Reference describes each (SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref/010-SQL-Reference/011-SQL-Functions):
 *
 * - LAST_DAY(d) is the DATE of the last day of d's month ("LAST_DAY Function (Datetime)").
 * - DAYNAME(d) / MONTHNAME(d) are the English weekday / month name, upper-cased as the reference's MONTHNAME example
 *   ('MAY') shows ("DAYNAME Function (Datetime)", "MONTHNAME Function (Datetime)"); the weekday is HANA's, counted
 *   across October 1582 as WEEKDAY counts it.
 * - ISOWEEK(d) is the ISO year and week, `YYYY-Www` ("ISOWEEK Function (Datetime)": 2011-05-30 is 2011-W22).
 * - MONTHS_BETWEEN(a, b) / YEARS_BETWEEN(a, b) count the whole months / years from a to b, negative backwards (the
 *   reference's examples: 2003-10-03 → 2003-01-14 is -8 months, 2001-10-15 → 2003-01-14 is 1 year), as INTEGER.
 * - CURRENT_UTCDATE / CURRENT_UTCTIME are the UTC date and time ("CURRENT_UTCDATE Function (Datetime)",
 *   "CURRENT_UTCTIME Function (Datetime)"; sql-rewrite.ts's special values map the bare words onto the macros).
 */

/** HANA function names and the session macros that implement them. */
export const CALENDAR_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["LAST_DAY", "hana_last_day"],
  ["DAYNAME", "hana_dayname"],
  ["MONTHNAME", "hana_monthname"],
  ["ISOWEEK", "hana_isoweek"],
  ["MONTHS_BETWEEN", "hana_months_between"],
  ["YEARS_BETWEEN", "hana_years_between"]
]

const date = (x: string): string => `hana_as(${x}, CAST(NULL AS DATE))`
const DAY_NAMES = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"].map((d) => `'${d}'`).join(", ")

/** The session macros behind {@link CALENDAR_FUNCTIONS} and the UTC special values (TEMP macros, created at login). */
export const CALENDAR_FUNCTION_MACROS: readonly string[] = [
  // n units apart by the calendar, one fewer when the rest (days, or month and day) runs against them (first: the two below call it)
  "CREATE OR REPLACE TEMP MACRO hana_whole_units(n, rest) AS CAST(CASE WHEN n > 0 AND rest < 0 THEN n - 1 WHEN n < 0 AND rest > 0 THEN n + 1 ELSE n END AS INTEGER)",
  `CREATE OR REPLACE TEMP MACRO hana_last_day(d) AS last_day(${date("d")})`,
  `CREATE OR REPLACE TEMP MACRO hana_dayname(d) AS [${DAY_NAMES}][hana_weekday(d) + 1]`,
  `CREATE OR REPLACE TEMP MACRO hana_monthname(d) AS upper(monthname(${date("d")}))`,
  `CREATE OR REPLACE TEMP MACRO hana_isoweek(d) AS strftime(${date("d")}, '%G-W%V')`,
  "CREATE OR REPLACE TEMP MACRO hana_months_between(a, b) AS hana_whole_units(" +
    `year(${date("b")}) * 12 + month(${date("b")}) - year(${date("a")}) * 12 - month(${date("a")}), day(${date("b")}) - day(${date("a")}))`,
  "CREATE OR REPLACE TEMP MACRO hana_years_between(a, b) AS hana_whole_units(" +
    `year(${date("b")}) - year(${date("a")}), month(${date("b")}) * 100 + day(${date("b")}) - month(${date("a")}) * 100 - day(${date("a")}))`,
  "CREATE OR REPLACE TEMP MACRO hana_current_utcdate() AS CAST(CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP) AS DATE)",
  "CREATE OR REPLACE TEMP MACRO hana_current_utctime() AS CAST(CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP) AS TIME)"
]
