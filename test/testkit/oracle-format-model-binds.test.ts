import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// A format model (and NLS parameter) may be any character expression, a bind included (SQL Language Reference,
// "TO_CHAR (number)", "TO_DATE", "TO_NUMBER": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/TO_CHAR-number.html).
// These failed ORA-03001 (the engine was left with fewer parameters than the client bound).
describe("Oracle test server: bound format models (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fmb (id NUMBER, d DATE, n NUMBER)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TO_CHAR, TO_NUMBER and TO_DATE take a bound format model in the select list and WHERE", async () => {
    const r = await conn.execute("SELECT TO_CHAR(1234.567, :1), TO_CHAR(:2, :3), TO_NUMBER('1,234.5', :4), TO_CHAR(TO_DATE('31.01.2024', :5), 'YYYY-MM-DD') FROM dual", ["9,999.99", 42, "FM0000", "9,999.9", "DD.MM.YYYY"])
    expect(r.rows).toEqual([[" 1,234.57", "0042", 1234.5, "2024-01-31"]])
    // the unaliased columns are named by the statement's text, the binds as written
    expect(r.metaData.slice(0, 3).map((m: { name: string }) => m.name)).toEqual(["TO_CHAR(1234.567,:1)", "TO_CHAR(:2,:3)", "TO_NUMBER('1,234.5',:4)"])
    const named = await conn.execute("SELECT COUNT(*) FROM dual WHERE TO_CHAR(:v, :f) = :w", { v: 7, f: "FM09", w: "07" })
    expect(named.rows).toEqual([[1]])
  })

  it("INSERT and UPDATE with TO_DATE(:d, :fmt), also through executeMany", async () => {
    await conn.execute("INSERT INTO fmb (id, d) VALUES (:1, TO_DATE(:2, :3))", [1, "2024/02/29 13:14", "YYYY/MM/DD HH24:MI"])
    await conn.executeMany("INSERT INTO fmb (id, d, n) VALUES (:1, TO_DATE(:2, :3), TO_NUMBER(:4, :5))", [
      [2, "01-03-2024", "DD-MM-YYYY", "1,234.5", "9G999D9"],
      [3, "02-03-2024", "DD-MM-YYYY", "2,000.0", "9G999D9"]
    ], { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }] })
    await conn.execute("UPDATE fmb SET n = TO_NUMBER(:1, :2) WHERE id = 1", ["12.5", "99D9"])
    const r = await conn.execute("SELECT id, TO_CHAR(d, 'YYYY-MM-DD HH24:MI'), n FROM fmb ORDER BY id")
    expect(r.rows).toEqual([[1, "2024-02-29 13:14", 12.5], [2, "2024-03-01 00:00", 1234.5], [3, "2024-03-02 00:00", 2000]])
    await conn.rollback()
  })
  it("a query whose TO_CHAR takes a bound format model is described (parse only) as VARCHAR2, under its heading", async () => {
    // node-oracledb's getStatementInfo parses without bind values; this failed ORA-03001
    const info = await conn.getStatementInfo("SELECT TO_CHAR(SYSDATE, :f) x, TO_CHAR(12.5, :g, :n) FROM dual")
    expect(info.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([["X", "VARCHAR2"], ["TO_CHAR(12.5,:G,:N)", "VARCHAR2"]])
    expect(info.bindNames).toEqual(["F", "G", "N"])
  })
  it("executeMany rows that bind different format models, each row read by its own", async () => {
    await conn.executeMany("INSERT INTO fmb (id, d, n) VALUES (:1, TO_DATE(:2, :3), TO_NUMBER(:4, :5))", [
      [10, "01-03-2024", "DD-MM-YYYY", "1,234.5", "9G999D9"],
      [11, "2024/03/02", "YYYY/MM/DD", "12.5", "99D9"]
    ], { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }] })
    const r = await conn.execute("SELECT id, TO_CHAR(d, 'YYYY-MM-DD'), n FROM fmb WHERE id >= 10 ORDER BY id")
    expect(r.rows).toEqual([[10, "2024-03-01", 1234.5], [11, "2024-03-02", 12.5]])
    // a failing row's offset counts from the first row, across the runs of equal format models
    const b = await conn.executeMany("INSERT INTO fmb (id, d) VALUES (:1, TO_DATE(:2, :3))", [
      [12, "05-03-2024", "DD-MM-YYYY"],
      [13, "2024/13/01", "YYYY/MM/DD"],
      [14, "07.03.2024", "DD.MM.YYYY"]
    ], { batchErrors: true, dmlRowCounts: true, bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }] })
    expect(b.batchErrors?.map((e: { offset: number; message: string }) => [e.offset, e.message.slice(0, 9)])).toEqual([[1, "ORA-01843"]])
    expect(b.dmlRowCounts).toEqual([1, 0, 1])
    await conn.rollback()
  })

  it("a bind name used twice, as a format model and elsewhere", async () => {
    const r = await conn.execute("SELECT TO_CHAR(TO_DATE(:d, :f), :f), LENGTH(:f) FROM dual", { d: "2024-05-06", f: "YYYY-MM-DD" })
    expect(r.rows).toEqual([["2024-05-06", 10]])
    await conn.execute("INSERT INTO fmb (id, d) SELECT 20, TO_DATE(:d, :f) FROM dual WHERE :f IS NOT NULL", { d: "2023-01-02", f: "YYYY-MM-DD" })
    const w = await conn.execute("SELECT TO_CHAR(d, 'YYYY-MM-DD') FROM fmb WHERE id = 20")
    expect(w.rows).toEqual([["2023-01-02"]])
    await conn.rollback()
  })

  it("RETURNING ... INTO after a bound format model", async () => {
    const r = await conn.execute("INSERT INTO fmb (id, d) VALUES (:id, TO_DATE(:d, :f)) RETURNING id, TO_CHAR(d, :g) INTO :rid, :rd", {
      id: 30,
      d: "2024-05-06",
      f: "YYYY-MM-DD",
      g: "DD.MM.YYYY",
      rid: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      rd: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 }
    })
    expect(r.outBinds).toEqual({ rid: [30], rd: ["06.05.2024"] })
    await conn.rollback()
  })
  it("a query whose TO_DATE, TO_NUMBER or TO_TIMESTAMP takes a bound format model is described (parse only) by its result type", async () => {
    // failed ORA-03001: the translator needs the format model, which a describe does not have
    const info = await conn.getStatementInfo("SELECT TO_DATE(:d, :f) d, TO_NUMBER('1,5', :g), TO_TIMESTAMP(:t, :h) ts, TO_TIMESTAMP_TZ(:z, :k) tz, id FROM fmb WHERE id = :i")
    expect(info.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([["D", "DATE"], ["TO_NUMBER('1,5',:G)", "NUMBER"], ["TS", "TIMESTAMP"], ["TZ", "TIMESTAMP WITH TIME ZONE"], ["ID", "NUMBER"]])
    expect(info.bindNames).toEqual(["D", "F", "G", "T", "H", "Z", "K", "I"])
  })
  // Oracle reads '' as NULL (SQL Language Reference, "Nulls") and most functions answer NULL for a NULL argument
  // ("Nulls in SQL Functions": https://docs.oracle.com/database/122/SQLRF/About-SQL-Functions.htm). These formatted
  // by the session's model, failed ORA-01722 / ORA-01481, or ORA-03001 for a bind.
  it("a literal NULL or '' format model or NLS parameter makes the call NULL, typed as its result", async () => {
    const r = await conn.execute("SELECT TO_CHAR(SYSDATE, NULL), TO_DATE('2024', NULL), TO_CHAR(1, ''), TO_NUMBER('1', NULL), TO_CHAR(1, '9', NULL), TO_TIMESTAMP('x', '') FROM dual")
    expect(r.rows).toEqual([[null, null, null, null, null, null]])
    expect(r.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([
      ["TO_CHAR(SYSDATE,NULL)", "VARCHAR2"],
      ["TO_DATE('2024',NULL)", "DATE"],
      ["TO_CHAR(1,'')", "VARCHAR2"],
      ["TO_NUMBER('1',NULL)", "NUMBER"],
      ["TO_CHAR(1,'9',NULL)", "VARCHAR2"],
      ["TO_TIMESTAMP('X','')", "TIMESTAMP"]
    ])
  })

  it("a bound format model or NLS parameter whose value is NULL makes the call NULL, in a query and in DML", async () => {
    const r = await conn.execute("SELECT TO_CHAR(SYSDATE, :f), TO_NUMBER('1,5', '9D9', :n), TO_CHAR(12, 'FM99', :m) FROM dual", [null, null, "NLS_NUMERIC_CHARACTERS = ',.'"])
    expect(r.rows).toEqual([[null, null, "12"]])
    await conn.execute("INSERT INTO fmb (id, d) VALUES (:1, TO_DATE(:2, :3))", [40, "2024", null])
    await conn.executeMany("INSERT INTO fmb (id, d) VALUES (:1, TO_DATE(:2, :3))", [
      [41, "2024-01-02", "YYYY-MM-DD"],
      [42, "2024-01-03", null]
    ], { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.STRING, maxSize: 20 }] })
    const w = await conn.execute("SELECT id, TO_CHAR(d, 'YYYY-MM-DD') FROM fmb WHERE id >= 40 ORDER BY id")
    expect(w.rows).toEqual([[40, null], [41, "2024-01-02"], [42, null]])
    await conn.rollback()
  })

  it("a format model concatenated from literals and binds ('DD.' || :f) in a query and in DML", async () => {
    const r = await conn.execute("SELECT TO_CHAR(DATE '2024-05-06', 'DD.' || :f) x, TO_NUMBER('1.234,5', :g || 'D9', 'NLS_NUMERIC_CHARACTERS = '',.''') FROM dual", ["MM.YYYY", "9G999"])
    expect(r.rows).toEqual([["06.05.2024", 1234.5]])
    await conn.execute("INSERT INTO fmb (id, d) VALUES (50, TO_DATE(:d, 'YYYY' || :f))", { d: "2024/07/08", f: "/MM/DD" })
    const w = await conn.execute("SELECT TO_CHAR(d, 'YYYY-MM-DD') FROM fmb WHERE id = 50")
    expect(w.rows).toEqual([["2024-07-08"]])
    await conn.rollback()
  })

  it("describes (parse only) a query whose format arguments mix a literal and a bind", async () => {
    // failed ORA-03001
    const info = await conn.getStatementInfo("SELECT TO_CHAR(1234.5, '9G999D9', :n) a, TO_DATE(:d, 'YYYY' || :f) b, TO_NUMBER('1', :g, 'NLS_NUMERIC_CHARACTERS = '',.''') c FROM dual")
    expect(info.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([["A", "VARCHAR2"], ["B", "DATE"], ["C", "NUMBER"]])
    expect(info.bindNames).toEqual(["N", "D", "F", "G"])
  })

  it("executeMany with RETURNING ... INTO whose rows bind different format models", async () => {
    // failed ORA-03001: the rows run as runs of equal format models, their returned values one list in row order
    const r = await conn.executeMany(
      "INSERT INTO fmb (id, d) VALUES (:id, TO_DATE(:d, :f)) RETURNING id, TO_CHAR(d, :g) INTO :rid, :rd",
      [
        { id: 60, d: "2024-05-06", f: "YYYY-MM-DD", g: "DD.MM.YYYY" },
        { id: 61, d: "07/05/2024", f: "DD/MM/YYYY", g: "YYYY" },
        { id: 62, d: "08/05/2024", f: "DD/MM/YYYY", g: "YYYY" }
      ],
      {
        bindDefs: {
          id: { type: oracledb.NUMBER },
          d: { type: oracledb.STRING, maxSize: 20 },
          f: { type: oracledb.STRING, maxSize: 20 },
          g: { type: oracledb.STRING, maxSize: 20 },
          rid: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
          rd: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 }
        }
      }
    )
    expect(r.outBinds).toEqual([{ rid: [60], rd: ["06.05.2024"] }, { rid: [61], rd: ["2024"] }, { rid: [62], rd: ["2024"] }])
    const w = await conn.execute("SELECT id, TO_CHAR(d, 'YYYY-MM-DD') FROM fmb WHERE id >= 60 ORDER BY id")
    expect(w.rows).toEqual([[60, "2024-05-06"], [61, "2024-05-07"], [62, "2024-05-08"]])
    await conn.rollback()
  })
})
