import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode, withServer } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: encoding object values into rows, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE stamp_t AS OBJECT (n NUMBER, seen DATE)")
    await conn.execute("CREATE TABLE stamps (id NUMBER PRIMARY KEY, s stamp_t)")
    await conn.execute("INSERT INTO stamps VALUES (1, stamp_t(1, DATE '2024-01-01'))")
    await conn.execute("INSERT INTO stamps VALUES (2, stamp_t(2, DATE '2024-01-02'))")
    // constructor arguments are converted at the INSERT, and a literal written into an object column is refused
    // (ORA-00932, object-writes.ts), but a character expression is not checked and is stored as it is (Oracle would
    // refuse it with ORA-00932 too): a value the server only fails on when it encodes it for a fetch
    await conn.execute(`INSERT INTO stamps VALUES (3, TRIM('[3,"not a date"]'))`)
    await conn.execute("INSERT INTO stamps VALUES (4, stamp_t(4, DATE '2024-01-04'))")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("answers a row it cannot encode with an ORA- error instead of a half-written message, and the session stays usable", async () => {
    // rows 1 to 4 all travel in the reply to the execute itself
    const e = await failure(() => conn.execute("SELECT id, s FROM stamps ORDER BY id", [], { prefetchRows: 10, fetchArraySize: 10 }))
    expect(e.message).not.toMatch(/NJS-/)
    expect(oraCode(e)).toBe("ORA-01861")
    expect((await conn.execute("SELECT 1 FROM dual")).rows).toEqual([[1]])
    const good = await conn.execute("SELECT id, s FROM stamps WHERE id <> 3 ORDER BY id")
    expect(good.rows.map((r: Array<any>) => [r[0], r[1].N])).toEqual([[1, 1], [2, 2], [4, 4]])
  })

  it("reports the error of a row met by a later FETCH, after the rows before it, and the session stays usable", async () => {
    const r = await conn.execute("SELECT id, s FROM stamps ORDER BY id", [], { resultSet: true, fetchArraySize: 1, prefetchRows: 1 })
    const seen: Array<number> = []
    const e = await failure(async () => {
      for (let row = await r.resultSet.getRow(); row !== undefined; row = await r.resultSet.getRow()) seen.push(row[0])
    })
    expect(e.message).not.toMatch(/NJS-/)
    expect(oraCode(e)).toBe("ORA-01861")
    expect(seen).toEqual([1, 2])
    await r.resultSet.close().catch(() => undefined)
    expect((await conn.execute("SELECT COUNT(*) FROM stamps")).rows).toEqual([[4]])
  })

  it("answers an OUT bind it cannot encode with an ORA- error, and the session stays usable", async () => {
    const Stamp = await conn.getDbObjectClass("STAMP_T")
    const e = await failure(() => conn.execute("BEGIN SELECT s INTO :o FROM stamps WHERE id = :id; END;", { id: 3, o: { dir: oracledb.BIND_OUT, type: Stamp } }))
    expect(e.message).not.toMatch(/NJS-/)
    expect(oraCode(e)).toBe("ORA-01861")
    const ok = await conn.execute("BEGIN SELECT s INTO :o FROM stamps WHERE id = :id; END;", { id: 4, o: { dir: oracledb.BIND_OUT, type: Stamp } })
    expect(ok.outBinds.o.N).toBe(4)
  })
})

describe("Oracle test server: constructor arguments converted to the attribute types at the INSERT, through raw node-oracledb", () => {
  let typed: OracleTestServerHandle
  let c: Conn
  beforeAll(async () => {
    const s = await withServer()
    typed = s.server
    c = await s.connect()
    await c.execute("CREATE TYPE typed_t AS OBJECT (n NUMBER, d DATE, ts TIMESTAMP, tz TIMESTAMP WITH TIME ZONE, ltz TIMESTAMP WITH LOCAL TIME ZONE)")
    await c.execute("CREATE TYPE typeds_t AS VARRAY(3) OF DATE")
    await c.execute("CREATE TABLE typed (id NUMBER PRIMARY KEY, t typed_t, v typeds_t)")
    await c.execute("INSERT INTO typed (id, t) VALUES (1, typed_t('1.5', '2024-01-02 10:11:12', NULL, NULL, NULL))")
  })
  afterAll(async () => {
    await c?.close()
    await typed?.close()
  })

  const count = async () => (await c.execute("SELECT COUNT(*) FROM typed")).rows[0][0]

  it("refuses text that is no datetime in a DATE, TIMESTAMP or zoned attribute or element with ORA-01861, leaving the table as it was", async () => {
    const attempts = [
      "INSERT INTO typed (id, t) VALUES (2, typed_t(1, 'not a date', NULL, NULL, NULL))",
      "INSERT INTO typed (id, t) VALUES (2, typed_t(1, NULL, 'not a date', NULL, NULL))",
      "INSERT INTO typed (id, t) VALUES (2, typed_t(1, NULL, NULL, 'not a date', NULL))",
      "INSERT INTO typed (id, t) VALUES (2, typed_t(1, NULL, NULL, NULL, 'not a date'))",
      "INSERT INTO typed (id, v) VALUES (2, typeds_t(DATE '2024-01-01', 'not a date'))"
    ]
    for (const sql of attempts) expect([sql, oraCode(await failure(() => c.execute(sql)))]).toEqual([sql, "ORA-01861"])
    const bound = await failure(() => c.execute("INSERT INTO typed (id, t) VALUES (2, typed_t(1, :d, NULL, NULL, NULL))", { d: "not a date" }))
    expect(oraCode(bound)).toBe("ORA-01861")
    expect(await count()).toBe(1)
  })

  it("refuses text that is no number in a NUMBER attribute with ORA-01722, leaving the table as it was", async () => {
    expect(oraCode(await failure(() => c.execute("INSERT INTO typed (id, t) VALUES (2, typed_t('abc', NULL, NULL, NULL, NULL))")))).toBe("ORA-01722")
    expect(await count()).toBe(1)
    // the text of a number is converted, as Oracle converts it
    const t = (await c.execute("SELECT t FROM typed WHERE id = 1")).rows[0][0]
    expect([t.N, t.D]).toEqual([1.5, new Date(2024, 0, 2, 10, 11, 12)])
  })
})

