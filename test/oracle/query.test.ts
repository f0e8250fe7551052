import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const collect = (sql: string, options?: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql, options)))

/** Bytes of a batch's Arrow buffers (values, offsets, validity) over its rows. */
const batchBytes = (b: Arrow.RecordBatch): number =>
  b.data.children.reduce((n, d) => n + (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0), 0)

describe("queries", () => {
  it.effect("mixed column types decode into Arrow with oracle.type-name metadata", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("MIXED")
      yield* conn.execute(
        `CREATE TABLE ${t} (ID NUMBER(10), AMT NUMBER(12,2), BIG NUMBER(38,10), F BINARY_DOUBLE, BF BINARY_FLOAT, N NUMBER, V VARCHAR2(20), NV NVARCHAR2(20), D DATE, TS TIMESTAMP(6), TS9 TIMESTAMP(9), TZ TIMESTAMP(9) WITH TIME ZONE, B BOOLEAN, R RAW(8), C CLOB)`
      )
      yield* conn.execute(
        `INSERT INTO ${t} VALUES (1, 12345.67, 1234567890123456789012345678.0123456789, 1.5, 2.5, 0.1, 'héllo', 'wörld 😀', TIMESTAMP '2024-02-29 13:45:56', TIMESTAMP '2024-02-29 13:45:56.123456', TIMESTAMP '1999-12-31 23:59:59.123456789', TIMESTAMP '2024-06-01 12:00:00.987654 +02:00', TRUE, HEXTORAW('0102FF'), 'a clob')`
      )
      yield* conn.execute(
        `INSERT INTO ${t} (ID) VALUES (2)`
      )
      const table = new Arrow.Table(yield* collect(`SELECT * FROM ${t} ORDER BY ID`))
      expect(table.numRows).toBe(2)
      const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]))
      expect(types).toMatchObject({
        ID: "Int64",
        F: "Float64",
        BF: "Float32",
        N: "Float64",
        V: "Utf8",
        NV: "Utf8",
        D: "Date32<DAY>",
        TS: "Timestamp<MICROSECOND>",
        TS9: "Timestamp<NANOSECOND>",
        TZ: "Timestamp<NANOSECOND, UTC>",
        B: "Bool",
        R: "Binary",
        C: "LargeUtf8"
      })
      const names = Object.fromEntries(table.schema.fields.map((f) => [f.name, f.metadata.get("oracle.type-name")]))
      expect(names).toMatchObject({ ID: "NUMBER(10)", AMT: "NUMBER(12,2)", BIG: "NUMBER(38,10)", N: "NUMBER", TS9: "TIMESTAMP(9)" })
      const amt = table.schema.fields.find((f) => f.name === "AMT")!.type as Arrow.Decimal
      expect([amt.precision, amt.scale, amt.bitWidth]).toEqual([12, 2, 128])
      const row = table.get(0)!.toJSON() as Record<string, unknown>
      expect(row["ID"]).toBe(1n)
      expect(row["F"]).toBe(1.5)
      expect(row["BF"]).toBe(2.5)
      expect(row["N"]).toBe(0.1)
      expect(row["V"]).toBe("héllo")
      expect(row["NV"]).toBe("wörld 😀")
      expect(row["D"]).toBe(Date.UTC(2024, 1, 29))
      expect(table.getChild("TS")!.data[0]!.values[0]).toBe(1709214356123456n)
      expect(table.getChild("TS9")!.data[0]!.values[0]).toBe(946684799123456789n)
      expect(table.getChild("TZ")!.data[0]!.values[0]).toBe(1717236000987654000n)
      expect(row["B"]).toBe(true)
      expect([...(row["R"] as Uint8Array)]).toEqual([1, 2, 255])
      expect(row["C"]).toBe("a clob")
      const second = table.get(1)!.toJSON() as Record<string, unknown>
      expect(second["AMT"]).toBeNull()
      expect(second["TS9"]).toBeNull()
      expect(second["V"]).toBeNull()
    })))

  it.effect("decimals keep every digit (never through a JS double)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("DEC")
      yield* conn.execute(`CREATE TABLE ${t} (A NUMBER(38,10), B NUMBER(20,0))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1234567890123456789012345678.0123456789, 12345678901234567890)`)
      const table = new Arrow.Table(yield* collect(`SELECT A, B FROM ${t}`))
      const a = table.getChild("A")!
      const words = a.data[0]!.values as Uint32Array
      let unscaled = 0n
      for (let i = 3; i >= 0; i--) unscaled = (unscaled << 32n) | BigInt(words[i]!)
      expect(unscaled).toBe(12345678901234567890123456780123456789n)
      expect(String(table.schema.fields[1]!.type)).toMatch(/^Decimal/)
    })))

  it.effect("INTERVAL YEAR(9) TO MONTH beyond Arrow's 32-bit months fails naming column and row in auto and monthdaynano; string mode keeps it", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("YM9")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(5), Y INTERVAL YEAR(9) TO MONTH)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, INTERVAL '1-2' YEAR TO MONTH)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, INTERVAL '999999999-11' YEAR(9) TO MONTH)`)
      const sql = `SELECT Y FROM ${t} ORDER BY K`
      for (const mode of ["row", "batch"]) {
        for (const type of ["auto", "monthdaynano"]) {
          const error = yield* Effect.flip(collect(sql, { "redo.query.year_month_interval_type": type, "redo.statement.execution_mode": mode }))
          expect(error.status, `${mode} ${type}`).toBe("INVALID_DATA")
          expect(error.message, `${mode} ${type}`).toContain('column "Y": row 2')
        }
        const text = new Arrow.Table(yield* collect(sql, { "redo.query.year_month_interval_type": "string", "redo.statement.execution_mode": mode }))
        expect(text.getChild("Y")!.toArray(), mode).toEqual(["P1Y2M", "P999999999Y11M"])
      }
    })))

  it.effect("read_batch_rows is a hard limit and results are complete", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("MANY")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10))`)
      yield* conn.execute(`INSERT INTO ${t} SELECT LEVEL FROM DUAL CONNECT BY LEVEL <= 1000`).pipe(
        Effect.catch(() => Effect.forEach(Array.from({ length: 100 }, (_, i) => i + 1), (i) => conn.execute(`INSERT INTO ${t} VALUES (${i})`), { discard: true }))
      )
      const expected = Number((new Arrow.Table(yield* collect(`SELECT COUNT(*) AS N FROM ${t}`)).get(0)!.toJSON() as { N: number }).N)
      const batches = yield* collect(`SELECT ID FROM ${t}`, {
        "redo.statement.read_batch_rows": "7",
        "redo.statement.fetch_array_size": "10",
        "redo.statement.execution_mode": "batch"
      })
      expect(batches.every((b) => b.numRows <= 7)).toBe(true)
      expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(expected)
    })))

  it.effect("unknown tables fail NOT_FOUND with ORA-00942", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const error = yield* Effect.flip(collect("SELECT * FROM NO_SUCH_TABLE_X"))
      expect(error.status).toBe("NOT_FOUND")
      expect(error.vendorCode).toBe(942)
      expect(error.message).toContain("ORA-00942")
    })))

  it.effect("row and batch execution modes give identical Arrow results; read_batch_approx_bytes cuts smaller batches", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("MODES")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10), NAME VARCHAR2(40), AMT NUMBER(12,2), TS TIMESTAMP(9))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} (ID, NAME) VALUES (:1, :2)`)
      yield* stmt.bind(new Arrow.Table({
        id: Arrow.vectorFromArray(Array.from({ length: 500 }, (_, i) => i), new Arrow.Int32()),
        name: Arrow.vectorFromArray(Array.from({ length: 500 }, (_, i) => `a name of some length ${i}`), new Arrow.Utf8())
      }).batches[0]!)
      yield* stmt.executeUpdate
      const sql = `SELECT ID, NAME, AMT, TS FROM ${t} ORDER BY ID`
      const row = new Arrow.Table(yield* collect(sql, { "redo.statement.execution_mode": "row" }))
      const batch = new Arrow.Table(yield* collect(sql, { "redo.statement.execution_mode": "batch" }))
      expect(batch.schema.fields.map(String)).toEqual(row.schema.fields.map(String))
      expect(batch.toArray().map((r) => r.toJSON())).toEqual(row.toArray().map((r) => r.toJSON()))
      const whole = yield* collect(sql, { "redo.statement.fetch_array_size": "50" })
      const capped = yield* collect(sql, { "redo.statement.fetch_array_size": "50", "redo.statement.read_batch_approx_bytes": "2000" })
      expect(capped.length).toBeGreaterThan(whole.length)
      expect(capped.reduce((n, b) => n + b.numRows, 0)).toBe(500)
      // one round trip of 500 rows (after the first, prefetched row) under a 4,000-byte budget: cut inside the page
      for (const mode of ["row", "batch"]) {
        const paged = yield* collect(sql, { "redo.statement.execution_mode": mode, "redo.statement.fetch_array_size": "1000", "redo.statement.read_batch_approx_bytes": "4000" })
        expect(paged.reduce((n, b) => n + b.numRows, 0), mode).toBe(500)
        expect(paged.length, mode).toBeGreaterThan(5)
        for (const b of paged) expect(batchBytes(b), mode).toBeLessThanOrEqual(8000)
      }
    })))

  it.effect("JSON columns (OSON on the wire) read as JSON text in both modes; arrow.json only with redo.use_extension_type; arrow.json binds as JSON", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("JDOC")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10), DOC JSON)`)
      const docs = [
        { name: "widget", tags: ["a", ["b", []], {}], dims: { w: 1.5, h: -0.001, n: 42 }, flags: { on: true, none: null }, text: "héllo ☃" },
        [1, "two", false],
        null
      ]
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2)`)
      const json = new Arrow.Field("doc", new Arrow.Utf8(), true, new Map([["ARROW:extension:name", "arrow.json"], ["ARROW:extension:metadata", ""]]))
      const ids = Arrow.vectorFromArray(docs.map((_, i) => i), new Arrow.Int32())
      const texts = Arrow.vectorFromArray(docs.map((d) => (d === null ? null : JSON.stringify(d))), new Arrow.Utf8())
      yield* stmt.bind(new Arrow.RecordBatch(
        new Arrow.Schema([new Arrow.Field("id", new Arrow.Int32()), json]),
        Arrow.makeData({ type: new Arrow.Struct([new Arrow.Field("id", new Arrow.Int32()), json]), length: docs.length, nullCount: 0, children: [ids.data[0]!, texts.data[0]!] })
      ))
      yield* stmt.executeUpdate
      const sql = `SELECT ID, DOC FROM ${t} ORDER BY ID`
      for (const mode of ["row", "batch"]) {
        const plain = new Arrow.Table(yield* collect(sql, { "redo.statement.execution_mode": mode }))
        const field = plain.schema.fields[1]!
        expect(String(field.type)).toBe("Utf8")
        expect(field.metadata.get("ARROW:extension:name")).toBeUndefined()
        expect(field.metadata.get("oracle.type-name")).toBe("JSON")
        const values = plain.getChild("DOC")!.toArray() as Array<string | null>
        expect(values.map((v) => (v === null ? null : JSON.parse(v)))).toEqual(docs)
        const annotated = new Arrow.Table(yield* collect(sql, { "redo.statement.execution_mode": mode, "redo.use_extension_type": "true" }))
        expect(annotated.schema.fields[1]!.metadata.get("ARROW:extension:name")).toBe("arrow.json")
      }
    })))

  it.effect("OBJECT and VARRAY as JSON text (arrow.json), SDO_GEOMETRY as WKB (geoarrow.wkb), XMLType as text (arrow.opaque), in both modes", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const suffix = uniqueName("").slice(1)
      const pointType = `PT_${suffix}`
      const numsType = `NUMS_${suffix}`
      const t = `OBJS_${suffix}`
      yield* conn.execute(`CREATE TYPE ${pointType} AS OBJECT (X NUMBER, LABEL VARCHAR2(20))`)
      yield* conn.execute(`CREATE TYPE ${numsType} AS VARRAY(5) OF NUMBER`)
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10), P ${pointType}, NS ${numsType}, G SDO_GEOMETRY, X XMLTYPE)`)
      yield* conn.execute(
        `INSERT INTO ${t} VALUES (1, ${pointType}(1.5, 'a'), ${numsType}(1, 2, 3), SDO_GEOMETRY(2003, 8307, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 1), SDO_ORDINATE_ARRAY(0, 0, 10, 0, 10, 10, 0, 0)), XMLTYPE('<a b="1">x</a>'))`
      )
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, NULL, NULL, SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(7, 8, NULL), NULL, NULL), NULL)`)
      const sql = `SELECT ID, P, NS, G, X FROM ${t} ORDER BY ID`
      const wkbPolygon = (() => {
        const ring = [0, 0, 10, 0, 10, 10, 0, 0]
        const b = Buffer.alloc(13 + ring.length * 8)
        b[0] = 1
        b.writeUInt32LE(3, 1)
        b.writeUInt32LE(1, 5)
        b.writeUInt32LE(4, 9)
        ring.forEach((v, i) => b.writeDoubleLE(v, 13 + i * 8))
        return b.toString("hex")
      })()
      const wkbPoint = "0101000000" + Buffer.from(new Float64Array([7, 8]).buffer).toString("hex")
      for (const mode of ["row", "batch"]) {
        const table = new Arrow.Table(yield* collect(sql, { "redo.statement.execution_mode": mode, "redo.use_extension_type": "true" }))
        const ext = Object.fromEntries(table.schema.fields.map((f) => [f.name, f.metadata.get("ARROW:extension:name")]))
        expect(ext).toEqual({ ID: undefined, P: "arrow.json", NS: "arrow.json", G: "geoarrow.wkb", X: "arrow.opaque" })
        expect(table.schema.fields.find((f) => f.name === "P")!.metadata.get("oracle.type-name")).toContain(pointType)
        const p = table.getChild("P")!
        expect(JSON.parse(p.get(0) as string)).toEqual({ X: 1.5, LABEL: "a" })
        expect(p.get(1)).toBeNull()
        expect(JSON.parse(table.getChild("NS")!.get(0) as string)).toEqual([1, 2, 3])
        const g = table.getChild("G")!
        expect(Buffer.from(g.get(0) as Uint8Array).toString("hex")).toBe(wkbPolygon)
        expect(Buffer.from(g.get(1) as Uint8Array).toString("hex")).toBe(wkbPoint)
        expect(table.getChild("X")!.get(0)).toContain('<a b="1">x</a>')
        expect(table.getChild("X")!.get(1)).toBeNull()
        // without extension types (the default and explicit false) no field carries one: the plain storage types
        for (const off of [{}, { "redo.use_extension_type": "false" }]) {
          const plain = new Arrow.Table(yield* collect(sql, { "redo.statement.execution_mode": mode, ...off }))
          const names = plain.schema.fields.map((f) => [f.name, f.metadata.get("ARROW:extension:name"), f.metadata.has("ARROW:extension:metadata")])
          expect(names, mode).toEqual([["ID", undefined, false], ["P", undefined, false], ["NS", undefined, false], ["G", undefined, false], ["X", undefined, false]])
          expect(plain.schema.fields.map((f) => String(f.type)), mode).toEqual(["Int64", "Utf8", "Utf8", "Binary", "Utf8"])
          expect(JSON.parse(plain.getChild("P")!.get(0) as string)).toEqual({ X: 1.5, LABEL: "a" })
          expect(JSON.parse(plain.getChild("NS")!.get(0) as string)).toEqual([1, 2, 3])
        }
      }
    })))
})
