/**
 * Arrow batch assembly: column builders that write Arrow buffers directly, exact decimal conversion, and the
 * batch assembler that cuts fetched pages into RecordBatches under a row cap.
 */
export { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
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
  writeDecimalWords
} from "./Decimal.ts"
export { DecimalBuilder } from "./DecimalBuilder.ts"
export {
  BoolBuilder,
  type DayTimeInterval,
  Float32Builder,
  Float64Builder,
  FixedWidthBuilder,
  Int16Builder,
  Int32Builder,
  type Int32StoredType,
  Int64Builder,
  type Int64StoredType,
  Int8Builder,
  IntervalDayTimeBuilder,
  IntervalMonthDayNanoBuilder,
  type MonthDayNanoInterval,
  Uint16Builder,
  Uint32Builder,
  Uint64Builder,
  Uint8Builder
} from "./FixedWidthBuilders.ts"
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
