/**
 * More scalar functions of the SAP HANA SQL Reference's "String Functions", "Numeric Functions" and "Security
 * Functions" that DuckDB has no namesake for, as session macros over TypeScript scalar functions (sql-rewrite.ts maps
 * the HANA names onto them). Semantics as the reference describes each (SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref/010-SQL-Reference/011-SQL-Functions):
 *
 * - SOUNDEX(s): the first letter, then the codes of the next three consonants (H, W and Y ignored, vowels ignored
 *   after the first letter, a double letter counted once), zero-padded to four characters; blanks, line breaks and
 *   ASCII punctuation are ignored ("SOUNDEX Function (String)": SOUNDEX('Smith') = SOUNDEX('Smythe') = 'S530').
 * - HAMMING_DISTANCE(a, b): the number of differing positions, bit by bit for integers and VARBINARY values, byte by
 *   byte for strings; -1 for arguments of different lengths ("HAMMING_DISTANCE Function (String)":
 *   ('abc', 'cab') is 3, (TO_BINARY('abc'), TO_BINARY('cab')) 4, (4, 9) 3, ('abc', 'ca') -1). Other argument types,
 *   or a string with a number, fail with 266 as other functions' wrong argument types do.
 * - LOCATE(haystack, needle, start [, occurrences]): the n-th match from start (1 when 0 or omitted), or, for a
 *   negative start, searching right to left from that position counted from the end; 0 for occurrences < 1
 *   ("LOCATE Function (String)": LOCATE('ABABAC', 'A', -2) is 5, LOCATE('AAA', 'A', -3) is 1).
 * - RAND_SECURE() is a DOUBLE in [0, 1) ("RAND_SECURE Function (Numeric)"); UMINUS(n) is -n ("UMINUS Function
 *   (Numeric)").
 * - IS_SQL_INJECTION_SAFE(s [, max_tokens]) is 1 when s has at most max_tokens (default 1) tokens, separated by
 *   whitespace and `, ( ) [ ] . ; : + - * / % ^ < > =`, and no comment; else 0 ("IS_SQL_INJECTION_SAFE Function
 *   (Security)": 'tab,le' is 0, ('mytab /*', 4) is 0).
 * - ABAP_UPPER / ABAP_LOWER change case; ABAP_ALPHANUM(s, n) left-pads a numeric string (digits after optional
 *   leading blanks) with zeros to n characters and returns any other string unchanged; ABAP_NUMC(x, n) is x's
 *   digits (a number rounded to its integer part, the sign dropped) left-padded with zeros or cut from the left to
 *   n characters ("ABAP_ALPHANUM Function (String)": ('12', 3) is 012, ('12x', 13) 12x; "ABAP_NUMC Function
 *   (String)": (1234, 3) is 234, (-1234.5, 6) 001235).
 * - NORMALIZE(s [, form]) is s in Unicode normalization form NFC (the default), NFD, NFKC or NFKD ("NORMALIZE
 *   Function (String)"); here the form is a string ('NFD'); another one fails with 8.
 */
import { BIGINT, BLOB, BOOLEAN, INTEGER, VARCHAR } from "@duckdb/node-api"
import type { DuckDBBlobValue, DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { INCONSISTENT_DATATYPE, INVALID_ARGUMENT } from "./errors.ts"

/** HANA function names and the session macros that implement them. */
export const REFERENCE_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["SOUNDEX", "hana_soundex"],
  ["HAMMING_DISTANCE", "hana_hamming_distance"],
  ["RAND_SECURE", "hana_rand_secure"],
  ["UMINUS", "hana_uminus"],
  ["IS_SQL_INJECTION_SAFE", "hana_is_sql_injection_safe"],
  ["ABAP_UPPER", "upper"],
  ["ABAP_LOWER", "lower"],
  ["ABAP_ALPHANUM", "hana_abap_alphanum"],
  ["ABAP_NUMC", "hana_abap_numc"],
  ["NORMALIZE", "hana_normalize"]
]

const INTEGER_TYPES = ["UTINYINT", "SMALLINT", "INTEGER", "BIGINT"].map((t) => `'${t}'`).join(", ")
const wrongTypes = (name: string): string => `error('${INCONSISTENT_DATATYPE}${name} does not take arguments of these types')`

