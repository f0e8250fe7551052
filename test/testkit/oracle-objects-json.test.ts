import { createRequire } from "node:module"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import { decodeOson, encodeOson } from "../../testkit/oracle/oson.ts"
import { fromExtendedJson, toExtendedJson } from "../../testkit/oracle/extended-json.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
// node-oracledb's own OSON codec: the images the server writes must decode with it, and its images must decode with ours
const clientOson: any = createRequire(import.meta.url)("oracledb/lib/impl/datahandlers/oson.js")
const transformer: any = createRequire(import.meta.url)("oracledb/lib/transformer.js")
const clientDecode = (b: Buffer): unknown => new clientOson.OsonDecoder(b).decode()
const clientEncode = (v: unknown, maxFieldName = 65535): Buffer => new clientOson.OsonEncoder().encode(transformer.transformJsonValue(v), maxFieldName)

let server: OracleTestServerHandle
let conn: Conn

const roundTrip = async (id: number, doc: unknown): Promise<unknown> => {
  await conn.execute("INSERT INTO jdocs (id, doc) VALUES (:1, :2)", [id, { val: doc, type: oracledb.DB_TYPE_JSON }])
  const r = await conn.execute("SELECT doc FROM jdocs WHERE id = :1", [id])
  return r.rows[0][0]
}

