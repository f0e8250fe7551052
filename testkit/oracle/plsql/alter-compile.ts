/**
 * ALTER PROCEDURE | FUNCTION | PACKAGE [schema.]name COMPILE [PACKAGE | SPECIFICATION | BODY] [DEBUG] [REUSE SETTINGS]:
 * compiles a stored unit again at once (SQL Language Reference 23ai, "ALTER PROCEDURE", "ALTER PACKAGE"). A unit that
 * does not compile stays INVALID with its new errors, and the statement succeeds with the warning ORA-24344 as CREATE
 * does (stored-code.ts); an unknown unit is ORA-04043.
 */
import { OraError } from "../errors.ts"
import { isKw, type Tok } from "../lexer.ts"
import type { PlsqlHost } from "./host.ts"
import { noteCompileWarning } from "./compile-errors.ts"
import { findPackage, recompileBody, unitName } from "./stored-packages.ts"
import { recompileProcedure } from "./unit-compilation.ts"

/** Runs ALTER PROCEDURE / FUNCTION / PACKAGE ... COMPILE (`toks` its significant tokens). */
export const alterCompile = (s: PlsqlHost, toks: ReadonlyArray<Tok>): void => {
  const kind = toks[1]!.value
  const { owner, name, next } = unitName(toks, 2, s.schema)
  if (!isKw(toks[next], "COMPILE")) throw new OraError(922, "missing or invalid option")
  const notFound = () => new OraError(4043, `object ${name} does not exist`)
  if (kind === "PACKAGE") {
    const def = findPackage(s, owner, name)
    if (def === undefined) throw notFound()
    // the specification alone compiles as it was created; the body (COMPILE, COMPILE BODY) again
    if (isKw(toks[next + 1], "SPECIFICATION")) return
    if (recompileBody(s, def).body?.errors !== undefined) noteCompileWarning(s)
    return
  }
  const proc = s.db.procedures.get(`${owner}.${name}`)
  if (proc === undefined || proc.package !== undefined || (proc.isFunction === true) !== (kind === "FUNCTION")) throw notFound()
  if (recompileProcedure(s, proc).errors !== undefined) noteCompileWarning(s)
}
