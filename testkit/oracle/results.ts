/**
 * Result building: describes a query's columns with the declared Oracle types of the table columns its select list
 * names, and with types inferred from DuckDB's for everything else.
 */
import { DuckDBTypeId } from "@duckdb/node-api"
import type { ColumnInfo } from "../engine/index.ts"
import type { ColumnMeta, TableMeta } from "./catalog.ts"
import type { OracleVersion } from "./errors.ts"
import { decodeName } from "./names.ts"
import type { BindSpec, ResultColumn } from "./statement.ts"
import type { BinaryKind, QueryShape } from "./translate.ts"
import { binaryDoubleType, binaryFloatType, booleanType, charType, dateType, Dty, inferFromDuck, jsonType, numberType, rowidType, timestampType, type OraType } from "./types.ts"

/** Maps result columns to declared types where the select list makes that possible. */
export const describeColumns = (
  shape: QueryShape | undefined,
  cols: ReadonlyArray<ColumnInfo>,
  version: OracleVersion,
  lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined,
  /** The declared type of bind parameter `$n` (1-based), when the client sent its metadata. */
  bindType: (param: number) => OraType | undefined = () => undefined
): Array<ResultColumn> => {
  const infer = (c: ColumnInfo): ResultColumn => ({ name: decodeName(c.name), type: inferFromDuck(c.type, version), nullable: true })
  if (shape === undefined) return cols.map(infer)
  const tables = shape.from.map((f) => ({ ref: f, meta: lookupTable(f.schema, f.table) }))
  const out: Array<ResultColumn> = []
  let k = 0
  const declared = (c: ColumnInfo, meta: ColumnMeta | undefined, table?: TableMeta): ResultColumn => {
    if (meta === undefined || !compatible(meta.type, c)) return infer(c)
    const lob = table !== undefined && shape.from.length === 1 && (meta.type.kind === "clob" || meta.type.kind === "nclob" || meta.type.kind === "blob")
    return { name: decodeName(c.name), type: meta.type, nullable: meta.nullable, ...(lob ? { lobSource: { owner: table.owner, table: table.name, column: meta.name } } : {}) }
  }
  for (const item of shape.items) {
    if (k >= cols.length) break
    if (item.kind === "star") {
      const sources = item.qualifier === undefined ? tables : tables.filter((t) => t.ref.alias === item.qualifier || (t.ref.alias === undefined && t.ref.table === item.qualifier))
      if (sources.some((s) => s.meta === undefined)) return [...out, ...cols.slice(k).map(infer)]
      for (const s of sources) for (const m of s.meta!.columns) if (k < cols.length) out.push(declared(cols[k++]!, m, s.meta))
    } else if (item.kind === "col") {
      const c = cols[k++]!
      const sources = item.qualifier === undefined ? tables : tables.filter((t) => t.ref.alias === item.qualifier || (t.ref.alias === undefined && t.ref.table === item.qualifier))
      let meta: ColumnMeta | undefined
      let table: TableMeta | undefined
      for (const s of sources) {
        meta = s.meta?.columns.find((m) => m.name === item.column)
        table = s.meta
        if (meta !== undefined) break
      }
      out.push(declared(c, meta, table))
    } else if (item.kind === "typed") {
      const c = cols[k++]!
      out.push({ name: decodeName(c.name), type: item.type, nullable: true })
    } else if (item.kind === "bind") {
      const c = cols[k++]!
      const declared = bindType(item.param)
      out.push(declared === undefined ? infer(c) : { name: decodeName(c.name), type: declared, nullable: true })
    } else if (item.kind === "aggregate") {
      // COUNT returns NUMBER, SUM and AVG "the same data type as the numeric data type of the argument" (Oracle SQL
      // Language Reference, SUM / AVG / COUNT): for NUMBER(p,s) arguments that is NUMBER without precision or scale,
      // described as precision 0, scale -127; a BINARY_DOUBLE / BINARY_FLOAT argument keeps its type (binaryType)
      const c = cols[k++]!
      const inferred = infer(c)
      const binary = binaryType(item, c, bindType)
      out.push(binary !== undefined ? { ...inferred, type: binary } : inferred.type.kind === "number" ? { ...inferred, type: numberType() } : inferred)
    } else if (item.kind === "expr") {
      // arithmetic with a BINARY_DOUBLE / BINARY_FLOAT operand (column, literal, constant or bind) is of that type;
      // on NUMBERs it is NUMBER without precision, whatever the operands' declared precision (DuckDB's DECIMAL(p,s)
      // result would say NUMBER(p,s)): precision 0 and scale 0 over columns, precision 0 and scale -127 over constants
      // (Oracle JDBC's metadata of `X1 / X2` over a subquery's columns is 0, 0 and of `1/10` 0, -127:
      // https://github.com/OHDSI/DatabaseConnector/pull/189; python-oracledb typed `n1/sqrt(252)` and a NUMBER(3,0)
      // column divided by 4 as Arrow INT64 by their scale 0 until it required a non-zero precision, its issue 510:
      // https://github.com/oracle/python-oracledb/issues/510, commit 968da54; "Oracle JDBC driver doesn't provide
      // scale/precision information for expressions (they both are equal to zero)":
      // https://github.com/dbeaver/dbeaver/issues/1767)
      const c = cols[k++]!
      const binary = binaryType(item, c, bindType)
      const inferred = infer(c)
      if (binary !== undefined) out.push({ ...inferred, type: binary })
      else if (item.arithmetic === undefined || inferred.type.kind !== "number") out.push(inferred)
      else out.push({ ...inferred, type: item.arithmetic === "columns" ? expressionNumberType : numberType() })
    } else if (item.kind === "rowid") {
      const c = cols[k++]!
      out.push({ name: decodeName(c.name), type: c.typeId === DuckDBTypeId.BIGINT ? rowidType : inferFromDuck(c.type, version), nullable: true })
    } else {
      out.push(infer(cols[k++]!))
    }
  }
  for (; k < cols.length; k++) out.push(infer(cols[k]!))
  return out
}

