/**
 * Request pipelining as node-oracledb 26 drives it (`connection.runPipeline()`, Oracle Database 23ai): every
 * operation is sent before any answer is read; the server answers each in order (the client checks each answer's
 * token), an error in the middle answered as oracledb documents its `continueOnError` argument.
 */
import { describe, expect, it } from "@effect/vitest"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"
import { startRoundTripProxy } from "./oracle/proxy.ts"

/** The TNS DATA packets in `bytes` (large SDU framing) whose data flags mark the end of a request. */
const requestsIn = (bytes: Buffer): number => {
  let n = 0
  for (let o = 0; o + 10 <= bytes.length; ) {
    const len = bytes.readUInt32BE(o)
    if (len < 8) break
    if (bytes[o + 4] === 6 && (bytes.readUInt16BE(o + 8) & 0x0800) !== 0) n++
    o += len
  }
  return n
}

describe("Oracle test server: request pipelining (oracledb runPipeline)", () => {
  it("answers every operation of a pipeline in order, all of them sent before the first answer is read", async () => {
    const { server } = await withServer()
    const proxy = await startRoundTripProxy(server.port)
    try {
      const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
      await conn.execute("CREATE TABLE pipe (n NUMBER(5), s VARCHAR2(10))")
      const p = new oracledb.Pipeline()
      p.addExecute("INSERT INTO pipe VALUES (1, 'one')")
      p.addExecuteMany("INSERT INTO pipe VALUES (:1, :2)", [[2, "two"], [3, "three"], [4, "four"]])
      p.addFetchAll("SELECT n, s FROM pipe ORDER BY n")
      p.addFetchOne("SELECT s FROM pipe WHERE n = :n", { n: 3 })
      p.addFetchMany("SELECT n FROM pipe ORDER BY n DESC", [], {}, 2)
      p.addExecute("BEGIN :out := :a * 2; END;", { out: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, a: 21 })
      p.addExecute("UPDATE pipe SET s = UPPER(s) WHERE n <= 2")
      p.addCommit()
      // hold the first answer until the client has sent all 8 operations and the end of the pipeline
      let release!: () => void
      let holding = true
      server.faults.holdReplies = () => {
        if (!holding) return undefined
        holding = false
        return new Promise<void>((r) => (release = r))
      }
      const sentBefore = proxy.clientBytes().length
      const answeredBefore = proxy.serverBytes().length
      const running = conn.runPipeline(p)
      // the first answer is held and the client has sent every request: the pipeline did not wait for answers
      while (holding || requestsIn(proxy.clientBytes().subarray(sentBefore)) < 9) await new Promise((r) => setImmediate(r))
      expect(proxy.serverBytes().length).toBe(answeredBefore)
      release()
      const results = await running
      delete server.faults.holdReplies
      expect(results).toHaveLength(8)
      expect(results[0].rowsAffected).toBe(1)
      expect(results[1].rowsAffected).toBe(3)
      expect(results[2].rows).toEqual([[1, "one"], [2, "two"], [3, "three"], [4, "four"]])
      expect(results[3].rows).toEqual([["three"]])
      expect(results[4].rows).toEqual([[4], [3]])
      expect(results[5].outBinds).toEqual({ out: 42 })
      expect(results[6].rowsAffected).toBe(2)
      for (const r of results) expect(r?.error).toBeUndefined()
      // committed by the pipeline's COMMIT: another session sees the rows
      const other = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
      expect((await other.execute("SELECT s FROM pipe ORDER BY n")).rows).toEqual([["ONE"], ["TWO"], ["three"], ["four"]])
      await other.close()
      await conn.close()
    } finally {
      await proxy.close()
      await server.close()
    }
  })

  it("continueOnError: an operation that fails carries its error, the ones after it still run", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      await conn.execute("CREATE TABLE pc (n NUMBER(5) PRIMARY KEY)")
      const p = new oracledb.Pipeline()
      p.addExecute("INSERT INTO pc VALUES (1)")
      p.addExecute("INSERT INTO pc VALUES (1)")
      p.addExecute("INSERT INTO no_such_table VALUES (1)")
      p.addExecute("INSERT INTO pc VALUES (2)")
      p.addFetchAll("SELECT n FROM pc ORDER BY n")
      const results = await conn.runPipeline(p, true)
      expect(results[0].rowsAffected).toBe(1)
      expect(oraCode(results[1].error)).toBe("ORA-00001")
      expect(oraCode(results[2].error)).toBe("ORA-00942")
      expect(results[3].rowsAffected).toBe(1)
      expect(results[4].rows).toEqual([[1], [2]])
      // the session goes on normally after the pipeline
      expect((await conn.execute("SELECT COUNT(*) FROM pc")).rows).toEqual([[2]])
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("without continueOnError: the first error rejects the pipeline and the operations after it do not run (ORA-43610 on the wire)", async () => {
    const { server } = await withServer()
    const proxy = await startRoundTripProxy(server.port)
    try {
      const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
      await conn.execute("CREATE TABLE pa (n NUMBER(5))")
      const p = new oracledb.Pipeline()
      p.addExecute("INSERT INTO pa VALUES (1)")
      p.addExecute("INSERT INTO no_such_table VALUES (1)")
      p.addExecute("INSERT INTO pa VALUES (2)")
      p.addExecute("INSERT INTO pa VALUES (3)")
      p.addCommit()
      const e = await failure(() => conn.runPipeline(p))
      expect(oraCode(e)).toBe("ORA-00942")
      // the client reads past the answers of the skipped operations (two inserts and the COMMIT): each is ORA-43610
      const answers = proxy.serverBytes().toString("latin1")
      expect(answers.split("ORA-43610: Pipeline, Aborted due to abort on error settings in pipeline mode").length - 1).toBe(3)
      // neither the inserts after the failure nor the COMMIT ran
      expect((await conn.execute("SELECT n FROM pa ORDER BY n")).rows).toEqual([[1]])
      await conn.rollback()
      expect((await conn.execute("SELECT COUNT(*) FROM pa")).rows).toEqual([[0]])
      // a later pipeline starts afresh
      const q = new oracledb.Pipeline()
      q.addExecute("INSERT INTO pa VALUES (7)")
      q.addFetchOne("SELECT n FROM pa")
      const results = await conn.runPipeline(q)
      expect(results[1].rows).toEqual([[7]])
      await conn.close()
    } finally {
      await proxy.close()
      await server.close()
    }
  })

  it("fetchAll beyond one fetch array and LOB columns: the rows after the pipeline's answers come in normal calls", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      await conn.execute("CREATE TABLE pl (n NUMBER(5), c CLOB)")
      await conn.executeMany("INSERT INTO pl VALUES (:1, :2)", Array.from({ length: 250 }, (_, i) => [i, `text ${i}`]))
      const p = new oracledb.Pipeline()
      p.addFetchAll("SELECT n FROM pl ORDER BY n", [], {}, 100)
      p.addFetchOne("SELECT c FROM pl WHERE n = 7")
      p.addFetchAll("SELECT n, c FROM pl WHERE n < 3 ORDER BY n", [], {}, 100, false)
      p.addExecute("BEGIN NULL; END;")
      const results = await conn.runPipeline(p)
      expect(results[0].rows).toEqual(Array.from({ length: 250 }, (_, i) => [i]))
      expect(await results[1].rows[0][0].getData()).toBe("text 7")
      expect(results[2].rows).toEqual([[0, "text 0"], [1, "text 1"], [2, "text 2"]])
      expect(results[3].error).toBeUndefined()
      expect((await conn.execute("SELECT COUNT(*) FROM pl")).rows).toEqual([[250]])
      await conn.close()
    } finally {
      await server.close()
    }
  })
})
