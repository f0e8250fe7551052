/**
 * `LIKE pattern ESCAPE 'xy'`: Oracle takes one character as the escape and refuses a longer text literal with
 * ORA-01425 "escape character must be character string of length 1" (SQL Language Reference, "LIKE Condition":
 * "esc_char is a character expression ... of length 1"; Database Error Messages, ORA-01425). The engine would
 * fail only once a row is compared, with an error of its own. An empty literal is NULL in Oracle and not judged here.
 */
import { OraError } from "./errors.ts"
import { isKw, type Tok } from "./lexer.ts"

/** ORA-01425 for the first ESCAPE of a LIKE condition given a text literal longer than one character. */
export const likeEscapeError = (toks: ReadonlyArray<Tok>): OraError | undefined => {
  for (let k = 0; k < toks.length; k++) {
    const escape = toks[k + 1]
    if (isKw(toks[k], "ESCAPE") && escape?.kind === "str" && [...escape.value].length > 1 && toks.slice(0, k).some((t) => isKw(t, "LIKE", "LIKEC", "LIKE2", "LIKE4")))
      return new OraError(1425, "escape character must be character string of length 1")
  }
  return undefined
}
