/**
 * Synonyms where a statement names a sequence or a remote object, and the namespace a private synonym shares with
 * tables, views and sequences; raw node-oracledb against the Oracle test server.
 * - A synonym may stand for a sequence: `syn.NEXTVAL` / `syn.CURRVAL` use it (SQL Language Reference, "CREATE
 *   SYNONYM": "a synonym for a table, view, sequence, ..."; "Sequence Pseudocolumns": `[schema.]sequence.NEXTVAL`).
 * - A private synonym's name is in the schema's one namespace with tables, views and sequences ("Database Object
 *   Naming Rules"): creating one of those under it is ORA-00955; a public synonym's name is not.
 * - A describe-only call (oracledb `getStatementInfo`) resolves a synonym as the statement would; a PL/SQL call of a
 *   synonym of a procedure calls it ("CREATE SYNONYM": synonyms of procedures and functions).
 * - An object over a database link (`t@link`) on a database without that link fails ORA-02019 "connection
 *   description for remote database not found" when a statement uses it, also through a synonym, which is created
 *   without checking the link (Database Administrator's Guide, "Database Links"; Database Error Messages, ORA-02019).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, oraCode, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: synonyms of sequences and remote objects, and their namespace", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let dba: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const rows = async (conn: Conn, sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    app = await s.connect("app", "app")
    dba = await s.connect("dba", "dba")
    await app.execute("CREATE SEQUENCE seq_a")
    await app.execute("CREATE TABLE t_a (id NUMBER)")
  })
  afterAll(async () => {
    for (const c of [app, dba]) await c?.close()
    await server?.close()
  })

  it("takes NEXTVAL and CURRVAL through a private, a qualified and a public synonym of a sequence", async () => {
    await app.execute("CREATE SYNONYM s_seq FOR seq_a")
    expect(await rows(app, "SELECT s_seq.NEXTVAL FROM dual")).toEqual([[1]])
    expect(await rows(app, "SELECT s_seq.CURRVAL, seq_a.CURRVAL FROM dual")).toEqual([[1, 1]])
    await app.execute("INSERT INTO t_a VALUES (app.s_seq.NEXTVAL)")
    expect(await rows(app, "SELECT id FROM t_a")).toEqual([[2]])
    await dba.execute("CREATE PUBLIC SYNONYM p_seq FOR app.seq_a")
    expect(await rows(app, "SELECT p_seq.NEXTVAL FROM dual")).toEqual([[3]])
    expect(await rows(app, `SELECT "APP"."SEQ_A".NEXTVAL, "SEQ_A".CURRVAL FROM dual`)).toEqual([[4, 4]])
    await app.rollback()
  })

  it("refuses a table, view or sequence named like a private synonym (ORA-00955), not like a public one", async () => {
    await app.execute("CREATE SYNONYM s_t FOR t_a")
    expect(await code(app, "CREATE TABLE s_t (x NUMBER)")).toBe("ORA-00955")
    expect(await code(app, "CREATE VIEW s_t AS SELECT 1 x FROM dual")).toBe("ORA-00955")
    expect(await code(app, "CREATE SEQUENCE s_t")).toBe("ORA-00955")
    await dba.execute("CREATE PUBLIC SYNONYM p_t FOR app.t_a")
    await app.execute("CREATE TABLE p_t (x NUMBER)")
    expect(await rows(app, "SELECT table_name FROM user_tables WHERE table_name = 'P_T'")).toEqual([["P_T"]])
  })

  it("fails a reference over a database link with ORA-02019, directly or through a synonym created for it", async () => {
    const e = await failure(() => app.execute("SELECT * FROM t_a@remote_db"))
    expect(oraCode(e)).toBe("ORA-02019")
    expect(e.message).toContain("connection description for remote database not found")
    expect(await code(app, "INSERT INTO t_a@remote_db VALUES (1)")).toBe("ORA-02019")
    expect(await code(app, "DELETE FROM app.t_a@remote.example.com WHERE id = 1")).toBe("ORA-02019")
    await app.execute("CREATE SYNONYM s_remote FOR t_a@remote_db")
    expect(await rows(app, "SELECT synonym_name, table_name, db_link FROM user_synonyms WHERE synonym_name = 'S_REMOTE'")).toEqual([["S_REMOTE", "T_A", "REMOTE_DB"]])
    expect(await code(app, "SELECT * FROM s_remote")).toBe("ORA-02019")
    expect(await rows(app, "SELECT COUNT(*) FROM dual WHERE 'a@b' <> 'x'")).toEqual([[1]])
  })

  it("describes a query of a synonym without running it, and calls a procedure through a synonym from PL/SQL", async () => {
    await app.execute("CREATE TABLE t_d (a NUMBER, b VARCHAR2(5))")
    await app.execute("CREATE SYNONYM s_d FOR t_d")
    const info = await app.getStatementInfo("SELECT * FROM s_d")
    expect((info.metaData as Array<{ name: string }> | undefined)?.map((m) => m.name)).toEqual(["A", "B"])
    await app.execute("CREATE OR REPLACE PROCEDURE p_set (x OUT NUMBER) AS BEGIN x := 42; END;")
    await app.execute("CREATE SYNONYM s_p FOR p_set")
    const r = await app.execute("BEGIN s_p(:x); END;", { x: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds).toEqual({ x: 42 })
    await dba.execute("CREATE PUBLIC SYNONYM p_p FOR app.p_set")
    const viaPublic = await dba.execute("BEGIN p_p(:x); END;", { x: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(viaPublic.outBinds).toEqual({ x: 42 })
  })

  it("resolves synonyms in the SQL statements of a PL/SQL block, not in its INTO targets", async () => {
    await app.execute("CREATE TABLE t_b (id NUMBER, v VARCHAR2(10))")
    await app.execute("CREATE SYNONYM s_b FOR t_b")
    await app.execute("CREATE SYNONYM v FOR t_a")
    const r = await app.execute(
      `DECLARE v VARCHAR2(10); n NUMBER;
       BEGIN
         INSERT INTO s_b (id, v) VALUES (s_seq.NEXTVAL, 'x') RETURNING id INTO n;
         UPDATE s_b SET v = 'y' WHERE id = n;
         SELECT s_b.v INTO v FROM s_b WHERE id = n;
         FOR row IN (SELECT COUNT(*) c FROM s_b) LOOP :c := row.c; END LOOP;
         :v := v;
         DELETE FROM s_b;
       END;`,
      { c: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, v: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(r.outBinds).toEqual({ c: 1, v: "y" })
    expect(await rows(app, "SELECT COUNT(*) FROM t_b")).toEqual([[0]])
    await app.rollback()
  })
})
