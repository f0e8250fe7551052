/**
 * The steps of the main job that need nothing but a {@link Connection}: each is one Effect program that runs
 * unchanged on the HANA Layer and on the Oracle Layer (the job provides one or the other).
 */
import type * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { ObjectDepth } from "../../src/catalog/index.ts"
import { Connection } from "../../src/Connection.ts"
import type { IngestData, IngestOptions } from "../../src/Ingest.ts"
import { rowsOf } from "../cells.ts"
import { type Progress, type StepFigures, tracked } from "../progress.ts"
import { ChecksumAccumulator, type ResultChecksum } from "./checksum.ts"

/** Quotes an identifier for either database (both take ANSI double quotes). */
export const quote = (name: string): string => `"${name.replaceAll(`"`, `""`)}"`

/** Ingests `data` into `table`, counting its batches as the step `step`. */
export const ingestStep = (
  step: string,
  data: IngestData,
  options: IngestOptions & { readonly totalRows?: number | undefined; readonly onFinish: (figures: StepFigures) => void }
): Effect.Effect<number, AdbcError, Connection | Progress> =>
  Effect.flatMap(Connection, (conn) => conn.ingest(data, options)).pipe(
    tracked(step, { ...options, operation: "ingest" })
  )

/** What {@link verifyStep} found. */
export interface Verified {
  /** `SELECT COUNT(*)`. */
  readonly count: number
  /** Every row streamed through the checksum. */
  readonly checksum: ResultChecksum
}

/** Counts the rows of `table` and streams all of `columns` through the order-independent checksum. */
export const verifyStep = (
  step: string,
  table: string,
  columns: ReadonlyArray<string>,
  options: { readonly totalRows?: number | undefined; readonly onFinish: (figures: StepFigures) => void }
): Effect.Effect<Verified, AdbcError, Connection | Progress> =>
  Effect.gen(function*() {
    const conn = yield* Connection
    const counted = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM ${quote(table)}`))
    const cell = counted[0]?.getChildAt(0)?.get(0) as unknown
    if (cell === undefined || cell === null) return yield* adbcError("INTERNAL", `COUNT(*) of ${table} returned no row`)
    const accumulator = new ChecksumAccumulator()
    yield* conn.query(`SELECT ${columns.map(quote).join(", ")} FROM ${quote(table)}`).pipe(
      Stream.runForEach((batch) => Effect.sync(() => accumulator.add(batch))),
      tracked(step, { ...options, operation: "fetch" })
    )
    return { count: Number(cell), checksum: accumulator.result() }
  })

/** A table GetObjects listed. */
export interface ListedTable {
  readonly catalog: string | null
  readonly dbSchema: string | null
  readonly table: string
  readonly type: string
  readonly columns: number
}

/** The tables matching `pattern` (with their column counts), through GetObjects. */
export const listTables = (pattern: string): Effect.Effect<Array<ListedTable>, AdbcError, Connection> =>
  Effect.gen(function*() {
    const conn = yield* Connection
    const batch = yield* conn.getObjects({ depth: ObjectDepth.ALL, tableName: pattern })
    return flattenObjects(batch)
  })

/** GetObjects' nested result as one entry per table. */
export const flattenObjects = (batch: Arrow.RecordBatch): Array<ListedTable> => {
  const out: Array<ListedTable> = []
  for (const catalog of rowsOf(batch)) {
    for (const schema of rowsOf(catalog["catalog_db_schemas"])) {
      for (const table of rowsOf(schema["db_schema_tables"])) {
        out.push({
          catalog: (catalog["catalog_name"] as string | null) ?? null,
          dbSchema: (schema["db_schema_name"] as string | null) ?? null,
          table: String(table["table_name"]),
          type: String(table["table_type"]),
          columns: rowsOf(table["table_columns"]).length
        })
      }
    }
  }
  return out
}
