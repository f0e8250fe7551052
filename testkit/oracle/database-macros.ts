/**
 * The DuckDB macros every session of the Oracle test server calls: SYSDATE and the other session values, NUMBER and
 * datetime text, SYS_CONTEXT('USERENV', ...), and those of the named types, SQL/XML and JSON_TABLE modules.
 */
import { JSON_VALUE_MACRO } from "./json-functions.ts"
import { NAMED_VALUE_MACROS } from "./named-types.ts"
import { CHAR_COMPARISON_MACROS } from "./char-operands.ts"
import { XML_MACROS } from "./xml-functions.ts"
import { SESSION_DATE_LANGUAGE } from "./date-language.ts"
import { nlsText } from "./nls-formats.ts"
import { JSON_TABLE_MACROS } from "./json-table.ts"
import { KEEP_MACROS } from "./keep-aggregates.ts"
import { PERCENTILE_MACROS } from "./percentile-windows.ts"
import { MULTISET_MACROS } from "./multiset-conditions.ts"
import { ROWID_TEXT_PATTERN } from "./rowid-literals.ts"

/** What the macros need of the database: its time zone offset and names. */
export interface MacroParameters {
  readonly dbOffsetMinutes: number
  readonly pdbName: string
  readonly serviceName: string
}

/** Each macro's `name(args) AS body`, to be created as `CREATE OR REPLACE MACRO main.<it>`. */
export const databaseMacros = (p: MacroParameters): ReadonlyArray<string> => [
  `ora_sysdate() AS CAST(CAST(now() AS TIMESTAMP) + to_minutes(CAST(${p.dbOffsetMinutes} AS BIGINT)) AS TIMESTAMP_S)`,
  `ora_user() AS CAST(getvariable('ora_user') AS VARCHAR)`,
  // a MERGE's DELETE WHERE condition over the new values, then as written (merge-delete-where.ts): the first
  `ora_merge_delete_where(substituted, written) AS substituted`,
  // the session time zone (session-variables.ts: ora_session_tz_min for an offset, ora_session_tz_region for a region):
  // an instant's wall clock there, its offset there in minutes, and a wall clock there as an instant
  `ora_session_local(x) AS CASE WHEN getvariable('ora_session_tz_region') = '' THEN CAST(CAST(x AS TIMESTAMPTZ) AS TIMESTAMP) + to_minutes(CAST(getvariable('ora_session_tz_min') AS BIGINT)) ELSE timezone(nullif(getvariable('ora_session_tz_region'), ''), CAST(x AS TIMESTAMPTZ)) END`,
  // CURRENT_DATE and LOCALTIMESTAMP: the session time zone's wall clock now, a region's offset at this instant
  // ("the current date and time in the session time zone", SQL Language Reference, "LOCALTIMESTAMP")
  // ADD_MONTHS: "If date is the last day of the month or if the resulting month has fewer days than the day
  // component of date, then the result is the last day of the resulting month" (SQL Language Reference), the time kept
  `ora_add_months(x, n) AS CASE WHEN CAST(x AS DATE) = last_day(x) THEN CAST(last_day(x + to_months(n)) AS TIMESTAMP) + (x - date_trunc('day', x)) ELSE x + to_months(n) END`,
  // MONTHS_BETWEEN: whole months when the days of month match or both are last days, else the rest in 31-day months
  // of the days and times ("Oracle Database calculates the fractional portion of the result based on a 31-day month
  // and considers the difference in time components", SQL Language Reference, "MONTHS_BETWEEN")
  `ora_months_between(a, b) AS CASE WHEN day(a) = day(b) OR (CAST(a AS DATE) = last_day(a) AND CAST(b AS DATE) = last_day(b)) THEN CAST((year(a) - year(b)) * 12 + month(a) - month(b) AS DOUBLE) ELSE (year(a) - year(b)) * 12 + month(a) - month(b) + (day(a) - day(b)) / 31.0 + (epoch(a - date_trunc('day', a)) - epoch(b - date_trunc('day', b))) / (31.0 * 86400) END`,
  `ora_current_date() AS CAST(ora_session_local(now()) AS TIMESTAMP_S)`,
  `ora_localtimestamp() AS ora_session_local(now())`,
  `ora_session_offset(x) AS CAST((epoch_us(ora_session_local(x)) - epoch_us(CAST(CAST(x AS TIMESTAMPTZ) AS TIMESTAMP))) // 60000000 AS BIGINT)`,
  `ora_session_instant(x) AS CASE WHEN getvariable('ora_session_tz_region') = '' THEN CAST(CAST(x AS TIMESTAMP) - to_minutes(CAST(getvariable('ora_session_tz_min') AS BIGINT)) AS TIMESTAMPTZ) ELSE timezone(nullif(getvariable('ora_session_tz_region'), ''), CAST(x AS TIMESTAMP)) END`,
  `ora_offset_text(m) AS (CASE WHEN m < 0 THEN '-' ELSE '+' END) || lpad(CAST(abs(m) // 60 AS VARCHAR), 2, '0') || ':' || lpad(CAST(abs(m) % 60 AS VARCHAR), 2, '0')`,
  // Oracle operator semantics the translator maps onto (see translate.ts expression())
  `ora_cat(a, b) AS nullif(concat(a, b), '')`,
  // INSTR's occurrence: the n-th match from the position on, or backwards from the end for a negative position
  `ora_instr_nth(s, sub, pos, occ) AS CASE WHEN occ < 1 THEN error('ORA-01428: argument ''' || CAST(occ AS VARCHAR) || ''' is out of range') WHEN s IS NULL OR sub IS NULL OR pos IS NULL THEN NULL WHEN pos > 0 THEN coalesce(list_filter(range(pos, length(s) + 1), lambda i: substr(s, i, length(sub)) = sub)[occ], 0) WHEN pos < 0 THEN coalesce(list_reverse(list_filter(range(1, length(s) + pos + 2), lambda i: substr(s, i, length(sub)) = sub))[occ], 0) ELSE 0 END`,
  `ora_nonzero_year(d) AS CASE WHEN year(d) = 0 THEN error('ORA-01841: (full) year must be between -4713 and +9999, and not be 0') ELSE d END`,
  `ora_div(a, b) AS CASE WHEN b = 0 THEN error('ORA-01476: divisor is equal to zero') ELSE a / b END`,
  `ora_mod(a, b) AS CASE WHEN b = 0 THEN a ELSE a % b END`,
  JSON_VALUE_MACRO,
  `ora_date_add(d, n) AS CAST(date_trunc('second', CAST(d AS TIMESTAMP)) + to_microseconds(CAST(round(n * 86400000000) AS BIGINT)) AS TIMESTAMP_S)`,
  // datetime ± interval: a YEAR TO MONTH part landing on a day its month lacks is ORA-01839, where DuckDB clamps to the
  // month's last day (SQL Language Reference, "Datetime/Interval Arithmetic": the result must be an actual datetime)
  `ora_datetime_add(d, iv) AS CASE WHEN datepart('year', iv) * 12 + datepart('month', iv) <> 0 AND day(d + to_months(datepart('year', iv) * 12 + datepart('month', iv))) <> day(d) THEN error('ORA-01839: date not valid for month specified') ELSE d + iv END`,
  `ora_date_diff(a, b) AS (epoch_us(CAST(a AS TIMESTAMP)) - epoch_us(CAST(b AS TIMESTAMP))) / 86400000000.0`,
  // a difference with a TIMESTAMP operand: an INTERVAL DAY TO SECOND (translate-expression.ts)
  `ora_ts_diff(a, b) AS CAST(a AS TIMESTAMP) - CAST(b AS TIMESTAMP)`,
  `ora_uid() AS CAST(getvariable('ora_uid') AS BIGINT)`,
  // ROWID in expressions (WHERE ROWID = :r): the 18-character text the encoder sends for DuckDB's row id
  // (encode.ts "rowid": data object 73000, file 12, block = bits 16..45, slot = bits 0..15)
  `ora_b64(n, k) AS list_reduce(list_transform(range(k - 1, -1, -1), p -> substr('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', CAST((n >> (6 * p)) & 63 AS INTEGER) + 1, 1)), (a, b) -> a || b)`,
  `ora_rowid(r) AS 'AAAR0oAAM' || ora_b64((CAST(r AS UBIGINT) >> 16) & 1073741823, 6) || ora_b64(CAST(r AS UBIGINT) & 65535, 3)`,
  // a bind compared with ROWID: ORA-01410 for text that is no rowid (rowid-literals.ts isRowidComparedBind)
  `ora_rowid_text(x) AS CASE WHEN x IS NULL OR regexp_full_match(x, '${ROWID_TEXT_PATTERN}') THEN x ELSE error('ORA-01410: invalid ROWID') END`,
  // TO_CHAR(number) prints no leading zero before the point and no trailing fraction zeros (.5, -.5, 1.5, 10)
  `ora_num_text(s) AS regexp_replace(regexp_replace(regexp_replace(s, '(\\.[0-9]*?)0+$', '\\1'), '\\.$', ''), '^(-?)0\\.', '\\1.')`,
  // a DATE prints in the session's NLS_DATE_FORMAT, a TIMESTAMP in NLS_TIMESTAMP_FORMAT, an instant in
  // NLS_TIMESTAMP_TZ_FORMAT ("TO_CHAR (datetime)", nls-formats.ts); infinities and NaN print as Inf, -Inf and Nan (as Oracle shows BINARY_DOUBLE_INFINITY + 1:
  // https://exadatadba.blog/2019/03/22/when-is-an-oracle-database-number-column-not-a-number-nan/)
  `ora_to_char(x) AS CASE WHEN typeof(x) IN ('DOUBLE', 'FLOAT') AND isnan(CAST(x AS DOUBLE)) THEN 'Nan'
    WHEN typeof(x) IN ('DOUBLE', 'FLOAT') AND isinf(CAST(x AS DOUBLE)) THEN CASE WHEN CAST(x AS DOUBLE) > 0 THEN 'Inf' ELSE '-Inf' END
    WHEN typeof(x) IN ('DATE', 'TIMESTAMP_S') THEN ${nlsText("date", "x", "''", 0)}
    WHEN typeof(x) IN ('TIMESTAMP', 'TIMESTAMP_MS') THEN ${nlsText("timestamp", "x", "''", 6)}
    WHEN typeof(x) = 'TIMESTAMP_NS' THEN ${nlsText("timestamp", "x", "''", 9)}
    WHEN typeof(x) = 'TIMESTAMP WITH TIME ZONE' THEN ${nlsText("timestampTz", "x", "''", 6)}
    WHEN typeof(x) IN ('DOUBLE', 'FLOAT') OR typeof(x) LIKE 'DECIMAL%' THEN replace(ora_num_text(CAST(x AS VARCHAR)), '.', left(coalesce(getvariable('ora_nls_numeric'), '.'), 1)) ELSE CAST(x AS VARCHAR) END`,
  // a number's text as TO_CHAR prints it, for values known to be numbers (character-writes.ts asNumberText): light,
  // its argument once, where ora_to_char repeats it in every branch
  `ora_num_char(x) AS replace(ora_num_text(CAST(x AS VARCHAR)), '.', left(coalesce(getvariable('ora_nls_numeric'), '.'), 1))`,
  // a DuckDB datetime operand of CAST(column AS VARCHAR2) is text in the session's NLS format (nls-formats.ts), a
  // NUMBER(p,s) (DECIMAL) TO_CHAR's text, `1.5` where DuckDB writes `1.50` ("TO_CHAR (number)": without fmt "n is
  // converted to a VARCHAR2 value exactly long enough to hold its significant digits")
  `ora_char_of(x) AS CASE WHEN typeof(x) IN ('DATE', 'TIMESTAMP_S', 'TIMESTAMP', 'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMP WITH TIME ZONE') THEN ora_to_char(x) WHEN typeof(x) LIKE 'DECIMAL%' THEN ora_num_char(x) ELSE CAST(x AS VARCHAR) END`,
  `ora_to_char_fmt(x, f) AS strftime(CAST(x AS TIMESTAMP), f)`,
  `ora_to_char_fmt_ns(x, f) AS strftime(CAST(x AS TIMESTAMP_NS), f)`,
  `sys_context(ns, k) AS CASE WHEN upper(ns) <> 'USERENV' THEN map_extract(CAST(getvariable('ora_appctx') AS MAP(VARCHAR, VARCHAR)), upper(ns) || '.' || upper(k))[1] ELSE CASE upper(k)
    WHEN 'CURRENT_SCHEMA' THEN CAST(getvariable('ora_schema') AS VARCHAR)
    WHEN 'CURRENT_USER' THEN CAST(coalesce(getvariable('ora_current_user'), getvariable('ora_user')) AS VARCHAR)
    WHEN 'SESSION_USER' THEN CAST(getvariable('ora_user') AS VARCHAR)
    WHEN 'AUTHENTICATED_IDENTITY' THEN CAST(getvariable('ora_user') AS VARCHAR)
    WHEN 'CURRENT_SCHEMAID' THEN CAST(getvariable('ora_schema_id') AS VARCHAR)
    WHEN 'CURRENT_USERID' THEN CAST(getvariable('ora_uid') AS VARCHAR)
    WHEN 'SESSION_USERID' THEN CAST(getvariable('ora_uid') AS VARCHAR)
    WHEN 'SID' THEN CAST(getvariable('ora_sid') AS VARCHAR)
    WHEN 'SESSIONID' THEN CAST(getvariable('ora_sid') AS VARCHAR)
    WHEN 'CON_NAME' THEN '${p.pdbName}'
    WHEN 'CON_ID' THEN '3'
    WHEN 'DB_NAME' THEN '${p.pdbName}'
    WHEN 'DB_UNIQUE_NAME' THEN 'FREE'
    WHEN 'INSTANCE_NAME' THEN 'FREE'
    WHEN 'SERVICE_NAME' THEN '${p.serviceName}'
    WHEN 'DB_DOMAIN' THEN NULL
    WHEN 'SERVER_HOST' THEN 'localhost'
    WHEN 'HOST' THEN CAST(getvariable('ora_machine') AS VARCHAR)
    WHEN 'OS_USER' THEN CAST(getvariable('ora_osuser') AS VARCHAR)
    WHEN 'TERMINAL' THEN 'unknown'
    WHEN 'ISDBA' THEN 'FALSE'
    WHEN 'LANGUAGE' THEN 'AMERICAN_AMERICA.AL32UTF8'
    WHEN 'LANG' THEN 'US'
    WHEN 'NLS_TERRITORY' THEN 'AMERICA'
    WHEN 'NLS_CALENDAR' THEN 'GREGORIAN'
    WHEN 'NLS_DATE_FORMAT' THEN 'DD-MON-RR'
    WHEN 'NLS_SORT' THEN 'BINARY'
    WHEN 'MODULE' THEN CAST(getvariable('ora_module') AS VARCHAR)
    WHEN 'ACTION' THEN CAST(getvariable('ora_action') AS VARCHAR)
    WHEN 'CLIENT_IDENTIFIER' THEN CAST(getvariable('ora_client_id') AS VARCHAR)
    WHEN 'CLIENT_INFO' THEN CAST(getvariable('ora_client_info') AS VARCHAR)
    ELSE NULL END END`,
  ...NAMED_VALUE_MACROS,
  ...CHAR_COMPARISON_MACROS,
  ...XML_MACROS,
  ...JSON_TABLE_MACROS,
  ...KEEP_MACROS,
  ...PERCENTILE_MACROS,
  ...MULTISET_MACROS
]
