import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * `TABLE(collection)` in a block's INSERT / UPDATE / DELETE / MERGE, through raw node-oracledb against the Oracle test
 * server. Oracle 12.1 and later take collections of PL/SQL-only types (a package's or the block's) in "the TABLE
 * operator in SQL queries" only (PL/SQL Language Reference 12c: "it is possible to bind values with PL/SQL-only data types to anonymous blocks ..., PL/SQL function calls in SQL queries and CALL statements, and the TABLE operator in SQL queries"); DML over them does
 * not compile: PLS-00642 "local collection types not allowed in SQL statements" (with ORA-00902 in a reported INSERT
 * ... SELECT FROM TABLE(package collection):
 * https://yeahexp.com/using-collections-of-packages-declared-in-the-pl-sql-specification-in-sql-context/). Schema
 * collection types (CREATE TYPE) work in DML as in queries (PL/SQL Language Reference, "Querying a Collection").
 */
describe("Oracle test server: TABLE(collection) in a block's DML", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tdml (id NUMBER PRIMARY KEY, name VARCHAR2(20))")
    await conn.execute(`CREATE OR REPLACE PACKAGE tdml_pkg AS
  TYPE rec IS RECORD (id NUMBER, name VARCHAR2(20));
  TYPE recs IS TABLE OF rec;
  TYPE ids IS TABLE OF NUMBER;
END;`)
    await conn.execute("CREATE TYPE tdml_ids AS TABLE OF NUMBER")
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async () => (await conn.execute("SELECT id, name FROM tdml ORDER BY id", [], { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows

  it("refuses a package's collection type in INSERT ... SELECT FROM TABLE(v) with PLS-00642, undoing the block", async () => {
    const e = await failure(() =>
      conn.execute(`DECLARE
  r tdml_pkg.recs := tdml_pkg.recs();
BEGIN
  INSERT INTO tdml VALUES (9, 'nine');
  r.EXTEND(1);
  r(1).id := 1; r(1).name := 'one';
  INSERT INTO tdml SELECT * FROM TABLE(r);
END;`)
    )
    // node-oracledb adds the "Help:" line
    expect(e.message.split("\nHelp:")[0]).toBe(
      [
        "ORA-06550: line 7, column 40:",
        "PLS-00642: local collection types not allowed in SQL statements",
        "ORA-06550: line 7, column 34:",
        "PL/SQL: ORA-00902: invalid datatype",
        "ORA-06550: line 7, column 3:",
        "PL/SQL: SQL Statement ignored"
      ].join("\n")
    )
    expect(await rows()).toEqual([])
  })

  it("refuses a block's own collection type in UPDATE, DELETE, MERGE and FORALL, not caught by a handler", async () => {
    for (const dml of [
      "UPDATE tdml SET name = 'x' WHERE id IN (SELECT column_value FROM TABLE(ids))",
      "DELETE FROM tdml WHERE id IN (SELECT column_value FROM TABLE(ids))",
      "MERGE INTO tdml t USING (SELECT column_value id FROM TABLE(ids)) s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm')",
      "FORALL i IN 1..1 DELETE FROM tdml WHERE id IN (SELECT column_value FROM TABLE(ids))"
    ]) {
      const e = await failure(() =>
        conn.execute(`DECLARE
  TYPE num_list IS TABLE OF NUMBER;
  ids num_list := num_list(1, 2);
BEGIN
  ${dml};
EXCEPTION WHEN OTHERS THEN NULL;
END;`)
      )
      expect(e.message, dml).toMatch(/^ORA-06550: line 5, column \d+:\nPLS-00642: local collection types not allowed in SQL statements\n/)
    }
  })

  it("keeps TABLE() of PL/SQL-only collections in queries, also driving DML row by row", async () => {
    const out = await conn.execute(
      `DECLARE
  r tdml_pkg.recs := tdml_pkg.recs();
  ids tdml_pkg.ids := tdml_pkg.ids(2, 3);
BEGIN
  r.EXTEND(3);
  r(1).id := 1; r(1).name := 'one';
  r(2).id := 2; r(2).name := 'two';
  r(3).id := 3; r(3).name := 'three';
  FOR x IN (SELECT * FROM TABLE(r)) LOOP
    INSERT INTO tdml VALUES (x.id, x.name);
  END LOOP;
  SELECT COUNT(*) INTO :n FROM TABLE(ids) WHERE column_value > 2;
END;`,
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(out.outBinds.n).toBe(1)
    expect(await rows()).toEqual([[1, "one"], [2, "two"], [3, "three"]])
    await conn.rollback()
  })

  it("inserts from, updates, deletes and merges by the rows of a schema collection type", async () => {
    await conn.execute(`DECLARE
  ids tdml_ids := tdml_ids(1, 2, 3);
  two tdml_ids := tdml_ids(2, 3);
BEGIN
  INSERT INTO tdml SELECT column_value, 'n' || column_value FROM TABLE(ids);
  UPDATE tdml SET name = UPPER(name) WHERE id IN (SELECT column_value FROM TABLE(two));
  DELETE FROM tdml WHERE id IN (SELECT column_value FROM TABLE(two)) AND name = 'N3';
  MERGE INTO tdml t USING (SELECT column_value + 3 id FROM TABLE(two)) s ON (t.id = s.id)
    WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm');
END;`)
    expect(await rows()).toEqual([[1, "n1"], [2, "N2"], [5, "m"], [6, "m"]])
    await conn.rollback()
  })
})
