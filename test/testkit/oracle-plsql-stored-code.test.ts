import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Stored PL/SQL in the data dictionary through raw node-oracledb: USER_OBJECTS / ALL_OBJECTS with STATUS, USER_SOURCE
 * one row per line of the stored text, USER_ERRORS of a unit created with compile errors (created INVALID, the CREATE
 * answered with the warning ORA-24344 that node-oracledb reports as `result.warning` NJS-700), USER_PROCEDURES and
 * USER_ARGUMENTS, as the Database Reference (23ai) describes ALL_OBJECTS, ALL_SOURCE, ALL_ERRORS, ALL_PROCEDURES and
 * ALL_ARGUMENTS; calling an invalid unit is PLS-00905 from PL/SQL and ORA-06575 from SQL (Error Messages).
 */
describe("Oracle test server: stored PL/SQL in the dictionary", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("lists procedures, functions and packages in USER_OBJECTS, USER_SOURCE, USER_PROCEDURES and USER_ARGUMENTS", async () => {
    const created = await conn.execute(`CREATE OR REPLACE FUNCTION add_tax(p_amount IN NUMBER, p_rate NUMBER DEFAULT 0.2) RETURN NUMBER IS
BEGIN
  RETURN p_amount * (1 + p_rate);
END add_tax;`)
    expect(created.warning).toBeUndefined()
    await conn.execute("CREATE OR REPLACE PROCEDURE log_it(p_text IN VARCHAR2, p_count OUT NUMBER) AS BEGIN p_count := LENGTH(p_text); END;")
    await conn.execute("CREATE OR REPLACE PACKAGE shop AS\n  FUNCTION price(p_id NUMBER) RETURN NUMBER;\n  PROCEDURE reset;\nEND shop;")
    const objects = await conn.execute("SELECT object_name, object_type, status FROM user_objects WHERE object_type IN ('FUNCTION', 'PROCEDURE', 'PACKAGE') ORDER BY object_name")
    expect(objects.rows).toEqual([
      ["ADD_TAX", "FUNCTION", "VALID"],
      ["LOG_IT", "PROCEDURE", "VALID"],
      ["SHOP", "PACKAGE", "VALID"]
    ])
    const source = await conn.execute("SELECT line, text FROM user_source WHERE name = 'ADD_TAX' AND type = 'FUNCTION' ORDER BY line")
    expect(source.rows).toEqual([
      [1, "FUNCTION add_tax(p_amount IN NUMBER, p_rate NUMBER DEFAULT 0.2) RETURN NUMBER IS\n"],
      [2, "BEGIN\n"],
      [3, "  RETURN p_amount * (1 + p_rate);\n"],
      [4, "END add_tax;"]
    ])
    const procs = await conn.execute("SELECT object_name, procedure_name, object_type FROM user_procedures ORDER BY object_name, subprogram_id")
    expect(procs.rows).toEqual([
      ["ADD_TAX", null, "FUNCTION"],
      ["LOG_IT", null, "PROCEDURE"],
      ["SHOP", null, "PACKAGE"],
      ["SHOP", "PRICE", "PACKAGE"],
      ["SHOP", "RESET", "PACKAGE"]
    ])
    const args = await conn.execute(
      "SELECT object_name, package_name, argument_name, position, sequence, data_type, in_out, defaulted FROM user_arguments ORDER BY package_name NULLS FIRST, object_name, sequence"
    )
    expect(args.rows).toEqual([
      ["ADD_TAX", null, null, 0, 1, "NUMBER", "OUT", "N"],
      ["ADD_TAX", null, "P_AMOUNT", 1, 2, "NUMBER", "IN", "N"],
      ["ADD_TAX", null, "P_RATE", 2, 3, "NUMBER", "IN", "Y"],
      ["LOG_IT", null, "P_TEXT", 1, 1, "VARCHAR2", "IN", "N"],
      ["LOG_IT", null, "P_COUNT", 2, 2, "NUMBER", "OUT", "N"],
      ["PRICE", "SHOP", null, 0, 1, "NUMBER", "OUT", "N"],
      ["PRICE", "SHOP", "P_ID", 1, 2, "NUMBER", "IN", "N"]
    ])
  })

  it("creates a unit with compile errors INVALID with a warning, lists its errors, and refuses to call it", async () => {
    // END without IF: PLS-00103 at the ";" that stands where IF should (line 3, column 34 of the stored text)
    const r = await conn.execute("CREATE OR REPLACE FUNCTION half(n NUMBER) RETURN NUMBER IS\nBEGIN\n  IF n > 0 THEN RETURN n / 2; END;\n  RETURN 0;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700: creation succeeded with compilation errors/)
    const status = await conn.execute("SELECT status FROM all_objects WHERE object_name = 'HALF' AND owner = USER")
    expect(status.rows).toEqual([["INVALID"]])
    const errors = await conn.execute("SELECT name, type, line, position, text FROM user_errors WHERE name = 'HALF'")
    expect(errors.rows).toHaveLength(1)
    expect(errors.rows[0].slice(0, 4)).toEqual(["HALF", "FUNCTION", 3, 34])
    expect(errors.rows[0][4]).toMatch(/^PLS-00103: Encountered the symbol ";" when expecting one of the following:/)
    const fromPlsql = await failure(() => conn.execute("DECLARE x NUMBER; BEGIN x := half(4); END;"))
    expect(fromPlsql.message).toMatch(new RegExp(`^ORA-06550: line 1, column \\d+:\\nPLS-00905: object ${server.user}\\.HALF is invalid`))
    const fromSql = await failure(() => conn.execute("SELECT half(4) FROM dual"))
    expect(fromSql.message).toMatch(/^ORA-06575: Package or function HALF is in an invalid state/)
    // compiled again without errors, it is VALID and its errors are gone
    await conn.execute("CREATE OR REPLACE FUNCTION half(n NUMBER) RETURN NUMBER IS\nBEGIN\n  RETURN n / 2;\nEND;")
    const again = await conn.execute("SELECT status, (SELECT COUNT(*) FROM user_errors WHERE name = 'HALF') FROM user_objects WHERE object_name = 'HALF'")
    expect(again.rows).toEqual([["VALID", 0]])
    expect((await conn.execute("SELECT half(5) FROM dual")).rows).toEqual([[2.5]])
  })
})
