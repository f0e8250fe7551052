/**
 * The HANA driver's read type mapping (table in layers/hana/README.md), and the wire type codes both directions use;
 * the bind / ingest mapping is WriteTypes.ts.
 *
 * Database → Arrow (result columns and parameters, by the wire type code at data format version 8):
 * BIGINT int64; BINARY/VARBINARY/BSTRING binary; BOOLEAN bool; CHAR/VARCHAR/NCHAR/NVARCHAR/STRING/SHORTTEXT/ALPHANUM
 * string; DATE/DAYDATE date32[day]; DECIMAL/SMALLDECIMAL (and their FIXED8/12/16 wire forms) decimal128; DOUBLE
 * double; INTEGER int32; REAL float; SMALLINT int16; TINYINT uint8 (HANA's TINYINT is unsigned 0..255);
 * TIME/SECONDTIME time64[us]; TIMESTAMP/LONGDATE/SECONDDATE timestamp[us, UTC]; BLOB binary; CLOB/NCLOB/TEXT/BINTEXT
 * string; ST_GEOMETRY/ST_POINT binary WKB with the `geoarrow.wkb` extension type (beyond the driver specification,
 * whose tables do not list spatial types). BIT, JSON, REAL_VECTOR and anything else fail NOT_IMPLEMENTED naming the
 * column.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, notImplemented } from "../../src/AdbcError.ts"
import type { HdbResultColumn } from "./DbTypes.ts"

/** hdb type codes (node_modules/hdb/lib/protocol/common/TypeCode.js). @category constants @since 0.1.0 */
export const TypeCode = {
  TINYINT: 1,
  SMALLINT: 2,
  INT: 3,
  BIGINT: 4,
  DECIMAL: 5,
  REAL: 6,
  DOUBLE: 7,
  CHAR: 8,
  VARCHAR1: 9,
  NCHAR: 10,
  NVARCHAR: 11,
  BINARY: 12,
  VARBINARY: 13,
  DATE: 14,
  TIME: 15,
  TIMESTAMP: 16,
  CLOB: 25,
  NCLOB: 26,
  BLOB: 27,
  BOOLEAN: 28,
  STRING: 29,
  NSTRING: 30,
  LOCATOR: 31,
  NLOCATOR: 32,
  BSTRING: 33,
  VARCHAR2: 35,
  TEXT: 51,
  SHORTTEXT: 52,
  BINTEXT: 53,
  ALPHANUM: 55,
  LONGDATE: 61,
  SECONDDATE: 62,
  DAYDATE: 63,
  SECONDTIME: 64,
  ST_GEOMETRY: 74,
  ST_POINT: 75,
  FIXED16: 76,
  FIXED8: 81,
  FIXED12: 82,
  REAL_VECTOR: 96
} as const

/**
 * The HANA character types and how a result column of each is read (hdb lib/protocol/common/ReadFunction.js): inline
 * text, ALPHANUM's own layout, or a character LOB read through its locator. Reading maps them to Utf8 and binding sends
 * strings to them (Params.ts); BINTEXT, read as text the way hdb reads it, is not one of them: it binds bytes.
 *
 * @category constants
 * @since 0.1.0
 */
export const CHARACTER_TYPES: ReadonlyMap<number, "string" | "alphanum" | "clob"> = new Map([
  [TypeCode.CHAR, "string"],
  [TypeCode.VARCHAR1, "string"],
  [TypeCode.VARCHAR2, "string"],
  [TypeCode.NCHAR, "string"],
  [TypeCode.NVARCHAR, "string"],
  [TypeCode.STRING, "string"],
  [TypeCode.NSTRING, "string"],
  [TypeCode.SHORTTEXT, "string"],
  [TypeCode.ALPHANUM, "alphanum"],
  [TypeCode.CLOB, "clob"],
  [TypeCode.NCLOB, "clob"],
  [TypeCode.NLOCATOR, "clob"],
  [TypeCode.TEXT, "clob"]
])

const TYPE_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(TypeCode).map(([k, v]) => [v, k]))

/** The name of a wire type code (`NVARCHAR`, `FIXED8`, …). @category naming @since 0.1.0 */
export const typeCodeName = (code: number): string => TYPE_NAMES.get(code) ?? `type code ${code}`

/**
 * How a column's cells are laid out on the wire and decoded; one decoder per kind.
 *
 * @category models
 * @since 0.1.0
 */
