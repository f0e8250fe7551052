/**
 * The LOB locator a DBMS_LOB call names (a PL/SQL variable or a bind): the key its state has in the frame's `lobs`
 * (plsql-lobs.ts), whether it is a temporary LOB, and the LOB type it is declared with. A LOB value that came from
 * no table row (an assignment, CREATETEMPORARY) is a temporary LOB, as Oracle's implicit temporary LOBs are
 * (SecureFiles and Large Objects Developer's Guide, "Temporary LOBs").
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import type { Tok } from "../lexer.ts"
import type { LobSource } from "../plsql-lobs.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import type { Frame } from "./context.ts"
import { lookup } from "./scope.ts"

/** The key of a locator variable (its name) or bind (`:name`) in the frame's `lobs`. */
export const locatorKey = (t: Tok): string => (t.kind === "bind" ? `:${t.value}` : oracleName(t))

/** Whether a locator with this state and value is a temporary LOB (NULL: none at all). */
export const isTemporaryLob = (source: LobSource | undefined, value: DuckDBValue): boolean =>
  value !== null && (source === undefined || source.temporary === true)

/**
 * ORA-06502 with ORA-22275 for a NULL locator (never initialized, or freed), as PL/SQL reports a DBMS_LOB call on one
 * (Error Messages, ORA-22275 "invalid LOB locator specified").
 */
export const invalidLocator = (): OraError => new OraError(6502, "PL/SQL: numeric or value error: invalid LOB locator specified: ORA-22275")

/** BLOB bind types (dty 113) and declared types; anything else takes text. */
const BLOB_DTY = 113

/** The LOB type a variable or bind `target` is declared with: "blob" for BLOB, "clob" for anything else. */
export const declaredLobKind = (ctx: Frame, target: Expr): "clob" | "blob" => {
  const t = target.length === 1 ? target[0]! : undefined
  if (t === undefined) return "clob"
  if (t.kind === "bind") {
    const idx = ctx.binds.binds.get(t.value)
    return idx !== undefined && ctx.binds.specs?.[idx]?.dty === BLOB_DTY ? "blob" : "clob"
  }
  const slot = lookup(ctx, oracleName(t))
  return slot?.k === "var" && slot.type?.kind === "named" && slot.type.name === "BLOB" ? "blob" : "clob"
}

/**
 * After `target := expr`: a variable or bind given another value no longer holds the table row's locator it held
 * (its DBMS_LOB writes go to the new, temporary value, not to that row); given another locator variable, it holds
 * that one's row, as a copied locator points to the same LOB (SecureFiles and Large Objects Developer's Guide, "LOB
 * Locators").
 */
export const reassignedLocator = (ctx: Frame, target: Expr, expr: Expr): void => {
  if (target.length !== 1 || ctx.lobs.size === 0) return
  const key = locatorKey(target[0]!)
  const from = expr.length === 1 && (expr[0]!.kind === "ident" || expr[0]!.kind === "qident" || expr[0]!.kind === "bind") ? ctx.lobs.get(locatorKey(expr[0]!)) : undefined
  if (from !== undefined) ctx.lobs.set(key, from)
  else ctx.lobs.delete(key)
}
