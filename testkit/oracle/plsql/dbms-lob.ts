/**
 * DBMS_LOB's writing procedures on a PL/SQL LOB variable: the variable's new value (plsql-lobs.ts), written back into
 * the row it was read from once the block's transaction holds it (FOR UPDATE or its own DML; ORA-22920 otherwise).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora } from "../errors.ts"
import { isKw, tokenize } from "../lexer.ts"
import { lobRowLockedBy } from "../lob-row-locks.ts"
import { dbmsLobWrite, requireLocked } from "../plsql-lobs.ts"
import { rowLobUpdateSql } from "../returning-lobs.ts"
import { oracleName } from "../translate.ts"
import type { BuiltinPackage } from "./context.ts"
import { wrongArguments } from "./arguments.ts"

const sig = (sql: string) => tokenize(sql).filter((t) => t.kind !== "ws")

/** DBMS_LOB.WRITE / WRITEAPPEND / TRIM / ERASE. */
export const dbmsLob: BuiltinPackage = async (ctx, procedure, args) => {
  const locator = args[0]
  if (locator === undefined || locator.length !== 1) throw wrongArguments(procedure)
  const current = ctx.valueOf(locator)
  if (current === undefined) throw wrongArguments(procedure)
  const values: Array<DuckDBValue> = []
  for (const a of args.slice(1)) values.push(await ctx.evaluate(a))
  const next = dbmsLobWrite(procedure, (current ?? null) as DuckDBValue, values)
  if (next === undefined) throw ora.unimplemented(`DBMS_LOB.${procedure} in PL/SQL`)
  const source = requireLocked(ctx.lobs.get(oracleName(locator[0]!)), (row) => lobRowLockedBy(ctx.host.db, ctx.host.info.sid, row))
  if (source.row === undefined && source.fromWhere.length === 0) throw ora.unimplemented("DBMS_LOB writes through a LOB selected from a join without its row")
  ctx.assign(locator, next)
  if (source.row !== undefined) {
    await ctx.host.runLogged(rowLobUpdateSql(source.row), [next, source.row.rowid])
    return true
  }
  const whereAt = source.fromWhere.findIndex((t) => isKw(t, "WHERE"))
  const table = whereAt < 0 ? source.fromWhere : source.fromWhere.slice(0, whereAt)
  const where = whereAt < 0 ? [] : source.fromWhere.slice(whereAt)
  const column = source.column[source.column.length - 1]!
  await ctx.runDml([...sig("UPDATE"), ...table, ...sig("SET"), column, ...sig("="), locator[0]!, ...where])
  return true
}
