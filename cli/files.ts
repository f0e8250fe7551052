/**
 * Files `adbc ingest` reads, as {@link IngestData} streamed in batches: Arrow IPC (file or stream format, told apart
 * by apache-arrow), Parquet (decoded row group by row group into Arrow by parquet-wasm) and CSV or TSV (parsed by
 * csv-parse; column types given with `--column NAME:TYPE` or inferred from the first rows).
 */
import { createReadStream, openAsBlob } from "node:fs"
import { stat } from "node:fs/promises"
import * as Arrow from "apache-arrow"
import { Effect, type Scope, Stream } from "effect"
import type { ParquetFile } from "parquet-wasm"
import { type AdbcError, adbcError, invalidArgument } from "../src/AdbcError.ts"
import { makeFieldBuilder, parseIsoDate, parseIsoTimestamp, recordBatchOf } from "../src/arrow/index.ts"
import * as ArrowIpc from "../src/ArrowIpc.ts"
import type { IngestData } from "../src/Ingest.ts"
import { loadOptionalPeer } from "./peers.ts"
import { messageOf } from "./errors.ts"

/** File formats `adbc ingest` reads. */
export const InputFormats = ["arrow", "parquet", "csv"] as const

/** A file format. */
export type InputFormat = (typeof InputFormats)[number]

/** The format a file name's extension says, if any. */
export const formatOfPath = (path: string): InputFormat | undefined => {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase()
  if (ext === "csv" || ext === "tsv" || ext === "txt") return "csv"
  if (ext === "arrow" || ext === "arrows" || ext === "feather" || ext === "ipc") return "arrow"
  if (ext === "parquet" || ext === "pq") return "parquet"
  return undefined
}

const ioError = (path: string) => (cause: unknown) => adbcError("IO", `cannot read ${path}: ${messageOf(cause)}`)

/** The file's content is not what its format says. */
const dataError = (path: string) => (cause: unknown) => adbcError("INVALID_DATA", `${path}: ${messageOf(cause)}`)

/**
 * Fails IO, in one line naming the path, unless `path` is a readable regular file (or a pipe, such as /dev/stdin):
 * checked before a reader opens it, so a missing file or a directory never reaches a library that reports it badly
 * (parquet-wasm aborts on a directory).
 */
export const checkInputFile = (path: string): Effect.Effect<void, AdbcError> =>
  Effect.tryPromise({ try: () => stat(path), catch: ioError(path) }).pipe(
    Effect.flatMap((info) =>
      info.isDirectory()
        ? Effect.fail(adbcError("IO", `cannot read ${path}: it is a directory, not a file`))
        : Effect.void
    )
  )

/** An Arrow IPC file or stream, batch by batch, open for the current scope: its handle closes with the scope. */
export const readArrow = (path: string): Effect.Effect<IngestData, AdbcError, Scope.Scope> =>
  Effect.andThen(checkInputFile(path), ArrowIpc.readFile(path))

// parquet-wasm is an optional peer dependency of the package (a 5 MB WebAssembly module), loaded only when a Parquet
// file is read.
const parquetModule = loadOptionalPeer("parquet-wasm", "reading Parquet", () => import("parquet-wasm"))

type ParquetModule = Effect.Success<typeof parquetModule>

/** Opens a Parquet file for the current scope: a Blob on the file, read in slices (footer, then row group by row group). */
const openParquet = (parquet: ParquetModule, path: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => openAsBlob(path), catch: ioError(path) }).pipe(
      Effect.flatMap((blob) =>
        Effect.tryPromise({
          try: () => parquet.ParquetFile.fromFile(blob),
          catch: (cause) => adbcError("INVALID_DATA", `${path} is not a readable Parquet file: ${messageOf(cause)}`)
        })
      )
    ),
    (file) => Effect.sync(() => file.free())
  )

