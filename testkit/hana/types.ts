/**
 * HANA SQL types: declared types (as written in DDL), their DuckDB storage type, and their wire type code, length
 * and fraction at the data format version (DFV) the client negotiated.
 *
 * DFV levels (SAP/go-hdb driver/internal/protocol/dfv.go): 1 = base types; 3/4 = LONGDATE, SECONDDATE, DAYDATE,
 * SECONDTIME; 6 = BINTEXT; 7 = BOOLEAN; 8 = FIXED8/12/16. Below 7 HANA sends BOOLEAN as TINYINT; below 4 the
 * date/time types as DATE/TIME/TIMESTAMP; below 8 fixed-point DECIMAL as the 16-byte decimal128.
 * Type codes: hdb lib/protocol/common/TypeCode.js.
 */
import { DuckDBTypeId } from "@duckdb/node-api"
import type { ColumnInfo } from "../engine/index.ts"

/** Wire type codes used by this server. */
export const TypeCode = {
  TINYINT: 1,
  SMALLINT: 2,
  INT: 3,
  BIGINT: 4,
  DECIMAL: 5,
  REAL: 6,
  DOUBLE: 7,
  CHAR: 8,
  VARCHAR: 9,
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
  BSTRING: 33,
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

/** A declared HANA column type. */
export interface HanaType {
  /** Canonical HANA name, e.g. `NVARCHAR`, `DECIMAL`, `SECONDDATE`, plus the test-only `BIT` and `JSON`. */
  readonly name: string
  /** Declared length / precision (0 = not given). */
  readonly length: number
  /** Declared scale (0 = not given); -1 for floating DECIMAL / SMALLDECIMAL. */
  readonly scale: number
}

/** Renders a type as HANA writes it, e.g. `NVARCHAR(20)`, `DECIMAL(10,2)`. */
export const typeText = (t: HanaType): string => {
  if (t.name === "DECIMAL" && t.scale >= 0 && t.length > 0) return `DECIMAL(${t.length},${t.scale})`
  if ((LENGTH_TYPES.has(t.name) || SPATIAL_TYPES.has(t.name)) && t.length > 0) return `${t.name}(${t.length})`
  return t.name
}

const LENGTH_TYPES = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT", "VARBINARY", "BINARY"])

/** Spatial types: their optional argument is the SRID (spatial.ts), kept in `length`. */
const SPATIAL_TYPES = new Set(["ST_GEOMETRY", "ST_POINT"])

/** HANA type names (and synonyms) accepted in DDL and CAST, mapped to their canonical name. */
export const TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ["TINYINT", "TINYINT"],
  ["SMALLINT", "SMALLINT"],
  ["INTEGER", "INTEGER"],
  ["INT", "INTEGER"],
  ["BIGINT", "BIGINT"],
  ["DECIMAL", "DECIMAL"],
  ["DEC", "DECIMAL"],
  ["NUMERIC", "DECIMAL"],
  ["SMALLDECIMAL", "SMALLDECIMAL"],
  ["REAL", "REAL"],
  ["DOUBLE", "DOUBLE"],
  ["FLOAT", "DOUBLE"],
  ["BOOLEAN", "BOOLEAN"],
  ["VARCHAR", "VARCHAR"],
  ["NVARCHAR", "NVARCHAR"],
  ["CHAR", "CHAR"],
  ["NCHAR", "NCHAR"],
  ["ALPHANUM", "ALPHANUM"],
  ["SHORTTEXT", "SHORTTEXT"],
  ["VARBINARY", "VARBINARY"],
  ["BINARY", "BINARY"],
  ["DATE", "DATE"],
  ["DAYDATE", "DATE"],
  ["TIME", "TIME"],
  ["SECONDTIME", "TIME"],
  ["SECONDDATE", "SECONDDATE"],
  ["TIMESTAMP", "TIMESTAMP"],
  ["LONGDATE", "TIMESTAMP"],
  ["DATETIME", "TIMESTAMP"],
  ["CLOB", "CLOB"],
  ["NCLOB", "NCLOB"],
  ["TEXT", "TEXT"],
  ["BINTEXT", "BINTEXT"],
  ["ST_GEOMETRY", "ST_GEOMETRY"],
  ["ST_POINT", "ST_POINT"],
  ["BLOB", "BLOB"],
  ["BIT", "BIT"],
  ["JSON", "JSON"]
])

