/**
 * How Oracle describes a select item that is a bare string literal (`'abc'`, `N'abc'`, optionally aliased; not in set operations, whose branches may differ): text
 * literals have the data type CHAR (NCHAR for N'...') of their length, as DUMP's `Typ=96` shows (Oracle Database SQL
 * Language Reference, "Text Literals": "Text literals have properties of both the CHAR and VARCHAR2 data types");
 * oracledb reports `SELECT 'abc' FROM dual` as DB_TYPE_CHAR of byteSize 3. The empty literal is NULL and keeps the
 * translator's type.
 */
import { isKw, type Tok } from "./lexer.ts"
import { charType, type OraType } from "./types.ts"

/** CHAR(bytes) / NCHAR(characters) of a lone string literal item, or undefined for any other item. */
export const stringLiteralType = (part: ReadonlyArray<Tok>): OraType | undefined => {
  const sig = part.filter((t) => t.kind !== "ws")
  const lit = sig[0]
  if (lit?.kind !== "str" || lit.value === "") return undefined
  const rest = sig.slice(1)
  const aliasOnly = rest.length === 0 || (rest.length === 1 && (rest[0]!.kind === "ident" || rest[0]!.kind === "qident")) || (rest.length === 2 && isKw(rest[0], "AS"))
  if (!aliasOnly) return undefined
  const characters = [...lit.value].length
  // a CHAR literal's size is its bytes, but it holds exactly its characters (no blank padding)
  return /^[nN]'/.test(lit.text) ? charType("NCHAR", characters) : { ...charType("CHAR", characters), maxSize: Buffer.byteLength(lit.value, "utf8") }
}
