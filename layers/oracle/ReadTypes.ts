/**
 * The read type mapping of the Oracle driver: column metadata → Arrow field and cell kind (the bind and ingest
 * direction is WriteTypes.ts). The metadata key constants both directions use live here.
 *
 * Database → Arrow ({@link arrowColumn}): the specification's "database to Arrow" table with the NUMBER rules:
 * 1. NUMBER without precision and scale (also REAL, DOUBLE PRECISION, FLOAT(b) and aggregates) maps per
 *    `redo.query.unbounded_number_type` (double by default, int64 or string);
 * 2. NUMBER(p,0) with p ≤ 18 is always int64;
 * 3. with `redo.use_high_precision` (default) any other bounded NUMBER is decimal128 (p ≤ 38) or decimal256
 *    (p > 38); without it, double;
 * 4. a NUMBER without decimal precision (FLOAT(b) included) is never decimal, whatever `redo.use_high_precision`
 *    says: it follows rule 1.
 * NUMBER(*,s) (scale known, precision not) counts as bounded with precision 38. Every field carries
 * `oracle.type-name` (`NUMBER(10,2)`, `VARCHAR2(20)`, `TIMESTAMP(6) WITH TIME ZONE`, …).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, notImplemented } from "../../src/AdbcError.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import type * as DbTypes from "./DbTypes.ts"
import * as Opt from "./OracleOptions.ts"

/** Field metadata key carrying the Oracle type name. @category constants @since 0.1.0 */
export const TYPE_NAME_METADATA = "oracle.type-name"
/** Bind field metadata key declaring a parameter direction (`in`, `out`, `inout`). @category constants @since 0.1.0 */
export const PARAMETER_TYPE_METADATA = "ORACLE:parameter_type"
/** Arrow's extension name metadata key. @category constants @since 0.1.0 */
export const EXTENSION_NAME = "ARROW:extension:name"
/** Arrow's extension metadata key. @category constants @since 0.1.0 */
export const EXTENSION_METADATA = "ARROW:extension:metadata"
/** The vendor name written into arrow.opaque metadata. @category constants @since 0.1.0 */
export const VENDOR_NAME = "Oracle"

/**
 * The Oracle types the driver tells apart (node-oracledb's `DB_TYPE_*` names without the prefix).
 *
 * @category models
 * @since 0.1.0
 */
export type OracleTypeName =
  | "NUMBER"
  | "BINARY_FLOAT"
  | "BINARY_DOUBLE"
  | "BINARY_INTEGER"
  | "VARCHAR"
  | "NVARCHAR"
  | "CHAR"
  | "NCHAR"
  | "LONG"
  | "LONG_NVARCHAR"
  | "RAW"
  | "LONG_RAW"
  | "CLOB"
  | "NCLOB"
  | "BLOB"
  | "BFILE"
  | "DATE"
  | "TIMESTAMP"
  | "TIMESTAMP_TZ"
  | "TIMESTAMP_LTZ"
  | "INTERVAL_DS"
  | "INTERVAL_YM"
  | "BOOLEAN"
  | "JSON"
  | "ROWID"
  | "UROWID"
  | "OBJECT"
  | "XMLTYPE"
  | "VECTOR"
  | "CURSOR"

/**
 * A result or parameter column as described by the server.
 *
 * @category models
 * @since 0.1.0
 */
export interface OracleColumnMetadata {
  readonly name: string
  readonly type: OracleTypeName
  /** NUMBER precision (0 = none); fractional-second precision of TIMESTAMP and INTERVAL DAY TO SECOND. */
  readonly precision?: number | undefined
  /** NUMBER scale (-127 = floating); leading field precision of intervals. */
  readonly scale?: number | undefined
  /** Maximum size of character and RAW columns (bytes or characters as the server reports). */
  readonly byteSize?: number | undefined
  readonly nullable: boolean
  readonly isJson?: boolean | undefined
  /** Object type name (`SCHEMA.TYPE`) of OBJECT columns; `SDO_GEOMETRY` columns are spatial. */
  readonly objectTypeName?: string | undefined
  /** Whether an object type is a collection (VARRAY / nested table). */
  readonly isCollection?: boolean | undefined
}

