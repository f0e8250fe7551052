/**
 * The write type mapping of the Oracle driver, Arrow → database: {@link bindTypeFor} (parameters) and
 * {@link ingestColumnType} (created columns) follow the specification's two columns; cells marked NA there fail
 * NOT_IMPLEMENTED naming the Arrow type. {@link isCompatible} decides whether an ingest may append to an existing
 * column. The read direction is ReadTypes.ts.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, adbcError, invalidArgument, notImplemented } from "../../src/AdbcError.ts"
import { isDateFamily, isNumericFamily, type TypeFamily, typeFamily } from "../common/TypeFamily.ts"
import { sridOfCrs } from "./SdoGeometry.ts"
import { EXTENSION_METADATA, EXTENSION_NAME, TYPE_NAME_METADATA } from "./ReadTypes.ts"

const extensionName = (field: Arrow.Field): string | undefined => field.metadata.get(EXTENSION_NAME)

const notApplicable = (field: Arrow.Field, what: "bound as a parameter" | "ingested"): AdbcError =>
  notImplemented(
    `field ${JSON.stringify(field.name)} of Arrow type ${extensionName(field) ?? String(field.type)} cannot be ${what} (not supported by the Oracle driver)`
  )

const TIMESTAMP_DIGITS = [0, 3, 6, 9] as const

const timestampDdl = (t: Arrow.Timestamp): string =>
  `TIMESTAMP(${TIMESTAMP_DIGITS[t.unit]})${t.timezone === null || t.timezone === undefined ? "" : " WITH TIME ZONE"}`

/** Struct and list storage of ingest (`redo.ingest.struct_type`). @category models @since 0.1.0 */
export type StructStorage = "blob" | "json" | "nvarchar2" | "object"

/** Largest NVARCHAR2 Oracle creates with the default MAX_STRING_SIZE = STANDARD. @category constants @since 0.1.0 */
export const NVARCHAR2_MAX = 2000

/** The ingest type of nested Arrow types: chosen by the struct storage option, not by the Arrow type. */
const NESTED = "nested"

/**
 * The two Oracle types of one Arrow type, the specification's "Bind" and "Ingest" columns: the type a bound parameter
 * is sent as and the column type ingest creates; `undefined` where the specification says NA.
 */
interface WriteTypes {
  readonly bind: string | undefined
  readonly ingest: string | typeof NESTED | undefined
}

const same = (sql: string): WriteTypes => ({ bind: sql, ingest: sql })
const NOT_WRITTEN: WriteTypes = { bind: undefined, ingest: undefined }
const NVARCHAR2_COLUMN = `NVARCHAR2(${NVARCHAR2_MAX})`

/** The bind and ingest types of an Arrow field's type (extension types are decided by the callers). */
const writeTypesOf = (field: Arrow.Field): WriteTypes => {
  const t = field.type
  switch (t.typeId) {
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.BinaryView:
    case Arrow.Type.FixedSizeBinary:
      return { bind: "RAW", ingest: "BLOB" }
    case Arrow.Type.Utf8View:
      return { bind: "RAW", ingest: NVARCHAR2_COLUMN }
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
      return { bind: "NVARCHAR2", ingest: NVARCHAR2_COLUMN }
    case Arrow.Type.Bool:
      return same("BOOLEAN")
    case Arrow.Type.Date:
      return same("DATE")
    case Arrow.Type.Timestamp:
      return same(timestampDdl(t as Arrow.Timestamp))
    case Arrow.Type.Decimal: {
      const d = t as Arrow.Decimal
      return d.bitWidth === 128 ? same(`NUMBER(${d.precision},${d.scale})`) : NOT_WRITTEN
    }
    case Arrow.Type.Float: {
      const f = t as Arrow.Float
      const sql = f.precision === Arrow.Precision.DOUBLE ? "BINARY_DOUBLE" : "BINARY_FLOAT"
      return { bind: sql, ingest: f.precision === Arrow.Precision.HALF ? undefined : sql }
    }
    case Arrow.Type.Int: {
      const i = t as Arrow.Int
      return {
        bind: i.isSigned && (i.bitWidth === 16 || i.bitWidth === 32) ? "NUMBER(38,0)" : undefined,
        ingest: !i.isSigned || i.bitWidth === 8
          ? undefined
          : i.bitWidth === 16 ? "NUMBER(5,0)" : i.bitWidth === 32 ? "NUMBER(10,0)" : "NUMBER(19,0)"
      }
    }
    case Arrow.Type.List:
    case Arrow.Type.LargeList:
    case Arrow.Type.FixedSizeList:
    case Arrow.Type.Struct:
      return { bind: undefined, ingest: NESTED }
    case Arrow.Type.Interval:
      return {
        bind: undefined,
        ingest: (t as Arrow.Interval).unit === Arrow.IntervalUnit.YEAR_MONTH || ingestsAsYearToMonth(field)
          ? "INTERVAL YEAR(9) TO MONTH"
          : "INTERVAL DAY(9) TO SECOND(9)"
      }
    case Arrow.Type.Null:
      return { bind: undefined, ingest: "NUMBER" }
    default:
      return NOT_WRITTEN
  }
}

