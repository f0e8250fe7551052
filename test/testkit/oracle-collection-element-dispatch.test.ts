/**
 * Oracle test server: member function calls on the elements of a `TABLE(c) e` item whose collection holds subtype
 * instances (raw node-oracledb). Object-Relational Developer's Guide, "Inheriting, Overloading, and Overriding
 * Methods": "the version of the method that is executed is the one defined for the most specific type of the
 * instance", so `e.f()` of an element that is a subtype instance runs the subtype's OVERRIDING body, with the
 * subtype's attributes in SELF; "Substituting Types in a Type Hierarchy": a collection of t holds t's subtypes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: dispatch of e.f() over TABLE(c) e elements (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      `CREATE TYPE ed_animal AS OBJECT (name VARCHAR2(20), MEMBER FUNCTION speak(loud NUMBER) RETURN VARCHAR2, MEMBER FUNCTION tag RETURN VARCHAR2) NOT FINAL`,
      `CREATE TYPE BODY ed_animal AS
         MEMBER FUNCTION speak(loud NUMBER) RETURN VARCHAR2 IS BEGIN RETURN name || ' ...' || loud; END;
         MEMBER FUNCTION tag RETURN VARCHAR2 IS BEGIN RETURN 'animal'; END;
       END;`,
      `CREATE TYPE ed_dog UNDER ed_animal (breed VARCHAR2(20), OVERRIDING MEMBER FUNCTION speak(loud NUMBER) RETURN VARCHAR2)`,
      `CREATE TYPE BODY ed_dog AS OVERRIDING MEMBER FUNCTION speak(loud NUMBER) RETURN VARCHAR2 IS BEGIN RETURN name || ' the ' || breed || ' barks ' || loud; END; END;`,
      "CREATE TYPE ed_zoo AS TABLE OF ed_animal",
      "CREATE TABLE ed_t (id NUMBER, animals ed_zoo) NESTED TABLE animals STORE AS ed_t_animals",
      "INSERT INTO ed_t VALUES (1, ed_zoo(ed_animal('Cat'), ed_dog('Rex', 'collie')))"
    ])
      await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a subtype element runs its OVERRIDING body (with its own attributes); a supertype element the supertype's", async () => {
    const r = await conn.execute("SELECT e.name, e.speak(2) FROM ed_t t, TABLE(t.animals) e ORDER BY e.name")
    expect(r.metaData.map((c: { name: string }) => c.name)).toEqual(["NAME", "E.SPEAK(2)"])
    expect(r.rows).toEqual([
      ["Cat", "Cat ...2"],
      ["Rex", "Rex the collie barks 2"]
    ])
  })

  it("a method no subtype overrides runs the supertype's body for every element; WHERE dispatches too", async () => {
    const tags = await conn.execute("SELECT e.tag() FROM ed_t t, TABLE(t.animals) e ORDER BY e.name")
    expect(tags.metaData.map((c: { name: string }) => c.name)).toEqual(["E.TAG()"])
    expect(tags.rows).toEqual([["animal"], ["animal"]])
    expect((await conn.execute("SELECT e.name FROM ed_t t, TABLE(t.animals) e WHERE e.speak(1) LIKE '%barks%'")).rows).toEqual([["Rex"]])
  })
})
