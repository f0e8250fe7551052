/**
 * Oracle test server: member methods down a type hierarchy (raw node-oracledb). Object-Relational Developer's Guide,
 * "Inheriting, Overloading, and Overriding Methods": a subtype inherits its supertype's member methods, `OVERRIDING
 * MEMBER FUNCTION` redefines one, and "the version of the method that is executed is the one defined for the most
 * specific type of the instance" (dynamic dispatch), in SQL and in PL/SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: inherited and overriding member methods (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      `CREATE TYPE ov_person AS OBJECT (name VARCHAR2(20), MEMBER FUNCTION show RETURN VARCHAR2, MEMBER FUNCTION initial RETURN VARCHAR2) NOT FINAL`,
      `CREATE TYPE BODY ov_person AS
         MEMBER FUNCTION show RETURN VARCHAR2 IS BEGIN RETURN 'person ' || name; END;
         MEMBER FUNCTION initial RETURN VARCHAR2 IS BEGIN RETURN SUBSTR(name, 1, 1); END;
       END;`,
      `CREATE TYPE ov_student UNDER ov_person (school VARCHAR2(20), OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2)`,
      `CREATE TYPE BODY ov_student AS
         OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2 IS BEGIN RETURN 'student ' || name || ' of ' || school; END;
       END;`,
      "CREATE TABLE ov_t (id NUMBER, p ov_person, s ov_student)",
      "INSERT INTO ov_t VALUES (1, ov_person('Bob'), ov_student('Sue', 'KTH'))",
      "INSERT INTO ov_t VALUES (2, ov_student('Joe', 'MIT'), NULL)"
    ])
      await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("SQL: a supertype column holding a subtype instance calls the subtype's override", async () => {
    const shown = await conn.execute("SELECT t.id, t.p.show() FROM ov_t t ORDER BY t.id")
    expect(shown.metaData.map((c: { name: string }) => c.name)).toEqual(["ID", "T.P.SHOW()"])
    expect(shown.rows).toEqual([
      [1, "person Bob"],
      [2, "student Joe of MIT"]
    ])
  })

  it("SQL: a subtype column calls a method it inherits", async () => {
    expect((await conn.execute("SELECT t.s.initial(), t.s.show() FROM ov_t t WHERE t.id = 1")).rows).toEqual([["S", "student Sue of KTH"]])
  })

  it("PL/SQL: a supertype variable holding a subtype instance calls the override; inherited methods run the supertype's body", async () => {
    const r = await conn.execute(
      `DECLARE
         v ov_person := ov_student('Ann', 'ETH');
         s ov_student := ov_student('Kim', 'UCL');
       BEGIN
         :a := v.show();
         :b := s.initial();
         :c := s.show;
       END;`,
      { a: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, b: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, c: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(r.outBinds).toEqual({ a: "student Ann of ETH", b: "K", c: "student Kim of UCL" })
  })
})