/**
 * How a column's values are decoded.
 *
 * @category models
 * @since 0.1.0
 */
export type CellKind =
  | "int64"
  | "float64"
  | "float32"
  | "decimal"
  | "number-string"
  | "string"
  | "binary"
  | "bool"
  | "date32"
  | "date-timestamp"
  | "timestamp"
  | "timestamp-tz"
  | "timestamp-ltz"
  | "interval-ds-daytime"
  | "interval-ds-monthdaynano"
  | "interval-ds-duration"
  | "interval-ds-string"
  | "interval-ym"
  | "interval-ym-monthdaynano"
  | "interval-ym-string"
  | "json"
  | "object-json"
  | "xml"
  | "geometry"
  | "rowid"

/** A column with its Arrow field and decoding. @category models @since 0.1.0 */
export interface MappedColumn {
  readonly field: Arrow.Field
  readonly kind: CellKind
  /** Decimal scale; fractional-second digits of intervals and timestamps. */
  readonly scale: number
}

/**
 * The query options that steer the mapping, already resolved with their defaults.
 *
 * @category models
 * @since 0.1.0
 */
export interface MappingOptions {
  readonly dayTimeInterval: "auto" | "duration" | "monthdaynano" | "string"
  readonly yearMonthInterval: "auto" | "monthdaynano" | "string"
  readonly unboundedNumber: "float64" | "string" | "int64"
  readonly date: "date32" | "timestamp"
  readonly useExtensionType: boolean
  readonly useHighPrecision: boolean
}

/** The mapping when no option is set: each option's declared default (OracleOptions.ts). @category constants @since 0.1.0 */
export const DEFAULT_MAPPING: MappingOptions = {
  dayTimeInterval: Opt.DayTimeIntervalType.default,
  yearMonthInterval: Opt.YearMonthIntervalType.default,
  unboundedNumber: Opt.UnboundedNumberType.default,
  date: Opt.DateType.default,
  useExtensionType: Opt.UseExtensionType.default,
  useHighPrecision: Opt.UseHighPrecision.default
}

const FLOATING_SCALE = -127
/** Leading precision Oracle uses when none is declared (INTERVAL DAY TO SECOND / YEAR TO MONTH). */
const DEFAULT_LEADING = 2
/** Fractional-second precision Oracle uses when none is declared. */
const DEFAULT_FSP = 6

/**
 * The Oracle type name shown in `oracle.type-name`, as Oracle writes the column type.
 *
 * @category naming
 * @since 0.1.0
 */
export const typeNameOf = (c: OracleColumnMetadata): string => {
  const p = c.precision ?? 0
  const s = c.scale ?? 0
  const size = c.byteSize !== undefined && c.byteSize > 0 ? `(${c.byteSize})` : ""
  switch (c.type) {
    case "NUMBER":
      if (s === FLOATING_SCALE) return p === 0 ? "NUMBER" : `FLOAT(${p})`
      if (p === 0) return s === 0 ? "NUMBER" : `NUMBER(*,${s})`
      return s === 0 ? `NUMBER(${p})` : `NUMBER(${p},${s})`
    case "VARCHAR":
      return `VARCHAR2${size}`
    case "NVARCHAR":
      return `NVARCHAR2${size}`
    case "CHAR":
    case "NCHAR":
    case "RAW":
      return `${c.type}${size}`
    case "LONG_RAW":
      return "LONG RAW"
    case "LONG_NVARCHAR":
      return "LONG"
    case "TIMESTAMP":
      return `TIMESTAMP(${c.precision ?? DEFAULT_FSP})`
    case "TIMESTAMP_TZ":
      return `TIMESTAMP(${c.precision ?? DEFAULT_FSP}) WITH TIME ZONE`
    case "TIMESTAMP_LTZ":
      return `TIMESTAMP(${c.precision ?? DEFAULT_FSP}) WITH LOCAL TIME ZONE`
    case "INTERVAL_DS":
      return `INTERVAL DAY(${c.scale ?? DEFAULT_LEADING}) TO SECOND(${c.precision ?? DEFAULT_FSP})`
    case "INTERVAL_YM":
      return `INTERVAL YEAR(${c.scale ?? DEFAULT_LEADING}) TO MONTH`
    case "XMLTYPE":
      return "XMLType"
    case "OBJECT":
      return c.objectTypeName ?? "OBJECT"
    case "BINARY_INTEGER":
      return "PLS_INTEGER"
    default:
      return c.type
  }
}

