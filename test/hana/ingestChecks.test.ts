import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { decimals, rawUtf8 } from "../support/arrowVectors.ts"
import { failure } from "../support/exits.ts"
import { useServer, withConnection } from "./support.ts"

// Values an existing column would store changed are refused before they are sent; the table stays as it was.
const server = useServer()

const TABLE = "INGEST_CHECKS"

const contents = Effect.suspend(() => withConnection(server.uri, Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const batches = yield* Stream.runCollect(conn.query(`SELECT ID, TO_VARCHAR(PRICE) AS PRICE, NAME FROM "${TABLE}" ORDER BY ID`))
  return batches.flatMap((b) => b.toArray().map((r) => `${r.ID}|${r.PRICE}|${r.NAME}`))
})))

const append = (table: Arrow.Table) =>
  withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) => conn.ingest(fromTable(table), { targetTable: TABLE, mode: "append" })))

describe("ingest refuses values the column would store changed (HANA)", () => {
  it.effect("Float64 1.9 into INTEGER, a BIGINT beyond INTEGER, DECIMAL(10,4) into DECIMAL(10,2), invalid UTF-8: INVALID_DATA naming column and row, table unchanged", () =>
    Effect.gen(function*() {
      yield* withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.execute(`CREATE TABLE "${TABLE}" (ID INTEGER, PRICE DECIMAL(10,2), NAME NVARCHAR(20))`)
        yield* conn.execute(`INSERT INTO "${TABLE}" VALUES (1, 1.50, 'a')`)
      }))
      const before = yield* contents
      expect(before).toEqual(["1|1.50|a"])
      const refusals: Array<[Arrow.Table, string, string]> = [
        [new Arrow.Table({ ID: Arrow.vectorFromArray([2, 1.9], new Arrow.Float64()) }), "column ID, row 2", "1.9 would lose decimal places"],
        [new Arrow.Table({ ID: Arrow.vectorFromArray([3n, 2147483648n], new Arrow.Int64()) }), "column ID, row 2", "2147483648 is out of range"],
        [new Arrow.Table({ PRICE: decimals(10, 4, [12300n, 12345n]) }), "column PRICE, row 2", "1.2345 would lose decimal places"],
        [new Arrow.Table({ NAME: rawUtf8([[0x61, 0xff]]) }), "column NAME, row 1", "not valid UTF-8"]
      ]
      for (const [data, where, what] of refusals) {
        const error = failure(yield* Effect.exit(append(data)))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain(where)
        expect(error.message).toContain(what)
        expect(yield* contents).toEqual(before)
      }
      // Values that fit exactly are appended.
      const fitting = new Arrow.Table({ ID: Arrow.vectorFromArray([2], new Arrow.Float64()), PRICE: decimals(10, 4, [12300n]) })
      expect(yield* append(fitting)).toBe(1)
      expect(yield* contents).toEqual(["1|1.50|a", "2|1.23|null"])
    }))
})
