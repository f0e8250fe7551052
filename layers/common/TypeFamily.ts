/**
 * The family of an Arrow type, as both drivers' ingest decides whether incoming data may be appended to an existing
 * column (each driver then applies its own rules between families).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"

/** A family of Arrow types. @category models @since 0.1.0 */
export type TypeFamily =
  | "int"
  | "float"
  | "decimal"
  | "bool"
  | "string"
  | "binary"
  | "date"
  | "time"
  | "timestamp"
  | "interval"
  | "other"

/** The family of `type`; nested, dictionary, null and other types are `other`. @category mapping @since 0.1.0 */
export const typeFamily = (type: Arrow.DataType): TypeFamily => {
  switch (type.typeId) {
    case Arrow.Type.Int:
      return "int"
    case Arrow.Type.Float:
      return "float"
    case Arrow.Type.Decimal:
      return "decimal"
    case Arrow.Type.Bool:
      return "bool"
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.Utf8View:
      return "string"
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.BinaryView:
    case Arrow.Type.FixedSizeBinary:
      return "binary"
    case Arrow.Type.Date:
      return "date"
    case Arrow.Type.Time:
      return "time"
    case Arrow.Type.Timestamp:
      return "timestamp"
    case Arrow.Type.Interval:
    case Arrow.Type.Duration:
      return "interval"
    default:
      return "other"
  }
}

/** Whether a family holds numbers (integers, floats, decimals). @category mapping @since 0.1.0 */
export const isNumericFamily = (family: TypeFamily): boolean =>
  family === "int" || family === "float" || family === "decimal"

/** Whether a family holds calendar dates (dates, timestamps). @category mapping @since 0.1.0 */
export const isDateFamily = (family: TypeFamily): boolean => family === "date" || family === "timestamp"
