/**
 * Oracle column types as the server describes them on the wire (data type code, sizes, precision, scale,
 * character set form), how Oracle DDL type names map onto DuckDB storage types, and how DuckDB result
 * types are described when no declared Oracle type is known.
 *
 * Data type codes: node_modules/oracledb/lib/thin/protocol/constants.js (TNS_DATA_TYPE_*).
 */
import { DuckDBTypeId } from "@duckdb/node-api"
import type { DuckDBType } from "@duckdb/node-api"
import { WALL_ALIAS, ZONED_ALIAS } from "./datetime-functions.ts"
import { EXACT_DS_ALIAS, EXACT_YM_ALIAS } from "./interval-functions.ts"
import { EXACT_NUMBER_ALIAS } from "./number-functions.ts"
import type { OraType, ValueKind } from "./type-shapes.ts"

/** Wire data type codes used by the server. */
export const Dty = {
  VARCHAR: 1,
  NUMBER: 2,
  LONG: 8,
  ROWID: 11,
  DATE: 12,
  RAW: 23,
  LONG_RAW: 24,
  CHAR: 96,
  BINARY_FLOAT: 100,
  BINARY_DOUBLE: 101,
  CURSOR: 102,
  INT_NAMED: 109,
  CLOB: 112,
  BLOB: 113,
  JSON: 119,
  VECTOR: 127,
  TIMESTAMP: 180,
  TIMESTAMP_TZ: 181,
  INTERVAL_YM: 182,
  INTERVAL_DS: 183,
  UROWID: 208,
  TIMESTAMP_LTZ: 231,
  BOOLEAN: 252
} as const

export type { OraType, ValueKind } from "./type-shapes.ts"

const t = (o: OraType): OraType => o

/** NUMBER with optional precision/scale. */
export const numberType = (p?: number, s?: number): OraType => {
  if (p === undefined && s === undefined)
    // every digit and its exact text: stored as decimal text, computed on by number-functions.ts (README.md)
    return t({ kind: "number", dty: Dty.NUMBER, csfrm: 0, maxSize: 22, charSize: 0, precision: 0, scale: -127, dictName: "NUMBER", dictPrecision: null, dictScale: null, duck: "VARCHAR" })
  const prec = p ?? 38
  const sc = s ?? 0
  // a negative scale rounds to the left of the decimal point ("Numeric Data Types": NUMBER(7,-2) stores 7456123.89 as
  // 7456100): integers of up to p - s digits (38 at most here), rounded on write (number-writes.ts)
  const duck = sc < 0 ? `DECIMAL(${Math.min(38, prec - sc)},0)` : prec <= 38 && sc <= prec ? `DECIMAL(${prec},${sc})` : sc === 0 ? "DECIMAL(38,0)" : "DOUBLE"
  return t({ kind: "number", dty: Dty.NUMBER, csfrm: 0, maxSize: 22, charSize: 0, precision: prec, scale: sc, dictName: "NUMBER", dictPrecision: p ?? null, dictScale: sc, duck })
}

/** NUMBER as the data dictionary's counts and sizes are described (no precision), stored as DuckDB DOUBLE. */
export const dictionaryNumberType: OraType = { ...numberType(), duck: "DOUBLE" }

/**
 * FLOAT(b) (binary precision): a decimal NUMBER subtype, stored as exact decimal text like NUMBER without precision
 * and rounded to {@link floatDecimalDigits} on write (number-writes.ts).
 */
export const floatType = (b = 126): OraType =>
  t({ kind: "number", dty: Dty.NUMBER, csfrm: 0, maxSize: 22, charSize: 0, precision: b, scale: -127, dictName: "FLOAT", dictPrecision: b, dictScale: null, duck: "VARCHAR" })

/**
 * The significant decimal digits a FLOAT(b) keeps: "To convert from binary to decimal precision, multiply n by
 * 0.30103", rounded up (SQL Language Reference, "Data Types", FLOAT Data Type; FLOAT(126) keeps 38 digits, FLOAT(5) 2:
 * 123.45 is stored as 120).
 */
export const floatDecimalDigits = (b: number): number => Math.ceil(b * 0.30103)

/** VARCHAR2(n) / NVARCHAR2(n) / CHAR(n) / NCHAR(n); `inCharacters` for `(n CHAR)`. */
export const charType = (base: "VARCHAR2" | "NVARCHAR2" | "CHAR" | "NCHAR", n: number, inCharacters = false): OraType => {
  const national = base.startsWith("N")
  const fixed = base === "CHAR" || base === "NCHAR"
  return t({
    kind: national ? "nvarchar" : "varchar",
    dty: fixed ? Dty.CHAR : Dty.VARCHAR,
    csfrm: national ? 2 : 1,
    maxSize: national ? n * 2 : n,
    charSize: n,
    precision: 0,
    scale: 0,
    dictName: base,
    dictPrecision: null,
    dictScale: null,
    duck: "VARCHAR",
    ...(inCharacters && !national ? { charSemantics: true as const } : {})
  })
}