/** The file's record batches: each row group decoded by parquet-wasm into Arrow IPC, read back by apache-arrow. */
async function* parquetBatches(file: ParquetFile, batchRows: number): AsyncGenerator<Arrow.RecordBatch> {
  const stream = (await file.stream({ batchSize: batchRows })) as unknown as AsyncIterable<{ intoIPCStream(): Uint8Array }>
  for await (const batch of stream) yield* Arrow.tableFromIPC(batch.intoIPCStream()).batches
}

/**
 * A Parquet file, streamed row group by row group in batches of at most `batchRows` rows (never the whole file in
 * memory). Its Arrow schema is the one parquet-wasm derives from the Parquet schema (logical types: DECIMAL to
 * decimal128, DATE to date32, TIMESTAMP to timestamp, STRING to utf8, …).
 */
export const readParquet = (path: string, options: { readonly batchRows: number }): Effect.Effect<IngestData, AdbcError> =>
  Effect.gen(function*() {
    yield* checkInputFile(path)
    const parquet = yield* parquetModule
    const schema = yield* Effect.scoped(Effect.flatMap(openParquet(parquet, path), (file) =>
      Effect.try({
        try: () => Arrow.tableFromIPC(file.schema().intoIPCStream()).schema,
        catch: dataError(path)
      })))
    const batches = Stream.unwrap(Effect.map(openParquet(parquet, path), (file) =>
      Stream.fromAsyncIterable(parquetBatches(file, options.batchRows), dataError(path))))
    return { schema, batches }
  })

/** Column types CSV columns can be given or inferred as. */
export const CsvTypes: Record<string, () => Arrow.DataType> = {
  int32: () => new Arrow.Int32(),
  int64: () => new Arrow.Int64(),
  float64: () => new Arrow.Float64(),
  bool: () => new Arrow.Bool(),
  date: () => new Arrow.DateDay(),
  timestamp: () => new Arrow.TimestampMicrosecond(),
  utf8: () => new Arrow.Utf8()
}

const DECIMAL_TYPE = /^decimal\((\d+),\s*(\d+)\)$/i

/** The Arrow type of a `--column NAME:TYPE` type name (`int64`, `decimal(15,2)`, …), or a message naming the accepted ones. */
export const csvType = (name: string): Arrow.DataType | string => {
  const decimal = DECIMAL_TYPE.exec(name)
  if (decimal !== null) return new Arrow.Decimal(Number(decimal[2]), Number(decimal[1]), 128)
  const make = CsvTypes[name.toLowerCase()]
  return make !== undefined ? make() : `unknown column type ${name}; accepted: ${Object.keys(CsvTypes).join(", ")}, decimal(P,S)`
}

const INTEGER = /^[+-]?\d+$/
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?$/
const BOOLEAN = /^(true|false)$/i

/** A CSV field as read: its text, or null for the NULL marker. */
type CsvField = string | null

/** The narrowest type holding every non-empty sample value (text when none is non-empty). */
const inferType = (values: ReadonlyArray<CsvField>): Arrow.DataType => {
  const present = values.filter((v): v is string => v !== null && v !== "")
  const all = (re: RegExp) => present.length > 0 && present.every((v) => re.test(v))
  if (all(INTEGER)) {
    return present.every((v) => Math.abs(Number(v)) <= 2_147_483_647) ? new Arrow.Int32() : new Arrow.Int64()
  }
  if (all(NUMBER)) return new Arrow.Float64()
  if (all(DATE)) return new Arrow.DateDay()
  if (all(TIMESTAMP)) return new Arrow.TimestampMicrosecond()
  if (all(BOOLEAN)) return new Arrow.Bool()
  return new Arrow.Utf8()
}