export type CellKind =
  | "tinyint"
  | "smallint"
  | "int"
  | "bigint"
  | "real"
  | "double"
  | "decimal"
  | "fixed8"
  | "fixed12"
  | "fixed16"
  | "boolean"
  | "string"
  | "alphanum"
  | "binary"
  | "date"
  | "daydate"
  | "time"
  | "secondtime"
  | "timestamp"
  | "longdate"
  | "seconddate"
  | "blob"
  | "clob"

/** Result or parameter column metadata as hdb reports it. @category models @since 0.1.0 */
export interface HanaColumnMetadata {
  readonly name: string
  readonly dataType: number
  readonly length: number
  readonly fraction: number
  readonly nullable: boolean
}

/** A column with its Arrow field and wire decoding. @category models @since 0.1.0 */
export interface MappedColumn {
  readonly field: Arrow.Field
  readonly kind: CellKind
  /** Scale of decimal columns. */
  readonly scale: number
}

/** Arrow timestamp type of every HANA timestamp column. @category constants @since 0.1.0 */
export const TIMESTAMP_TYPE = new Arrow.TimestampMicrosecond("UTC")
/** Arrow time type of every HANA time column. @category constants @since 0.1.0 */
export const TIME_TYPE = new Arrow.TimeMicrosecond()

/**
 * Precision and scale of a floating DECIMAL / SMALLDECIMAL (no declared precision): decimal128(38, 18). Values are
 * stored exactly; one needing more than 18 fractional or 20 integer digits fails INVALID_DATA instead of losing
 * digits (cast it to DECIMAL(p,s) in SQL to choose).
 *
 * @category constants
 * @since 0.1.0
 */
export const FLOATING_DECIMAL = { precision: 38, scale: 18 } as const

/** Field metadata key carrying the HANA wire type name. @category constants @since 0.1.0 */
export const TYPE_NAME_METADATA = "hana.type-name"

/**
 * Field metadata of a spatial column: the GeoArrow extension `geoarrow.wkb` over binary storage (GeoArrow
 * specification, "Extension types"). HANA sends a geometry as WKB without its SRID, and the result metadata carries
 * none, so the extension metadata names no CRS (`{}`).
 */
const GEOARROW_WKB: ReadonlyArray<readonly [string, string]> = [["ARROW:extension:name", "geoarrow.wkb"], ["ARROW:extension:metadata", "{}"]]

const mapped = (
  column: HanaColumnMetadata,
  type: Arrow.DataType,
  kind: CellKind,
  scale = 0,
  extra: ReadonlyArray<readonly [string, string]> = []
): MappedColumn => ({
  field: new Arrow.Field(
    column.name,
    type,
    column.nullable,
    new Map([[TYPE_NAME_METADATA, typeCodeName(column.dataType)], ...extra])
  ),
  kind,
  scale
})

const decimalColumn = (column: HanaColumnMetadata, kind: CellKind): Result.Result<MappedColumn, AdbcError> => {
  // fraction 32767 (or anything above 38) marks a floating decimal.
  if (column.fraction > 38 || column.fraction < 0 || column.length <= 0 || column.length > 38) {
    const { precision, scale } = FLOATING_DECIMAL
    return Result.succeed(mapped(column, new Arrow.Decimal(scale, precision, 128), kind, scale))
  }
  const precision = Math.max(column.length, column.fraction, 1)
  return Result.succeed(mapped(column, new Arrow.Decimal(column.fraction, precision, 128), kind, column.fraction))
}

/**
 * Maps a result or parameter column to Arrow; unsupported types fail NOT_IMPLEMENTED naming the column.
 *
 * @category mapping
 * @since 0.1.0
 */
