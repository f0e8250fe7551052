import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * Names Oracle's PL/SQL compiler resolves before a unit runs, through raw node-oracledb: an undeclared name inside an
 * expression makes a stored unit INVALID with PLS-00201 in USER_ERRORS (the CREATE answered with ORA-24344's warning,
 * node-oracledb's NJS-700) and fails an anonymous block before any of its statements ran; CREATE OR REPLACE of a
 * procedure, function or package specification a unit calls makes that unit INVALID until its next call compiles it
 * again (Database Development Guide, "Schema Object Dependency").
 */
describe("Oracle test server: compile-time names and dependencies of stored units", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE cn_log (msg VARCHAR2(40))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const status = async (name: string) => (await conn.execute(`SELECT object_type, status FROM user_objects WHERE object_name = '${name}' ORDER BY object_type`)).rows
  const errors = async (name: string) => (await conn.execute(`SELECT type, sequence, line, position, text, message_number FROM user_errors WHERE name = '${name}' ORDER BY type, sequence`)).rows

  it("creates a procedure reading an undeclared name in an expression INVALID with PLS-00201 at the name", async () => {
    const r = await conn.execute("CREATE OR REPLACE PROCEDURE cn_expr IS\n  x NUMBER;\nBEGIN\n  x := undeclared_v + 1;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700: creation succeeded with compilation errors/)
    expect(await status("CN_EXPR")).toEqual([["PROCEDURE", "INVALID"]])
    expect(await errors("CN_EXPR")).toEqual([
      ["PROCEDURE", 1, 4, 8, "PLS-00201: identifier 'UNDECLARED_V' must be declared", 201],
      ["PROCEDURE", 2, 4, 3, "PL/SQL: Statement ignored", 0]
    ])
    const call = await failure(() => conn.execute("BEGIN cn_expr; END;"))
    expect(call.message).toMatch(new RegExp(`^ORA-06550: line 1, column 7:\\nPLS-00905: object ${server.user}\\.CN_EXPR is invalid`))
    // conditions, loop bounds, call arguments and RETURN expressions are checked too
    const f = await conn.execute("CREATE OR REPLACE FUNCTION cn_fn(a NUMBER) RETURN NUMBER IS\nBEGIN\n  IF a > 0 THEN\n    RETURN a * missing_factor;\n  END IF;\n  RETURN 0;\nEND;")
    expect(f.warning?.message).toMatch(/^NJS-700/)
    expect(await errors("CN_FN")).toEqual([
      ["FUNCTION", 1, 4, 16, "PLS-00201: identifier 'MISSING_FACTOR' must be declared", 201],
      ["FUNCTION", 2, 4, 5, "PL/SQL: Statement ignored", 0]
    ])
  })

  it("compiles units whose expressions use only declared names, built-in functions and SQL's keywords", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE cn_pkg AS limit_v CONSTANT NUMBER := 10; FUNCTION twice(n NUMBER) RETURN NUMBER; END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY cn_pkg AS FUNCTION twice(n NUMBER) RETURN NUMBER IS BEGIN RETURN n * 2; END; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION cn_one RETURN NUMBER IS BEGIN RETURN 1; END;")
    const ok = await conn.execute(
      `CREATE OR REPLACE PROCEDURE cn_fine(p IN NUMBER, r OUT VARCHAR2) IS
  TYPE nums IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
  v nums;
  d DATE := SYSDATE;
  s VARCHAR2(100) := USER;
  n NUMBER := cn_one + cn_pkg.limit_v;
BEGIN
  v(1) := p;
  FOR i IN 1 .. v.COUNT LOOP
    n := n + CASE WHEN v(i) IS NOT NULL AND v(i) BETWEEN 0 AND 100 THEN v(i) ELSE 0 END;
  END LOOP;
  s := CAST(n AS VARCHAR2(20)) || TRIM(BOTH ' ' FROM ' x ') || EXTRACT(YEAR FROM d) || TO_CHAR(INTERVAL '1' DAY) || SQLCODE;
  IF SQL%ROWCOUNT IS NULL OR TRUE THEN r := s || cn_pkg.twice(n => n); END IF;
  d := d + INTERVAL '2' HOUR;
END;`
    )
    expect(ok.warning).toBeUndefined()
    expect(await status("CN_FINE")).toEqual([["PROCEDURE", "VALID"]])
    // condition words and type names are no names to declare (compiled only)
    await conn.execute("CREATE TYPE cn_obj AS OBJECT (n NUMBER)")
    const words = await conn.execute("CREATE OR REPLACE PROCEDURE cn_words(s VARCHAR2, o cn_obj, b OUT BOOLEAN) IS\nBEGIN\n  b := s IS JSON STRICT OR o IS OF (ONLY cn_obj) OR s IS NOT NULL;\nEND;")
    expect(words.warning).toBeUndefined()
    const out = await conn.execute("BEGIN cn_fine(5, :r); END;", { r: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })
    expect(out.outBinds.r).toMatch(/^16x\d{4}/)
  })

  it("fails an anonymous block naming an undeclared name before any statement ran: nothing written, no handler", async () => {
    const e = await failure(() =>
      conn.execute(`BEGIN
  INSERT INTO cn_log VALUES ('first');
  IF nosuch_flag = 1 THEN NULL; END IF;
EXCEPTION WHEN OTHERS THEN NULL;
END;`)
    )
    expect(e.message.split("\nHelp:")[0]).toBe("ORA-06550: line 3, column 6:\nPLS-00201: identifier 'NOSUCH_FLAG' must be declared\nORA-06550: line 3, column 3:\nPL/SQL: Statement ignored")
    expect((await conn.execute("SELECT COUNT(*) FROM cn_log")).rows).toEqual([[0]])
    // every undeclared name of the block is listed, as Oracle lists them
    const two = await failure(() => conn.execute("DECLARE\n  n NUMBER;\nBEGIN\n  n := a1;\n  n := a2;\nEND;"))
    expect(two.message.split("\nHelp:")[0]).toBe(
      "ORA-06550: line 4, column 8:\nPLS-00201: identifier 'A1' must be declared\nORA-06550: line 4, column 3:\nPL/SQL: Statement ignored\n" +
        "ORA-06550: line 5, column 8:\nPLS-00201: identifier 'A2' must be declared\nORA-06550: line 5, column 3:\nPL/SQL: Statement ignored"
    )
  })

  it("invalidates a unit when a procedure or function it calls is created again; its next call compiles it VALID", async () => {
    await conn.execute("CREATE OR REPLACE PROCEDURE cn_callee(n OUT NUMBER) IS BEGIN n := 1; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION cn_f RETURN NUMBER IS BEGIN RETURN 10; END;")
    await conn.execute("CREATE OR REPLACE PROCEDURE cn_caller(n OUT NUMBER) IS\n  m NUMBER;\nBEGIN\n  cn_callee(m);\n  n := m + cn_f();\nEND;")
    expect(await status("CN_CALLER")).toEqual([["PROCEDURE", "VALID"]])
    await conn.execute("CREATE OR REPLACE PROCEDURE cn_callee(n OUT NUMBER) IS BEGIN n := 2; END;")
    expect(await status("CN_CALLER")).toEqual([["PROCEDURE", "INVALID"]])
    const out = { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    expect((await conn.execute("BEGIN cn_caller(:n); END;", out)).outBinds.n).toBe(12)
    expect(await status("CN_CALLER")).toEqual([["PROCEDURE", "VALID"]])
    // a function read in an expression counts as well; the same text again changes nothing
    await conn.execute("CREATE OR REPLACE FUNCTION cn_f RETURN NUMBER IS BEGIN RETURN 20; END;")
    expect(await status("CN_CALLER")).toEqual([["PROCEDURE", "INVALID"]])
    expect((await conn.execute("BEGIN cn_caller(:n); END;", out)).outBinds.n).toBe(22)
    await conn.execute("CREATE OR REPLACE FUNCTION cn_f RETURN NUMBER IS BEGIN RETURN 20; END;")
    expect(await status("CN_CALLER")).toEqual([["PROCEDURE", "VALID"]])
  })

  it("invalidates a unit when the specification of a package it uses is created again", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE cn_spec AS base NUMBER := 5; PROCEDURE bump(n IN OUT NUMBER); END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY cn_spec AS PROCEDURE bump(n IN OUT NUMBER) IS BEGIN n := n + base; END; END;")
    await conn.execute("CREATE OR REPLACE PROCEDURE cn_user(n IN OUT NUMBER) IS\nBEGIN\n  cn_spec.bump(n);\nEND;")
    await conn.execute("CREATE OR REPLACE FUNCTION cn_reader RETURN NUMBER IS\nBEGIN\n  RETURN cn_spec.base;\nEND;")
    expect(await status("CN_USER")).toEqual([["PROCEDURE", "VALID"]])
    expect(await status("CN_READER")).toEqual([["FUNCTION", "VALID"]])
    await conn.execute("CREATE OR REPLACE PACKAGE cn_spec AS base NUMBER := 7; PROCEDURE bump(n IN OUT NUMBER); END;")
    expect(await status("CN_USER")).toEqual([["PROCEDURE", "INVALID"]])
    expect(await status("CN_READER")).toEqual([["FUNCTION", "INVALID"]])
    await conn.execute("ALTER PACKAGE cn_spec COMPILE BODY")
    const n = { dir: oracledb.BIND_INOUT, type: oracledb.NUMBER, val: 1 }
    expect((await conn.execute("BEGIN cn_user(:n); END;", { n })).outBinds.n).toBe(8)
    expect(await status("CN_USER")).toEqual([["PROCEDURE", "VALID"]])
    expect((await conn.execute("SELECT cn_reader() FROM dual")).rows).toEqual([[7]])
    expect(await status("CN_READER")).toEqual([["FUNCTION", "VALID"]])
  })
})
