import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * Data dictionary views read by a block's own SQL on the Oracle test server, through raw node-oracledb. The dictionary
 * is the catalog as it is now: a block's static query of USER_TABLES / USER_OBJECTS / USER_TAB_COLUMNS (and the ALL_ /
 * DBA_ ones) sees a table created by EXECUTE IMMEDIATE earlier in the same block or in an earlier block, whether it is
 * a SELECT INTO, a cursor FOR loop or SQL in a stored procedure; the "create the table if it does not exist" idiom runs
 * any number of times. A write reading a view (INSERT ... SELECT) sees the catalog as its transaction starts.
 */
describe("Oracle test server: dictionary views inside PL/SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const createIfMissing = `DECLARE
      n NUMBER;
    BEGIN
      SELECT COUNT(*) INTO n FROM user_tables WHERE table_name = 'DICT_T1';
      IF n = 0 THEN
        EXECUTE IMMEDIATE 'CREATE TABLE dict_t1 (x NUMBER)';
      END IF;
    END;`

  it("runs the create-if-missing idiom twice in a row", async () => {
    await conn.execute(createIfMissing)
    await conn.execute(createIfMissing)
    const r = await conn.execute(`SELECT COUNT(*) FROM user_tables WHERE table_name = 'DICT_T1'`)
    expect(r.rows).toEqual([[1]])
  })

  it("sees a table created earlier in the same block in USER_TABLES, USER_OBJECTS, USER_TAB_COLUMNS, ALL_TABLES and a cursor loop", async () => {
    const r = await conn.execute(
      `DECLARE
        a NUMBER; b NUMBER; c NUMBER; d NUMBER; s VARCHAR2(200) := '';
      BEGIN
        EXECUTE IMMEDIATE 'CREATE TABLE dict_t2 (k NUMBER, v VARCHAR2(10))';
        SELECT COUNT(*) INTO a FROM user_tables WHERE table_name = 'DICT_T2';
        SELECT COUNT(*) INTO b FROM user_objects WHERE object_name = 'DICT_T2' AND object_type = 'TABLE';
        SELECT COUNT(*) INTO c FROM user_tab_columns WHERE table_name = 'DICT_T2';
        SELECT COUNT(*) INTO d FROM all_tables WHERE table_name = 'DICT_T2' AND owner = USER;
        FOR col IN (SELECT column_name FROM user_tab_columns WHERE table_name = 'DICT_T2' ORDER BY column_id) LOOP
          s := s || col.column_name || ';';
        END LOOP;
        EXECUTE IMMEDIATE 'DROP TABLE dict_t2';
        SELECT COUNT(*) INTO a FROM all_tables WHERE table_name = 'DICT_T2';
        :out := a || '/' || b || '/' || c || '/' || d || '/' || s;
      END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.out).toBe("0/1/2/1/K;V;")
  })

  it("an INSERT ... SELECT from a dictionary view, a client's or a block's, sees the tables created before its transaction", async () => {
    await conn.execute(`CREATE TABLE dict_seen (n VARCHAR2(128))`)
    await conn.execute(`CREATE TABLE dict_t4 (x NUMBER)`)
    await conn.execute(`INSERT INTO dict_seen SELECT table_name FROM user_tables WHERE table_name LIKE 'DICT_T4%'`)
    await conn.execute(
      `BEGIN
        EXECUTE IMMEDIATE 'CREATE TABLE dict_t4b (x NUMBER)';
        INSERT INTO dict_seen SELECT table_name FROM user_tables WHERE table_name LIKE 'DICT_T4%';
      END;`
    )
    await conn.commit()
    const r = await conn.execute(`SELECT n, COUNT(*) FROM dict_seen GROUP BY n ORDER BY n`)
    expect(r.rows).toEqual([["DICT_T4", 2], ["DICT_T4B", 1]])
  })

  it("sees the current catalog from SQL in a stored procedure", async () => {
    await conn.execute(
      // invoker's rights: CREATE TABLE comes with the RESOURCE role, which a definer's rights unit runs without
      `CREATE OR REPLACE PROCEDURE dict_ensure(p_name VARCHAR2, p_created OUT NUMBER) AUTHID CURRENT_USER IS
        n NUMBER;
      BEGIN
        SELECT COUNT(*) INTO n FROM user_tables WHERE table_name = p_name;
        p_created := 0;
        IF n = 0 THEN
          EXECUTE IMMEDIATE 'CREATE TABLE ' || p_name || ' (x NUMBER)';
          p_created := 1;
        END IF;
      END;`
    )
    const out = { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    const first = await conn.execute(`BEGIN dict_ensure('DICT_T3', :c); END;`, { c: out })
    const second = await conn.execute(`BEGIN dict_ensure('DICT_T3', :c); END;`, { c: out })
    expect([first.outBinds.c, second.outBinds.c]).toEqual([1, 0])
  })
})
