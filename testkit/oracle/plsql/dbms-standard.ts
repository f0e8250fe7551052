/**
 * DBMS_STANDARD's RAISE_APPLICATION_ERROR(num, msg [, keep]): raises ORA-<-num> with the message, for num in
 * -20000..-20999; another number fails ORA-21000 (Oracle Database PL/SQL Language Reference, "PL/SQL Error Handling",
 * RAISE_APPLICATION_ERROR Procedure).
 */
import { OraError } from "../errors.ts"
import type { BuiltinPackage } from "./context.ts"
import { wrongArguments } from "./arguments.ts"

/** RAISE_APPLICATION_ERROR (callable unqualified or as DBMS_STANDARD.RAISE_APPLICATION_ERROR). */
export const dbmsStandard: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "RAISE_APPLICATION_ERROR") return false
  if (args.length < 2 || args.length > 3) throw wrongArguments(procedure)
  const num = Number(await ctx.evaluate(args[0]!))
  const message = await ctx.evaluate(args[1]!)
  if (!Number.isInteger(num) || num > -20000 || num < -20999)
    throw new OraError(21000, `error number argument to raise_application_error of ${String(num)} is out of range`)
  throw new OraError(-num, message === null ? "" : String(message))
}