/** NUMBER as Oracle describes an expression over columns: no precision, scale 0 (see describeColumns, "expr"). */
const expressionNumberType: OraType = { ...numberType(), scale: 0 }

/**
 * The native floating-point type of an expression item whose DuckDB result is a float (DuckDB's DOUBLE alone cannot
 * tell BINARY_DOUBLE from NUMBER): BINARY_DOUBLE when an operand or bind is one, else BINARY_FLOAT when one is.
 */
const binaryType = (
  item: { readonly binary?: BinaryKind; readonly params?: ReadonlyArray<number> },
  c: ColumnInfo,
  bindType: (param: number) => OraType | undefined
): OraType | undefined => {
  if (c.typeId !== DuckDBTypeId.DOUBLE && c.typeId !== DuckDBTypeId.FLOAT) return undefined
  const binds = (item.params ?? []).map((p) => bindType(p)?.kind)
  if (item.binary === "double" || binds.includes("double")) return binaryDoubleType
  if (item.binary === "float" || binds.includes("float")) return binaryFloatType
  return undefined
}

/** True when a DuckDB result column can carry values of the declared Oracle type. */
const compatible = (t: OraType, c: ColumnInfo): boolean => {
  const id = c.typeId
  switch (t.duck) {
    case "VARCHAR":
    case "JSON":
      return id === DuckDBTypeId.VARCHAR
    case "BLOB":
      return id === DuckDBTypeId.BLOB
    case "DOUBLE":
      return id === DuckDBTypeId.DOUBLE
    case "FLOAT":
      return id === DuckDBTypeId.FLOAT
    case "BOOLEAN":
      return id === DuckDBTypeId.BOOLEAN
    case "TIMESTAMP":
      return id === DuckDBTypeId.TIMESTAMP
    case "TIMESTAMP_NS":
      return id === DuckDBTypeId.TIMESTAMP_NS
    case "TIMESTAMP_S":
      return id === DuckDBTypeId.TIMESTAMP_S
    case "TIMESTAMPTZ":
      return id === DuckDBTypeId.TIMESTAMP_TZ
    case "INTERVAL":
      return id === DuckDBTypeId.INTERVAL
    case "BIGINT":
      return id === DuckDBTypeId.BIGINT
    case "FLOAT[]":
    case "DOUBLE[]":
    case "TINYINT[]":
      return id === DuckDBTypeId.LIST && c.type.toString() === t.duck
    default:
      return t.duck.startsWith("DECIMAL") ? id === DuckDBTypeId.DECIMAL && `DECIMAL(${c.precision},${c.scale})` === t.duck : false
  }
}

/**
 * The Oracle type a bind's metadata declares (dty and character set form): a bind selected as a column is
 * described with it, as Oracle does, rather than with the type DuckDB gives the parameter.
 */
export const bindSpecType = (spec: BindSpec | undefined): OraType | undefined => {
  if (spec === undefined) return undefined
  switch (spec.dty) {
    case Dty.BINARY_DOUBLE:
      return binaryDoubleType
    case Dty.BINARY_FLOAT:
      return binaryFloatType
    case Dty.VARCHAR:
    case Dty.CHAR:
      return spec.csfrm === 2 ? charType("NVARCHAR2", 2000) : charType("VARCHAR2", 4000)
    case Dty.DATE:
      return dateType
    case Dty.TIMESTAMP:
      return timestampType(9)
    case Dty.TIMESTAMP_TZ:
      return timestampType(9, "tz")
    case Dty.TIMESTAMP_LTZ:
      return timestampType(9, "ltz")
    case Dty.JSON:
      return jsonType
    case Dty.BOOLEAN:
      return booleanType
    case Dty.NUMBER:
      return numberType()
    default:
      return undefined
  }
}
