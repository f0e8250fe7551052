/**
 * DBMS_MVIEW (PL/SQL Packages and Types Reference, "DBMS_MVIEW"; DBMS_SNAPSHOT is its synonym): REFRESH(list
 * [, method, ...]) recomputes each materialized view the comma-separated `list` names from its query and commits
 * (materialized-views.ts: every method gives the complete refresh's rows); ORA-23401 for a name that is none.
 */
import { refreshTargets } from "../materialized-views.ts"
import { argumentsByName } from "./arguments.ts"
import type { BuiltinPackage } from "./context.ts"

/** DBMS_MVIEW's REFRESH. */
export const dbmsMview: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "REFRESH") return false
  const list = argumentsByName(args, ["LIST", "METHOD"]).get("LIST")
  const names = String((list === undefined ? null : await ctx.evaluate(list)) ?? "")
  const options = { batchErrors: false, dmlRowCounts: false }
  for (const view of refreshTargets(ctx.host.db, ctx.host.schema, names)) {
    const target = `"${view.owner}"."${view.name}"`
    view.refreshing = true
    try {
      await ctx.host.execute(`DELETE FROM ${target}`, [[]], [], options)
      await ctx.host.execute(`INSERT INTO ${target} ${view.query}`, [[]], [], options)
    } finally {
      view.refreshing = false
    }
    view.lastRefresh = new Date()
    view.stale = false
  }
  await ctx.host.commit()
  return true
}
