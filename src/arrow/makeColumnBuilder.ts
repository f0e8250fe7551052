/**
 * Chooses the column builder for an Arrow type or field.
 */
import { DataType, type Field, IntervalUnit, Precision, Type } from "apache-arrow"
import { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
import type { ColumnBuilder, ColumnBuilderOptions } from "./ColumnBuilder.ts"
import { DecimalBuilder } from "./DecimalBuilder.ts"
import {
  BoolBuilder,
  Float32Builder,
  Float64Builder,
  Int16Builder,
  Int32Builder,
  Int64Builder,
  Int8Builder,
  Uint16Builder,
  Uint32Builder,
  Uint64Builder,
  Uint8Builder
} from "./FixedWidthBuilders.ts"
import { IntervalDayTimeBuilder, IntervalMonthDayNanoBuilder } from "./IntervalBuilders.ts"
import { NullBuilder } from "./NullBuilder.ts"
import { LargeVarBinaryBuilder, VarBinaryBuilder } from "./VarBinaryBuilders.ts"

/**
 * Returns a builder for `type`. Supported: null, bool, int8..int64, uint8..uint64, float32/64, decimal128/256,
 * date32/date64, time32/time64, timestamp (any unit, any time zone), duration, the three interval units, utf8,
 * binary, large_utf8, large_binary. Anything else throws {@link ArrowAssemblyError}.
 *
 * Extension types (arrow.json, arrow.opaque, …) are plain storage types with field metadata in apache-arrow, so
 * they are built by their storage type's builder.
 */
export const makeColumnBuilder = (type: DataType, options: ColumnBuilderOptions = {}): ColumnBuilder => {
  // Each branch narrows `type` through apache-arrow's own type guards.
  switch (type.typeId) {
    case Type.Null:
      if (DataType.isNull(type)) return new NullBuilder(type, options)
      break
    case Type.Bool:
      if (DataType.isBool(type)) return new BoolBuilder(type, options)
      break
    case Type.Int:
      if (DataType.isInt(type)) {
        const t = type as never
        switch (type.bitWidth) {
          case 8:
            return type.isSigned ? new Int8Builder(t, options) : new Uint8Builder(t, options)
          case 16:
            return type.isSigned ? new Int16Builder(t, options) : new Uint16Builder(t, options)
          case 32:
            return type.isSigned ? new Int32Builder(t, options) : new Uint32Builder(t, options)
          case 64:
            return type.isSigned ? new Int64Builder(t, options) : new Uint64Builder(t, options)
        }
      }
      break
    case Type.Float:
      if (DataType.isFloat(type)) {
        if (type.precision === Precision.SINGLE) return new Float32Builder(type as never, options)
        if (type.precision === Precision.DOUBLE) return new Float64Builder(type as never, options)
      }
      break
    case Type.Decimal:
      if (DataType.isDecimal(type)) return new DecimalBuilder(type, options)
      break
    case Type.Date:
      if (DataType.isDate(type)) {
        return type.ArrayType === Int32Array ? new Int32Builder(type, options) : new Int64Builder(type, options)
      }
      break
    case Type.Time:
      if (DataType.isTime(type)) {
        return type.bitWidth === 32 ? new Int32Builder(type, options) : new Int64Builder(type, options)
      }
      break
    case Type.Timestamp:
      if (DataType.isTimestamp(type)) return new Int64Builder(type, options)
      break
    case Type.Duration:
      if (DataType.isDuration(type)) return new Int64Builder(type, options)
      break
    case Type.Interval:
      if (DataType.isInterval(type)) {
        if (type.unit === IntervalUnit.YEAR_MONTH) return new Int32Builder(type as never, options)
        if (type.unit === IntervalUnit.DAY_TIME) return new IntervalDayTimeBuilder(type as never, options)
        if (type.unit === IntervalUnit.MONTH_DAY_NANO) return new IntervalMonthDayNanoBuilder(type as never, options)
      }
      break
    case Type.Utf8:
    case Type.Binary:
      if (DataType.isUtf8(type) || DataType.isBinary(type)) return new VarBinaryBuilder(type, options)
      break
    case Type.LargeUtf8:
    case Type.LargeBinary:
      if (DataType.isLargeUtf8(type) || DataType.isLargeBinary(type)) return new LargeVarBinaryBuilder(type, options)
      break
  }
  throw new ArrowAssemblyError(`Arrow type ${type} is not supported by the batch assembler`, options.name)
}

/** Returns a builder for a schema field, named after it. */
export const makeFieldBuilder = (field: Field, options: Omit<ColumnBuilderOptions, "name"> = {}): ColumnBuilder =>
  makeColumnBuilder(field.type, { ...options, name: field.name })
