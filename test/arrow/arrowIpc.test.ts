/**
 * ArrowIpc: a Reader written as an Arrow IPC stream or file, and IPC files, streams and bytes read back as ingest
 * data, through the HANA driver against its test server (what a database returns goes out as IPC, comes back in by
 * ingest, and reads back the same).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Exit, Layer, Stream } from "effect"
import * as Hana from "../../layers/hana/index.ts"
import * as ArrowIpc from "../../src/ArrowIpc.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"

let server: HanaTestServerHandle
const dir = mkdtempSync(join(tmpdir(), "adbc-ipc-"))

beforeAll(async () => {
  server = await startHanaTestServer()
}, 120_000)
afterAll(async () => {
  await server?.close()
})

const onHana = <A, E>(program: Effect.Effect<A, E, Connection.Connection>) =>
  Effect.runPromise(program.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: server.uri }))))))

const source = new Arrow.Table({
  ID: Arrow.vectorFromArray(Array.from({ length: 25_000 }, (_, i) => i), new Arrow.Int32()),
  NAME: Arrow.vectorFromArray(Array.from({ length: 25_000 }, (_, i) => (i % 7 === 0 ? null : `name ${i} ü`)), new Arrow.Utf8())
})

const rowsOf = (table: Arrow.Table) => table.toArray().map((r) => [Number(r.ID), r.NAME])

describe("ArrowIpc", { timeout: 120_000 }, () => {
  it("writes a query's reader as an IPC file and stream that read back, and ingests them into equal tables", async () => {
    const result = await onHana(Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(fromTable(source), { targetTable: "IPC_SRC", mode: "replace" })
      const query = `SELECT "ID", "NAME" FROM "IPC_SRC" ORDER BY "ID"`
      const asFile = join(dir, "out.arrow")
      const asStream = join(dir, "out.arrows")
      const fileRows = yield* Effect.scoped(Effect.flatMap(conn.executeQuery(query, { "dba.statement.fetch_size": "4000" }), (reader) =>
        ArrowIpc.writeFile(asFile, reader, "file")))
      const streamRows = yield* Effect.scoped(Effect.flatMap(conn.executeQuery(query), (reader) => ArrowIpc.writeFile(asStream, reader, "stream")))
      // Both come back in through ingest, streamed from the files.
      const fromFile = yield* Effect.scoped(Effect.flatMap(ArrowIpc.readFile(asFile), (data) =>
        conn.ingest(data, { targetTable: "IPC_FROM_FILE", mode: "replace" })))
      const fromStream = yield* Effect.scoped(Effect.flatMap(ArrowIpc.readFile(asStream), (data) =>
        conn.ingest(data, { targetTable: "IPC_FROM_STREAM", mode: "replace" })))
      // Bytes in memory and an async iterable of chunks decode too.
      const bytes = yield* Stream.runCollect(ArrowIpc.toBytes({ schema: source.schema, batches: Stream.fromIterable(source.batches) }, "stream"))
      const joined = Buffer.concat(bytes.map((b) => Buffer.from(b)))
      const fromBytes = yield* ArrowIpc.fromBytes(joined)
      const fromChunks = yield* ArrowIpc.fromBytes((async function*() {
        for (const chunk of bytes) yield chunk
      })())
      const back = (table: string) => conn.queryTable(`SELECT "ID", "NAME" FROM "${table}" ORDER BY "ID"`)
      return {
        fileRows,
        streamRows,
        fromFile,
        fromStream,
        file: yield* back("IPC_FROM_FILE"),
        stream: yield* back("IPC_FROM_STREAM"),
        decodedBytes: new Arrow.Table(yield* Stream.runCollect(fromBytes.batches)),
        decodedChunks: new Arrow.Table(yield* Stream.runCollect(fromChunks.batches))
      }
    }))
    expect([result.fileRows, result.streamRows, result.fromFile, result.fromStream]).toEqual([25_000, 25_000, 25_000, 25_000])
    const expected = rowsOf(source)
    expect(rowsOf(result.file)).toEqual(expected)
    expect(rowsOf(result.stream)).toEqual(expected)
    expect(rowsOf(result.decodedBytes)).toEqual(expected)
    expect(rowsOf(result.decodedChunks)).toEqual(expected)
  })

  it("fails IO naming the path for a missing file or a directory, INVALID_DATA for bytes that are not Arrow IPC", async () => {
    const folder = join(dir, "folder.arrow")
    mkdirSync(folder)
    const garbage = join(dir, "garbage.arrow")
    writeFileSync(garbage, "not arrow at all")
    const failure = async (effect: Effect.Effect<unknown, { readonly status: string; readonly message: string }>) => {
      const exit = await Effect.runPromiseExit(effect)
      if (Exit.isSuccess(exit)) throw new Error("expected a failure")
      const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
      return reason?._tag === "Fail" ? [reason.error.status, reason.error.message] : ["defect", String(exit.cause)]
    }
    const read = (path: string) => Effect.scoped(Effect.flatMap(ArrowIpc.readFile(path), (data) => Stream.runDrain(data.batches)))
    expect(await failure(read(join(dir, "missing.arrow")))).toEqual(["IO", expect.stringMatching(/^cannot read .*missing\.arrow: ENOENT/)])
    expect(await failure(read(folder))).toEqual(["IO", expect.stringMatching(/^cannot read .*folder\.arrow: /)])
    expect((await failure(read(garbage)))[0]).toMatch(/^(IO|INVALID_DATA)$/)
    expect(await failure(ArrowIpc.fromBytes(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])))).toEqual([
      "INVALID_DATA",
      expect.stringMatching(/^Arrow IPC data is not Arrow IPC: /)
    ])
  })
})
