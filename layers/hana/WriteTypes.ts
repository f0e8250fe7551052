/**
 * The HANA driver's bind / ingest type mapping: the column type an ingest creates for an Arrow field, and which Arrow
 * fields append into an existing column (table in layers/hana/README.md). The read mapping is ReadTypes.ts.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, adbcError, notImplemented } from "../../src/AdbcError.ts"
import { isDateFamily, isNumericFamily, typeFamily } from "../common/TypeFamily.ts"

const unsupportedIngest = (field: Arrow.Field): AdbcError =>
  notImplemented(
    `cannot create a column for field ${JSON.stringify(field.name)} of Arrow type ${field.type}: pre-create the table and use append mode`
  )

/**
 * The column type an automatically created table gets for an Arrow field (layers/hana/README.md, "Queries
 * and types"). Nested and other types fail NOT_IMPLEMENTED with a message
 * saying to pre-create the table and append.
 *
 * Note: ADBC type tables name `DATETIME` for timestamps without a time zone and `DOUBLE PRECISION` for double; HANA's own
 * type names are TIMESTAMP and DOUBLE (its datetime types are DATE, TIME, SECONDDATE and TIMESTAMP; there is no
 * DATETIME: https://learning.sap.com/courses/sap-hana-sql-script-basics-and-advanced-for-sap-hana/creating-and-modifying-tables,
 * https://4js.com/online_documentation/fjs-fgl-3.10.00-manual-html/fgl-topics/c_fgl_odiaghdb_005.html), which are
 * what the DDL uses. Both kinds of timestamps are stored as UTC wall-clock values.
 *
 * @category mapping
 * @since 0.1.0
 */
export const columnTypeFor = (field: Arrow.Field): Result.Result<string, AdbcError> => {
  const t = field.type
  switch (t.typeId) {
    case Arrow.Type.Bool:
      return Result.succeed("BOOLEAN")
    case Arrow.Type.Int: {
      const int = t as Arrow.Int
      if (int.isSigned) {
        return Result.succeed(int.bitWidth <= 16 ? "SMALLINT" : int.bitWidth === 32 ? "INTEGER" : "BIGINT")
      }
      return Result.succeed(
        int.bitWidth === 8 ? "TINYINT" : int.bitWidth === 16 ? "INTEGER" : int.bitWidth === 32 ? "BIGINT" : "DECIMAL(20,0)"
      )
    }
    case Arrow.Type.Float:
      return Result.succeed((t as Arrow.Float).precision === Arrow.Precision.DOUBLE ? "DOUBLE" : "REAL")
    case Arrow.Type.Decimal: {
      const d = t as Arrow.Decimal
      if (d.precision > 38 || d.scale < 0 || d.scale > d.precision) {
        return Result.fail(
          adbcError(
            "NOT_IMPLEMENTED",
            `field ${JSON.stringify(field.name)}: ${t} does not fit HANA's DECIMAL (precision at most 38, 0 <= scale <= precision); pre-create the table and use append mode`
          )
        )
      }
      return Result.succeed(`DECIMAL(${d.precision},${d.scale})`)
    }
    case Arrow.Type.Date:
      return Result.succeed("DATE")
    case Arrow.Type.Time:
      return Result.succeed("TIME")
    case Arrow.Type.Timestamp:
      return Result.succeed("TIMESTAMP")
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.Utf8View:
      return Result.succeed("NVARCHAR(5000)")
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.BinaryView:
    case Arrow.Type.FixedSizeBinary:
      return Result.succeed("VARBINARY(5000)")
    default:
      // Nested, dictionary, interval, duration, null, …
      return Result.fail(unsupportedIngest(field))
  }
}

/**
 * Whether Arrow data of `incoming` can be appended into an existing column read back as `existing` (numbers into
 * numbers, text into text, bytes into bytes, booleans into booleans or numbers, dates/timestamps into each other).
 *
 * @category mapping
 * @since 0.1.0
 */
export const isCompatible = (incoming: Arrow.Field, existing: Arrow.Field): boolean => {
  const a = typeFamily(incoming.type)
  const b = typeFamily(existing.type)
  if (a === "other" || b === "other" || a === "interval" || b === "interval") return false
  if (a === b) return true
  if (isNumericFamily(a) && isNumericFamily(b)) return true
  if (a === "bool" && isNumericFamily(b)) return true
  if (isDateFamily(a) && isDateFamily(b)) return true
  return b === "string" && a !== "binary"
}
