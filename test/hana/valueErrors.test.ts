import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const count = (table: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM ${table}`)), (b) => Number(b[0]!.getChild("C")!.get(0))))

// A value the column cannot take fails its statement with HANA's error and leaves the connection usable, on the
// driver's every write path: an ALPHANUM length error (274) must not leave the client waiting for an answer.
describe("HANA driver: value errors leave the connection usable", () => {
  it.effect("an over-long ALPHANUM value fails execute, bound execute and ingest with 274, and the next statement runs", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ALN")
      yield* conn.execute(`CREATE TABLE ${t} ("id" INTEGER, "code" ALPHANUM(5))`)
      const direct = yield* Effect.flip(conn.execute(`INSERT INTO ${t} VALUES (1, 'ABCDEFGH')`))
      expect(direct.vendorCode).toBe(274)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (?, ?)`)
      yield* stmt.bind(new Arrow.Table({
        id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        code: Arrow.vectorFromArray(["12", "ABCDEFGH"], new Arrow.Utf8())
      }).batches[0]!)
      const bound = yield* Effect.flip(stmt.executeUpdate)
      expect(bound.vendorCode).toBe(274)
      const rows = new Arrow.Table({
        id: Arrow.vectorFromArray(Array.from({ length: 500 }, (_, i) => i), new Arrow.Int32()),
        code: Arrow.vectorFromArray(Array.from({ length: 500 }, (_, i) => (i === 321 ? "ABCDEFGH" : String(i))), new Arrow.Utf8())
      })
      const ingested = yield* Effect.flip(conn.ingest(fromTable(rows), { targetTable: t, mode: "append" }))
      expect(ingested.vendorCode).toBe(274)
      expect(ingested.message).toContain(`Failed in "code" column with the value 'ABCDEFGH'`)
      expect(yield* count(t)).toBe(0)
      expect(yield* conn.execute(`INSERT INTO ${t} VALUES (1, '123')`)).toBe(1)
      expect(yield* count(t)).toBe(1)
    })))
})
