import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import { failure, oracledb, withServer } from "./oracle/helpers.ts"

// Oracle Database Free runs without shared servers (no dispatchers) and with its connection pool (DRCP) not started,
// so its listener has only the dedicated handler: a connect descriptor asking for `(SERVER=SHARED)` or
// `(SERVER=POOLED)` (Easy Connect `:shared` / `:pooled`) is refused with TNS-12520, "TNS:listener could not find
// available handler for requested type of server" (Database Error Messages, ORA-12520:
// https://docs.oracle.com/en/error-help/db/ora-12520/; Net Services Reference, "SERVER"). DEDICATED is served.
describe("Oracle test server listener: server types Oracle Free does not offer", () => {
  let server: OracleTestServerHandle
  beforeAll(async () => {
    server = (await withServer()).server
  })
  afterAll(async () => {
    await server?.close()
  })
  const at = (cs: string) => oracledb.getConnection({ user: server.user, password: server.password, connectString: cs })
  const descriptor = (data: string) => `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=${server.port}))(CONNECT_DATA=(SERVICE_NAME=FREEPDB1)${data}))`

  it("refuses (SERVER=SHARED) and (SERVER=POOLED) with TNS-12520, in descriptors and Easy Connect", async () => {
    for (const cs of [descriptor("(SERVER=SHARED)"), descriptor("(SERVER=pooled)"), `127.0.0.1:${server.port}/FREEPDB1:shared`, `127.0.0.1:${server.port}/FREEPDB1:pooled`]) {
      expect((await failure(() => at(cs))).message).toContain("12520")
    }
    expect(server.sessionCount()).toBe(0)
  })

  it("still serves (SERVER=DEDICATED)", async () => {
    const c = await at(descriptor("(SERVER=DEDICATED)"))
    expect((await c.execute("SELECT 1 FROM DUAL")).rows).toEqual([[1]])
    await c.close()
  })
})
