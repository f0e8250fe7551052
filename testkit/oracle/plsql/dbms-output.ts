/**
 * DBMS_OUTPUT: ENABLE, DISABLE, PUT, PUT_LINE and NEW_LINE are accepted and their arguments evaluated (so errors in
 * them surface), but nothing is buffered yet: GET_LINE / GET_LINES are not provided.
 */
import type { BuiltinPackage } from "./context.ts"

const ACCEPTED = new Set(["ENABLE", "DISABLE", "PUT", "PUT_LINE", "NEW_LINE"])

/** DBMS_OUTPUT's writing procedures (output discarded). */
export const dbmsOutput: BuiltinPackage = async (ctx, procedure, args) => {
  if (!ACCEPTED.has(procedure)) return false
  for (const a of args) await ctx.evaluate(a)
  return true
}
