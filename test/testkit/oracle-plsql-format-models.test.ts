import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// In PL/SQL a format model may be any character expression, a bind or a variable included, evaluated when the
// statement runs (PL/SQL Language Reference, "Expressions"; SQL Language Reference, "TO_CHAR (datetime)": "fmt ...
// can be a character expression": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/TO_CHAR-datetime.html).
// These failed ORA-03001 (the translator took only a literal format model).
describe("Oracle test server: PL/SQL format models given at run time (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TO_CHAR(d, :f) with a bound format model in an assignment", async () => {
    const r = await conn.execute("BEGIN :o := TO_CHAR(DATE '2024-02-29', :f); END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }, f: "DD.MM.YYYY" })
    expect(r.outBinds).toEqual({ o: "29.02.2024" })
  })

  it("TO_CHAR, TO_DATE and TO_NUMBER with a variable as the format model", async () => {
    const r = await conn.execute(
      `DECLARE
         v VARCHAR2(30) := 'YYYY/MM/DD';
         n VARCHAR2(30) := '9G999D99';
         d DATE;
       BEGIN
         d := TO_DATE('2024/03/05', v);
         :a := TO_CHAR(d, v);
         :b := TO_CHAR(d + 1, 'DD-MM-YYYY');
         :c := TO_NUMBER('1,234.50', n);
         v := 'FM0000';
         :e := TO_CHAR(42, v);
       END;`,
      {
        a: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
        b: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
        c: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
        e: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }
      }
    )
    expect(r.outBinds).toEqual({ a: "2024/03/05", b: "06-03-2024", c: 1234.5, e: "0042" })
  })

  it("an embedded SELECT ... INTO takes a bound or variable format model", async () => {
    const r = await conn.execute(
      `DECLARE
         x VARCHAR2(40);
         v VARCHAR2(30) := 'HH24:MI';
       BEGIN
         SELECT TO_CHAR(TIMESTAMP '2024-01-02 13:14:15', :f) INTO x FROM dual;
         :a := x;
         SELECT TO_CHAR(TIMESTAMP '2024-01-02 13:14:15', v) INTO x FROM dual;
         :b := x;
       END;`,
      { f: "YYYY-MM-DD", a: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }, b: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 } }
    )
    expect(r.outBinds).toEqual({ a: "2024-01-02", b: "13:14" })
  })
  it("a concatenation, a cursor loop's query and an INSERT take a run-time format model", async () => {
    await conn.execute("CREATE TABLE pfm (id NUMBER, d DATE)")
    const r = await conn.execute(
      `DECLARE
         s VARCHAR2(2) := '-';
         v VARCHAR2(30) := 'DD/MM/YYYY';
       BEGIN
         :a := TO_CHAR(DATE '2024-01-02', 'YYYY' || s || 'MM');
         INSERT INTO pfm VALUES (1, TO_DATE('09/04/2024', v));
         FOR c IN (SELECT TO_CHAR(d, v) x FROM pfm WHERE id = 1) LOOP
           :b := c.x;
         END LOOP;
       END;`,
      { a: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }, b: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 } }
    )
    expect(r.outBinds).toEqual({ a: "2024-01", b: "09/04/2024" })
    await conn.rollback()
  })
  it("a NULL format model makes the conversion NULL", async () => {
    // "Nulls in SQL Functions": most scalar functions return null when given a null argument (SQL Language
    // Reference, https://docs.oracle.com/database/122/SQLRF/About-SQL-Functions.htm)
    const r = await conn.execute(
      `DECLARE
         v VARCHAR2(30);
       BEGIN
         :a := NVL(TO_CHAR(DATE '2024-01-02', v), 'null');
         :b := CASE WHEN TO_DATE('2024', v) IS NULL THEN 'null' END;
         :c := NVL(TO_CHAR(TO_NUMBER('12', v) + 1), 'null');
       END;`,
      Object.fromEntries(["a", "b", "c"].map((k) => [k, { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }]))
    )
    expect(r.outBinds).toEqual({ a: "null", b: "null", c: "null" })
  })
  it("a NULL format model or NLS parameter (a literal, a variable, a bind) makes the call NULL", async () => {
    // the NLS parameter from a variable or bind failed ORA-03001, the literal NULL formatted by the session's model
    const r = await conn.execute(
      `DECLARE
         n VARCHAR2(40);
       BEGIN
         :a := NVL(TO_CHAR(1234.5, '9G999D9', n), 'null');
         :b := NVL(TO_CHAR(SYSDATE, NULL), 'null');
         :c := NVL(TO_CHAR(TO_NUMBER('1,5', '9D9', :nls)), 'null');
         :d := NVL(TO_CHAR(TO_DATE('2024', '')), 'null');
       END;`,
      {
        nls: { val: null, type: oracledb.STRING },
        a: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
        b: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
        c: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
        d: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }
      }
    )
    expect(r.outBinds).toEqual({ a: "null", b: "null", c: "null", d: "null" })
  })
  it("a format model from a table column in a block's SQL is evaluated per row", async () => {
    // format-model-sites.ts, as in a client's SQL (test/testkit/oracle-format-model-expressions.test.ts); this was ORA-03001
    await conn.execute("CREATE TABLE pfm_cols (d DATE, f VARCHAR2(20))")
    await conn.execute("INSERT INTO pfm_cols VALUES (DATE '2024-02-29', 'DD.MM.YYYY')")
    const r = await conn.execute("DECLARE x VARCHAR2(40); BEGIN SELECT TO_CHAR(d, f) INTO x FROM pfm_cols; :o := x; END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 } })
    expect(r.outBinds).toEqual({ o: "29.02.2024" })
    await conn.rollback()
  })
})
