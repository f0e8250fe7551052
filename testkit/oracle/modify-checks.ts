/**
 * `ALTER TABLE ... MODIFY` of a column that holds values to a smaller size, checked as Oracle checks it (SQL Language
 * Reference, "ALTER TABLE", modify_col_properties; Database Error Messages):
 * - a VARCHAR2 / CHAR / NVARCHAR2 / NCHAR / RAW length below a value's length: ORA-01441 "cannot decrease column
 *   length because some value is too big" (values that fit the new length keep it); a CHAR / NCHAR column holds its
 *   values blank-padded to its length, so any value is too big for a shorter one ("You must set the initialization
 *   parameter BLANK_TRIMMING=TRUE to decrease the length of a non-empty CHAR column", Administrator's Guide,
 *   "Modifying an Existing Column Definition"; BLANK_TRIMMING is FALSE by default, Database Reference);
 * - CHAR to VARCHAR2 or back (NCHAR / NVARCHAR2 likewise) with another length while some row holds a value: "only if
 *   the column contains nulls in all rows or if you do not attempt to change the column size" (SQL Language
 *   Reference, "ALTER TABLE", modify_col_properties), ORA-01439 (the code is unconfirmed: README.md);
 * - a NUMBER whose precision or scale decreases, or whose scale grows without the precision growing as much (fewer
 *   integer digits), while some row holds a value: ORA-01440 "column to be modified must be empty to decrease
 *   precision or scale" ("An attempt to increase the scale without also increasing the precision caused this
 *   message"). A NUMBER without precision holds any value, so any precision is a decrease;
 * - a TIMESTAMP [WITH [LOCAL] TIME ZONE] whose fractional second precision, or an INTERVAL whose leading field or
 *   fractional second precision, decreases while some row holds a value: ORA-30082 "datetime/interval column to be
 *   modified must be empty to decrease fractional second or leading field precision" ("Such columns are only
 *   allowed to increase the precisions", https://docs.oracle.com/en/error-help/db/ora-30082/).
 */
import { blankPaddedSql, isBlankPadded, sizedInCharacters } from "./char-writes.ts"
import { Dty, type OraType } from "./types.ts"
import { duckIdent, quoteDuck } from "./names.ts"
import { OraError } from "./errors.ts"

/** The length of a character or RAW value in the unit its column counts (bytes unless national or `n CHAR`). */
const lengthOf = (column: string, type: OraType, typeText: string): string =>
  type.kind === "raw" ? `octet_length(${column})` : type.kind === "nvarchar" || /\bCHAR\s*\)/i.test(typeText) ? `length(${column})` : `strlen(${column})`

/** True when NUMBER `to` cannot hold every value NUMBER `from` may hold. */
const numberNarrows = (from: OraType, to: OraType): boolean => {
  if (to.dictPrecision === null && to.dictName === "NUMBER") return false
  if (from.dictPrecision === null && from.dictName === "NUMBER") return true
  return to.precision < from.precision || to.scale < from.scale || to.precision - to.scale < from.precision - from.scale
}

const DATETIME_KINDS = new Set(["timestamp", "timestamptz", "timestampltz", "intervalds", "intervalym"])

/** True when datetime or interval type `to` has a smaller fractional second or leading field precision than `from`. */
const datetimeNarrows = (from: OraType, to: OraType): boolean =>
  from.kind === to.kind && DATETIME_KINDS.has(from.kind) && (to.scale < from.scale || (from.kind.startsWith("interval") && to.precision < from.precision))

/**
 * A DuckDB query over `target` that raises the ORA- error when changing column `name` from `from` to `to` (declared as
 * `typeText`) would need a value changed, or undefined when the change keeps every value.
 */
