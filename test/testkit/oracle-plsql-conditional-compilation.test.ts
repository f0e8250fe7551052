import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * PL/SQL conditional compilation through raw node-oracledb (PL/SQL Language Reference, "Conditional Compilation"):
 * selection directives keep the branch whose static condition holds, inquiry directives give the unit's name, type,
 * line and the session's PLSQL_CCFLAGS, DBMS_DB_VERSION constants are static, and $ERROR fails the compilation with
 * PLS-00179.
 */
describe("Oracle test server: conditional compilation", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 }

  it("keeps the branch whose condition holds, by PLSQL_CCFLAGS set for the session", async () => {
    const block = "BEGIN\n  $IF $$debug $THEN :r := 'debug';\n  $ELSIF $$level > 1 $THEN :r := 'level ' || $$level;\n  $ELSE :r := 'plain';\n  $END\nEND;"
    expect((await conn.execute(block, { r: out })).outBinds.r).toBe("plain")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'debug:FALSE, level:3'")
    expect((await conn.execute(block, { r: out })).outBinds.r).toBe("level 3")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'debug:TRUE'")
    expect((await conn.execute(block, { r: out })).outBinds.r).toBe("debug")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")
  })

  it("gives stored units their name, owner, type and line through inquiry directives, compiled with the flags of their CREATE", async () => {
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'trace:TRUE'")
    await conn.execute(
      "CREATE OR REPLACE FUNCTION whoami RETURN VARCHAR2 IS\nBEGIN\n  $IF $$trace $THEN\n    RETURN $$PLSQL_UNIT_TYPE || ' ' || $$PLSQL_UNIT_OWNER || '.' || $$PLSQL_UNIT || ' line ' || $$PLSQL_LINE;\n  $ELSE\n    RETURN 'untraced';\n  $END\nEND;"
    )
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")
    expect((await conn.execute("SELECT whoami FROM dual")).rows).toEqual([[`FUNCTION ${server.user}.WHOAMI line 4`]])
    // an anonymous block has no unit name
    const r = await conn.execute("BEGIN :r := NVL($$PLSQL_UNIT, 'none') || ' ' || $$PLSQL_UNIT_TYPE || ' ' || $$PLSQL_LINE; END;", { r: out })
    expect(r.outBinds.r).toBe("none ANONYMOUS BLOCK 1")
  })

  it("reads DBMS_DB_VERSION in conditions, nests directives and keeps line numbers in errors", async () => {
    const r = await conn.execute(
      "BEGIN\n  $IF DBMS_DB_VERSION.VERSION >= 19 AND NOT DBMS_DB_VERSION.VER_LE_12 $THEN\n    $IF $$missing IS NULL $THEN :r := 'new'; $ELSE :r := 'flag'; $END\n  $ELSE\n    :r := 'old';\n  $END\nEND;",
      { r: out }
    )
    expect(r.outBinds.r).toBe("new")
    // the error of a kept branch on line 4 is reported on line 4: the left-out lines stay lines
    const e = await failure(() => conn.execute("BEGIN\n  $IF FALSE $THEN\n    NULL;\n  $END\n  x := 1;\nEND;"))
    expect(e.message).toMatch(/^ORA-06550: line 5, column 3:\nPLS-00201: identifier 'X' must be declared/)
  })

  it("fails the compilation with $ERROR in a kept branch, PLS-00179", async () => {
    const e = await failure(() => conn.execute("BEGIN\n  $IF $$must_set IS NULL $THEN\n    $ERROR 'must_set is not set' $END\n  $END\n  NULL;\nEND;"))
    expect(e.message).toMatch(/^ORA-06550: line 3, column 5:\nPLS-00179: \$ERROR: must_set is not set/)
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'must_set:1'")
    await conn.execute("BEGIN\n  $IF $$must_set IS NULL $THEN\n    $ERROR 'must_set is not set' $END\n  $END\n  NULL;\nEND;")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")
  })

  it("shows a stored unit's source as written in USER_SOURCE while it runs the branch its flags keep", async () => {
    const create = "CREATE OR REPLACE FUNCTION cc_src RETURN VARCHAR2 IS\nBEGIN\n  $IF $$debug $THEN RETURN 'debug';\n  $ELSE RETURN 'plain';\n  $END\nEND;"
    await conn.execute(create)
    const lines = ((await conn.execute("SELECT line, text FROM user_source WHERE name = 'CC_SRC' ORDER BY line")).rows ?? []) as Array<[number, string]>
    expect(lines.map(([, text]) => text).join("")).toBe(create.replace(/^CREATE OR REPLACE /, ""))
    expect(lines[2]).toEqual([3, "  $IF $$debug $THEN RETURN 'debug';\n"])
    expect((await conn.execute("SELECT cc_src() FROM dual")).rows).toEqual([["plain"]])
    // a package body likewise
    await conn.execute("CREATE OR REPLACE PACKAGE cc_pkg IS FUNCTION f RETURN NUMBER; END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY cc_pkg IS\n  FUNCTION f RETURN NUMBER IS BEGIN RETURN $$PLSQL_LINE; END;\nEND;")
    const body = (await conn.execute("SELECT text FROM user_source WHERE name = 'CC_PKG' AND type = 'PACKAGE BODY' AND line = 2")).rows
    expect(body).toEqual([["  FUNCTION f RETURN NUMBER IS BEGIN RETURN $$PLSQL_LINE; END;\n"]])
    expect((await conn.execute("SELECT cc_pkg.f FROM dual")).rows).toEqual([[2]])
  })

  it("stores a procedure or package body whose kept branch holds $ERROR INVALID with PLS-00179, the CREATE succeeding with a warning", async () => {
    const create = "CREATE OR REPLACE PROCEDURE cc_guarded IS\nBEGIN\n  $IF $$must_set IS NULL $THEN\n    $ERROR 'must_set is not set' $END\n  $END\n  NULL;\nEND;"
    const r = await conn.execute(create)
    expect(r.warning?.message).toMatch(/^NJS-700: creation succeeded with compilation errors/)
    expect((await conn.execute("SELECT status FROM user_objects WHERE object_name = 'CC_GUARDED'")).rows).toEqual([["INVALID"]])
    expect((await conn.execute("SELECT line, position, text FROM user_errors WHERE name = 'CC_GUARDED'")).rows).toEqual([[4, 5, "PLS-00179: $ERROR: must_set is not set"]])
    const call = await failure(() => conn.execute("BEGIN cc_guarded; END;"))
    expect(call.message).toMatch(/^ORA-06550: .*\nPLS-00905: object .*\.CC_GUARDED is invalid/)
    // with the flag set the CREATE compiles
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'must_set:1'")
    const again = await conn.execute(create)
    expect(again.warning).toBeUndefined()
    await conn.execute("BEGIN cc_guarded; END;")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")

    await conn.execute("CREATE OR REPLACE PACKAGE cc_guarded_pkg IS PROCEDURE p; END;")
    const body = await conn.execute("CREATE OR REPLACE PACKAGE BODY cc_guarded_pkg IS\n  $ERROR 'not ready' $END\n  PROCEDURE p IS BEGIN NULL; END;\nEND;")
    expect(body.warning?.message).toMatch(/^NJS-700/)
    expect((await conn.execute("SELECT text FROM user_errors WHERE name = 'CC_GUARDED_PKG'")).rows).toEqual([["PLS-00179: $ERROR: not ready"]])
  })
})
