/**
 * The LOB locator a DBMS_LOB call names (a PL/SQL variable or a bind): the key its state has in the frame's `lobs`
 * (plsql-lobs.ts), whether it is a temporary LOB, and the LOB type it is declared with. A LOB value that came from
 * no table row (an assignment, CREATETEMPORARY) is a temporary LOB, as Oracle's implicit temporary LOBs are
 * (SecureFiles and Large Objects Developer's Guide, "Temporary LOBs").
 */
import { Dty } from "../types.ts"
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { isName, isOp, matchParen, type Tok } from "../lexer.ts"
import type { LobSource } from "../plsql-lobs.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import type { CallContext, Frame } from "./context.ts"
import { lookup } from "./scope.ts"

/** The key of a locator variable (its name) or bind (`:name`) in the frame's `lobs`. */
export const locatorKey = (t: Tok): string => (t.kind === "bind" ? `:${t.value}` : oracleName(t))


/**
 * The key of a locator a variable, bind, record field (`r.doc`: `R.DOC`) or collection element (`c(i)`: `C(2)`,
 * its subscripts evaluated; `c(i).doc` too) holds; undefined for any other expression.
 */
export const locatorKeyOf = async (ctx: CallContext, target: Expr): Promise<string | undefined> => {
  const first = target[0]
  if (first === undefined || (first.kind !== "bind" && !isName(first))) return undefined
  let key = locatorKey(first)
  for (let k = 1; k < target.length; ) {
    if (isOp(target[k], ".") && isName(target[k + 1])) {
      key += `.${oracleName(target[k + 1]!)}`
      k += 2
      continue
    }
    if (!isOp(target[k], "(")) return undefined
    const close = matchParen(target, k)
    if (close <= k + 1) return undefined
    key += `(${String(await ctx.evaluate(target.slice(k + 1, close)))})`
    k = close + 1
  }
  return key
}

/** The key of a variable, bind or record field chain (`r.doc`) without subscripts: what an assignment replaces. */
const nameChainKey = (target: Expr): string | undefined => {
  const first = target[0]
  if (first === undefined || (first.kind !== "bind" && !isName(first))) return undefined
  let key = locatorKey(first)
  for (let k = 1; k < target.length; k += 2) {
    if (!isOp(target[k], ".") || !isName(target[k + 1])) return undefined
    key += `.${oracleName(target[k + 1]!)}`
  }
  return key
}

/** Whether a locator with this state and value is a temporary LOB (NULL: none at all). */
export const isTemporaryLob = (source: LobSource | undefined, value: DuckDBValue): boolean =>
  value !== null && (source === undefined || source.temporary === true)

/**
 * ORA-06502 with ORA-22275 for a NULL locator (never initialized, or freed), as PL/SQL reports a DBMS_LOB call on one
 * (Error Messages, ORA-22275 "invalid LOB locator specified").
 */
export const invalidLocator = (): OraError => new OraError(6502, "PL/SQL: numeric or value error: invalid LOB locator specified: ORA-22275")

/** BLOB bind types (dty 113) and declared types; anything else takes text. */

/** The LOB type a variable or bind `target` is declared with: "blob" for BLOB, "clob" for anything else. */
export const declaredLobKind = (ctx: Frame, target: Expr): "clob" | "blob" => {
  const t = target.length === 1 ? target[0]! : undefined
  if (t === undefined) return "clob"
  if (t.kind === "bind") {
    const idx = ctx.binds.binds.get(t.value)
    return idx !== undefined && ctx.binds.specs?.[idx]?.dty === Dty.BLOB ? "blob" : "clob"
  }
  const slot = lookup(ctx, oracleName(t))
  return slot?.k === "var" && slot.type?.kind === "named" && slot.type.name === "BLOB" ? "blob" : "clob"
}

/**
 * After `target := expr`: a variable or bind given another value no longer holds the table row's locator it held
 * (its DBMS_LOB writes go to the new, temporary value, not to that row); given another locator variable, it holds
 * that one's row, as a copied locator points to the same LOB (SecureFiles and Large Objects Developer's Guide, "LOB
 * Locators"); a record or collection copied from another takes its fields' and elements' locators along.
 */
export const reassignedLocator = (ctx: Frame, target: Expr, expr: Expr): void => {
  const key = ctx.lobs.size === 0 ? undefined : nameChainKey(target)
  if (key === undefined) return
  const source = nameChainKey(expr)
  const from = source === undefined ? undefined : ctx.lobs.get(source)
  // a record or collection given a new value holds its fields' or elements' locators only when copied from another
  const inner = (k: string, name: string) => (k.startsWith(`${name}.`) || k.startsWith(`${name}(`) ? k.slice(name.length) : undefined)
  const copied = source === undefined ? [] : [...ctx.lobs].flatMap(([k, v]) => (inner(k, source) === undefined ? [] : [[key + inner(k, source)!, v] as const]))
  for (const k of [...ctx.lobs.keys()]) if (inner(k, key) !== undefined) ctx.lobs.delete(k)
  for (const [k, v] of copied) ctx.lobs.set(k, v)
  if (from !== undefined) ctx.lobs.set(key, from)
  else ctx.lobs.delete(key)
}
