import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

const EMOJI_CESU8 = Buffer.from("eda0bdedb880", "hex")

/** Little-endian WKB of POINT (x y). */
const wkbPoint = (x: number, y: number): Buffer => {
  const b = Buffer.alloc(21)
  b.writeUInt8(1, 0)
  b.writeUInt32LE(1, 1)
  b.writeDoubleLE(x, 5)
  b.writeDoubleLE(y, 13)
  return b
}

/** EWKB of POINT (x y) with an SRID. */
const ewkbPoint = (x: number, y: number, srid: number): Buffer => {
  const b = Buffer.alloc(25)
  b.writeUInt8(1, 0)
  b.writeUInt32LE(0x20000001, 1)
  b.writeUInt32LE(srid, 5)
  b.writeDoubleLE(x, 9)
  b.writeDoubleLE(y, 17)
  return b
}

describe("HANA test server: TEXT, SHORTTEXT, BINTEXT, CONTAINS (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  let old: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    // SAP/node-hdb's own acceptance test of these types runs at data format version 7 (test/acceptance/db.DataType.js)
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: 7 })
    old = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    await exec(c, "CREATE TABLE texts (id INT, t TEXT, s SHORTTEXT(20), b BINTEXT)")
  })
  afterAll(async () => {
    closeQuietly(c)
    closeQuietly(old)
    await server.close()
  })

  it("reports TEXT 51, SHORTTEXT 52 and BINTEXT 53 as a real HANA does, and NCLOB / NVARCHAR to a DFV 1 client", async () => {
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT t, s, b FROM texts", cb))
    expect(rs.metadata.map((m) => m.dataType)).toEqual([51, 52, 53])
    await call((cb) => rs.close(cb))
    const insert = await call<HdbStatement>((cb) => c.prepare("INSERT INTO texts VALUES (?, ?, ?, ?)", cb))
    expect(insert.parameterMetadata.map((p) => p.dataType)).toEqual([3, 51, 52, 53])
    // SAP/go-hdb: SHORTTEXT from DFV 3, TEXT from 4, BINTEXT from 6; before that NVARCHAR / NCLOB.
    const legacy = await call<HdbResultSet>((cb) => old.execute("SELECT t, s, b FROM texts", cb))
    expect(legacy.metadata.map((m) => m.dataType)).toEqual([26, 11, 26])
    await call((cb) => legacy.close(cb))
  })

  it("round-trips values through parameters and literals, supplementary characters as CESU-8", async () => {
    const insert = await call<HdbStatement>((cb) => c.prepare("INSERT INTO texts VALUES (?, ?, ?, ?)", cb))
    expect(await call((cb) => insert.exec([1, "text 😀", "short 😀", Buffer.from("bin")], cb))).toBe(1)
    await exec(c, "INSERT INTO texts VALUES (2, 'long ' || RPAD('x', 3000, 'y'), 'two', X'6162')")
    const rows = await exec<Array<Record<string, unknown>>>(c, "SELECT id, t, s, b FROM texts WHERE id IN (1, 2) ORDER BY id")
    // TEXT and BINTEXT are LOBs: hdb hands over their CESU-8 bytes (node-hdb test: TEXT values as Buffers)
    expect((rows[0]!["T"] as Buffer).equals(Buffer.concat([Buffer.from("text "), EMOJI_CESU8]))).toBe(true)
    expect(rows[0]!["S"]).toBe("short 😀")
    expect(rows[0]!["B"]).toEqual(Buffer.from("bin"))
    expect((rows[1]!["T"] as Buffer).length).toBe(3005)
    expect(rows[1]!["B"]).toEqual(Buffer.from("ab"))
    // SHORTTEXT keeps its declared length (274), as the node-hdb acceptance test shows
    expect((await failure(call((cb) => insert.exec([3, "t", "x".repeat(21), Buffer.from("b")], cb)))).code).toBe(274)
  })

  it("CONTAINS finds whole words; FUZZY(t) finds what SAP's acceptance test finds on a real HANA", async () => {
    const insert = await call<HdbStatement>((cb) => c.prepare("INSERT INTO texts (id, t, s) VALUES (?, ?, ?)", cb))
    const values = ["SAP Corp", "SAP in Walldorf Corp", "ASAP", "ASAP Corp", "BSAP orp", "IBM Corp"]
    expect(await call((cb) => insert.exec(values.map((v, i) => [100 + i, v, v]), cb))).toEqual([1, 1, 1, 1, 1, 1])
    // SAP/node-hdb test/acceptance/db.DataType.js testFuzzySearch: exactly one row
    for (const column of ["t", "s"]) {
      const st = await call<HdbStatement>((cb) =>
        c.prepare(`SELECT ${column} AS A FROM texts WHERE id >= 100 AND CONTAINS(${column}, ?, FUZZY(?, 'textSearch=compare,bestMatchingTokenWeight=0.7'))`, cb)
      )
      const rows = await call<Array<{ A: unknown }>>((cb) => st.exec(["xSAP Corp Walldorf", 0.7], cb))
      expect(rows.map((r) => r.A!.toString())).toEqual(["SAP in Walldorf Corp"])
    }
    const exact = await exec<Array<{ ID: number }>>(c, "SELECT id FROM texts WHERE id >= 100 AND CONTAINS(s, 'corp sap') ORDER BY id")
    expect(exact.map((r) => r.ID)).toEqual([100, 101])
    expect((await failure(exec(c, "SELECT id FROM texts WHERE CONTAINS((t, s), 'sap')"))).code).toBe(7)
  })
})

