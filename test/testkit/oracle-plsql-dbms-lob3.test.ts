/**
 * DBMS_LOB leftovers (Oracle Database PL/SQL Packages and Types Reference, DBMS_LOB,
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/arpls/DBMS_LOB.html): a NULL LOB column selected
 * INTO a variable is a NULL locator (a write is ORA-06502 / ORA-22275), OPEN read-write of a table's LOB needs a
 * transaction (ORA-22292), ISTEMPORARY / ISOPEN / GETCHUNKSIZE in SQL, and DBMS_LOB writes through a record field or
 * a collection element. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"

let env: TwoSessions

const asData = { fetchInfo: { DOC: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } }
const textOut = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 4000 }

describe("Oracle test server: DBMS_LOB on NULL locators, OPEN outside a transaction, its functions in SQL, record and collection locators", () => {
  beforeAll(async () => {
    env = await openTwoSessions([
      "CREATE TABLE dl3_doc (id NUMBER PRIMARY KEY, doc CLOB, img BLOB)",
      "INSERT INTO dl3_doc VALUES (1, 'one', HEXTORAW('01'))",
      "INSERT INTO dl3_doc VALUES (2, NULL, NULL)",
      "INSERT INTO dl3_doc VALUES (3, 'three', EMPTY_BLOB())"
    ])
  })
  afterAll(() => env?.env.close())

  const doc = async (id: number) => (await env.b.execute("SELECT doc, img FROM dl3_doc WHERE id = :1", [id], asData)).rows[0]

  it("a NULL LOB column selected INTO a variable FOR UPDATE is a NULL locator: DBMS_LOB.WRITE / WRITEAPPEND fail with ORA-06502 / ORA-22275 and write nothing", async () => {
    for (const call of ["DBMS_LOB.WRITE(d, 3, 1, 'abc')", "DBMS_LOB.WRITEAPPEND(d, 3, 'abc')", "DBMS_LOB.TRIM(d, 0)"]) {
      const e = await failure(() => env.a.execute(`DECLARE d CLOB; BEGIN SELECT doc INTO d FROM dl3_doc WHERE id = 2 FOR UPDATE; ${call}; END;`))
      expect(oraCode(e)).toBe("ORA-06502")
      expect(e.message).toContain("ORA-22275")
    }
    const b = await failure(() => env.a.execute("DECLARE b BLOB; BEGIN SELECT img INTO b FROM dl3_doc WHERE id = 2 FOR UPDATE; DBMS_LOB.WRITEAPPEND(b, 1, HEXTORAW('FF')); END;"))
    expect(b.message).toContain("ORA-22275")
    await env.a.rollback()
    expect(await doc(2)).toEqual([null, null])
  })

  it("DBMS_LOB.OPEN read-write of a table's LOB outside a transaction is ORA-22292; read-only, a temporary LOB, or after FOR UPDATE it opens", async () => {
    await env.a.rollback()
    const e = await failure(() => env.a.execute("DECLARE d CLOB; BEGIN SELECT doc INTO d FROM dl3_doc WHERE id = 1; DBMS_LOB.OPEN(d, DBMS_LOB.LOB_READWRITE); END;"))
    expect(oraCode(e)).toBe("ORA-22292")
    const r = await env.a.execute(
      `DECLARE d CLOB; t CLOB; BEGIN
         SELECT doc INTO d FROM dl3_doc WHERE id = 1; DBMS_LOB.OPEN(d, DBMS_LOB.LOB_READONLY); :a := DBMS_LOB.ISOPEN(d); DBMS_LOB.CLOSE(d);
         DBMS_LOB.CREATETEMPORARY(t, TRUE); DBMS_LOB.OPEN(t, DBMS_LOB.LOB_READWRITE); DBMS_LOB.WRITEAPPEND(t, 2, 'xy'); DBMS_LOB.CLOSE(t);
         SELECT doc INTO d FROM dl3_doc WHERE id = 1 FOR UPDATE; DBMS_LOB.OPEN(d, DBMS_LOB.LOB_READWRITE); DBMS_LOB.WRITEAPPEND(d, 1, '!'); DBMS_LOB.CLOSE(d);
       END;`,
      { a: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds.a).toBe(1)
    await env.a.commit()
    expect((await doc(1))![0]).toBe("one!")
  })

  it("DBMS_LOB.ISTEMPORARY / ISOPEN / GETCHUNKSIZE in SQL: a column's LOB is no temporary and not open, a TO_CLOB result is temporary, a NULL LOB gives NULL", async () => {
    const r = await env.a.execute(
      "SELECT id, DBMS_LOB.ISTEMPORARY(doc), DBMS_LOB.ISOPEN(doc), DBMS_LOB.GETCHUNKSIZE(doc), DBMS_LOB.ISTEMPORARY(img), DBMS_LOB.GETCHUNKSIZE(img) FROM dl3_doc ORDER BY id"
    )
    expect(r.rows).toEqual([
      [1, 0, 0, 8132, 0, 8132],
      [2, null, null, null, null, null],
      [3, 0, 0, 8132, 0, 8132]
    ])
    const t = await env.a.execute("SELECT DBMS_LOB.ISTEMPORARY(TO_CLOB('x')), SYS.DBMS_LOB.ISOPEN(TO_CLOB('x')) FROM DUAL WHERE DBMS_LOB.GETCHUNKSIZE(TO_BLOB(HEXTORAW('01'))) > 0")
    expect(t.rows).toEqual([[1, 0]])
  })
  it("DBMS_LOB writes through a record field: SELECT * INTO a %ROWTYPE record FOR UPDATE, then WRITEAPPEND(r.doc) / WRITE(r.img) write the row", async () => {
    await env.a.execute(
      `DECLARE r dl3_doc%ROWTYPE; BEGIN
         SELECT * INTO r FROM dl3_doc WHERE id = 3 FOR UPDATE;
         DBMS_LOB.WRITEAPPEND(r.doc, 3, 'abc');
         DBMS_LOB.WRITE(r.img, 2, 1, HEXTORAW('0A0B'));
         :n := DBMS_LOB.GETLENGTH(r.doc) || '/' || DBMS_LOB.ISTEMPORARY(r.doc);
       END;`,
      { n: textOut }
    ).then((r: { outBinds: { n: string } }) => expect(r.outBinds.n).toBe("8/0"))
    await env.a.commit()
    expect(await doc(3)).toEqual(["threeabc", Buffer.from([0x0a, 0x0b])])
  })

  it("a record field selected without FOR UPDATE on a row the transaction does not hold is ORA-22920; a field INTO target and a collection element FOR UPDATE write their row", async () => {
    const e = await failure(() => env.a.execute("DECLARE r dl3_doc%ROWTYPE; BEGIN SELECT * INTO r FROM dl3_doc WHERE id = 1; DBMS_LOB.WRITEAPPEND(r.doc, 1, '?'); END;"))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.execute(
      `DECLARE TYPE docs_t IS TABLE OF CLOB; c docs_t := docs_t(NULL, NULL); r dl3_doc%ROWTYPE; i PLS_INTEGER := 2; BEGIN
         SELECT doc INTO c(i) FROM dl3_doc WHERE id = 1 FOR UPDATE;
         DBMS_LOB.WRITEAPPEND(c(i), 2, '#2');
         SELECT doc INTO r.doc FROM dl3_doc WHERE id = 3 FOR UPDATE;
         DBMS_LOB.TRIM(r.doc, 5);
       END;`
    )
    await env.a.commit()
    expect((await doc(1))![0]).toBe("one!#2")
    expect((await doc(3))![0]).toBe("three")
  })

  it("a temporary LOB in a collection element takes CREATETEMPORARY and WRITEAPPEND, and a field given another value no longer writes the row", async () => {
    const r = await env.a.execute(
      `DECLARE TYPE docs_t IS TABLE OF CLOB INDEX BY PLS_INTEGER; c docs_t; r dl3_doc%ROWTYPE; BEGIN
         DBMS_LOB.CREATETEMPORARY(c(7), TRUE);
         DBMS_LOB.WRITEAPPEND(c(7), 4, 'temp');
         SELECT * INTO r FROM dl3_doc WHERE id = 3 FOR UPDATE;
         r.doc := TO_CLOB('other');
         DBMS_LOB.WRITEAPPEND(r.doc, 1, '+');
         :t := c(7) || ':' || DBMS_LOB.ISTEMPORARY(c(7)) || ':' || r.doc;
       END;`,
      { t: textOut }
    )
    expect(r.outBinds.t).toBe("temp:1:other+")
    await env.a.commit()
    expect((await doc(3))![0]).toBe("three")
  })
  it("a star over a FROM subquery whose unnamed column is a CASE ... END gives the row's writable locator (a client Lob write and DBMS_LOB)", async () => {
    await env.a.execute("UPDATE dl3_doc SET id = id WHERE id = 1")
    const r = await env.a.execute("SELECT * FROM (SELECT CASE WHEN id = 1 THEN 'a' ELSE 'b' END, doc FROM dl3_doc WHERE id = 1)")
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["CASEWHENID=1THEN'A'ELSE'B'END", "DOC"])
    expect(r.rows[0][0]).toBe("a")
    const lob = r.rows[0][1]
    await lob.write("ONE")
    lob.destroy()
    await env.a.execute("DECLARE x CLOB; y VARCHAR2(1); BEGIN SELECT * INTO y, x FROM (SELECT CASE id WHEN 1 THEN 'x' END, doc FROM dl3_doc WHERE id = 1); DBMS_LOB.WRITEAPPEND(x, 2, '+c'); END;")
    await env.a.commit()
    expect((await doc(1))![0]).toBe("ONE!#2+c")
  })
  it("BULK COLLECT ... FOR UPDATE gives each element its row's locator: DBMS_LOB writes on c(i) and on a record element's field write the rows", async () => {
    await env.a.execute(
      `DECLARE TYPE docs_t IS TABLE OF CLOB; c docs_t; TYPE rows_t IS TABLE OF dl3_doc%ROWTYPE; rs rows_t; BEGIN
         SELECT doc BULK COLLECT INTO c FROM dl3_doc WHERE id IN (1, 3) ORDER BY id FOR UPDATE;
         FOR i IN 1 .. c.COUNT LOOP DBMS_LOB.WRITEAPPEND(c(i), 2, '[' || i); END LOOP;
         SELECT * BULK COLLECT INTO rs FROM dl3_doc WHERE id = 3 FOR UPDATE;
         DBMS_LOB.WRITEAPPEND(rs(1).doc, 1, ']');
       END;`
    )
    await env.a.commit()
    expect((await doc(1))![0]).toBe("ONE!#2+c[1")
    expect((await doc(3))![0]).toBe("three[2]")
  })
  it("a record copied from one holding a row's locator writes that row through its field; reassigned from a fresh record it no longer does", async () => {
    const r = await env.a.execute(
      `DECLARE r dl3_doc%ROWTYPE; r2 dl3_doc%ROWTYPE; r3 dl3_doc%ROWTYPE; BEGIN
         SELECT * INTO r FROM dl3_doc WHERE id = 3 FOR UPDATE;
         r2 := r;
         DBMS_LOB.WRITEAPPEND(r2.doc, 1, '<');
         r3.doc := TO_CLOB('free');
         r2 := r3;
         DBMS_LOB.WRITEAPPEND(r2.doc, 1, '>');
         :t := r2.doc;
       END;`,
      { t: textOut }
    )
    expect(r.outBinds.t).toBe("free>")
    await env.a.commit()
    expect((await doc(3))![0]).toBe("three[2]<")
  })
  it("a star over a FROM subquery whose unnamed column is an interval literal (ending in its unit, no alias) gives the row's writable locator", async () => {
    await env.a.execute("UPDATE dl3_doc SET id = id WHERE id = 3")
    const r = await env.a.execute("SELECT * FROM (SELECT INTERVAL '2' DAY, doc FROM dl3_doc WHERE id = 3)")
    expect(r.metaData).toHaveLength(2)
    const lob = r.rows[0][1]
    await lob.write("3")
    lob.destroy()
    await env.a.commit()
    expect((await doc(3))![0]).toBe("3hree[2]<")
  })
})