/** RAW(n). */
export const rawType = (n: number): OraType =>
  t({ kind: "raw", dty: Dty.RAW, csfrm: 0, maxSize: n, charSize: n, precision: 0, scale: 0, dictName: "RAW", dictPrecision: null, dictScale: null, duck: "BLOB" })

/** DATE (second precision; stored as DuckDB TIMESTAMP_S). */
export const dateType: OraType = t({ kind: "date", dty: Dty.DATE, csfrm: 0, maxSize: 7, charSize: 0, precision: 0, scale: 0, dictName: "DATE", dictPrecision: null, dictScale: null, duck: "TIMESTAMP_S" })

/** TIMESTAMP(fsp) [WITH [LOCAL] TIME ZONE]. */
export const timestampType = (fsp = 6, zone: "" | "tz" | "ltz" = ""): OraType =>
  t({
    kind: zone === "" ? "timestamp" : zone === "tz" ? "timestamptz" : "timestampltz",
    dty: zone === "" ? Dty.TIMESTAMP : zone === "tz" ? Dty.TIMESTAMP_TZ : Dty.TIMESTAMP_LTZ,
    csfrm: 0,
    maxSize: zone === "tz" ? 13 : 11,
    charSize: 0,
    precision: 0,
    scale: fsp,
    dictName: `TIMESTAMP(${fsp})${zone === "tz" ? " WITH TIME ZONE" : zone === "ltz" ? " WITH LOCAL TIME ZONE" : ""}`,
    dictPrecision: null,
    dictScale: fsp,
    // a value's own zone, and 7-9 digits over Oracle's whole range, are kept as text (datetime-functions.ts; a LOCAL
    // TIME ZONE value as its instant at +00:00)
    duck: zone === "tz" || fsp > 6 ? "VARCHAR" : zone === "" ? "TIMESTAMP" : "TIMESTAMPTZ"
  })

/** INTERVAL DAY(lead) TO SECOND(fsp); 7-9 fraction digits are kept as DECIMAL seconds (intervals.ts). */
export const intervalDsType = (lead = 2, fsp = 6): OraType =>
  t({ kind: "intervalds", dty: Dty.INTERVAL_DS, csfrm: 0, maxSize: 11, charSize: 0, precision: lead, scale: fsp, dictName: `INTERVAL DAY(${lead}) TO SECOND(${fsp})`, dictPrecision: lead, dictScale: fsp, duck: fsp > 6 ? "DECIMAL(38,9)" : "INTERVAL" })

/** INTERVAL YEAR(lead) TO MONTH; YEAR(9) is kept as BIGINT months, beyond DuckDB's 32-bit months (intervals.ts). */
export const intervalYmType = (lead = 2): OraType =>
  t({ kind: "intervalym", dty: Dty.INTERVAL_YM, csfrm: 0, maxSize: 5, charSize: 0, precision: lead, scale: 0, dictName: `INTERVAL YEAR(${lead}) TO MONTH`, dictPrecision: lead, dictScale: 0, duck: lead >= 9 ? "BIGINT" : "INTERVAL" })

const simple = (kind: ValueKind, dty: number, maxSize: number, dictName: string, duck: string, csfrm = 0): OraType =>
  t({ kind, dty, csfrm, maxSize, charSize: 0, precision: 0, scale: 0, dictName, dictPrecision: null, dictScale: null, duck })

/** Fixed-size types without parameters. */
export const binaryFloatType = simple("float", Dty.BINARY_FLOAT, 4, "BINARY_FLOAT", "FLOAT")
export const binaryDoubleType = simple("double", Dty.BINARY_DOUBLE, 8, "BINARY_DOUBLE", "DOUBLE")
export const booleanType = simple("boolean", Dty.BOOLEAN, 4, "BOOLEAN", "BOOLEAN")
/** Alias of the VARCHAR type of expressions that are CLOBs (TO_CLOB: builtin-functions.ts), described as CLOB. */
export const CLOB_RESULT_ALIAS = "ORA_CLOB"
/** Alias of the BLOB type of expressions that are BLOBs (TO_BLOB), described as BLOB rather than RAW. */
export const BLOB_RESULT_ALIAS = "ORA_BLOB"
export const clobType = simple("clob", Dty.CLOB, 4000, "CLOB", "VARCHAR", 1)
export const nclobType = simple("nclob", Dty.CLOB, 4000, "NCLOB", "VARCHAR", 2)
export const blobType = simple("blob", Dty.BLOB, 4000, "BLOB", "BLOB")
export const longType = simple("long", Dty.LONG, 0x7fffffff, "LONG", "VARCHAR", 1)
export const longRawType = simple("longraw", Dty.LONG_RAW, 0x7fffffff, "LONG RAW", "BLOB")
export const jsonType = simple("json", Dty.JSON, 8200, "JSON", "JSON")
export const rowidType = simple("rowid", Dty.ROWID, 10, "ROWID", "VARCHAR")
/** UROWID columns hold rowid text; described as UROWID (208) with Oracle's 4000-byte size (ALL_TAB_COLUMNS). */
export const urowidType = simple("urowid", Dty.UROWID, 4000, "UROWID", "VARCHAR")

