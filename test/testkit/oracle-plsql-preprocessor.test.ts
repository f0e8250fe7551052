import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

// DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE prints, through DBMS_OUTPUT, what conditional compilation made of a
// stored unit (the text it was compiled from) or of a unit's source given as a string (PL/SQL Packages and Types
// Reference, DBMS_PREPROCESSOR); the lines the directives left blank are not printed.
describe("Oracle test server: DBMS_PREPROCESSOR", () => {
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

  it("GET_POST_PROCESSED_SOURCE returns the lines as SOURCE_LINES_T, the blanked ones kept, each but the last with its line feed (was: PLS-00201)", async () => {
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = 'fast:FALSE'")
    const r = await conn.execute(
      `DECLARE l DBMS_PREPROCESSOR.SOURCE_LINES_T; v VARCHAR2(4000);
BEGIN
  l := DBMS_PREPROCESSOR.GET_POST_PROCESSED_SOURCE('BEGIN
$IF $$fast $THEN
  NULL;
$ELSE
  x := 1;
$END
END;');
  FOR i IN 1 .. l.COUNT LOOP
    v := v || i || '[' || TRIM(REPLACE(l(i), CHR(10))) || ']' || CASE WHEN INSTR(l(i), CHR(10)) > 0 THEN '~' END;
  END LOOP;
  :v := v;
END;`,
      { v: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 4000 } }
    )
    expect((r.outBinds as { v: string }).v).toBe("1[BEGIN]~2[]~3[]~4[]~5[x := 1;]~6[]~7[END;]")
    await conn.execute("ALTER SESSION SET PLSQL_CCFLAGS = ''")
  })

  it("fails for a unit that is not there, a bad object type and a NULL name (was: PLS-00201)", async () => {
    const call = (args: string) => failure(() => conn.execute(`BEGIN DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE(${args}); END;`))
    expect(oraCode(await call("'PROCEDURE', USER, 'PP_NONE'"))).toBe("ORA-24234")
    expect(oraCode(await call("'TABLE', USER, 'PP_PROC'"))).toBe("ORA-24235")
    expect(oraCode(await call("'PROCEDURE', USER, NULL"))).toBe("ORA-00931")
  })
})
