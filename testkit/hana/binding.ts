/**
 * Parameter binding helpers: bind types for DuckDB, column-wise staging of batches, and copying declared types.
 */
import { BIGINT, BLOB, BOOLEAN, DOUBLE, DuckDBBlobValue, DuckDBTypeId, UBIGINT, VARCHAR } from "@duckdb/node-api"
import type { DuckDBType } from "@duckdb/node-api"
import type { EngineValue, Prepared, Session } from "../engine/index.ts"
import { ticksOfText } from "./longdate.ts"
import { declaredTypes } from "./catalog.ts"
import { decodeName, quoteString } from "./names.ts"
import { duckType, parseTypeText } from "./types.ts"
import type { ParameterRow } from "./params.ts"

/**
 * Bind types of one parameter row: DuckDB infers integral JS numbers as integers, which overflows for large
 * doubles (e.g. -1e300), so integral numbers outside the safe-integer range bind as DOUBLE.
 */
export const bindTypes = (values: readonly unknown[]): (DuckDBType | undefined)[] => {
  const ticks = tickValues.get(values)
  return values.map((v, i) =>
    typeof v === "number" && !Number.isSafeInteger(v) && Number.isFinite(v) && Number.isInteger(v)
      ? DOUBLE
      : typeof v === "bigint" && ticks?.includes(i) === true
        ? UBIGINT
        : undefined
  )
}

/** Rows' values arrays whose listed parameters hold a TIMESTAMP's ticks ({@link ticksForTimestamps}), bound as UBIGINT. */
const tickValues = new WeakMap<readonly unknown[], readonly number[]>()

/**
 * Column-wise staging values of a batch, typed by the JS values hdb's parameters decoded to (numbers → DOUBLE,
 * bigints → BIGINT, booleans, strings → VARCHAR, binaries → BLOB); undefined when a column mixes kinds.
 */
export const stagedColumns = (
  rows: readonly ParameterRow[],
  count: number
): Array<{ type: DuckDBType; values: EngineValue[] }> | undefined => {
  const out: Array<{ type: DuckDBType; values: EngineValue[] }> = []
  for (let c = 0; c < count; c++) {
    let type: DuckDBType | undefined
    const values: EngineValue[] = new Array(rows.length)
    for (let r = 0; r < rows.length; r++) {
      const v = rows[r]!.values[c] ?? null
      values[r] = v
      if (v === null) continue
      const t =
        typeof v === "number" ? DOUBLE : typeof v === "bigint" ? BIGINT : typeof v === "boolean" ? BOOLEAN : typeof v === "string" ? VARCHAR : v instanceof DuckDBBlobValue ? BLOB : undefined
      if (t === undefined || (type !== undefined && type !== t)) return undefined
      type = t
    }
    out.push({ type: type ?? VARCHAR, values })
  }
  return out
}

/** Copies the declared HANA column types (DuckDB column comments) of one table to another with the same columns. */
export const copyDeclaredTypes = async (session: Session, from: string, to: string): Promise<void> => {
  const rows = await session.queryAll(`SELECT column_name, comment FROM duckdb_columns() WHERE table_oid = (SELECT table_oid FROM duckdb_tables() WHERE table_oid IN (SELECT table_oid FROM duckdb_columns()) AND ${oidMatch(from)}) AND comment IS NOT NULL AND comment <> ''`)
  const statements = rows.map(([name, comment]) => `COMMENT ON COLUMN ${to}.${quoteIdent(String(name))} IS ${quoteString(String(comment))}`)
  if (statements.length > 0) await session.execute(statements.join("; "))
}

/** A DuckDB name (already encoded) as a quoted identifier. */
export const quoteIdent = (duckName: string): string => `"${duckName.replace(/"/g, '""')}"`

/** SQL condition selecting a duckdb_tables() row by a quoted, possibly schema-qualified DuckDB name. */
export const oidMatch = (qualifiedName: string): string => {
  const parts = qualifiedName.split(/"\."/).map((p) => p.replace(/^"|"$/g, "").replace(/""/g, '"'))
  return parts.length === 2
    ? `schema_name = ${quoteString(parts[0]!)} AND table_name = ${quoteString(parts[1]!)}`
    : `table_name = ${quoteString(parts[0]!)} AND (database_name = 'temp' OR schema_name = current_schema()) ORDER BY database_name = 'temp' DESC LIMIT 1`
}

/**
 * Gives a new view's columns the declared types of the table columns they pass through unchanged (same name and
 * DuckDB storage type in a table the view reads), so results read through the view keep e.g. NVARCHAR(10) or NCLOB.
 */
