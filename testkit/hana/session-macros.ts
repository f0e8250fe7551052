/** The DuckDB macros every session defines for HANA's functions (the names sql-rewrite.ts maps them to). */
import { BUILTIN_FUNCTION_MACROS } from "./builtin-functions.ts"
import { TYPED_FUNCTION_MACROS } from "./function-types.ts"
import { CURRENT_IDENTITY_MACRO } from "./identity-values.ts"
import { DATETIME_MIXING_MACROS } from "./datetime-mixing.ts"
import { comparedOnceMacros } from "./datetime-comparisons.ts"
import { DATETIME_ARGUMENT_MACROS } from "./datetime-arguments.ts"
import { TIMESTAMP_ARITHMETIC_MACROS } from "./timestamp-arithmetic.ts"
import { JSON_FUNCTION_MACROS } from "./json-functions.ts"
import { LITERAL_WRITE_MACROS } from "./literal-writes.ts"
import { LONGDATE_MACROS, onTicks } from "./longdate.ts"
import { CALENDAR_FUNCTION_MACROS } from "./calendar-functions.ts"
import { MISC_FUNCTION_MACROS } from "./misc-functions.ts"
import { STRING_FUNCTION_MACROS } from "./string-functions.ts"
import { REFERENCE_FUNCTION_MACROS } from "./reference-functions.ts"
import { FACTORY_CALENDAR_MACROS } from "./factory-calendar.ts"
import { DIVISOR_GUARD } from "./sql-rewrite.ts"

/** DuckDB's names of the types a HANA datetime is stored in (`typeof`), as a SQL list. */
const DUCKDB_DATETIME_TYPES = ["DATE", "TIME", "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"].map((t) => `'${t}'`).join(", ")

/**
 * Per-session DuckDB macros backing the function names of sql-rewrite.ts (TEMP macros, so every schema search path finds them).
 * `hana_sleep(s)` busy-waits s seconds inside DuckDB so a statement can be cancelled while it runs.
 */
