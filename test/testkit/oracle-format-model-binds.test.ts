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
})
