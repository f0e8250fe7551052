/**
 * DBMS_STATS (PL/SQL Packages and Types Reference, DBMS_STATS): the statistics procedures schema scripts, ETL jobs and
 * tests call after loading data. The server keeps no optimizer statistics, so they do nothing once their arguments
 * are checked: GATHER_TABLE_STATS / DELETE_TABLE_STATS / LOCK_TABLE_STATS / UNLOCK_TABLE_STATS need the table
 * (`ownname`, `tabname`, positional or named; ORA-20000 "Unable to analyze TABLE ..., insufficient privileges or does
 * not exist" otherwise), GATHER_INDEX_STATS the index; the schema, database and preference procedures take any
 * arguments.
 */
import { OraError } from "../errors.ts"
import { argumentsByName } from "./arguments.ts"
import type { BuiltinPackage } from "./context.ts"

const TABLE_PROCEDURES = new Set(["GATHER_TABLE_STATS", "DELETE_TABLE_STATS", "LOCK_TABLE_STATS", "UNLOCK_TABLE_STATS"])
const FREE_PROCEDURES = new Set([
  "GATHER_SCHEMA_STATS",
  "GATHER_DATABASE_STATS",
  "GATHER_DICTIONARY_STATS",
  "GATHER_FIXED_OBJECTS_STATS",
  "DELETE_SCHEMA_STATS",
  "LOCK_SCHEMA_STATS",
  "UNLOCK_SCHEMA_STATS",
  "SET_TABLE_PREFS",
  "SET_SCHEMA_PREFS",
  "SET_GLOBAL_PREFS",
  "FLUSH_DATABASE_MONITORING_INFO"
])

/** DBMS_STATS's procedures. */
export const dbmsStats: BuiltinPackage = async (ctx, procedure, args) => {
  if (FREE_PROCEDURES.has(procedure)) return true
  const index = procedure === "GATHER_INDEX_STATS"
  if (!TABLE_PROCEDURES.has(procedure) && !index) return false
  const p = argumentsByName(args, ["OWNNAME", index ? "INDNAME" : "TABNAME"])
  const ownerExpr = p.get("OWNNAME")
  const owner = String((ownerExpr === undefined ? null : await ctx.evaluate(ownerExpr)) ?? ctx.host.schema).toUpperCase()
  const nameExpr = p.get(index ? "INDNAME" : "TABNAME")
  const name = nameExpr === undefined ? "" : String((await ctx.evaluate(nameExpr)) ?? "").toUpperCase()
  const exists = index ? ctx.host.db.catalog.getObject(owner, "INDEX", name) !== undefined : ctx.host.lookupTable(owner, name) !== undefined
  if (!exists) throw new OraError(20000, `Unable to analyze ${index ? "INDEX" : "TABLE"} "${owner}"."${name}", insufficient privileges or does not exist`)
  return true
}
