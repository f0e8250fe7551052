import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

// DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE prints, through DBMS_OUTPUT, what conditional compilation made of a
// stored unit (the text it was compiled from) or of a unit's source given as a string (PL/SQL Packages and Types
// Reference, DBMS_PREPROCESSOR); the lines the directives left blank are not printed.
describe("Oracle test server: DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const printed = async (block: string): Promise<Array<string>> => {
    await conn.execute("BEGIN DBMS_OUTPUT.ENABLE; END;")
    await conn.execute(block)
    const r = await conn.execute("BEGIN DBMS_OUTPUT.GET_LINES(:lines, :n); END;", {
      lines: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 32767, maxArraySize: 100 },
      n: { dir: oracledb.BIND_INOUT, val: 100 }
    })
    await conn.execute("BEGIN DBMS_OUTPUT.DISABLE; END;")
    return (r.outBinds as { lines: Array<string> }).lines
  }

  it("prints a stored procedure's post-processed text, compiled with the flags of its CREATE (was: PLS-00201)", async () => {
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'fast:TRUE'")
    await conn.execute("CREATE OR REPLACE PROCEDURE pp_proc IS\nBEGIN\n$IF $$fast $THEN\n  -- fast\n  NULL;\n$ELSE\n  -- slow\n  DBMS_LOCK.SLEEP(1);\n$END\nEND pp_proc;")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")
    expect(await printed("BEGIN DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE('PROCEDURE', NULL, 'PP_PROC'); END;")).toEqual(["PROCEDURE pp_proc IS", "BEGIN", "  -- fast", "  NULL;", "END pp_proc;"])
    // ALL_SOURCE keeps the source as written
    expect((await conn.execute("SELECT COUNT(*) FROM user_source WHERE name = 'PP_PROC'")).rows).toEqual([[10]])
  })

  it("prints a source text given as a string, processed under the session's PLSQL_CCFLAGS (was: PLS-00201)", async () => {
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'level:2'")
    const block = "BEGIN DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE('BEGIN\n$IF $$level > 1 $THEN\n  x := $$level;\n$END\n  NULL;\nEND;'); END;"
    expect(await printed(block)).toEqual(["BEGIN", "  x := 2;", "  NULL;", "END;"])
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")
  })

  it("fails for a unit that is not there, a bad object type and a NULL name (was: PLS-00201)", async () => {
    const call = (args: string) => failure(() => conn.execute(`BEGIN DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE(${args}); END;`))
    expect(oraCode(await call("'PROCEDURE', USER, 'PP_NONE'"))).toBe("ORA-24234")
    expect(oraCode(await call("'TABLE', USER, 'PP_PROC'"))).toBe("ORA-24235")
    expect(oraCode(await call("'PROCEDURE', USER, NULL"))).toBe("ORA-00931")
  })
})