const fieldOf = (c: OracleColumnMetadata, type: Arrow.DataType, extra: ReadonlyArray<readonly [string, string]> = []) =>
  new Arrow.Field(c.name, type, c.nullable, new Map([[TYPE_NAME_METADATA, typeNameOf(c)], ...extra]))

const col = (
  c: OracleColumnMetadata,
  type: Arrow.DataType,
  kind: CellKind,
  scale = 0,
  extra: ReadonlyArray<readonly [string, string]> = []
): Result.Result<MappedColumn, AdbcError> => Result.succeed({ field: fieldOf(c, type, extra), kind, scale })

const jsonExtension = (o: MappingOptions): ReadonlyArray<readonly [string, string]> =>
  o.useExtensionType ? [[EXTENSION_NAME, "arrow.json"], [EXTENSION_METADATA, ""]] : []

const numberColumn = (c: OracleColumnMetadata, o: MappingOptions): Result.Result<MappedColumn, AdbcError> => {
  const p = c.precision ?? 0
  const s = c.scale ?? 0
  if (s === FLOATING_SCALE) {
    // Rule 1: plain NUMBER and FLOAT(b), REAL, DOUBLE PRECISION (binary precision, no scale) are unbounded; rule 4
    // (no decimal precision: never decimal, whatever use_high_precision says) holds since none of them is decimal.
    switch (o.unboundedNumber) {
      case "int64":
        return col(c, new Arrow.Int64(), "int64")
      case "string":
        return col(c, new Arrow.Utf8(), "number-string")
      default:
        return col(c, new Arrow.Float64(), "float64")
    }
  }
  if (p === 0 && s === 0) {
    // NUMBER described with neither precision nor scale: unbounded (rule 1).
    return numberColumn({ ...c, scale: FLOATING_SCALE }, o)
  }
  const precision = p === 0 ? 38 : p
  if (s === 0 && precision <= 18) return col(c, new Arrow.Int64(), "int64") // rule 2
  if (!o.useHighPrecision) return col(c, new Arrow.Float64(), "float64") // rule 3, high precision off
  if (s < 0) {
    // NUMBER(p,-k): integers with up to p+k digits.
    const digits = precision - s
    if (digits <= 18) return col(c, new Arrow.Int64(), "int64")
    return col(c, new Arrow.Decimal(0, digits, digits > 38 ? 256 : 128), "decimal", 0)
  }
  const width = Math.max(precision, s)
  return col(c, new Arrow.Decimal(s, width, width > 38 ? 256 : 128), "decimal", s)
}

const dayToSecondColumn = (c: OracleColumnMetadata, o: MappingOptions): Result.Result<MappedColumn, AdbcError> => {
  const fsp = c.precision ?? DEFAULT_FSP
  const subMilli = fsp > 3
  switch (o.dayTimeInterval) {
    case "string":
      return col(c, new Arrow.Utf8(), "interval-ds-string", fsp)
    case "monthdaynano":
      return col(c, new Arrow.IntervalMonthDayNano(), "interval-ds-monthdaynano", fsp)
    case "duration": {
      const type = fsp === 0
        ? new Arrow.DurationSecond()
        : fsp <= 3
        ? new Arrow.DurationMillisecond()
        : fsp <= 6
        ? new Arrow.DurationMicrosecond()
        : new Arrow.DurationNanosecond()
      return col(c, type, "interval-ds-duration", fsp)
    }
    default:
      return subMilli
        ? col(c, new Arrow.IntervalMonthDayNano(), "interval-ds-monthdaynano", fsp)
        : col(c, new Arrow.IntervalDayTime(), "interval-ds-daytime", fsp)
  }
}

