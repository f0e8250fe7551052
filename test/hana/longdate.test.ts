import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const collect = (sql: string) => Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql)))

describe("HANA driver: a LONGDATE with its seventh fraction digit (100 ns) reads as timestamp[us] (docs/types.md)", () => {
  it.effect("the digit the server sends is truncated, never rounded, also at 9999-12-31 23:59:59.9999999", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LD")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER, TS TIMESTAMP)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, '2024-01-02 03:04:05.1234567')`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, '2024-01-02 03:04:05.9999999')`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (3, '9999-12-31 23:59:59.9999999')`)
      // The server holds the digit: TO_VARCHAR prints it and NANO100_BETWEEN counts it.
      const text = new Arrow.Table(yield* collect(`SELECT TO_VARCHAR(TS) AS T, NANO100_BETWEEN(TIMESTAMP '2024-01-02 03:04:05', TS) AS N FROM ${t} WHERE ID = 1`))
      expect([text.getChild("T")!.get(0), String(text.getChild("N")!.get(0))]).toEqual(["2024-01-02 03:04:05.1234567", "1234567"])
      const table = new Arrow.Table(yield* collect(`SELECT TS FROM ${t} ORDER BY ID`))
      expect(String(table.schema.fields[0]!.type)).toBe("Timestamp<MICROSECOND, UTC>")
      const day = BigInt(Date.UTC(2024, 0, 2)) * 1000n
      const last = (BigInt(Date.UTC(9999, 11, 31)) + 86_399_999n) * 1000n + 999n
      expect(table.getChild("TS")!.data.flatMap((d) => [...(d.values as BigInt64Array)])).toEqual([
        day + 11_045_123_456n,
        day + 11_045_999_999n,
        last
      ])
    })))
})