/** Builds a declared type from a (canonical or synonym) name and its optional arguments. */
export const hanaType = (name: string, args: readonly number[] = []): HanaType | undefined => {
  const canonical = TYPE_NAMES.get(name.toUpperCase())
  if (canonical === undefined) return undefined
  switch (canonical) {
    case "DECIMAL":
      if (args.length === 0) return { name: "DECIMAL", length: 34, scale: -1 }
      return { name: "DECIMAL", length: args[0]!, scale: args[1] ?? 0 }
    case "SMALLDECIMAL":
      return { name: "SMALLDECIMAL", length: 16, scale: -1 }
    case "VARCHAR":
    case "NVARCHAR":
    case "VARBINARY":
      return { name: canonical, length: args[0] ?? (canonical === "VARBINARY" ? 1 : 1), scale: 0 }
    case "CHAR":
    case "NCHAR":
    case "BINARY":
    case "ALPHANUM":
    case "SHORTTEXT":
      return { name: canonical, length: args[0] ?? 1, scale: 0 }
    case "ST_GEOMETRY":
    case "ST_POINT":
      return { name: canonical, length: args[0] ?? 0, scale: 0 }
    default:
      return { name: canonical, length: 0, scale: 0 }
  }
}

/** Parses a rendered type (the text stored in the DuckDB column comment). */
export const parseTypeText = (text: string): HanaType | undefined => {
  const m = /^\s*([A-Z_]+)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$/i.exec(text)
  if (m === null) return undefined
  const args = [m[2], m[3]].filter((x): x is string => x !== undefined).map(Number)
  return hanaType(m[1]!, args)
}

/** The DuckDB type that stores a HANA type. */
export const duckType = (t: HanaType): string => {
  switch (t.name) {
    case "TINYINT":
      return "UTINYINT"
    case "SMALLINT":
      return "SMALLINT"
    case "INTEGER":
      return "INTEGER"
    case "BIGINT":
      return "BIGINT"
    case "DECIMAL":
      return t.scale < 0 ? "DOUBLE" : `DECIMAL(${Math.min(Math.max(t.length, 1), 38)},${t.scale})`
    case "SMALLDECIMAL":
      return "DOUBLE"
    case "REAL":
      return "FLOAT"
    case "DOUBLE":
      return "DOUBLE"
    case "BOOLEAN":
      return "BOOLEAN"
    case "VARBINARY":
    case "BINARY":
    case "BLOB":
    case "ST_GEOMETRY":
    case "ST_POINT":
      return "BLOB"
    case "DATE":
      return "DATE"
    case "TIME":
      return "TIME"
    case "SECONDDATE":
      return "TIMESTAMP_S"
    // 100 ns ticks since 0001-01-01 (longdate.ts): DuckDB's TIMESTAMP keeps microseconds, TIMESTAMP_NS only 1677 .. 2262.
    case "TIMESTAMP":
      return "UBIGINT"
    case "BIT":
      return "BIT"
    default:
      return "VARCHAR"
  }
}


