/**
 * Shared DuckDB-backed SQL engine of the wire-compatible test servers (see README.md in this folder).
 */
export { Engine, Session } from "./engine.ts"
export { EngineError } from "./errors.ts"
export { BulkInsertError, BulkRows, SealedRows } from "./bulk.ts"
export type { BulkColumn, BulkViolation } from "./bulk.ts"
export type { AppendTarget, Chunk, Cursor, EngineOptions, EngineValue, Outcome, Prepared } from "./engine.ts"
export { chunkColumns, columnInfo } from "./columns.ts"
export type { ColumnInfo, ColumnLayout, ColumnVector } from "./columns.ts"