export const narrowingGuard = (target: string, name: string, from: OraType, to: OraType, typeText: string): string | undefined => {
  const column = duckIdent(name)
  const character = (t: OraType) => t.kind === "varchar" || t.kind === "nvarchar"
  if (character(from) && from.kind === to.kind && (from.dty === Dty.CHAR) !== (to.dty === Dty.CHAR) && from.charSize !== to.charSize)
    return `SELECT error('ORA-01439: column to be modified must be empty to change datatype') FROM ${target} WHERE ${column} IS NOT NULL LIMIT 1`
  // a CHAR value is blank-padded to its column's length, so a shorter CHAR column fits none of them
  if (character(from) && from.kind === to.kind && from.dty === Dty.CHAR && to.dty === Dty.CHAR && to.charSize < from.charSize)
    return `SELECT error('ORA-01441: cannot decrease column length because some value is too big') FROM ${target} WHERE ${column} IS NOT NULL LIMIT 1`
  if ((from.kind === "varchar" || from.kind === "nvarchar" || from.kind === "raw") && from.kind === to.kind && to.charSize > 0 && to.charSize < from.charSize)
    return `SELECT error('ORA-01441: cannot decrease column length because some value is too big') FROM ${target} WHERE ${lengthOf(column, to, typeText)} > ${to.charSize} LIMIT 1`
  if (from.kind === "number" && to.kind === "number" && from.dictName === "NUMBER" && to.dictName === "NUMBER" && numberNarrows(from, to))
    return `SELECT error('ORA-01440: column to be modified must be empty to decrease precision or scale') FROM ${target} WHERE ${column} IS NOT NULL LIMIT 1`
  if (datetimeNarrows(from, to))
    return `SELECT error('ORA-30082: datetime/interval column to be modified must be empty to decrease fractional second or leading field precision') FROM ${target} WHERE ${column} IS NOT NULL LIMIT 1`
  return undefined
}

/**
 * The DuckDB UPDATE that blank-pads the values of column `name` made a CHAR / NCHAR one of a larger size or from a
 * VARCHAR2 / NVARCHAR2: "If you are modifying a table to increase the length of a column of data type CHAR, ... the
 * CHAR value in each row must be blank-padded to satisfy the new column length" (Database Administrator's Guide,
 * "Modifying an Existing Column Definition"). A CHAR column made VARCHAR2 keeps its values padded: "The data type has
 * changed, but the data is still right padded with spaces"
 * (https://renenyffenegger.ch/notes/development/databases/Oracle/SQL/data-types/_change/index), as stored
 * (char-writes.ts). Undefined for other changes.
 */
export const charPaddingUpdate = (target: string, name: string, from: OraType, to: OraType): string | undefined => {
  if (from.kind !== to.kind || !isBlankPadded(to) || (isBlankPadded(from) && from.charSize === to.charSize && sizedInCharacters(from) === sizedInCharacters(to))) return undefined
  const column = duckIdent(name)
  return `UPDATE ${target} SET ${column} = ${blankPaddedSql(column, to)} WHERE ${column} IS NOT NULL`
}

/**
 * The `USING` clause of DuckDB's `ALTER COLUMN ... TYPE` that carries column `name`'s values from `from`'s storage to
 * `to`'s exactly, or "" when DuckDB's own cast does: an INTERVAL DAY TO SECOND widened to SECOND(7-9), or YEAR TO
 * MONTH to YEAR(9), moves from DuckDB's INTERVAL to the exact storage of intervals.ts (DECIMAL seconds, BIGINT months).
 */
export const storageConversion = (name: string, from: OraType, to: OraType, dbOffsetMinutes = 0): string => {
  const column = duckIdent(name)
  // a TIMESTAMP WITH LOCAL TIME ZONE column made a DATE ("You can modify any TIMESTAMP WITH LOCAL TIME ZONE to a DATE
  // column", SQL Language Reference, "ALTER TABLE"): the wall clock in the database time zone, in which Oracle stores
  // such values, its fraction rounded to the second (both unconfirmed: README.md)
  if (from.kind === "timestampltz" && to.kind === "date") {
    const instant = from.duck === "VARCHAR" ? `ora_tstz_utc(${column}, '+00:00')` : column
    return ` USING CAST(timezone('UTC', ${instant}) + INTERVAL (${dbOffsetMinutes}) MINUTE AS TIMESTAMP_S)`
  }
  if (from.kind !== to.kind || from.duck !== "INTERVAL" || to.duck === "INTERVAL") return ""
  return from.kind === "intervalds" ? ` USING ora_ds_of_duck(${column})` : from.kind === "intervalym" ? ` USING ora_ym_of_duck(${column})` : ""
}

