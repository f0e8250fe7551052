/** DBMS_SESSION: SET_IDENTIFIER is accepted (the identifier is not kept yet). */
import type { BuiltinPackage } from "./context.ts"

/** DBMS_SESSION.SET_IDENTIFIER. */
export const dbmsSession: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "SET_IDENTIFIER") return false
  for (const a of args) await ctx.evaluate(a)
  return true
}
