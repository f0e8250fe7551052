/**
 * HANA built-in functions that DuckDB has no function for, as session macros (sql-rewrite.ts maps the HANA names onto
 * them). Semantics as the SAP HANA SQL Reference describes each function:
 *
 * - RAND() is a pseudo-random DOUBLE in [0, 1) ("RAND Function (Numeric)").
 * - NDIV0(n, d) divides as `/` does but returns 0 where d is 0 instead of failing with 304 ("NDIV0 Function
 *   (Numeric)"; SAP's community answer on error 304 recommends it for exactly that).
 * - BITAND(a, b) is the bitwise AND of two integers, typed as its arguments, or of two VARBINARY values, byte by
 *   byte ("BITAND Function (Numeric)"); VARBINARY values of different lengths fail with 266 naming both lengths
 *   (the reference says nothing of them; HANA's answer is not confirmed).
 * - VAR(x) is the sample variance, a DOUBLE ("VAR Function (Aggregate)": the square of STDDEV, which divides by n - 1).
 * - TRUNCATE(n, pos) cuts n to pos digits after the point (before it for a negative pos), toward zero, never
 *   rounding ("TRUNCATE Function (Numeric)"); DuckDB's two-argument `trunc` does exactly that.
 * - CHAR(n) / NCHAR(n) give the character of an ASCII / Unicode code point ("CHAR Function (String)", "NCHAR Function
 *   (String)"). Both names are also types, so sql-rewrite.ts maps them only where a value starts (see
 *   {@link callsBuiltinKeyword}).
 * - TO_ALPHANUM(x) converts to text ("TO_ALPHANUM Function (Data Type Conversion)").
 * - MOD(n, d) is n for a zero divisor, else the remainder with the sign of n ("MOD Function (Numeric)"; DuckDB's mod
 *   gives NULL for a zero divisor).
 * - HASH_SHA256(b, ...) is the 32-byte SHA-256 of its binary arguments concatenated, and HASH_MD5 the 16-byte MD5
 *   ("HASH_SHA256 Function (Miscellaneous)", "HASH_MD5 Function (Miscellaneous)"; up to four arguments here).
 */
import { BITAND_LENGTHS } from "./errors.ts"
import { type Token, upper } from "./lexer.ts"

/** HANA function names and the session macros that implement them. */
export const BUILTIN_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["RAND", "hana_rand"],
  ["NDIV0", "hana_ndiv0"],
  ["BITAND", "hana_bitand"],
  ["VAR", "hana_var"],
  ["TRUNCATE", "hana_truncate"],
  ["CHAR", "hana_char"],
  ["NCHAR", "hana_char"],
  ["TO_ALPHANUM", "hana_to_alphanum"],
  ["HASH_SHA256", "hana_hash_sha256"],
  ["HASH_MD5", "hana_hash_md5"],
  ["MOD", "hana_mod"]
]

/** Names of {@link BUILTIN_FUNCTIONS} that are also keywords or type names (sql-rewrite.ts keeps those verbatim otherwise). */
const KEYWORD_NAMES: ReadonlySet<string> = new Set(["TRUNCATE", "CHAR", "NCHAR"])

/** Words after which a `CHAR(` / `NCHAR(` starts a value, not a column's type (`c CHAR(10)` in DDL). */
const VALUE_STARTS: ReadonlySet<string> = new Set(["SELECT", "WHERE", "AND", "OR", "NOT", "ON", "BY", "WHEN", "THEN", "ELSE", "HAVING", "VALUES", "SET", "IN", "LIKE", "IS", "BETWEEN", "RETURN", "DISTINCT", "ALL"])

/**
 * True when the keyword `U` at token `i` (followed by `(`) calls one of {@link BUILTIN_FUNCTIONS}: TRUNCATE always
 * (`TRUNCATE TABLE` has no parenthesis), CHAR / NCHAR only after an operator or a word that starts a value.
 */
export const callsBuiltinKeyword = (tokens: ReadonlyArray<Token>, i: number, U: string): boolean => {
  if (!KEYWORD_NAMES.has(U)) return false
  if (U === "TRUNCATE") return true
  const prev = tokens[i - 1]
  return prev === undefined || prev.t === "op" || VALUE_STARTS.has(upper(prev))
}

const hashOverloads = (fn: string): string =>
  ["a", "a, b", "a, b, c", "a, b, c, d"].map((args) => `(${args}) AS unhex(${fn}(${args.split(", ").map((a) => `CAST(${a} AS BLOB)`).join(" || ")}))`).join(", ")

/** The session macros behind {@link BUILTIN_FUNCTIONS} (TEMP macros, created at login with the others). */
export const BUILTIN_FUNCTION_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_rand() AS random()",
  "CREATE OR REPLACE TEMP MACRO hana_ndiv0(n, d) AS CASE WHEN d = 0 THEN 0 ELSE n / d END",
  // VARBINARY values AND byte by byte through DuckDB's bit strings (which AND only strings of one length and hold no
  // empty one); other lengths fail with BITAND_LENGTHS (errors.ts maps it to 266)
  "CREATE OR REPLACE TEMP MACRO hana_bitand(a BLOB, b BLOB) AS CASE WHEN octet_length(a) <> octet_length(b) THEN " +
    `error('${BITAND_LENGTHS}(' || octet_length(a) || ' and ' || octet_length(b) || ' bytes)') ` +
    "WHEN octet_length(a) = 0 THEN a ELSE CAST(CAST(a AS BIT) & CAST(b AS BIT) AS BLOB) END, (a, b) AS a & b",
  "CREATE OR REPLACE TEMP MACRO hana_var(x) AS var_samp(x)",
  "CREATE OR REPLACE TEMP MACRO hana_mod(n, d) AS CASE WHEN d = 0 THEN n ELSE n % d END",
  "CREATE OR REPLACE TEMP MACRO hana_truncate(n, pos) AS trunc(n, CAST(pos AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_char(n) AS chr(CAST(n AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_to_alphanum(x) AS CAST(hana_ld_text(x) AS VARCHAR)",
  `CREATE OR REPLACE TEMP MACRO hana_hash_sha256${hashOverloads("sha256")}`,
  `CREATE OR REPLACE TEMP MACRO hana_hash_md5${hashOverloads("md5")}`
]
