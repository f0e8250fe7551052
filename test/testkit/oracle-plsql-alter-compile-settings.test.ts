import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// ALTER PROCEDURE | FUNCTION | PACKAGE ... COMPILE compiles a unit again from its source as written, its conditional
// compilation under the PLSQL_CCFLAGS of the statement's compiler_parameters_clause, else with REUSE SETTINGS those the
// unit was compiled with, else the session's current ones (SQL Language Reference, "ALTER PROCEDURE").
describe("Oracle test server: ALTER ... COMPILE with PLSQL_CCFLAGS and REUSE SETTINGS", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const flags = (setting: string) => conn.execute(`ALTER SESSION SET PLSQL_CCFLAGS = '${setting}'`)
  const value = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]

  it("a function compiles again with the clause's flags, the session's, or with REUSE SETTINGS its own (was: always the CREATE's)", async () => {
    await flags("mode:1")
    await conn.execute("CREATE OR REPLACE FUNCTION ac_mode RETURN VARCHAR2 IS\nBEGIN\n  $IF $$mode = 1 $THEN RETURN 'one'; $ELSIF $$mode = 2 $THEN RETURN 'two'; $ELSE RETURN 'none'; $END\nEND;")
    expect(await value("SELECT ac_mode FROM dual")).toBe("one")
    await conn.execute("ALTER FUNCTION ac_mode COMPILE PLSQL_CCFLAGS = 'mode:2'")
    expect(await value("SELECT ac_mode FROM dual")).toBe("two")
    // REUSE SETTINGS: the unit's own flags (mode:2), not the session's (mode:1)
    await conn.execute("ALTER FUNCTION ac_mode COMPILE REUSE SETTINGS")
    expect(await value("SELECT ac_mode FROM dual")).toBe("two")
    // neither: the session's current flags
    await flags("")
    await conn.execute("ALTER FUNCTION ac_mode COMPILE")
    expect(await value("SELECT ac_mode FROM dual")).toBe("none")
    // USER_SOURCE still shows the source as written
    expect(await value("SELECT COUNT(*) FROM user_source WHERE name = 'AC_MODE' AND text LIKE '%$IF%'")).toBe(1)
  })

  it("a package body compiles again with the clause's flags on ALTER PACKAGE ... COMPILE BODY (was: always the CREATE's)", async () => {
    await flags("")
    await conn.execute("CREATE OR REPLACE PACKAGE ac_pkg IS FUNCTION f RETURN VARCHAR2; END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY ac_pkg IS\n  FUNCTION f RETURN VARCHAR2 IS BEGIN\n    $IF $$trace $THEN RETURN 'traced'; $ELSE RETURN 'plain'; $END\n  END;\nEND;")
    expect(await value("SELECT ac_pkg.f FROM dual")).toBe("plain")
    await conn.execute("ALTER PACKAGE ac_pkg COMPILE BODY PLSQL_CCFLAGS = 'trace:TRUE' REUSE SETTINGS")
    expect(await value("SELECT ac_pkg.f FROM dual")).toBe("traced")
    await conn.execute("ALTER PACKAGE ac_pkg COMPILE")
    expect(await value("SELECT ac_pkg.f FROM dual")).toBe("plain")
  })
})
