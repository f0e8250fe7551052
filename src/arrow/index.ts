/**
 * Arrow batch assembly: column builders that write Arrow buffers directly, exact decimal and temporal conversion,
 * and the batch assembler that cuts fetched pages into RecordBatches under a row cap. No Effect here: these are
 * hot paths; failures throw {@link ArrowAssemblyError}.
 *
 * A driver implements {@link Page} for its fetched pages and decodes straight into the builders:
 *
 * ```ts
 * const assembler = new BatchAssembler(schema, { maxRows: 65536, mode: "hard" })
 * const page: Page = {
 *   appendRows(builders, maxRows) {
 *     const n = Math.min(maxRows, rows.length - position)
 *     const ids = builders[0] as Int64Builder
 *     const names = builders[1] as VarBinaryBuilder<Utf8>
 *     for (let r = position; r < position + n; r++) {
 *       ids.appendNumber(rows[r].id)
 *       if (rows[r].name === null) names.appendNull()
 *       else names.appendString(rows[r].name)
 *     }
 *     position += n
 *     return n
 *   }
 * }
 * const batches = assembler.push(page) // zero or more complete batches
 * const last = assembler.flush()       // remainder at end of results, or undefined
 * ```
 */
export { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
export { ValidityBitmap } from "./Validity.ts"
export { type ByteBudget, rowValueBytes } from "./ByteBudget.ts"
export {
  type BatchAssemblerOptions,
  BatchAssembler,
  type FieldSpec,
  type Page,
  recordBatchOf,
  type RowCapMode,
  schemaOf
} from "./BatchAssembler.ts"
export {
  BaseColumnBuilder,
  type ColumnBuilder,
  type ColumnBuilderOptions,
  dataFromBuffers,
  DEFAULT_INITIAL_CAPACITY,
  grownCapacity
} from "./ColumnBuilder.ts"
export {
  DECIMAL128_MAX_PRECISION,
  DECIMAL256_MAX_PRECISION,
  formatDecimal,
  parseDecimalText,
  readDecimalWords,
  writeDecimalText,
  writeDecimalWords
} from "./Decimal.ts"
export { DecimalBuilder } from "./DecimalBuilder.ts"
export {
  BoolBuilder,
  Float32Builder,
  Float64Builder,
  type FixedArray,
  FixedWidthBuilder,
  Int16Builder,
  Int32Builder,
  type Int32StoredType,
  Int64Builder,
  type Int64StoredType,
  Int8Builder,
  Uint16Builder,
  Uint32Builder,
  Uint64Builder,
  Uint8Builder
} from "./FixedWidthBuilders.ts"
export {
  type DayTimeInterval,
  IntervalDayTimeBuilder,
  IntervalMonthDayNanoBuilder,
  type MonthDayNanoInterval
} from "./IntervalBuilders.ts"
export { makeColumnBuilder, makeFieldBuilder } from "./makeColumnBuilder.ts"
export { NullBuilder } from "./NullBuilder.ts"
export { columnsPage, recordsPage, rowsPage } from "./Pages.ts"
export {
  daysFromCivil,
  parseIsoDate,
  parseIsoTime,
  parseIsoTimestamp,
  type TemporalParts,
  writeSecondsAndNanos
} from "./Temporal.ts"
export { LargeVarBinaryBuilder, VarBinaryBuilder } from "./VarBinaryBuilders.ts"
