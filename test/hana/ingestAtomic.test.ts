import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import type { IngestData } from "../../src/Ingest.ts"
import { failure } from "../support/exits.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// A failed ingest leaves the target exactly as it was. The rules for every driver (each mode, source errors,
// interruption, drops mid-ingest) are in test/conformance; this file keeps what is particular to hdb: a socket
// closed while one EXECUTE is sent in several packets.
const server = useServer()

const contents = (table: string) =>
  withConnection(server.uri, Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const exists = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM SYS.TABLES WHERE TABLE_NAME = '${table}'`))
    if (Number(exists[0]!.getChild("N")!.get(0)) === 0) return "no table"
    const rows = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N, SUM(ID) AS S FROM "${table}"`))
    return `${rows[0]!.getChild("N")!.get(0)} rows, sum ${rows[0]!.getChild("S")!.get(0)}`
  }))

const ingest = (data: IngestData, table: string, mode: "create" | "append" | "replace" | "create_append") =>
  Effect.flatMap(Connection.Connection, (conn) => conn.ingest(data, { targetTable: table, mode }))

describe.skipIf(realHana)("a connection dropped during multi-packet EXECUTEs", () => {
  it.live("20 drops while batches larger than one packet are sent: no process crash, IO, table unchanged", () =>
    Effect.gen(function*() {
      yield* withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.execute(`CREATE TABLE "ATOMIC_BIG" (ID INTEGER, S NVARCHAR(1000))`)
        yield* conn.execute(`INSERT INTO "ATOMIC_BIG" VALUES (7, 'a')`)
        yield* conn.execute(`INSERT INTO "ATOMIC_BIG" VALUES (8, 'b')`)
      }))
      const crashes: Array<unknown> = []
      const onCrash = (e: unknown) => crashes.push(e)
      process.on("uncaughtException", onCrash)
      const text = "x".repeat(600)
      const big = new Arrow.Table({
        ID: Arrow.vectorFromArray(Array.from({ length: 4000 }, (_, i) => i), new Arrow.Int32()),
        S: Arrow.vectorFromArray(Array.from({ length: 4000 }, () => text), new Arrow.Utf8())
      })
      const data: IngestData = { schema: big.schema, batches: Stream.fromIterable([...big.batches, ...big.batches]) }
      for (let run = 0; run < 20; run++) {
        server.server!.faults.dropAfterReplies = 4 + run
        const exit = yield* Effect.exit(withConnection(server.uri, ingest(data, "ATOMIC_BIG", run % 2 === 0 ? "replace" : "append")))
        server.server!.faults.dropAfterReplies = undefined
        if (exit._tag === "Failure") expect(failure(exit).status).toBe("IO")
        yield* Effect.sleep("20 millis")
        expect(yield* contents("ATOMIC_BIG")).toBe("2 rows, sum 15")
      }
      process.off("uncaughtException", onCrash)
      expect(crashes.map(String)).toEqual([])
    }), 120_000)
})
