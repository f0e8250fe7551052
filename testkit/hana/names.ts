/**
 * Reversible mapping between HANA identifiers (case-sensitive when quoted) and DuckDB identifiers (always
 * case-insensitive): every lower-case letter is written as `~` + letter and `~` as `~~`, so `MyTable` becomes
 * `M~yT~a~b~l~e` while `MYTABLE` stays `MYTABLE` — distinct for DuckDB, and decodable.
 */

const NEEDS_ESCAPE = /[~\p{Ll}]/u

/**
 * Upper-case names that DuckDB would read as one of its own catalogs (a schema `SYSTEM`, the default user's, would
 * be ambiguous with DuckDB's `system` catalog): they get a leading `~`, which decodes away like any other escape.
 */
const DUCKDB_CATALOGS: ReadonlySet<string> = new Set(["SYSTEM", "TEMP", "MEMORY"])

/** HANA identifier → DuckDB identifier (unquoted text). */
export const encodeName = (name: string): string => {
  if (DUCKDB_CATALOGS.has(name)) return "~" + name
  if (!NEEDS_ESCAPE.test(name)) return name
  let out = ""
  for (const ch of name) {
    if (ch === "~") out += "~~"
    else if (ch !== ch.toUpperCase() && ch === ch.toLowerCase()) out += "~" + ch
    else out += ch
  }
  return out
}

/** DuckDB identifier → HANA identifier. Names DuckDB made up (expressions) come back unchanged. */
export const decodeName = (name: string): string => (name.includes("~") ? name.replace(/~(.)/gsu, "$1") : name)

/** Double-quoted DuckDB identifier for a HANA identifier. */
export const quoteName = (name: string): string => `"${encodeName(name).replace(/"/g, '""')}"`

/** SQL string literal. */
export const quoteString = (s: string): string => `'${s.replace(/'/g, "''")}'`
