/**
 * One statement of `adbc shell`, run as `adbc query` runs it: a result set through the same writer (table, CSV or
 * JSON lines), a statement without one as its status line (`INSERT: 3 rows affected`).
 */
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { ConnectionShape } from "../../src/Connection.ts"
import { statusLine } from "../commands/database.ts"
import { type OutputClosed, type Sink, writeResult } from "../output.ts"

/** The output formats the shell switches between with `\format`. */
export const shellFormats = ["table", "csv", "jsonl"] as const

/** A shell output format. */
export type ShellFormat = (typeof shellFormats)[number]

/** How the shell writes results. */
export interface ShellOutput {
  readonly format: ShellFormat
  readonly maxRows: number
  readonly maxWidth: number
  /** Results and status lines. */
  readonly out: Sink
  /** Status lines of a data format (CSV, JSON lines), kept apart from the data. */
  readonly err: Sink
}

/** Runs `sql` on `conn` and writes what it gave. */
export const runStatement = (
  conn: ConnectionShape,
  sql: string,
  output: ShellOutput
): Effect.Effect<void, AdbcError | OutputClosed> =>
  Effect.scoped(Effect.gen(function*() {
    const reader = yield* conn.executeQuery(sql)
    if (reader.schema.fields.length === 0) {
      yield* Stream.runDrain(reader.batches)
      yield* (output.format === "table" ? output.out : output.err).write(`${statusLine(sql, reader.rowsAffected)}\n`)
      return
    }
    yield* writeResult(output.format, reader.schema, reader.batches, output.out, output)
  }))

/** Writes a table built here (a catalog listing) in the shell's format. */
export const writeTable = (table: Arrow.Table, output: ShellOutput): Effect.Effect<void, AdbcError | OutputClosed> =>
  Effect.asVoid(writeResult(output.format, table.schema, Stream.fromIterable(table.batches), output.out, output))
