/**
 * Reversible mapping between Oracle identifiers (case-sensitive once quoted) and DuckDB catalog names
 * (case-insensitive even when quoted).
 *
 * Encoding: lower-case letters become `$` + letter and `$` becomes `$$`; every other character is kept.
 * An encoded name therefore never differs from another only by letter case, so `"MyTable"` (-> `M$yT$a$b$l$e`)
 * and `MYTABLE` stay distinct in DuckDB. Decoding: a DuckDB name containing `$` is decoded exactly; a name
 * without `$` was created from an unquoted identifier (DuckDB keeps whatever case it was typed in) and is
 * upper-cased, which is how Oracle stores unquoted identifiers.
 */

const isLower = (ch: string) => ch !== ch.toUpperCase() && ch === ch.toLowerCase()

/** Encodes an exact Oracle identifier into the DuckDB catalog name. */
export const encodeName = (oracleName: string): string => {
  let out = ""
  for (const ch of oracleName) {
    if (ch === "$") out += "$$"
    else if (isLower(ch)) out += "$" + ch
    else out += ch
  }
  return out
}

/** Decodes a DuckDB catalog name back to the Oracle identifier. */
export const decodeName = (duckName: string): string => {
  if (!duckName.includes("$")) return duckName.toUpperCase()
  let out = ""
  for (let i = 0; i < duckName.length; i++) {
    const ch = duckName[i]!
    if (ch === "$" && i + 1 < duckName.length) {
      const next = duckName[i + 1]!
      out += next === "$" ? "$" : next.toLowerCase()
      i++
    } else {
      out += ch.toUpperCase()
    }
  }
  return out
}

/** Quotes a DuckDB identifier. */
export const quoteDuck = (duckName: string): string => `"${duckName.replace(/"/g, '""')}"`

/** The DuckDB identifier (quoted) for an exact Oracle identifier. */
export const duckIdent = (oracleName: string): string => quoteDuck(encodeName(oracleName))
