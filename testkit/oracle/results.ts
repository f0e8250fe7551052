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
import type { BinaryKind, FromRef, QueryShape } from "./translate.ts"
import { binaryDoubleType, binaryFloatType, booleanType, charType, dateType, Dty, graduatedBindLength, inferFromDuck, jsonType, numberType, rowidType, timestampType, type OraType } from "./types.ts"

/** Maps result columns to declared types where the select list makes that possible. */
export const describeColumns = (
  shape: QueryShape | undefined,
  cols: ReadonlyArray<ColumnInfo>,
  version: OracleVersion,
  lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined,
  /** The declared type of bind parameter `$n` (1-based), when the client sent its metadata. */
  bindType: (param: number) => OraType | undefined = () => undefined,
  /**
   * The FROM tables (indexes into `shape.from`) whose row ids the query selects after its columns, in that order: their
   * LOB columns' locators write back to the row (session-columns.ts lobTablesOf). By default a single table's.
   */
  lobTables: ReadonlyArray<number> = shape?.from.length === 1 ? [0] : []
): Array<ResultColumn> => {
  const infer = (c: ColumnInfo): ResultColumn => ({ name: decodeName(c.name), type: inferFromDuck(c.type, version), nullable: true })
  if (shape === undefined) return cols.map(infer)
  /**
   * Describes the columns from `cols[start]` on with the items of `shape` (the query's, or a FROM subquery's:
   * subquery-shapes.ts), returning the index after the last column described; false when a star's source is unknown.
   */
  const describeShape = (shape: QueryShape, start: number, out: Array<ResultColumn>, top: boolean): number | false => {
    const tables = shape.from.map((f) => ({ ref: f, meta: f.query === undefined ? lookupTable(f.schema, f.table) : undefined }))
    let k = start
    const declared = (c: ColumnInfo, meta: ColumnMeta | undefined, table?: TableMeta, ref?: FromRef): ResultColumn => {
      if (meta === undefined || !compatible(meta.type, c)) return infer(c)
      const rowid = top && table !== undefined && ref !== undefined ? lobTables.indexOf(shape.from.indexOf(ref)) : -1
      const lob = rowid >= 0 && (meta.type.kind === "clob" || meta.type.kind === "nclob" || meta.type.kind === "blob")
      return { name: decodeName(c.name), type: meta.type, nullable: meta.nullable, ...(lob ? { lobSource: { owner: table!.owner, table: table!.name, column: meta.name }, ...(rowid > 0 ? { lobRowid: rowid } : {}) } : {}) }
    }
    for (const item of shape.items) {
      if (k >= cols.length) break
      if (item.kind === "star") {
        const sources = item.qualifier === undefined ? tables : tables.filter((t) => t.ref.alias === item.qualifier || (t.ref.alias === undefined && t.ref.table === item.qualifier))
        if (sources.some((s) => s.meta === undefined && s.ref.query === undefined)) return false
        for (const [n, s] of sources.entries()) {
          // a USING or NATURAL join's common columns are listed once, at the left item's place (DuckDB's order)
          const merged = item.qualifier === undefined ? mergedColumns(sources.slice(0, n), s) : new Set<string>()
          if (merged.size > 0 && s.ref.query !== undefined) return false
          if (merged.size > 0) {
            for (const m of s.meta!.columns) if (k < cols.length && !merged.has(m.name)) out.push(declared(cols[k++]!, m, s.meta, s.ref))
            continue
          }
          if (s.ref.query !== undefined) {
            const next = describeShape(s.ref.query, k, out, false)
            if (next === false) return false
            k = next
          } else for (const m of s.meta!.columns) if (k < cols.length) out.push(declared(cols[k++]!, m, s.meta, s.ref))
        }
      } else if (item.kind === "col") {
        const c = cols[k++]!
        const sources = item.qualifier === undefined ? tables : tables.filter((t) => t.ref.alias === item.qualifier || (t.ref.alias === undefined && t.ref.table === item.qualifier))
        // a column of a FROM subquery: described as the subquery describes its item of that name
        const sub = sources.map((s) => (s.ref.query === undefined ? undefined : subqueryColumn(s.ref.query, item.column))).find((q) => q !== undefined)
        if (sub !== undefined) {
          const one: Array<ResultColumn> = []
          if (describeShape(sub, k - 1, one, false) !== false && one.length === 1) {
            out.push({ ...one[0]!, name: decodeName(c.name) })
            continue
          }
        }
        let meta: ColumnMeta | undefined
        let table: TableMeta | undefined
        let ref: FromRef | undefined
        for (const s of sources) {
          meta = s.meta?.columns.find((m) => m.name === item.column)
          table = s.meta
          ref = s.ref
          if (meta !== undefined) break
        }
        out.push(declared(c, meta, table, ref))
      } else if (item.kind === "typed") {
        const c = cols[k++]!
        out.push(computed({ name: decodeName(c.name), type: item.type, nullable: true }))
      } else if (item.kind === "bind") {
        const c = cols[k++]!
        const declared = bindType(item.param)
        out.push(computed(declared === undefined ? infer(c) : { name: decodeName(c.name), type: declared, nullable: true }))
      } else if (item.kind === "aggregate") {
        // COUNT returns NUMBER, SUM and AVG "the same data type as the numeric data type of the argument" (Oracle SQL
        // Language Reference, SUM / AVG / COUNT): for NUMBER(p,s) arguments that is NUMBER without precision, described
        // as a value computed over columns, precision 0 and scale 0 (number-describe.ts for the sources); a
        // BINARY_DOUBLE / BINARY_FLOAT argument keeps its type (binaryType)
        const c = cols[k++]!
        const inferred = infer(c)
        const binary = binaryType(item, c, bindType)
        out.push(computed(binary !== undefined ? { ...inferred, type: binary } : inferred.type.kind === "number" ? { ...inferred, type: expressionNumberType } : inferred))
      } else if (item.kind === "expr") {
        // an expression with a BINARY_DOUBLE / BINARY_FLOAT operand (column, literal, constant or bind) is of that type;
        // one giving a NUMBER is NUMBER without precision, whatever the operands' declared precision (DuckDB's
        // DECIMAL(p,s) result would say NUMBER(p,s)): precision 0 and scale 0 over columns, precision 0 and scale -127
        // over constants, a CAST's or MIN / MAX's declared type kept (number-describe.ts, with Oracle's metadata cited)
        const c = cols[k++]!
        const binary = binaryType(item, c, bindType)
        const inferred = infer(c)
        if (binary !== undefined) out.push({ ...inferred, type: binary })
        else if (item.number === undefined || item.number === "declared" || inferred.type.kind !== "number") out.push(computed(inferred))
        else out.push({ ...inferred, type: item.number === "columns" ? expressionNumberType : numberType() })
      } else if (item.kind === "rowid") {
        const c = cols[k++]!
        out.push({ name: decodeName(c.name), type: c.typeId === DuckDBTypeId.BIGINT ? rowidType : inferFromDuck(c.type, version), nullable: true })
      } else {
        out.push(infer(cols[k++]!))
      }
    }
    return k
  }
  const out: Array<ResultColumn> = []
  const described = describeShape(shape, 0, out, true)
  let k = described === false ? out.length : described
  for (; k < cols.length; k++) out.push(infer(cols[k]!))
  return out
}