/** What {@link rebuildWithLengthCheck} needs of the engine session. */
export interface RebuildEngine {
  execute(sql: string, params?: ReadonlyArray<string>): Promise<number>
  queryAll(sql: string, params?: ReadonlyArray<string>): Promise<Array<Array<unknown>>>
}

/** The ORA-12899 check ddl.ts gives a character or RAW column of `size` (its length counted by `length`). */
export const lengthCheck = (length: string, label: string, size: number): string => {
  const where = label.replace(/'/g, "''")
  return `CHECK (CASE WHEN ${length} <= ${size} THEN true ELSE error('ORA-12899: value too large for column ${where} (actual: ' || ${length} || ', maximum: ${size})') END)`
}

/** The length expression of column `name` as ddl.ts counts it for `type` declared as `typeText`. */
export const lengthExpression = (name: string, type: OraType, typeText: string): string => lengthOf(duckIdent(name), type, typeText)

/**
 * Gives the column labelled `label` (`"OWNER"."TABLE"."COL"`, as the ORA-12899 text names it) of DuckDB table
 * `schema.table` (encoded names) a length check of `size`, its length counted by `length`: DuckDB cannot alter or add
 * a CHECK constraint, so the table is rebuilt from its stored definition with the new bound, its rows copied and its
 * indexes made again. Returns false, leaving the table as it was, when other tables depend on it (foreign keys).
 */
export const rebuildWithLengthCheck = (engine: RebuildEngine, schema: string, table: string, label: string, length: string, size: number): Promise<boolean> =>
  rebuildTable(engine, schema, table, (ddl) => withLengthCheck(ddl, label, length, size))

/** The DuckDB variable that is true while {@link rebuildTable} copies a table's rows back. */
export const REBUILD_VARIABLE = "ora_rebuild"

/**
 * Rebuilds DuckDB table `schema.table` (encoded names) from its stored `CREATE TABLE` text as `edit` changes it (DuckDB
 * cannot add or drop a constraint of a table): its rows kept aside in a TEMP table, the table dropped and made again
 * under its own name, the rows copied back and its indexes made again. It is never renamed: DuckDB keeps the foreign
 * keys a table holds on the tables they reference by the holder's name, and a renamed holder leaves that record
 * stale (a later DELETE from the referenced table then fails or invalidates the database). Returns false, leaving
 * the table as it was, when other tables reference it (DuckDB refuses to drop it); when the new table cannot be made
 * or takes the rows (a constraint they break), the old one is put back with them and the error is raised. With
 * `renamedTo` the table is made under that name (ALTER TABLE ... RENAME of a table holding foreign keys).
 */
export const rebuildTable = async (engine: RebuildEngine, schema: string, table: string, edit: (ddl: string) => string, renamedTo?: string): Promise<boolean> => {
  // the rows go back with NOVALIDATE checks suspended (add-constraint.ts `NOVALIDATE_EXEMPTION`)
  const copy = async (sql: string) => {
    await engine.execute(`SET VARIABLE ${REBUILD_VARIABLE} = true`)
    try {
      await engine.execute(sql)
    } finally {
      await engine.execute(`RESET VARIABLE ${REBUILD_VARIABLE}`)
    }
  }
  const rows = await engine.queryAll("SELECT sql FROM duckdb_tables() WHERE schema_name = $1 AND table_name = $2", [schema, table])
  const ddl = rows[0]?.[0]
  if (typeof ddl !== "string") return false
  const named = (sql: string) => (renamedTo === undefined ? sql : withTableName(sql, `${quoteDuck(schema)}.${quoteDuck(renamedTo)}`))
  const rebuilt = named(edit(ddl))
  const indexes = (await engine.queryAll("SELECT index_name, sql FROM duckdb_indexes() WHERE schema_name = $1 AND table_name = $2 AND sql IS NOT NULL", [schema, table])).map(([, sql]) => String(sql))
  const target = `${quoteDuck(schema)}.${quoteDuck(table)}`
  const made = `${quoteDuck(schema)}.${quoteDuck(renamedTo ?? table)}`
  const kept = `temp.main.${quoteDuck(`${schema}.${table}$rebuild`)}`
  await engine.execute(`CREATE TEMP TABLE ${kept} AS SELECT * FROM ${target}`)
  try {
    try {
      await engine.execute(`DROP TABLE ${target}`)
    } catch {
      return false
    }
    try {
      await engine.execute(rebuilt)
      await copy(`INSERT INTO ${made} SELECT * FROM ${kept}`)
    } catch (e) {
      // put the old table back as it was
      await engine.execute(`DROP TABLE IF EXISTS ${made}`)
      await engine.execute(ddl)
      await copy(`INSERT INTO ${target} SELECT * FROM ${kept}`)
      for (const sql of indexes) await engine.execute(sql)
      throw e
    }
    for (const sql of indexes) await engine.execute(named(sql))
    return true
  } finally {
    await engine.execute(`DROP TABLE IF EXISTS ${kept}`)
  }
}

/**
 * DuckDB's stored `CREATE TABLE t(...)` or `CREATE INDEX i ON t(...)` text with the table named `name` instead: the
 * name is what comes before the first parenthesis outside quotes (after ON for an index).
 */
const withTableName = (sql: string, name: string): string => {
  const on = /^CREATE\s+(?:UNIQUE\s+)?INDEX\b/i.test(sql) ? sql.search(/\sON\s/i) + 4 : sql.search(/TABLE\s/i) + 6
  let quoted = false
  for (let i = on; i < sql.length; i++) {
    const c = sql[i]
    if (c === '"') quoted = !quoted
    else if (c === "(" && !quoted) return `${sql.slice(0, on)}${name}${sql.slice(i)}`
  }
  return sql
}

/**
 * DuckDB's stored `CREATE TABLE` text with the length check of `label` set to `size`: DuckDB stores a check as
 * `CASE WHEN ((strlen(S) <= 10)) THEN ... ELSE "error"((('ORA-12899: value too large for column "O"."T"."S" (actual:
 * ' || strlen(S)) || ', maximum: 10)')) END`; a column without one gets one.
 */
const withLengthCheck = (ddl: string, label: string, length: string, size: number): string => {
  const at = ddl.indexOf(`ORA-12899: value too large for column ${label.replace(/'/g, "''")} (actual: `)
  if (at < 0) {
    const end = ddl.lastIndexOf(")")
    return `${ddl.slice(0, end)}, ${lengthCheck(length, label, size)}${ddl.slice(end)}`
  }
  const bound = /<= (\d+)\)/g
  let last: RegExpExecArray | undefined
  for (let m = bound.exec(ddl); m !== null && m.index < at; m = bound.exec(ddl)) last = m
  const maximum = /maximum: (\d+)\)/.exec(ddl.slice(at))
  if (last === undefined || maximum === null) return ddl
  const maxAt = at + maximum.index
  return ddl.slice(0, last.index) + `<= ${size})` + ddl.slice(last.index + last[0].length, maxAt) + `maximum: ${size})` + ddl.slice(maxAt + maximum[0].length)
}

/**
 * ALTER TABLE ADD of a NOT NULL column: made mandatory once added, or dropped again with ORA-01758 when a row of the
 * table has no value for it (Oracle: "table must be empty to add mandatory (NOT NULL) column", unless a DEFAULT gives
 * the rows one).
 */
export const setNotNull = async (ddl: { runDdl(sql: string): Promise<void> }, target: string, column: string): Promise<void> => {
  try {
    await ddl.runDdl(`ALTER TABLE ${target} ALTER COLUMN ${duckIdent(column)} SET NOT NULL`)
  } catch {
    await ddl.runDdl(`ALTER TABLE ${target} DROP COLUMN ${duckIdent(column)}`)
    throw new OraError(1758, "table must be empty to add mandatory (NOT NULL) column")
  }
}
