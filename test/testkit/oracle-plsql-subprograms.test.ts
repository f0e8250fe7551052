import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Functions and procedures declared in a block's DECLARE section, through raw node-oracledb: IN / OUT / IN OUT
 * parameters, defaults, RETURN values, recursion, access to the enclosing block's variables, and ORA-06503 for a
 * function that ends without RETURN, as the Oracle Database PL/SQL Language Reference (23ai), "PL/SQL Subprograms"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-subprograms.html) describes them.
 */
describe("Oracle test server: PL/SQL local subprograms", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fruit (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20))")
    await conn.executeMany("INSERT INTO fruit VALUES (:1, :2)", [[1, "apple"], [2, "pear"], [3, "plum"]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 400 }

  it("calls local functions in expressions, and procedures with OUT / IN OUT parameters", async () => {
    const r = await conn.execute(
      `DECLARE
        total NUMBER := 0;
        s VARCHAR2(400);
        x NUMBER;
        y NUMBER := 5;
        FUNCTION fact(n IN PLS_INTEGER) RETURN NUMBER IS
        BEGIN
          IF n <= 1 THEN RETURN 1; END IF;
          RETURN n * fact(n - 1);
        END fact;
        FUNCTION greet(who VARCHAR2, punct VARCHAR2 DEFAULT '!') RETURN VARCHAR2 IS
        BEGIN
          RETURN 'hi ' || who || punct;
        END;
        FUNCTION tally RETURN NUMBER IS
        BEGIN
          RETURN total;
        END;
        PROCEDURE bump(by_n IN NUMBER, doubled OUT NUMBER, acc IN OUT NUMBER) IS
          local_n NUMBER := by_n * 2;
        BEGIN
          total := total + by_n;
          doubled := local_n;
          acc := acc + local_n;
          IF by_n > 100 THEN RETURN; END IF;
          acc := acc + 1;
        END bump;
      BEGIN
        bump(3, x, y);
        s := fact(5) || ',' || greet('ann') || ',' || greet(punct => '?', who => 'bob') || ',' || x || ',' || y || ',' || tally;
        bump(200, x, y);
        s := s || '|' || x || ',' || y || ',' || tally();
        -- a local function is not callable from SQL (PLS-00231, oracle-plsql-blocks-calls.test.ts): computed before
        x := fact(2);
        SELECT s || '|' || name INTO s FROM fruit WHERE id = x;
        :s := s;
      END;`,
      { s: out }
    )
    expect((r.outBinds as { s: string }).s).toBe("120,hi ann!,hi bob?,6,12,3|400,412,203|pear")
  })

  it("a function that ends without RETURN raises ORA-06503; an exception inside a subprogram reaches the caller's handler", async () => {
    const e = await failure(() => conn.execute("DECLARE x NUMBER; FUNCTION f RETURN NUMBER IS BEGIN NULL; END; BEGIN x := f; END;"))
    expect(e.message).toMatch(/^ORA-06503: PL\/SQL: Function returned without value/)
    const r = await conn.execute(
      `DECLARE
        PROCEDURE boom(n NUMBER) IS BEGIN IF n > 0 THEN RAISE_APPLICATION_ERROR(-20001, 'boom ' || n); END IF; END;
      BEGIN
        boom(0);
        boom(7);
      EXCEPTION WHEN OTHERS THEN :s := SQLERRM;
      END;`,
      { s: out }
    )
    expect((r.outBinds as { s: string }).s).toBe("ORA-20001: boom 7")
  })

  it("stores CREATE [OR REPLACE] FUNCTION and calls it from PL/SQL expressions and a block's SQL", async () => {
    await conn.execute(`CREATE OR REPLACE FUNCTION fruit_name(p_id IN NUMBER, p_upper IN BOOLEAN DEFAULT FALSE) RETURN VARCHAR2 IS
        n fruit.name%TYPE;
      BEGIN
        SELECT name INTO n FROM fruit WHERE id = p_id;
        IF p_upper THEN RETURN UPPER(n); END IF;
        RETURN n;
      EXCEPTION WHEN NO_DATA_FOUND THEN
        RETURN 'none';
      END fruit_name;`)
    const r = await conn.execute(
      `DECLARE s VARCHAR2(100);
      BEGIN
        s := fruit_name(1) || ',' || fruit_name(3, TRUE) || ',' || fruit_name(p_id => 9);
        SELECT s || ',' || COUNT(*) INTO s FROM fruit WHERE name = fruit_name(2);
        :s := s;
      END;`,
      { s: out }
    )
    expect((r.outBinds as { s: string }).s).toBe("apple,PLUM,none,1")
    // in a SQL statement a column wins over a function of the same name (PL/SQL Name Resolution)
    const shadow = await conn.execute(
      `DECLARE
        c VARCHAR2(20);
        FUNCTION name RETURN VARCHAR2 IS BEGIN RETURN 'pear'; END;
      BEGIN
        SELECT MAX(name) INTO c FROM fruit;
        :s := c || name;
      END;`,
      { s: out }
    )
    expect((shadow.outBinds as { s: string }).s).toBe("plumpear")
    const objects = await conn.execute("SELECT object_type FROM user_objects WHERE object_name = 'FRUIT_NAME'")
    expect(objects.rows).toEqual([["FUNCTION"]])
    await conn.execute("DROP FUNCTION fruit_name")
    const gone = await failure(() => conn.execute("DECLARE s VARCHAR2(10); BEGIN s := fruit_name(1); END;"))
    expect(gone.message).toMatch(/PLS-00201: identifier 'FRUIT_NAME' must be declared/)
  })

  it("DROP PROCEDURE removes a stored procedure: calling it is then PLS-00201 inside ORA-06550, dropping it again ORA-04043", async () => {
    await conn.execute("CREATE OR REPLACE PROCEDURE note_fruit(p_id NUMBER) IS BEGIN UPDATE fruit SET name = name WHERE id = p_id; END;")
    await conn.execute("BEGIN note_fruit(1); END;")
    await conn.execute("DROP PROCEDURE note_fruit")
    expect((await conn.execute("SELECT COUNT(*) FROM user_objects WHERE object_name = 'NOTE_FRUIT'")).rows).toEqual([[0]])
    // PL/SQL Language Reference, "PLS-00201": the name no longer resolves when the block compiles
    const e = await failure(() => conn.execute("BEGIN\n  note_fruit(1);\nEND;"))
    expect(e.message).toMatch(/^ORA-06550: line 2, column 3:\nPLS-00201: identifier 'NOTE_FRUIT' must be declared\nORA-06550: line 2, column 3:\nPL\/SQL: Statement ignored/)
    const again = await failure(() => conn.execute("DROP PROCEDURE note_fruit"))
    expect(again.message).toMatch(/^ORA-04043: object NOTE_FRUIT does not exist/)
  })
})
