/**
 * Arrow IPC in and out of the library, streamed batch by batch: a Reader (or any schema and stream of batches) written
 * as an IPC stream or file, and an IPC stream or file read as {@link IngestData} for `Connection.ingest`. The IPC
 * format is apache-arrow's; these only connect it to Effect streams, scopes and typed errors.
 *
 * @since 0.1.0
 */
import { createWriteStream } from "node:fs"
import { open } from "node:fs/promises"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, type Scope, Stream } from "effect"
import { type AdbcError, adbcError } from "./AdbcError.ts"
import type { IngestData } from "./Ingest.ts"

/**
 * The two Arrow IPC formats: `stream` (batches one after another, readable as they arrive) and `file` (the same with
 * a footer that indexes the batches; Feather v2).
 *
 * @category models
 * @since 0.1.0
 */
export type IpcFormat = "stream" | "file"

/**
 * Batches and their schema, what a Reader or {@link IngestData} holds.
 *
 * @category models
 * @since 0.1.0
 */
export interface Batches {
  readonly schema: Arrow.Schema
  readonly batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
}

const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/**
 * `data` as Arrow IPC bytes in `format`, produced as the batches arrive (one batch at a time in memory). Each chunk is
 * emitted once the writer has it; the stream ends after the end-of-stream marker (stream) or the footer (file).
 *
 * @category encoding
 * @since 0.1.0
 */
export const toBytes = (data: Batches, format: IpcFormat): Stream.Stream<Uint8Array, AdbcError> =>
  Stream.unwrap(Effect.sync(() => {
    const writer = format === "file" ? new Arrow.RecordBatchFileWriter() : new Arrow.RecordBatchStreamWriter()
    writer.reset(undefined, data.schema)
    const write = Stream.runForEach(data.batches, (batch) => Effect.sync(() => void writer.write(batch))).pipe(
      Effect.onExit(() => Effect.sync(() => void writer.close()))
    )
    // The writer is an async iterable of the bytes written so far; the batches are written by a fiber of their own.
    return Stream.unwrap(Effect.map(Effect.forkScoped(write), (writing) =>
      Stream.fromAsyncIterable(writer, (cause) => adbcError("IO", `cannot encode Arrow IPC: ${messageOf(cause)}`)).pipe(
        Stream.concat(Stream.fromEffectDrain(Fiber.join(writing)))
      )))
  }))

/**
 * Writes `data` to the file at `path` (created or truncated) as Arrow IPC in `format`; returns the rows written. A
 * failure of the batches or of the file fails the effect (the file is then incomplete).
 *
 * @category encoding
 * @since 0.1.0
 */
export const writeFile = (path: string, data: Batches, format: IpcFormat): Effect.Effect<number, AdbcError> =>
  Effect.scoped(Effect.gen(function*() {
    const file = yield* Effect.acquireRelease(
      Effect.callback<ReturnType<typeof createWriteStream>, AdbcError>((resume) => {
        const stream = createWriteStream(path)
        stream.once("open", () => resume(Effect.succeed(stream)))
        stream.once("error", (error) => resume(Effect.fail(adbcError("IO", `cannot write ${path}: ${error.message}`))))
      }),
      (stream) => Effect.callback<void>((resume) => void stream.end(() => resume(Effect.void)))
    )
    let rows = 0
    const counted = { schema: data.schema, batches: Stream.tap(data.batches, (batch) => Effect.sync(() => void (rows += batch.numRows))) }
    yield* Stream.runForEach(toBytes(counted, format), (chunk) =>
      Effect.callback<void, AdbcError>((resume) => {
        const onError = (error: Error) => resume(Effect.fail(adbcError("IO", `cannot write ${path}: ${error.message}`)))
        file.once("error", onError)
        const done = () => {
          file.off("error", onError)
          resume(Effect.void)
        }
        if (file.write(chunk)) done()
        else file.once("drain", done)
      }))
    return rows
  }))

/**
 * Arrow IPC bytes (either format, told apart by their first bytes) as {@link IngestData}: the schema is read before
 * this succeeds, the batches as the stream is pulled.
 *
 * @category decoding
 * @since 0.1.0
 */
export const fromBytes = (
  source: Uint8Array | AsyncIterable<Uint8Array>,
  what = "Arrow IPC data"
): Effect.Effect<IngestData, AdbcError> =>
  Effect.tryPromise({
    try: async () => {
      const reader = source instanceof Uint8Array
        ? Arrow.RecordBatchReader.from(source)
        : await Arrow.RecordBatchReader.from(toAsyncIterable(source))
      await reader.open()
      return reader
    },
    catch: (cause) => adbcError("INVALID_DATA", `${what} is not Arrow IPC: ${messageOf(cause)}`)
  }).pipe(Effect.map((reader) => ({
    schema: reader.schema,
    batches: Stream.fromAsyncIterable(reader as AsyncIterable<Arrow.RecordBatch>, (cause) =>
      adbcError("INVALID_DATA", `${what}: ${messageOf(cause)}`))
  })))

/** `source` as the async iterable of buffers apache-arrow's reader takes (it wants `Uint8Array<ArrayBuffer>`). */
const toAsyncIterable = (source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array<ArrayBuffer>> => ({
  [Symbol.asyncIterator]: () => source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array<ArrayBuffer>>
})

/**
 * The Arrow IPC file or stream at `path` as {@link IngestData}, read batch by batch; the file is open for the current
 * scope and closed with it. A missing file, a directory or data that is not Arrow IPC fails with IO / INVALID_DATA
 * naming the path.
 *
 * @category decoding
 * @since 0.1.0
 */
export const readFile = (path: string): Effect.Effect<IngestData, AdbcError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => open(path), catch: (cause) => adbcError("IO", `cannot read ${path}: ${messageOf(cause)}`) }),
    (handle) => Effect.promise(() => handle.close().catch(() => undefined))
  ).pipe(
    Effect.flatMap((handle) =>
      Effect.tryPromise({
        try: async () => {
          const reader = await Arrow.RecordBatchReader.from(handle)
          await reader.open()
          return reader
        },
        catch: (cause) => adbcError("IO", `cannot read ${path}: ${messageOf(cause)}`)
      })
    ),
    Effect.map((reader) => ({
      schema: reader.schema,
      batches: Stream.fromAsyncIterable(reader as AsyncIterable<Arrow.RecordBatch>, (cause) =>
        adbcError("INVALID_DATA", `${path}: ${messageOf(cause)}`))
    }))
  )
