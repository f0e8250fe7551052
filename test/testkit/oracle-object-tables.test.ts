import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

/** A fetched DbObject as plain data: attributes by name (DbObject.toJSON). */
const plain = (o: any): unknown => (o === null ? null : JSON.parse(JSON.stringify(o)))

// Object-Relational Developer's Guide, "Object Tables": CREATE TABLE t OF type, rows inserted as constructor calls
// or as attribute values, the table seen as columns (SELECT *) or as objects (VALUE)
describe("Oracle test server: object tables (CREATE TABLE ... OF type) through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE person_t AS OBJECT (id NUMBER(5), name VARCHAR2(20), salary NUMBER(8,2))")
    await conn.execute("CREATE TABLE people OF person_t (PRIMARY KEY (id), name NOT NULL, CONSTRAINT pay_ck CHECK (salary >= 0))")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("has the type's attributes as its columns and takes rows as constructor calls or attribute values", async () => {
    await conn.execute("INSERT INTO people VALUES (person_t(1, 'Ann', 100.555))")
    await conn.execute("INSERT INTO people VALUES (2, 'Bob', 50)")
    await conn.execute("INSERT INTO people (id, name) VALUES (3, 'Cy')")
    const r = await conn.execute("SELECT * FROM people ORDER BY id")
    expect(r.metaData.map((m: any) => [m.name, m.dbType])).toEqual([
      ["ID", oracledb.DB_TYPE_NUMBER],
      ["NAME", oracledb.DB_TYPE_VARCHAR],
      ["SALARY", oracledb.DB_TYPE_NUMBER]
    ])
    expect(r.metaData[2]).toMatchObject({ precision: 8, scale: 2 })
    expect(r.rows).toEqual([
      [1, "Ann", 100.56],
      [2, "Bob", 50],
      [3, "Cy", null]
    ])
  })

  it("keeps the constraints written on attributes and refuses a constructor with the wrong number of arguments", async () => {
    expect(oraCode(await failure(() => conn.execute("INSERT INTO people VALUES (person_t(1, 'Dup', 1))")))).toBe("ORA-00001")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO people VALUES (person_t(9, NULL, 1))")))).toBe("ORA-01400")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO people VALUES (person_t(9, 'Neg', -1))")))).toBe("ORA-02290")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO people VALUES (person_t(9, 'Short'))")))).toBe("ORA-02315")
    const n = await conn.execute("SELECT COUNT(*) FROM people WHERE id = 9")
    expect(n.rows[0][0]).toBe(0)
  })

  it("fetches VALUE(p) as a DbObject of the table's type, described as that type", async () => {
    const r = await conn.execute("SELECT VALUE(p) FROM people p WHERE p.id <= 2 ORDER BY p.id")
    expect(r.metaData[0]).toMatchObject({ name: "VALUE(P)", dbType: oracledb.DB_TYPE_OBJECT, dbTypeName: "TEST.PERSON_T" })
    expect(r.rows.map((row: Array<any>) => plain(row[0]))).toEqual([
      { ID: 1, NAME: "Ann", SALARY: 100.56 },
      { ID: 2, NAME: "Bob", SALARY: 50 }
    ])
    expect(r.rows[0][0].fqn).toBe("TEST.PERSON_T")
    const aliased = await conn.execute("SELECT p.name, VALUE(p) AS person FROM people p WHERE p.name = 'Cy'")
    expect(aliased.metaData.map((m: any) => m.name)).toEqual(["NAME", "PERSON"])
    expect(plain(aliased.rows[0][1])).toEqual({ ID: 3, NAME: "Cy", SALARY: null })
  })

  it("inserts an object bound from getDbObjectClass as one row", async () => {
    const Person = await conn.getDbObjectClass("PERSON_T")
    await conn.execute("INSERT INTO people VALUES (:1)", [new Person({ ID: 4, NAME: "Dee", SALARY: 7.25 })])
    const r = await conn.execute("SELECT id, name, salary FROM people WHERE id = 4")
    expect(r.rows).toEqual([[4, "Dee", 7.25]])
  })

  it("inserts a bound object's DATE and TIMESTAMP attributes", async () => {
    await conn.execute("CREATE TYPE stamp_t AS OBJECT (id NUMBER, born DATE, seen TIMESTAMP(3))")
    await conn.execute("CREATE TABLE stamps OF stamp_t")
    const Stamp = await conn.getDbObjectClass("STAMP_T")
    const born = new Date(2020, 0, 2)
    const seen = new Date(2020, 0, 2, 3, 4, 5, 678)
    await conn.execute("INSERT INTO stamps VALUES (:1)", [new Stamp({ ID: 1, BORN: born, SEEN: seen })])
    await conn.execute("INSERT INTO stamps VALUES (:1)", [new Stamp({ ID: 2 })])
    const r = await conn.execute("SELECT * FROM stamps ORDER BY id")
    expect(r.rows).toEqual([
      [1, born, seen],
      [2, null, null]
    ])
  })

  it("updates and deletes rows by attribute", async () => {
    const u = await conn.execute("UPDATE people p SET p.salary = p.salary + 1 WHERE p.name = 'Bob'")
    expect(u.rowsAffected).toBe(1)
    const d = await conn.execute("DELETE FROM people WHERE id = 4")
    expect(d.rowsAffected).toBe(1)
    const r = await conn.execute("SELECT VALUE(p) FROM people p WHERE p.id = 2")
    expect(plain(r.rows[0][0])).toEqual({ ID: 2, NAME: "Bob", SALARY: 51 })
  })

  it("replaces a whole row with UPDATE ... SET VALUE(p) = type(...)", async () => {
    await conn.execute("INSERT INTO people VALUES (person_t(20, 'Old', 1))")
    const u = await conn.execute("UPDATE people p SET VALUE(p) = person_t(20, 'New', 2) WHERE p.id = 20")
    expect(u.rowsAffected).toBe(1)
    const r = await conn.execute("SELECT VALUE(p).name, p.salary FROM people p WHERE p.id = 20")
    expect(r.rows).toEqual([["New", 2]])
    expect(oraCode(await failure(() => conn.execute("UPDATE people p SET VALUE(p) = person_t(20, 'X') WHERE p.id = 20")))).toBe("ORA-02315")
    await conn.execute("DELETE FROM people WHERE id = 20")
  })

  it("takes array DML of objects and of constructor calls over binds", async () => {
    const Person = await conn.getDbObjectClass("PERSON_T")
    const objects = await conn.executeMany("INSERT INTO people VALUES (:1)", [[new Person({ ID: 30, NAME: "Ob1" })], [new Person({ ID: 31, NAME: "Ob2" })]])
    expect(objects.rowsAffected).toBe(2)
    const calls = await conn.executeMany("INSERT INTO people VALUES (person_t(:1, :2, :3))", [[32, "Ca1", 1], [33, "Ca2", 2]])
    expect(calls.rowsAffected).toBe(2)
    const r = await conn.execute("SELECT id, name FROM people WHERE id BETWEEN 30 AND 33 ORDER BY id")
    expect(r.rows).toEqual([[30, "Ob1"], [31, "Ob2"], [32, "Ca1"], [33, "Ca2"]])
    await conn.execute("DELETE FROM people WHERE id BETWEEN 30 AND 33")
  })

  it("works from PL/SQL: INSERT of a constructor or an object variable, SELECT VALUE(p) INTO", async () => {
    const r = await conn.execute(
      `DECLARE v person_t := person_t(41, 'Var', 3); w person_t;
       BEGIN
         INSERT INTO people VALUES (person_t(40, 'Lit', 2));
         INSERT INTO people VALUES (v);
         SELECT VALUE(p) INTO w FROM people p WHERE p.id = 40;
         :o := w.name || '/' || w.salary;
       END;`,
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(r.outBinds.o).toBe("Lit/2")
    const rows = await conn.execute("SELECT id, name, salary FROM people WHERE id IN (40, 41) ORDER BY id")
    expect(rows.rows).toEqual([[40, "Lit", 2], [41, "Var", 3]])
    await conn.execute("DELETE FROM people WHERE id IN (40, 41)")
  })

  it("keeps an object-typed attribute an object: a DbObject column of SELECT *, nested in VALUE(p) and in a copy of it", async () => {
    await conn.execute("CREATE TYPE addr_t AS OBJECT (city VARCHAR2(20), zip NUMBER)")
    await conn.execute("CREATE TYPE emp_t AS OBJECT (id NUMBER, home addr_t)")
    await conn.execute("CREATE TABLE emps OF emp_t (PRIMARY KEY (id))")
    await conn.execute("INSERT INTO emps VALUES (emp_t(1, addr_t('Oslo', 150)))")
    await conn.execute("INSERT INTO emps VALUES (emp_t(2, NULL))")
    const star = await conn.execute("SELECT * FROM emps ORDER BY id")
    expect(star.metaData[1]).toMatchObject({ name: "HOME", dbType: oracledb.DB_TYPE_OBJECT, dbTypeName: "TEST.ADDR_T" })
    expect(plain(star.rows[0][1])).toEqual({ CITY: "Oslo", ZIP: 150 })
    const values = await conn.execute("SELECT VALUE(e) FROM emps e ORDER BY e.id")
    expect(values.rows.map((row: Array<any>) => plain(row[0]))).toEqual([
      { ID: 1, HOME: { CITY: "Oslo", ZIP: 150 } },
      { ID: 2, HOME: null }
    ])
    await conn.execute("CREATE TABLE emp_copies (id NUMBER, e emp_t)")
    await conn.execute("INSERT INTO emp_copies SELECT e.id, VALUE(e) FROM emps e")
    const copies = await conn.execute("SELECT c.e.home.city FROM emp_copies c ORDER BY c.id")
    expect(copies.rows).toEqual([["Oslo"], [null]])
  })

  it("lists its attribute columns in the dictionary and keeps its type from being dropped until the table is", async () => {
    const cols = await conn.execute("SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'PEOPLE' ORDER BY column_id")
    expect(cols.rows).toEqual([
      ["ID", "NUMBER"],
      ["NAME", "VARCHAR2"],
      ["SALARY", "NUMBER"]
    ])
    await conn.execute("CREATE TYPE tmp_t AS OBJECT (a NUMBER)")
    await conn.execute("CREATE TABLE tmps OF tmp_t (a PRIMARY KEY) OBJECT IDENTIFIER IS PRIMARY KEY")
    await conn.execute("INSERT INTO tmps VALUES (tmp_t(1))")
    expect(oraCode(await failure(() => conn.execute("DROP TYPE tmp_t")))).toBe("ORA-02303")
    await conn.execute("DROP TABLE tmps")
    await conn.execute("DROP TYPE tmp_t")
    expect(oraCode(await failure(() => conn.execute("SELECT * FROM tmps")))).toBe("ORA-00942")
  })

  it("lists it in USER_OBJECT_TABLES with its type, not in USER_TABLES (the relational tables), and in USER_OBJECTS as a TABLE", async () => {
    const objectTables = await conn.execute("SELECT table_name, table_type_owner, table_type, object_id_type FROM user_object_tables WHERE table_name = 'PEOPLE'")
    expect(objectTables.rows).toEqual([["PEOPLE", "TEST", "PERSON_T", "SYSTEM GENERATED"]])
    const all = await conn.execute("SELECT owner, table_name FROM all_object_tables WHERE table_name = 'PEOPLE'")
    expect(all.rows).toEqual([["TEST", "PEOPLE"]])
    const relational = await conn.execute("SELECT COUNT(*) FROM user_tables WHERE table_name = 'PEOPLE'")
    expect(relational.rows[0][0]).toBe(0)
    const objects = await conn.execute("SELECT object_type FROM user_objects WHERE object_name = 'PEOPLE'")
    expect(objects.rows).toEqual([["TABLE"]])
  })

  it("refuses a name that is no object type, and a property naming no attribute", async () => {
    await conn.execute("CREATE TYPE nums_ot AS VARRAY(3) OF NUMBER")
    expect(oraCode(await failure(() => conn.execute("CREATE TABLE bad1 OF nums_ot")))).toBe("ORA-00902")
    expect(oraCode(await failure(() => conn.execute("CREATE TABLE bad2 OF no_such_t")))).toBe("ORA-00902")
    expect(oraCode(await failure(() => conn.execute("CREATE TABLE bad3 OF person_t (nope NOT NULL)")))).toBe("ORA-00904")
  })

  it("describes a query on it without running it", async () => {
    const info = await conn.getStatementInfo("SELECT VALUE(p), p.id FROM people p")
    expect(info.metaData.map((m: any) => [m.name, m.dbTypeName ?? m.dbType.name])).toEqual([
      ["VALUE(P)", "TEST.PERSON_T"],
      ["ID", "NUMBER"]
    ])
  })
})
