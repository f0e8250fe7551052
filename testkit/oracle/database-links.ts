/**
 * References to objects over a database link (`table@link`, SQL Language Reference, "Referring to Objects in Remote
 * Databases"). The server has no database links, so every such reference fails as it does on an Oracle database
 * where the link is not defined: ORA-02019 "connection description for remote database not found" (Database Error
 * Messages, ORA-02019), raised when a statement uses the link, not when a synonym naming it is created (Database
 * Administrator's Guide, "Database Links": if no matching database link is found, Oracle returns an error).
 */
import { OraError } from "./errors.ts"
import { isName, isOp, type Tok } from "./lexer.ts"

/** The error a statement using a database link gets. */
export const linkNotFound = (): OraError => new OraError(2019, "connection description for remote database not found")

/** True when `toks` (significant tokens) name an object over a database link: a name, `@`, a name. */
export const namesDatabaseLink = (toks: ReadonlyArray<Tok>): boolean =>
  toks.some((t, k) => isOp(t, "@") && isName(toks[k - 1]) && isName(toks[k + 1]))


/** ORA-02019 for a statement naming an object over a database link, else undefined. */
export const databaseLinkError = (toks: ReadonlyArray<Tok>): OraError | undefined => (namesDatabaseLink(toks) ? linkNotFound() : undefined)
