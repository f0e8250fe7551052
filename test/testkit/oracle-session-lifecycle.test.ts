import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let connect: () => Promise<Conn>
let conn: Conn

/**
 * A loopback proxy that forwards both ways but keeps the server side of every connection open after the client
 * closes its side, so that what the server does at LOGOFF can be told apart from what it does when the socket closes.
 */
const holdingProxy = async (targetPort: number) => {
  const upstreams: Array<net.Socket> = []
  const proxy = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1")
    upstreams.push(upstream)
    client.on("data", (d) => upstream.write(d))
    upstream.on("data", (d) => {
      if (!client.destroyed) client.write(d)
    })
    client.on("error", () => undefined)
    upstream.on("error", () => undefined)
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const port = (proxy.address() as net.AddressInfo).port
  return {
    port,
    upstreams,
    close: async () => {
      for (const u of upstreams) u.destroy()
      await new Promise<void>((resolve) => proxy.close(() => resolve()))
    }
  }
}

describe("Oracle test server: describing statements and the session's life in V$SESSION", () => {
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    connect = () => s.connect()
    conn = await connect()
    await conn.execute("CREATE TABLE life (id NUMBER PRIMARY KEY, v VARCHAR2(10))")
    await conn.execute("INSERT INTO life VALUES (1, 'one')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("describes (parses) DML, DDL and PL/SQL without running them", async () => {
    // node-oracledb's getStatementInfo sends the statement with the parse-only option (lib/thin/connection.js,
    // getStatementInfo: options.parseOnly); Oracle parses the statement and runs nothing
    const described = [
      "INSERT INTO life VALUES (2, 'two')",
      "UPDATE life SET v = 'changed'",
      "DELETE FROM life",
      "MERGE INTO life t USING (SELECT 3 id FROM dual) s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 'three')",
      "CREATE TABLE life_new (x NUMBER)",
      "DROP TABLE life",
      "TRUNCATE TABLE life",
      "ALTER TABLE life ADD (w NUMBER)",
      "BEGIN INSERT INTO life VALUES (4, 'four'); END;"
    ]
    for (const sql of described) await conn.getStatementInfo(sql)
    expect((await conn.execute("SELECT id, v FROM life ORDER BY id")).rows).toEqual([[1, "one"]])
    expect((await conn.execute("SELECT column_name FROM user_tab_columns WHERE table_name = 'LIFE' ORDER BY column_id")).rows).toEqual([["ID"], ["V"]])
    expect(oraCode(await failure(() => conn.execute("SELECT * FROM life_new")))).toBe("ORA-00942")
    // nothing was left pending either: a rollback finds no change to undo, and a commit none to keep
    await conn.rollback()
    expect((await conn.execute("SELECT COUNT(*) FROM life")).rows).toEqual([[1]])
  })

  it("shows a running query ACTIVE with its SQL_ID, a completed one INACTIVE with SQL_ID NULL", async () => {
    const runner = await connect()
    const watcher = await connect()
    try {
      const sid = Number((await runner.execute("SELECT SYS_CONTEXT('USERENV','SID') FROM DUAL")).rows[0][0])
      const view = async () => (await watcher.execute("SELECT status, sql_id FROM v$session WHERE sid = :1", [sid])).rows[0]
      expect(await view()).toEqual(["INACTIVE", null])
      // a query whose rows are fetched in several round trips: between them the cursor is open but no call runs
      await runner.executeMany("INSERT INTO life VALUES (:1, 'x')", Array.from({ length: 500 }, (_, i) => [i + 10]))
      const rs = (await runner.execute("SELECT id FROM life ORDER BY id", [], { resultSet: true, fetchArraySize: 10 })).resultSet
      await rs.getRows(10)
      expect(await view()).toEqual(["INACTIVE", null])
      await rs.close()
      await runner.rollback()
    } finally {
      await runner.close()
      await watcher.close()
    }
  })

  it("leaves V$SESSION at LOGOFF, before the client's socket closes", async () => {
    const proxy = await holdingProxy(server.port)
    try {
      const leaving = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/${server.serviceName}` })
      const sid = Number((await leaving.execute("SELECT SYS_CONTEXT('USERENV','SID') FROM DUAL")).rows[0][0])
      const listed = async () => (await conn.execute("SELECT COUNT(*) FROM v$session WHERE sid = :1", [sid])).rows[0][0]
      expect(await listed()).toBe(1)
      const sessions = server.sessionCount()
      await leaving.close()
      // the proxy still holds the server's socket open: the session ended on the LOGOFF call itself
      expect(proxy.upstreams.every((u) => !u.destroyed)).toBe(true)
      expect(server.sessionCount()).toBe(sessions)
      expect(await listed()).toBe(0)
    } finally {
      await proxy.close()
    }
  })
})
