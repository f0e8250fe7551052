/**
 * The error offset Oracle reports with a parse-time error (oracledb's `error.offset`, the byte position in the
 * statement): for ORA-00904 the invalid identifier, for ORA-00942 the table name, for ORA-00936 after a bare SELECT
 * the FROM where an expression was expected. Errors that already carry a position, or whose name cannot be found in
 * the text, keep theirs.
 */
import { OraError } from "./errors.ts"
import { tokenize } from "./lexer.ts"

/** `error` with its position set from the statement text `sql`, where Oracle would point. */
export const withErrorOffset = (error: OraError, sql: string): OraError => {
  if (error.position !== 0) return error
  let target: ((t: { kind: string; value: string }, k: number, all: ReadonlyArray<{ kind: string; value: string }>) => boolean) | undefined
  if (error.code === 904 || error.code === 942) {
    const names = [...error.detail.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
    const name = names.at(-1)
    if (name === undefined) return error
    target = (t) => (t.kind === "ident" || t.kind === "qident") && t.value === name
  } else if (error.code === 936) {
    target = (t, k, all) => t.kind === "ident" && t.value === "FROM" && all[k - 1]?.value === "SELECT"
  } else return error
  const toks = tokenize(sql).filter((t) => t.kind !== "ws")
  const at = toks.findIndex((t, k) => target(t, k, toks))
  if (at < 0) return error
  const position = Buffer.byteLength(sql.slice(0, toks[at]!.pos), "utf8")
  return Object.assign(new OraError(error.code, error.detail, position), { rowOffset: (error as OraError & { rowOffset?: number }).rowOffset })
}
