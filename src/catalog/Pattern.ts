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
