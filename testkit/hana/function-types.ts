/**
 * HANA scalar functions whose argument rules or result types DuckDB's namesakes do not share, as session macros
 * (sql-rewrite.ts maps the HANA names onto them):
 *
 * - LENGTH returns INTEGER (DuckDB: BIGINT), counts the bytes of a BLOB / VARBINARY and takes any value, converted
 *   to text (SAP HANA SQL Reference, "LENGTH Function (String)": returns the number of characters, or bytes for
 *   binary values). SUM(LENGTH(x)) is then an integer sum, BIGINT as HANA types it (results.ts: DuckDB's HUGEINT
 *   sums are reported and sent as BIGINT).
 * - LPAD / RPAD take a number as the string to pad (HANA converts it implicitly to NVARCHAR), and the pad pattern is
 *   optional (default a blank; "LPAD Function (String)", "RPAD Function (String)").
 * - YEAR, MONTH, DAYOFMONTH, DAYOFYEAR, HOUR and MINUTE return INTEGER (DuckDB: BIGINT; SAP HANA SQL Reference,
 *   "YEAR Function (Datetime)" & co.: "returns an integer"), and so does `EXTRACT(YEAR | MONTH | DAY | HOUR | MINUTE
 *   FROM d)` ("EXTRACT Function (Datetime)"), which sql-rewrite.ts rewrites to the same macros. EXTRACT(SECOND FROM
 *   d) is SECOND(d), a TIMESTAMP's fraction kept as SECOND keeps it (HANA's type for EXTRACT's SECOND is not confirmed).
 * - TO_SECONDDATE returns SECONDDATE, the fraction cut off ("TO_SECONDDATE Function (Data Type Conversion)"; DuckDB's
 *   cast to TIMESTAMP_S would round, so the value is truncated to the second first).
 * - LOCATE and WEEK return INTEGER ("LOCATE Function (String)", "WEEK Function (Datetime)"; DuckDB: BIGINT).
 * - AVG of a TINYINT, SMALLINT, INTEGER or BIGINT is DECIMAL(9,6), (11,6), (16,6), (25,6) ("AVG Function
 *   (Aggregate)", result type based on input; DuckDB: DOUBLE); of any other argument (DECIMAL(p,s), REAL, DOUBLE)
 *   it has the argument's own type (the same table: DECIMAL(p,s) → DECIMAL(p,s); a typed macro parameter DECIMAL
 *   would be DECIMAL(18,3), so the catch-all form casts to the argument's type). The mean is DuckDB's (a DOUBLE)
 *   cast to the DECIMAL, so a BIGINT mean beyond 2^53 loses the digits a DOUBLE loses, and a DECIMAL mean is
 *   rounded half up to the argument's scale.
 * - SECOND of a TIMESTAMP keeps the fraction ("SECOND Function (Datetime)": "Subseconds are included for TIMESTAMP
 *   datatypes", SECOND('2014-03-25 12:34:56.789') is 56.789), as a DECIMAL(9,7) here (HANA's type for it is not
 *   confirmed); of a TIME or SECONDDATE it is the whole second, an INTEGER like MINUTE. A string literal is read as a
 *   TIMESTAMP when it has a date part (a `-` or `/`), else as a TIME (SECOND('12:34:56') is 56).
 * - QUARTER returns the quarter as text, `YYYY-Qn`, of a year that starts at an optional month ("QUARTER Function
 *   (Datetime)": QUARTER('2012-01-01', 2) is 2011-Q4); DuckDB's quarter is the number 1-4.
 */
import { LOCATE_MACRO } from "./reference-functions.ts"
import type { HanaType } from "./types.ts"

/** HANA function names and the session macros that implement them. */
export const TYPED_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["LENGTH", "hana_length"],
  ["LPAD", "hana_lpad"],
  ["RPAD", "hana_rpad"],
  ["YEAR", "hana_year"],
  ["MONTH", "hana_month"],
  ["DAYOFMONTH", "hana_dayofmonth"],
  ["DAYOFYEAR", "hana_dayofyear"],
  ["HOUR", "hana_hour"],
  ["MINUTE", "hana_minute"],
  ["TO_SECONDDATE", "hana_to_seconddate"],
  ["LOCATE", "hana_locate"],
  ["WEEK", "hana_week"],
  ["QUARTER", "hana_quarter"],
  ["SECOND", "hana_second"]
]

/** The fields of `EXTRACT(field FROM d)` rewritten to `macro(d)` (INTEGER as in HANA; SECOND as SECOND(d)). */
export const EXTRACT_FIELDS: ReadonlyMap<string, string> = new Map([
  ["YEAR", "hana_year"],
  ["MONTH", "hana_month"],
  ["DAY", "hana_dayofmonth"],
  ["HOUR", "hana_hour"],
  ["MINUTE", "hana_minute"],
  ["SECOND", "hana_second"]
])

/**
 * HANA function names that are also SQL keywords (sql-rewrite.ts keeps keywords verbatim otherwise): those of
 * {@link TYPED_FUNCTIONS}, and LEFT / RIGHT (string-functions.ts; `LEFT JOIN` has no parenthesis).
 */
export const KEYWORD_FUNCTIONS: ReadonlySet<string> = new Set(["YEAR", "MONTH", "HOUR", "MINUTE", "SECOND", "LEFT", "RIGHT"])

