import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"

/** LOCK TABLE through raw hdb: accepted, and EXCLUSIVE holds the table's rows against other writers until COMMIT. */
describe("HANA test server: LOCK TABLE", () => {
  let server: HanaTestServerHandle
  let a: HdbClient
  let b: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    const options = { host: server.host, port: server.port, user: server.user, password: server.password }
    a = await connect(options)
    b = await connect(options)
  })
  afterAll(async () => {
    closeQuietly(a)
    closeQuietly(b)
    await server.close()
  })

  it("LOCK TABLE t IN EXCLUSIVE MODE holds t's rows until COMMIT: others' NOWAIT fails with 146, their writes wait", async () => {
    await exec(a, "CREATE COLUMN TABLE lk (id INT PRIMARY KEY, v INT)")
    await exec(a, "INSERT INTO lk VALUES (1, 10)")
    a.setAutoCommit(false)
    try {
      expect(await exec(a, "LOCK TABLE lk IN EXCLUSIVE MODE")).toBeUndefined()
      expect(await failure(exec(b, "SELECT * FROM lk FOR UPDATE NOWAIT"))).toMatchObject({ code: 146 })
      expect(await failure(exec(b, "LOCK TABLE lk IN EXCLUSIVE MODE NOWAIT"))).toMatchObject({ code: 146 })
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 100")
      expect(await failure(exec(b, "UPDATE lk SET v = 11 WHERE id = 1"))).toMatchObject({ code: 131 })
      // the holder itself writes on
      expect(await exec(a, "UPDATE lk SET v = 12 WHERE id = 1")).toBe(1)
      await call((cb) => a.commit(cb))
    } finally {
      a.setAutoCommit(true)
    }
    expect(await exec(b, "UPDATE lk SET v = 13 WHERE id = 1")).toBe(1)
    expect(await exec(a, "SELECT v FROM lk")).toEqual([{ V: 13 }])
  })

  it("INTENTIONAL EXCLUSIVE and the autocommit form are accepted; an unknown table is 259, a malformed statement 257", async () => {
    await exec(a, "CREATE COLUMN TABLE lk2 (id INT)")
    expect(await exec(a, `LOCK TABLE "${server.user}".lk2, lk IN INTENTIONAL EXCLUSIVE MODE`)).toBeUndefined()
    expect(await exec(a, "LOCK TABLE lk2 IN EXCLUSIVE MODE WAIT 5")).toBeUndefined()
    expect(await exec(b, "LOCK TABLE lk2 IN EXCLUSIVE MODE NOWAIT")).toBeUndefined()
    expect(await failure(exec(a, "LOCK TABLE no_such IN EXCLUSIVE MODE"))).toMatchObject({ code: 259 })
    expect(await failure(exec(a, "LOCK TABLE lk2 IN SHARE MODE"))).toMatchObject({ code: 257 })
    expect(await failure(exec(a, "LOCK TABLE lk2"))).toMatchObject({ code: 257 })
  })
})
