import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// ORA- errors raised by the server, through the real client and the driver, surface with their vendor code, the
// server's message and the ADBC status / SQLSTATE of the mapping (layers/oracle/Errors.ts).
const server = useServer()

describe("ORA- errors through the driver", () => {
  it.effect("ORA-00001 (unique constraint) and ORA-01400 (NULL into NOT NULL) are INTEGRITY, SQLSTATE 23000", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ERRS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10) PRIMARY KEY, NAME VARCHAR2(10) NOT NULL)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 'a')`)
      const duplicate = yield* Effect.flip(conn.execute(`INSERT INTO ${t} VALUES (1, 'b')`))
      expect([duplicate.status, duplicate.vendorCode, duplicate.sqlState]).toEqual(["INTEGRITY", 1, "23000"])
      expect(duplicate.message).toContain("ORA-00001")
      const nulled = yield* Effect.flip(conn.execute(`INSERT INTO ${t} VALUES (2, NULL)`))
      expect([nulled.status, nulled.vendorCode, nulled.sqlState]).toEqual(["INTEGRITY", 1400, "23000"])
      expect(nulled.message).toContain("ORA-01400")
      expect(nulled.message).toContain("NAME")
      // the failed statements changed nothing
      const count = yield* conn.queryTable(`SELECT COUNT(*) AS N FROM ${t}`)
      expect(count.get(0)!.toJSON()["N"]).toBe(1)
    })))

  it.effect("a missing table or column with a quoted name holding blanks is NOT_FOUND / INVALID_ARGUMENT, not an internal error", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const missing = yield* Effect.flip(conn.queryTable(`SELECT * FROM "no such table"`))
      expect([missing.status, missing.vendorCode, missing.sqlState]).toEqual(["NOT_FOUND", 942, "42000"])
      expect(missing.message).not.toMatch(/Catalog Error|\$[a-z]/)
      const t = uniqueName("ERRS")
      yield* conn.execute(`CREATE TABLE ${t} ("a col" NUMBER)`)
      const column = yield* Effect.flip(conn.queryTable(`SELECT "b col" FROM ${t}`))
      expect([column.status, column.vendorCode]).toEqual(["INVALID_ARGUMENT", 904])
      expect(column.message).toContain('"b col": invalid identifier')
    })))

  it.effect("ORA-01017 (wrong password) is UNAUTHENTICATED, SQLSTATE 28000, and the password never appears", () =>
    Effect.gen(function*() {
      const u = new URL(server.uri)
      u.password = "Wrong-Secret-77"
      const error = yield* Effect.flip(withConnection(u.toString(), Connection.Connection))
      expect([error.status, error.vendorCode, error.sqlState]).toEqual(["UNAUTHENTICATED", 1017, "28000"])
      expect(error.message).toContain("ORA-01017")
      expect(error.message).not.toContain("Wrong-Secret-77")
    }))
})

/** A one-column batch of `vector` under a field with `metadata`. */
const single = (name: string, vector: Arrow.Vector, metadata: Record<string, string> = {}) => {
  const field = new Arrow.Field(name, vector.type, true, new Map(Object.entries(metadata)))
  return new Arrow.RecordBatch(new Arrow.Schema([field]), Arrow.makeData({
    type: new Arrow.Struct([field]),
    length: vector.length,
    nullCount: 0,
    children: [vector.data[0]!]
  }))
}

const wkb = new Uint8Array([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64])

describe("NA cells of the type tables fail NOT_IMPLEMENTED naming the field and its Arrow type", () => {
  const bindCases: ReadonlyArray<readonly [string, Arrow.RecordBatch, string]> = [
    ["int64", single("a", Arrow.vectorFromArray([1n], new Arrow.Int64())), "Int64"],
    ["decimal256", single("a", Arrow.makeVector(Arrow.makeData({ type: new Arrow.Decimal(2, 60, 256), length: 1, nullCount: 0, data: new Uint32Array(8) }))), "Decimal"],
    ["list", single("a", Arrow.vectorFromArray([[1]], new Arrow.List(new Arrow.Field("item", new Arrow.Int32())))), "List<Int32>"],
    ["struct", single("a", Arrow.vectorFromArray([{ x: 1 }], new Arrow.Struct([new Arrow.Field("x", new Arrow.Int32())]))), "Struct"],
    ["month_day_nano", single("a", Arrow.makeVector(Arrow.makeData({ type: new Arrow.IntervalMonthDayNano(), length: 1, nullCount: 0, data: new Int32Array(4) }))), "Interval"],
    ["null", single("a", Arrow.makeVector(Arrow.makeData({ type: new Arrow.Null(), length: 1, nullCount: 1 }))), "Null"],
    ["geoarrow.wkb", single("a", Arrow.vectorFromArray([wkb], new Arrow.Binary()), { "ARROW:extension:name": "geoarrow.wkb" }), "geoarrow.wkb"],
    ["geoarrow.wkt", single("a", Arrow.vectorFromArray(["POINT (1 2)"], new Arrow.Utf8()), { "ARROW:extension:name": "geoarrow.wkt" }), "geoarrow.wkt"]
  ]

  it.effect("as parameters (Bind column: int64, decimal256, list, struct, month_day_nano, null, geoarrow)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      for (const [label, batch, typeText] of bindCases) {
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("SELECT :1 FROM DUAL")
        yield* stmt.bind(batch)
        const error = yield* Effect.flip(Effect.scoped(stmt.executeQuery))
        expect([label, error.status]).toEqual([label, "NOT_IMPLEMENTED"])
        expect(error.message).toContain('"a"')
        expect(error.message).toContain(typeText)
      }
    })))

  it.effect("in ingest (Ingest column: halffloat, arrow.json), before any table is created", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const cases: ReadonlyArray<readonly [Arrow.RecordBatch, string]> = [
        [single("h", Arrow.vectorFromArray([1.5], new Arrow.Float16())), "Float16"],
        [single("j", Arrow.vectorFromArray(['{"a":1}'], new Arrow.Utf8()), { "ARROW:extension:name": "arrow.json" }), "arrow.json"]
      ]
      for (const [batch, typeText] of cases) {
        const t = uniqueName("NA")
        const error = yield* Effect.flip(conn.ingest(fromTable(new Arrow.Table([batch])), { targetTable: t }))
        expect(error.status).toBe("NOT_IMPLEMENTED")
        expect(error.message).toContain(typeText)
        const tables = yield* conn.queryTable(`SELECT COUNT(*) AS N FROM USER_TABLES WHERE TABLE_NAME = '${t}'`)
        expect(tables.get(0)!.toJSON()["N"]).toBe(0)
      }
    })))
})