const yearToMonthColumn = (c: OracleColumnMetadata, o: MappingOptions): Result.Result<MappedColumn, AdbcError> => {
  switch (o.yearMonthInterval) {
    case "string":
      return col(c, new Arrow.Utf8(), "interval-ym-string")
    case "monthdaynano":
      return col(c, new Arrow.IntervalMonthDayNano(), "interval-ym-monthdaynano")
    default:
      return col(c, new Arrow.IntervalYearMonth(), "interval-ym")
  }
}

/** Timestamps with up to 6 fractional digits are microseconds, 7 to 9 nanoseconds. */
const timestampType = (fsp: number, timezone: string | null): Arrow.DataType =>
  fsp > 6 ? new Arrow.TimestampNanosecond(timezone) : new Arrow.TimestampMicrosecond(timezone)

/**
 * Maps a result column to Arrow; types without a mapping (BFILE, VECTOR, cursors) fail NOT_IMPLEMENTED naming the
 * column.
 *
 * @category mapping
 * @since 0.1.0
 */
export const arrowColumn = (
  c: OracleColumnMetadata,
  o: MappingOptions = DEFAULT_MAPPING
): Result.Result<MappedColumn, AdbcError> => {
  switch (c.type) {
    case "NUMBER":
      return numberColumn(c, o)
    case "BINARY_INTEGER":
      return col(c, new Arrow.Int64(), "int64")
    case "BINARY_DOUBLE":
      return col(c, new Arrow.Float64(), "float64")
    case "BINARY_FLOAT":
      return col(c, new Arrow.Float32(), "float32")
    case "VARCHAR":
    case "NVARCHAR":
    case "CHAR":
    case "NCHAR":
      return c.isJson ? col(c, new Arrow.Utf8(), "json", 0, jsonExtension(o)) : col(c, new Arrow.Utf8(), "string")
    case "LONG":
    case "LONG_NVARCHAR":
    case "CLOB":
    case "NCLOB":
      return c.isJson
        ? col(c, new Arrow.LargeUtf8(), "json", 0, jsonExtension(o))
        : col(c, new Arrow.LargeUtf8(), "string")
    case "RAW":
      return col(c, new Arrow.Binary(), "binary")
    case "LONG_RAW":
    case "BLOB":
      return c.isJson
        ? col(c, new Arrow.LargeUtf8(), "json", 0, jsonExtension(o))
        : col(c, new Arrow.LargeBinary(), "binary")
    case "BOOLEAN":
      return col(c, new Arrow.Bool(), "bool")
    case "DATE":
      return o.date === "timestamp"
        ? col(c, new Arrow.TimestampSecond(), "date-timestamp")
        : col(c, new Arrow.DateDay(), "date32")
    case "TIMESTAMP": {
      const fsp = c.precision ?? DEFAULT_FSP
      return col(c, timestampType(fsp, null), "timestamp", fsp)
    }
    case "TIMESTAMP_TZ": {
      const fsp = c.precision ?? DEFAULT_FSP
      return col(c, timestampType(fsp, "UTC"), "timestamp-tz", fsp)
    }
    case "TIMESTAMP_LTZ":
      return col(c, new Arrow.TimestampMicrosecond("UTC"), "timestamp-ltz", c.precision ?? DEFAULT_FSP)
    case "INTERVAL_DS":
      return dayToSecondColumn(c, o)
    case "INTERVAL_YM":
      return yearToMonthColumn(c, o)
    case "JSON":
      // Plain text unless redo.use_extension_type: "With it true they are Arrow string columns carrying the JSON
      // canonical extension type" (the driver specification's extension-type rule 2).
      return col(c, new Arrow.Utf8(), "json", 0, jsonExtension(o))
    case "ROWID":
    case "UROWID":
      return col(c, new Arrow.Utf8(), "rowid")
    case "XMLTYPE":
      return col(c, new Arrow.Utf8(), "xml", 0, o.useExtensionType
        ? [[EXTENSION_NAME, "arrow.opaque"], [
          EXTENSION_METADATA,
          JSON.stringify({ type_name: "XMLType", vendor_name: VENDOR_NAME })
        ]]
        : [])
    case "OBJECT":
      if (/(^|\.)SDO_GEOMETRY$/i.test(c.objectTypeName ?? "")) {
        return col(c, new Arrow.Binary(), "geometry", 0, o.useExtensionType
          ? [[EXTENSION_NAME, "geoarrow.wkb"], [EXTENSION_METADATA, "{}"]]
          : [])
      }
      // OBJECT and VARRAY: extension<arrow.json> in the specification's table, so only with redo.use_extension_type
      return col(c, new Arrow.Utf8(), "object-json", 0, jsonExtension(o))
    default:
      return Result.fail(
        notImplemented(
          `column ${JSON.stringify(c.name)} has Oracle type ${typeNameOf(c)}, which has no Arrow mapping; cast it in SQL`
        )
      )
  }
}