/**
 * The Oracle type a bound parameter of this Arrow field is sent as (the specification's "Bind" column).
 *
 * @category mapping
 * @since 0.1.0
 */
export const bindTypeFor = (field: Arrow.Field): Result.Result<string, AdbcError> => {
  const ext = extensionName(field)
  if (ext === "arrow.json") return Result.succeed("JSON")
  const bind = ext === undefined ? writeTypesOf(field).bind : undefined
  return bind === undefined ? Result.fail(notApplicable(field, "bound as a parameter")) : Result.succeed(bind)
}

/**
 * The SDO_SRID a geoarrow field's CRS gives every value it ingests (null without a CRS); a CRS with no Oracle SRID
 * fails INVALID_ARGUMENT naming the field and the forms accepted.
 *
 * @category mapping
 * @since 0.1.0
 */
export const geometrySrid = (field: Arrow.Field): Result.Result<number | null, AdbcError> => {
  try {
    return Result.succeed(sridOfCrs(field.metadata.get(EXTENSION_METADATA)))
  } catch (e) {
    return Result.fail(invalidArgument(`field ${JSON.stringify(field.name)}: ${e instanceof Error ? e.message : String(e)}`))
  }
}

/** The column type of a nested field in the struct storage `structType`. */
const nestedColumnType = (field: Arrow.Field, structType: StructStorage): Result.Result<string, AdbcError> => {
  switch (structType) {
    case "blob":
      return Result.succeed("BLOB")
    case "json":
      return Result.succeed("JSON")
    case "nvarchar2":
      return Result.succeed(NVARCHAR2_COLUMN)
    default:
      return Result.fail(
        adbcError(
          "NOT_IMPLEMENTED",
          `field ${JSON.stringify(field.name)} of Arrow type ${field.type}: redo.ingest.struct_type=object (Oracle OBJECT columns) is not implemented; set it to blob, json or nvarchar2`
        )
      )
  }
}

/**
 * The column type ingest creates for an Arrow field (the specification's "Ingest" column); NA cells fail
 * NOT_IMPLEMENTED naming the Arrow type, struct storage `object` fails NOT_IMPLEMENTED saying which storages work.
 *
 * @category mapping
 * @since 0.1.0
 */
export const ingestColumnType = (
  field: Arrow.Field,
  structType: StructStorage = "object"
): Result.Result<string, AdbcError> => {
  const ext = extensionName(field)
  if (ext === "geoarrow.wkb" || ext === "geoarrow.wkt") return Result.map(geometrySrid(field), () => "SDO_GEOMETRY")
  const ingest = ext === undefined ? writeTypesOf(field).ingest : undefined
  if (ingest === undefined) return Result.fail(notApplicable(field, "ingested"))
  return ingest === NESTED ? nestedColumnType(field, structType) : Result.succeed(ingest)
}

/**
 * Whether a month_day_nano column goes into INTERVAL YEAR(9) TO MONTH rather than DAY TO SECOND: when its
 * `oracle.type-name` says it was read from an INTERVAL YEAR TO MONTH column (year_month_interval_type=monthdaynano),
 * so that such a column round-trips. Its values must then hold months only.
 *
 * @category mapping
 * @since 0.1.0
 */
export const ingestsAsYearToMonth = (field: Arrow.Field): boolean =>
  field.type.typeId === Arrow.Type.Interval &&
  (field.type as Arrow.Interval).unit === Arrow.IntervalUnit.MONTH_DAY_NANO &&
  field.metadata.get(TYPE_NAME_METADATA)?.startsWith("INTERVAL YEAR") === true

/**
 * A JSON check constraint suffix of struct storage in BLOB or NVARCHAR2 columns (`CHECK (col IS JSON)`).
 *
 * @category mapping
 * @since 0.1.0
 */
export const jsonCheckOf = (field: Arrow.Field, sqlType: string, quoted: string): string =>
  (sqlType === "BLOB" || sqlType.startsWith("NVARCHAR2")) &&
    (field.type.typeId === Arrow.Type.List || field.type.typeId === Arrow.Type.LargeList ||
      field.type.typeId === Arrow.Type.FixedSizeList ||
      field.type.typeId === Arrow.Type.Struct)
    ? ` CHECK (${quoted} IS JSON)`
    : ""

/** Oracle has no time-of-day type: Arrow times count with nested types (they append only into text). */
const oracleFamily = (type: Arrow.DataType): TypeFamily => {
  const family = typeFamily(type)
  return family === "time" ? "other" : family
}

/**
 * Whether Arrow data of `incoming` can be appended into an existing column read back as `existing`.
 *
 * @category mapping
 * @since 0.1.0
 */
export const isCompatible = (incoming: Arrow.Field, existing: Arrow.Field): boolean => {
  const a = oracleFamily(incoming.type)
  const b = oracleFamily(existing.type)
  if (a === "other" || b === "other") return a === "other" && b === "string" // nested as JSON text
  if (a === b) return true
  if (isNumericFamily(a) && isNumericFamily(b)) return true
  if (a === "bool" && isNumericFamily(b)) return true
  if (isDateFamily(a) && isDateFamily(b)) return true
  return b === "string" && a !== "binary"
}