/** The session macros behind {@link TYPED_FUNCTIONS} (TEMP macros, created at login with the others). */
export const TYPED_FUNCTION_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_length(x) AS CASE WHEN typeof(x) = 'BLOB' THEN CAST(octet_length(CAST(x AS BLOB)) AS INTEGER) ELSE CAST(length(CAST(hana_ld_text(x) AS VARCHAR)) AS INTEGER) END",
  "CREATE OR REPLACE TEMP MACRO hana_lpad(s, n, p := ' ') AS lpad(CAST(hana_ld_text(s) AS VARCHAR), CAST(n AS INTEGER), p)",
  "CREATE OR REPLACE TEMP MACRO hana_rpad(s, n, p := ' ') AS rpad(CAST(hana_ld_text(s) AS VARCHAR), CAST(n AS INTEGER), p)",
  "CREATE OR REPLACE TEMP MACRO hana_to_seconddate(x, f := NULL) AS CAST(date_trunc('second', hana_ticks_ts(hana_to_timestamp(x, f))) AS TIMESTAMP_S)",
  // Told by typeof (a typed macro overload is picked wrongly for an aggregate, longdate.ts); every branch is cast to
  // hana_second_type(x), DECIMAL(9,7) or INTEGER by x's type (datetime-functions.ts).
  "CREATE OR REPLACE TEMP MACRO hana_second(x) AS CASE " +
    "WHEN typeof(x) = 'UBIGINT' THEN cast_to_type(CAST(CAST(x AS UBIGINT) % 600000000 AS DECIMAL(18,0)) * 0.0000001, hana_second_type(x)) " +
    "WHEN typeof(x) = 'TIMESTAMP' THEN cast_to_type(date_part('microseconds', CAST(x AS TIMESTAMP)) / 1000000, hana_second_type(x)) " +
    "WHEN typeof(x) = 'VARCHAR' THEN cast_to_type(CASE WHEN regexp_matches(CAST(x AS VARCHAR), '[-/]') THEN date_part('microseconds', CAST(x AS TIMESTAMP)) / 1000000 " +
    "ELSE second(CAST(x AS TIME)) END, hana_second_type(x)) " +
    "WHEN typeof(x) = 'TIME' THEN cast_to_type(second(CAST(x AS TIME)), hana_second_type(x)) " +
    "ELSE cast_to_type(second(CAST(x AS TIMESTAMP)), hana_second_type(x)) END",
  // HANA's TINYINT is stored as UTINYINT (types.ts); a TIMESTAMP's ticks fail in hana_num (timestamp-arithmetic.ts)
  "CREATE OR REPLACE TEMP MACRO hana_avg(x UTINYINT) AS CAST(avg(x) AS DECIMAL(9,6)), (x SMALLINT) AS CAST(avg(x) AS DECIMAL(11,6)), " +
    "(x INTEGER) AS CAST(avg(x) AS DECIMAL(16,6)), (x BIGINT) AS CAST(avg(x) AS DECIMAL(25,6)), (x) AS cast_to_type(avg(hana_num(x)), any_value(x))",
  LOCATE_MACRO,
  "CREATE OR REPLACE TEMP MACRO hana_week(d) AS CAST(week(hana_dt(d)) AS INTEGER)",
  "CREATE OR REPLACE TEMP MACRO hana_quarter(d, m := 1) AS year(hana_as(d, CAST(NULL AS DATE)) - to_months(CAST(m AS INTEGER) - 1)) || '-Q' || quarter(hana_as(d, CAST(NULL AS DATE)) - to_months(CAST(m AS INTEGER) - 1))",
  ...["year", "month", "dayofmonth", "dayofyear"].map((f) => `CREATE OR REPLACE TEMP MACRO hana_${f}(d) AS CAST(${f}(hana_dt(d)) AS INTEGER)`),
  // A TIME has an hour and a minute too (and no date, so it cannot go through hana_dt's TIMESTAMP); so has a time
  // text ("HOUR Function (Datetime)": HOUR('12:34:56') is 12), told from a date's by having no '-' or '/', as SECOND's.
  ...["hour", "minute"].map((f) => `CREATE OR REPLACE TEMP MACRO hana_${f}(d) AS CAST(CASE WHEN typeof(d) IN ('TIME', 'TIME WITH TIME ZONE') THEN ${f}(CAST(d AS TIME)) ` +
    `WHEN typeof(d) = 'VARCHAR' AND NOT regexp_matches(CAST(d AS VARCHAR), '[-/]') THEN ${f}(CAST(d AS TIME)) ELSE ${f}(hana_dt(d)) END AS INTEGER)`)
]

/**
 * Result types of functions whose text or binary result HANA types more narrowly than DuckDB's one string and blob
 * type, when the function call is a whole select item (results.ts reports them): CHAR is VARCHAR(1) and NCHAR
 * NVARCHAR(1) ("CHAR Function (String)", "NCHAR Function (String)": one character), HASH_SHA256 VARBINARY(32) and
 * HASH_MD5 VARBINARY(16) ("HASH_SHA256 Function (Miscellaneous)", "HASH_MD5 Function (Miscellaneous)": 32- and
 * 16-byte hashes). SAP HANA SQL Reference. TO_ALPHANUM is left out: its ALPHANUM's length decides how hdb pads a
 * numeric value (with zeros to that length), and HANA's length for it is not confirmed.
 */
export const CALL_RESULT_TYPES: ReadonlyMap<string, HanaType> = new Map([
  ["CHAR", { name: "VARCHAR", length: 1, scale: 0 }],
  ["NCHAR", { name: "NVARCHAR", length: 1, scale: 0 }],
  ["HASH_SHA256", { name: "VARBINARY", length: 32, scale: 0 }],
  ["HASH_MD5", { name: "VARBINARY", length: 16, scale: 0 }]
])
