import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Dynamic SQL and bulk binding on the Oracle test server, through raw node-oracledb, as the Oracle Database PL/SQL
 * Language Reference (23ai) states them: "Dynamic SQL" (`OPEN c FOR 'query' USING binds`, `EXECUTE IMMEDIATE ...
 * RETURNING INTO`), "PL/SQL Optimization and Tuning", "Bulk SQL and Bulk Binding" (`RETURNING ... BULK COLLECT INTO`,
 * `FORALL ... SAVE EXCEPTIONS` raising ORA-24381 with SQL%BULK_EXCEPTIONS(j).ERROR_INDEX / ERROR_CODE, the iteration
 * and the positive error code; `FORALL i IN VALUES OF`; FORALL of EXECUTE IMMEDIATE)
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: dynamic SQL with binds, RETURNING BULK COLLECT, FORALL variants", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE gadget (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), qty NUMBER(10))")
    await conn.executeMany("INSERT INTO gadget VALUES (:1, :2, :3)", [[1, "cog", 5], [2, "pin", 7], [3, "nib", 9]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = (type = oracledb.STRING) => ({ dir: oracledb.BIND_OUT, type, maxSize: 400 })

  it("opens a cursor for dynamic SQL with USING binds and returns it", async () => {
    const r = await conn.execute(
      `DECLARE
        c SYS_REFCURSOR;
        n VARCHAR2(20);
        s VARCHAR2(100);
      BEGIN
        OPEN c FOR 'SELECT name FROM gadget WHERE qty > :lo AND id <> :skip ORDER BY id' USING 4, 2;
        LOOP
          FETCH c INTO n;
          EXIT WHEN c%NOTFOUND;
          s := s || n;
        END LOOP;
        CLOSE c;
        :s := s;
        OPEN :rc FOR 'SELECT id FROM gadget WHERE name = :1' USING 'pin';
      END;`,
      { s: out(), rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } }
    )
    expect(r.outBinds.s).toBe("cognib")
    const rows = await r.outBinds.rc.getRows()
    await r.outBinds.rc.close()
    expect(rows).toEqual([[2]])
  })

  it("EXECUTE IMMEDIATE ... RETURNING INTO and RETURNING BULK COLLECT INTO, static and dynamic", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE ids_t IS TABLE OF NUMBER;
        TYPE names_t IS TABLE OF VARCHAR2(20) INDEX BY PLS_INTEGER;
        ids ids_t;
        names names_t;
        q NUMBER;
        s VARCHAR2(200);
      BEGIN
        EXECUTE IMMEDIATE 'UPDATE gadget SET qty = qty + :d WHERE id = :i RETURNING qty INTO :q' USING 10, 1 RETURNING INTO q;
        s := q;
        UPDATE gadget SET qty = qty + 1 WHERE id > 1 RETURNING id, name BULK COLLECT INTO ids, names;
        s := s || '|' || ids.COUNT || ':' || ids(1) || names(1) || ids(2) || names(2);
        EXECUTE IMMEDIATE 'DELETE FROM gadget WHERE id >= :m RETURNING name INTO :n' USING 2 RETURNING BULK COLLECT INTO names;
        s := s || '|' || names.COUNT || names(1) || names(2);
        :s := s;
      END;`,
      { s: out() }
    )
    expect(r.outBinds.s).toBe("15|2:2pin3nib|2pinnib")
    await conn.rollback()
  })

  it("FORALL ... SAVE EXCEPTIONS runs every iteration and raises ORA-24381 with SQL%BULK_EXCEPTIONS", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE ids_t IS TABLE OF NUMBER;
        ids ids_t := ids_t(10, 1, 11, 2, 12);
        bulk_errors EXCEPTION;
        PRAGMA EXCEPTION_INIT(bulk_errors, -24381);
        s VARCHAR2(200);
      BEGIN
        FORALL i IN 1..ids.COUNT SAVE EXCEPTIONS
          INSERT INTO gadget (id, name) VALUES (ids(i), 'new');
      EXCEPTION
        WHEN bulk_errors THEN
          s := SQL%BULK_EXCEPTIONS.COUNT;
          FOR j IN 1..SQL%BULK_EXCEPTIONS.COUNT LOOP
            s := s || '|' || SQL%BULK_EXCEPTIONS(j).ERROR_INDEX || '=' || SQL%BULK_EXCEPTIONS(j).ERROR_CODE;
          END LOOP;
          :s := s;
      END;`,
      { s: out() }
    )
    expect(r.outBinds.s).toBe("2|2=1|4=1")
    expect((await conn.execute("SELECT id FROM gadget WHERE name = 'new' ORDER BY id")).rows).toEqual([[10], [11], [12]])
    await conn.rollback()
    const e = await failure(() =>
      conn.execute(`DECLARE TYPE ids_t IS TABLE OF NUMBER; ids ids_t := ids_t(1, 20); BEGIN FORALL i IN 1..2 SAVE EXCEPTIONS INSERT INTO gadget (id) VALUES (ids(i)); END;`)
    )
    expect(e.message).toMatch(/^ORA-24381: error\(s\) in array DML/)
    expect((await conn.execute("SELECT COUNT(*) FROM gadget WHERE id = 20")).rows).toEqual([[0]])
  })

  it("FORALL i IN VALUES OF and FORALL of EXECUTE IMMEDIATE", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE ids_t IS TABLE OF NUMBER;
        TYPE picks_t IS TABLE OF PLS_INTEGER INDEX BY PLS_INTEGER;
        ids ids_t := ids_t(30, 31, 32, 33);
        picks picks_t;
      BEGIN
        picks(1) := 4;
        picks(5) := 2;
        FORALL i IN VALUES OF picks
          INSERT INTO gadget (id, name) VALUES (ids(i), 'picked');
        :a := SQL%ROWCOUNT;
        FORALL i IN 1..2
          EXECUTE IMMEDIATE 'UPDATE gadget SET qty = :q WHERE id = :i' USING i * 100, ids(i * 2);
        :b := SQL%ROWCOUNT || ',' || SQL%BULK_ROWCOUNT(1) || ',' || SQL%BULK_ROWCOUNT(2);
      END;`,
      { a: out(oracledb.NUMBER), b: out() }
    )
    expect(r.outBinds).toEqual({ a: 2, b: "2,1,1" })
    expect((await conn.execute("SELECT id, qty FROM gadget WHERE name = 'picked' ORDER BY id")).rows).toEqual([[31, 100], [33, 200]])
    await conn.rollback()
  })

  it("EXECUTE IMMEDIATE 'SELECT ...' BULK COLLECT INTO collections, of scalars and records, with USING binds", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE num_list IS TABLE OF NUMBER;
        TYPE name_list IS TABLE OF VARCHAR2(20);
        TYPE row_list IS TABLE OF gadget%ROWTYPE;
        ids num_list;
        names name_list;
        rows_ row_list;
        none num_list;
      BEGIN
        EXECUTE IMMEDIATE 'SELECT id, name FROM gadget WHERE qty >= :q ORDER BY id DESC' BULK COLLECT INTO ids, names USING 6;
        EXECUTE IMMEDIATE 'SELECT * FROM gadget WHERE id <= :m ORDER BY id' BULK COLLECT INTO rows_ USING :maxid;
        EXECUTE IMMEDIATE 'SELECT id FROM gadget WHERE 1 = 0' BULK COLLECT INTO none;
        :s := ids.COUNT || ':' || ids(1) || names(1) || ids(2) || names(2) || '|' || rows_.COUNT || ':' || rows_(2).name || rows_(2).qty || '|' || none.COUNT;
      END;`,
      { s: out(), maxid: 2 }
    )
    expect((r.outBinds as { s: string }).s).toBe("2:3nib2pin|2:pin7|0")
  })
})
