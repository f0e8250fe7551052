import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"
import { startRoundTripProxy } from "./oracle/proxy.ts"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"

let server: OracleTestServerHandle
let conn: Conn

const DDL = `CREATE TABLE t_all (
  id NUMBER(10) PRIMARY KEY, n NUMBER, n52 NUMBER(5,2), ns NUMBER(*,3), f FLOAT, i INTEGER, ii INT, si SMALLINT,
  bf BINARY_FLOAT, bd BINARY_DOUBLE, r REAL, dp DOUBLE PRECISION,
  c CHAR(5), nc NCHAR(4), v VARCHAR2(20) NOT NULL, nv NVARCHAR2(10), rw RAW(16),
  d DATE, ts TIMESTAMP(3), tstz TIMESTAMP(6) WITH TIME ZONE, tsltz TIMESTAMP WITH LOCAL TIME ZONE,
  ids INTERVAL DAY(3) TO SECOND(2), iym INTERVAL YEAR TO MONTH, b BOOLEAN, cl CLOB, ncl NCLOB, bl BLOB, j JSON)`

describe("Oracle test server: execute and fetch", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute(DDL)
    await conn.execute(
      `INSERT INTO t_all (id, n, n52, ns, f, i, ii, si, bf, bd, r, dp, c, nc, v, nv, rw, d, ts, tstz, tsltz, ids, iym, b, cl, ncl, bl, j)
       VALUES (:1, :2, :3, :4, :5, :6, :7, :8, :9, :10, :11, :12, :13, :14, :15, :16, :17, :18, :19, :20, :21, :22, :23, :24, :25, :26, :27, :28)`,
      [
        1, 123.456, 12.34, 1.2345, 1.5, 42, -5, 7,
        { val: 1.25, type: oracledb.DB_TYPE_BINARY_FLOAT }, { val: 2.5, type: oracledb.DB_TYPE_BINARY_DOUBLE }, 3.5, 4.5,
        "ab", "xy", "hello", "ünï", Buffer.from([1, 2, 3]),
        new Date(2024, 0, 2, 3, 4, 5), new Date(2024, 0, 2, 3, 4, 5, 678),
        { val: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), type: oracledb.DB_TYPE_TIMESTAMP_TZ },
        { val: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), type: oracledb.DB_TYPE_TIMESTAMP_LTZ },
        { val: new oracledb.IntervalDS({ days: 1, hours: 2, minutes: 3, seconds: 4, fseconds: 500000000 }), type: oracledb.DB_TYPE_INTERVAL_DS },
        { val: new oracledb.IntervalYM({ years: 1, months: 2 }), type: oracledb.DB_TYPE_INTERVAL_YM },
        true,
        { val: "clob text", type: oracledb.CLOB }, { val: "nclob ü", type: oracledb.DB_TYPE_NCLOB },
        { val: Buffer.from("blob"), type: oracledb.BLOB }, { val: { a: 1, b: [true, null, "x"] }, type: oracledb.DB_TYPE_JSON }
      ]
    )
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("describes declared column types with Oracle type codes, sizes, precision, scale and nullability", async () => {
    const r = await conn.execute("SELECT * FROM t_all", [], { fetchInfo: { CL: { type: oracledb.STRING }, NCL: { type: oracledb.STRING }, BL: { type: oracledb.BUFFER } } })
    const meta = Object.fromEntries(r.metaData.map((m: any) => [m.name, m]))
    const expectMeta = (name: string, fields: Record<string, unknown>) => expect(meta[name]).toMatchObject(fields)
    expectMeta("ID", { dbTypeName: "NUMBER", precision: 10, scale: 0, nullable: false })
    expectMeta("N", { dbTypeName: "NUMBER", precision: 0, scale: -127, nullable: true })
    expectMeta("N52", { dbTypeName: "NUMBER", precision: 5, scale: 2 })
    expectMeta("NS", { dbTypeName: "NUMBER", precision: 38, scale: 3 })
    expectMeta("F", { dbTypeName: "NUMBER", precision: 126, scale: -127 })
    expectMeta("I", { dbTypeName: "NUMBER", precision: 38, scale: 0 })
    expectMeta("II", { dbTypeName: "NUMBER", precision: 38, scale: 0 })
    expectMeta("SI", { dbTypeName: "NUMBER", precision: 38, scale: 0 })
    expectMeta("DP", { dbTypeName: "NUMBER", precision: 126, scale: -127 })
    expectMeta("R", { dbTypeName: "NUMBER", precision: 63, scale: -127 })
    expectMeta("BF", { dbTypeName: "BINARY_FLOAT" })
    expectMeta("BD", { dbTypeName: "BINARY_DOUBLE" })
    expectMeta("C", { dbTypeName: "CHAR", byteSize: 5 })
    expectMeta("NC", { dbTypeName: "NCHAR", byteSize: 4, nullable: true })
    expectMeta("V", { dbTypeName: "VARCHAR2", byteSize: 20, nullable: false })
    expectMeta("NV", { dbTypeName: "NVARCHAR2", byteSize: 10 })
    expectMeta("TS", { dbType: oracledb.DB_TYPE_TIMESTAMP })
    expectMeta("IDS", { dbType: oracledb.DB_TYPE_INTERVAL_DS })
    expectMeta("IYM", { dbType: oracledb.DB_TYPE_INTERVAL_YM })
    expectMeta("B", { dbType: oracledb.DB_TYPE_BOOLEAN })
    expectMeta("J", { dbType: oracledb.DB_TYPE_JSON })
    expectMeta("RW", { dbTypeName: "RAW", byteSize: 16 })
    expectMeta("D", { dbTypeName: "DATE" })
    expectMeta("TS", { dbTypeName: "TIMESTAMP", precision: 3 })
    expectMeta("TSTZ", { dbTypeName: "TIMESTAMP WITH TIME ZONE", precision: 6 })
    expectMeta("TSLTZ", { dbTypeName: "TIMESTAMP WITH LOCAL TIME ZONE", precision: 6 })
    expectMeta("IDS", { dbTypeName: "INTERVAL DAY TO SECOND" })
    expectMeta("IYM", { dbTypeName: "INTERVAL YEAR TO MONTH" })
    expectMeta("B", { dbTypeName: "BOOLEAN" })
    expectMeta("CL", { dbTypeName: "CLOB" })
    expectMeta("NCL", { dbTypeName: "NCLOB" })
    expectMeta("BL", { dbTypeName: "BLOB" })
    expectMeta("J", { dbTypeName: "JSON", isJson: true })
    const row = r.rows[0]
    const byName = Object.fromEntries(r.metaData.map((m: any, i: number) => [m.name, row[i]]))
    expect(byName).toMatchObject({
      ID: 1, N: 123.456, N52: 12.34, NS: 1.235, F: 1.5, I: 42, II: -5, SI: 7, BF: 1.25, BD: 2.5, R: 3.5, DP: 4.5,
      C: "ab   ", NC: "xy  ", V: "hello", NV: "ünï", B: true, CL: "clob text", NCL: "nclob ü", J: { a: 1, b: [true, null, "x"] }
    })
    expect(byName.RW).toEqual(Buffer.from([1, 2, 3]))
    expect(byName.BL).toEqual(Buffer.from("blob"))
    expect(byName.D).toEqual(new Date(2024, 0, 2, 3, 4, 5))
    expect(byName.TS).toEqual(new Date(2024, 0, 2, 3, 4, 5, 678))
    expect(byName.TSTZ).toEqual(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))
    expect(byName.TSLTZ).toEqual(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))
    expect(byName.IDS).toMatchObject({ days: 1, hours: 2, minutes: 3, seconds: 4, fseconds: 500000000 })
    expect(byName.IYM).toMatchObject({ years: 1, months: 2 })
  })

  it("fetches LOB columns as Lob objects that read and report their length", async () => {
    const r = await conn.execute("SELECT cl, ncl, bl FROM t_all WHERE id = :id", { id: 1 })
    const [cl, ncl, bl] = r.rows[0]
    expect(cl.type).toBe(oracledb.DB_TYPE_CLOB)
    expect(cl.length).toBe(9)
    expect(await cl.getData()).toBe("clob text")
    expect(await ncl.getData()).toBe("nclob ü")
    expect(await bl.getData()).toEqual(Buffer.from("blob"))
  })

  it("tells an empty LOB (EMPTY_CLOB() / EMPTY_BLOB()) from NULL as Oracle does: a locator of length 0 versus no locator", async () => {
    // "An empty LOB is not the same as a null LOB" (SQL Language Reference, EMPTY_BLOB, EMPTY_CLOB:
    // https://docs.oracle.com/en/database/oracle/oracle-database/21/sqlrf/EMPTY_BLOB-EMPTY_CLOB.html)
    await conn.execute("CREATE TABLE t_empty_lobs (id NUMBER(3), c CLOB, n NCLOB, b BLOB)")
    await conn.execute("INSERT INTO t_empty_lobs VALUES (1, EMPTY_CLOB(), EMPTY_CLOB(), EMPTY_BLOB())")
    await conn.execute("INSERT INTO t_empty_lobs VALUES (2, NULL, NULL, NULL)")
    await conn.execute("INSERT INTO t_empty_lobs (id) VALUES (3)")
    await conn.execute("INSERT INTO t_empty_lobs VALUES (4, 'x', 'y', HEXTORAW('01'))")
    const r = await conn.execute("SELECT c, n, b FROM t_empty_lobs ORDER BY id")
    const [empty, nulls, absent, full] = r.rows
    for (const lob of empty) expect(lob?.length).toBe(0)
    expect(empty.map((l: { type: unknown }) => l.type)).toEqual([oracledb.DB_TYPE_CLOB, oracledb.DB_TYPE_NCLOB, oracledb.DB_TYPE_BLOB])
    expect(nulls).toEqual([null, null, null])
    expect(absent).toEqual([null, null, null])
    expect(full.map((l: { length: number }) => l.length)).toEqual([1, 1, 1])
    // an empty LOB is NOT NULL in SQL too
    const isNull = await conn.execute("SELECT id FROM t_empty_lobs WHERE c IS NULL AND b IS NULL ORDER BY id")
    expect(isNull.rows).toEqual([[2], [3]])
    // fetched inline (as LONG: a CLOB as a string, a BLOB as a Buffer), an empty LOB is a zero-length value, which
    // Oracle's row data cannot tell from NULL: python-oracledb's maintainer on fetching an empty CLOB as a string,
    // "the Oracle penchant for converting empty strings to null" (https://github.com/sqlalchemy/sqlalchemy/issues/5314)
    const inline = await conn.execute("SELECT c, b FROM t_empty_lobs WHERE id IN (1, 2) ORDER BY id", [], {
      fetchInfo: { C: { type: oracledb.STRING }, B: { type: oracledb.BUFFER } }
    })
    expect(inline.rows).toEqual([[null, null], [null, null]])
    await conn.execute("DROP TABLE t_empty_lobs")
  })

  it("encodes NUMBER values exactly, including large, negative and fractional values", async () => {
    const r = await conn.execute(
      "SELECT 0, -1, 100, 123456789012345678, -0.001, 1e-10, 12345.678, CAST(99999999999999999999999999999999999999 AS NUMBER(38)) FROM DUAL",
      [],
      { fetchTypeHandler: () => ({ type: oracledb.STRING }) }
    )
    expect(r.rows[0]).toEqual(["0", "-1", "100", "123456789012345678", "-.001", ".0000000001", "12345.678", "99999999999999999999999999999999999999"])
  })

  it("binds positionally and by name, folds unquoted names, keeps quoted case and treats '' as NULL", async () => {
    await conn.execute(`CREATE TABLE "MixedCase" ("Id" NUMBER, name VARCHAR2(10))`)
    await conn.execute(`CREATE TABLE mixedcase (id NUMBER)`)
    await conn.execute(`INSERT INTO "MixedCase" ("Id", NAME) VALUES (:id, :nm)`, { id: 1, nm: "one" })
    await conn.execute(`INSERT INTO "MixedCase" VALUES (:1, :2)`, [2, ""])
    await conn.execute(`INSERT INTO MixedCase VALUES (3)`)
    const a = await conn.execute(`SELECT "Id", Name FROM "MixedCase" ORDER BY 1`)
    expect(a.metaData.map((m: any) => m.name)).toEqual(["Id", "NAME"])
    expect(a.rows).toEqual([[1, "one"], [2, null]])
    const b = await conn.execute(`SELECT id FROM MIXEDCASE`)
    expect(b.rows).toEqual([[3]])
    const c = await conn.execute(`SELECT COUNT(*) FROM "MixedCase" WHERE name IS NULL AND '' IS NULL`)
    expect(c.rows).toEqual([[1]])
    const d = await conn.execute(`SELECT :a + :b AS total, NVL(NULL, 'x') x FROM DUAL`, { a: 2, b: 3 })
    expect(d.metaData.map((m: any) => m.name)).toEqual(["TOTAL", "X"])
    expect(d.rows).toEqual([[5, "x"]])
  })

  it("answers SYSTIMESTAMP, SYSDATE and SYS_CONTEXT('USERENV', ...)", async () => {
    const before = Date.now()
    const r = await conn.execute(
      `SELECT SYSTIMESTAMP, SYSDATE, SYS_CONTEXT('USERENV','CURRENT_SCHEMA'), SYS_CONTEXT('USERENV','CON_NAME'),
              SYS_CONTEXT('USERENV','SESSION_USER'), SYS_CONTEXT('USERENV','SID') FROM DUAL`
    )
    const [ts, sd, schema, con, user, sid] = r.rows[0]
    expect(r.metaData[0].dbTypeName).toBe("TIMESTAMP WITH TIME ZONE")
    expect(r.metaData[1].dbTypeName).toBe("DATE")
    expect(Math.abs(ts.getTime() - before)).toBeLessThan(60_000)
    expect(sd).toBeInstanceOf(Date)
    expect([schema, con, user]).toEqual(["TEST", "FREEPDB1", "TEST"])
    expect(Number(sid)).toBeGreaterThan(0)
  })

  it("switches CURRENT_SCHEMA and TIME_ZONE with ALTER SESSION", async () => {
    const s = await withServer({ users: [{ name: "a", password: "a" }, { name: "b", password: "b" }] })
    try {
      const ca = await s.connect("A", "a")
      const cb = await s.connect("B", "b")
      await cb.execute("CREATE TABLE bt (x NUMBER)")
      await cb.execute("INSERT INTO bt VALUES (7)")
      await cb.commit()
      // another schema's table needs a grant (test/testkit/oracle-privileges.test.ts)
      await cb.execute("GRANT SELECT ON bt TO a")
      await ca.execute("ALTER SESSION SET CURRENT_SCHEMA = b")
      expect(ca.currentSchema).toBe("B")
      expect((await ca.execute("SELECT x, SYS_CONTEXT('USERENV','CURRENT_SCHEMA'), USER FROM bt")).rows).toEqual([[7, "B", "A"]])
      await ca.execute("ALTER SESSION SET TIME_ZONE = '+05:30'")
      expect((await ca.execute("SELECT SESSIONTIMEZONE FROM DUAL")).rows).toEqual([["+05:30"]])
      await ca.close()
      await cb.close()
    } finally {
      await s.server.close()
    }
  })

  it("pages through results by prefetchRows and arraySize, and re-executes cached statements", async () => {
    await conn.execute("CREATE TABLE many (n NUMBER(10), s VARCHAR2(20))")
    await conn.executeMany("INSERT INTO many VALUES (:1, :2)", Array.from({ length: 1000 }, (_, i) => [i, `row ${i}`]))
    await conn.commit()
    const rs = (await conn.execute("SELECT n, s FROM many ORDER BY n", [], { resultSet: true, prefetchRows: 7, fetchArraySize: 50 })).resultSet
    const first = await rs.getRows(3)
    expect(first).toEqual([[0, "row 0"], [1, "row 1"], [2, "row 2"]])
    const next = await rs.getRows(100)
    expect(next.length).toBe(100)
    expect(next[99]).toEqual([102, "row 102"])
    let rest = 0
    for (let rows = await rs.getRows(333); rows.length > 0; rows = await rs.getRows(333)) rest += rows.length
    expect(rest).toBe(1000 - 103)
    await rs.close()
    for (let k = 0; k < 3; k++) {
      const r = await conn.execute("SELECT COUNT(*) FROM many WHERE n < :1", [k * 10])
      expect(r.rows).toEqual([[k * 10]])
    }
    const all = await conn.execute("SELECT n FROM many", [], { fetchArraySize: 1000, prefetchRows: 1000 })
    expect(all.rows.length).toBe(1000)
    const streamed: Array<unknown> = []
    await new Promise<void>((resolve, reject) => {
      const st = conn.queryStream("SELECT n FROM many WHERE n < 250", [], { fetchArraySize: 64 })
      st.on("data", (row: unknown) => streamed.push(row))
      st.on("end", () => st.destroy())
      st.on("close", resolve)
      st.on("error", reject)
    })
    expect(streamed.length).toBe(250)
  })

  it("sends prefetchRows rows with the execute and fetchArraySize rows per FETCH round trip", async () => {
    const proxy = await startRoundTripProxy(server.port)
    const c = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
    try {
      const trips = async (prefetchRows: number, fetchArraySize: number) => {
        proxy.reset()
        const r = await c.execute("SELECT n FROM many ORDER BY n", [], { prefetchRows, fetchArraySize })
        expect(r.rows).toHaveLength(1000)
        expect(r.rows[999]).toEqual([999])
        return proxy.roundTrips()
      }
      // 7 rows with the execute, then 993 rows in FETCHes of 50 (the last one, 43 rows, also reports the end)
      expect(await trips(7, 50)).toBe(21)
      expect(await trips(2, 100)).toBe(11)
      expect(await trips(1000, 1000)).toBe(1)
      proxy.reset()
      const rs = (await c.execute("SELECT n FROM many ORDER BY n", [], { resultSet: true, prefetchRows: 7, fetchArraySize: 50 })).resultSet
      expect(proxy.roundTrips()).toBe(1)
      expect(await rs.getRows(7)).toHaveLength(7)
      expect(proxy.roundTrips()).toBe(1) // served from the prefetched rows
      const page = await rs.getRows(50)
      expect(page[0]).toEqual([7])
      expect(proxy.roundTrips()).toBe(2)
      await rs.close()
    } finally {
      await c.close()
      await proxy.close()
    }
  })

  it("re-executes cached statements by cursor id, without the SQL text being sent again", async () => {
    const proxy = await startRoundTripProxy(server.port)
    const c = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
    try {
      const query = "SELECT COUNT(*) /* cached query marker */ FROM many WHERE n < :1"
      const dml = "UPDATE many SET s = s /* cached dml marker */ WHERE n = :1"
      for (let k = 1; k <= 4; k++) {
        expect((await c.execute(query, [k * 10])).rows).toEqual([[k * 10]])
        expect((await c.execute(dml, [k])).rowsAffected).toBe(1)
      }
      const sent = proxy.clientBytes()
      const occurrences = (text: string) => sent.toString("latin1").split(text).length - 1
      // the statement cache (stmtCacheSize 30 by default) re-executes through REEXECUTE / REEXECUTE_AND_FETCH
      expect(occurrences("cached query marker")).toBe(1)
      expect(occurrences("cached dml marker")).toBe(1)
      await c.rollback()
    } finally {
      await c.close()
      await proxy.close()
    }
  })

  it("works with client features: end-to-end attributes, currentSchema, pools, fetch conversions, object rows", async () => {
    conn.module = "mymod"
    conn.action = "act"
    conn.clientId = "cid"
    conn.clientInfo = "info"
    expect((await conn.execute("SELECT 1 FROM DUAL")).rows).toEqual([[1]])
    conn.currentSchema = "TEST"
    expect((await conn.execute("SELECT SYS_CONTEXT('USERENV','CURRENT_SCHEMA') FROM DUAL")).rows).toEqual([["TEST"]])
    await conn.ping()
    const pool = await oracledb.createPool({ user: server.user, password: server.password, connectString: server.connectString, poolMin: 1, poolMax: 3 })
    const pooled = await Promise.all([pool.getConnection(), pool.getConnection()])
    expect((await pooled[0].execute("SELECT 3 FROM DUAL")).rows).toEqual([[3]])
    await Promise.all(pooled.map((c: any) => c.close()))
    await pool.close(0)
    const r = await conn.execute("SELECT 12.5 n, TIMESTAMP '2024-01-01 10:00:00' ts FROM DUAL", [], {
      fetchTypeHandler: (m: any) => (m.dbType === oracledb.DB_TYPE_NUMBER ? { type: oracledb.STRING } : undefined),
      outFormat: oracledb.OUT_FORMAT_OBJECT
    })
    expect(r.rows).toEqual([{ N: "12.5", TS: new Date(2024, 0, 1, 10) }])
  })

  it("stores and fetches LONG and LONG RAW columns", async () => {
    await conn.execute("CREATE TABLE lt (id NUMBER, l LONG, lr LONG RAW)")
    const text = "long text ".repeat(5000)
    await conn.execute("INSERT INTO lt VALUES (:1, :2, :3)", [1, text, { val: Buffer.alloc(50_000, 3), type: oracledb.DB_TYPE_LONG_RAW }])
    await conn.execute("INSERT INTO lt VALUES (2, 'short', NULL)")
    const r = await conn.execute("SELECT id, l, lr FROM lt ORDER BY id")
    expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual(["NUMBER", "LONG", "LONG RAW"])
    expect(r.rows[0]).toEqual([1, text, Buffer.alloc(50_000, 3)])
    expect(r.rows[1]).toEqual([2, "short", null])
    await conn.rollback()
  })

  it("orders long and national-character binds the way the client writes them", async () => {
    // NCLOB: Oracle rejects 20,000 characters in NVARCHAR2(2000) with ORA-12899; a long national bind goes to an NCLOB
    await conn.execute("CREATE TABLE mix (nv NCLOB, big CLOB, n NUMBER, raw_long LONG RAW)")
    const nv = "ü".repeat(20_000)
    const big = "b".repeat(40_000)
    await conn.execute("INSERT INTO mix VALUES (:1, :2, :3, :4)", [
      { val: nv, type: oracledb.DB_TYPE_NVARCHAR },
      big,
      5,
      { val: Buffer.alloc(10, 1), type: oracledb.DB_TYPE_LONG_RAW }
    ])
    const r = await conn.execute("SELECT nv, big, n, raw_long FROM mix", [], { fetchInfo: { NV: { type: oracledb.STRING }, BIG: { type: oracledb.STRING } } })
    expect(r.rows).toEqual([[nv, big, 5, Buffer.alloc(10, 1)]])
    await conn.rollback()
  })

  it("stores and fetches VECTOR columns (23ai)", async () => {
    await conn.execute("CREATE TABLE vt (id NUMBER, v VECTOR(3, FLOAT32), w VECTOR)")
    await conn.execute("INSERT INTO vt VALUES (:1, :2, :3)", [1, new Float32Array([1.5, 2, 3]), new Float64Array([0.25, 4])])
    await conn.executeMany(
      "INSERT INTO vt VALUES (:1, :2, :3)",
      [
        [2, new Float32Array([1, 1, 1]), null],
        [3, null, new Float64Array([9])]
      ],
      { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_VECTOR }, { type: oracledb.DB_TYPE_VECTOR }] }
    )
    const r = await conn.execute("SELECT id, v, w FROM vt ORDER BY id")
    expect(r.metaData[1]).toMatchObject({ dbTypeName: "VECTOR", vectorDimensions: 3, vectorFormat: oracledb.VECTOR_FORMAT_FLOAT32 })
    expect(r.metaData[2].vectorDimensions).toBeUndefined()
    expect(r.rows).toEqual([
      [1, new Float32Array([1.5, 2, 3]), new Float64Array([0.25, 4])],
      [2, new Float32Array([1, 1, 1]), null],
      [3, null, new Float64Array([9])]
    ])
    await conn.rollback()
  })

  it("has no SQL BOOLEAN or JSON column types in the 19c layout", async () => {
    const s = await withServer({ version: "19c" })
    try {
      const c = await s.connect()
      await expect(c.execute("CREATE TABLE bt (b BOOLEAN)")).rejects.toThrow(/ORA-00902/)
      expect((await c.execute("SELECT 1 = 1 FROM DUAL")).metaData[0].dbTypeName).toBe("NUMBER")
      await c.close()
    } finally {
      await s.server.close()
    }
  })

  it("describes statements without executing them (getStatementInfo)", async () => {
    const info = await conn.getStatementInfo("SELECT id, v FROM t_all WHERE id = :id")
    expect(info.metaData.map((m: any) => [m.name, m.dbTypeName])).toEqual([
      ["ID", "NUMBER"],
      ["V", "VARCHAR2"]
    ])
    expect(info.bindNames).toEqual(["ID"])
    const dml = await conn.getStatementInfo("DELETE FROM t_all WHERE id = :id")
    expect(dml.metaData).toBeUndefined()
    expect((await conn.execute("SELECT COUNT(*) FROM t_all")).rows).toEqual([[1]])
  })

  it("reports ROWID values", async () => {
    const r = await conn.execute("SELECT ROWID, id FROM t_all")
    expect(r.metaData[0].dbTypeName).toBe("ROWID")
    expect(r.rows[0][0]).toMatch(/^[A-Za-z0-9+/]{18}$/)
    // a fetched ROWID finds its row again, in queries and DML
    expect((await conn.execute("SELECT id FROM t_all WHERE ROWID = :r", [r.rows[0][0]])).rows).toEqual([[1]])
    expect((await conn.execute("UPDATE t_all SET v = v WHERE ROWID = :r", [r.rows[0][0]])).rowsAffected).toBe(1)
    expect((await conn.execute("SELECT COUNT(*) FROM t_all WHERE ROWID = 'AAAR0oAAMAAAAAAAZZ'")).rows).toEqual([[0]])
    await conn.rollback()
  })
})
