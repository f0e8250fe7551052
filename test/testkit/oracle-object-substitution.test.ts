/**
 * Oracle test server: substitutable object columns (raw node-oracledb). Object-Relational Developer's Guide,
 * "Substituting Types in a Type Hierarchy" (a column of type t holds instances of t's subtypes and keeps them as
 * such); SQL Language Reference, TREAT, "IS OF type Condition", SYS_TYPEID (typeids 01, 02, 03 down a hierarchy).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: substitutable object columns (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TYPE os_person AS OBJECT (name VARCHAR2(20), born NUMBER) NOT FINAL",
      "CREATE TYPE os_student UNDER os_person (school VARCHAR2(20)) NOT FINAL",
      "CREATE TYPE os_grad UNDER os_student (thesis VARCHAR2(20))",
      "CREATE TYPE os_other AS OBJECT (name VARCHAR2(20), born NUMBER)",
      "CREATE TABLE os_t (id NUMBER, p os_person)",
      "INSERT INTO os_t VALUES (1, os_person('Bob', 1970))",
      "INSERT INTO os_t VALUES (2, os_student('Joe', 2001, 'MIT'))",
      "INSERT INTO os_t VALUES (3, os_grad('Tim', 1998, 'ETH', 'Types'))",
      "INSERT INTO os_t VALUES (4, NULL)"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a supertype column keeps subtype instances: TREAT reads their attributes, NULL for other types", async () => {
    expect((await conn.execute("SELECT t.id, t.p.name, TREAT(t.p AS os_student).school, TREAT(t.p AS os_grad).thesis FROM os_t t ORDER BY t.id")).rows).toEqual([
      [1, "Bob", null, null],
      [2, "Joe", "MIT", null],
      [3, "Tim", "ETH", "Types"],
      [4, null, null, null]
    ])
    // without TREAT only the column type's attributes can be named
    expect(oraCode(await failure(() => conn.execute("SELECT t.p.school FROM os_t t")))).toBe("ORA-00904")
  })


  it("IS OF (type), IS OF (ONLY type) and IS NOT OF select by the instance's most specific type", async () => {
    const ids = async (where: string) => (await conn.execute(`SELECT t.id FROM os_t t WHERE ${where} ORDER BY t.id`)).rows.map((r: Array<unknown>) => r[0])
    expect(await ids("t.p IS OF (os_student)")).toEqual([2, 3])
    expect(await ids("t.p IS OF TYPE (ONLY os_student)")).toEqual([2])
    expect(await ids("t.p IS OF (ONLY os_person, os_grad)")).toEqual([1, 3])
    expect(await ids("t.p IS NOT OF (os_student)")).toEqual([1])
  })

  it("SYS_TYPEID gives the typeid of the most specific type: 01, 02, 03 down the hierarchy", async () => {
    expect((await conn.execute("SELECT t.id, RAWTOHEX(SYS_TYPEID(t.p)) FROM os_t t ORDER BY t.id")).rows).toEqual([
      [1, "01"],
      [2, "02"],
      [3, "03"],
      [4, null]
    ])
  })

  it("a subtype instance bound from the client keeps its type in a supertype column", async () => {
    const Grad = await conn.getDbObjectClass("OS_GRAD")
    await conn.execute("INSERT INTO os_t VALUES (5, :p)", { p: new Grad({ NAME: "Ann", BORN: 1990, SCHOOL: "KTH", THESIS: "Maps" }) })
    expect((await conn.execute("SELECT TREAT(t.p AS os_grad).thesis, RAWTOHEX(SYS_TYPEID(t.p)) FROM os_t t WHERE t.id = 5")).rows).toEqual([["Maps", "03"]])
    await conn.rollback()
  })

  it("a subtype instance fetched from a supertype column is sent under its own type's TOID, decoded by the column's type", async () => {
    const row = (await conn.execute("SELECT p FROM os_t WHERE id = 3")).rows[0][0]
    expect([row.NAME, row.BORN]).toEqual(["Tim", 1998])
    // the TOID holds the type's OID after four bytes (lib/thin/dbObject.js: prefix, objType.oid, extent OID)
    const toid: Buffer = row._impl.toid
    const [[gradOid]] = (await conn.execute("SELECT type_oid FROM user_types WHERE type_name = 'OS_GRAD'")).rows
    expect(toid.subarray(4, 20).toString("hex")).toBe(gradOid.toString("hex"))
    expect(row.SCHOOL).toBeUndefined()
  })

  it("a constructor of an unrelated type written into an object column is ORA-00932", async () => {
    expect(oraCode(await failure(() => conn.execute("INSERT INTO os_t VALUES (6, os_other('Eve', 1980))")))).toBe("ORA-00932")
    expect(oraCode(await failure(() => conn.execute("UPDATE os_t SET p = os_other('Eve', 1980) WHERE id = 1")))).toBe("ORA-00932")
    expect((await conn.execute("SELECT COUNT(*) FROM os_t")).rows).toEqual([[4]])
  })

  it("TREAT and IS OF in a PL/SQL block's SQL and expressions", async () => {
    const out = (type: number) => ({ dir: oracledb.BIND_OUT, type })
    const r = await conn.execute(
      `DECLARE n NUMBER; v os_person := os_student('Ann', 2002, 'UCL'); BEGIN
         SELECT TREAT(t.p AS os_student).school INTO :school FROM os_t t WHERE t.id = 3;
         SELECT COUNT(*) INTO n FROM os_t t WHERE t.p IS OF (ONLY os_student);
         :n := n;
         :isof := CASE WHEN v IS OF (os_student) THEN 'Y' ELSE 'N' END;
         :treated := TREAT(v AS os_student).school;
       END;`,
      { school: out(oracledb.STRING), n: out(oracledb.NUMBER), isof: out(oracledb.STRING), treated: out(oracledb.STRING) }
    )
    expect(r.outBinds).toEqual({ school: "ETH", n: 1, isof: "Y", treated: "UCL" })
  })
})
