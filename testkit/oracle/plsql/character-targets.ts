/**
 * Values converted to VARCHAR2 where PL/SQL converts them implicitly: assigned to a character variable or bind, passed
 * to DBMS_OUTPUT.PUT_LINE. An interval expression (an INTERVAL variable, `v * 2`) becomes TO_CHAR of it, which prints
 * Oracle's interval literal form as TO_CHAR does (SQL Language Reference, "Implicit Data Conversion": an INTERVAL
 * converts to VARCHAR2; "INTERVAL DAY TO SECOND Data Type" for the form), not the engine's `1 day 02:00:00`.
 */
import { isOp, type Tok } from "../lexer.ts"
import { bindSpecType } from "../results.ts"
import { oracleName } from "../translate.ts"
import type { Expr, TypeSpec } from "./ast.ts"
import type { Frame } from "./context.ts"
import { resolveType } from "./conversion.ts"
import { expressionKind, isInterval } from "./interval-text.ts"
import { bindNames, boundKinds } from "./render.ts"
import { lookup } from "./scope.ts"

const CHARACTER = /^(VARCHAR2|VARCHAR|NVARCHAR2|CHAR|NCHAR|STRING|CHARACTER|CLOB|NCLOB|LONG)$/

/** Whether assignment target `target` (one variable or bind) holds character values. */
export const isCharacterTarget = (ctx: Frame, target: Expr): boolean => {
  const t = target[0]
  if (t === undefined || target.length !== 1) return false
  if (t.kind === "bind") {
    const kind = bindSpecType(ctx.binds.specs?.[ctx.binds.binds.get(t.value) ?? -1])?.kind
    return kind === "varchar" || kind === "nvarchar"
  }
  const slot = t.kind === "ident" || t.kind === "qident" ? lookup(ctx, oracleName(t)) : undefined
  if (slot?.k !== "var" || slot.type === undefined) return false
  const named = (type: TypeSpec) => type.kind === "named" && CHARACTER.test(type.name)
  if (named(slot.type)) return true
  try {
    return named(resolveType(ctx, slot.type, t.pos))
  } catch {
    // (a type that does not resolve: the assignment reports it)
    return false
  }
}

const op = (text: string, pos: number): Tok => ({ kind: "op", text, value: text, pos })

/** `expr` as the VARCHAR2 it converts to: TO_CHAR of it when it is an interval expression, else as it is. */
export const asCharacter = (ctx: Frame, expr: Expr): Expr => {
  if (!expr.some((t) => t.kind === "bind" || t.kind === "ident" || t.kind === "qident") || expr.some((t) => isOp(t, "||"))) return expr
  let kind
  try {
    const { rewritten, kinds, types } = bindNames(ctx, expr, false)
    kind = expressionKind(rewritten, 0, rewritten.length, boundKinds(kinds, types))
  } catch {
    // (a name that is no value: the evaluation reports it)
    return expr
  }
  const pos = expr[0]!.pos
  return isInterval(kind) ? [{ kind: "ident", text: "TO_CHAR", value: "TO_CHAR", pos }, op("(", pos), ...expr, op(")", pos)] : expr
}
