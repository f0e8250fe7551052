/**
 * HANA string functions DuckDB has no namesake for, or one with other rules, as session macros (sql-rewrite.ts maps
 * the HANA names onto them). Semantics as the SAP HANA SQL Reference describes each (SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref/010-SQL-Reference/011-SQL-Functions):
 *
 * - SUBSTR_AFTER(s, p) / SUBSTR_BEFORE(s, p) are the part of s after / before the first p; '' when s holds no p, s
 *   itself when p is '' ("SUBSTR_AFTER Function (String)", "SUBSTR_BEFORE Function (String)").
 * - INITCAP(s) upper-cases the first letter of each word and lower-cases the rest; words end at blanks, line breaks
 *   and the ASCII punctuation the reference lists ("INITCAP Function (String)").
 * - LEFT(s, n) / RIGHT(s, n) are the first / last n characters, '' for n < 1 ("LEFT Function (String)", "RIGHT
 *   Function (String)"; DuckDB's take a negative n as "all but").
 * - CONCAT_NAZ(a, b) concatenates, a NULL counting as '', and is NULL only when both are ("CONCAT_NAZ Function
 *   (String)").
 */
import { VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"

/** HANA function names and the session macros that implement them. */
export const STRING_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["SUBSTR_AFTER", "hana_substr_after"],
  ["SUBSTR_BEFORE", "hana_substr_before"],
  ["INITCAP", "hana_initcap"],
  ["LEFT", "hana_left"],
  ["RIGHT", "hana_right"],
  ["CONCAT_NAZ", "hana_concat_naz"]
]

const text = (x: string): string => `CAST(hana_ld_text(${x}) AS VARCHAR)`

/** The session macros behind {@link STRING_FUNCTIONS} (TEMP macros, created at login with the others). */
export const STRING_FUNCTION_MACROS: readonly string[] = [
  `CREATE OR REPLACE TEMP MACRO hana_substr_after(s, p) AS CASE WHEN p = '' THEN ${text("s")} WHEN instr(${text("s")}, p) = 0 THEN '' ` +
    `ELSE substr(${text("s")}, instr(${text("s")}, p) + length(p)) END`,
  `CREATE OR REPLACE TEMP MACRO hana_substr_before(s, p) AS CASE WHEN p = '' THEN ${text("s")} WHEN instr(${text("s")}, p) = 0 THEN '' ` +
    `ELSE left(${text("s")}, instr(${text("s")}, p) - 1) END`,
  `CREATE OR REPLACE TEMP MACRO hana_initcap(s) AS hana_initcap_text(${text("s")})`,
  `CREATE OR REPLACE TEMP MACRO hana_left(s, n) AS CASE WHEN n < 1 THEN '' ELSE left(${text("s")}, CAST(n AS BIGINT)) END`,
  `CREATE OR REPLACE TEMP MACRO hana_right(s, n) AS CASE WHEN n < 1 THEN '' ELSE right(${text("s")}, CAST(n AS BIGINT)) END`,
  `CREATE OR REPLACE TEMP MACRO hana_concat_naz(a, b) AS CASE WHEN a IS NULL AND b IS NULL THEN NULL ELSE concat(hana_ld_text(a), hana_ld_text(b)) END`
]

/** Characters that end a word for INITCAP ("INITCAP Function (String)"). */
const DELIMITERS = new Set(" \n\f\r\t!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

const initcap = (s: string): string => {
  let out = ""
  let start = true
  for (const ch of s) {
    out += start ? ch.toUpperCase() : ch.toLowerCase()
    start = DELIMITERS.has(ch)
  }
  return out
}

/** Registers the scalar function INITCAP's macro calls. */
export const registerStringFunctions = (connection: DuckDBConnection): void => {
  connection.registerScalarFunction(fn("hana_initcap_text", [VARCHAR], VARCHAR, ([s]) => initcap(String(s))))
}
