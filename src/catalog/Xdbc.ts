/**
 * XDBC (JDBC/ODBC) column metadata for GetObjects: type codes, nullability codes, and a ColumnRow derived
 * from an Arrow field for drivers that describe columns through Arrow schemas.
 *
 * The type codes are the JDBC `java.sql.Types` / ODBC SQL type values, as listed in apache/arrow-adbc
 * go/adbc/driver/internal/shared_utils.go (`XdbcDataType_*`); {@link xdbcDataTypeOf} follows that file's
 * `ToXdbcDataType` mapping so our results agree with the Go drivers.
 */
import { type DataType, type Field, Type } from "apache-arrow"
import type { ColumnRow } from "./GetObjects.ts"

/** JDBC/ODBC SQL type codes used in `xdbc_data_type` and `xdbc_sql_data_type`. */
export const XdbcDataType = {
  UNKNOWN_TYPE: 0,
  CHAR: 1,
  NUMERIC: 2,
  DECIMAL: 3,
  INTEGER: 4,
  SMALLINT: 5,
  FLOAT: 6,
  REAL: 7,
  DOUBLE: 8,
  DATETIME: 9,
  INTERVAL: 10,
  VARCHAR: 12,
  DATE: 91,
  TIME: 92,
  TIMESTAMP: 93,
  LONGVARCHAR: -1,
  BINARY: -2,
  VARBINARY: -3,
  LONGVARBINARY: -4,
  BIGINT: -5,
  TINYINT: -6,
  BIT: -7,
  WCHAR: -8,
  WVARCHAR: -9
} as const

/** `xdbc_nullable` values (JDBC `columnNoNulls`, `columnNullable`, `columnNullableUnknown`). */
export const XdbcNullable = {
  NO_NULLS: 0,
  NULLABLE: 1,
  UNKNOWN: 2
} as const

/** The XDBC type code for an Arrow type (Go driverbase `ToXdbcDataType` mapping; dictionaries by value type). */
export const xdbcDataTypeOf = (type: DataType): number => {
  switch (type.typeId) {
    case Type.Dictionary:
      return xdbcDataTypeOf((type as unknown as { dictionary: DataType }).dictionary)
    case Type.Int: {
      const bitWidth = (type as unknown as { bitWidth: number }).bitWidth
      return bitWidth === 8
        ? XdbcDataType.TINYINT
        : bitWidth === 16
        ? XdbcDataType.SMALLINT
        : bitWidth === 32
        ? XdbcDataType.INTEGER
        : XdbcDataType.BIGINT
    }
    case Type.Float:
      return XdbcDataType.FLOAT
    case Type.Decimal:
      return XdbcDataType.DECIMAL
    case Type.Utf8:
    case Type.LargeUtf8:
      return XdbcDataType.VARCHAR
    case Type.Binary:
    case Type.LargeBinary:
    case Type.FixedSizeBinary:
      return XdbcDataType.BINARY
    case Type.Bool:
      return XdbcDataType.BIT
    case Type.Time:
      return XdbcDataType.TIME
    case Type.Date:
      return XdbcDataType.DATE
    case Type.Timestamp:
      return XdbcDataType.TIMESTAMP
    case Type.Union:
    case Type.DenseUnion:
    case Type.SparseUnion:
    case Type.List:
    case Type.FixedSizeList:
    case Type.Struct:
    case Type.Map:
      return XdbcDataType.VARBINARY
    default:
      return XdbcDataType.UNKNOWN_TYPE
  }
}

/** Where a column lives, for {@link columnRowFromField}. */
export interface ColumnLocation {
  readonly catalog: string | null
  readonly schema: string | null
  readonly table: string
}

/**
 * A GetObjects column row from an Arrow field: name, 1-based position, XDBC type codes from the Arrow type,
 * nullability from the field, and `xdbc_type_name` from the field metadata key `typeNameKey` when given
 * (e.g. `"hana.type-name"`). Everything else stays null; pass `extra` to fill more.
 */
export const columnRowFromField = (
  location: ColumnLocation,
  field: Field,
  ordinalPosition: number,
  options: { readonly typeNameKey?: string; readonly extra?: Partial<ColumnRow> } = {}
): ColumnRow => {
  const typeName = options.typeNameKey === undefined ? undefined : field.metadata.get(options.typeNameKey)
  const xdbcType = xdbcDataTypeOf(field.type)
  return {
    ...location,
    name: field.name,
    ordinalPosition,
    xdbcDataType: xdbcType,
    xdbcSqlDataType: xdbcType,
    xdbcTypeName: typeName ?? null,
    xdbcNullable: field.nullable ? XdbcNullable.NULLABLE : XdbcNullable.NO_NULLS,
    xdbcIsNullable: field.nullable ? "YES" : "NO",
    ...options.extra
  }
}