/** The columns of FROM item `s` that its USING or NATURAL join merges into those of the `earlier` items. */
const mergedColumns = (earlier: ReadonlyArray<{ readonly ref: FromRef; readonly meta: TableMeta | undefined }>, s: { readonly ref: FromRef }): Set<string> => {
  const merged = s.ref.merged
  if (merged === undefined) return new Set()
  if (merged !== "natural") return new Set(merged.using)
  const names = (e: { readonly ref: FromRef; readonly meta: TableMeta | undefined }) => (e.meta?.columns.map((c) => c.name) ?? e.ref.query?.names.filter((x) => x !== undefined) ?? [])
  return new Set(earlier.flatMap(names))
}

/**
 * A value the query computes (a function, an expression, a bind): a LOB one is a temporary LOB, "When a LOB is
 * returned from a SQL or PL/SQL built-in function, the result returned is a temporary LOB" (SecureFiles and Large
 * Objects Developer's Guide 23, "Temporary LOBs Created by SQL and PL/SQL Built-in Functions").
 */
const computed = (c: ResultColumn): ResultColumn => (c.type.kind === "clob" || c.type.kind === "nclob" || c.type.kind === "blob" ? { ...c, lobTemporary: true } : c)

/**
 * The one-item shape that gives subquery `query`'s column `column`: its item of that name, or the column of a table
 * (or nested subquery) its `*` reads.
 */
const subqueryColumn = (query: NonNullable<FromRef["query"]>, column: string): QueryShape | undefined => {
  const at = query.names.indexOf(column)
  if (at >= 0) return query.items[at]!.kind === "star" ? undefined : { items: [query.items[at]!], from: query.from }
  const stars = query.items.filter((i) => i.kind === "star")
  // `*`, or `t.*` of one FROM item (a hierarchical query's rewrite selects `alias.*`: hierarchical.ts)
  const read = (f: FromRef) => stars.some((i) => i.qualifier === undefined || i.qualifier === (f.alias ?? f.table))
  for (const f of query.from) {
    if (!read(f)) continue
    if (f.query !== undefined) {
      const nested = subqueryColumn(f.query, column)
      if (nested !== undefined) return nested
    } else return { items: [{ kind: "col", column }], from: query.from }
  }
  return undefined
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
      return spec.csfrm === 2 ? charType("NVARCHAR2", 2000) : charType("VARCHAR2", graduatedBindLength(spec.maxSize))
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