describe("HANA test server: ST_GEOMETRY and ST_POINT (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 8 }, setup: ["CREATE TABLE shapes (id INT, g ST_GEOMETRY(4326), p ST_POINT)"] }, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("stores geometries made by ST_GeomFromText and NEW ST_Point and sends them as WKB with type codes 74 / 75", async () => {
    await exec(c, "INSERT INTO shapes VALUES (1, ST_GeomFromText('POINT(1 2)', 4326), NEW ST_Point(3, 4))")
    await exec(c, "INSERT INTO shapes VALUES (2, ST_GeomFromText('LINESTRING(0 0, 1 1)', 4326), NEW ST_Point('POINT (5 6)'))")
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT g, p FROM shapes WHERE id = 1", cb))
    expect(rs.metadata.map((m) => m.dataType)).toEqual([74, 75])
    const rows = await call<Array<{ G: Buffer; P: Buffer }>>((cb) => rs.fetch(cb))
    // plain WKB on the wire, the SRID not embedded (SAP/go-hdb's spatial test compares a selected column with WKB)
    expect(rows[0]!.G).toEqual(wkbPoint(1, 2))
    expect(rows[0]!.P).toEqual(wkbPoint(3, 4))
    // ST_POINT(srid) without NEW is the column type, not a constructor
    await exec(c, "CREATE TABLE points (p ST_POINT(4326))")
    expect(await exec(c, "SELECT DATA_TYPE_NAME FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = 'POINTS'")).toEqual([{ DATA_TYPE_NAME: "ST_POINT" }])
  })

  it("answers ST_AsText, ST_AsEWKT, ST_X, ST_Y, ST_SRID, ST_AsWKB and ST_AsEWKB", async () => {
    expect(
      await exec(c, "SELECT id, g.ST_AsText() AS WKT, g.ST_AsEWKT() AS EWKT, p.ST_X() AS X, p.ST_Y() AS Y, g.ST_SRID() AS SRID FROM shapes WHERE id <= 2 ORDER BY id")
    ).toEqual([
      { ID: 1, WKT: "POINT (1 2)", EWKT: "SRID=4326;POINT (1 2)", X: 3, Y: 4, SRID: 4326 },
      { ID: 2, WKT: "LINESTRING (0 0, 1 1)", EWKT: "SRID=4326;LINESTRING (0 0, 1 1)", X: 5, Y: 6, SRID: 4326 }
    ])
    const [row] = await exec<Array<{ W: Buffer; E: Buffer }>>(c, "SELECT g.ST_AsWKB() AS W, g.ST_AsEWKB() AS E FROM shapes WHERE id = 1")
    expect(row!.W).toEqual(wkbPoint(1, 2))
    expect(row!.E).toEqual(ewkbPoint(1, 2, 4326))
    expect(await exec(c, "SELECT ST_GeomFromText('POINT (7 8)', 4326).ST_X() AS X, NEW ST_Point(1.5, 2.5).ST_AsText() AS T FROM DUMMY")).toEqual([
      { X: 7, T: "POINT (1.5 2.5)" }
    ])
  })

  it("takes WKB and EWKB parameters (hdb sends a Buffer for type codes 74/75) and ST_GeomFromWKB / ST_GeomFromEWKB", async () => {
    const insert = await call<HdbStatement>((cb) => c.prepare("INSERT INTO shapes VALUES (?, ?, ?)", cb))
    expect(insert.parameterMetadata.map((p) => p.dataType)).toEqual([3, 74, 75])
    expect(await call((cb) => insert.exec([10, ewkbPoint(9, 10, 4326), wkbPoint(11, 12)], cb))).toBe(1)
    const fromBytes = await call<HdbStatement>((cb) => c.prepare("INSERT INTO shapes VALUES (?, ST_GeomFromEWKB(?), ST_GeomFromWKB(?, 4326))", cb))
    expect(await call((cb) => fromBytes.exec([11, ewkbPoint(1, 1, 4326), wkbPoint(2, 2)], cb))).toBe(1)
    expect(await exec(c, "SELECT id, g.ST_AsEWKT() AS G, p.ST_AsEWKT() AS P FROM shapes WHERE id >= 10 ORDER BY id")).toEqual([
      { ID: 10, G: "SRID=4326;POINT (9 10)", P: "SRID=0;POINT (11 12)" },
      { ID: 11, G: "SRID=4326;POINT (1 1)", P: "SRID=4326;POINT (2 2)" }
    ])
  })

  it("fails clearly on text that is no geometry and on ST_X of a line", async () => {
    const bad = await failure(exec(c, "SELECT ST_GeomFromText('POINT(1', 4326).ST_AsText() AS T FROM DUMMY"))
    expect(bad.message).toMatch(/invalid spatial value/)
    const line = await failure(exec(c, "SELECT g.ST_X() AS X FROM shapes WHERE id = 2"))
    expect(line.message).toMatch(/ST_Point/)
  })
})

describe("HANA test server: REAL_VECTOR (a HANA Cloud type) on a server reporting HANA 2.0", () => {
  it("fails with 264 invalid datatype in DDL, CAST and procedure parameters", async () => {
    const server = await startHanaTestServer()
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      const [version] = await exec<Array<{ VERSION: string }>>(c, "SELECT VERSION FROM SYS.M_DATABASE")
      expect(version!.VERSION.startsWith("2.")).toBe(true)
      for (const sql of [
        "CREATE TABLE vectors (v REAL_VECTOR(3))",
        "SELECT CAST(NULL AS REAL_VECTOR) AS V FROM DUMMY",
        "CREATE PROCEDURE pv (IN v REAL_VECTOR(3)) AS BEGIN SELECT 1 AS X FROM DUMMY; END"
      ]) {
        const err = await failure(exec(c, sql))
        expect([sql, err.code, /invalid datatype: REAL_VECTOR/.test(err.message)]).toEqual([sql, 264, true])
      }
    } finally {
      closeQuietly(c)
      await server.close()
    }
  })
})