/** The HANA type reported for a DuckDB result column that is not a plain table column. */
export const typeOfDuck = (c: Pick<ColumnInfo, "typeId" | "precision" | "scale">): HanaType => {
  switch (c.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return { name: "BOOLEAN", length: 0, scale: 0 }
    case DuckDBTypeId.UTINYINT:
      return { name: "TINYINT", length: 0, scale: 0 }
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
      return { name: "SMALLINT", length: 0, scale: 0 }
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.INTEGER:
      return { name: "INTEGER", length: 0, scale: 0 }
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.BIGINT:
      return { name: "BIGINT", length: 0, scale: 0 }
    // A TIMESTAMP's ticks (longdate.ts), wherever they come from: no other HANA type is stored as UBIGINT.
    case DuckDBTypeId.UBIGINT:
      return { name: "TIMESTAMP", length: 0, scale: 0 }
    // DuckDB sums integers as HUGEINT; HANA sums them as BIGINT and fails a sum beyond it with 314 numeric overflow
    // rather than widening ("SAP HANA SPS04 Numeric overflow for SUM aggregation": HANA does not up-convert during
    // aggregation). The encoder checks each value (encode.ts).
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return { name: "BIGINT", length: 0, scale: 0 }
    case DuckDBTypeId.DECIMAL:
      return { name: "DECIMAL", length: c.precision, scale: c.scale }
    case DuckDBTypeId.FLOAT:
      return { name: "REAL", length: 0, scale: 0 }
    case DuckDBTypeId.DOUBLE:
      return { name: "DOUBLE", length: 0, scale: 0 }
    case DuckDBTypeId.DATE:
      return { name: "DATE", length: 0, scale: 0 }
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_TZ:
      return { name: "TIME", length: 0, scale: 0 }
    case DuckDBTypeId.TIMESTAMP_S:
      return { name: "SECONDDATE", length: 0, scale: 0 }
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return { name: "TIMESTAMP", length: 0, scale: 0 }
    case DuckDBTypeId.BLOB:
      return { name: "VARBINARY", length: 5000, scale: 0 }
    case DuckDBTypeId.BIT:
      return { name: "BIT", length: 0, scale: 0 }
    default:
      return { name: "NVARCHAR", length: 5000, scale: 0 }
  }
}

/** How a type appears on the wire at a given DFV. */
export interface WireType {
  readonly code: number
  readonly length: number
  readonly fraction: number
}

/** Wire type code, length and fraction of a declared type at a DFV. */
export const wireType = (t: HanaType, dfv: number): WireType => {
  const modernDates = dfv >= 4
  switch (t.name) {
    case "TINYINT":
      return { code: TypeCode.TINYINT, length: 3, fraction: 0 }
    case "SMALLINT":
      return { code: TypeCode.SMALLINT, length: 5, fraction: 0 }
    case "INTEGER":
      return { code: TypeCode.INT, length: 10, fraction: 0 }
    case "BIGINT":
      return { code: TypeCode.BIGINT, length: 19, fraction: 0 }
    case "DECIMAL":
    case "SMALLDECIMAL": {
      if (t.scale < 0) return { code: TypeCode.DECIMAL, length: t.length, fraction: 32767 }
      if (dfv >= 8) {
        const code = t.length <= 18 ? TypeCode.FIXED8 : t.length <= 28 ? TypeCode.FIXED12 : TypeCode.FIXED16
        return { code, length: t.length, fraction: t.scale }
      }
      return { code: TypeCode.DECIMAL, length: t.length, fraction: t.scale }
    }
    case "REAL":
      return { code: TypeCode.REAL, length: 24, fraction: 0 }
    case "DOUBLE":
      return { code: TypeCode.DOUBLE, length: 53, fraction: 0 }
    case "BOOLEAN":
      return dfv >= 7 ? { code: TypeCode.BOOLEAN, length: 1, fraction: 0 } : { code: TypeCode.TINYINT, length: 3, fraction: 0 }
    case "VARCHAR":
      return { code: TypeCode.VARCHAR, length: t.length, fraction: 0 }
    case "NVARCHAR":
      return { code: TypeCode.NVARCHAR, length: t.length, fraction: 0 }
    // TEXT 51, SHORTTEXT 52 and BINTEXT 53 are what a real HANA reports for these columns (SAP/node-hdb
    // test/acceptance/db.DataType.js checks the codes against one); at lower data format versions they travel as
    // NVARCHAR / NCLOB (SAP/go-hdb's column types: SHORTTEXT from DFV 3, TEXT from 4, BINTEXT from 6, else NVARCHAR / NCLOB).
    case "SHORTTEXT":
      return { code: dfv >= 3 ? TypeCode.SHORTTEXT : TypeCode.NVARCHAR, length: t.length, fraction: 0 }
    case "TEXT":
      return { code: dfv >= 4 ? TypeCode.TEXT : TypeCode.NCLOB, length: 0, fraction: 0 }
    case "BINTEXT":
      return { code: dfv >= 6 ? TypeCode.BINTEXT : TypeCode.NCLOB, length: 0, fraction: 0 }
    case "ST_GEOMETRY":
      return { code: TypeCode.ST_GEOMETRY, length: 0, fraction: 0 }
    case "ST_POINT":
      return { code: TypeCode.ST_POINT, length: 0, fraction: 0 }
    case "CHAR":
      return { code: TypeCode.CHAR, length: t.length, fraction: 0 }
    case "NCHAR":
      return { code: TypeCode.NCHAR, length: t.length, fraction: 0 }
    case "ALPHANUM":
      return { code: TypeCode.ALPHANUM, length: t.length, fraction: 0 }
    case "VARBINARY":
      return { code: TypeCode.VARBINARY, length: t.length, fraction: 0 }
    case "BINARY":
      return { code: TypeCode.BINARY, length: t.length, fraction: 0 }
    case "DATE":
      return { code: modernDates ? TypeCode.DAYDATE : TypeCode.DATE, length: 10, fraction: 0 }
    case "TIME":
      return { code: modernDates ? TypeCode.SECONDTIME : TypeCode.TIME, length: 8, fraction: 0 }
    case "SECONDDATE":
      return { code: modernDates ? TypeCode.SECONDDATE : TypeCode.TIMESTAMP, length: 19, fraction: 0 }
    case "TIMESTAMP":
      return { code: modernDates ? TypeCode.LONGDATE : TypeCode.TIMESTAMP, length: 27, fraction: 7 }
    case "CLOB":
      return { code: TypeCode.CLOB, length: 0, fraction: 0 }
    case "NCLOB":
      return { code: TypeCode.NCLOB, length: 0, fraction: 0 }
    case "BLOB":
      return { code: TypeCode.BLOB, length: 0, fraction: 0 }
    // Not HANA types: BIT and JSON exist so a driver's "unsupported type" path can be tested. They travel as
    // REAL_VECTOR 96, a code hdb can read (encode.ts writes the value's bytes as a vector of that many REALs) and
    // that no HANA 2.0 column produces.
    case "BIT":
    case "JSON":
      return { code: TypeCode.REAL_VECTOR, length: 0, fraction: 0 }
    default:
      return { code: TypeCode.NVARCHAR, length: 5000, fraction: 0 }
  }
}

