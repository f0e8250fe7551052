/**
 * WORKDAYS_BETWEEN and ADD_WORKDAYS over a factory calendar table, as the SAP HANA SQL Reference describes them
 * ("WORKDAYS_BETWEEN Function (Datetime)", "ADD_WORKDAYS Function (Datetime)"; SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref/010-SQL-Reference/011-SQL-Functions). HANA ships no calendar: the functions read the table TFACS
 * (TFACS<suffix> with a suffix) of the schema given, or of the current schema, which an application replicates from
 * its ABAP system: one row per calendar IDENT and year JAHR, with one string MON01 … MON12 per month holding a `1`
 * for each working day and a `0` for each other day. Without that table the call fails as a query of an unknown
 * table does (259). The newer "Factory And Holiday Calendar" tables (FHC_*) are not read.
 *
 * - WORKDAYS_BETWEEN(fc, start, end [, schema [, suffix [, client]]]) is the INTEGER count of working days from
 *   start (included) to end (excluded), or, for an end before the start, minus the count from end (excluded) to
 *   start (included) (the reference's January 2014 examples: ('01', '2014-01-09', '2014-01-10') is 1,
 *   ('01', '2014-01-20', '2014-01-17') is -1, ('01', '2014-01-01', '2014-01-31') is 20).
 * - ADD_WORKDAYS(fc, start, n [, schema [, suffix [, client]]]) is the DATE d, a working day, with
 *   WORKDAYS_BETWEEN(fc, start, d) = n (('01', '2014-01-01', 16) is 2014-01-27, ('01', '2014-01-20', -1)
 *   2014-01-17).
 *
 * The schema and suffix must be literals (the table is found when the statement is prepared); the client only
 * matters for FHC tables and is ignored. Days of years the calendar has no row for are not working days here (HANA
 * fails such a call; its error is not confirmed).
 */

/** HANA function names and the session macros that implement them. */
export const FACTORY_CALENDAR_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["WORKDAYS_BETWEEN", "hana_workdays_between"],
  ["ADD_WORKDAYS", "hana_add_workdays"]
]

const month = `CASE month(r.d) ${Array.from({ length: 12 }, (_, i) => `WHEN ${i + 1} THEN t.MON${String(i + 1).padStart(2, "0")}`).join(" ")} END`

/** A date argument: a DATE, or text such as '2014-01-01' or '20140101' (the reference's two forms). */
const day = (x: string): string =>
  `CASE WHEN typeof(${x}) = 'VARCHAR' AND regexp_matches(CAST(${x} AS VARCHAR), '^[0-9]{8}$') THEN strptime(CAST(${x} AS VARCHAR), '%Y%m%d')::DATE ` +
  `ELSE hana_as(${x}, CAST(NULL AS DATE)) END`

/** The working days of calendar fc in table tbl, as a derived table of one DATE column d. */
const workdays = (tbl: string): string =>
  `(SELECT CAST(r.d AS DATE) AS d FROM query_table(${tbl}) t, ` +
  "range(make_date(CAST(t.JAHR AS INTEGER), 1, 1), make_date(CAST(t.JAHR AS INTEGER) + 1, 1, 1), INTERVAL 1 DAY) r(d) " +
  `WHERE CAST(t.IDENT AS VARCHAR) = CAST(fc AS VARCHAR) AND substr(${month}, day(r.d), 1) = '1')`

/** Macro overloads for the fixed parameters plus none, one, two or all three of schema, suffix and client. */
const overloads = (fixed: readonly string[], body: (schema: string, suffix: string) => string): string =>
  [[], ["s"], ["s", "x"], ["s", "x", "c"]]
    .map((extra) => `(${[...fixed, ...extra].join(", ")}) AS ${body(extra.includes("s") ? "s" : "''", extra.includes("x") ? "x" : "''")}`)
    .join(", ")

/** The session macros behind {@link FACTORY_CALENDAR_FUNCTIONS} (TEMP macros, created at login with the others). */
export const FACTORY_CALENDAR_MACROS: readonly string[] = [
  // The table's qualified name, quoted as written (query_table takes a name the statement fixes).
  // DuckDB binds a macro's body when it is created, when no session schema is set yet: the name then falls back on
  // an empty view of TFACS's shape. The current schema is read as a variable, not from a parameter, because
  // query_table takes no column (a calendar ID read from a table) in its argument.
  `CREATE OR REPLACE TEMP VIEW hana_tfacs_shape AS SELECT '' AS IDENT, '' AS JAHR, ${Array.from({ length: 12 }, (_, i) => `'' AS MON${String(i + 1).padStart(2, "0")}`).join(", ")} WHERE FALSE`,
  "CREATE OR REPLACE TEMP MACRO hana_fc_table(s, x) AS coalesce('\"' || replace(CASE WHEN s <> '' THEN s ELSE getvariable('hana_schema') END, '\"', '\"\"') || " +
    "'\".\"TFACS' || replace(x, '\"', '\"\"') || '\"', 'temp.main.hana_tfacs_shape')",
  `CREATE OR REPLACE TEMP MACRO hana_workdays_between${overloads(["fc", "a", "b"], (s, x) => "CAST(CASE " +
    `WHEN ${day("a")} <= ${day("b")} THEN (SELECT count(*) FROM ${workdays(`hana_fc_table(${s}, ${x})`)} w WHERE w.d >= ${day("a")} AND w.d < ${day("b")}) ` +
    `ELSE -(SELECT count(*) FROM ${workdays(`hana_fc_table(${s}, ${x})`)} w WHERE w.d > ${day("b")} AND w.d <= ${day("a")}) END AS INTEGER)`)}`,
  `CREATE OR REPLACE TEMP MACRO hana_add_workdays${overloads(["fc", "a", "n"], (s, x) => "CASE " +
    `WHEN n >= 0 THEN (SELECT w.d FROM (SELECT d, row_number() OVER (ORDER BY d) AS k FROM ${workdays(`hana_fc_table(${s}, ${x})`)} WHERE d >= ${day("a")}) w WHERE w.k = n + 1) ` +
    `ELSE (SELECT w.d FROM (SELECT d, row_number() OVER (ORDER BY d DESC) AS k FROM ${workdays(`hana_fc_table(${s}, ${x})`)} WHERE d <= ${day("a")}) w WHERE w.k = 1 - n) END`)}`
]