/** VECTOR format codes (node_modules/oracledb/lib/constants.js VECTOR_FORMAT_*); 0 = any (flexible). */
const VECTOR_FORMATS: Record<string, number> = { "*": 0, FLOAT32: 2, FLOAT64: 3, INT8: 4 }

/** VECTOR(dimensions, format): dimensions in `precision` (0 = flexible), format code in `scale`. */
export const vectorType = (dims = 0, format = 0): OraType =>
  t({
    kind: "vector",
    dty: Dty.VECTOR,
    csfrm: 0,
    maxSize: 8192,
    charSize: 0,
    precision: dims,
    scale: format,
    dictName: "VECTOR",
    dictPrecision: null,
    dictScale: null,
    duck: format === 2 ? "FLOAT[]" : format === 4 ? "TINYINT[]" : "DOUBLE[]"
  })

/** Parser input: upper-cased words and punctuation of a type specification. */
export interface TypeTokens {
  readonly words: ReadonlyArray<string>
}

/** The Oracle name of an ANSI character type name (normalized text), or the text itself. */
const ansiCharacterType = (s: string): string =>
  s.replace(/^(?:NATIONAL (?:CHARACTER|CHAR)|NCHAR) VARYING\(/, "NVARCHAR2(").replace(/^(?:CHARACTER|CHAR) VARYING\(/, "VARCHAR2(").replace(/^NATIONAL (?:CHARACTER|CHAR)(?=\(|$)/, "NCHAR")

/**
 * Parses an Oracle type specification such as `VARCHAR2(20 CHAR)`, `NUMBER(*,2)`,
 * `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `INTERVAL DAY(3) TO SECOND`, `LONG RAW`.
 * Returns undefined when the text is not a supported Oracle type.
 */
export const parseOracleType = (spec: string): OraType | undefined => {
  const s = spec.trim().toUpperCase().replace(/\s+/g, " ").replace(/\s*\(\s*/g, "(").replace(/\s*\)/g, ")").replace(/\s*,\s*/g, ",").replace(/,- /g, ",-").trim()
  let m: RegExpMatchArray | null
  const args = (x: string | undefined) => (x === undefined ? [] : x.split(","))
  // the ANSI names of the national and varying character types (SQL Language Reference, "ANSI, DB2, and SQL/DS Data
  // Types"): NATIONAL CHAR[ACTER] is NCHAR, NATIONAL CHAR[ACTER] VARYING and NCHAR VARYING NVARCHAR2, CHAR[ACTER] VARYING VARCHAR2
  const ansi = ansiCharacterType(s)
  if (ansi !== s) return parseOracleType(ansi)
  if ((m = s.match(/^(VARCHAR2|VARCHAR|NVARCHAR2|CHAR|NCHAR|CHARACTER)(?:\((\d+)(?: (CHAR|BYTE))?\))?$/)) !== null) {
    const base = m[1] === "VARCHAR" ? "VARCHAR2" : m[1] === "CHARACTER" ? "CHAR" : (m[1] as "VARCHAR2" | "NVARCHAR2" | "CHAR" | "NCHAR")
    const n = m[2] !== undefined ? Number(m[2]) : base === "CHAR" || base === "NCHAR" ? 1 : 4000
    return charType(base, n, m[3] === "CHAR")
  }
  if ((m = s.match(/^(?:NUMBER|NUMERIC|DECIMAL|DEC)(?:\(([^)]*)\))?$/)) !== null) {
    const a = args(m[1])
    if (a.length === 0) return s.startsWith("NUMBER") ? numberType() : numberType(38, 0)
    const p = a[0] === "*" ? undefined : Number(a[0])
    const sc = a[1] !== undefined ? Number(a[1]) : 0
    return numberType(p ?? 38, sc)
  }
  if (/^(INTEGER|INT|SMALLINT)$/.test(s)) return numberType(38, 0)
  if ((m = s.match(/^FLOAT(?:\((\d+)\))?$/)) !== null) return floatType(m[1] !== undefined ? Number(m[1]) : 126)
  if (s === "REAL") return floatType(63)
  if (s === "DOUBLE PRECISION") return floatType(126)
  if (s === "BINARY_FLOAT") return binaryFloatType
  if (s === "BINARY_DOUBLE") return binaryDoubleType
  if ((m = s.match(/^RAW\((\d+)\)$/)) !== null) return rawType(Number(m[1]))
  if (s === "DATE") return dateType
  if ((m = s.match(/^TIMESTAMP(?:\((\d)\))?( WITH TIME ZONE| WITH LOCAL TIME ZONE)?$/)) !== null)
    return timestampType(m[1] !== undefined ? Number(m[1]) : 6, m[2] === undefined ? "" : m[2].includes("LOCAL") ? "ltz" : "tz")
  if ((m = s.match(/^INTERVAL DAY(?:\((\d)\))? TO SECOND(?:\((\d)\))?$/)) !== null)
    return intervalDsType(m[1] !== undefined ? Number(m[1]) : 2, m[2] !== undefined ? Number(m[2]) : 6)
  if ((m = s.match(/^INTERVAL YEAR(?:\((\d)\))? TO MONTH$/)) !== null) return intervalYmType(m[1] !== undefined ? Number(m[1]) : 2)
  if (s === "BOOLEAN") return booleanType
  if (s === "CLOB") return clobType
  if (s === "NCLOB") return nclobType
  if (s === "BLOB") return blobType
  if (s === "LONG RAW") return longRawType
  if (s === "LONG") return longType
  if (s === "JSON") return jsonType
  if (s === "ROWID") return rowidType
  if (/^UROWID(?:\(\d+\))?$/.test(s)) return urowidType
  if ((m = s.match(/^VECTOR(?:\((\*|\d+)(?:,(\*|FLOAT32|FLOAT64|INT8))?\))?$/)) !== null) {
    const format = VECTOR_FORMATS[m[2] ?? "*"]
    return format === undefined ? undefined : vectorType(m[1] === undefined || m[1] === "*" ? 0 : Number(m[1]), format)
  }
  return undefined
}

/** Describes a DuckDB result column that has no declared Oracle type. */
export const inferFromDuck = (type: DuckDBType, version: "19c" | "23ai"): OraType => {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return version === "23ai" ? booleanType : numberType()
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
      return type.alias === EXACT_YM_ALIAS ? intervalYmType(9) : numberType()
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.DOUBLE:
      return numberType()
    case DuckDBTypeId.DECIMAL: {
      if (type.alias === EXACT_DS_ALIAS) return intervalDsType(9, 9)
      const d = type as unknown as { width: number; scale: number }
      return numberType(d.width, d.scale)
    }
    case DuckDBTypeId.FLOAT:
      return binaryFloatType
    case DuckDBTypeId.DATE:
    case DuckDBTypeId.TIMESTAMP_S:
      return dateType
    case DuckDBTypeId.TIMESTAMP:
      return timestampType(6)
    case DuckDBTypeId.TIMESTAMP_MS:
      return timestampType(3)
    case DuckDBTypeId.TIMESTAMP_NS:
      return timestampType(9)
    case DuckDBTypeId.TIMESTAMP_TZ:
      return timestampType(6, "tz")
    case DuckDBTypeId.INTERVAL:
      return intervalDsType(9, 6)
    case DuckDBTypeId.BLOB:
      return type.alias === BLOB_RESULT_ALIAS ? blobType : rawType(2000)
    case DuckDBTypeId.VARCHAR:
      if (type.alias === CLOB_RESULT_ALIAS) return clobType
      if (type.alias === ZONED_ALIAS) return timestampType(6, "tz")
      if (type.alias === WALL_ALIAS) return timestampType(9)
      return type.alias === "JSON" ? jsonType : type.alias === EXACT_NUMBER_ALIAS ? numberType() : charType("VARCHAR2", 4000)
    default:
      return charType("VARCHAR2", 4000)
  }
}

/**
 * The length Oracle keeps a character bind of `bytes` at, and describes it by as a select item (results.ts,
 * char-item-types.ts): 32, 128, 2000 or 4000 ("bind variable graduation": C. Antognini, Troubleshooting Oracle
 * Performance; V$SQL_BIND_METADATA.MAX_LENGTH 32 for a VARCHAR2(32) bind, and SQL*Plus sizing `SELECT :s s FROM DUAL`
 * by it: http://huang.freeshell.org/oranotes/BindLength.txt).
 */
export const graduatedBindLength = (bytes: number): number => (bytes <= 32 ? 32 : bytes <= 128 ? 128 : bytes <= 2000 ? 2000 : 4000)
