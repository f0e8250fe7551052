/**
 * The session attributes oracledb sends as piggybacks and PL/SQL sets: end-to-end tracing attributes
 * (connection.module, action, clientInfo, clientId, ecid, dbOp), DBMS_APPLICATION_INFO and DBMS_SESSION.SET_IDENTIFIER,
 * seen in V$SESSION and SYS_CONTEXT('USERENV', ...); application contexts (`appContext` at connect,
 * connection.appContext() / clearAppContext() later) seen by SYS_CONTEXT(namespace, attribute), in SQL and PL/SQL.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Conn, oracledb, withServer } from "./oracle/helpers.ts"

const userenv = async (conn: Conn, ...keys: Array<string>): Promise<Array<unknown>> =>
  (await conn.execute(`SELECT ${keys.map((k) => `SYS_CONTEXT('USERENV', '${k}')`).join(", ")} FROM DUAL`)).rows[0]

const ownSession = async (conn: Conn, watcher: Conn): Promise<Array<unknown>> => {
  const sid = Number((await userenv(conn, "SID"))[0])
  return (await watcher.execute("SELECT module, action, client_info, client_identifier, ecid FROM v$session WHERE sid = :1", [sid])).rows[0]
}

describe("Oracle test server: application attributes and contexts", () => {
  it("keeps connection.module / action / clientInfo / clientId / ecid / dbOp, shown by V$SESSION and SYS_CONTEXT", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      const watcher = await connect()
      conn.module = "billing"
      conn.action = "month end"
      conn.clientInfo = "batch 7"
      conn.clientId = "alice@example"
      conn.ecid = "ecid-0001"
      conn.dbOp = "close_books"
      // the attributes travel with the next call, as a piggyback in front of it
      expect(await userenv(conn, "MODULE", "ACTION", "CLIENT_INFO", "CLIENT_IDENTIFIER")).toEqual(["billing", "month end", "batch 7", "alice@example"])
      expect(await ownSession(conn, watcher)).toEqual(["billing", "month end", "batch 7", "alice@example", "ecid-0001"])
      // one attribute changed: the others stay; an empty string clears one
      conn.action = "reconcile"
      conn.clientId = ""
      await conn.ping()
      expect(await ownSession(conn, watcher)).toEqual(["billing", "reconcile", "batch 7", null, "ecid-0001"])
      // in PL/SQL too
      const r = await conn.execute("BEGIN :m := SYS_CONTEXT('USERENV', 'MODULE') || '/' || SYS_CONTEXT('USERENV', 'ACTION'); END;", {
        m: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }
      })
      expect(r.outBinds.m).toBe("billing/reconcile")
      await watcher.close()
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("DBMS_APPLICATION_INFO and DBMS_SESSION.SET_IDENTIFIER set what V$SESSION and SYS_CONTEXT show; READ_MODULE / READ_CLIENT_INFO read it", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      const watcher = await connect()
      await conn.execute(`BEGIN
        DBMS_APPLICATION_INFO.SET_MODULE('payroll', 'load');
        DBMS_APPLICATION_INFO.SET_CLIENT_INFO('from cron');
        DBMS_SESSION.SET_IDENTIFIER('bob');
      END;`)
      expect(await ownSession(conn, watcher)).toEqual(["payroll", "load", "from cron", "bob", null])
      expect(await userenv(conn, "MODULE", "ACTION", "CLIENT_INFO", "CLIENT_IDENTIFIER")).toEqual(["payroll", "load", "from cron", "bob"])
      const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }
      const r = await conn.execute(
        `BEGIN
          DBMS_APPLICATION_INFO.SET_ACTION('verify');
          DBMS_APPLICATION_INFO.READ_MODULE(:m, :a);
          DBMS_APPLICATION_INFO.READ_CLIENT_INFO(:c);
        END;`,
        { m: out, a: out, c: out }
      )
      expect(r.outBinds).toEqual({ m: "payroll", a: "verify", c: "from cron" })
      // values longer than the package allows are cut: module 48 bytes, action 32 bytes
      await conn.execute(`BEGIN DBMS_APPLICATION_INFO.SET_MODULE(RPAD('m', 60, 'm'), RPAD('a', 40, 'a')); DBMS_SESSION.CLEAR_IDENTIFIER; END;`)
      expect(await ownSession(conn, watcher)).toEqual(["m".repeat(48), "a".repeat(32), "from cron", null, null])
      // oracledb's attributes and the package share the values
      conn.module = "from client"
      conn.action = "x"
      const back = await conn.execute("BEGIN DBMS_APPLICATION_INFO.READ_MODULE(:m, :a); END;", { m: out, a: out })
      expect(back.outBinds).toEqual({ m: "from client", a: "x" })
      await watcher.close()
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("sets application contexts from `appContext` at connect and connection.appContext() later, cleared by clearAppContext()", async () => {
    const { server } = await withServer()
    try {
      const conn = await oracledb.getConnection({
        user: server.user,
        password: server.password,
        connectString: server.connectString,
        appContext: [
          ["CLIENTCONTEXT", "tenant", "acme"],
          ["CLIENTCONTEXT", "region", "emea"],
          ["OTHERCTX", "tenant", "globex"]
        ]
      })
      const ctx = async (...pairs: Array<[string, string]>) =>
        (await conn.execute(`SELECT ${pairs.map(([n, k]) => `SYS_CONTEXT('${n}', '${k}')`).join(", ")} FROM DUAL`)).rows[0]
      // namespace and attribute names compare case-insensitively
      expect(await ctx(["CLIENTCONTEXT", "tenant"], ["clientcontext", "REGION"], ["OTHERCTX", "tenant"], ["CLIENTCONTEXT", "missing"])).toEqual(["acme", "emea", "globex", null])
      conn.appContext("CLIENTCONTEXT", [{ region: "apac" }, { tier: "gold" }])
      expect(await ctx(["CLIENTCONTEXT", "tenant"], ["CLIENTCONTEXT", "region"], ["CLIENTCONTEXT", "tier"])).toEqual(["acme", "apac", "gold"])
      const r = await conn.execute("BEGIN :t := SYS_CONTEXT('CLIENTCONTEXT', 'tier'); END;", { t: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } })
      expect(r.outBinds.t).toBe("gold")
      conn.clearAppContext("CLIENTCONTEXT")
      expect(await ctx(["CLIENTCONTEXT", "tenant"], ["CLIENTCONTEXT", "tier"], ["OTHERCTX", "tenant"])).toEqual([null, null, "globex"])
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("answers SYS_CONTEXT('USERENV', ...) for the session's identity, database and client", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      const keys = ["SESSION_USER", "CURRENT_SCHEMA", "DB_NAME", "SERVICE_NAME", "INSTANCE_NAME", "SERVER_HOST", "LANG", "NLS_TERRITORY", "LANGUAGE"]
      expect(await userenv(conn, ...keys)).toEqual([server.user.toUpperCase(), server.user.toUpperCase(), "FREEPDB1", "FREEPDB1", "FREE", "localhost", "US", "AMERICA", "AMERICAN_AMERICA.AL32UTF8"])
      const [sid, osUser, terminal] = await userenv(conn, "SID", "OS_USER", "TERMINAL")
      expect(Number(sid)).toBeGreaterThan(0)
      expect(typeof osUser).toBe("string")
      expect(typeof terminal).toBe("string")
      await conn.close()
    } finally {
      await server.close()
    }
  })
})
