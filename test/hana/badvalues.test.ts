import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { adbcError } from "../../src/AdbcError.ts"
import { nameOversizedParameter } from "../../layers/hana/Params.ts"
import { TypeCode } from "../../layers/hana/ReadTypes.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

describe("values the column cannot take", () => {
  it.effect("fail the statement with an ADBC error instead of crashing the process", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("BAD")
      yield* conn.execute(`CREATE TABLE ${t} (T TINYINT, D DATE, N DECIMAL(4,2))`)
      const bind = (column: string, vector: Arrow.Vector) =>
        Effect.gen(function*() {
          const stmt = yield* conn.statement()
          yield* stmt.setSqlQuery(`INSERT INTO ${t} (${column}) VALUES (?)`)
          yield* stmt.bind(new Arrow.Table({ v: vector }).batches[0]!)
          return yield* Effect.flip(stmt.executeUpdate)
        })
      const tiny = yield* bind("T", Arrow.vectorFromArray([300], new Arrow.Int32()))
      expect(["INVALID_ARGUMENT", "INVALID_DATA"]).toContain(tiny.status)
      const date = yield* bind("D", Arrow.vectorFromArray(["not a date"], new Arrow.Utf8()))
      expect(["INVALID_ARGUMENT", "INVALID_DATA"]).toContain(date.status)
      const big = yield* bind("N", Arrow.vectorFromArray([123456.5], new Arrow.Float64()))
      expect(["INVALID_ARGUMENT", "INVALID_DATA"]).toContain(big.status)
      const after = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM ${t}`))
      expect(Number(after[0]!.getChild("C")!.get(0))).toBe(0)
    })))
})

describe("values larger than one request packet", () => {
  const tenMegabytes = "x".repeat(10 * 1024 * 1024)

  it.effect("a 10 MB bind fails INVALID_ARGUMENT naming the parameter, its row and the packet limit", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("BIG")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER, S NVARCHAR(5000))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} (ID, S) VALUES (?, ?)`)
      yield* stmt.bind(new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        payload: Arrow.vectorFromArray(["small", tenMegabytes], new Arrow.Utf8())
      }))
      const error = yield* Effect.flip(stmt.executeUpdate)
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain(`parameter 2 ("payload") of row 2 takes ${tenMegabytes.length} bytes`)
      expect(error.message).toContain("request packet of 131072 bytes")
      const after = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM ${t}`))
      expect(Number(after[0]!.getChild("C")!.get(0))).toBe(0)
    })))

  it.effect("a query parameter and an ingested value too large fail the same way; the connection stays usable", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("SELECT LENGTH(?) AS N FROM DUMMY")
      yield* stmt.bind(new Arrow.Table({ text: Arrow.vectorFromArray([tenMegabytes], new Arrow.Utf8()) }))
      const query = yield* Effect.flip(Effect.scoped(stmt.executeQuery))
      expect(query.status).toBe("INVALID_ARGUMENT")
      expect(query.message).toContain(`parameter 1 ("text") of row 1`)
      const t = uniqueName("BIGI")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER, S NVARCHAR(5000))`)
      const data = new Arrow.Table({
        ID: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
        S: Arrow.vectorFromArray(["a", "b", tenMegabytes], new Arrow.Utf8())
      })
      const ingest = yield* Effect.flip(conn.ingest({ schema: data.schema, batches: Stream.fromIterable(data.batches) }, { targetTable: t, mode: "append" }))
      expect(ingest.status).toBe("INVALID_ARGUMENT")
      expect(ingest.message).toContain(`parameter 2 ("S") of row 3`)
      const after = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM ${t}`))
      expect(Number(after[0]!.getChild("C")!.get(0))).toBe(0)
    })))
})

describe("hdb's own packet overflow, for rows near the limit the early check lets pass", () => {
  it("is named like the early check: the largest non-LOB parameter of the rows sent", () => {
    const hdbError = adbcError("UNKNOWN", "Failed to set parameters, maximum packet size exceeded.")
    const named = nameOversizedParameter(hdbError, {
      rows: [[1, "a", Buffer.alloc(300_000)], [2, "y".repeat(130_000), Buffer.alloc(1)]],
      firstRow: 64_000,
      names: ["ID", "S", "B"],
      parameterTypes: [TypeCode.INT, TypeCode.NVARCHAR, TypeCode.BLOB],
      packetBytes: 131_072
    })
    expect(named.status).toBe("INVALID_ARGUMENT")
    expect(named.message).toContain(`parameter 2 ("S") of row 64002 takes 130000 bytes`)
    expect(named.message).toContain("131072 bytes")
    const other = adbcError("IO", "connection lost")
    expect(nameOversizedParameter(other, { rows: [], firstRow: 0, names: [], parameterTypes: [], packetBytes: 1 })).toBe(other)
  })
})