/** The session macros behind {@link REFERENCE_FUNCTIONS} and LOCATE's longer forms (TEMP macros, created at login). */
export const REFERENCE_FUNCTION_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_soundex(s) AS hana_soundex_text(CAST(s AS VARCHAR))",
  // Told by typeof (misc-functions.ts' BITCOUNT does the same): every branch binds for every type.
  "CREATE OR REPLACE TEMP MACRO hana_hamming_distance(a, b) AS CASE " +
    "WHEN typeof(a) = '\"NULL\"' OR typeof(b) = '\"NULL\"' THEN CAST(NULL AS INTEGER) " +
    "WHEN typeof(a) = 'BLOB' AND typeof(b) = 'BLOB' THEN hana_hamming_bytes(CAST(a AS BLOB), CAST(b AS BLOB), TRUE) " +
    "WHEN typeof(a) = 'VARCHAR' AND typeof(b) = 'VARCHAR' THEN hana_hamming_bytes(encode(CAST(a AS VARCHAR)), encode(CAST(b AS VARCHAR)), FALSE) " +
    `WHEN typeof(a) IN (${INTEGER_TYPES}) AND typeof(b) IN (${INTEGER_TYPES}) THEN CAST(bit_count(xor(CAST(a AS BIGINT), CAST(b AS BIGINT))) AS INTEGER) ` +
    `ELSE ${wrongTypes("HAMMING_DISTANCE")} END`,
  "CREATE OR REPLACE TEMP MACRO hana_rand_secure() AS random()",
  "CREATE OR REPLACE TEMP MACRO hana_normalize(s) AS hana_normalize_text(CAST(s AS VARCHAR), 'NFC'), (s, f) AS hana_normalize_text(CAST(s AS VARCHAR), CAST(f AS VARCHAR))",
  "CREATE OR REPLACE TEMP MACRO hana_uminus(n) AS -(n)",
  "CREATE OR REPLACE TEMP MACRO hana_is_sql_injection_safe(s, n := 1) AS hana_injection_safe(CAST(s AS VARCHAR), CAST(n AS BIGINT))",
  "CREATE OR REPLACE TEMP MACRO hana_abap_alphanum(s, n) AS CASE WHEN regexp_matches(CAST(s AS VARCHAR), '^ *[0-9]+$') " +
    "THEN lpad(ltrim(CAST(s AS VARCHAR)), CAST(greatest(n, length(ltrim(CAST(s AS VARCHAR)))) AS INTEGER), '0') ELSE CAST(s AS VARCHAR) END",
  "CREATE OR REPLACE TEMP MACRO hana_abap_numc_text(t, n) AS right(lpad(t, CAST(greatest(n, length(t)) AS INTEGER), '0'), CAST(n AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_abap_numc(x, n) AS hana_abap_numc_text(CASE WHEN typeof(x) IN ('FLOAT', 'DOUBLE') " +
    `THEN CAST(CAST(round(abs(CAST(x AS DOUBLE))) AS HUGEINT) AS VARCHAR) WHEN typeof(x) IN (${INTEGER_TYPES}, 'HUGEINT') OR typeof(x) LIKE 'DECIMAL%' ` +
    "THEN CAST(CAST(round(abs(CAST(x AS DECIMAL(38, 6)))) AS HUGEINT) AS VARCHAR) ELSE CAST(x AS VARCHAR) END, n)"
]

/** LOCATE's overloads: the two-argument form is DuckDB's instr, the longer ones {@link locate}. */
export const LOCATE_MACRO = "CREATE OR REPLACE TEMP MACRO hana_locate(h, n) AS CAST(instr(h, n) AS INTEGER), " +
  "(h, n, s) AS hana_locate_from(CAST(h AS VARCHAR), CAST(n AS VARCHAR), CAST(s AS BIGINT), 1), " +
  "(h, n, s, o) AS hana_locate_from(CAST(h AS VARCHAR), CAST(n AS VARCHAR), CAST(s AS BIGINT), CAST(o AS BIGINT))"

const SOUNDEX_CODES: Readonly<Record<string, string>> = Object.fromEntries(
  ["BFPV", "CGJKQSXZ", "DT", "L", "MN", "R"].flatMap((letters, i) => [...letters].map((l) => [l, String(i + 1)]))
)

