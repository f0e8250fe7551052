/**
 * Oracle test server: object type inheritance in CREATE TYPE (raw node-oracledb). Object-Relational Developer's
 * Guide, "Inheritance in SQL Object Types" (NOT FINAL, `UNDER`, a subtype's attributes after its supertype's);
 * PL/SQL Language Reference, "CREATE TYPE Statement" (PLS-00590 for a subtype UNDER a FINAL type).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: object type inheritance (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TYPE oi_person AS OBJECT (name VARCHAR2(20), born NUMBER) NOT FINAL",
      "CREATE TYPE oi_student UNDER oi_person (school VARCHAR2(20))",
      "CREATE TABLE oi_t (id NUMBER, s oi_student)",
      "INSERT INTO oi_t VALUES (1, oi_student('Ann', 2001, 'MIT'))"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a subtype has its supertype's attributes, then its own, in SQL and as a DbObject", async () => {
    expect((await conn.execute("SELECT t.s.name, t.s.born, t.s.school FROM oi_t t")).rows).toEqual([["Ann", 2001, "MIT"]])
    const fetched = (await conn.execute("SELECT s FROM oi_t")).rows[0][0]
    expect([fetched.NAME, fetched.BORN, fetched.SCHOOL]).toEqual(["Ann", 2001, "MIT"])
    const Student = await conn.getDbObjectClass("OI_STUDENT")
    await conn.execute("INSERT INTO oi_t VALUES (2, :s)", { s: new Student({ NAME: "Bob", BORN: 1999, SCHOOL: "ETH" }) })
    expect((await conn.execute("SELECT t.s.school FROM oi_t t WHERE t.id = 2")).rows).toEqual([["ETH"]])
    await conn.rollback()
  })

  it("USER_TYPES shows FINAL and the supertype", async () => {
    expect((await conn.execute("SELECT type_name, final, supertype_name, attributes FROM user_types WHERE type_name LIKE 'OI\\_%' ESCAPE '\\' ORDER BY type_name")).rows).toEqual([
      ["OI_PERSON", "NO", null, 2],
      ["OI_STUDENT", "YES", "OI_PERSON", 3]
    ])
  })

  it("a subtype UNDER a FINAL type is a compilation error; a supertype with subtypes cannot be dropped", async () => {
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE oi_grad UNDER oi_student (thesis VARCHAR2(20))")))).toBe("ORA-24344")
    expect((await conn.execute("SELECT COUNT(*) FROM user_types WHERE type_name = 'OI_GRAD'")).rows).toEqual([[0]])
    expect(oraCode(await failure(() => conn.execute("DROP TYPE oi_person")))).toBe("ORA-02303")
  })
})
