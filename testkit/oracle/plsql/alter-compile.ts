/**
 * ALTER PROCEDURE | FUNCTION | PACKAGE [schema.]name COMPILE [PACKAGE | SPECIFICATION | BODY] [DEBUG]
 * [PLSQL_CCFLAGS = '...'] [REUSE SETTINGS]: compiles a stored unit again at once (SQL Language Reference 23ai, "ALTER
 * PROCEDURE", "ALTER PACKAGE"). A unit that does not compile stays INVALID with its new errors, and the statement
 * succeeds with the warning ORA-24344 as CREATE does (stored-code.ts); an unknown unit is ORA-04043. A unit whose source
 * holds conditional compilation directives is compiled again from its source as written, with the PLSQL_CCFLAGS the
 * compiler_parameters_clause gives, else with REUSE SETTINGS the ones it was compiled with, else the session's ("ALTER
 * PROCEDURE", compiler_parameters_clause and REUSE SETTINGS).
 */
import { OraError } from "../errors.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import type { PlsqlHost } from "./host.ts"
import { noteCompileWarning } from "./compile-errors.ts"
import { defineProcedure } from "./index.ts"
import { compiledFlagsOf, recompiledStatement } from "./preprocessed-sources.ts"
import { definePackage, findPackage, recompileBody, unitName } from "./stored-packages.ts"
import { recompileProcedure } from "./unit-compilation.ts"

/** Runs ALTER PROCEDURE / FUNCTION / PACKAGE ... COMPILE (`toks` its significant tokens). */
export const alterCompile = (s: PlsqlHost, toks: ReadonlyArray<Tok>): void => {
  const kind = toks[1]!.value
  const { owner, name, next } = unitName(toks, 2, s.schema)
  if (!isKw(toks[next], "COMPILE")) throw new OraError(922, "missing or invalid option")
  const notFound = () => new OraError(4043, `object ${name} does not exist`)
  const settings = compileSettings(toks, next + 1)
  // the PLSQL_CCFLAGS a unit stored as `source` compiles with again
  const flagsFor = (source: string) => settings.ccflags ?? (settings.reuse ? (compiledFlagsOf(s.db, source) ?? s.plsqlCcflags) : s.plsqlCcflags)
  if (kind === "PACKAGE") {
    const def = findPackage(s, owner, name)
    if (def === undefined) throw notFound()
    const part = isKw(toks[next + 1], "SPECIFICATION", "BODY") ? toks[next + 1]!.value : "PACKAGE"
    if (part !== "BODY") {
      const spec = recompiledStatement(s.db, def.spec.source, s.schema, flagsFor(def.spec.source))
      if (spec !== undefined) definePackage(s, spec)
    }
    // the specification alone compiles as it was created; the body (COMPILE, COMPILE BODY) again
    if (part === "SPECIFICATION") return
    const body = def.body === undefined ? undefined : recompiledStatement(s.db, def.body.source, s.schema, flagsFor(def.body.source))
    if (body !== undefined) definePackage(s, body)
    else if (recompileBody(s, findPackage(s, owner, name) ?? def).body?.errors !== undefined) noteCompileWarning(s)
    return
  }
  const proc = s.db.procedures.get(`${owner}.${name}`)
  if (proc === undefined || proc.package !== undefined || (proc.isFunction === true) !== (kind === "FUNCTION")) throw notFound()
  const again = recompiledStatement(s.db, proc.source, s.schema, flagsFor(proc.source))
  if (again !== undefined) defineProcedure(s, again)
  else if (recompileProcedure(s, proc).errors !== undefined) noteCompileWarning(s)
}

/** The compiler_parameters_clause's PLSQL_CCFLAGS (other parameters are taken and ignored) and REUSE SETTINGS. */
const compileSettings = (toks: ReadonlyArray<Tok>, from: number): { readonly ccflags: string | undefined; readonly reuse: boolean } => {
  let ccflags: string | undefined
  let reuse = false
  for (let k = from; k < toks.length; k++) {
    if (isKw(toks[k], "REUSE") && isKw(toks[k + 1], "SETTINGS")) reuse = true
    else if (isKw(toks[k], "PLSQL_CCFLAGS") && isOp(toks[k + 1], "=") && toks[k + 2]?.kind === "str") ccflags = toks[k + 2]!.value
  }
  return { ccflags, reuse }
}
