import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

// SQL/XML generation functions through the raw node-oracledb client. Expected values follow the SQL Language
// Reference ("XMLELEMENT", "XMLFOREST", "XMLCONCAT", "XMLAGG", "XMLSERIALIZE": element names as the identifier is
// written, column names for unaliased XMLFOREST / XMLATTRIBUTES items, no attribute or forest element for a NULL value,
// XMLCONCAT dropping NULLs) and the XML DB Developer's Guide ("Escaping Characters in Generated XML Data").
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: SQL/XML generation functions", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE emp (id NUMBER, name VARCHAR2(40), sal NUMBER(7,2), hired DATE, dept NUMBER)")
    await conn.execute(`INSERT INTO emp VALUES (1, 'Ann & <Bo>', 1000.5, DATE '2024-03-01', 10)`)
    await conn.execute(`INSERT INTO emp VALUES (2, 'Cy "Q"', NULL, NULL, 10)`)
    await conn.execute(`INSERT INTO emp VALUES (3, NULL, 0.5, NULL, 20)`)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("XMLELEMENT names the element as written, escapes its text and gives an empty element for NULL content; the result is an XMLType", async () => {
    const r = await conn.execute(`SELECT XMLELEMENT("Emp", name), XMLELEMENT(emp, id, '-', sal), XMLELEMENT(NAME e) FROM emp ORDER BY id`)
    expect(r.rows).toEqual([
      ["<Emp>Ann &amp; &lt;Bo&gt;</Emp>", "<EMP>1-1000.5</EMP>", "<E></E>"],
      ["<Emp>Cy &quot;Q&quot;</Emp>", "<EMP>2-</EMP>", "<E></E>"],
      ["<Emp></Emp>", "<EMP>3-.5</EMP>", "<E></E>"]
    ])
    expect(r.metaData[0]).toMatchObject({ dbType: oracledb.DB_TYPE_XMLTYPE })
    expect(r.metaData[1]).toMatchObject({ dbType: oracledb.DB_TYPE_XMLTYPE, name: "XMLELEMENT(EMP,ID,'-',SAL)" })
  })

  it("XMLATTRIBUTES names attributes by alias or column, leaves NULL values out and escapes values; nested elements are not escaped", async () => {
    expect(await rows(`SELECT XMLELEMENT("e", XMLATTRIBUTES(e.id, name AS "nm", sal AS pay), XMLELEMENT("h", hired)) FROM emp e ORDER BY id`)).toEqual([
      ['<e ID="1" nm="Ann &amp; &lt;Bo&gt;" PAY="1000.5"><h>2024-03-01</h></e>'],
      ['<e ID="2" nm="Cy &quot;Q&quot;"><h></h></e>'],
      ['<e ID="3" PAY=".5"><h></h></e>']
    ])
    expect(oraCode(await failure(() => conn.execute(`SELECT XMLELEMENT("e", XMLATTRIBUTES(id + 1)) FROM emp`)))).toBe("ORA-19208")
  })

  it("XMLFOREST makes an element per non-NULL value, named by alias or column; XMLCONCAT drops NULLs and is NULL when all are", async () => {
    expect(await rows(`SELECT XMLFOREST(id, e.name, sal AS "Pay") FROM emp e ORDER BY id`)).toEqual([
      ['<ID>1</ID><NAME>Ann &amp; &lt;Bo&gt;</NAME><Pay>1000.5</Pay>'],
      ['<ID>2</ID><NAME>Cy &quot;Q&quot;</NAME>'],
      ['<ID>3</ID><Pay>.5</Pay>']
    ])
    expect(await rows(`SELECT XMLCONCAT(XMLELEMENT("a", id), XMLFOREST(name AS n)) FROM emp ORDER BY id`)).toEqual([
      ["<a>1</a><N>Ann &amp; &lt;Bo&gt;</N>"],
      ['<a>2</a><N>Cy &quot;Q&quot;</N>'],
      ["<a>3</a>"]
    ])
    expect(await rows(`SELECT XMLCONCAT(XMLFOREST(name AS n), XMLFOREST(hired AS h)) FROM emp WHERE id = 3`)).toEqual([[null]])
    expect(oraCode(await failure(() => conn.execute(`SELECT XMLFOREST(id * 2) FROM emp`)))).toBe("ORA-19208")
  })

  it("XMLAGG concatenates a group's fragments in its ORDER BY order; getClobVal() and XMLSERIALIZE give text", async () => {
    expect(await rows(`SELECT dept, XMLELEMENT("d", XMLAGG(XMLELEMENT("i", id) ORDER BY id DESC)) FROM emp GROUP BY dept ORDER BY dept`)).toEqual([
      [10, "<d><i>2</i><i>1</i></d>"],
      [20, "<d><i>3</i></d>"]
    ])
    const r = await conn.execute(
      `SELECT XMLELEMENT("x", id).getClobVal(), XMLSERIALIZE(CONTENT XMLELEMENT("y", id) AS VARCHAR2(100)), XMLELEMENT("z", id).getStringVal() FROM emp WHERE id = 1`,
      [],
      { fetchTypeHandler: (m: { dbType: unknown }) => (m.dbType === oracledb.DB_TYPE_CLOB ? { type: oracledb.STRING } : undefined) }
    )
    expect(r.rows).toEqual([["<x>1</x>", "<y>1</y>", "<z>1</z>"]])
    expect(r.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_CLOB, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_VARCHAR])
    expect(await rows(`SELECT XMLAGG(XMLELEMENT("z", id) ORDER BY id DESC).getStringVal(), XMLAGG(XMLFOREST(hired AS h)) FROM emp WHERE id > 1`)).toEqual([["<z>3</z><z>2</z>", null]])
  })

  it("inserts XMLType values (columns, XMLTYPE(...)) as XML, not as escaped text", async () => {
    await conn.execute("CREATE TABLE docs (id NUMBER, x XMLTYPE)")
    await conn.execute("INSERT INTO docs VALUES (1, XMLTYPE('<a>1 &amp; 2</a>'))")
    expect(await rows(`SELECT XMLELEMENT("d", d.x, XMLTYPE('<b/>')), XMLCONCAT(x, XMLELEMENT("c", '<')) FROM docs d`)).toEqual([["<d><a>1 &amp; 2</a><b/></d>", "<a>1 &amp; 2</a><c>&lt;</c>"]])
  })
})
