/**
 * Length limits of text literals in SQL, checked once when a statement is translated (nothing per row): a literal
 * over 4000 bytes is ORA-01704 "string literal too long" (SQL Language Reference, "Text Literals": at most 4000 bytes
 * with MAX_STRING_SIZE = STANDARD; Database Error Messages, ORA-01704), and `||` of literals only whose result passes
 * 4000 bytes is ORA-01489 "result of string concatenation is too long" (SQL Language Reference, "Concatenation
 * Operator": a VARCHAR2 result "is limited to ... 4000 characters if MAX_STRING_SIZE = STANDARD"). PL/SQL, whose
 * strings go to 32767 bytes, does not come here. National literals (N'...') are left alone.
 */
import { OraError } from "./errors.ts"
import { isOp, type Tok } from "./lexer.ts"

/** The most bytes a text literal or a VARCHAR2 result has in SQL (MAX_STRING_SIZE = STANDARD). */
const MAX_TEXT_BYTES = 4000

/** A database character set (AL32UTF8) text literal's length in bytes, or undefined for another token. */
const literalBytes = (t: Tok | undefined): number | undefined => (t?.kind === "str" && !/^[nN]/.test(t.text) ? Buffer.byteLength(t.value, "utf8") : undefined)

/** Throws ORA-01704 for a text literal of `toks` over 4000 bytes, ORA-01489 for `||` of literals only over 4000. */
export const checkTextLiterals = (toks: ReadonlyArray<Tok>): void => {
  const sig = toks.filter((t) => t.kind !== "ws")
  let chain = 0
  for (let k = 0; k < sig.length; k++) {
    const bytes = literalBytes(sig[k])
    if (bytes === undefined) continue
    if (bytes > MAX_TEXT_BYTES) throw new OraError(1704, "string literal too long", sig[k]!.pos)
    // a run of literals joined by `||` is part of one concatenation, whatever else it joins
    chain = isOp(sig[k - 1], "||") && literalBytes(sig[k - 2]) !== undefined ? chain + bytes : bytes
    if (chain > MAX_TEXT_BYTES) throw new OraError(1489, "result of string concatenation is too long", sig[k]!.pos)
  }
}
