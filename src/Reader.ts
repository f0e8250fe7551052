/**
 * A query result read as a Stream of Arrow record batches. The server cursor is released when the stream ends, fails
 * or is interrupted, and in any case when the reader's scope closes, which is always before its connection's.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Context, Effect, Stream } from "effect"
import { type AdbcError } from "./AdbcError.ts"
import type { BatchCapMode } from "./Driver.ts"

/**
 * An open result.
 *
 * @category models
 * @since 0.1.0
 */
export interface ReaderShape {
  /** The result schema, known before the first batch. */
  readonly schema: Arrow.Schema
  /**
   * The record batches. Runs once, inside the reader's scope: a second run, or a run after the scope closed, fails
   * INVALID_STATE. The cursor is released when the stream ends, fails or is interrupted.
   */
  readonly batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
  /**
   * Rows the statement affected when it returned no result set (DML, DDL): ADBC ExecuteQuery's `rows_affected`, -1
   * when the database does not say. Absent for a query.
   */
  readonly rowsAffected?: number | undefined
}

/**
 * The reader of the statement that last ran, for programs that provide it as a service.
 *
 * @category services
 * @since 0.1.0
 */
export class Reader extends Context.Service<Reader, ReaderShape>()("effect-adbc/Reader") {}

/**
 * Row cap of each batch.
 *
 * @category models
 * @since 0.1.0
 */
export interface BatchCap {
  readonly rows: number
  readonly mode: BatchCapMode
  /** Approximate bytes per batch; 0 for none. */
  readonly bytes: number
}

/**
 * Collects every batch of a reader (convenience for small results and tests).
 *
 * @category destructors
 * @since 0.1.0
 */
export const collect = (reader: ReaderShape): Effect.Effect<Array<Arrow.RecordBatch>, AdbcError> =>
  Stream.runCollect(reader.batches)

/**
 * Collects a reader into one Arrow Table with the reader's schema, so a result without rows still has its columns.
 *
 * @category destructors
 * @since 0.1.0
 */
export const toTable = (reader: ReaderShape): Effect.Effect<Arrow.Table, AdbcError> =>
  Effect.map(collect(reader), (batches) => new Arrow.Table(reader.schema, batches))
