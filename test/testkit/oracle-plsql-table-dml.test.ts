import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * `TABLE(collection)` in a block's INSERT / UPDATE / DELETE, for a package's collection types (PL/SQL
 * Language Reference, "Querying a Collection"), through raw node-oracledb against the Oracle test server.
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
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async () => (await conn.execute("SELECT id, name FROM tdml ORDER BY id", [], { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows

  it("inserts from, updates by and deletes by the rows of a collection variable", async () => {
    await conn.execute(`DECLARE
  r tdml_pkg.recs := tdml_pkg.recs();
  ids tdml_pkg.ids := tdml_pkg.ids(2, 3);
BEGIN
  r.EXTEND(3);
  r(1).id := 1; r(1).name := 'one';
  r(2).id := 2; r(2).name := 'two';
  r(3).id := 3; r(3).name := 'three';
  INSERT INTO tdml SELECT * FROM TABLE(r);
  UPDATE tdml SET name = UPPER(name) WHERE id IN (SELECT column_value FROM TABLE(ids));
  DELETE FROM tdml WHERE id IN (SELECT column_value FROM TABLE(ids)) AND name = 'THREE';
END;`)
    expect(await rows()).toEqual([[1, "one"], [2, "TWO"]])
  })
})
