import { it } from "@effect/vitest"
import { oracledb, withServer } from "/work/wt/ora-srv-time/test/testkit/oracle/helpers.ts"
const sqls: Array<string> = (process.env.PROBE ?? "").split(";;")
it("probe", async () => {
  const s = await withServer()
  const c = await oracledb.getConnection({ user: s.server.user, password: s.server.password, connectString: s.server.connectString, ...(process.env.TZOPT ? { timezone: process.env.TZOPT } : {}) })
  for (const q of sqls) {
    if (q.trim() === "") continue
    try { const r = await c.execute(q); console.log(q, "=>", JSON.stringify(r.rows ?? r.rowsAffected), r.metaData?.map((m: any) => m.dbTypeName).join(",")) } catch (e) { console.log(q, "!!", (e as Error).message) }
  }
  await c.close(); await s.server.close()
}, 60000)
