/**
 * `adbc query --format parquet`: a result written as a Parquet file while it streams. Each Arrow batch goes to
 * parquet-wasm (the optional peer the Parquet reader also loads) through Arrow IPC; its streaming writer turns the
 * batches into Parquet bytes (a row group per batch), so memory holds one batch, never the whole result.
 */
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { type AdbcError, adbcError } from "../src/AdbcError.ts"
import { makeFieldBuilder, recordBatchOf } from "../src/arrow/index.ts"
import { loadOptionalPeer } from "./peers.ts"
import { messageOf } from "./errors.ts"

const parquetModule = loadOptionalPeer("parquet-wasm", "writing Parquet", () => import("parquet-wasm"))

const writeError = (cause: unknown) =>
  adbcError("INVALID_ARGUMENT", `cannot write the result as Parquet: ${messageOf(cause)}`)

/** A batch of `schema` without rows: a result that is empty still writes a Parquet file with its columns. */
const emptyBatch = (schema: Arrow.Schema): Arrow.RecordBatch =>
  recordBatchOf(schema, schema.fields.map((field) => makeFieldBuilder(field, { initialCapacity: 0 }).finish()), 0)

/** `batches` of `schema` as the bytes of one Parquet file, produced as the batches arrive. */
export const parquetBytes = (
  schema: Arrow.Schema,
  batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
): Stream.Stream<Uint8Array, AdbcError> =>
  Stream.unwrap(Effect.gen(function*() {
    const parquet = yield* parquetModule
    let seen = false
    const toWasm = (batch: Arrow.RecordBatch) =>
      Effect.try({
        try: () => parquet.Table.fromIPCStream(Arrow.tableToIPC(new Arrow.Table([batch]), "stream")).recordBatches(),
        catch: writeError
      })
    const wasmBatches = batches.pipe(
      Stream.tap(() => Effect.sync(() => void (seen = true))),
      Stream.concat(Stream.suspend(() => (seen ? Stream.empty : Stream.make(emptyBatch(schema))))),
      Stream.mapEffect(toWasm),
      Stream.flattenIterable
    )
    const readable = yield* Stream.toReadableStreamEffect(wasmBatches)
    const bytes = yield* Effect.tryPromise({ try: () => parquet.transformParquetStream(readable), catch: writeError })
    return Stream.fromReadableStream({ evaluate: () => bytes as ReadableStream<Uint8Array>, onError: writeError })
  }))
