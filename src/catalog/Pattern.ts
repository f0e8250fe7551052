/**
 * ADBC search patterns (catalog, db_schema, table_name and column_name arguments of GetObjects).
 *
 * Semantics, from adbc.h (apache/arrow-adbc c/include/arrow-adbc/adbc.h, "search pattern" section and
 * AdbcConnectionGetObjects):
 * - `%` matches any sequence of characters (including none), `_` matches exactly one character;
 *   every other character matches itself. Escaping is not supported, so `\%` is a backslash followed by `%`.
 * - A `null`/`undefined` pattern means "no filter": everything matches, including objects without a name.
 * - For catalog and db_schema, `""` means "only objects without a catalog/schema". Here a missing name is
 *   `null`/`undefined`, so the pattern `""` matches a `null`/`undefined` name — and also the empty name `""`,
 *   which is what `""` matches as an ordinary pattern. Any other pattern never matches a missing name
 *   (like SQL `LIKE` on NULL).
 * - Matching is case-sensitive, as `LIKE` on the HANA (`SYS.TABLES`) and Oracle (`ALL_TABLES`) dictionary
 *   views is. (The Go driverbase helper `PatternToRegexp` in go/adbc/driver/internal/shared_utils.go compiles
 *   with `(?i)`, i.e. case-insensitively; the PostgreSQL C driver uses `LIKE`, case-sensitive. ADBC leaves it
 *   open; we follow the databases.)
 * - `_` matches one Unicode code point (not one UTF-16 code unit), so `_` matches `"😀"`.
 */

/** A compiled search pattern: `true` when the (possibly missing) name matches. */
export type PatternMatcher = (name: string | null | undefined) => boolean

const matchAll: PatternMatcher = () => true
const matchMissingOrEmpty: PatternMatcher = (name) => name === null || name === undefined || name === ""

const regexSyntax = /[\\^$.*+?()[\]{}|/]/g

/** Translates a pattern into an anchored, case-sensitive regular expression source (metacharacters escaped). */
export const patternToRegExpSource = (pattern: string): string => {
  let source = "^"
  for (const char of pattern) {
    if (char === "%") source += "[^]*"
    else if (char === "_") source += "[^]"
    else source += char.replace(regexSyntax, "\\$&")
  }
  return source + "$"
}

const compile = (pattern: string): PatternMatcher => {
  if (pattern === "") return matchMissingOrEmpty
  if (!/[%_]/.test(pattern)) return (name) => name === pattern
  if (/^%+$/.test(pattern)) return (name) => name !== null && name !== undefined
  const regex = new RegExp(patternToRegExpSource(pattern), "u")
  return (name) => name !== null && name !== undefined && regex.test(name)
}

const cacheLimit = 256
const cache = new Map<string, PatternMatcher>()

/**
 * Compiles an ADBC search pattern into a matcher (see the module comment for the exact semantics).
 * Compiled matchers are cached, so calling this per request is cheap.
 */
export const compilePattern = (pattern: string | null | undefined): PatternMatcher => {
  if (pattern === null || pattern === undefined) return matchAll
  let matcher = cache.get(pattern)
  if (matcher === undefined) {
    matcher = compile(pattern)
    if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!)
    cache.set(pattern, matcher)
  }
  return matcher
}

/** One-shot convenience: does `name` match `pattern`? */
export const matchesPattern = (pattern: string | null | undefined, name: string | null | undefined): boolean =>
  compilePattern(pattern)(name)

/**
 * How a driver can pre-filter a dictionary query with a search pattern (the core filters again, so a
 * pre-filter only has to be no narrower than the pattern):
 * - `All`: no filter.
 * - `Missing`: `""` — only objects without a name; a driver whose objects always have a name (every HANA and
 *   Oracle schema and table does) can return nothing. Do not bind `""`: Oracle treats `''` as NULL.
 * - `Equals`: no wildcard; `name = ?` with `value`.
 * - `Like`: `name LIKE ?` with `pattern` unchanged and no ESCAPE clause. ADBC patterns are SQL LIKE patterns
 *   without escaping, and neither HANA nor Oracle has a default LIKE escape character (SAP "Like predicate":
 *   https://help.sap.com/saphelp_nwce10/helpdata/en/e0/4cc71fd0bb40d78c2a7cd6aa6a8b59/content.htm — ESCAPE is
 *   optional; Oracle: "no default escape character", cited in https://issues.apache.org/jira/browse/FLINK-39402).
 */
export type PatternPushdown =
  | { readonly _tag: "All" }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Equals"; readonly value: string }
  | { readonly _tag: "Like"; readonly pattern: string }

/** Classifies a search pattern for pushdown into a dictionary query (see {@link PatternPushdown}). */
export const patternPushdown = (pattern: string | null | undefined): PatternPushdown =>
  pattern === null || pattern === undefined
    ? { _tag: "All" }
    : pattern === ""
    ? { _tag: "Missing" }
    : /[%_]/.test(pattern)
    ? { _tag: "Like", pattern }
    : { _tag: "Equals", value: pattern }