export const arrowColumn = (column: HanaColumnMetadata): Result.Result<MappedColumn, AdbcError> => {
  const character = CHARACTER_TYPES.get(column.dataType)
  if (character !== undefined) return Result.succeed(mapped(column, new Arrow.Utf8(), character))
  switch (column.dataType) {
    case TypeCode.TINYINT:
      return Result.succeed(mapped(column, new Arrow.Uint8(), "tinyint"))
    case TypeCode.SMALLINT:
      return Result.succeed(mapped(column, new Arrow.Int16(), "smallint"))
    case TypeCode.INT:
      return Result.succeed(mapped(column, new Arrow.Int32(), "int"))
    case TypeCode.BIGINT:
      return Result.succeed(mapped(column, new Arrow.Int64(), "bigint"))
    case TypeCode.REAL:
      return Result.succeed(mapped(column, new Arrow.Float32(), "real"))
    case TypeCode.DOUBLE:
      return Result.succeed(mapped(column, new Arrow.Float64(), "double"))
    case TypeCode.DECIMAL:
      return decimalColumn(column, "decimal")
    case TypeCode.FIXED8:
      return decimalColumn(column, "fixed8")
    case TypeCode.FIXED12:
      return decimalColumn(column, "fixed12")
    case TypeCode.FIXED16:
      return decimalColumn(column, "fixed16")
    case TypeCode.BOOLEAN:
      return Result.succeed(mapped(column, new Arrow.Bool(), "boolean"))
    case TypeCode.BINARY:
    case TypeCode.VARBINARY:
    case TypeCode.BSTRING:
      return Result.succeed(mapped(column, new Arrow.Binary(), "binary"))
    // WKB cells laid out as VARBINARY's (hdb lib/protocol/common/ReadFunction.js reads both as binary)
    case TypeCode.ST_GEOMETRY:
    case TypeCode.ST_POINT:
      return Result.succeed(mapped(column, new Arrow.Binary(), "binary", 0, GEOARROW_WKB))
    case TypeCode.DATE:
      return Result.succeed(mapped(column, new Arrow.DateDay(), "date"))
    case TypeCode.DAYDATE:
      return Result.succeed(mapped(column, new Arrow.DateDay(), "daydate"))
    case TypeCode.TIME:
      return Result.succeed(mapped(column, TIME_TYPE, "time"))
    case TypeCode.SECONDTIME:
      return Result.succeed(mapped(column, TIME_TYPE, "secondtime"))
    case TypeCode.TIMESTAMP:
      return Result.succeed(mapped(column, TIMESTAMP_TYPE, "timestamp"))
    case TypeCode.LONGDATE:
      return Result.succeed(mapped(column, TIMESTAMP_TYPE, "longdate"))
    case TypeCode.SECONDDATE:
      return Result.succeed(mapped(column, TIMESTAMP_TYPE, "seconddate"))
    case TypeCode.BLOB:
    case TypeCode.LOCATOR:
      return Result.succeed(mapped(column, new Arrow.Binary(), "blob"))
    // read as a character LOB, as hdb reads it (ReadFunction.js READ_NCLOB); not in CHARACTER_TYPES as it binds bytes
    case TypeCode.BINTEXT:
      return Result.succeed(mapped(column, new Arrow.Utf8(), "clob"))
    default:
      return Result.fail(
        notImplemented(
          `column ${JSON.stringify(column.name)} has HANA type ${unsupportedName(column.dataType)}, which has no Arrow mapping (BIT, JSON and REAL_VECTOR are unsupported); cast it in SQL`
        )
      )
  }
}

/**
 * The HANA name shown for an unsupported wire type. The test server sends its test-only BIT and JSON types with the
 * REAL_VECTOR code (testkit/hana/types.ts), which the driver does not map either.
 */
const unsupportedName = (code: number): string => (code === TypeCode.REAL_VECTOR ? "REAL_VECTOR (or the test server's BIT/JSON)" : typeCodeName(code))

/**
 * Maps every column, failing on the first unsupported one.
 *
 * @category mapping
 * @since 0.1.0
 */
export const arrowColumns = (
  columns: ReadonlyArray<HanaColumnMetadata>
): Result.Result<Array<MappedColumn>, AdbcError> => {
  const out: Array<MappedColumn> = []
  for (const column of columns) {
    const m = arrowColumn(column)
    if (Result.isFailure(m)) return Result.fail(m.failure)
    out.push(m.success)
  }
  return Result.succeed(out)
}

/** Result columns as {@link HanaColumnMetadata}: display name, nullable when mode has OPTIONAL (2). @category mapping @since 0.1.0 */
export const fromResultMetadata = (columns: ReadonlyArray<HdbResultColumn>): Array<HanaColumnMetadata> =>
  columns.map((c) => ({
    name: c.columnDisplayName ?? c.columnName ?? "",
    dataType: c.dataType,
    length: c.length,
    fraction: c.fraction,
    nullable: (c.mode & 2) !== 0 || (c.mode & 1) === 0
  }))
