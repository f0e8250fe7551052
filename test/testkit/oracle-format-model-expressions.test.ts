import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, withSessions } from "./oracle/helpers.ts"

// A format model (and NLS parameter) may be any character expression, evaluated per row: a column, a function call,
// a CASE, a scalar subquery (SQL Language Reference, "TO_CHAR (datetime)": "fmt ... can be a character expression",
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/TO_CHAR-datetime.html). A NULL one makes the
// call NULL ("Nulls in SQL Functions"). These were formatted by the session's default model (TO_CHAR), read as
// numbers (TO_DATE: ORA-01722) or failed ORA-03001 (format-model-sites.ts).
describe("Oracle test server: format models that are expressions (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fme (id NUMBER, d DATE, f VARCHAR2(30), n NUMBER, nf VARCHAR2(30), t VARCHAR2(30), nls VARCHAR2(60))")
    await conn.execute("INSERT INTO fme VALUES (1, DATE '2024-02-29', 'DD.MM.YYYY', 1234.5, '9G999D9', '29.02.2024', 'NLS_NUMERIC_CHARACTERS = '',.''')")
    await conn.execute("INSERT INTO fme VALUES (2, DATE '2024-03-01', 'YYYY-MM-DD', 42, 'FM0000', '2024-03-01', 'NLS_NUMERIC_CHARACTERS = ''.,''')")
    await conn.execute("INSERT INTO fme VALUES (3, DATE '2024-03-02', NULL, 7, NULL, NULL, NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TO_CHAR, TO_DATE and TO_NUMBER with a column as the format model, each row by its own, NULL for a NULL one", async () => {
    const r = await conn.execute("SELECT TO_CHAR(d, f), TO_CHAR(TO_DATE(t, f), 'YYYY-MM-DD') x, TO_CHAR(n, nf), TO_NUMBER(TO_CHAR(n, nf), nf) FROM fme ORDER BY id")
    expect(r.rows).toEqual([
      ["29.02.2024", "2024-02-29", " 1,234.5", 1234.5],
      ["2024-03-01", "2024-03-01", "0042", 42],
      [null, null, null, null]
    ])
    // headings are the calls as written, types the calls' own
    expect(r.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([
      ["TO_CHAR(D,F)", "VARCHAR2"],
      ["X", "VARCHAR2"],
      ["TO_CHAR(N,NF)", "VARCHAR2"],
      ["TO_NUMBER(TO_CHAR(N,NF),NF)", "NUMBER"]
    ])
    // a format value that is '' (here from an expression) is NULL, and so is the call
    const empty = await conn.execute("SELECT TO_CHAR(d, REPLACE(f, f)), TO_CHAR(n, TRIM(REPLACE(nf, nf, ' '))) FROM fme WHERE id = 1")
    expect(empty.rows).toEqual([[null, null]])
    const dates = await conn.execute("SELECT TO_DATE(t, f) FROM fme WHERE id = 1")
    expect(dates.metaData[0].dbTypeName).toBe("DATE")
    expect((dates.rows[0][0] as Date).getDate()).toBe(29)
  })

  it("a function call, a CASE and a scalar subquery as the format model; an NLS parameter from a column", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(d, LOWER(f)), TO_CHAR(n, CASE WHEN id = 1 THEN '9G999D9' ELSE 'FM0000' END),
              TO_CHAR(d, (SELECT f FROM fme s WHERE s.id = 3 - fme.id)), TO_CHAR(n, '9G999D9', nls)
         FROM fme ORDER BY id`
    )
    expect(r.rows).toEqual([
      ["29.02.2024", " 1,234.5", "2024-02-29", " 1.234,5"],
      ["2024-03-01", "0042", "01.03.2024", "    42.0"],
      [null, "0007", null, null]
    ])
  })

  it("in WHERE and ORDER BY, and again after the rows change", async () => {
    const sql = "SELECT id FROM fme WHERE TO_CHAR(d, f) IN ('29.02.2024', '2024-03-01') ORDER BY TO_CHAR(d, f) DESC"
    expect((await conn.execute(sql)).rows).toEqual([[1], [2]])
    await conn.execute("UPDATE fme SET f = 'YYYY.MM.DD' WHERE id = 1")
    expect((await conn.execute(sql)).rows).toEqual([[2]])
    await conn.rollback()
    expect((await conn.execute(sql)).rows).toEqual([[1], [2]])
  })

  it("INSERT ... SELECT and UPDATE with format models from columns and subqueries, atomic and in order with the transaction's writes", async () => {
    await conn.execute("CREATE TABLE fme_out (id NUMBER, s VARCHAR2(30), d DATE)")
    await conn.execute("INSERT INTO fme_out VALUES (0, 'before', NULL)")
    await conn.execute("INSERT INTO fme_out SELECT id, TO_CHAR(d, f), TO_DATE(t, f) FROM fme")
    const n = await conn.execute("UPDATE fme_out o SET s = s || ' ' || TO_CHAR((SELECT n FROM fme WHERE fme.id = o.id), (SELECT nf FROM fme WHERE fme.id = o.id)) WHERE id > 0")
    expect(n.rowsAffected).toBe(3)
    const r = await conn.execute("SELECT id, s, TO_CHAR(d, 'YYYY-MM-DD') FROM fme_out ORDER BY id")
    expect(r.rows).toEqual([
      [0, "before", null],
      [1, "29.02.2024  1,234.5", "2024-02-29"],
      [2, "2024-03-01 0042", "2024-03-01"],
      // NULL || ' ' || NULL is ' ' (SQL Language Reference, "Concatenation Operator")
      [3, " ", null]
    ])
    await conn.rollback()
  })

  // "Within a single SQL statement containing a reference to NEXTVAL, Oracle increments the sequence once ... for each
  // row" (SQL Language Reference, "Sequence Pseudocolumns"): learning the format values a statement meets takes no
  // sequence value
  it("INSERT ... SELECT, UPDATE and a query with NEXTVAL beside a format model from a column take one value per row", async () => {
    await conn.execute("CREATE SEQUENCE fme_seq")
    await conn.execute("CREATE TABLE fme_seqd (k NUMBER, s VARCHAR2(30))")
    // fresh statement texts, so that no format value is known before they run
    await conn.execute("INSERT INTO fme_seqd (k, s) SELECT fme_seq.NEXTVAL, TO_CHAR(d, f) || ' /seq' FROM fme")
    expect((await conn.execute("SELECT fme_seq.CURRVAL FROM dual")).rows).toEqual([[3]])
    expect((await conn.execute("SELECT k, s FROM fme_seqd ORDER BY k")).rows).toEqual([
      [1, "29.02.2024 /seq"],
      [2, "2024-03-01 /seq"],
      [3, " /seq"]
    ])
    const updated = await conn.execute("UPDATE fme_seqd o SET k = fme_seq.NEXTVAL, s = TO_CHAR((SELECT n FROM fme WHERE fme.id = o.k), (SELECT nf FROM fme WHERE fme.id = o.k)) || ' /seq'")
    expect(updated.rowsAffected).toBe(3)
    expect((await conn.execute("SELECT fme_seq.CURRVAL FROM dual")).rows).toEqual([[6]])
    expect(((await conn.execute("SELECT k FROM fme_seqd ORDER BY k")).rows as Array<[number]>).map((r) => r[0])).toEqual([4, 5, 6])
    const selected = (await conn.execute("SELECT fme_seq.NEXTVAL, TO_CHAR(d, f) || ' /q' FROM fme")).rows as Array<[number, string]>
    expect(selected.map((r) => r[0]).sort()).toEqual([7, 8, 9])
    expect((await conn.execute("SELECT fme_seq.CURRVAL FROM dual")).rows).toEqual([[9]])
    // with binds, by executeMany: each bind row's values learned before the statement runs
    const many = await conn.executeMany("INSERT INTO fme_seqd (k, s) SELECT fme_seq.NEXTVAL, TO_CHAR(d, f) || :sfx FROM fme WHERE id <= :upto", [
      { sfx: " /a", upto: 2 },
      { sfx: " /b", upto: 3 }
    ])
    expect(many.rowsAffected).toBe(5)
    expect((await conn.execute("SELECT fme_seq.CURRVAL FROM dual")).rows).toEqual([[14]])
    expect(((await conn.execute("SELECT s FROM fme_seqd WHERE k > 9 ORDER BY k")).rows as Array<[string]>).map((r) => r[0]).sort()).toEqual([" /b", "2024-03-01 /a", "2024-03-01 /b", "29.02.2024 /a", "29.02.2024 /b"])
    await conn.rollback()
    // a sequence a trigger takes advances once per row too
    await conn.execute("CREATE SEQUENCE fme_tseq")
    await conn.execute("CREATE TABLE fme_trg (k NUMBER, s VARCHAR2(30))")
    await conn.execute("CREATE TRIGGER fme_trg_k BEFORE INSERT ON fme_trg FOR EACH ROW BEGIN :NEW.k := fme_tseq.NEXTVAL; END;")
    await conn.execute("INSERT INTO fme_trg (s) SELECT TO_CHAR(d, f) || ' /t' FROM fme")
    expect((await conn.execute("SELECT fme_tseq.CURRVAL FROM dual")).rows).toEqual([[3]])
    expect(((await conn.execute("SELECT k FROM fme_trg ORDER BY k")).rows as Array<[number]>).map((r) => r[0])).toEqual([1, 2, 3])
    await conn.rollback()
  })

  it("a MERGE and an UPDATE with SET (a, b) = (subquery) taking NEXTVAL learn their format values first and run once", async () => {
    await conn.execute("CREATE SEQUENCE fme_mseq")
    await conn.execute("CREATE TABLE fme_mt (id NUMBER, k NUMBER, s VARCHAR2(30), d DATE, f VARCHAR2(30))")
    const currval = async () => ((await conn.execute("SELECT fme_mseq.CURRVAL FROM dual")).rows as Array<[number]>)[0]![0]
    // every row inserted (no target row matches): one value per row
    await conn.execute("MERGE INTO fme_mt t USING fme s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.s = 'never' WHEN NOT MATCHED THEN INSERT (id, k, s, d, f) VALUES (s.id, fme_mseq.NEXTVAL, TO_CHAR(s.d, s.f) || ' /m', s.d, s.f)")
    expect(await currval()).toBe(3)
    expect(((await conn.execute("SELECT id, s FROM fme_mt ORDER BY id")).rows as Array<[number, string]>)).toEqual([
      [1, "29.02.2024 /m"],
      [2, "2024-03-01 /m"],
      [3, " /m"]
    ])
    // every row updated: one value per row
    await conn.execute("MERGE INTO fme_mt t USING (SELECT id, d, f FROM fme) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.k = fme_mseq.NEXTVAL, t.s = TO_CHAR(s.d, s.f) || ' /u'")
    expect(await currval()).toBe(6)
    expect(((await conn.execute("SELECT k FROM fme_mt ORDER BY k")).rows as Array<[number]>).map((r) => r[0])).toEqual([4, 5, 6])
    expect(((await conn.execute("SELECT s FROM fme_mt ORDER BY id")).rows as Array<[string]>).map((r) => r[0])).toEqual(["29.02.2024 /u", "2024-03-01 /u", " /u"])
    await conn.execute("UPDATE fme_mt o SET (id) = (SELECT id FROM fme WHERE fme.id = o.id), k = fme_mseq.NEXTVAL, s = TO_CHAR(o.d, o.f) || ' /r'")
    expect(await currval()).toBe(9)
    expect(((await conn.execute("SELECT s FROM fme_mt ORDER BY id")).rows as Array<[string]>).map((r) => r[0])).toEqual(["29.02.2024 /r", "2024-03-01 /r", " /r"])
    await conn.rollback()
  })

  it("a format expression computed from the NEXTVAL the statement takes: learned first from the sequence's next values, run once", async () => {
    await conn.execute("CREATE SEQUENCE fme_dseq START WITH 10 INCREMENT BY 5")
    await conn.execute("CREATE TABLE fme_dt (k NUMBER, s VARCHAR2(30))")
    const currval = async () => ((await conn.execute("SELECT fme_dseq.CURRVAL FROM dual")).rows as Array<[number]>)[0]![0]
    // each row's model from its own new value (10, 15, 20): 'YYYY' for an even one, 'MM' for an odd one
    await conn.execute("INSERT INTO fme_dt (k, s) SELECT fme_dseq.NEXTVAL, TO_CHAR(d, DECODE(MOD(fme_dseq.NEXTVAL, 2), 0, 'YYYY', 'MM')) FROM fme")
    expect(await currval()).toBe(20)
    expect((await conn.execute("SELECT k, s FROM fme_dt ORDER BY k")).rows).toEqual([
      [10, "2024"],
      [15, "03"],
      [20, "2024"]
    ])
    const q = (await conn.execute("SELECT fme_dseq.NEXTVAL, TO_CHAR(DATE '2024-07-08', DECODE(MOD(fme_dseq.CURRVAL, 2), 0, 'YYYY', 'DD')) FROM fme")).rows as Array<[number, string]>
    expect(await currval()).toBe(35)
    expect(q.sort((a, b) => a[0] - b[0])).toEqual([[25, "08"], [30, "2024"], [35, "08"]])
    await conn.rollback()
  })

  it("binds before, inside and after the call whose format model is an expression, in a query and in DML", async () => {
    const r = await conn.execute("SELECT :a, TO_CHAR(TO_DATE(:d, 'YYYY-MM-DD'), f), :z FROM fme WHERE id <= :n ORDER BY id", { a: "A", d: "2024-05-06", z: "Z", n: 3 })
    expect(r.rows).toEqual([["A", "06.05.2024", "Z"], ["A", "2024-05-06", "Z"], ["A", null, "Z"]])
    await conn.execute("CREATE TABLE fme_b (id NUMBER, s VARCHAR2(30))")
    const sql = "INSERT INTO fme_b SELECT :k + id, TO_CHAR(TO_DATE(:d, 'YYYY-MM-DD'), f) || :sfx FROM fme WHERE id <= :n"
    await conn.execute(sql, { k: 100, d: "2024-05-06", sfx: "!", n: 3 })
    // run again: both format values known, a CASE of two branches each repeating :d
    await conn.execute(sql, { k: 200, d: "2024-07-08", sfx: "?", n: 2 })
    const w = await conn.execute("SELECT id, s FROM fme_b ORDER BY id")
    expect(w.rows).toEqual([[101, "06.05.2024!"], [102, "2024-05-06!"], [103, "!"], [201, "08.07.2024?"], [202, "2024-07-08?"]])
    await conn.rollback()
  })

  it("a format expression holding a bind, beside binds before and after it, by name, by position and by executeMany", async () => {
    const r = await conn.execute("SELECT :a, TO_CHAR(TO_DATE(:d, 'YYYY-MM-DD'), NVL(f, :g)), :z FROM fme ORDER BY id", { a: "A", d: "2024-05-06", g: "MM", z: "Z" })
    expect(r.rows).toEqual([["A", "06.05.2024", "Z"], ["A", "2024-05-06", "Z"], ["A", "05", "Z"]])
    const p = await conn.execute("SELECT TO_CHAR(d, NVL(f, :1) || :2) FROM fme WHERE id >= :3 ORDER BY id", ["DD", "/MM", 2])
    expect(p.rows).toEqual([["2024-03-01/03"], ["02/03"]])
    await conn.execute("CREATE TABLE fme_bx (id NUMBER, s VARCHAR2(30))")
    await conn.executeMany("INSERT INTO fme_bx SELECT :1, TO_CHAR(d, NVL(f, :2)) FROM fme WHERE id = :3", [[1, "MM", 3], [2, "DD", 3], [3, "YYYY", 1]])
    await conn.execute("UPDATE fme_bx SET s = s || TO_CHAR(DATE '2024-12-25', NVL(NULL, :g)) WHERE id = :i", { g: "-MM", i: 3 })
    expect((await conn.execute("SELECT id, s FROM fme_bx ORDER BY id")).rows).toEqual([[1, "03"], [2, "02"], [3, "29.02.2024-12"]])
    await conn.rollback()
  })

  it("in a PL/SQL block's SELECT INTO, cursor loop, INSERT ... SELECT, UPDATE and assignment, each row by its own model", async () => {
    await conn.execute("CREATE TABLE fme_pl (id NUMBER, s VARCHAR2(40))")
    await conn.execute(`DECLARE
  x VARCHAR2(40);
  g VARCHAR2(10) := 'YYYY';
BEGIN
  SELECT TO_CHAR(d, f) INTO x FROM fme WHERE id = 1;
  INSERT INTO fme_pl VALUES (1, x);
  FOR r IN (SELECT id, TO_CHAR(d, f) s FROM fme WHERE id < 3) LOOP
    INSERT INTO fme_pl VALUES (10 + r.id, r.s);
  END LOOP;
  INSERT INTO fme_pl SELECT 20 + id, TO_CHAR(d, NVL(f, g)) || '!' FROM fme;
  UPDATE fme_pl SET s = s || TO_CHAR(DATE '2024-12-25', LOWER('-MM')) WHERE id = 1;
  x := TO_CHAR(DATE '2024-12-25', UPPER('yyyy') || g);
  INSERT INTO fme_pl VALUES (30, x);
END;`)
    expect((await conn.execute("SELECT id, s FROM fme_pl ORDER BY id")).rows).toEqual([
      [1, "29.02.2024-12"],
      [11, "29.02.2024"],
      [12, "2024-03-01"],
      [21, "29.02.2024!"],
      [22, "2024-03-01!"],
      [23, "2024!"],
      [30, "20242024"]
    ])
    await conn.rollback()
  })

  it("a view and CREATE TABLE ... AS SELECT with a format model from a column: each row by its own model, also rows added after the view", async () => {
    await conn.execute("CREATE TABLE fme_c AS SELECT id, TO_CHAR(d, f) x FROM fme")
    expect((await conn.execute("SELECT id, x FROM fme_c ORDER BY id")).rows).toEqual([[1, "29.02.2024"], [2, "2024-03-01"], [3, null]])
    await conn.execute("CREATE VIEW fme_v AS SELECT id, TO_CHAR(d, f) x FROM fme")
    expect((await conn.execute("SELECT x FROM fme_v ORDER BY id")).rows).toEqual([["29.02.2024"], ["2024-03-01"], [null]])
    // a model the view's query did not meet when it was created
    await conn.execute("INSERT INTO fme (id, d, f) VALUES (4, DATE '2024-03-04', 'MM/DD/YYYY')")
    expect((await conn.execute("SELECT v.x FROM fme_v v WHERE v.id > 1 ORDER BY v.id")).rows).toEqual([["2024-03-01"], [null], ["03/04/2024"]])
    expect((await conn.execute("SELECT a.id FROM fme a JOIN fme_v b ON b.id = a.id WHERE b.x = '03/04/2024'")).rows).toEqual([[4]])
    await conn.execute("INSERT INTO fme_c (id, x) SELECT id + 10, x FROM fme_v WHERE id = 4")
    expect((await conn.execute("SELECT x FROM fme_c WHERE id = 14")).rows).toEqual([["03/04/2024"]])
    await conn.rollback()
    // a view with a column list: its items take the view's names
    await conn.execute("CREATE VIEW fme_vl (k, y) AS SELECT id, TO_CHAR(d, f) x FROM fme")
    expect((await conn.execute("SELECT y FROM fme_vl WHERE k = 2")).rows).toEqual([["2024-03-01"]])
    // with two * items it cannot tell which columns each stands for: refused rather than ignoring the model (README)
    expect(oraCode(await failure(() => conn.execute("CREATE VIEW fme_vs (a, b, c, d2, e, g, h, i, j, k, l, m, n, o, p) AS SELECT x.*, y.*, TO_CHAR(x.d, x.f) FROM fme x, fme y")))).toBe("ORA-03001")
    await conn.execute("CREATE VIEW fme_lit AS SELECT TO_CHAR(d, 'YYYY') x FROM fme WHERE id = 1")
    expect((await conn.execute("SELECT x FROM fme_lit")).rows).toEqual([["2024"]])
  })

  it("executeMany with batch errors: each bind row's format values met, no row written twice", async () => {
    await conn.execute("CREATE TABLE fme_many (id NUMBER, s VARCHAR2(30))")
    const r = await conn.executeMany("INSERT INTO fme_many SELECT :1, TO_CHAR(d, f) FROM fme WHERE id = :2", [[10, 1], [11, 2], [12, 3]], { batchErrors: true, dmlRowCounts: true })
    expect(r.batchErrors ?? []).toEqual([])
    expect(r.dmlRowCounts).toEqual([1, 1, 1])
    const w = await conn.execute("SELECT id, s FROM fme_many ORDER BY id")
    expect(w.rows).toEqual([[10, "29.02.2024"], [11, "2024-03-01"], [12, null]])
    await conn.rollback()
  })

  it("a format model the translator refuses fails as its literal does, and the statement runs once the row is gone", async () => {
    await conn.execute("INSERT INTO fme (id, d, f) VALUES (9, DATE '2024-01-01', 'DD.KK')")
    const sql = "SELECT TO_CHAR(d, f) FROM fme WHERE id IN (2, 9) ORDER BY id"
    const literal = oraCode(await failure(() => conn.execute("SELECT TO_CHAR(d, 'DD.KK') FROM fme WHERE id = 9")))
    expect(oraCode(await failure(() => conn.execute(sql)))).toBe(literal)
    await conn.rollback()
    expect((await conn.execute(sql)).rows).toEqual([["2024-03-01"]])
  })

  it("is described (parse only) by the call's result type", async () => {
    const info = await conn.getStatementInfo("SELECT TO_CHAR(d, f), TO_NUMBER(t, nf) x, TO_DATE(t, LOWER(f)) y FROM fme")
    expect(info.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([["TO_CHAR(D,F)", "VARCHAR2"], ["X", "NUMBER"], ["Y", "DATE"]])
  })

})

describe("Oracle test server: format models that are expressions, two sessions at once (raw node-oracledb)", () => {
  it("the same statement run by two sessions at the same time: each gets every row formatted by its own model", async () => {
    const env = await withSessions(2)
    try {
      const [a, b] = env.sessions
      await a.execute("CREATE TABLE fme2 (id NUMBER, d DATE, f VARCHAR2(20))")
      const rows = Array.from({ length: 40 }, (_, k) => [k, new Date(Date.UTC(2024, 0, 1 + k)), ["DD.MM", "MM/DD", "YYYY-MM-DD", "DY DD"][k % 4]])
      await a.executeMany("INSERT INTO fme2 VALUES (:1, :2, :3)", rows)
      await a.commit()
      const sql = "SELECT id, TO_CHAR(d, f) FROM fme2 ORDER BY id"
      const [ra, rb] = await Promise.all([a.execute(sql), b.execute(sql)])
      const expected = await a.execute("SELECT id, CASE f WHEN 'DD.MM' THEN TO_CHAR(d, 'DD.MM') WHEN 'MM/DD' THEN TO_CHAR(d, 'MM/DD') WHEN 'YYYY-MM-DD' THEN TO_CHAR(d, 'YYYY-MM-DD') ELSE TO_CHAR(d, 'DY DD') END FROM fme2 ORDER BY id")
      expect(ra.rows).toEqual(expected.rows)
      expect(rb.rows).toEqual(expected.rows)
    } finally {
      await env.close()
    }
  })
})
