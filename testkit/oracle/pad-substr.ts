/**
 * SUBSTR, LPAD and RPAD with Oracle's argument rules (SQL Language Reference, "SUBSTR", "LPAD", "RPAD"), which
 * DuckDB's functions of those names do not follow:
 * - SUBSTR(char, position [, substring_length]): position 0 is 1, a negative one counts back from the end; a length
 *   below 1 gives NULL and one past the end (however large) the rest of the string; "Floating-point numbers passed as
 *   arguments to SUBSTR are automatically converted to integers" (truncated); on RAW, bytes.
 * - LPAD / RPAD(expr1, n [, expr2]): `n` is the length of the result (truncated to an integer), the text cut to it or
 *   padded with expr2 (default one blank) on the left / right; an `n` below 1 or a NULL argument gives NULL.
 * An empty result is NULL, as every empty character value in Oracle. A number argument is its text, as TO_CHAR
 * prints it.
 */
import { BLOB, BOOLEAN, DOUBLE, DuckDBBlobValue, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"

/** The characters (code points) [start, start + length) of SUBSTR's arguments, as array bounds, or undefined for NULL. */
const bounds = (size: number, position: number, length: number): [number, number] | undefined => {
  const p = Math.trunc(position) === 0 ? 1 : Math.trunc(position)
  const start = p > 0 ? p - 1 : size + p
  const n = Math.trunc(length)
  if (start < 0 || start >= size || !(n >= 1)) return undefined
  return [start, start + n]
}

/** SUBSTR of text (by characters); NULL for an empty result. */
export const substrText = (s: string, position: number, length: number): string | null => {
  const chars = Array.from(s)
  const b = bounds(chars.length, position, length)
  return b === undefined ? null : chars.slice(b[0], b[1]).join("") || null
}

/** LPAD (left) or RPAD of `s` to `n` characters with `pad`; NULL for n below 1 or an empty pad. */
export const padText = (s: string, n: number, pad: string, left: boolean): string | null => {
  const width = Math.trunc(n)
  const chars = Array.from(s)
  if (!(width >= 1)) return null
  if (chars.length >= width) return chars.slice(0, width).join("") || null
  const fill = Array.from(pad)
  if (fill.length === 0) return null
  const padding = Array.from({ length: width - chars.length }, (_, k) => fill[k % fill.length]).join("")
  return left ? padding + s : s + padding
}

/** A double's text as Oracle's TO_CHAR prints a NUMBER (no leading 0 before the point). */
const numberText = (x: number): string => String(x).replace(/^(-?)0\./, "$1.")

/** Registers `ora_substr(text | raw | number, position, length)` and `ora_pad(text | number, n, pad, left)`. */
export const registerPadSubstr = (connection: DuckDBConnection): void => {
  for (const f of [
    fn("ora_substr", [VARCHAR, DOUBLE, DOUBLE], VARCHAR, ([s, p, l]) => substrText(String(s), Number(p), Number(l))),
    fn("ora_substr", [DOUBLE, DOUBLE, DOUBLE], VARCHAR, ([s, p, l]) => substrText(numberText(Number(s)), Number(p), Number(l))),
    fn("ora_substr", [BLOB, DOUBLE, DOUBLE], BLOB, ([s, p, l]) => {
      const bytes = (s as DuckDBBlobValue).bytes
      const b = bounds(bytes.length, Number(p), Number(l))
      return b === undefined ? null : new DuckDBBlobValue(bytes.slice(b[0], b[1]))
    }),
    fn("ora_pad", [VARCHAR, DOUBLE, VARCHAR, BOOLEAN], VARCHAR, ([s, n, pad, left]) => padText(String(s), Number(n), String(pad), left === true)),
    fn("ora_pad", [DOUBLE, DOUBLE, VARCHAR, BOOLEAN], VARCHAR, ([s, n, pad, left]) => padText(numberText(Number(s)), Number(n), String(pad), left === true))
  ])
    connection.registerScalarFunction(f)
}

/** The DuckDB call of SUBSTR / LPAD / RPAD over rendered arguments, or undefined for another function. */
export const padSubstrSql = (name: string, args: ReadonlyArray<string>): string | undefined => {
  const number = (x: string) => `CAST(${x} AS DOUBLE)`
  switch (name) {
    case "SUBSTR":
      return `ora_substr(${args[0]}, ${number(args[1]!)}, ${args.length > 2 ? number(args[2]!) : "CAST('Infinity' AS DOUBLE)"})`
    case "LPAD":
    case "RPAD":
      return args.length < 2 ? undefined : `ora_pad(${args[0]}, ${number(args[1]!)}, ${args.length > 2 ? args[2] : "' '"}, ${name === "LPAD"})`
  }
  return undefined
}
