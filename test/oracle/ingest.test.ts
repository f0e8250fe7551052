import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { makeFieldBuilder } from "../../src/arrow/index.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const rowsOf = (sql: string, options?: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => new Arrow.Table(batches)))

const numbers = (n: number, offset = 0) =>
  new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i + offset), new Arrow.Int32()),
    name: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `row ${i + offset}`)), new Arrow.Utf8())
  })

describe("bulk ingest", () => {
  it.effect("create, append, create_append and replace, with insert_batch_rows chunks", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ING")
      expect(yield* conn.ingest(fromTable(numbers(5)), { targetTable: t })).toBe(5)
      expect((yield* Effect.flip(conn.ingest(fromTable(numbers(1)), { targetTable: t }))).status).toBe("ALREADY_EXISTS")
      expect(yield* conn.ingest(fromTable(numbers(3, 100)), { targetTable: t, mode: "append" })).toBe(3)
      expect(yield* conn.ingest(fromTable(numbers(2, 200)), { targetTable: t, mode: "create_append" })).toBe(2)
      expect(Number((yield* rowsOf(`SELECT COUNT(*) AS C FROM "${t}"`)).getChild("C")!.get(0))).toBe(10)
      expect(yield* conn.ingest(fromTable(numbers(4, 300)), { targetTable: t, mode: "replace" })).toBe(4)
      const table = yield* rowsOf(`SELECT "id", "name" FROM "${t}" ORDER BY "id"`)
      expect(table.toArray().map((r) => r.toJSON())).toEqual([
        { id: 300n, name: null },
        { id: 301n, name: "row 301" },
        { id: 302n, name: "row 302" },
        { id: 303n, name: "row 303" }
      ])
      const missing = yield* Effect.flip(conn.ingest(fromTable(numbers(1)), { targetTable: uniqueName("NOPE"), mode: "append" }))
      expect(missing.status).toBe("NOT_FOUND")
    }), { "redo.statement.insert_batch_rows": "2" }))

  it.effect("created columns follow the Ingest mapping; non-nullable fields are NOT NULL", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TYPES")
      const table = new Arrow.Table({
        k: Arrow.vectorFromArray([9007199254740993n, -2n], new Arrow.Int64()),
        s: Arrow.vectorFromArray([1, null], new Arrow.Int16()),
        f: Arrow.vectorFromArray([0.5, 1.25], new Arrow.Float32()),
        b: Arrow.vectorFromArray([true, null], new Arrow.Bool()),
        t: Arrow.vectorFromArray(["x", "y"], new Arrow.Utf8())
      })
      const strict = new Arrow.Table(
        new Arrow.Schema(table.schema.fields.map((f) => (f.name === "k" ? new Arrow.Field("k", f.type, false) : f))),
        table.batches.map((b) => new Arrow.RecordBatch(
          new Arrow.Schema(table.schema.fields.map((f) => (f.name === "k" ? new Arrow.Field("k", f.type, false) : f))),
          b.data
        ))
      )
      expect(yield* conn.ingest(fromTable(strict), { targetTable: t })).toBe(2)
      const schema = yield* conn.getTableSchema(undefined, undefined, t)
      const names = Object.fromEntries(schema.fields.map((f) => [f.name, f.metadata.get("oracle.type-name")]))
      expect(names).toEqual({ k: "NUMBER(19)", s: "NUMBER(5)", f: "BINARY_FLOAT", b: "BOOLEAN", t: "NVARCHAR2(2000)" })
      expect(schema.fields.find((f) => f.name === "k")!.nullable).toBe(false)
      expect(schema.fields.find((f) => f.name === "s")!.nullable).toBe(true)
      const back = yield* rowsOf(`SELECT "k", "s", "f", "b", "t" FROM "${t}" ORDER BY "k" DESC`)
      // NUMBER(19) reads back as decimal128(19,0) (rule 2 covers p <= 18 only): compare the unscaled words.
      const k = back.getChild("k")!
      expect(String(k.type)).toMatch(/^Decimal/)
      const words = k.data[0]!.values as Uint32Array
      expect(BigInt(words[1]!) * 2n ** 32n + BigInt(words[0]!)).toBe(9007199254740993n)
      const { k: _k, ...rest } = back.get(0)!.toJSON()
      expect(rest).toEqual({ s: 1n, f: 0.5, b: true, t: "x" })
    })))

  it.effect("interval columns: year_month into INTERVAL YEAR(9) TO MONTH, month_day_nano and day_time into INTERVAL DAY(9) TO SECOND(9), values exact to the nanosecond; months in month_day_nano fail naming column and row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("IVL")
      const ym = new Arrow.IntervalYearMonth()
      const mdn = new Arrow.IntervalMonthDayNano()
      const dt = new Arrow.IntervalDayTime()
      const builder = (type: Arrow.DataType, rows: Array<unknown>) => {
        const b = makeFieldBuilder(new Arrow.Field("x", type))
        for (const r of rows) b.append(r)
        return Arrow.makeVector(b.finish())
      }
      const table = new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2, 3, 4], new Arrow.Int32()),
        ym: builder(ym, [14, -25, 2 ** 31 - 1, null]),
        mdn: builder(mdn, [
          { months: 0, days: 3, nanoseconds: 3_723_000_000_001n },
          { months: 0, days: -1, nanoseconds: -1n },
          { months: 0, days: 999_999_999, nanoseconds: 86_399_999_999_999n },
          null
        ]),
        dt: builder(dt, [{ days: 1, milliseconds: 1500 }, { days: -2, milliseconds: -1 }, null, { days: 0, milliseconds: 0 }])
      })
      expect(yield* conn.ingest(fromTable(table), { targetTable: t })).toBe(4)
      const schema = yield* conn.getTableSchema(undefined, undefined, t)
      expect(Object.fromEntries(schema.fields.map((f) => [f.name, f.metadata.get("oracle.type-name")]))).toMatchObject({
        ym: "INTERVAL YEAR(9) TO MONTH",
        mdn: "INTERVAL DAY(9) TO SECOND(9)",
        dt: "INTERVAL DAY(9) TO SECOND(9)"
      })
      const back = yield* rowsOf(`SELECT "ym", "mdn", "dt" FROM "${t}" ORDER BY "id"`, {
        "redo.query.day_time_interval_type": "string",
        "redo.query.year_month_interval_type": "string"
      })
      expect(back.toArray().map((r) => r.toJSON())).toEqual([
        { ym: "P1Y2M", mdn: "P3DT1H2M3.000000001S", dt: "P1DT1.5S" },
        { ym: "-P2Y1M", mdn: "-P1DT0.000000001S", dt: "-P2DT0.001S" },
        { ym: "P178956970Y7M", mdn: "P999999999DT23H59M59.999999999S", dt: null },
        { ym: null, mdn: null, dt: "PT0S" }
      ])
      const bad = new Arrow.Table({ mdn: builder(mdn, [{ months: 0, days: 1, nanoseconds: 0n }, { months: 2, days: 0, nanoseconds: 0n }]) })
      const error = yield* Effect.flip(conn.ingest(fromTable(bad), { targetTable: uniqueName("IVLBAD") }))
      expect(error.status).toBe("INVALID_DATA")
      expect(error.message).toContain('column "mdn": row 2 has 2 months')
    })))

  it.effect("a month_day_nano column read from INTERVAL YEAR TO MONTH ingests back into YEAR(9) TO MONTH on both ingest paths; days or nanoseconds there fail naming column and row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const source = uniqueName("YMSRC")
      yield* conn.execute(`CREATE TABLE ${source} (ID NUMBER(10), YM INTERVAL YEAR(9) TO MONTH)`)
      yield* conn.execute(
        `INSERT INTO ${source} SELECT 1, INTERVAL '123456789-11' YEAR(9) TO MONTH FROM DUAL UNION ALL SELECT 2, INTERVAL '-2-3' YEAR(2) TO MONTH FROM DUAL UNION ALL SELECT 3, NULL FROM DUAL`
      )
      const read = yield* rowsOf(`SELECT ID, YM FROM ${source}`, { "redo.query.year_month_interval_type": "monthdaynano" })
      expect(String(read.schema.fields[1]!.type)).toMatch(/MONTH_DAY_NANO/)
      const asStrings = (t: string) =>
        Effect.map(
          rowsOf(`SELECT YM FROM "${t}" ORDER BY ID`, { "redo.query.year_month_interval_type": "string" }),
          (back) => back.toArray().map((r) => r.toJSON()["YM"])
        )
      // the fast path, and oracledb's path (a list column sends the batch through oracledb's encoder)
      const list = Arrow.vectorFromArray([[1], [2], [3]], new Arrow.List(new Arrow.Field("item", new Arrow.Int32())))
      const tables = [read, read.assign(new Arrow.Table({ XS: list }))]
      for (const data of tables) {
        const t = uniqueName("YMBACK")
        expect(yield* conn.ingest(fromTable(data), { targetTable: t })).toBe(3)
        const schema = yield* conn.getTableSchema(undefined, undefined, t)
        expect(schema.fields.find((f) => f.name === "YM")!.metadata.get("oracle.type-name")).toBe("INTERVAL YEAR(9) TO MONTH")
        expect(yield* asStrings(t)).toEqual(["P123456789Y11M", "-P2Y3M", null])
      }
      const withDays = new Arrow.Table({
        ID: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        YM: Arrow.makeVector(
          new Arrow.Data(read.schema.fields[1]!.type, 0, 2, 0, [undefined, new Int32Array([14, 0, 0, 0, 1, 2, 0, 0])] as never)
        )
      })
      const marked = new Arrow.Schema(withDays.schema.fields.map((f) =>
        f.name === "YM" ? f.clone({ metadata: read.schema.fields[1]!.metadata }) : f
      ))
      const bad = new Arrow.Table(marked, [new Arrow.RecordBatch(marked, withDays.batches[0]!.data)])
      const badWithList = bad.assign(new Arrow.Table({ XS: list.slice(0, 2) }))
      for (const data of [bad, badWithList]) {
        const error = yield* Effect.flip(conn.ingest(fromTable(data), { targetTable: uniqueName("YMBAD") }))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain('column "YM": row 2 has 2 days and 0 nanoseconds')
      }
    }), { "redo.ingest.struct_type": "nvarchar2" }))

  it.effect("geoarrow.wkb columns ingest into SDO_GEOMETRY and read back as the same WKB; a malformed value fails naming column and row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("GEO")
      const wkb = (type: number, ...parts: Array<number | Array<number>>): Uint8Array => {
        const out: Array<Buffer> = [Buffer.from([1]), Buffer.alloc(4)]
        out[1]!.writeUInt32LE(type)
        for (const p of parts) {
          const b = Buffer.alloc(Array.isArray(p) ? p.length * 8 : 4)
          if (Array.isArray(p)) p.forEach((v, i) => b.writeDoubleLE(v, i * 8))
          else b.writeUInt32LE(p)
          out.push(b)
        }
        return new Uint8Array(Buffer.concat(out))
      }
      const square = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0]
      const hole = [2, 2, 2, 4, 4, 4, 4, 2, 2, 2]
      const values = [
        wkb(1, [1.5, -2.25]),
        wkb(2, 3, [0, 0, 1, 1, 2, 0]),
        wkb(3, 2, 5, square, 5, hole),
        new Uint8Array(Buffer.concat([Buffer.from(wkb(4, 2)), Buffer.from(wkb(1, [1, 2])), Buffer.from(wkb(1, [3, 4]))])),
        new Uint8Array(Buffer.concat([Buffer.from(wkb(6, 2)), Buffer.from(wkb(3, 1, 5, square)), Buffer.from(wkb(3, 1, 5, hole))])),
        null
      ]
      const geo = new Arrow.Field("geom", new Arrow.Binary(), true, new Map([["ARROW:extension:name", "geoarrow.wkb"], ["ARROW:extension:metadata", "{}"]]))
      const id = new Arrow.Field("id", new Arrow.Int32())
      const batch = (field: Arrow.Field, rows: Array<Uint8Array | null>) =>
        new Arrow.RecordBatch(new Arrow.Schema([id, field]), Arrow.makeData({
          type: new Arrow.Struct([id, field]),
          length: rows.length,
          nullCount: 0,
          children: [Arrow.vectorFromArray(rows.map((_, i) => i), new Arrow.Int32()).data[0]!, Arrow.vectorFromArray(rows, new Arrow.Binary()).data[0]!]
        }))
      const data = batch(geo, values)
      expect(yield* conn.ingest({ schema: data.schema, batches: Stream.make(data) }, { targetTable: t })).toBe(values.length)
      const schema = yield* conn.getTableSchema(undefined, undefined, t)
      expect(schema.fields.find((f) => f.name === "geom")!.metadata.get("oracle.type-name")).toContain("SDO_GEOMETRY")
      const back = yield* rowsOf(`SELECT "geom" FROM "${t}" ORDER BY "id"`, { "redo.use_extension_type": "true" })
      expect(back.schema.fields[0]!.metadata.get("ARROW:extension:name")).toBe("geoarrow.wkb")
      expect((back.getChild("geom")!.toArray() as Array<Uint8Array | null>).map((v) => (v === null ? null : Buffer.from(v).toString("hex"))))
        .toEqual(values.map((v) => (v === null ? null : Buffer.from(v).toString("hex"))))
      const bad = batch(geo, [wkb(1, [1, 2]), new Uint8Array([1, 7, 0, 0, 0])])
      const error = yield* Effect.flip(conn.ingest({ schema: bad.schema, batches: Stream.make(bad) }, { targetTable: uniqueName("GEOBAD") }))
      expect(error.status).toBe("INVALID_DATA")
      expect(error.message).toContain('column "geom": row 2')
    })))

  it.effect("a string longer than NVARCHAR2(2000) fails naming the column and leaves nothing behind", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LONG")
      const data = new Arrow.Table({ note: Arrow.vectorFromArray(["ok", "x".repeat(2001)], new Arrow.Utf8()) })
      const error = yield* Effect.flip(conn.ingest(fromTable(data), { targetTable: t }))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain('column "note": row 2 holds 2001 characters, more than the 2000 its NVARCHAR2(2000)')
      expect((yield* Effect.flip(conn.getTableSchema(undefined, undefined, t))).status).toBe("NOT_FOUND")
    })))

  it.effect("appending a 10 MB string to an existing NVARCHAR2(2000) column fails before sending, naming column, row, length and limit", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("WIDE")
      yield* conn.execute(`CREATE TABLE "${t}" ("id" NUMBER(10), "note" NVARCHAR2(2000))`)
      const data = new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
        note: Arrow.vectorFromArray(["a", "ü".repeat(2000), "x".repeat(10 * 1024 * 1024)], new Arrow.Utf8())
      })
      const error = yield* Effect.flip(conn.ingest(fromTable(data), { targetTable: t, mode: "append" }))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain('column "note": row 3 holds 10485760 characters, more than the 2000 its NVARCHAR2(2000) column accepts')
      expect(Number((yield* rowsOf(`SELECT COUNT(*) AS C FROM "${t}"`)).getChild("C")!.get(0))).toBe(0)
    })))

  it.effect("an append whose second batch the database refuses leaves the table as it was (fast path, several chunks)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ATOMIC")
      yield* conn.execute(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(20))`)
      yield* conn.execute(`INSERT INTO "${t}" VALUES (-1, 'before')`)
      const good = numbers(500)
      const bad = new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2, null, 4], new Arrow.Int32()),
        name: Arrow.vectorFromArray(["a", "b", "c", "d"], new Arrow.Utf8())
      })
      const batches = [...good.batches, ...bad.batches]
      const error = yield* Effect.flip(conn.ingest({ schema: good.schema, batches: Stream.fromIterable(batches) }, { targetTable: t, mode: "append" }))
      expect(error.message).toContain("ORA-01400")
      const rows = yield* rowsOf(`SELECT "id", "name" FROM "${t}"`)
      expect(rows.toArray().map((r) => r.toJSON())).toEqual([{ id: -1n, name: "before" }])
    }), { "redo.statement.insert_batch_rows": "128" }))

  it.effect("temporary ingest and a target catalog fail NOT_IMPLEMENTED; target schema works", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const temp = yield* Effect.flip(conn.ingest(fromTable(numbers(1)), { targetTable: uniqueName("TMP"), temporary: true }))
      expect(temp.status).toBe("NOT_IMPLEMENTED")
      const catalog = yield* Effect.flip(conn.ingest(fromTable(numbers(1)), { targetTable: uniqueName("CAT"), targetCatalog: "FREEPDB1" }))
      expect(catalog.status).toBe("NOT_IMPLEMENTED")
      const schema = yield* conn.getOption("adbc.connection.db_schema")
      const t = uniqueName("SCH")
      expect(yield* conn.ingest(fromTable(numbers(2)), { targetTable: t, targetDbSchema: schema })).toBe(2)
      expect(Number((yield* rowsOf(`SELECT COUNT(*) AS C FROM "${schema}"."${t}"`)).getChild("C")!.get(0))).toBe(2)
    })))

  it.effect("struct columns follow redo.ingest.struct_type; object is NOT_IMPLEMENTED", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const struct = Arrow.vectorFromArray([{ a: 1 }, { a: 2 }], new Arrow.Struct([new Arrow.Field("a", new Arrow.Int32())]))
      const data = new Arrow.Table({ id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()), doc: struct })
      const object = yield* Effect.flip(conn.ingest(fromTable(data), { targetTable: uniqueName("OBJ") }))
      expect(object.status).toBe("NOT_IMPLEMENTED")
      expect(object.message).toContain("redo.ingest.struct_type")
    }), { "redo.ingest.struct_type": "object" }))

  it.effect("struct and list columns stored as JSON text in NVARCHAR2 (with an IS JSON check) read back as their JSON", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("DOC")
      const struct = Arrow.vectorFromArray([{ a: 1, b: "x" }, null], new Arrow.Struct([
        new Arrow.Field("a", new Arrow.Int32()),
        new Arrow.Field("b", new Arrow.Utf8())
      ]))
      const list = Arrow.vectorFromArray([[1, 2], [3]], new Arrow.List(new Arrow.Field("item", new Arrow.Int32())))
      const data = new Arrow.Table({ id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()), doc: struct, xs: list })
      expect(yield* conn.ingest(fromTable(data), { targetTable: t })).toBe(2)
      const schema = yield* conn.getTableSchema(undefined, undefined, t)
      expect(schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["NUMBER(10)", "NVARCHAR2(2000)", "NVARCHAR2(2000)"])
      const back = yield* rowsOf(`SELECT "doc", "xs" FROM "${t}" ORDER BY "id"`)
      expect(JSON.parse(back.getChild("doc")!.get(0) as string)).toEqual({ a: 1, b: "x" })
      expect(back.getChild("doc")!.get(1)).toBeNull()
      expect(JSON.parse(back.getChild("xs")!.get(0) as string)).toEqual([1, 2])
    }), { "redo.ingest.struct_type": "nvarchar2" }))

  it.effect("a failed replace keeps the old table and its rows (build a new table, then swap)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("SWAP")
      expect(yield* conn.ingest(fromTable(numbers(3)), { targetTable: t })).toBe(3)
      const bad = new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        name: Arrow.vectorFromArray(["fine", "y".repeat(2001)], new Arrow.Utf8())
      })
      const error = yield* Effect.flip(conn.ingest(fromTable(bad), { targetTable: t, mode: "replace" }))
      expect(error.status).toBe("INVALID_ARGUMENT")
      const kept = yield* rowsOf(`SELECT "id" FROM "${t}" ORDER BY "id"`)
      expect(kept.toArray().map((r) => r.toJSON()["id"])).toEqual([0n, 1n, 2n])
      const tables = yield* rowsOf(`SELECT TABLE_NAME FROM USER_TABLES WHERE TABLE_NAME LIKE '${t}%'`)
      expect(tables.toArray().map((r) => r.toJSON()["TABLE_NAME"])).toEqual([t])
      expect(yield* conn.ingest(fromTable(numbers(2, 50)), { targetTable: t, mode: "replace" })).toBe(2)
      const replaced = yield* rowsOf(`SELECT "id" FROM "${t}" ORDER BY "id"`)
      expect(replaced.toArray().map((r) => r.toJSON()["id"])).toEqual([50n, 51n])
    })))

  it.effect("a column of Arrow's null type creates a nullable column (apache-arrow marks such fields non-nullable)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("NULLTYPE")
      const data = new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
        n: Arrow.makeVector(Arrow.makeData({ type: new Arrow.Null(), length: 3 }))
      })
      expect(data.schema.fields[1]!.nullable).toBe(false)
      expect(yield* conn.ingest(fromTable(data), { targetTable: t })).toBe(3)
      const stored = yield* rowsOf(`SELECT "id", "n" FROM "${t}" ORDER BY "id"`)
      expect(stored.toArray().map((r) => r.toJSON())).toEqual([{ id: 1n, n: null }, { id: 2n, n: null }, { id: 3n, n: null }])
    })))
})
