import { describe, expect, it } from "@effect/vitest"
import { failure, oracledb, withServer } from "./oracle/helpers.ts"

/** What node-oracledb reports for a connection the server cut. */
const CUT = /NJS-500|NJS-501|NJS-503|closed|ECONNRESET|EPIPE/

/** Runs `f`, collecting errors the process reports outside any promise chain meanwhile. */
const uncaughtDuring = async (f: () => Promise<void>): Promise<Array<unknown>> => {
  const seen: Array<unknown> = []
  const onError = (e: unknown) => seen.push(e)
  process.on("uncaughtException", onError)
  process.on("unhandledRejection", onError)
  try {
    await f()
    // late socket events
    await new Promise((r) => setTimeout(r, 50))
  } finally {
    process.off("uncaughtException", onError)
    process.off("unhandledRejection", onError)
  }
  return seen
}

describe("Oracle test server: drops in the middle of a call (raw oracledb)", () => {
  for (const reset of [false, true]) {
    const how = reset ? "a reset (RST)" : "a close (FIN)"

    it(`${how} in the middle of an execute's reply fails that execute; the next session works`, async () => {
      const { server, connect } = await withServer()
      try {
        const conn = await connect()
        server.faults.reset = reset
        server.faults.dropOn = "execute"
        const uncaught = await uncaughtDuring(async () => {
          const e = await failure(() => conn.execute("SELECT 1 FROM DUAL"))
          expect(e.message).toMatch(CUT)
        })
        expect(uncaught).toEqual([])
        expect(server.faults.dropOn).toBeUndefined()
        const fresh = await connect()
        expect((await fresh.execute("SELECT 2 FROM DUAL")).rows).toEqual([[2]])
        await fresh.close()
      } finally {
        await server.close()
      }
    })

    it(`${how} in the middle of a FETCH reply fails getRows`, async () => {
      const { server, connect } = await withServer()
      try {
        const conn = await connect()
        await conn.execute("CREATE TABLE t (n NUMBER(10))")
        await conn.executeMany("INSERT INTO t VALUES (:1)", Array.from({ length: 3000 }, (_, i) => [i]))
        await conn.commit()
        const rs = (await conn.execute("SELECT n FROM t", [], { resultSet: true, fetchArraySize: 1000, prefetchRows: 10 })).resultSet
        expect((await rs.getRows(10)).length).toBe(10)
        server.faults.reset = reset
        server.faults.dropOn = "fetch"
        const uncaught = await uncaughtDuring(async () => {
          expect((await failure(() => rs.getRows(1000))).message).toMatch(CUT)
        })
        expect(uncaught).toEqual([])
        expect(server.faults.dropOn).toBeUndefined()
      } finally {
        await server.close()
      }
    })

    it(`${how} in the middle of a LOB read (LOB_OP through a locator) fails the read`, async () => {
      const { server, connect } = await withServer()
      try {
        const conn = await connect()
        await conn.execute("CREATE TABLE l (c CLOB)")
        await conn.execute("INSERT INTO l VALUES (:1)", ["x".repeat(200_000)])
        await conn.commit()
        const lob = (await conn.execute("SELECT c FROM l")).rows[0][0]
        server.faults.reset = reset
        server.faults.dropOn = "lob"
        const uncaught = await uncaughtDuring(async () => {
          expect((await failure(() => lob.getData())).message).toMatch(CUT)
        })
        expect(uncaught).toEqual([])
        expect(server.faults.dropOn).toBeUndefined()
      } finally {
        await server.close()
      }
    })
  }

  it("a reset while no call is in flight reaches the client's socket as ECONNRESET: nothing is thrown, the next call fails", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      server.faults.reset = true
      server.faults.dropAfterReplies = 1
      const uncaught = await uncaughtDuring(async () => {
        expect((await conn.execute("SELECT 1 FROM DUAL")).rows).toEqual([[1]])
        // the RST follows the reply: the client socket's 'error' event comes while the connection is idle
        await new Promise((r) => setTimeout(r, 100))
        expect(conn.isHealthy()).toBe(false)
        expect((await failure(() => conn.execute("SELECT 2 FROM DUAL"))).message).toMatch(CUT)
      })
      expect(uncaught).toEqual([])
      delete server.faults.dropAfterReplies
      const fresh = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
      expect((await fresh.execute("SELECT 3 FROM DUAL")).rows).toEqual([[3]])
      await fresh.close()
    } finally {
      await server.close()
    }
  })
})
