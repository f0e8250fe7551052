import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * PL/SQL exceptions on the Oracle test server, through raw node-oracledb: EXCEPTION sections with the predefined
 * exceptions, user exceptions with PRAGMA EXCEPTION_INIT, RAISE / RAISE_APPLICATION_ERROR, SQLCODE / SQLERRM, the error
 * stack of an unhandled exception (ORA-06512 "at line n"), statement-level atomicity, and PLS- compile errors inside
 * ORA-06550. Semantics: Oracle Database PL/SQL Language Reference, "PL/SQL Error Handling" (predefined exceptions and
 * their SQLCODEs: NO_DATA_FOUND +100 / ORA-01403, TOO_MANY_ROWS -1422, DUP_VAL_ON_INDEX -1, ZERO_DIVIDE -1476,
 * VALUE_ERROR -6502, INVALID_NUMBER -1722; a user exception's SQLCODE is +1 and SQLERRM "User-Defined Exception";
 * RAISE_APPLICATION_ERROR takes -20000..-20999), https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-error-handling.html
 */
describe("Oracle test server: PL/SQL exceptions", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE acct (id NUMBER(10) PRIMARY KEY, owner VARCHAR2(20), balance NUMBER(10))")
    await conn.executeMany("INSERT INTO acct VALUES (:1, :2, :3)", [[1, "ann", 100], [2, "bob", 50], [3, "bob", 10]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const dropIfExists = (table: string) => `BEGIN
  EXECUTE IMMEDIATE 'DROP TABLE ${table}';
EXCEPTION
  WHEN OTHERS THEN
    IF SQLCODE <> -942 THEN
      RAISE;
    END IF;
END;`

  it("runs the drop-if-exists idiom: drops a table that exists, passes over one that does not, re-raises other errors", async () => {
    await conn.execute("CREATE TABLE doomed (v NUMBER)")
    await conn.execute(dropIfExists("doomed"))
    const gone = await failure(() => conn.execute("SELECT * FROM doomed"))
    expect(gone.message).toMatch(/^ORA-00942/)
    await conn.execute(dropIfExists("doomed"))
    await conn.execute(dropIfExists("never_was"))
    // another error (ORA-00903 invalid table name) is re-raised with the line of the RAISE
    const e = await failure(() => conn.execute(dropIfExists("1bad")))
    expect((e as Error & { errorNum: number }).errorNum).toBe(903)
    expect(e.message).toMatch(/^ORA-00903: invalid table name\nORA-06512: at line 6/)
  })

  it("catches each predefined exception by name, with SQLCODE and SQLERRM", async () => {
    const caught = async (body: string) =>
      (await conn.execute(`DECLARE n NUMBER; s VARCHAR2(3); BEGIN ${body}
        EXCEPTION
          WHEN NO_DATA_FOUND THEN :r := 'NO_DATA_FOUND ' || SQLCODE || ' ' || SQLERRM;
          WHEN TOO_MANY_ROWS THEN :r := 'TOO_MANY_ROWS ' || SQLCODE;
          WHEN DUP_VAL_ON_INDEX THEN :r := 'DUP_VAL_ON_INDEX ' || SQLCODE;
          WHEN ZERO_DIVIDE THEN :r := 'ZERO_DIVIDE ' || SQLCODE || ' ' || SQLERRM;
          WHEN VALUE_ERROR THEN :r := 'VALUE_ERROR ' || SQLCODE;
          WHEN INVALID_NUMBER THEN :r := 'INVALID_NUMBER ' || SQLCODE;
        END;`, { r: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })).outBinds.r
    expect(await caught("SELECT balance INTO n FROM acct WHERE id = 42;")).toBe("NO_DATA_FOUND 100 ORA-01403: no data found")
    expect(await caught("SELECT balance INTO n FROM acct WHERE owner = 'bob';")).toBe("TOO_MANY_ROWS -1422")
    expect(await caught("INSERT INTO acct VALUES (1, 'dup', 0);")).toBe("DUP_VAL_ON_INDEX -1")
    expect(await caught("n := 1 / 0;")).toBe("ZERO_DIVIDE -1476 ORA-01476: divisor is equal to zero")
    expect(await caught("s := 'too long';")).toBe("VALUE_ERROR -6502")
    expect(await caught("n := 'abc';")).toBe("VALUE_ERROR -6502")
    expect(await caught("SELECT TO_NUMBER(owner) INTO n FROM acct WHERE id = 1;")).toBe("INVALID_NUMBER -1722")
    // a handler that does not match lets the exception through to the enclosing block
    const nested = await conn.execute(`BEGIN
        BEGIN
          RAISE NO_DATA_FOUND;
        EXCEPTION WHEN ZERO_DIVIDE THEN :r := 'wrong';
        END;
      EXCEPTION WHEN OTHERS THEN :r := 'outer ' || SQLCODE;
      END;`, { r: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 50 } })
    expect(nested.outBinds).toEqual({ r: "outer 100" })
  })

  it("user exceptions: raised and caught by name, bound to an error number with PRAGMA EXCEPTION_INIT", async () => {
    const r = await conn.execute(`DECLARE
        insufficient EXCEPTION;
        missing_table EXCEPTION;
        PRAGMA EXCEPTION_INIT(missing_table, -942);
      BEGIN
        BEGIN
          RAISE insufficient;
        EXCEPTION WHEN insufficient THEN :a := SQLCODE || ' ' || SQLERRM;
        END;
        EXECUTE IMMEDIATE 'SELECT * FROM nowhere';
      EXCEPTION WHEN missing_table THEN :b := 'missing ' || SQLCODE;
      END;`, { a: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 80 }, b: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 80 } })
    expect(r.outBinds).toEqual({ a: "1 User-Defined Exception", b: "missing -942" })
    // unhandled, a user exception without a number reaches the client as ORA-06510
    const e = await failure(() => conn.execute("DECLARE oops EXCEPTION; BEGIN\n  RAISE oops;\nEND;"))
    expect(e.message).toMatch(/^ORA-06510: PL\/SQL: unhandled user-defined exception\nORA-06512: at line 2/)
  })

  it("RAISE_APPLICATION_ERROR reaches the client as ORA-20xxx with its message; out of range numbers fail ORA-21000", async () => {
    const e = await failure(() => conn.execute(`DECLARE b NUMBER; BEGIN
  SELECT balance INTO b FROM acct WHERE id = 2;
  IF b < 100 THEN
    RAISE_APPLICATION_ERROR(-20042, 'balance too low: ' || b);
  END IF;
END;`))
    expect((e as Error & { errorNum: number }).errorNum).toBe(20042)
    expect(e.message).toMatch(/^ORA-20042: balance too low: 50\nORA-06512: at line 4/)
    // caught inside the block like any other: SQLCODE is the number, SQLERRM the text
    const r = await conn.execute("BEGIN RAISE_APPLICATION_ERROR(-20001, 'custom'); EXCEPTION WHEN OTHERS THEN :c := SQLCODE; :m := SQLERRM; END;", {
      c: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      m: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 80 }
    })
    expect(r.outBinds).toEqual({ c: -20001, m: "ORA-20001: custom" })
    const range = await failure(() => conn.execute("BEGIN RAISE_APPLICATION_ERROR(-1, 'x'); END;"))
    expect(range.message).toMatch(/^ORA-21000: error number argument to raise_application_error of -1 is out of range/)
  })

  it("an unhandled exception undoes the block's own changes and keeps the transaction's earlier ones; a handled one keeps the block's", async () => {
    await conn.execute("UPDATE acct SET balance = 0 WHERE id = 3")
    const e = await failure(() => conn.execute(`BEGIN
  UPDATE acct SET balance = balance - 30 WHERE id = 1;
  INSERT INTO acct VALUES (9, 'eve', 5);
  UPDATE acct SET balance = balance / 0 WHERE id = 2;
END;`))
    expect(e.message).toMatch(/^ORA-01476: divisor is equal to zero\nORA-06512: at line 4/)
    expect((await conn.execute("SELECT id, balance FROM acct ORDER BY id")).rows).toEqual([[1, 100], [2, 50], [3, 0]])
    await conn.execute(`BEGIN
        UPDATE acct SET balance = balance - 30 WHERE id = 1;
        INSERT INTO acct VALUES (1, 'dup', 0);
      EXCEPTION WHEN DUP_VAL_ON_INDEX THEN
        UPDATE acct SET balance = balance + 1 WHERE id = 2;
      END;`)
    expect((await conn.execute("SELECT id, balance FROM acct ORDER BY id")).rows).toEqual([[1, 70], [2, 51], [3, 0]])
    await conn.rollback()
    expect((await conn.execute("SELECT id, balance FROM acct ORDER BY id")).rows).toEqual([[1, 100], [2, 50], [3, 10]])
  })

  it("an exception leaving a stored procedure names it in the backtrace; handlers in the caller catch it", async () => {
    await conn.execute(`CREATE OR REPLACE PROCEDURE withdraw (p_id IN NUMBER, p_amount IN NUMBER) AS
  b NUMBER;
BEGIN
  SELECT balance INTO b FROM acct WHERE id = p_id;
  IF b < p_amount THEN
    RAISE_APPLICATION_ERROR(-20100, 'insufficient funds');
  END IF;
  UPDATE acct SET balance = balance - p_amount WHERE id = p_id;
END;`)
    const e = await failure(() => conn.execute("BEGIN\n  withdraw(2, 80);\nEND;"))
    expect(e.message).toMatch(new RegExp(`^ORA-20100: insufficient funds\nORA-06512: at "${server.user.toUpperCase()}.WITHDRAW", line 6\nORA-06512: at line 2`))
    const r = await conn.execute("BEGIN withdraw(2, 80); EXCEPTION WHEN OTHERS THEN :m := SQLERRM; END;", { m: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 80 } })
    expect(r.outBinds).toEqual({ m: "ORA-20100: insufficient funds" })
    await conn.execute("BEGIN withdraw(2, 20); END;")
    expect((await conn.execute("SELECT balance FROM acct WHERE id = 2")).rows).toEqual([[30]])
    await conn.rollback()
    // a body that does not parse creates the procedure INVALID with a warning (ORA-24344, oracledb's NJS-700), as
    // Oracle compiles at CREATE time; calling it is PLS-00905 (oracle-plsql-stored-code.test.ts has the dictionary)
    const bad = await conn.execute("CREATE OR REPLACE PROCEDURE broken AS BEGIN LOOP NULL; END; END;")
    expect(bad.warning?.message).toMatch(/^NJS-700: creation succeeded with compilation errors/)
    const call = await failure(() => conn.execute("BEGIN broken; END;"))
    expect(call.message).toMatch(/^ORA-06550: line 1, column 7:\nPLS-00905: object \w+\.BROKEN is invalid/)
  })

  it("reports a statement it cannot parse as PLS-00103 inside ORA-06550 with line and column, and runs nothing", async () => {
    const e = await failure(() => conn.execute("BEGIN\n  INSERT INTO acct VALUES (7, 'x', 1);\n  IF 1 = 1 THEN NULL;\nEND;"))
    expect((e as Error & { errorNum: number }).errorNum).toBe(6550)
    expect(e.message).toMatch(/^ORA-06550: line 4, column 4:\nPLS-00103: Encountered the symbol ";" when expecting one of the following:/)
    const u = await failure(() => conn.execute("BEGIN\n  no_such_thing(1);\nEND;"))
    expect(u.message).toMatch(/^ORA-06550: line 2, column 3:\nPLS-00201: identifier 'NO_SUCH_THING' must be declared/)
    expect((await conn.execute("SELECT COUNT(*) FROM acct WHERE id = 7")).rows).toEqual([[0]])
    // an undeclared name in an expression: PLS-00201 at the name, not caught by WHEN OTHERS
    const x = await failure(() => conn.execute("DECLARE n NUMBER; BEGIN\n  n := nothing_here + 1;\nEXCEPTION WHEN OTHERS THEN NULL; END;"))
    expect(x.message).toMatch(/^ORA-06550: line 2, column 8:\nPLS-00201: identifier 'NOTHING_HERE' must be declared/)
  })

  it("a DML whose RETURNING INTO matches several rows is undone before TOO_MANY_ROWS reaches a handler", async () => {
    // statement-level atomicity (PL/SQL Language Reference, "PL/SQL Error Handling": "If a SQL statement raises an
    // exception ... the database rolls back the effects of the statement"); the block's earlier UPDATE stays
    const block = (dml: string) => `DECLARE v NUMBER; BEGIN
  UPDATE acct SET balance = balance + 1 WHERE id = 1;
  BEGIN
    ${dml}
  EXCEPTION WHEN TOO_MANY_ROWS THEN :caught := SQLCODE;
  END;
END;`
    for (const dml of [
      "UPDATE acct SET balance = balance * 2 WHERE owner = 'bob' RETURNING balance INTO v;",
      "DELETE FROM acct WHERE owner = 'bob' RETURNING id INTO v;",
      "EXECUTE IMMEDIATE 'UPDATE acct SET balance = balance * 2 WHERE owner = ''bob'' RETURNING balance INTO :b' RETURNING INTO v;"
    ]) {
      const r = await conn.execute(block(dml), { caught: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
      expect((r.outBinds as { caught: number }).caught).toBe(-1422)
      expect((await conn.execute("SELECT id, balance FROM acct ORDER BY id")).rows).toEqual([
        [1, 101],
        [2, 50],
        [3, 10]
      ])
      await conn.rollback()
    }
  })
})