describe("Oracle test server: JSON (OSON) columns through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE jdocs (id NUMBER PRIMARY KEY, doc JSON)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("round-trips nested objects and arrays with every scalar type", async () => {
    const doc = {
      name: "widget",
      empty: "",
      unicode: "héllo ☃ 𝄞",
      tags: ["a", "b", ["nested", ["deeper", []]], {}],
      dims: { w: 1.5, h: -0.001, d: 1e-130, big: 9.99e125, int: 9007199254740991, zero: 0, neg: -42 },
      flags: { on: true, off: false, none: null },
      when: new Date(Date.UTC(2024, 1, 29, 23, 59, 58)),
      precise: new Date(Date.UTC(1999, 11, 31, 12, 0, 0, 123)),
      ancient: new Date(Date.UTC(1, 0, 1)),
      blob: Buffer.from([0, 1, 2, 254, 255]),
      list: [{ k: 1 }, { k: 2, extra: [true, null, "x"] }]
    }
    expect(await roundTrip(1, doc)).toEqual(doc)
  })

  it("round-trips scalars at the top level", async () => {
    expect(await roundTrip(10, "just a string")).toBe("just a string")
    expect(await roundTrip(11, 123.456)).toBe(123.456)
    expect(await roundTrip(12, true)).toBe(true)
    expect(await roundTrip(13, [1, "two", false])).toEqual([1, "two", false])
    const when = new Date(Date.UTC(2020, 5, 15, 8, 30, 0, 250))
    expect(await roundTrip(14, when)).toEqual(when)
    expect(await roundTrip(15, Buffer.from("raw bytes"))).toEqual(Buffer.from("raw bytes"))
  })

  it("round-trips intervals inside documents", async () => {
    const doc = {
      ym: new oracledb.IntervalYM({ years: 3, months: 11 }),
      negYm: new oracledb.IntervalYM({ years: -1, months: -6 }),
      ds: new oracledb.IntervalDS({ days: 12, hours: 3, minutes: 4, seconds: 5, fseconds: 123456789 }),
      negDs: new oracledb.IntervalDS({ days: -2, hours: -1, minutes: 0, seconds: 0, fseconds: 0 })
    }
    expect(await roundTrip(16, doc)).toEqual(doc)
  })

  it("stores a JSON null bind as SQL NULL and fetches null", async () => {
    expect(await roundTrip(20, null)).toBeNull()
    const r = await conn.execute("SELECT COUNT(*) FROM jdocs WHERE id = 20 AND doc IS NULL")
    expect(r.rows[0][0]).toBe(1)
  })

  it("handles large documents: long strings, more than 255 field names, a tree over 64 KiB, long field names", async () => {
    const wide: Record<string, number> = {}
    for (let i = 0; i < 300; i++) wide[`field_${i}`] = i * 1.25
    expect(await roundTrip(30, wide)).toEqual(wide)
    const long = { text: "x".repeat(70_000), mid: "y".repeat(300), items: Array.from({ length: 5000 }, (_, i) => ({ i, s: `v${i}` })) }
    expect(await roundTrip(31, long)).toEqual(long)
    const longName = { ["n".repeat(300)]: 1, short: 2 }
    expect(await roundTrip(32, longName)).toEqual(longName)
  })

  it("reads JSON written as text, including Oracle extended scalars", async () => {
    await conn.execute(
      `INSERT INTO jdocs (id, doc) VALUES (40, '{"n": 12345678901234567890.5, "d": {"$oracleDate": "2024-03-04T05:06:07"}, "t": {"$oracleTimestamp": "2024-03-04T05:06:07.5"}, "r": {"$rawhex": "CAFE"}, "x": {"$numberDouble": 2.5}}')`
    )
    const r = await conn.execute("SELECT doc FROM jdocs WHERE id = 40")
    expect(r.rows[0][0]).toEqual({
      n: 12345678901234567890.5,
      d: new Date(Date.UTC(2024, 2, 4, 5, 6, 7)),
      t: new Date(Date.UTC(2024, 2, 4, 5, 6, 7, 500)),
      r: Buffer.from([0xca, 0xfe]),
      x: 2.5
    })
  })

  it("inserts documents with executeMany and reads each back", async () => {
    const docs = Array.from({ length: 200 }, (_, i) => ({ i, name: `doc ${i}`, at: new Date(Date.UTC(2020, 0, 1 + i)), bytes: Buffer.from([i % 256]), nested: { even: i % 2 === 0, list: [i, i / 4] } }))
    await conn.executeMany(
      "INSERT INTO jdocs (id, doc) VALUES (:1, :2)",
      docs.map((d, i) => [1000 + i, d]),
      { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_JSON }] }
    )
    const r = await conn.execute("SELECT doc FROM jdocs WHERE id >= 1000 ORDER BY id", [], { fetchArraySize: 37 })
    expect(r.rows.map((row: Array<unknown>) => row[0])).toEqual(docs)
  })

  it("reads a TIMESTAMP WITH TIME ZONE scalar written as extended JSON text", async () => {
    await conn.execute(`INSERT INTO jdocs (id, doc) VALUES (41, '{"tz": {"$oracleTimestampTZ": "2024-05-06T07:08:09.25Z"}}')`)
    const r = await conn.execute("SELECT doc FROM jdocs WHERE id = 41")
    expect(r.rows[0][0]).toEqual({ tz: new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 250)) })
  })

  it("updates a JSON column through a bind and selects several rows", async () => {
    await conn.execute("UPDATE jdocs SET doc = :1 WHERE id = 10", [{ val: { replaced: [1, 2, 3] }, type: oracledb.DB_TYPE_JSON }])
    const r = await conn.execute("SELECT id, doc FROM jdocs WHERE id IN (10, 12) ORDER BY id")
    expect(r.rows).toEqual([
      [10, { replaced: [1, 2, 3] }],
      [12, true]
    ])
    expect(r.metaData[1]).toMatchObject({ dbTypeName: "JSON", isJson: true, isOson: true })
  })

  it("keeps every decimal digit of numbers in the stored text and the image", () => {
    const text = '{"a":12345678901234567890.123456789,"b":[-0.000000000000000000000000000001,1E+125],"c":{"$numberDecimal":"3.14159265358979323846264338327950288"}}'
    const image = encodeOson(fromExtendedJson(text))
    const back = toExtendedJson(decodeOson(image))
    expect(back).toBe(`{"a":12345678901234567890.123456789,"b":[-0.000000000000000000000000000001,1${"0".repeat(125)}],"c":3.14159265358979323846264338327950288}`)
  })

  it("rejects malformed and truncated images with an error instead of a wrong value", () => {
    expect(() => decodeOson(Buffer.from("not oson"))).toThrow(/ORA-40441|not an OSON image/)
    const image = clientEncode({ a: [1, "two", { b: Buffer.from([3]) }], c: "x".repeat(300) })
    for (let n = 4; n < image.length; n += 7) expect(() => decodeOson(image.subarray(0, n))).toThrow()
  })

  it("writes images node-oracledb decodes, and decodes node-oracledb's images", () => {
    const doc = { a: [1, { b: "x".repeat(40) }], c: new Date(Date.UTC(2001, 0, 2, 3, 4, 5, 6)), d: Buffer.from([9]), e: null, f: false, g: -7.25 }
    expect(clientDecode(encodeOson(decodeOson(clientEncode(doc))))).toEqual(doc)
    const wide = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, i]))
    expect(clientDecode(encodeOson(decodeOson(clientEncode(wide))))).toEqual(wide)
  })
})
