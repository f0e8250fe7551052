import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * An unknown name inside a SQL statement of a block is a compile error (ORA-06550 with `PL/SQL: ORA-00904` at the
 * name and `PL/SQL: SQL Statement ignored` at the statement), not an exception the block's handlers catch, through
 * raw node-oracledb against the Oracle test server.
 */
describe("Oracle test server: unknown names in a block's SQL statements", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE sce (id NUMBER PRIMARY KEY, name VARCHAR2(20))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 400 }

  it("refuses SELECT INTO of an unknown column with ORA-06550 / PL/SQL: ORA-00904, which WHEN OTHERS does not catch, and keeps none of the block's work", async () => {
    const e = await failure(() =>
      conn.execute(
        `DECLARE
  n NUMBER;
BEGIN
  INSERT INTO sce VALUES (1, 'one');
  SELECT nope INTO n FROM sce;
  :s := 'ran';
EXCEPTION
  WHEN OTHERS THEN :s := 'caught ' || SQLERRM;
END;`,
        { s: out }
      )
    )
    expect(e.message.split("\nHelp:")[0]).toBe(
      'ORA-06550: line 5, column 10:\nPL/SQL: ORA-00904: "NOPE": invalid identifier\nORA-06550: line 5, column 3:\nPL/SQL: SQL Statement ignored'
    )
    const n = await conn.execute("SELECT COUNT(*) FROM sce", [], { outFormat: oracledb.OUT_FORMAT_ARRAY })
    expect((n.rows as Array<Array<number>>)[0]?.[0]).toBe(0)
  })

  it("refuses an unknown column in a block's UPDATE and in a cursor FOR loop's query the same way", async () => {
    const update = await failure(() => conn.execute(`BEGIN\n  UPDATE sce SET name = 'x' WHERE missing_col = 1;\nEXCEPTION WHEN OTHERS THEN NULL;\nEND;`))
    expect(update.message.split("\nHelp:")[0]).toBe(
      'ORA-06550: line 2, column 35:\nPL/SQL: ORA-00904: "MISSING_COL": invalid identifier\nORA-06550: line 2, column 3:\nPL/SQL: SQL Statement ignored'
    )
    const loop = await failure(() => conn.execute(`BEGIN\n  FOR r IN (SELECT id, bad FROM sce) LOOP NULL; END LOOP;\nEXCEPTION WHEN OTHERS THEN NULL;\nEND;`))
    expect(loop.message).toMatch(/^ORA-06550: line 2, column 24:\nPL\/SQL: ORA-00904: "BAD": invalid identifier\nORA-06550: line 2, column 13:\nPL\/SQL: SQL Statement ignored/)
  })

  it("closes PLS-00201 with PL/SQL: Statement ignored at the statement, or Item ignored at the declaration", async () => {
    const statement = await failure(() => conn.execute(`DECLARE\n  n NUMBER;\nBEGIN\n  n := 1 + nowhere;\nEXCEPTION WHEN OTHERS THEN NULL;\nEND;`))
    expect(statement.message.split("\nHelp:")[0]).toBe(
      "ORA-06550: line 4, column 12:\nPLS-00201: identifier 'NOWHERE' must be declared\nORA-06550: line 4, column 3:\nPL/SQL: Statement ignored"
    )
    const item = await failure(() => conn.execute(`DECLARE\n  n NUMBER := nowhere;\nBEGIN\n  NULL;\nEND;`))
    expect(item.message.split("\nHelp:")[0]).toBe(
      "ORA-06550: line 2, column 15:\nPLS-00201: identifier 'NOWHERE' must be declared\nORA-06550: line 2, column 3:\nPL/SQL: Item ignored"
    )
  })
})