/** A converter from CSV text to what the column's builder appends; throws a message naming what was wrong. */
const converter = (type: Arrow.DataType): (text: string) => unknown => {
  const parts = { seconds: 0, nanos: 0 }
  if (Arrow.DataType.isInt(type)) {
    return type.bitWidth === 64
      ? (t) => {
        if (!INTEGER.test(t)) throw new Error("expected an integer")
        return BigInt(t)
      }
      : (t) => {
        if (!INTEGER.test(t)) throw new Error("expected an integer")
        return Number(t)
      }
  }
  if (Arrow.DataType.isFloat(type)) {
    return (t) => {
      if (!NUMBER.test(t)) throw new Error("expected a number")
      return Number(t)
    }
  }
  if (Arrow.DataType.isBool(type)) {
    return (t) => {
      if (!BOOLEAN.test(t)) throw new Error("expected true or false")
      return t.toLowerCase() === "true"
    }
  }
  if (Arrow.DataType.isDate(type)) return (t) => parseIsoDate(t)
  if (Arrow.DataType.isTimestamp(type)) {
    return (t) => {
      parseIsoTimestamp(t.endsWith("Z") ? t.slice(0, -1) : t, parts)
      return BigInt(parts.seconds) * 1_000_000n + BigInt(Math.floor(parts.nanos / 1000))
    }
  }
  return (t) => t
}

// csv-parse is an optional peer dependency of the package, loaded only when a CSV file is read.
const csvParser = loadOptionalPeer("csv-parse", "reading CSV", () => import("csv-parse"))

type CsvModule = Effect.Success<typeof csvParser>

/**
 * The file's records as csv-parse reads them. A read error of the file (missing, a directory, unreadable) is passed
 * into the parser, so it fails the records' iteration instead of being an unhandled 'error' event that ends Node.
 */
const csvRecords = (csv: CsvModule, path: string, delimiter: string, nullText: string) => {
  // NULL is an unquoted field equal to the marker (empty by default); a quoted one, `""` included, is text.
  const parser = csv.parse({
    bom: true,
    delimiter,
    skip_empty_lines: true,
    relax_column_count: false,
    cast: (value, context) => (!context.quoting && value === nullText ? null : value)
  })
  const file = createReadStream(path)
  file.once("error", (error) => parser.destroy(error))
  parser.once("close", () => file.destroy())
  return file.pipe(parser)
}

/** The field delimiter of a delimited text file, by its extension: a tab for `.tsv`, else a comma. */
export const delimiterOfPath = (path: string): string => (/\.tsv$/i.test(path) ? "\t" : ",")

/** A `--delimiter` as typed: `\t` (backslash and t, as a shell passes `'\t'`) or `tab` mean a tab. */
export const delimiterOfFlag = (typed: string): string => (typed === "\\t" || typed.toLowerCase() === "tab" ? "\t" : typed)

/** Delimiters a header line that parsed to one field most likely uses instead. */
const LIKELY_DELIMITERS = [["\t", "a tab", "'\\t'"], [";", "a ';'", "';'"], ["|", "a '|'", "'|'"]] as const

/**
 * Why a header line of one field looks like a file split on another delimiter (it holds a tab, `;` or `|`), naming
 * the `--delimiter` to pass; undefined when it does not.
 */
const misdelimited = (path: string, header: ReadonlyArray<string>): string | undefined => {
  const field = header.length === 1 ? header[0]! : ""
  const found = LIKELY_DELIMITERS.find(([char]) => field.includes(char))
  const usual = delimiterOfPath(path) === "\t" ? "'\\t'" : "','"
  return found === undefined ? undefined :
    `${path}: its header line is one field holding ${found[1]} (${JSON.stringify(field)}): ` +
    `pass --delimiter ${found[2]}${found[0] === "\t" ? " (or name the file .tsv)" : ""}, ` +
    `or --delimiter ${usual} if it really is one column`
}

/** A csv-parse error is the file's content (INVALID_DATA with its line); any other is reading the file (IO). */
const csvError = (csv: CsvModule, path: string) => (cause: unknown) =>
  cause instanceof csv.CsvError ? adbcError("INVALID_DATA", `${path}: line ${cause.lines}: ${cause.message}`) : ioError(path)(cause)

