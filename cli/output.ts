/**
 * Query results written out as they stream: an aligned table (first rows only, with the row count), CSV, JSON lines,
 * or Arrow IPC (file or stream format). Output goes to stdout or a file, with backpressure.
 */
import { createWriteStream } from "node:fs"
import type { Writable } from "node:stream"
import * as Arrow from "apache-arrow"
import { Effect, Schema, type Scope, Stream } from "effect"
import { type AdbcError, adbcError } from "../src/AdbcError.ts"
import * as ArrowIpc from "../src/ArrowIpc.ts"
import { type Cell, cellText, rowReaders } from "./cells.ts"
import { parquetBytes } from "./parquet-output.ts"
import { CliStdio } from "./stdio.ts"
import { renderTable, truncateToWidth } from "./table.ts"

/** The output formats of `adbc query`. */
export const OutputFormat = Schema.Literals(["table", "csv", "jsonl", "arrow", "arrows", "parquet"])

/** An output format. */
export type OutputFormat = typeof OutputFormat.Type

/**
 * The reader of stdout went away (EPIPE: `adbc query … | head`). The query stops (its server cursor is released with
 * the scope) and `adbc` exits 141 without a message, as a command killed by SIGPIPE does.
 */
export class OutputClosed extends Schema.TaggedError<OutputClosed>()("OutputClosed", {}) {
  override get message(): string {
    return "the reader of stdout closed it"
  }
}

/** Where output goes. */
export interface Sink {
  readonly write: (chunk: string | Uint8Array) => Effect.Effect<void, AdbcError | OutputClosed>
}

const ioError = (what: string) => (cause: unknown) =>
  adbcError("IO", `cannot write ${what}: ${cause instanceof Error ? cause.message : String(cause)}`)

const isBrokenPipe = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === "EPIPE"

/**
 * A sink on a Node writable: waits for 'drain' when its buffer is full. An error the stream reports between two
 * writes (a disk that fills after the last write returned) is kept and fails the next write, never left to Node as an
 * unhandled 'error' event.
 */
const writableSink = (stream: Writable, what: string, pipe: boolean): Sink => {
  let failure: { readonly error: unknown } | undefined
  const toError = (error: unknown) => (pipe && isBrokenPipe(error) ? new OutputClosed() : ioError(what)(error))
  stream.on("error", (error) => void (failure ??= { error }))
  return {
    write: (chunk) =>
      Effect.callback<void, AdbcError | OutputClosed>((resume) => {
        if (failure !== undefined) return resume(Effect.fail(toError(failure.error)))
        const onError = (error: unknown) => resume(Effect.fail(toError(error)))
        stream.once("error", onError)
        const ready = () => {
          stream.off("error", onError)
          resume(Effect.void)
        }
        if (stream.write(chunk)) ready()
        else stream.once("drain", ready)
      })
  }
}

/** stdout, or the file at `path` (created or truncated, closed with the scope). */
export const openSink = (path: string | undefined): Effect.Effect<Sink, AdbcError, Scope.Scope | CliStdio> =>
  path === undefined
    ? Effect.map(CliStdio, (stdio) => writableSink(stdio.stdout, "to stdout", true))
    : Effect.acquireRelease(
      Effect.callback<Writable, AdbcError>((resume) => {
        const file = createWriteStream(path)
        file.once("open", () => resume(Effect.succeed(file)))
        file.once("error", (error) => resume(Effect.fail(ioError(path)(error))))
      }),
      (file) => Effect.callback<void>((resume) => void file.end(() => resume(Effect.void)))
    ).pipe(Effect.map((file) => writableSink(file, path, false)))

/** Options of {@link writeResult}. */
export interface WriteOptions {
  /** Rows the table format shows (the rest are counted). */
  readonly maxRows: number
  /** Widest column of the table format, in display columns. */
  readonly maxWidth: number
  /**
   * How CSV writes NULL: an unquoted empty field by default, as PostgreSQL's and DuckDB's CSV do; an empty string is
   * then written `""`, and a string equal to the marker is quoted too, so the two never meet.
   */
  readonly nullText?: string | undefined
}

