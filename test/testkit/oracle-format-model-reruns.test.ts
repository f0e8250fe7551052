import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

// A format model that is an expression is evaluated per row (SQL Language Reference, "TO_CHAR (datetime)": "fmt ...
// can be a character expression", https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/TO_CHAR-datetime.html),
// and a statement takes one NEXTVAL per row ("Sequence Pseudocolumns"). The server compiles such a call into a CASE
// over the values met (format-model-sites.ts); these are the statements that ran more than once to meet them, taking
// sequence values on each run.
describe("Oracle test server: format expressions in statements that take NEXTVAL run once (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const currval = async (seq: string) => ((await conn.execute(`SELECT ${seq}.CURRVAL FROM dual`)).rows as Array<[number]>)[0]![0]
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fmr (id NUMBER, d DATE, f VARCHAR2(30))")
    await conn.execute("INSERT INTO fmr VALUES (1, DATE '2024-02-29', 'DD.MM.YYYY')")
    await conn.execute("INSERT INTO fmr VALUES (2, DATE '2024-03-01', 'YYYY-MM-DD')")
    await conn.execute("INSERT INTO fmr VALUES (3, DATE '2024-03-02', 'MM/DD')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a MERGE whose ON condition holds a format expression advances the sequence once per row", async () => {
    await conn.execute("CREATE SEQUENCE fmr_mseq")
    await conn.execute("CREATE TABLE fmr_m (k NUMBER, s VARCHAR2(30))")
    await conn.execute("INSERT INTO fmr_m VALUES (0, '2024-03-01')")
    const merge = "MERGE INTO fmr_m t USING fmr s ON (t.s = TO_CHAR(s.d, s.f)) WHEN MATCHED THEN UPDATE SET t.k = fmr_mseq.NEXTVAL WHEN NOT MATCHED THEN INSERT (k, s) VALUES (fmr_mseq.NEXTVAL, TO_CHAR(s.d, s.f) || '!')"
    await conn.execute(merge)
    // one row matched (id 2), two inserted: three values
    expect(await currval("fmr_mseq")).toBe(3)
    expect(((await conn.execute("SELECT s FROM fmr_m ORDER BY s")).rows as Array<[string]>).map((r) => r[0])).toEqual(["03/02!", "2024-03-01", "29.02.2024!"])
    expect(((await conn.execute("SELECT k FROM fmr_m ORDER BY k")).rows as Array<[number]>).map((r) => r[0])).toEqual([1, 2, 3])
    await conn.rollback()
  })
  it("a PL/SQL block's INSERT ... SELECT and UPDATE taking NEXTVAL beside a format expression advance it once per row", async () => {
    await conn.execute("CREATE SEQUENCE fmr_pseq")
    await conn.execute("CREATE TABLE fmr_p (id NUMBER, k NUMBER, s VARCHAR2(30))")
    await conn.execute(`DECLARE
  sfx VARCHAR2(5) := '!';
BEGIN
  INSERT INTO fmr_p (id, k, s) SELECT id, fmr_pseq.NEXTVAL, TO_CHAR(d, f) || sfx FROM fmr;
  UPDATE fmr_p SET k = fmr_pseq.NEXTVAL, s = s || TO_CHAR(DATE '2024-12-25', DECODE(id, 1, 'DD', 2, 'MM', 'YY')) WHERE id < 3;
END;`)
    expect(await currval("fmr_pseq")).toBe(5)
    expect((await conn.execute("SELECT id, s FROM fmr_p ORDER BY id")).rows).toEqual([
      [1, "29.02.2024!25"],
      [2, "2024-03-01!12"],
      [3, "03/02!"]
    ])
    // a format model computed from the NEXTVAL it takes: the probe reads the sequence's next values without taking them
    await conn.execute("BEGIN INSERT INTO fmr_p (id, k, s) SELECT id + 10, fmr_pseq.NEXTVAL, TO_CHAR(d, DECODE(MOD(fmr_pseq.NEXTVAL, 2), 0, 'YYYY', 'MM')) FROM fmr; END;")
    expect(await currval("fmr_pseq")).toBe(8)
    expect((await conn.execute("SELECT k, s FROM fmr_p WHERE id > 10 ORDER BY k")).rows).toEqual([[6, "2024"], [7, "03"], [8, "2024"]])
    // the rows updated took 4 and 5; the other kept one of the three the INSERT took
    expect(((await conn.execute("SELECT k FROM fmr_p WHERE id < 3 ORDER BY k")).rows as Array<[number]>).map((r) => r[0])).toEqual([4, 5])
    expect([1, 2, 3]).toContain(((await conn.execute("SELECT k FROM fmr_p WHERE id = 3")).rows as Array<[number]>)[0]![0])
    await conn.rollback()
  })
})