describe("Oracle test server: datetime attributes with a zone, through raw node-oracledb", () => {
  let zoned: OracleTestServerHandle
  let c: Conn
  let connect: () => Promise<Conn>
  beforeAll(async () => {
    // a database time zone other than UTC, so that LOCAL TIME ZONE values show whether they were normalised to it
    const s = await withServer({ dbTimeZone: "+05:00" })
    zoned = s.server
    connect = () => s.connect()
    c = await s.connect()
    await c.execute("CREATE TYPE when_t AS OBJECT (tz TIMESTAMP WITH TIME ZONE, ltz TIMESTAMP WITH LOCAL TIME ZONE, ts TIMESTAMP, d DATE)")
    await c.execute("CREATE TABLE whens (id NUMBER PRIMARY KEY, w when_t)")
  })
  afterAll(async () => {
    await c?.close()
    await zoned?.close()
  })

  it("encodes a TIMESTAMP WITH TIME ZONE attribute given with a region name", async () => {
    await c.execute("INSERT INTO whens VALUES (1, when_t(TIMESTAMP '2024-03-01 10:00:00 America/New_York', NULL, NULL, NULL))")
    await c.execute("INSERT INTO whens VALUES (2, when_t(TIMESTAMP '2024-07-01 10:00:00.5 Europe/Paris', NULL, NULL, NULL))")
    const r = await c.execute("SELECT id, w FROM whens WHERE id IN (1, 2) ORDER BY id")
    // New York is at -05:00 in March, Paris at +02:00 in July: the instants are 15:00 and 08:00 UTC
    expect(r.rows.map((row: Array<any>) => row[1].TZ)).toEqual([new Date(Date.UTC(2024, 2, 1, 15)), new Date(Date.UTC(2024, 6, 1, 8, 0, 0, 500))])
  })

  it("converts a TIMESTAMP WITH LOCAL TIME ZONE attribute given with an offset to its instant", async () => {
    await c.execute("INSERT INTO whens VALUES (3, when_t(NULL, TIMESTAMP '2024-01-01 10:00:00 +02:00', NULL, NULL))")
    await c.execute("INSERT INTO whens VALUES (4, when_t(NULL, TIMESTAMP '2024-01-01 10:00:00 Asia/Tokyo', NULL, NULL))")
    const r = await c.execute("SELECT id, w FROM whens WHERE id IN (3, 4) ORDER BY id")
    expect(r.rows.map((row: Array<any>) => row[1].LTZ)).toEqual([new Date(Date.UTC(2024, 0, 1, 8)), new Date(Date.UTC(2024, 0, 1, 1))])
    // a bound value travels in the database time zone both ways, so it reads back as the same instant
    const When = await c.getDbObjectClass("WHEN_T")
    const instant = new Date(Date.UTC(2023, 6, 4, 23, 30, 15, 250))
    await c.execute("INSERT INTO whens VALUES (6, :1)", [new When({ LTZ: instant })])
    expect((await c.execute("SELECT w FROM whens WHERE id = 6")).rows[0][0].LTZ).toEqual(instant)
  })

  it("reads a TIMESTAMP without a zone put into WITH TIME ZONE and LOCAL TIME ZONE attributes in the session time zone", async () => {
    const other = await connect()
    try {
      await other.execute("ALTER SESSION SET TIME_ZONE = '-03:00'")
      await other.execute("INSERT INTO whens VALUES (7, when_t(TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-01 10:00:00', NULL, NULL))")
      await other.execute("INSERT INTO whens VALUES (8, when_t('2024-01-01 11:00:00', '2024-01-01 11:00:00', NULL, NULL))")
      // 10:00 at -03:00 is 13:00 UTC
      const r = await other.execute("SELECT w FROM whens WHERE id IN (7, 8) ORDER BY id")
      expect(r.rows.map((row: Array<any>) => [row[0].TZ, row[0].LTZ])).toEqual([
        [new Date(Date.UTC(2024, 0, 1, 13)), new Date(Date.UTC(2024, 0, 1, 13))],
        [new Date(Date.UTC(2024, 0, 1, 14)), new Date(Date.UTC(2024, 0, 1, 14))]
      ])
    } finally {
      await other.close()
    }
  })

  it("keeps the wall clock of a zoned literal in TIMESTAMP and DATE attributes, as Oracle drops the zone converting to them", async () => {
    await c.execute("INSERT INTO whens VALUES (5, when_t(NULL, NULL, TIMESTAMP '2024-05-06 07:08:09 America/New_York', TIMESTAMP '2024-05-06 07:08:09 +03:00'))")
    const w = (await c.execute("SELECT w FROM whens WHERE id = 5")).rows[0][0]
    expect([w.TS, w.D]).toEqual([new Date(2024, 4, 6, 7, 8, 9), new Date(2024, 4, 6, 7, 8, 9)])
  })
})

