import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
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