describe("Oracle test server: views whose query has a format expression (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fmv (id NUMBER, d DATE, f VARCHAR2(30))")
    await conn.execute("INSERT INTO fmv VALUES (1, DATE '2024-02-29', 'DD.MM.YYYY')")
    await conn.execute("INSERT INTO fmv VALUES (2, DATE '2024-03-01', 'YYYY-MM-DD')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))
  // a failed test leaves no rows to the next
  afterEach(() => conn.rollback())

  it("a PL/SQL block's query and DML naming the view format rows added after it by their own model", async () => {
    await conn.execute("CREATE VIEW fmv_v AS SELECT id, TO_CHAR(d, f) x FROM fmv")
    await conn.execute("CREATE TABLE fmv_out (id NUMBER, x VARCHAR2(30))")
    // a model the view's query did not meet when it was created
    await conn.execute("INSERT INTO fmv VALUES (3, DATE '2024-03-04', 'MM/DD/YYYY')")
    const r = await conn.execute(
      `DECLARE
  v VARCHAR2(30);
BEGIN
  SELECT x INTO v FROM fmv_v WHERE id = 3;
  :out := v;
  FOR r IN (SELECT a.id, a.x FROM fmv_v a WHERE a.id > 1 ORDER BY a.id) LOOP
    :out := :out || ' ' || r.x;
  END LOOP;
  INSERT INTO fmv_out SELECT id, x FROM fmv_v WHERE id = 3;
END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.out).toBe("03/04/2024 2024-03-01 03/04/2024")
    expect((await conn.execute("SELECT id, x FROM fmv_out")).rows).toEqual([[3, "03/04/2024"]])
    await conn.rollback()
  })
  it("a view over such a view, and a synonym for it, format rows added after them by their own model", async () => {
    await conn.execute("CREATE VIEW fmv_in AS SELECT id, TO_CHAR(d, f) x FROM fmv")
    await conn.execute("CREATE VIEW fmv_over (k, y) AS SELECT id, x FROM fmv_in WHERE id > 1")
    await conn.execute("CREATE SYNONYM fmv_syn FOR fmv_over")
    await conn.execute("INSERT INTO fmv VALUES (6, DATE '2024-03-07', 'DD+MM')")
    expect((await conn.execute("SELECT k, y FROM fmv_over ORDER BY k")).rows).toEqual([[2, "2024-03-01"], [6, "07+03"]])
    expect((await conn.execute("SELECT y FROM fmv_syn WHERE k = 6")).rows).toEqual([["07+03"]])
    const r = await conn.execute("BEGIN SELECT y INTO :y FROM fmv_over WHERE k = 6; END;", { y: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 30 } })
    expect(r.outBinds.y).toBe("07+03")
    await conn.rollback()
  })

  it("a MERGE whose USING source is the view formats rows added after it by their own model", async () => {
    await conn.execute("CREATE VIEW fmv_m AS SELECT id, TO_CHAR(d, f) x FROM fmv")
    await conn.execute("CREATE TABLE fmv_mt (id NUMBER, x VARCHAR2(30))")
    await conn.execute("INSERT INTO fmv VALUES (5, DATE '2024-03-06', 'DD-MM')")
    await conn.execute("MERGE INTO fmv_mt t USING fmv_m s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT (id, x) VALUES (s.id, s.x)")
    expect((await conn.execute("SELECT id, x FROM fmv_mt ORDER BY id")).rows).toEqual([[1, "29.02.2024"], [2, "2024-03-01"], [5, "06-03"]])
    await conn.rollback()
  })

  it("a view with a column list and a * item: the * stands for the columns it names, each row formatted by its own model", async () => {
    await conn.execute("CREATE VIEW fmv_s (k, dd, ff, y) AS SELECT fmv.*, TO_CHAR(d, f) FROM fmv")
    await conn.execute("CREATE VIEW fmv_s2 (k, y, dd, ff) AS SELECT id, TO_CHAR(d, f), a.* FROM (SELECT d, f FROM fmv) a JOIN fmv USING (d, f)")
    await conn.execute("INSERT INTO fmv VALUES (4, DATE '2024-03-05', 'DD/MM')")
    expect((await conn.execute("SELECT k, y, ff FROM fmv_s ORDER BY k")).rows).toEqual([
      [1, "29.02.2024", "DD.MM.YYYY"],
      [2, "2024-03-01", "YYYY-MM-DD"],
      [4, "05/03", "DD/MM"]
    ])
    const r = await conn.execute("SELECT * FROM fmv_s2 WHERE k = 4")
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["K", "Y", "DD", "FF"])
    expect([r.rows[0][0], r.rows[0][1], r.rows[0][3]]).toEqual([4, "05/03", "DD/MM"])
    await conn.rollback()
  })
})

// "the view's owner must have the privileges" on its base objects, not its user, and its query's names are its owner's
// (SQL Language Reference, CREATE VIEW, Prerequisites; Database Concepts, "Overview of Views")
describe("Oracle test server: another user's view whose query has a format expression (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    await app.execute("CREATE TABLE fmo (id NUMBER, d DATE, f VARCHAR2(30))")
    await app.execute("INSERT INTO fmo VALUES (1, DATE '2024-02-29', 'DD.MM.YYYY')")
    await app.execute("CREATE VIEW fmo_v AS SELECT id, TO_CHAR(d, f) x FROM fmo")
    await app.execute("GRANT SELECT ON fmo_v TO bob")
    await app.execute("CREATE VIEW fmo_dual AS SELECT TO_CHAR(DATE '2024-01-02', NVL(NULL, 'YYYY')) x FROM dual")
    await app.execute("INSERT INTO fmo VALUES (2, DATE '2024-03-01', 'YYYY-MM-DD')")
    await app.commit()
    // bob's own table of that name, which the view does not read
    await bob.execute("CREATE TABLE fmo (id NUMBER, d DATE, f VARCHAR2(30))")
    await bob.execute("INSERT INTO fmo VALUES (7, DATE '2024-07-07', 'YYYY')")
    await bob.commit()
  })
  afterAll(async () => {
    await bob?.close()
    await app?.close()
    await server?.close()
  })

  it("reads its owner's tables with its owner's privileges, and needs only SELECT on the view", async () => {
    expect((await bob.execute("SELECT id, x FROM app.fmo_v ORDER BY id")).rows).toEqual([[1, "29.02.2024"], [2, "2024-03-01"]])
    await bob.execute("CREATE TABLE fmo_copy (id NUMBER, x VARCHAR2(30))")
    await bob.execute("INSERT INTO fmo_copy SELECT id, x FROM app.fmo_v WHERE id = 2")
    expect((await bob.execute("SELECT x FROM fmo_copy")).rows).toEqual([["2024-03-01"]])
    const r = await bob.execute("BEGIN SELECT x INTO :x FROM app.fmo_v WHERE id = 2; INSERT INTO fmo_copy SELECT id + 10, x FROM app.fmo_v WHERE id = 1; END;", { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 30 } })
    expect(r.outBinds.x).toBe("2024-03-01")
    expect((await bob.execute("SELECT x FROM fmo_copy WHERE id = 11")).rows).toEqual([["29.02.2024"]])
    // a view bob was not granted stays out of his reach, whatever its query reads
    expect(oraCode(await failure(() => bob.execute("SELECT x FROM app.fmo_dual")))).toBe("ORA-00942")
    expect((await app.execute("SELECT x FROM fmo_dual")).rows).toEqual([["2024"]])
    // the base table itself stays out of bob's reach
    expect(oraCode(await failure(() => bob.execute("SELECT v.x FROM app.fmo_v v JOIN app.fmo t ON t.id = v.id")))).toBe("ORA-00942")
    expect(oraCode(await failure(() => bob.execute("SELECT id FROM app.fmo")))).toBe("ORA-00942")
    await bob.rollback()
  })
})