export const copyViewTypes = async (session: Session, view: string, query: string): Promise<void> => {
  let tables: string[]
  try {
    tables = session.tableNames(query)
  } catch {
    return
  }
  const declared = await declaredTypes(session, tables)
  const viewName = view.split(/"\."/).pop()!.replace(/^"|"$/g, "").replace(/""/g, '"')
  const columns = await session.queryAll(
    `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY database_name = 'temp' DESC, column_index`,
    [viewName]
  )
  const statements: string[] = []
  for (const [name, dataType] of columns) {
    const d = declared.get(String(name))
    const parsed = d === undefined ? undefined : parseTypeText(d.type)
    if (parsed === undefined || duckType(parsed).replace(/\s/g, "") !== String(dataType).replace(/\s/g, "")) continue
    statements.push(`COMMENT ON COLUMN ${view}.${quoteIdent(String(name))} IS ${quoteString(d!.type)}`)
  }
  if (statements.length > 0) await session.execute(statements.join("; "))
}

/**
 * The test-only BIT and JSON types travel as binary (hdb writes a Buffer as is, a string as hex): their parameter
 * bytes are the same text a result carries ('0101', UTF-8 JSON), so a value read can be written back unchanged.
 */
export const textForTestOnlyTypes = (rows: readonly ParameterRow[], types: ReadonlyArray<{ readonly name: string }>): void => {
  const textual = types.flatMap((t, i) => (t.name === "BIT" || t.name === "JSON" ? [i] : []))
  if (textual.length === 0) return
  for (const row of rows) {
    for (const i of textual) {
      const v = row.values[i]
      if (v instanceof DuckDBBlobValue) row.values[i] = Buffer.from(v.bytes).toString("utf8")
    }
  }
}

/**
 * Parameter values cut to their declared type as HANA stores them, where DuckDB's casts would round instead:
 * - a SECONDDATE sent as a TIMESTAMP with milliseconds (data format versions 1-3) keeps whole seconds (hdb itself
 *   truncates at version 4 and later: lib/protocol/Writer.js writeSecondDate keeps whole seconds);
 * - a TIME sent as a TIME with milliseconds (versions 1-3) keeps whole seconds, as TIME and SECONDTIME have second
 *   precision (SAP HANA SQL Reference, "Datetime Data Types"); from version 4 hdb sends a SECONDTIME in whole seconds;
 * - a DECIMAL(p,s) sent as a DECIMAL with more than s fraction digits (versions 1-7) keeps s of them: HANA truncates
 *   (SAP HANA SQL Reference, "Numeric Data Types": in a DECIMAL(5,4) column 3.141592 is stored as 3.1415), as hdb
 *   does itself for the FIXED types of version 8 (Writer.js toFixedDecimal, "Truncate decimal").
 */
export const truncateToDeclared = (rows: readonly ParameterRow[], types: ReadonlyArray<{ readonly name: string; readonly scale: number }>): void => {
  const cuts = types.flatMap((t, i) =>
    t.name === "SECONDDATE" || t.name === "TIME" ? [[i, -1] as const] : t.name === "DECIMAL" && t.scale >= 0 ? [[i, t.scale] as const] : []
  )
  if (cuts.length === 0) return
  for (const row of rows) {
    for (const [i, scale] of cuts) {
      const v = row.values[i]
      if (typeof v !== "string") continue
      if (scale < 0) row.values[i] = v.replace(/\.\d*$/, "")
      else {
        const dot = v.indexOf(".")
        if (dot >= 0 && v.length - dot - 1 > scale && /^-?\d+\.\d+$/.test(v)) row.values[i] = v.slice(0, scale === 0 ? dot : dot + 1 + scale)
      }
    }
  }
}

/** Per prepared statement, the parameters DuckDB types as a TIMESTAMP's ticks (UBIGINT, longdate.ts). */
const tickSlots = new WeakMap<Prepared, readonly number[]>()

/**
 * Parameter values bound where DuckDB expects a TIMESTAMP's ticks (a TIMESTAMP column assigned or compared, longdate.ts)
 * converted from their text (params.ts: all seven fraction digits of a LONGDATE) to the ticks; DuckDB cannot cast a
 * text to them.
 */
export const ticksForTimestamps = (rows: readonly ParameterRow[], prepared: Prepared | undefined): void => {
  if (prepared === undefined) return
  let slots = tickSlots.get(prepared)
  if (slots === undefined) {
    slots = Array.from({ length: prepared.parameterCount }, (_, i) => i).filter((i) => prepared.parameterType(i)?.typeId === DuckDBTypeId.UBIGINT)
    tickSlots.set(prepared, slots)
  }
  if (slots.length === 0) return
  for (const row of rows) {
    for (const i of slots) {
      const v = row.values[i]
      if (typeof v !== "string") continue
      const ticks = ticksOfText(v)
      if (ticks !== undefined) row.values[i] = ticks
    }
    tickValues.set(row.values, slots)
  }
}