describe("Oracle test server: NUMBER attributes keep every digit, through raw node-oracledb", () => {
  let exact: OracleTestServerHandle
  let c: Conn
  /** The attribute values as node-oracledb decodes them from the image: NUMBER as its decimal text, unconverted. */
  const decoded = (o: any): unknown => JSON.parse(JSON.stringify(o))
  beforeAll(async () => {
    const s = await withServer()
    exact = s.server
    c = await s.connect()
    await c.execute("CREATE TYPE a_t AS OBJECT (n NUMBER, m NUMBER(30,3))")
    await c.execute("CREATE TYPE w_t AS OBJECT (a a_t, k NUMBER)")
    await c.execute("CREATE TYPE aa_t AS VARRAY(3) OF a_t")
    await c.execute("CREATE TYPE ww_t AS OBJECT (w w_t)")
    await c.execute("CREATE TABLE nums (id NUMBER PRIMARY KEY, w w_t, v aa_t, ww ww_t)")
    oracledb.dbObjectTypeHandler = () => ({ converter: (v: unknown) => v })
  })
  afterAll(async () => {
    delete oracledb.dbObjectTypeHandler
    await c?.close()
    await exact?.close()
  })

  it("keeps NUMBER attributes exact in constructors nested inside constructors", async () => {
    await c.execute("INSERT INTO nums (id, w) VALUES (1, w_t(a_t(12345678901234567890.123, -98765432109876543210.987), 0.1234567890123456789012345678901234567))")
    // M is NUMBER(30,3): a value is rounded to 3 places (9.99e125 there would be ORA-01438, as in a NUMBER(30,3) column)
    await c.execute("INSERT INTO nums (id, v) VALUES (2, aa_t(a_t(12345678901234567890.123, NULL), NULL, a_t(9.99e125, -12345678901234567890123456.9995)))")
    await c.execute("INSERT INTO nums (id, ww) VALUES (3, ww_t(w_t(a_t(-12345678901234567890.5, 1), 31415926535897932384626433832795028841)))")
    const r = await c.execute("SELECT w, v, ww FROM nums ORDER BY id")
    expect(decoded(r.rows[0][0])).toEqual({ A: { N: "12345678901234567890.123", M: "-98765432109876543210.987" }, K: ".1234567890123456789012345678901234567" })
    const v = r.rows[1][1].getValues().map((e: any) => (e === null ? null : decoded(e)))
    expect(v).toEqual([{ N: "12345678901234567890.123", M: null }, null, { N: `999${"0".repeat(123)}`, M: "-12345678901234567890123457" }])
    expect(decoded(r.rows[2][2])).toEqual({ W: { A: { N: "-12345678901234567890.5", M: "1" }, K: "31415926535897932384626433832795028841" } })
  })

  it("keeps 38 significant digits of a literal at a tiny scale, in a column and in an attribute", async () => {
    const tiny = "0.000000000000000000000000000000000000012345678901234567890123456789012345678"
    const smallest = `0.${"0".repeat(129)}1`
    const q = await c.execute(`SELECT -${tiny}, ${smallest}, (-${tiny}) FROM dual`, [], { fetchTypeHandler: () => ({ type: oracledb.STRING }) })
    expect(q.rows[0]).toEqual([`-${tiny.slice(1)}`, smallest.slice(1), `-${tiny.slice(1)}`])
    // arithmetic of literals computes in NUMBER too: 20 base-100 digits, so 5 - tiny rounds to 38 decimals ("04" and 19 pairs)
    const a = await c.execute(`SELECT 5 - ${tiny}, ${tiny} * 2, 1234567890123456789012345678901234567890 + 1 FROM dual`, [], { fetchTypeHandler: () => ({ type: oracledb.STRING }) })
    expect(a.rows[0]).toEqual([`4.${"9".repeat(38)}`, ".000000000000000000000000000000000000024691357802469135780246913578024691356", "1234567890123456789012345678901234567891"])
    await c.execute(`INSERT INTO nums (id, w) VALUES (4, w_t(a_t(-${tiny}, NULL), ${smallest}))`)
    const r = await c.execute("SELECT w FROM nums WHERE id = 4")
    expect(decoded(r.rows[0][0])).toEqual({ A: { N: `-${tiny.slice(1)}`, M: null }, K: smallest.slice(1) })
  })
})