/** Options of {@link readCsv}. */
export interface CsvOptions {
  /** Column types by name; the others are inferred. */
  readonly columns: Readonly<Record<string, Arrow.DataType>>
  /** Field delimiter as typed (see {@link delimiterOfFlag}); default {@link delimiterOfPath}. */
  readonly delimiter?: string | undefined
  /** Rows per batch. */
  readonly batchRows: number
  /** Rows read to infer types. */
  readonly sampleRows?: number | undefined
  /**
   * The unquoted field text that means NULL: empty by default, as in PostgreSQL's and DuckDB's CSV, so that `,,` is
   * NULL and `,"",` an empty string.
   */
  readonly nullText?: string | undefined
}

/** A CSV file with a header line: types inferred from its first rows, unless given. */
export const readCsv = (path: string, options: CsvOptions): Effect.Effect<IngestData, AdbcError> =>
  Effect.gen(function*() {
    yield* checkInputFile(path)
    const sampleRows = options.sampleRows ?? 1000
    const nullText = options.nullText ?? ""
    const delimiter = options.delimiter === undefined ? delimiterOfPath(path) : delimiterOfFlag(options.delimiter)
    const csv = yield* csvParser
    const sample = yield* Effect.tryPromise({
      try: async () => {
        const parser = csvRecords(csv, path, delimiter, nullText)
        const rows: Array<Array<CsvField>> = []
        for await (const record of parser) {
          rows.push(record as Array<CsvField>)
          if (rows.length > sampleRows) break
        }
        parser.destroy()
        return rows
      },
      catch: csvError(csv, path)
    })
    const header = sample[0]?.map((name) => name ?? nullText)
    if (header === undefined) return yield* invalidArgument(`${path} is empty: a CSV file needs a header line`)
    // A file split on another delimiter parses to one column whose name holds the delimiters: refuse it, not load it.
    const wrongDelimiter = options.delimiter === undefined ? misdelimited(path, header) : undefined
    if (wrongDelimiter !== undefined) return yield* Effect.fail(adbcError("INVALID_DATA", wrongDelimiter))
    for (const name of Object.keys(options.columns)) {
      if (!header.includes(name)) return yield* invalidArgument(`--column ${name}: ${path} has no such column; its columns: ${header.join(", ")}`)
    }
    const schema = new Arrow.Schema(header.map((name, c) =>
      new Arrow.Field(name, options.columns[name] ?? inferType(sample.slice(1).map((row) => row[c] ?? null)), true)
    ))
    const converters = schema.fields.map((f) => converter(f.type))
    let line = 1
    const toBatch = (records: ReadonlyArray<Array<CsvField>>): Effect.Effect<Arrow.RecordBatch, AdbcError> =>
      Effect.try({
        try: () => {
          const builders = schema.fields.map((f) => makeFieldBuilder(f, { initialCapacity: records.length }))
          for (const record of records) {
            line++
            for (let c = 0; c < builders.length; c++) {
              const text = record[c] ?? null
              if (text === null) builders[c]!.appendNull()
              else {
                try {
                  builders[c]!.append(converters[c]!(text))
                } catch (cause) {
                  throw new Error(`line ${line}, column ${header[c]} (${schema.fields[c]!.type}): ${JSON.stringify(text)}: ${(cause as Error).message}`)
                }
              }
            }
          }
          return recordBatchOf(schema, builders.map((b) => b.finish()), records.length)
        },
        catch: (cause) => adbcError("INVALID_DATA", `${path}: ${(cause as Error).message}`)
      })
    const batches = Stream.fromAsyncIterable(csvRecords(csv, path, delimiter, nullText), csvError(csv, path)).pipe(
        Stream.drop(1),
        Stream.map((record) => record as Array<CsvField>),
        Stream.grouped(options.batchRows),
        Stream.mapEffect(toBatch)
      )
    return { schema, batches }
  })
