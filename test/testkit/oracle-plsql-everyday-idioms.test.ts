import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection } from "./oracle/helpers.ts"

/**
 * Everyday PL/SQL idioms applications send, through raw node-oracledb, as the Oracle Database PL/SQL Language
 * Reference (23ai) states them: "PL/SQL Collections and Records" (`INSERT INTO t VALUES rec`, `UPDATE t SET ROW =
 * rec`), "PL/SQL Subprograms" (OUT parameters), "FORALL Statement", "PL/SQL Error Handling" and "SQLERRM Function",
 * "CREATE PROCEDURE Statement" (AUTHID), "Static SQL" (`WHERE CURRENT OF`)
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: everyday PL/SQL idioms", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = () => ({ o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 400 } })
  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("inserts and updates a record into a table with a NUMBER column without precision", async () => {
    await conn.execute("CREATE TABLE rec_num (id NUMBER(10), v NUMBER)")
    await conn.execute(
      `DECLARE r rec_num%ROWTYPE;
      BEGIN
        r.id := 1; r.v := 2.5; INSERT INTO rec_num VALUES r;
        r.v := 3; UPDATE rec_num SET ROW = r WHERE id = 1;
        r.id := 2; r.v := NULL; INSERT INTO rec_num VALUES r;
      END;`
    )
    expect(await rows("SELECT id, v FROM rec_num ORDER BY id")).toEqual([[1, 3], [2, null]])
  })

  it("fills an OUT record parameter (%ROWTYPE, package record type, local record type) by SELECT * INTO and FETCH", async () => {
    await conn.execute("CREATE TABLE out_rec (id NUMBER(10), name VARCHAR2(10))")
    await conn.execute("INSERT INTO out_rec VALUES (1, 'one')")
    await conn.execute("CREATE PROCEDURE out_rowtype (p OUT out_rec%ROWTYPE) IS BEGIN SELECT * INTO p FROM out_rec WHERE id = 1; END;")
    await conn.execute("CREATE PACKAGE out_pkg AS TYPE rec_t IS RECORD (id NUMBER, name VARCHAR2(10) := 'dflt'); PROCEDURE get (p OUT rec_t); PROCEDURE keep (p OUT rec_t); END;")
    await conn.execute(
      `CREATE PACKAGE BODY out_pkg AS
        PROCEDURE get (p OUT rec_t) IS CURSOR c IS SELECT id, name FROM out_rec; BEGIN OPEN c; FETCH c INTO p; CLOSE c; END;
        PROCEDURE keep (p OUT rec_t) IS BEGIN p.id := 5; END;
      END;`
    )
    const r = await conn.execute(
      `DECLARE
        TYPE local_t IS RECORD (id NUMBER, name VARCHAR2(10));
        a out_rec%ROWTYPE; b out_pkg.rec_t; c out_pkg.rec_t; d local_t;
        PROCEDURE get_local (p OUT local_t) IS BEGIN SELECT * INTO p FROM out_rec; END;
      BEGIN
        out_rowtype(a); out_pkg.get(b); out_pkg.keep(c); get_local(d);
        :o := a.id || a.name || '/' || b.id || b.name || '/' || c.id || c.name || '/' || d.id || d.name;
      END;`,
      out()
    )
    // an OUT record starts with its type's field defaults (c.name)
    expect(r.outBinds.o).toBe("1one/1one/5dflt/1one")
  })

  it("writes a collection of records by FORALL ... VALUES recs(i) and SET ROW = recs(i)", async () => {
    await conn.execute("CREATE TABLE forall_rec (id NUMBER(10), v NUMBER, name VARCHAR2(10))")
    const r = await conn.execute(
      `DECLARE
        TYPE rows_t IS TABLE OF forall_rec%ROWTYPE;
        recs rows_t := rows_t();
      BEGIN
        recs.EXTEND(3);
        FOR i IN 1 .. 3 LOOP recs(i).id := i; recs(i).v := i * 10; recs(i).name := 'n' || i; END LOOP;
        FORALL i IN 1 .. recs.COUNT INSERT INTO forall_rec VALUES recs(i);
        :o := SQL%ROWCOUNT;
        FOR i IN 1 .. 3 LOOP recs(i).v := recs(i).v + 1; END LOOP;
        FORALL i IN 2 .. 3 UPDATE forall_rec SET ROW = recs(i) WHERE id = recs(i).id;
      END;`,
      out()
    )
    expect(r.outBinds.o).toBe("3")
    expect(await rows("SELECT id, v, name FROM forall_rec ORDER BY id")).toEqual([[1, 10, "n1"], [2, 21, "n2"], [3, 31, "n3"]])
  })

  it("raises and handles a package's exception outside the package (RAISE pkg.e, WHEN pkg.e)", async () => {
    await conn.execute(
      `CREATE PACKAGE exc_pkg AS
        not_found EXCEPTION;
        bad_div EXCEPTION;
        PRAGMA EXCEPTION_INIT(bad_div, -1476);
        PROCEDURE fail;
      END;`
    )
    await conn.execute("CREATE PACKAGE BODY exc_pkg AS PROCEDURE fail IS BEGIN RAISE not_found; END; END;")
    await conn.execute(
      `CREATE PROCEDURE exc_user (o OUT VARCHAR2) IS
      BEGIN
        exc_pkg.fail;
      EXCEPTION WHEN exc_pkg.not_found THEN o := 'stored caught';
      END;`
    )
    const r = await conn.execute(
      `DECLARE s VARCHAR2(100); n NUMBER := 0;
      BEGIN
        BEGIN RAISE exc_pkg.not_found; EXCEPTION WHEN exc_pkg.not_found THEN s := 'raised'; END;
        BEGIN exc_pkg.fail; EXCEPTION WHEN exc_pkg.bad_div THEN s := s || ',wrong'; WHEN exc_pkg.not_found THEN s := s || ',inside'; END;
        BEGIN n := 1 / n; EXCEPTION WHEN exc_pkg.bad_div THEN s := s || ',' || SQLCODE; END;
        exc_user(:p);
        :o := s;
      END;`,
      { ...out(), p: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
    )
    expect(r.outBinds).toEqual({ o: "raised,inside,-1476", p: "stored caught" })
  })

  it("gives the message of an error number by SQLERRM(n), as in a SAVE EXCEPTIONS handler", async () => {
    await conn.execute("CREATE TABLE bulk_err (n NUMBER)")
    const r = await conn.execute(
      `DECLARE
        TYPE nums_t IS TABLE OF NUMBER;
        d nums_t := nums_t(1, 0, 2);
        s VARCHAR2(400);
        bulk_errors EXCEPTION;
        PRAGMA EXCEPTION_INIT(bulk_errors, -24381);
      BEGIN
        BEGIN
          FORALL i IN 1 .. d.COUNT SAVE EXCEPTIONS INSERT INTO bulk_err VALUES (10 / d(i));
        EXCEPTION WHEN bulk_errors THEN
          FOR j IN 1 .. SQL%BULK_EXCEPTIONS.COUNT LOOP
            s := s || SQL%BULK_EXCEPTIONS(j).ERROR_INDEX || ':' || SQLERRM(-SQL%BULK_EXCEPTIONS(j).ERROR_CODE);
          END LOOP;
        END;
        :o := s || '|' || SQLERRM(0) || '|' || SQLERRM(100) || '|' || SQLERRM(5) || '|' || SQLERRM(-99999);
      END;`,
      out()
    )
    expect(r.outBinds.o).toBe(
      "2:ORA-01476: divisor is equal to zero|ORA-0000: normal, successful completion|ORA-01403: no data found|-5: non-ORACLE exception|ORA-99999: Message 99999 not found;  product=RDBMS; facility=ORA"
    )
  })

  it("accepts AUTHID on CREATE PROCEDURE, FUNCTION and PACKAGE and shows it in USER_PROCEDURES", async () => {
    await conn.execute("CREATE TABLE authid_log (s VARCHAR2(20))")
    await conn.execute("CREATE PROCEDURE authid_cu (s VARCHAR2) AUTHID CURRENT_USER IS BEGIN INSERT INTO authid_log VALUES (s); END;")
    await conn.execute("CREATE OR REPLACE PROCEDURE authid_def AUTHID DEFINER AS BEGIN authid_cu('def'); END;")
    await conn.execute("CREATE FUNCTION authid_fn RETURN NUMBER AUTHID CURRENT_USER IS BEGIN RETURN 1; END;")
    await conn.execute("CREATE PACKAGE authid_pkg AUTHID CURRENT_USER AS PROCEDURE p; END;")
    await conn.execute("CREATE PACKAGE BODY authid_pkg AS PROCEDURE p IS BEGIN authid_cu('pkg'); END; END;")
    await conn.execute("BEGIN authid_cu('cu'); authid_def; authid_pkg.p; END;")
    expect(await rows("SELECT s FROM authid_log ORDER BY s")).toEqual([["cu"], ["def"], ["pkg"]])
    expect(await rows("SELECT object_name, procedure_name, authid FROM user_procedures WHERE object_name LIKE 'AUTHID%' ORDER BY 1, 2")).toEqual([
      ["AUTHID_CU", null, "CURRENT_USER"],
      ["AUTHID_DEF", null, "DEFINER"],
      ["AUTHID_FN", null, "CURRENT_USER"],
      ["AUTHID_PKG", "P", "CURRENT_USER"],
      ["AUTHID_PKG", null, "CURRENT_USER"]
    ])
  })

  it("updates and deletes the row a FOR UPDATE cursor fetched last by WHERE CURRENT OF", async () => {
    await conn.execute("CREATE TABLE cur_of (id NUMBER(10) PRIMARY KEY, v NUMBER, tag VARCHAR2(10))")
    await conn.executeMany("INSERT INTO cur_of VALUES (:1, :2, :3)", [[1, 10, "a"], [2, 20, "b"], [3, 30, "c"], [4, 40, "d"], [5, 50, "e"]])
    await conn.execute(
      `DECLARE
        CURSOR up IS SELECT id, v FROM cur_of WHERE id <= 3 FOR UPDATE;
        CURSOR del IS SELECT * FROM cur_of WHERE id > 3 ORDER BY id FOR UPDATE OF v;
        r del%ROWTYPE;
      BEGIN
        FOR x IN up LOOP
          UPDATE cur_of SET v = v + x.id, tag = 'u' || x.id WHERE CURRENT OF up;
        END LOOP;
        OPEN del;
        FETCH del INTO r;
        DELETE FROM cur_of WHERE CURRENT OF del;
        CLOSE del;
      END;`
    )
    expect(await rows("SELECT id, v, tag FROM cur_of ORDER BY id")).toEqual([[1, 11, "u1"], [2, 22, "u2"], [3, 33, "u3"], [5, 50, "e"]])
  })

  it("refuses WHERE CURRENT OF a cursor without FOR UPDATE (PLS-00404) and of a closed one (ORA-01001)", async () => {
    await conn.execute("CREATE TABLE cur_of_err (id NUMBER)")
    await conn.execute("INSERT INTO cur_of_err VALUES (1)")
    const plain = await failure(() => conn.execute("DECLARE CURSOR c IS SELECT id FROM cur_of_err; n NUMBER; BEGIN OPEN c; FETCH c INTO n; DELETE FROM cur_of_err WHERE CURRENT OF c; END;"))
    expect(plain.message).toMatch(/^ORA-06550: line 1, column \d+:\nPLS-00404: cursor 'C' must be declared with FOR UPDATE to use with CURRENT OF/)
    const closed = await failure(() => conn.execute("DECLARE CURSOR c IS SELECT id FROM cur_of_err FOR UPDATE; BEGIN DELETE FROM cur_of_err WHERE CURRENT OF c; END;"))
    expect(closed.message).toMatch(/^ORA-01001: invalid cursor/)
    expect(await rows("SELECT id FROM cur_of_err")).toEqual([[1]])
  })

  it("takes named notation in calls of built-in package procedures", async () => {
    const r = await conn.execute(
      `DECLARE l VARCHAR2(100); st INTEGER; m VARCHAR2(48); a VARCHAR2(32);
      BEGIN
        DBMS_OUTPUT.ENABLE(buffer_size => NULL);
        DBMS_OUTPUT.PUT_LINE(a => 'hello');
        DBMS_OUTPUT.GET_LINE(status => st, line => l);
        DBMS_APPLICATION_INFO.SET_MODULE(module_name => 'mod', action_name => 'act');
        DBMS_APPLICATION_INFO.SET_ACTION(action_name => 'act2');
        DBMS_APPLICATION_INFO.READ_MODULE(action_name => a, module_name => m);
        :o := l || '/' || st || '/' || m || '/' || a || '/' || SYS_CONTEXT('USERENV', 'MODULE');
      END;`,
      out()
    )
    expect(r.outBinds.o).toBe("hello/0/mod/act2/mod")
  })

  it("declares a %ROWTYPE record of a cursor with parameters", async () => {
    await conn.execute("CREATE TABLE cur_param (id NUMBER(10), name VARCHAR2(10))")
    await conn.execute("INSERT INTO cur_param VALUES (1, 'one')")
    await conn.execute("INSERT INTO cur_param VALUES (2, 'two')")
    const r = await conn.execute(
      `DECLARE
        CURSOR c (min_id NUMBER, suffix VARCHAR2) IS SELECT id, name || suffix AS label FROM cur_param WHERE id >= min_id ORDER BY id;
        r c%ROWTYPE;
      BEGIN
        OPEN c(2, '!');
        FETCH c INTO r;
        CLOSE c;
        :o := r.id || ':' || r.label;
      END;`,
      out()
    )
    expect(r.outBinds.o).toBe("2:two!")
  })

  it("calls a packaged function without parentheses from SQL (pkg.f), a column of the same name still winning", async () => {
    await conn.execute("CREATE PACKAGE noparen AS FUNCTION f RETURN NUMBER; END;")
    await conn.execute("CREATE PACKAGE BODY noparen AS FUNCTION f RETURN NUMBER IS BEGIN RETURN 42; END; END;")
    await conn.execute("CREATE TABLE noparen_t (f NUMBER)")
    await conn.execute("INSERT INTO noparen_t VALUES (7)")
    expect(await rows("SELECT noparen.f FROM dual")).toEqual([[42]])
    expect(await rows("SELECT noparen.f + 1 AS g FROM noparen_t")).toEqual([[43]])
    expect(await rows("SELECT noparen.f FROM noparen_t noparen")).toEqual([[7]])
    const r = await conn.execute("DECLARE n NUMBER; BEGIN SELECT noparen.f INTO n FROM dual; :o := n; END;", out())
    expect(r.outBinds.o).toBe("42")
  })
})
