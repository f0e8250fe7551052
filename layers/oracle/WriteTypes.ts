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

/**
 * The Oracle type a bound parameter of this Arrow field is sent as (the specification's "Bind" column).
 *
 * @category mapping
 * @since 0.1.0
 */
export const bindTypeFor = (field: Arrow.Field): Result.Result<string, AdbcError> => {
  const ext = extensionName(field)
  if (ext === "arrow.json") return Result.succeed("JSON")
  if (ext !== undefined) return Result.fail(notApplicable(field, "bound as a parameter"))
  const t = field.type
  switch (t.typeId) {
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.BinaryView:
    case Arrow.Type.FixedSizeBinary:
    case Arrow.Type.Utf8View:
      return Result.succeed("RAW")
    case Arrow.Type.Bool:
      return Result.succeed("BOOLEAN")
    case Arrow.Type.Date:
      return Result.succeed("DATE")
    case Arrow.Type.Decimal: {
      const d = t as Arrow.Decimal
      return d.bitWidth === 128 ? Result.succeed(`NUMBER(${d.precision},${d.scale})`) : Result.fail(notApplicable(field, "bound as a parameter"))
    }
    case Arrow.Type.Float: {
      const f = t as Arrow.Float
      return Result.succeed(f.precision === Arrow.Precision.DOUBLE ? "BINARY_DOUBLE" : "BINARY_FLOAT")
    }
    case Arrow.Type.Int: {
      const i = t as Arrow.Int
      if (i.isSigned && (i.bitWidth === 16 || i.bitWidth === 32)) return Result.succeed("NUMBER(38,0)")
      return Result.fail(notApplicable(field, "bound as a parameter"))
    }
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
      return Result.succeed("NVARCHAR2")
    case Arrow.Type.Timestamp:
      return Result.succeed(timestampDdl(t as Arrow.Timestamp))
    default:
      return Result.fail(notApplicable(field, "bound as a parameter"))
  }
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

/** Struct and list storage of ingest (`redo.ingest.struct_type`). @category models @since 0.1.0 */
export type StructStorage = "blob" | "json" | "nvarchar2" | "object"

/** Largest NVARCHAR2 Oracle creates with the default MAX_STRING_SIZE = STANDARD. @category constants @since 0.1.0 */
export const NVARCHAR2_MAX = 2000

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
  if (ext !== undefined) return Result.fail(notApplicable(field, "ingested"))
  const t = field.type
  switch (t.typeId) {
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.BinaryView:
    case Arrow.Type.FixedSizeBinary:
      return Result.succeed("BLOB")
    case Arrow.Type.Bool:
      return Result.succeed("BOOLEAN")
    case Arrow.Type.Date:
      return Result.succeed("DATE")
    case Arrow.Type.Decimal: {
      const d = t as Arrow.Decimal
      if (d.bitWidth !== 128) return Result.fail(notApplicable(field, "ingested"))
      return Result.succeed(`NUMBER(${d.precision},${d.scale})`)
    }
    case Arrow.Type.Float: {
      const f = t as Arrow.Float
      if (f.precision === Arrow.Precision.HALF) return Result.fail(notApplicable(field, "ingested"))
      return Result.succeed(f.precision === Arrow.Precision.DOUBLE ? "BINARY_DOUBLE" : "BINARY_FLOAT")
    }
    case Arrow.Type.Int: {
      const i = t as Arrow.Int
      if (!i.isSigned || i.bitWidth === 8) return Result.fail(notApplicable(field, "ingested"))
      return Result.succeed(i.bitWidth === 16 ? "NUMBER(5,0)" : i.bitWidth === 32 ? "NUMBER(10,0)" : "NUMBER(19,0)")
    }
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.Utf8View:
      return Result.succeed(`NVARCHAR2(${NVARCHAR2_MAX})`)
    case Arrow.Type.List:
    case Arrow.Type.LargeList:
    case Arrow.Type.FixedSizeList:
    case Arrow.Type.Struct: {
      switch (structType) {
        case "blob":
          return Result.succeed("BLOB")
        case "json":
          return Result.succeed("JSON")
        case "nvarchar2":
          return Result.succeed(`NVARCHAR2(${NVARCHAR2_MAX})`)
        default:
          return Result.fail(
            adbcError(
              "NOT_IMPLEMENTED",
              `field ${JSON.stringify(field.name)} of Arrow type ${t}: redo.ingest.struct_type=object (Oracle OBJECT columns) is not implemented; set it to blob, json or nvarchar2`
            )
          )
      }
    }
    case Arrow.Type.Interval:
      return (t as Arrow.Interval).unit === Arrow.IntervalUnit.YEAR_MONTH || ingestsAsYearToMonth(field)
        ? Result.succeed("INTERVAL YEAR(9) TO MONTH")
        : Result.succeed("INTERVAL DAY(9) TO SECOND(9)")
    case Arrow.Type.Null:
      return Result.succeed("NUMBER")
    case Arrow.Type.Timestamp:
      return Result.succeed(timestampDdl(t as Arrow.Timestamp))
    default:
      return Result.fail(notApplicable(field, "ingested"))
  }
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