/** A CSV field: quoted when it holds a delimiter, quote or line break, or when unquoted it would read as NULL. */
export const csvField = (text: string, nullText: string): string =>
  /[",\r\n]/.test(text) || text === nullText || text === "" ? `"${text.replaceAll(`"`, `""`)}"` : text

/** A CSV cell: NULL as the marker, anything else as {@link csvField}. */
const csvCell = (cell: Cell, nullText: string): string => (cell === null ? nullText : csvField(cellText(cell), nullText))

/** Writes `batches` of `schema` to `sink` in `format`; returns the number of rows. */
export const writeResult = (
  format: OutputFormat,
  schema: Arrow.Schema,
  batches: Stream.Stream<Arrow.RecordBatch, AdbcError>,
  sink: Sink,
  options: WriteOptions
): Effect.Effect<number, AdbcError | OutputClosed> => {
  const names = schema.fields.map((f) => f.name)
  const countRows = (perBatch: (batch: Arrow.RecordBatch) => Effect.Effect<void, AdbcError | OutputClosed>) =>
    Effect.gen(function*() {
      let rows = 0
      yield* Stream.runForEach(batches, (batch) => {
        rows += batch.numRows
        return perBatch(batch)
      })
      return rows
    })
  switch (format) {
    case "csv":
      return Effect.gen(function*() {
        const nullText = options.nullText ?? ""
        yield* sink.write(`${names.map((name) => csvField(name, nullText)).join(",")}\n`)
        return yield* countRows((batch) => {
          const readers = rowReaders(batch)
          let out = ""
          for (let i = 0; i < batch.numRows; i++) out += `${readers.map((read) => csvCell(read(i), nullText)).join(",")}\n`
          return sink.write(out)
        })
      })
    case "jsonl":
      return countRows((batch) => {
        const readers = rowReaders(batch)
        let out = ""
        for (let i = 0; i < batch.numRows; i++) {
          const row: Record<string, Cell> = {}
          for (let c = 0; c < names.length; c++) row[names[c]!] = readers[c]!(i)
          out += `${JSON.stringify(row)}\n`
        }
        return sink.write(out)
      })
    case "arrow":
    case "arrows":
      return Effect.gen(function*() {
        let rows = 0
        const counted = Stream.tap(batches, (batch) => Effect.sync(() => void (rows += batch.numRows)))
        yield* Stream.runForEach(ArrowIpc.toBytes({ schema, batches: counted }, format === "arrow" ? "file" : "stream"), sink.write)
        return rows
      })
    case "parquet":
      return Effect.gen(function*() {
        let rows = 0
        const counted = Stream.tap(batches, (batch) => Effect.sync(() => void (rows += batch.numRows)))
        yield* Stream.runForEach(parquetBytes(schema, counted), sink.write)
        return rows
      })
    case "table":
      return Effect.gen(function*() {
        const shown: Array<Array<string>> = []
        const rows = yield* countRows((batch) =>
          Effect.sync(() => {
            if (shown.length >= options.maxRows) return
            const readers = rowReaders(batch)
            for (let i = 0; i < batch.numRows && shown.length < options.maxRows; i++) {
              shown.push(readers.map((read) => {
                const cell = read(i)
                return cell === null ? "NULL" : truncateToWidth(cellText(cell).replace(/[\r\n\t]/g, " "), options.maxWidth)
              }))
            }
          })
        )
        const numeric = schema.fields.map((f) =>
          Arrow.DataType.isInt(f.type) || Arrow.DataType.isFloat(f.type) || Arrow.DataType.isDecimal(f.type)
        )
        const header = names.map((n) => truncateToWidth(n, options.maxWidth))
        const text = [
          ...renderTable(header, shown, (c) => numeric[c] === true, { separator: " | ", ruleJoint: "-+-" }),
          rows > shown.length
            ? `(${rows.toLocaleString("en-US")} rows; first ${shown.length.toLocaleString("en-US")} shown)`
            : `(${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"})`
        ].join("\n")
        yield* sink.write(`${text}\n`)
        return rows
      })
  }
}
