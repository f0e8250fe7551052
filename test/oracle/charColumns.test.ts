import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// Text ingested into CHAR / NCHAR columns is held blank-padded to the column's length, as Oracle holds it ("Oracle
// blank-pads the value to column length": SQL Language Reference, "CHAR Data Type"), so that the driver reads the
// padded value back and 'ab' and 'ab ' are one value. Before, the test server kept the text as sent and padded it
// only when a CHAR column was fetched.
const server = useServer()

const rowsOf = (sql: string, mode: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, { "redo.statement.execution_mode": mode })), (batches) => new Arrow.Table(batches).toArray().map((r) => r.toJSON())))

describe("CHAR / NCHAR columns through the driver", () => {
  for (const mode of ["row", "batch"]) {
    it.effect(`ingested text is stored blank-padded and read back padded (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("CHARS")
        yield* conn.execute(`CREATE TABLE ${t} ("k" NUMBER(5), "c" CHAR(5), "n" NCHAR(3))`)
        const table = new Arrow.Table({
          k: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
          c: Arrow.vectorFromArray(["ab", "ab ", null], new Arrow.Utf8()),
          n: Arrow.vectorFromArray(["é", "x", null], new Arrow.Utf8())
        })
        expect(yield* conn.ingest(fromTable(table), { targetTable: t, mode: "append" })).toBe(3)
        expect(yield* rowsOf(`SELECT "c", "n", REPLACE("c", ' ', '.') AS "shown" FROM ${t} ORDER BY "k"`, mode)).toEqual([
          { c: "ab   ", n: "é  ", shown: "ab..." },
          { c: "ab   ", n: "x  ", shown: "ab..." },
          { c: null, n: null, shown: null }
        ])
        expect(yield* rowsOf(`SELECT COUNT(DISTINCT "c") AS "d" FROM ${t}`, mode)).toEqual([{ d: 1 }])
      })))
  }
})
