/**
 * HANA's column clauses that describe a column without changing what a query returns (SAP HANA SQL Reference,
 * "CREATE TABLE Statement", <column_definition>: `[<fuzzy_search_index>] [<fuzzy_search_mode>]
 * [<column_comment_string>] [<load_unit>]`, and `MEMORY THRESHOLD {n | NULL}` of a LOB type): `COMMENT '…'`,
 * `{COLUMN | PAGE | DEFAULT} LOADABLE`, `FUZZY SEARCH INDEX {ON | OFF}`, `FUZZY SEARCH MODE {'…' | NULL}` and
 * `MEMORY THRESHOLD {n | NULL}`. They are taken out of the column definition DuckDB gets and kept, by table oid and
 * column name, in SYS._COLUMN_OPTIONS, which SYS.TABLE_COLUMNS shows as COMMENTS, LOAD_UNIT, FUZZY_SEARCH_INDEX,
 * FUZZY_SEARCH_MODE and MEMORY_THRESHOLD (SAP HANA System Views Reference, "TABLE_COLUMNS System View"). `COMMENT ON
 * COLUMN t.c IS '…'` writes the same COMMENTS (DuckDB's own column comment holds the declared type, catalog.ts).
 */
import { HanaError } from "./errors.ts"
import { upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { encodeName, quoteString } from "./names.ts"

/** What the clauses of one column say; an absent field was not given. */
export interface ColumnOptions {
  readonly comment?: string | null
  readonly loadUnit?: "COLUMN" | "PAGE" | "DEFAULT"
  readonly memoryThreshold?: number | null
  readonly fuzzySearchIndex?: boolean
  readonly fuzzySearchMode?: string | null
}

/** A column definition's tokens without the clauses of the module comment, and what they say. */
export const splitColumnClauses = (tail: readonly Token[]): { readonly rest: Token[]; readonly options: ColumnOptions } => {
  const rest: Token[] = []
  const options: { -readonly [K in keyof ColumnOptions]: ColumnOptions[K] } = {}
  for (let k = 0; k < tail.length; k++) {
    const w = upper(tail[k])
    const next = upper(tail[k + 1])
    if (w === "MEMORY" && next === "THRESHOLD") {
      const value = tail[k + 2]
      if (value === undefined || !(value.t === "number" || upper(value) === "NULL")) throw HanaError.syntax("MEMORY THRESHOLD <number> | NULL expected", 0)
      options.memoryThreshold = value.t === "number" ? Number(value.v) : null
      k += 2
    } else if (w === "COMMENT" && tail[k + 1]?.t === "string") {
      options.comment = tail[k + 1]!.v
      k += 1
    } else if ((w === "COLUMN" || w === "PAGE" || w === "DEFAULT") && next === "LOADABLE") {
      options.loadUnit = w
      k += 1
    } else if (w === "FUZZY" && next === "SEARCH" && upper(tail[k + 2]) === "INDEX") {
      const on = upper(tail[k + 3])
      if (on !== "ON" && on !== "OFF") throw HanaError.syntax("FUZZY SEARCH INDEX ON | OFF expected", 0)
      options.fuzzySearchIndex = on === "ON"
      k += 3
    } else if (w === "FUZZY" && next === "SEARCH" && upper(tail[k + 2]) === "MODE") {
      const mode = tail[k + 3]
      if (mode === undefined || !(mode.t === "string" || upper(mode) === "NULL")) throw HanaError.syntax("FUZZY SEARCH MODE '<mode>' | NULL expected", 0)
      options.fuzzySearchMode = mode.t === "string" ? mode.v : null
      k += 3
    } else rest.push(tail[k]!)
  }
  return { rest, options }
}

/** The oid of table `schema.name` (the current schema when undefined), as SQL. */
const tableOid = (schema: string | undefined, name: string): string =>
  `(SELECT table_oid FROM duckdb_tables() WHERE database_name = current_database() AND table_name = ${quoteString(encodeName(name))}
    AND schema_name = ${schema === undefined ? "current_schema()" : quoteString(encodeName(schema))})`

const sqlValue = (v: string | number | null | undefined): string =>
  v === undefined || v === null ? "NULL" : typeof v === "number" ? String(v) : quoteString(v)

/**
 * SQL recording `options` for column `column` of table `schema.name` (the current schema when undefined), run
 * right after the column exists: fields given replace the recorded ones, others stay. Empty when nothing was given.
 */
export const recordColumnOptions = (schema: string | undefined, name: string, column: string, options: ColumnOptions): string[] => {
  if (Object.keys(options).length === 0) return []
  const oid = tableOid(schema, name)
  const where = `TABLE_OID = ${oid} AND COLUMN_NAME = ${quoteString(column)}`
  const set = (field: keyof ColumnOptions, col: string, value: string): string[] => (field in options ? [`${col} = ${value}`] : [])
  const assignments = [
    ...set("comment", "COMMENTS", sqlValue(options.comment)),
    ...set("loadUnit", "LOAD_UNIT", sqlValue(options.loadUnit)),
    ...set("memoryThreshold", "MEMORY_THRESHOLD", sqlValue(options.memoryThreshold)),
    ...set("fuzzySearchIndex", "FUZZY_SEARCH_INDEX", options.fuzzySearchIndex === true ? "'TRUE'" : "'FALSE'"),
    ...set("fuzzySearchMode", "FUZZY_SEARCH_MODE", sqlValue(options.fuzzySearchMode))
  ]
  return [
    `INSERT INTO "SYS"."_COLUMN_OPTIONS" (TABLE_OID, COLUMN_NAME) SELECT ${oid}, ${quoteString(column)} WHERE NOT EXISTS (SELECT 1 FROM "SYS"."_COLUMN_OPTIONS" WHERE ${where})`,
    `UPDATE "SYS"."_COLUMN_OPTIONS" SET ${assignments.join(", ")} WHERE ${where}`
  ]
}

/** SQL moving what is recorded for column `from` of `schema.name` to its new name `to` (RENAME COLUMN). */
export const renameColumnOptions = (schema: string | undefined, name: string, from: string, to: string): string =>
  `UPDATE "SYS"."_COLUMN_OPTIONS" SET COLUMN_NAME = ${quoteString(to)} WHERE TABLE_OID = ${tableOid(schema, name)} AND COLUMN_NAME = ${quoteString(from)}`

/** SQL forgetting what is recorded for column `column` of `schema.name` (ALTER TABLE … DROP). */
export const dropColumnOptions = (schema: string | undefined, name: string, column: string): string =>
  `DELETE FROM "SYS"."_COLUMN_OPTIONS" WHERE TABLE_OID = ${tableOid(schema, name)} AND COLUMN_NAME = ${quoteString(column)}`

/** SYS.TABLE_COLUMNS' columns read from SYS._COLUMN_OPTIONS, for the view's row `c` (TABLE_OID, COLUMN_NAME). */
export const COLUMN_OPTION_COLUMNS = ["COMMENTS", "LOAD_UNIT", "MEMORY_THRESHOLD", "FUZZY_SEARCH_INDEX", "FUZZY_SEARCH_MODE"]
  .map((col) => {
    const value = `(SELECT o.${col} FROM "SYS"."_COLUMN_OPTIONS" o WHERE o.TABLE_OID = c.TABLE_OID AND o.COLUMN_NAME = c.COLUMN_NAME)`
    // A column without a clause: HANA's defaults ("TABLE_COLUMNS System View": LOAD_UNIT DEFAULT, no fuzzy index).
    return col === "LOAD_UNIT" ? `COALESCE(${value}, 'DEFAULT') AS ${col}` : col === "FUZZY_SEARCH_INDEX" ? `COALESCE(${value}, 'FALSE') AS ${col}` : `${value} AS ${col}`
  })
  .join(", ")

/** The table SYS._COLUMN_OPTIONS (catalog.ts creates it with the other SYS tables). */
export const COLUMN_OPTIONS_TABLE = `CREATE TABLE "SYS"."_COLUMN_OPTIONS" (TABLE_OID BIGINT, COLUMN_NAME VARCHAR, COMMENTS VARCHAR,
      LOAD_UNIT VARCHAR, MEMORY_THRESHOLD INTEGER, FUZZY_SEARCH_INDEX VARCHAR, FUZZY_SEARCH_MODE VARCHAR)`

/**
 * `COMMENT ON COLUMN [schema.]table.column IS {'…' | NULL}` as SQL recording the comment (a missing table or column
 * fails as a query of it does: 259, 260); undefined for other COMMENT statements.
 */
export const commentOnColumn = (all: readonly Token[]): string | undefined => {
  if (upper(all[1]) !== "ON" || upper(all[2]) !== "COLUMN") return undefined
  const names: string[] = []
  let k = 3
  for (; ; k += 2) {
    const t = all[k]
    if (t === undefined || (t.t !== "word" && t.t !== "qident")) throw HanaError.syntax("column name expected", 0)
    names.push(t.t === "qident" ? t.v : t.v.toUpperCase())
    if (!(all[k + 1]?.t === "op" && all[k + 1]!.v === ".")) break
  }
  const value = all[k + 2]
  if (upper(all[k + 1]) !== "IS" || value === undefined || !(value.t === "string" || upper(value) === "NULL") || all.length > k + 3) {
    throw HanaError.syntax("COMMENT ON COLUMN <table>.<column> IS '<comment>' expected", 0)
  }
  if (names.length < 2 || names.length > 3) throw HanaError.syntax("COMMENT ON COLUMN <table>.<column> expected", 0)
  const [column, table, schema] = [...names].reverse() as [string, string, string | undefined]
  const quote = (n: string) => `"${encodeName(n).replace(/"/g, '""')}"`
  const probe = `SELECT ${quote(column)} FROM ${schema === undefined ? "" : `${quote(schema)}.`}${quote(table)} LIMIT 0`
  return [probe, ...recordColumnOptions(schema, table, column, { comment: value.t === "string" ? value.v : null })].join("; ")
}
