/**
 * The HANA ingest fast path over real sockets (hdb against the test server): it stores exactly what hdb's own
 * prepared batch insert stores, for random Arrow data of every ingested type; its log says which path ran; a
 * batch larger than one packet is split by the packet's measured size; fallbacks still work.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { makeRecorder } from "../telemetry/support.ts"
import { batchOf, built, cases } from "./ingestArbitraries.ts"
import { rawInsert, rowsOf } from "./rawInsert.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

describe("the ingest fast path stores what hdb's own batch insert stores", () => {
  it("random Arrow data of every ingested type, nulls and edge values included", async () => {
    const columns = fc.tuple(...cases.map((c) => c.column))
    await fc.assert(
      fc.asyncProperty(columns, async (generated) => {
        const n = Math.min(...generated.map((g) => g.data.length))
        const data: Record<string, Arrow.Data> = { ID: built(new Arrow.Int32(), Array.from({ length: n }, (_, i) => i)) }
        generated.forEach((g, i) => {
          data[`C${i}`] = g.data.slice(0, n)
        })
        const batch = batchOf(data)
        const [fast, slow] = [uniqueName("ENC"), uniqueName("HDB")]
        const recorder = makeRecorder()
        await Effect.runPromise(
          withConnection(
            server.uri,
            Effect.gen(function*() {
              const conn = yield* Connection.Connection
              expect(yield* conn.ingest(fromTable(new Arrow.Table([batch])), { targetTable: fast })).toBe(n)
              // The same column types for hdb's insert: an ingest of no rows creates them.
              yield* conn.ingest(fromTable(new Arrow.Table([batch.slice(0, 0)])), { targetTable: slow })
            })
          ).pipe(Effect.provide(recorder.layer))
        )
        expect(recorder.logs.some((l) => l.annotations["hana.ingest.path"] === "encoded")).toBe(true)
        await rawInsert(server.uri, slow, batch)
        const [ours, theirs] = await Effect.runPromise(
          withConnection(server.uri, Effect.all([rowsOf(fast), rowsOf(slow)]))
        )
        expect(ours).toHaveLength(n)
        expect(ours).toEqual(theirs)
      }),
      { numRuns: 8 }
    )
  }, 300_000)
})

describe("which path ran", () => {
  it.effect("a batch of the encoded types logs hana.ingest.path=encoded; an NCLOB column logs hdb and is stored alike", () => {
    const recorder = makeRecorder()
    return withConnection(
      server.uri,
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const text = ["a", "ä€😀", ""]
        const table = new Arrow.Table({
          ID: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
          T: Arrow.vectorFromArray(text, new Arrow.Utf8())
        })
        const encoded = uniqueName("PATH_ENC")
        yield* conn.ingest(fromTable(table), { targetTable: encoded })
        const lob = uniqueName("PATH_LOB")
        yield* conn.execute(`CREATE TABLE "${lob}" ("ID" INTEGER, "T" NCLOB)`)
        yield* conn.ingest(fromTable(table), { targetTable: lob, mode: "append" })
        const paths = recorder.logs.map((l) => l.annotations["hana.ingest.path"]).filter((p) => p !== undefined)
        expect(paths).toEqual(["encoded", "hdb"])
        const fallback = recorder.logs.find((l) => l.annotations["hana.ingest.path"] === "hdb")!
        expect(fallback.message).toContain(`column 2 ("T"): NCLOB parameters`)
        for (const t of [encoded, lob]) {
          const rows = yield* Stream.runCollect(conn.query(`SELECT "T" FROM "${t}" ORDER BY "ID"`))
          expect(new Arrow.Table([...rows]).getChild("T")!.toArray()).toEqual(text)
        }
      })
    ).pipe(Effect.provide(recorder.layer))
  })
})

describe("parts split by measured packet size", () => {
  it.effect("rows of 1–3 KB in one batch span many packets; every row arrives once, in order", () =>
    withConnection(
      server.uri,
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const n = 2_000
        const texts = Array.from({ length: n }, (_, i) => `${i}:`.padEnd(1000 + (i * 7919) % 2000, String.fromCharCode(97 + (i % 26))))
        const table = new Arrow.Table({
          ID: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new Arrow.Int32()),
          T: Arrow.vectorFromArray(texts, new Arrow.Utf8())
        })
        const t = uniqueName("SPLIT")
        expect(yield* conn.ingest(fromTable(table), { targetTable: t })).toBe(n)
        const rows = yield* Stream.runCollect(conn.query(`SELECT "ID", "T" FROM "${t}" ORDER BY "ID"`))
        const back = new Arrow.Table([...rows])
        expect(back.numRows).toBe(n)
        expect(back.getChild("T")!.toArray()).toEqual(texts)
      })
    ))
})
