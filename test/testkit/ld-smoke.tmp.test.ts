import { it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec } from "./hana/client.ts"
it("smoke", async () => {
  const server = await startHanaTestServer()
  for (const dfv of [8]) {
  const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: dfv })
  const run = async (sql: string) => { try { console.log(sql.slice(0, 140), "=>", JSON.stringify(await exec(c, sql))) } catch (e) { console.log(sql.slice(0, 140), "ERR", (e as any).code, (e as Error).message) } }
  await run("CREATE TABLE ft (id INTEGER, n NVARCHAR(10), d DATE)")
  await run("INSERT INTO ft VALUES (1, 'abc', '2024-03-17')")
  await run("CREATE TABLE far (d DATE, ts TIMESTAMP, sd SECONDDATE)"); await run("INSERT INTO far (ts) VALUES ('10000-01-01 00:00:00')")
  closeQuietly(c)
  }
  await server.close()
})