/** SOUNDEX as the reference describes it (see the module comment); non-letters are skipped. */
export const soundex = (s: string): string => {
  const letters = [...s.toUpperCase()].filter((c) => c >= "A" && c <= "Z")
  if (letters.length === 0) return ""
  let code = letters[0]!
  let last = SOUNDEX_CODES[letters[0]!] ?? ""
  for (const c of letters.slice(1)) {
    if (code.length === 4) break
    if (c === "H" || c === "W" || c === "Y") continue
    const digit = SOUNDEX_CODES[c]
    if (digit === undefined) last = "" // a vowel separates two consonants of one code
    else if (digit !== last) {
      code += digit
      last = digit
    }
  }
  return code.padEnd(4, "0")
}

/** Positions (bits when `bitwise`, else bytes) in which a and b differ; -1 for different lengths. */
const hamming = (a: Uint8Array, b: Uint8Array, bitwise: boolean): number => {
  if (a.length !== b.length) return -1
  let n = 0
  for (let i = 0; i < a.length; i++) {
    if (!bitwise) n += a[i] === b[i] ? 0 : 1
    else for (let x = a[i]! ^ b[i]!; x !== 0; x &= x - 1) n++
  }
  return n
}

/** LOCATE(h, n, start, occurrence) as the reference describes it, in characters (code points, as DuckDB's instr). */
export const locate = (haystack: string, needle: string, start: number, occurrence: number): number => {
  if (occurrence < 1) return 0
  const h = [...haystack]
  const n = [...needle]
  const matches = (p: number) => n.every((c, k) => h[p + k] === c)
  let left = occurrence
  if (start >= 0) {
    for (let p = Math.max(start, 1) - 1; p <= h.length - n.length; p++) if (matches(p) && --left === 0) return p + 1
  } else {
    for (let p = Math.min(h.length + start, h.length - n.length); p >= 0; p--) if (matches(p) && --left === 0) return p + 1
  }
  return 0
}

const SEPARATORS = /[\s,()[\].;:+\-*/%^<>=]+/

/** IS_SQL_INJECTION_SAFE: 1 when s has no comment and at most maxTokens tokens. */
export const injectionSafe = (s: string, maxTokens: number): number => {
  if (s.includes("--") || s.includes("/*")) return 0
  return s.split(SEPARATORS).filter((t) => t !== "").length <= maxTokens ? 1 : 0
}

const FORMS = new Set(["NFC", "NFD", "NFKC", "NFKD"])

/** NORMALIZE: s in Unicode normalization form `form`. */
export const normalize = (s: string, form: string): string => {
  const f = form.toUpperCase()
  if (!FORMS.has(f)) throw new Error(`${INVALID_ARGUMENT}NORMALIZE takes the forms NFC, NFD, NFKC and NFKD, not ${form}`)
  return s.normalize(f)
}

/** Registers the scalar functions the macros of {@link REFERENCE_FUNCTION_MACROS} and {@link LOCATE_MACRO} call. */
export const registerReferenceFunctions = (connection: DuckDBConnection): void => {
  connection.registerScalarFunction(fn("hana_soundex_text", [VARCHAR], VARCHAR, ([s]) => soundex(String(s))))
  connection.registerScalarFunction(fn("hana_hamming_bytes", [BLOB, BLOB, BOOLEAN], INTEGER, ([a, b, bitwise]) =>
    hamming((a as DuckDBBlobValue).bytes, (b as DuckDBBlobValue).bytes, bitwise === true)))
  connection.registerScalarFunction(fn("hana_locate_from", [VARCHAR, VARCHAR, BIGINT, BIGINT], INTEGER, ([h, n, s, o]) =>
    locate(String(h), String(n), Number(s), Number(o))))
  connection.registerScalarFunction(fn("hana_normalize_text", [VARCHAR, VARCHAR], VARCHAR, ([s, f]) => normalize(String(s), String(f))))
  connection.registerScalarFunction(fn("hana_injection_safe", [VARCHAR, BIGINT], INTEGER, ([s, n]) => injectionSafe(String(s), Number(n))))
}