/**
 * How a parameter of a declared type is described: as {@link wireType}, except the test-only BIT and JSON, whose
 * parameters are VARBINARY (hdb sends their values as bytes; its REAL_VECTOR writer would take only vectors).
 */
export const parameterWireType = (t: HanaType, dfv: number): WireType =>
  t.name === "BIT" || t.name === "JSON" ? { code: TypeCode.VARBINARY, length: 0, fraction: 0 } : wireType(t, dfv)

/** The HANA type of a DuckDB type name (`DECIMAL(10,2)`, `UTINYINT`, …), for columns without a declared type. */
export const typeOfDuckName = (duck: string): HanaType => {
  const m = /^DECIMAL\((\d+),(\d+)\)$/.exec(duck)
  if (m !== null) return { name: "DECIMAL", length: Number(m[1]), scale: Number(m[2]) }
  const map: Record<string, HanaType> = {
    INTEGER: { name: "INTEGER", length: 0, scale: 0 },
    BIGINT: { name: "BIGINT", length: 0, scale: 0 },
    SMALLINT: { name: "SMALLINT", length: 0, scale: 0 },
    UTINYINT: { name: "TINYINT", length: 0, scale: 0 },
    DOUBLE: { name: "DOUBLE", length: 0, scale: 0 },
    FLOAT: { name: "REAL", length: 0, scale: 0 },
    BOOLEAN: { name: "BOOLEAN", length: 0, scale: 0 },
    DATE: { name: "DATE", length: 0, scale: 0 },
    TIME: { name: "TIME", length: 0, scale: 0 },
    TIMESTAMP: { name: "TIMESTAMP", length: 0, scale: 0 },
    UBIGINT: { name: "TIMESTAMP", length: 0, scale: 0 },
    TIMESTAMP_S: { name: "SECONDDATE", length: 0, scale: 0 },
    BLOB: { name: "VARBINARY", length: 5000, scale: 0 }
  }
  return map[duck] ?? { name: "NVARCHAR", length: 5000, scale: 0 }
}

