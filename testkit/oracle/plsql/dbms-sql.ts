/**
 * DBMS_SQL as far as clients use it from blocks: RETURN_RESULT(cursor) hands an opened REF CURSOR to the client as
 * an implicit result (Oracle Database PL/SQL Packages and Types Reference, DBMS_SQL.RETURN_RESULT).
 */
import { OraError } from "../errors.ts"
import type { BuiltinPackage } from "./context.ts"
import { wrongArguments } from "./arguments.ts"

/** DBMS_SQL.RETURN_RESULT. */
export const dbmsSql: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "RETURN_RESULT") return false
  const a = args[0]
  if (a === undefined || args.length > 2) throw wrongArguments(procedure)
  const v = ctx.valueOf(a)
  if (v === undefined || v === null || typeof v !== "object" || !("kind" in v)) throw new OraError(1001, "invalid cursor")
  ctx.implicit.push(v)
  return true
}
