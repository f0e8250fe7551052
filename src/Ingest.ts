/**
 * Bulk ingest of Arrow data into a table, in the four ADBC modes. The core decides what each mode does and keeps the
 * work atomic: a failed ingest leaves no partial rows and no half-created table. The driver supplies the type
 * mapping, the DDL text and the insert path.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Context, Effect, Stream } from "effect"
import { type AdbcError } from "./AdbcError.ts"
import * as Std from "./StandardOptions.ts"

/**
 * Arrow data to ingest: a schema and a stream of batches of that schema (possibly empty).
 *
 * @category models
 * @since 0.1.0
 */
export interface IngestData {
  readonly schema: Arrow.Schema
  readonly batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
}

/**
 * Ingest data from an in-memory Arrow table.
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromTable = (table: Arrow.Table): IngestData => ({
  schema: table.schema,
  batches: Stream.fromIterable(table.batches)
})

/**
 * Typed ingest settings; each maps to its `adbc.ingest.*` key.
 *
 * @category models
 * @since 0.1.0
 */
export interface IngestOptions {
  readonly targetTable: string
  readonly mode?: "create" | "append" | "replace" | "create_append" | undefined
  readonly targetDbSchema?: string | undefined
  readonly targetCatalog?: string | undefined
  readonly temporary?: boolean | undefined
}

/**
 * The ADBC key/value form of {@link IngestOptions}, for the statement API (`Connection.ingest` passes them typed).
 *
 * @category conversions
 * @since 0.1.0
 */
export const ingestOptionEntries = (options: IngestOptions): Record<string, string> => ({
  [Std.IngestTargetTable.key]: options.targetTable,
  ...(options.mode !== undefined ? { [Std.IngestMode.key]: `adbc.ingest.mode.${options.mode}` } : {}),
  ...(options.targetDbSchema !== undefined ? { [Std.IngestTargetDbSchema.key]: options.targetDbSchema } : {}),
  ...(options.targetCatalog !== undefined ? { [Std.IngestTargetCatalog.key]: options.targetCatalog } : {}),
  ...(options.temporary !== undefined ? { [Std.IngestTemporary.key]: String(options.temporary) } : {})
})

/**
 * Bulk ingest on a connection, as a service.
 *
 * @category services
 * @since 0.1.0
 */
export class Ingest extends Context.Service<Ingest, {
  /** Ingests `data`; returns the number of rows inserted. */
  readonly ingest: (data: IngestData, options: IngestOptions) => Effect.Effect<number, AdbcError>
}>()("effect-adbc/Ingest") {}