/**
 * Maps every column, failing on the first unsupported one.
 *
 * @category mapping
 * @since 0.1.0
 */
export const arrowColumns = (
  columns: ReadonlyArray<OracleColumnMetadata>,
  o: MappingOptions = DEFAULT_MAPPING
): Result.Result<Array<MappedColumn>, AdbcError> => {
  const out: Array<MappedColumn> = []
  for (const c of columns) {
    const m = arrowColumn(c, o)
    if (Result.isFailure(m)) return Result.fail(m.failure)
    out.push(m.success)
  }
  return Result.succeed(out)
}

/** The type mapping options in force. @category options @since 0.1.0 */
export const mappingOptions = (options: ResolvedOptions): MappingOptions => ({
  dayTimeInterval: options.value(Opt.DayTimeIntervalType),
  yearMonthInterval: options.value(Opt.YearMonthIntervalType),
  unboundedNumber: options.value(Opt.UnboundedNumberType),
  date: options.value(Opt.DateType),
  useExtensionType: options.value(Opt.UseExtensionType),
  useHighPrecision: options.value(Opt.UseHighPrecision)
})

/** oracledb's metadata as the driver's column description (raw precision/scale from the describe hook). @category mapping @since 0.1.0 */
export const columnMetadata = (m: DbTypes.OracleMetaData): OracleColumnMetadata => {
  const type = m.dbType.name.replace(/^DB_TYPE_/, "") as OracleTypeName
  const base = { name: m.name, type, nullable: m.nullable !== false, isJson: m.isJson === true }
  switch (type) {
    case "NUMBER":
      return { ...base, precision: m.precision ?? m.adbcPrecision ?? 0, scale: m.scale ?? m.adbcScale ?? -127 }
    case "TIMESTAMP":
    case "TIMESTAMP_TZ":
    case "TIMESTAMP_LTZ":
      return { ...base, precision: m.precision ?? m.adbcScale }
    case "INTERVAL_DS":
      // Describe info of INTERVAL DAY(d) TO SECOND(f): precision byte d, scale byte f.
      return { ...base, precision: m.adbcScale, scale: m.adbcPrecision }
    case "INTERVAL_YM":
      return { ...base, scale: m.adbcPrecision }
    case "OBJECT":
      return {
        ...base,
        objectTypeName: m.dbTypeClass?.fqn ?? m.dbTypeName,
        isCollection: m.dbTypeClass?.isCollection === true
      }
    default:
      return m.byteSize !== undefined ? { ...base, byteSize: m.byteSize } : base
  }
}
