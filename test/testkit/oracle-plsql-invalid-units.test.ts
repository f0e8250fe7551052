import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * Stored units that do not compile, and units whose tables change, through raw node-oracledb: a package body that
 * does not parse, a procedure assigning an undeclared name or reading a missing table are created INVALID with their
 * errors in USER_ERRORS and the CREATE answered with ORA-24344's warning (node-oracledb's NJS-700); dropping or
 * changing a table a unit uses makes it INVALID, and the next call or ALTER ... COMPILE compiles it again, as the
 * Database Development Guide ("Schema Object Dependency") and the SQL Language Reference ("ALTER PROCEDURE") describe.
 */
describe("Oracle test server: invalid stored units and their dependencies", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const status = async (name: string) => (await conn.execute(`SELECT object_type, status FROM user_objects WHERE object_name = '${name}' ORDER BY object_type`)).rows
  const errors = async (name: string) => (await conn.execute(`SELECT type, sequence, line, position, text, message_number FROM user_errors WHERE name = '${name}' ORDER BY type, sequence`)).rows

  it("stores a package body that does not parse INVALID with its PLS-00103, and a call fails ORA-04063 / ORA-06508", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE pbad AS PROCEDURE p; END;")
    const r = await conn.execute("CREATE OR REPLACE PACKAGE BODY pbad AS\n  PROCEDURE p IS\n  BEGIN\n    x := ;\n  END;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700: creation succeeded with compilation errors/)
    expect(await status("PBAD")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "INVALID"]
    ])
    const listed = await errors("PBAD")
    expect(listed.map((e: Array<unknown>) => e.slice(0, 4))).toEqual([["PACKAGE BODY", 1, 4, 10]])
    expect(listed[0][4]).toMatch(/^PLS-00103: Encountered the symbol ";" when expecting one of the following:/)
    const call = await failure(() => conn.execute("BEGIN pbad.p; END;"))
    expect(call.message).toMatch(new RegExp(`^ORA-04063: package body "${server.user}\\.PBAD" has errors\\nORA-06508: PL/SQL: could not find program unit being called: "${server.user}\\.PBAD"\\nORA-06512: at line 1`))
    // a body that compiles replaces it: VALID, no errors, callable
    await conn.execute("CREATE OR REPLACE PACKAGE BODY pbad AS\n  PROCEDURE p IS\n  BEGIN\n    NULL;\n  END;\nEND;")
    expect(await status("PBAD")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "VALID"]
    ])
    expect(await errors("PBAD")).toEqual([])
    await conn.execute("BEGIN pbad.p; END;")
  })

  it("creates a procedure assigning an undeclared name INVALID with PLS-00201 and Statement ignored; calling it is PLS-00905", async () => {
    const r = await conn.execute("CREATE OR REPLACE PROCEDURE undeclared_p IS\nBEGIN\n  nosuch := 1;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700/)
    expect(await status("UNDECLARED_P")).toEqual([["PROCEDURE", "INVALID"]])
    expect(await errors("UNDECLARED_P")).toEqual([
      ["PROCEDURE", 1, 3, 3, "PLS-00201: identifier 'NOSUCH' must be declared", 201],
      ["PROCEDURE", 2, 3, 3, "PL/SQL: Statement ignored", 0]
    ])
    const call = await failure(() => conn.execute("BEGIN undeclared_p; END;"))
    expect(call.message).toMatch(new RegExp(`^ORA-06550: line 1, column 7:\\nPLS-00905: object ${server.user}\\.UNDECLARED_P is invalid`))
    // declared names (parameters, locals, loop indexes, package variables) compile
    await conn.execute("CREATE OR REPLACE PACKAGE pvars AS counter NUMBER; END;")
    const ok = await conn.execute("CREATE OR REPLACE PROCEDURE declared_p(a IN OUT NUMBER) IS\n  b NUMBER;\nBEGIN\n  a := 1;\n  b := 2;\n  FOR i IN 1 .. 2 LOOP b := i; END LOOP;\n  pvars.counter := b;\nEND;")
    expect(ok.warning).toBeUndefined()
    expect(await status("DECLARED_P")).toEqual([["PROCEDURE", "VALID"]])
  })

  it("creates a unit whose SQL reads a missing table INVALID with PL/SQL: ORA-00942 and SQL Statement ignored", async () => {
    const r = await conn.execute("CREATE OR REPLACE FUNCTION count_missing RETURN NUMBER IS\n  n NUMBER;\nBEGIN\n  SELECT COUNT(*) INTO n FROM nosuch_t;\n  RETURN n;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700/)
    expect(await errors("COUNT_MISSING")).toEqual([
      ["FUNCTION", 1, 4, 31, `PL/SQL: ORA-00942: table or view "${server.user}"."NOSUCH_T" does not exist`, 942],
      ["FUNCTION", 2, 4, 3, "PL/SQL: SQL Statement ignored", 0]
    ])
    const fromSql = await failure(() => conn.execute("SELECT count_missing() FROM dual"))
    expect(fromSql.message).toMatch(/^ORA-06575: Package or function COUNT_MISSING is in an invalid state/)
  })

  it("marks a procedure INVALID when its table is dropped; the next call compiles it again, VALID once the table is back", async () => {
    await conn.execute("CREATE TABLE dep_rows (a NUMBER)")
    await conn.execute("CREATE OR REPLACE PROCEDURE dep_count(n OUT NUMBER) IS\nBEGIN\n  SELECT COUNT(*) INTO n FROM dep_rows;\nEND;")
    expect(await status("DEP_COUNT")).toEqual([["PROCEDURE", "VALID"]])
    // a column added leaves it valid (fine-grained dependency), a dropped table does not
    await conn.execute("ALTER TABLE dep_rows ADD (b NUMBER)")
    expect(await status("DEP_COUNT")).toEqual([["PROCEDURE", "VALID"]])
    await conn.execute("DROP TABLE dep_rows")
    expect(await status("DEP_COUNT")).toEqual([["PROCEDURE", "INVALID"]])
    expect(await errors("DEP_COUNT")).toEqual([])
    const call = await failure(() => conn.execute("BEGIN dep_count(:n); END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }))
    expect(call.message).toMatch(new RegExp(`^ORA-06550: line 1, column 7:\\nPLS-00905: object ${server.user}\\.DEP_COUNT is invalid`))
    expect((await errors("DEP_COUNT")).map((e: Array<unknown>) => e.slice(2, 5))).toEqual([
      [3, 31, `PL/SQL: ORA-00942: table or view "${server.user}"."DEP_ROWS" does not exist`],
      [3, 3, "PL/SQL: SQL Statement ignored"]
    ])
    await conn.execute("CREATE TABLE dep_rows (a NUMBER)")
    await conn.execute("INSERT INTO dep_rows VALUES (7)")
    const r = await conn.execute("BEGIN dep_count(:n); END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds).toEqual({ n: 1 })
    expect(await status("DEP_COUNT")).toEqual([["PROCEDURE", "VALID"]])
    expect(await errors("DEP_COUNT")).toEqual([])
  })

  it("ALTER PROCEDURE / PACKAGE ... COMPILE compiles again: with errors a warning, without them VALID; an unknown unit is ORA-04043", async () => {
    await conn.execute("CREATE TABLE dep_pkg_t (a NUMBER)")
    await conn.execute("CREATE OR REPLACE PROCEDURE dep_touch IS\nBEGIN\n  DELETE FROM dep_pkg_t;\nEND;")
    await conn.execute("CREATE OR REPLACE PACKAGE dep_pkg AS PROCEDURE p; END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY dep_pkg AS\n  PROCEDURE p IS BEGIN INSERT INTO dep_pkg_t VALUES (1); END;\nEND;")
    await conn.execute("DROP TABLE dep_pkg_t")
    expect(await status("DEP_PKG")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "INVALID"]
    ])
    const proc = await conn.execute("ALTER PROCEDURE dep_touch COMPILE")
    expect(proc.warning?.message).toMatch(/^NJS-700/)
    expect((await errors("DEP_TOUCH")).map((e: Array<unknown>) => e[4])).toEqual([`PL/SQL: ORA-00942: table or view "${server.user}"."DEP_PKG_T" does not exist`, "PL/SQL: SQL Statement ignored"])
    const pkg = await conn.execute("ALTER PACKAGE dep_pkg COMPILE BODY")
    expect(pkg.warning?.message).toMatch(/^NJS-700/)
    await conn.execute("CREATE TABLE dep_pkg_t (a NUMBER)")
    expect((await conn.execute("ALTER PROCEDURE dep_touch COMPILE")).warning).toBeUndefined()
    expect((await conn.execute("ALTER PACKAGE dep_pkg COMPILE")).warning).toBeUndefined()
    expect(await status("DEP_TOUCH")).toEqual([["PROCEDURE", "VALID"]])
    expect(await status("DEP_PKG")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "VALID"]
    ])
    await conn.execute("BEGIN dep_pkg.p; dep_touch; END;")
    expect((await failure(() => conn.execute("ALTER PROCEDURE no_such_unit COMPILE"))).message).toMatch(/^ORA-04043: object NO_SUCH_UNIT does not exist/)
  })

  it("reports a missing ; at the block word after it (PLS-00103 at END with Oracle's list and the substitution note), in a block and in USER_ERRORS", async () => {
    const e = await failure(() => conn.execute("DECLARE\n  n NUMBER;\nBEGIN\n  IF n = 1 THEN\n    n := 2\n  END IF;\nEND;"))
    expect(e.message.split("\nHelp:")[0]).toBe(
      [
        "ORA-06550: line 6, column 3:",
        'PLS-00103: Encountered the symbol "END" when expecting one of the following:',
        "",
        "   * & = - + ; < / > at in is mod remainder not rem",
        "   <an exponent (**)> <> or != or ~= >= <= <> and or like like2",
        "   like4 likec between || multiset member submultiset",
        'The symbol ";" was substituted for "END" to continue.'
      ].join("\n")
    )
    const r = await conn.execute("CREATE OR REPLACE PROCEDURE missing_semicolon IS\n  n NUMBER;\nBEGIN\n  n := 1\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700/)
    const listed = await errors("MISSING_SEMICOLON")
    expect(listed.map((row: Array<unknown>) => row.slice(2, 4))).toEqual([[5, 1]])
    expect(listed[0][4]).toMatch(/^PLS-00103: Encountered the symbol "END" when expecting one of the following:/)
  })

  it("creates a trigger whose body does not parse INVALID (errors counted from its BEGIN); the DML it fires fails ORA-04098", async () => {
    await conn.execute("CREATE TABLE trg_rows (a NUMBER)")
    const r = await conn.execute("CREATE OR REPLACE TRIGGER trg_bad BEFORE INSERT ON trg_rows FOR EACH ROW\nBEGIN\n  :new.a := ;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700/)
    expect(await status("TRG_BAD")).toEqual([["TRIGGER", "INVALID"]])
    const listed = await errors("TRG_BAD")
    expect(listed.map((row: Array<unknown>) => row.slice(0, 4))).toEqual([["TRIGGER", 1, 2, 13]])
    expect(listed[0][4]).toMatch(/^PLS-00103: Encountered the symbol ";"/)
    const insert = await failure(() => conn.execute("INSERT INTO trg_rows VALUES (1)"))
    expect(insert.message).toMatch(new RegExp(`^ORA-04098: trigger '${server.user}\\.TRG_BAD' is invalid and failed re-validation`))
    await conn.execute("CREATE OR REPLACE TRIGGER trg_bad BEFORE INSERT ON trg_rows FOR EACH ROW\nBEGIN\n  :new.a := 5;\nEND;")
    expect(await status("TRG_BAD")).toEqual([["TRIGGER", "VALID"]])
    await conn.execute("INSERT INTO trg_rows VALUES (1)")
    expect((await conn.execute("SELECT a FROM trg_rows")).rows).toEqual([[5]])
  })

  it("creates a unit calling an unknown procedure INVALID (PLS-00201); created later it compiles on the next call, dropped again it is INVALID", async () => {
    const r = await conn.execute("CREATE OR REPLACE PROCEDURE calls_later IS\nBEGIN\n  later_callee;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700/)
    expect(await errors("CALLS_LATER")).toEqual([
      ["PROCEDURE", 1, 3, 3, "PLS-00201: identifier 'LATER_CALLEE' must be declared", 201],
      ["PROCEDURE", 2, 3, 3, "PL/SQL: Statement ignored", 0]
    ])
    await conn.execute("CREATE OR REPLACE PROCEDURE later_callee IS BEGIN NULL; END;")
    await conn.execute("BEGIN calls_later; END;")
    expect(await status("CALLS_LATER")).toEqual([["PROCEDURE", "VALID"]])
    await conn.execute("DROP PROCEDURE later_callee")
    expect(await status("CALLS_LATER")).toEqual([["PROCEDURE", "INVALID"]])
    // local subprograms (also one declared after its caller), recursion and RAISE_APPLICATION_ERROR compile
    const ok = await conn.execute("CREATE OR REPLACE PROCEDURE calls_known(n NUMBER) IS\n  PROCEDURE a IS BEGIN b; END;\n  PROCEDURE b IS BEGIN NULL; END;\nBEGIN\n  IF n > 0 THEN calls_known(n - 1); END IF;\n  a;\n  IF n < 0 THEN RAISE_APPLICATION_ERROR(-20001, 'negative'); END IF;\nEND;")
    expect(ok.warning).toBeUndefined()
  })

  it("creates a unit whose INSERT column list or UPDATE SET names a missing column INVALID with PL/SQL: ORA-00904", async () => {
    await conn.execute("CREATE TABLE col_rows (a NUMBER, b VARCHAR2(10))")
    const r = await conn.execute("CREATE OR REPLACE PROCEDURE bad_columns IS\nBEGIN\n  INSERT INTO col_rows (a, nope) VALUES (1, 2);\n  UPDATE col_rows SET b = 'x', gone = 1 WHERE a = 1;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700/)
    expect((await errors("BAD_COLUMNS")).map((e: Array<unknown>) => e.slice(2, 6))).toEqual([
      [3, 28, 'PL/SQL: ORA-00904: "NOPE": invalid identifier', 904],
      [3, 3, "PL/SQL: SQL Statement ignored", 0],
      [4, 32, 'PL/SQL: ORA-00904: "GONE": invalid identifier', 904],
      [4, 3, "PL/SQL: SQL Statement ignored", 0]
    ])
    const ok = await conn.execute("CREATE OR REPLACE PROCEDURE good_columns IS\nBEGIN\n  INSERT INTO col_rows (a, b) VALUES (1, 'x');\n  UPDATE col_rows c SET c.a = 2, (b) = (SELECT 'y' FROM dual) WHERE a = 1;\nEND;")
    expect(ok.warning).toBeUndefined()
  })

  it("a new package specification makes the body INVALID; its next use compiles it again against the new one", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE spec_dep AS FUNCTION f RETURN NUMBER; END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY spec_dep AS FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END; END;")
    // the same text again changes nothing
    await conn.execute("CREATE OR REPLACE PACKAGE spec_dep AS FUNCTION f RETURN NUMBER; END;")
    expect(await status("SPEC_DEP")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "VALID"]
    ])
    await conn.execute("CREATE OR REPLACE PACKAGE spec_dep AS FUNCTION f RETURN NUMBER; c CONSTANT NUMBER := 2; END;")
    expect(await status("SPEC_DEP")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "INVALID"]
    ])
    const r = await conn.execute("BEGIN :v := spec_dep.f + spec_dep.c; END;", { v: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds).toEqual({ v: 3 })
    expect(await status("SPEC_DEP")).toEqual([
      ["PACKAGE", "VALID"],
      ["PACKAGE BODY", "VALID"]
    ])
  })
})
