/**
 * HANA's physical table and column clauses, which change where and how HANA keeps data but not what a query
 * returns (SAP HANA SQL Reference, "CREATE TABLE Statement" and "ALTER TABLE Statement"): the column clause
 * `MEMORY THRESHOLD {n | NULL}` of LOB columns, and the table clauses `UNLOAD PRIORITY n`, `PARTITION BY …`,
 * `[NO] AUTO MERGE`, `[NO] LOGGING`, `GROUP …`, `NUMA NODE …`. They are accepted; the unload priority and the
 * partition specification are kept as metadata (SYS.TABLES UNLOAD_PRIORITY, PARTITION_SPEC; catalog.ts), the rest is
 * ignored. COLUMN / ROW stores are handled by ddl.ts (SYS.TABLES TABLE_TYPE).
 */
import { HanaError } from "./errors.ts"
import { upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { encodeName, quoteString } from "./names.ts"

/** Table options kept as metadata. */
export interface TableOptions {
  readonly unloadPriority?: number
  readonly partitionSpec?: string
}

const text = (tokens: readonly Token[]): string =>
  tokens.map((t) => (t.t === "string" ? quoteString(t.v) : t.t === "qident" ? `"${t.v.replace(/"/g, '""')}"` : t.t === "word" ? t.v.toUpperCase() : t.v)).join(" ").replace(/\( /g, "(").replace(/ ([),])/g, "$1")

/** Table clause keywords after which a PARTITION BY specification ends. */
const TABLE_CLAUSES = new Set(["UNLOAD", "AUTO", "NO", "LOGGING", "GROUP", "NUMA", "PERSISTENT", "WITH"])

/** The options among the clauses after a CREATE TABLE column list (or after ALTER TABLE t); unknown clauses are ignored. */
export const tableOptions = (clauses: readonly Token[]): TableOptions => {
  let unloadPriority: number | undefined
  let partitionSpec: string | undefined
  for (let k = 0; k < clauses.length; k++) {
    const w = upper(clauses[k])
    if (w === "UNLOAD" && upper(clauses[k + 1]) === "PRIORITY") {
      const n = Number(clauses[k + 2]?.v)
      // UNLOAD PRIORITY takes 0 (never unloaded) to 9 ("CREATE TABLE Statement", <unload_priority_clause>).
      if (!Number.isInteger(n) || n < 0 || n > 9) throw HanaError.syntax("UNLOAD PRIORITY 0..9 expected", 0)
      unloadPriority = n
      k += 2
    } else if (w === "PARTITION" && upper(clauses[k + 1]) === "BY") {
      let end = k + 2
      let depth = 0
      for (; end < clauses.length; end++) {
        const t = clauses[end]!
        if (t.t === "op" && t.v === "(") depth++
        else if (t.t === "op" && t.v === ")") depth--
        else if (depth === 0 && TABLE_CLAUSES.has(upper(t))) break
      }
      partitionSpec = text(clauses.slice(k + 2, end))
      k = end - 1
    }
  }
  return { ...(unloadPriority === undefined ? {} : { unloadPriority }), ...(partitionSpec === undefined ? {} : { partitionSpec }) }
}

/** The oid of table `name` (in `schema`, else the current schema), as SQL. */
const tableOid = (schema: string | undefined, name: string): string =>
  `(SELECT table_oid FROM duckdb_tables() WHERE database_name = current_database() AND table_name = ${quoteString(encodeName(name))}
    AND schema_name = ${schema === undefined ? "current_schema()" : quoteString(encodeName(schema))})`

/** SQL that records `options` for a table (nothing when there are none): run right after the table exists. */
export const recordTableOptions = (schema: string | undefined, name: string, options: TableOptions): string[] => {
  if (options.unloadPriority === undefined && options.partitionSpec === undefined) return []
  const oid = tableOid(schema, name)
  const priority = options.unloadPriority === undefined ? "NULL" : String(options.unloadPriority)
  const spec = options.partitionSpec === undefined ? "NULL" : quoteString(options.partitionSpec)
  return [
    `INSERT INTO "SYS"."_TABLE_OPTIONS" SELECT ${oid}, NULL, NULL WHERE ${oid} NOT IN (SELECT TABLE_OID FROM "SYS"."_TABLE_OPTIONS")`,
    `UPDATE "SYS"."_TABLE_OPTIONS" SET UNLOAD_PRIORITY = COALESCE(${priority}, UNLOAD_PRIORITY), PARTITION_SPEC = COALESCE(${spec}, PARTITION_SPEC) WHERE TABLE_OID = ${oid}`
  ]
}

/**
 * `ALTER TABLE t {UNLOAD PRIORITY n | PARTITION BY … | MERGE PARTITIONS | COLUMN | ROW | [NO] AUTO MERGE …}`: the SQL
 * recording what changed (empty when nothing is kept), or undefined when `clauses` is not such a statement.
 */
export const alterTableClauses = (schema: string | undefined, name: string, clauses: readonly Token[]): string | undefined => {
  const w = upper(clauses[0])
  const oid = tableOid(schema, name)
  if (w === "UNLOAD" || (w === "PARTITION" && upper(clauses[1]) === "BY")) return recordTableOptions(schema, name, tableOptions(clauses)).join("; ")
  // A table's load unit ("ALTER TABLE Statement", <load_unit>): accepted, not kept.
  if ((w === "COLUMN" || w === "PAGE" || w === "DEFAULT") && upper(clauses[1]) === "LOADABLE") return ""
  if (w === "MERGE" && upper(clauses[1]) === "PARTITIONS") return `UPDATE "SYS"."_TABLE_OPTIONS" SET PARTITION_SPEC = NULL WHERE TABLE_OID = ${oid}`
  // Conversion between the stores ("ALTER TABLE Statement", <alter_table_type>).
  if ((w === "COLUMN" || w === "ROW") && clauses.length <= 3) {
    return w === "ROW"
      ? `INSERT INTO "SYS"."_ROW_TABLES" SELECT ${oid} WHERE ${oid} NOT IN (SELECT TABLE_OID FROM "SYS"."_ROW_TABLES")`
      : `DELETE FROM "SYS"."_ROW_TABLES" WHERE TABLE_OID = ${oid}`
  }
  if ((w === "AUTO" || (w === "NO" && upper(clauses[1]) === "AUTO")) || w === "LOGGING" || (w === "NO" && upper(clauses[1]) === "LOGGING")) return ""
  return undefined
}
