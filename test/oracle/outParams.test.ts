import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import type { StatementShape } from "../../src/Statement.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const out = (name: string, type: Arrow.DataType, direction = "out") =>
  new Arrow.Field(name, type, true, new Map([["ORACLE:parameter_type", direction]]))

const batchOf = (fields: ReadonlyArray<Arrow.Field>, vectors: ReadonlyArray<Arrow.Vector>) =>
  new Arrow.RecordBatch(new Arrow.Schema([...fields]), Arrow.makeData({
    type: new Arrow.Struct([...fields]),
    length: vectors[0]!.length,
    nullCount: 0,
    children: vectors.map((v) => v.data[0]!)
  }))

/** The unscaled value of a decimal128 column's first row, from its four little-endian 32-bit words. */
const unscaled = (table: Arrow.Table, column: string): bigint => {
  const data = table.getChild(column)!.data[0]!
  const words = data.values as Uint32Array
  const raw = [0, 1, 2, 3].reduce((n, w) => n | (BigInt(words[w]!) << BigInt(32 * w)), 0n)
  return BigInt.asIntN(128, raw)
}

const runQuery = (stmt: StatementShape) => Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches)))

describe("OUT parameters", () => {
  it.effect("OUT columns carry oracle.type-name: the Oracle type each was bound as", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("BEGIN :1 := 42; :2 := 'zwei'; :3 := 1.5; :4 := 12.34; END;")
      const fields = [
        out("n", new Arrow.Int32()),
        out("s", new Arrow.Utf8()),
        out("f", new Arrow.Float64()),
        out("d", new Arrow.Decimal(2, 10, 128), "inout")
      ]
      yield* stmt.bind(batchOf(fields, [
        Arrow.vectorFromArray([null], new Arrow.Int32()),
        Arrow.vectorFromArray([null], new Arrow.Utf8()),
        Arrow.vectorFromArray([null], new Arrow.Float64()),
        Arrow.makeVector(Arrow.makeData({ type: new Arrow.Decimal(2, 10, 128), length: 1, nullCount: 0, data: new Uint32Array([100, 0, 0, 0]) }))
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => [f.name, f.metadata.get("oracle.type-name")])).toEqual([
        ["n", "NUMBER(38,0)"],
        ["s", "NVARCHAR2"],
        ["f", "BINARY_DOUBLE"],
        ["d", "NUMBER(10,2)"]
      ])
      expect(table.schema.fields.every((f) => f.metadata.get("ORACLE:parameter_type") !== undefined)).toBe(true)
      const row = table.get(0)!.toJSON()
      expect([row["n"], row["s"], row["f"]]).toEqual([42, "zwei", 1.5])
      expect(unscaled(table, "d")).toBe(1234n)
    })))

  it.effect("OUT and IN OUT decimals keep every digit: a 38-digit OUT value and an IN OUT value come back exact", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("BEGIN :1 := 1234567890123456789012345678.0123456789; :2 := TO_NUMBER(:2) + 1; END;")
      const wide = new Arrow.Decimal(10, 38, 128)
      // IN OUT input 999999999999999999999999999.9999999998 (unscaled 10^37 - 2): a double would round it
      const input = 10n ** 37n - 2n
      const words = new Uint32Array(4)
      for (let w = 0; w < 4; w++) words[w] = Number((input >> BigInt(32 * w)) & 0xffffffffn)
      yield* stmt.bind(batchOf([out("o", wide), out("io", wide, "inout")], [
        Arrow.makeVector(Arrow.makeData({ type: wide, length: 1, nullCount: 1, nullBitmap: new Uint8Array([0]), data: new Uint32Array(4) })),
        Arrow.makeVector(Arrow.makeData({ type: wide, length: 1, nullCount: 0, data: words }))
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["NUMBER(38,10)", "NUMBER(38,10)"])
      expect(unscaled(table, "o")).toBe(12345678901234567890123456780123456789n)
      expect(unscaled(table, "io")).toBe(10n ** 37n - 2n + 10n ** 10n)
    })))

  it.effect("OUT parameters followed by a result set (batch mode): the first row holds the OUT values, later rows NULL", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("OUTRS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10))`)
      for (const id of [1, 2, 3]) yield* conn.execute(`INSERT INTO ${t} VALUES (${id})`)
      const stmt = yield* conn.statement({ "redo.statement.execution_mode": "batch" })
      yield* stmt.setSqlQuery(`DECLARE c SYS_REFCURSOR; BEGIN :1 := :2 * 2; OPEN c FOR SELECT ID FROM ${t} ORDER BY ID; DBMS_SQL.RETURN_RESULT(c); END;`)
      yield* stmt.bind(batchOf([out("o", new Arrow.Int32()), new Arrow.Field("x", new Arrow.Int32())], [
        Arrow.vectorFromArray([null], new Arrow.Int32()),
        Arrow.vectorFromArray([21], new Arrow.Int32())
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => f.name)).toEqual(["ID", "o"])
      expect(table.schema.fields[1]!.metadata.get("oracle.type-name")).toBe("NUMBER(38,0)")
      expect(table.toArray().map((r) => r.toJSON())).toEqual([{ ID: 1n, o: 42 }, { ID: 2n, o: null }, { ID: 3n, o: null }])
    })))
  it.effect("OUT parameters with several parameter rows are refused before the block runs: the table is untouched", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("OUTROWS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`BEGIN INSERT INTO ${t} VALUES (:1); :2 := :1 * 2; END;`)
      yield* stmt.bind(batchOf([new Arrow.Field("x", new Arrow.Int32()), out("o", new Arrow.Int32())], [
        Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
        Arrow.vectorFromArray([null, null, null], new Arrow.Int32())
      ]))
      const error = yield* Effect.flip(runQuery(stmt))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain("exactly one parameter row")
      expect(error.message).toContain("got 3")
      const rows = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM ${t}`)))
      expect(Number(rows.get(0)!.toJSON()["N"])).toBe(0)
    })))
})
