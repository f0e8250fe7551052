/**
 * UNISTR, ASCIISTR and NLSSORT (SQL Language Reference 23ai):
 * - UNISTR(string): "\xxxx" (four hexadecimal digits, a UTF-16 code unit: a supplementary character as its two
 *   surrogates) is that character and "\\" a backslash; any other backslash is ORA-30186.
 * - ASCIISTR(char): the ASCII characters as they are, every other character as "\xxxx" of its UTF-16 code units, and
 *   a backslash as "\005C".
 * - NLSSORT(char [, 'NLS_SORT = sort']): the collation key (RAW) comparisons and ORDER BY can use; BINARY (the default,
 *   the session's NLS_SORT being BINARY here) is the text's bytes, BINARY_CI the case-folded text's, BINARY_AI the
 *   case-folded text's without accents; the key ends with a zero byte (**unconfirmed**: that is what Oracle is widely
 *   reported to give for BINARY). Linguistic sorts (GERMAN, FRENCH_M, ...) are ORA-03001; an unknown name ORA-12702.
 */
import { BLOB, DuckDBBlobValue, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"

/** UNISTR of `s`. */
export const unistr = (s: string): string =>
  s.replace(/\\(\\|[0-9A-Fa-f]{4})?/g, (_, escape: string | undefined) => {
    if (escape === undefined) throw new OraError(30186, "'\\' must be followed by four hexdecimal characters or another '\\'")
    return escape === "\\" ? "\\" : String.fromCharCode(parseInt(escape, 16))
  })

/** ASCIISTR of `s`. */
export const asciistr = (s: string): string => {
  let out = ""
  for (let k = 0; k < s.length; k++) {
    const unit = s.charCodeAt(k)
    out += unit < 128 && unit !== 0x5c ? s[k] : `\\${unit.toString(16).toUpperCase().padStart(4, "0")}`
  }
  return out
}

/** The linguistic sorts Oracle names that are not modelled here. */
const LINGUISTIC = /^(?:GENERIC_M|GERMAN|FRENCH|SPANISH|XSPANISH|DUTCH|ITALIAN|SWEDISH|DANISH|NORWEGIAN|FINNISH|POLISH|CZECH|WEST_EUROPEAN|UCA0\w*|[A-Z_]+_M)(?:_CI|_AI)?$/

/** NLSSORT's key of `s` under the `NLS_SORT = sort` parameter `nlsparam`. */
export const nlssort = (s: string, nlsparam: string): Uint8Array => {
  const m = /^\s*NLS_SORT\s*=\s*([A-Za-z0-9_]+)\s*$/i.exec(nlsparam)
  if (m === null) throw new OraError(12702, "invalid NLS parameter string used in SQL function")
  const sort = m[1]!.toUpperCase()
  const text =
    sort === "BINARY" ? s : sort === "BINARY_CI" ? s.toLowerCase() : sort === "BINARY_AI" ? s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase() : undefined
  if (text === undefined) {
    if (LINGUISTIC.test(sort)) throw new OraError(3001, `unimplemented feature: NLSSORT with the linguistic sort ${sort}`)
    throw new OraError(12702, "invalid NLS parameter string used in SQL function")
  }
  return Buffer.concat([Buffer.from(text, "utf8"), Buffer.from([0])])
}

/** Registers `ora_unistr`, `ora_asciistr` and `ora_nlssort`. */
export const registerUnicodeEscapes = (connection: DuckDBConnection): void => {
  for (const f of [
    fn("ora_unistr", [VARCHAR], VARCHAR, ([s]) => unistr(String(s)) || null),
    fn("ora_asciistr", [VARCHAR], VARCHAR, ([s]) => asciistr(String(s)) || null),
    fn("ora_nlssort", [VARCHAR, VARCHAR], BLOB, ([s, p]) => new DuckDBBlobValue(nlssort(String(s), String(p))))
  ])
    connection.registerScalarFunction(f)
}

/** The DuckDB call of UNISTR / ASCIISTR / NLSSORT over rendered arguments, or undefined for another function. */
export const unicodeEscapeSql = (name: string, args: ReadonlyArray<string>): string | undefined => {
  switch (name) {
    case "UNISTR":
    case "ASCIISTR":
      return `ora_${name.toLowerCase()}(CAST(${args[0]} AS VARCHAR))`
    case "NLSSORT":
      return `ora_nlssort(CAST(${args[0]} AS VARCHAR), ${args.length > 1 ? args[1] : "'NLS_SORT=BINARY'"})`
  }
  return undefined
}
