import { it } from "@effect/vitest"
import { withServer } from "./oracle/helpers.ts"
it("probe", async () => {
  const { server, connect } = await withServer()
  const c = await connect()
  const q = async (sql: string) => {
    try { const r = await c.execute(sql); console.log(sql, "=>", JSON.stringify(r.rows), r.metaData?.map((m: any) => m.dbTypeName).join(",")) }
    catch (e) { console.log(sql, "=> ERR", (e as Error).message) }
  }
  await q("CREATE TABLE zq (id NUMBER, ts TIMESTAMP WITH TIME ZONE)")
  await q("CREATE TABLE zl (id NUMBER, ts TIMESTAMP)")
  for (const s of (process.env.PROBE ?? "").split(";;")) if (s.trim() !== "") await q(s)
  await c.close(); await server.close()
}, 60000)
