/**
 * A stored unit's compile errors as USER_ERRORS lists them (line and column in the stored text) and the ORA-24344
 * warning its CREATE answers with (stored-code.ts describes both).
 */
import { lineColumn, PlsCompileError } from "./errors.ts"
import type { PlsqlHost } from "./host.ts"

/** One compile error of a stored unit: line and column in its stored text, and the PLS- message. */
export interface CompileError {
  readonly line: number
  readonly position: number
  readonly text: string
}

const warned = new WeakSet<PlsqlHost>()

/** Marks that the session's current CREATE compiled with errors (the end of call carries the warning). */
export const noteCompileWarning = (host: PlsqlHost): void => {
  warned.add(host)
}

/** Whether the session's last CREATE compiled with errors; clears the mark. */
export const takeCompileWarning = (host: PlsqlHost): boolean => warned.delete(host)

/** The text Oracle stores for a CREATE statement: from the unit's keyword on (`PROCEDURE p ...`), no CREATE [OR REPLACE]. */
export const storedText = (sql: string): string => sql.replace(/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NON)?EDITIONABLE\s+)?/i, "").replace(/\s*\/\s*$/, "")

/** A compile error of `sql` as a position in its stored text. */
export const compileErrorIn = (sql: string, e: PlsCompileError): CompileError => {
  const m = /^line (\d+), column (\d+):\n(PLS-[\s\S]*)$/.exec(e.detail)
  const stored = storedText(sql)
  const offset = sql.indexOf(stored)
  if (m === null) return { line: 1, position: 1, text: e.detail }
  const lines = sql.split("\n")
  const absolute = lines.slice(0, Number(m[1]) - 1).reduce((n, l) => n + l.length + 1, 0) + Number(m[2]) - 1
  const at = lineColumn(stored, Math.max(0, absolute - offset))
  return { line: at.line, position: at.column, text: m[3]!.trimEnd() }
}

/** ORA-06575 for an invalid function called from SQL (Error Messages, ORA-06575). */
export const invalidFromSql = (name: string) => `Package or function ${name} is in an invalid state`
