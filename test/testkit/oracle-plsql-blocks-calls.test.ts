import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Labelled top-level blocks, concatenation with an unparenthesised CASE, local functions in a block's SQL and the
 * ORA-06512 lines of package subprograms, through raw node-oracledb. Oracle Database PL/SQL Language Reference (23ai):
 * "Block" (a label may precede a block), "PL/SQL Subprograms" (a function declared in a block is not callable from
 * its SQL statements: PLS-00231, Error Messages "PLS-00231: function 'X' may not be used in SQL"), and the error
 * stack of an unhandled exception, one `ORA-06512: at "OWNER.UNIT", line n` per stored unit left
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: labelled blocks, || CASE, local functions in SQL, package error lines", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE widget (id NUMBER(10), label VARCHAR2(20))")
    await conn.execute("INSERT INTO widget VALUES (1, 'one')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = (type = oracledb.STRING) => ({ dir: oracledb.BIND_OUT, type, maxSize: 400 })

  it("runs a labelled top-level block", async () => {
    const r = await conn.execute(`<<outer>> DECLARE x NUMBER := 2; BEGIN :s := outer.x * 3; END outer;`, { s: out(oracledb.NUMBER) })
    expect(r.outBinds.s).toBe(6)
  })

  it("concatenates an unparenthesised CASE in SQL and in PL/SQL", async () => {
    const q = await conn.execute(`SELECT 'n=' || CASE WHEN id = 1 THEN 'one' ELSE 'other' END || '!' AS t FROM widget`)
    expect(q.rows).toEqual([["n=one!"]])
    const r = await conn.execute(`DECLARE n NUMBER := 2; BEGIN :s := 'n=' || CASE n WHEN 2 THEN 'two' ELSE 'x' END; END;`, { s: out() })
    expect(r.outBinds.s).toBe("n=two")
  })

  it("refuses a block's local function inside its SQL with PLS-00231", async () => {
    const e = await failure(() =>
      conn.execute(`DECLARE
        FUNCTION twice(x NUMBER) RETURN NUMBER IS BEGIN RETURN x * 2; END;
        v NUMBER;
      BEGIN
        SELECT twice(id) INTO v FROM widget;
      END;`)
    )
    expect(e.message).toMatch(/PLS-00231: function 'TWICE' may not be used in SQL/)
  })

  it("names the package's lines in ORA-06512 for an error inside a package subprogram", async () => {
    await conn.execute(`CREATE OR REPLACE PACKAGE failing AS
      PROCEDURE go;
    END failing;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY failing AS
      PROCEDURE inner_step IS
      BEGIN
        RAISE_APPLICATION_ERROR(-20001, 'deep');
      END;
      PROCEDURE go IS
      BEGIN
        inner_step;
      END;
    END failing;`)
    const e = await failure(() => conn.execute(`BEGIN\n  failing.go;\nEND;`))
    const owner = (await conn.execute("SELECT USER FROM dual")).rows[0][0]
    // node-oracledb appends a "Help: <url>" line to ORA- messages
    expect(e.message.split("\nHelp:")[0]).toBe(`ORA-20001: deep\nORA-06512: at "${owner}.FAILING", line 4\nORA-06512: at "${owner}.FAILING", line 8\nORA-06512: at line 2`)
  })

  it("a local subprogram left by an exception adds its own ORA-06512 line before the call's", async () => {
    const e = await failure(() => conn.execute(`DECLARE
  PROCEDURE p IS BEGIN
    RAISE_APPLICATION_ERROR(-20002, 'local');
  END;
BEGIN
  p;
END;`))
    expect(e.message.split("\nHelp:")[0]).toBe("ORA-20002: local\nORA-06512: at line 3\nORA-06512: at line 6")
  })

  it("CALL of a routine that does not exist is ORA-06576, of one that does runs it (SQL Language Reference, CALL)", async () => {
    for (const sql of ["CALL no_such_proc()", "CALL no_such_pkg.p(1)", "CALL dbms_output.no_such_member('x')"]) {
      const e = await failure(() => conn.execute(sql))
      expect(e.message.split("\nHelp:")[0]).toBe("ORA-06576: not a valid function or procedure name")
    }
    await conn.execute("CREATE OR REPLACE PROCEDURE call_me(n IN NUMBER) IS BEGIN INSERT INTO widget VALUES (n, 'called'); END;")
    await conn.execute("CALL call_me(7)")
    expect((await conn.execute("SELECT label FROM widget WHERE id = 7")).rows).toEqual([["called"]])
    // CALL wants its parentheses even without arguments
    await conn.execute("CREATE OR REPLACE PROCEDURE call_none IS BEGIN INSERT INTO widget VALUES (8, 'none'); END;")
    await conn.execute("CALL call_none()")
    expect((await conn.execute("SELECT label FROM widget WHERE id = 8")).rows).toEqual([["none"]])
    // a function's result comes back through INTO
    await conn.execute("CREATE OR REPLACE FUNCTION call_plus(n IN NUMBER) RETURN NUMBER IS BEGIN RETURN n + 1; END;")
    expect((await conn.execute("CALL call_plus(41) INTO :r", { r: out(oracledb.NUMBER) })).outBinds.r).toBe(42)
    // an error inside the routine is reported as it is
    const inner = await failure(() => conn.execute("CALL call_me('x')"))
    expect(inner.message).not.toMatch(/ORA-06576/)
  })
})
