import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const rowsOf = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql)), (batches) => new Arrow.Table(batches)))

const numbers = (n: number, offset = 0) =>
  new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i + offset), new Arrow.Int32()),
    name: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `row ${i + offset}`)), new Arrow.Utf8())
  })

const failureOf = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.flip(effect)

describe("bulk ingest", () => {
  it.effect("quoted identifiers: reserved words and embedded quotes; mixed case kept exactly", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = `Mixed"Case ${uniqueName("t")}`
      const data = new Arrow.Table({
        create: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        "a\"b": Arrow.vectorFromArray(["x", "y"], new Arrow.Utf8())
      })
      expect(yield* conn.ingest(fromTable(data), { targetTable: t })).toBe(2)
      const quoted = `"${t.replace(/"/g, "\"\"")}"`
      const table = yield* rowsOf(`SELECT "create", "a""b" FROM ${quoted} ORDER BY "create"`)
      expect(table.getChild("a\"b")!.toArray()).toEqual(["x", "y"])
      // The mixed-case rule: the name was used exactly as given, so its upper-case spelling names no table.
      const upper = yield* failureOf(rowsOf(`SELECT * FROM "${t.toUpperCase().replace(/"/g, "\"\"")}"`))
      expect(upper.status).toBe("NOT_FOUND")
      yield* conn.execute(`DROP TABLE ${quoted}`)
    })))

  it.effect("sliced batches bind the rows of the slice", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("SLICE")
      expect(yield* conn.ingest(fromTable(numbers(20).slice(5, 12)), { targetTable: t })).toBe(7)
      const table = yield* rowsOf(`SELECT "id", "name" FROM "${t}" ORDER BY "id"`)
      expect([...table.getChild("id")!.toArray()]).toEqual([5, 6, 7, 8, 9, 10, 11])
      expect(table.getChild("name")!.toArray()).toEqual(["row 5", "row 6", null, "row 8", "row 9", "row 10", "row 11"])
    })))

  it.effect("temporary ingest creates a local temporary #table, ignoring the target schema", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TMP")
      expect(yield* conn.ingest(fromTable(numbers(3)), { targetTable: t, temporary: true, targetDbSchema: "IGNORED" })).toBe(3)
      const table = yield* rowsOf(`SELECT COUNT(*) AS C FROM "#${t}"`)
      expect(Number(table.getChild("C")!.get(0))).toBe(3)
    })))

  it.effect("target schema", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = uniqueName("S")
      yield* conn.execute(`CREATE SCHEMA "${schema}"`)
      expect(yield* conn.ingest(fromTable(numbers(2)), { targetTable: "T", targetDbSchema: schema })).toBe(2)
      const table = yield* rowsOf(`SELECT COUNT(*) AS C FROM "${schema}"."T"`)
      expect(Number(table.getChild("C")!.get(0))).toBe(2)
      yield* conn.execute(`DROP TABLE "${schema}"."T"`)
      yield* conn.execute(`DROP SCHEMA "${schema}"`)
    })))

  it.effect("auto-created columns: NVARCHAR(5000), VARBINARY(5000), DECIMAL(p,s), NOT NULL; nested types refused", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("DDL")
      const schema = new Arrow.Schema([
        new Arrow.Field("s", new Arrow.Utf8(), false),
        new Arrow.Field("b", new Arrow.Binary(), true),
        new Arrow.Field("d", new Arrow.Decimal(3, 12, 128), true)
      ])
      const batch = new Arrow.RecordBatch(schema, Arrow.makeData({
        type: new Arrow.Struct(schema.fields),
        length: 1,
        nullCount: 0,
        children: [
          Arrow.vectorFromArray(["x"], new Arrow.Utf8()).data[0]!,
          Arrow.vectorFromArray([new Uint8Array([7])], new Arrow.Binary()).data[0]!,
          Arrow.makeData({ type: new Arrow.Decimal(3, 12, 128), length: 1, nullCount: 0, data: new Uint32Array([123456, 0, 0, 0]) })
        ]
      }))
      expect(yield* conn.ingest({ schema, batches: Stream.make(batch) }, { targetTable: t })).toBe(1)
      const columns = yield* rowsOf(
        `SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH, SCALE, IS_NULLABLE FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = '${t}' ORDER BY POSITION`
      )
      expect(columns.toArray().map((r) => r.toJSON())).toEqual([
        { COLUMN_NAME: "s", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 5000, SCALE: null, IS_NULLABLE: "FALSE" },
        { COLUMN_NAME: "b", DATA_TYPE_NAME: "VARBINARY", LENGTH: 5000, SCALE: null, IS_NULLABLE: "TRUE" },
        { COLUMN_NAME: "d", DATA_TYPE_NAME: "DECIMAL", LENGTH: 12, SCALE: 3, IS_NULLABLE: "TRUE" }
      ])
      const back = yield* rowsOf(`SELECT "d" FROM "${t}"`)
      expect(back.getChild("d")!.data[0]!.values.slice(0, 4)).toEqual(new Uint32Array([123456, 0, 0, 0]))
      const nested = new Arrow.Table({ l: Arrow.vectorFromArray([[1, 2]], new Arrow.List(new Arrow.Field("item", new Arrow.Int32()))) })
      const error = yield* failureOf(conn.ingest(fromTable(nested), { targetTable: uniqueName("NEST") }))
      expect(error.status).toBe("NOT_IMPLEMENTED")
      expect(error.message).toContain("pre-create the table and use append")
    })))
})