export const SESSION_MACROS = [
  // First: the other macros call these.
  ...LONGDATE_MACROS,
  ...DATETIME_MIXING_MACROS,
  ...comparedOnceMacros("hana_ld_cmp", true),
  ...comparedOnceMacros("hana_dtw", false),
  ...DATETIME_ARGUMENT_MACROS,
  ...TIMESTAMP_ARITHMETIC_MACROS,
  CURRENT_IDENTITY_MACRO,
  // A datetime with a format prints in it (datetime-formats.ts). A TIMESTAMP without one prints as HANA's default
  // 'YYYY-MM-DD HH24:MI:SS.FF7' (SAP HANA SQL Reference, "Datetime Data Types"); DuckDB's text drops a zero fraction
  // and trailing zeros. Other values ignore a format.
  // A TIMESTAMP is stored as 100 ns ticks (longdate.ts) and prints all seven digits.
  // Ticks are told by typeof, not by a typed overload, which DuckDB picks wrongly for an aggregate (longdate.ts).
  "CREATE OR REPLACE TEMP MACRO hana_to_varchar(x, f := NULL) AS CASE WHEN typeof(x) = 'UBIGINT' AND f IS NOT NULL THEN hana_format_datetime(hana_ticks_text(CAST(x AS UBIGINT)), f) " +
    `WHEN typeof(x) = 'UBIGINT' THEN hana_ticks_text(CAST(x AS UBIGINT)) WHEN f IS NOT NULL AND typeof(x) IN (${DUCKDB_DATETIME_TYPES}) THEN hana_format_datetime(CAST(x AS VARCHAR), f) WHEN typeof(x) = 'TIMESTAMP' THEN rpad(CAST(x AS VARCHAR) || CASE WHEN contains(CAST(x AS VARCHAR), '.') THEN '' ELSE '.' END, 27, '0') ELSE CAST(x AS VARCHAR) END`,
  "CREATE OR REPLACE TEMP MACRO hana_to_integer(x) AS hana_as(x, CAST(NULL AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_to_bigint(x) AS hana_as(x, CAST(NULL AS BIGINT))",
  "CREATE OR REPLACE TEMP MACRO hana_to_double(x) AS hana_as(x, CAST(NULL AS DOUBLE))",
  "CREATE OR REPLACE TEMP MACRO hana_to_decimal(x, p := 34, s := 10) AS hana_as(x, CAST(NULL AS DECIMAL(34, 10)))",
  // Text with a format is read in it (datetime-formats.ts); anything else converts as a CAST does.
  "CREATE OR REPLACE TEMP MACRO hana_to_date(x, f := NULL) AS CASE WHEN f IS NOT NULL AND typeof(x) = 'VARCHAR' THEN hana_parse_date(CAST(x AS VARCHAR), f) ELSE hana_as(x, CAST(NULL AS DATE)) END",
  "CREATE OR REPLACE TEMP MACRO hana_to_timestamp(x, f := NULL) AS CASE WHEN f IS NOT NULL AND typeof(x) = 'VARCHAR' THEN hana_ld(hana_parse_timestamp(CAST(x AS VARCHAR), f)) ELSE hana_ld(x) END",
  // Day arithmetic is in datetime-functions.ts; these convert the arguments as the former SQL versions did.
  // hana_shift_days has a function overload for ticks (datetime-functions.ts): DuckDB resolves it on the bound type.
  "CREATE OR REPLACE TEMP MACRO hana_add_days(d, n) AS hana_shift_days(d, CAST(n AS INTEGER))",
  // Ticks count HANA's days (longdate.ts), so adding ticks crosses October 1582 as HANA does.
  "CREATE OR REPLACE TEMP MACRO hana_add_seconds(d, n) AS hana_ticks_shift(hana_ld(d), CAST(CAST(n AS DECIMAL(38, 7)) * 10000000 AS BIGINT))",
  "CREATE OR REPLACE TEMP MACRO hana_add_nano100(d, n) AS hana_ticks_shift(hana_ld(d), CAST(n AS BIGINT))",
  "CREATE OR REPLACE TEMP MACRO hana_nano100_between(a, b) AS CAST(hana_ld(b) AS BIGINT) - CAST(hana_ld(a) AS BIGINT)",
  "CREATE OR REPLACE TEMP MACRO hana_days_between(a, b) AS hana_day_span(hana_as(a, CAST(NULL AS DATE)), hana_as(b, CAST(NULL AS DATE)))",
  "CREATE OR REPLACE TEMP MACRO hana_weekday(d) AS hana_day_of_week(hana_as(d, CAST(NULL AS DATE)))",
  "CREATE OR REPLACE TEMP MACRO hana_seconds_between(a, b) AS CAST(hana_ld(b) // 10000000 AS BIGINT) - CAST(hana_ld(a) // 10000000 AS BIGINT)",
  // Each branch cast to d's type, so that all bind alike; ticks move by their label and keep their seventh digit.
  ...(["months", "years"] as const).map((unit) => {
    const plus = `to_${unit}(CAST(n AS INTEGER))`
    return `CREATE OR REPLACE TEMP MACRO hana_add_${unit}(d, n) AS ` +
      onTicks("d", (t) => `cast_to_type(hana_ld(hana_ticks_ts(${t}) + ${plus}) + ${t} % 10, d)`,
        `CASE WHEN typeof(d) = 'DATE' THEN cast_to_type(CAST(d AS DATE) + ${plus}, d) WHEN typeof(d) = 'TIMESTAMP_S' THEN cast_to_type(CAST(d AS TIMESTAMP_S) + ${plus}, d) ` +
        `ELSE cast_to_type(CAST(d AS TIMESTAMP) + ${plus}, d) END`)
  }),
  // A TIMESTAMP's ticks (longdate.ts) are no number: converted to one they fail as a TIMESTAMP does; as text they are its text.
  "CREATE OR REPLACE TEMP MACRO hana_concat(a, b) AS concat(hana_ld_text(a), hana_ld_text(b))",
  "CREATE OR REPLACE TEMP MACRO hana_bintohex(b) AS upper(hex(b))",
  "CREATE OR REPLACE TEMP MACRO hana_to_binary(x) AS encode(CAST(hana_ld_text(x) AS VARCHAR))",
  "CREATE OR REPLACE TEMP MACRO hana_to_tinyint(x) AS hana_as(x, CAST(NULL AS UTINYINT))",
  "CREATE OR REPLACE TEMP MACRO hana_to_smallint(x) AS hana_as(x, CAST(NULL AS SMALLINT))",
  "CREATE OR REPLACE TEMP MACRO hana_to_real(x) AS hana_as(x, CAST(NULL AS FLOAT))",
  "CREATE OR REPLACE TEMP MACRO hana_newuid() AS unhex(replace(CAST(gen_random_uuid() AS VARCHAR), '-', ''))",
  "CREATE OR REPLACE TEMP MACRO series_generate_integer(inc, mn, mx) AS TABLE SELECT CAST(i AS BIGINT) AS GENERATED_PERIOD_START, CAST(i + inc AS BIGINT) AS GENERATED_PERIOD_END, CAST((i - mn) / inc + 1 AS BIGINT) AS ELEMENT_NUMBER, CAST((i - mn) / (mx - mn) AS DOUBLE) AS FRACTION_OF_MIN_MAX_RANGE FROM range(mn, mx, inc) t(i)",
  // HANA fails a division by zero with error 304 "division by zero undefined" where DuckDB returns NULL.
  `CREATE OR REPLACE TEMP MACRO ${DIVISOR_GUARD}(d) AS CASE WHEN d = 0 THEN error('division by zero undefined') ELSE d END`,
  // SLEEP_SECONDS(s) lasts s seconds of wall clock, busy inside DuckDB (so a cancel interrupts it): rows are scanned
  // until one is read past the deadline. A fixed row count lasted 0.4 s for SLEEP_SECONDS(3) on an idle machine.
  "CREATE OR REPLACE TEMP MACRO hana_sleep(s) AS (SELECT count(*) FROM (SELECT i FROM range(9223372036854775807) t(i) WHERE hana_clock_ms(i) >= (SELECT hana_clock_ms(0)) + s * 1000 LIMIT 1))",
  ...TYPED_FUNCTION_MACROS,
  ...BUILTIN_FUNCTION_MACROS,
  ...MISC_FUNCTION_MACROS,
  ...STRING_FUNCTION_MACROS,
  ...REFERENCE_FUNCTION_MACROS,
  ...FACTORY_CALENDAR_MACROS,
  ...CALENDAR_FUNCTION_MACROS,
  ...JSON_FUNCTION_MACROS,
  ...LITERAL_WRITE_MACROS
].join("; ")
