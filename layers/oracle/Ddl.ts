/**
 * SQL text the driver generates for ingest: identifiers are always double-quoted (so case is kept exactly and
 * reserved words work), created string columns are NVARCHAR2(2000), struct storage in BLOB / NVARCHAR2 gets an
 * `IS JSON` check, `redo.ingest.tablespace` adds a TABLESPACE clause (named as in SQL: see {@link tablespaceName}).
 * Binds are positional (`:1`, `:2`, …).
 *
 * @since 0.1.0
 */
import type { IngestColumn, IngestTarget } from "../../src/Driver.ts"
import { jsonCheckOf } from "./WriteTypes.ts"

/** Double-quotes an identifier, doubling embedded quotes. @category sql @since 0.1.0 */
export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, "\"\"")}"`

/** The quoted, schema-qualified name of a target. @category sql @since 0.1.0 */
export const qualifiedTarget = (target: IngestTarget): string => {
  const table = quoteIdentifier(target.table)
  return target.dbSchema !== undefined ? `${quoteIdentifier(target.dbSchema)}.${table}` : table
}

/**
 * The `redo.ingest.tablespace` value as a quoted identifier, read the way Oracle reads a name in SQL: unquoted it
 * is upper-cased (`users` names USERS, as in `TABLESPACE users`), in double quotes it is kept exactly (`"Mixed"`).
 *
 * @category sql
 * @since 0.1.0
 */
export const tablespaceName = (value: string): string => {
  const quoted = /^"(.+)"$/.exec(value)
  return quoteIdentifier(quoted !== null ? quoted[1]!.replace(/""/g, "\"") : value.toUpperCase())
}

/** `CREATE TABLE …` for an ingest target. @category sql @since 0.1.0 */
export const createTableSql = (
  target: IngestTarget,
  columns: ReadonlyArray<IngestColumn>,
  tablespace?: string | undefined
): string => {
  const body = columns
    .map((c) => {
      const name = quoteIdentifier(c.field.name)
      return `${name} ${c.sqlType}${c.nullable ? "" : " NOT NULL"}${jsonCheckOf(c.field, c.sqlType, name)}`
    })
    .join(", ")
  return `CREATE TABLE ${qualifiedTarget(target)} (${body})${
    tablespace === undefined ? "" : ` TABLESPACE ${tablespaceName(tablespace)}`
  }`
}

/** `DROP TABLE … PURGE` for an ingest target. @category sql @since 0.1.0 */
export const dropTableSql = (target: IngestTarget): string => `DROP TABLE ${qualifiedTarget(target)} PURGE`

/** `INSERT INTO … (cols) VALUES (:1, …)`. @category sql @since 0.1.0 */
export const insertSql = (target: IngestTarget, columnNames: ReadonlyArray<string>): string =>
  `INSERT INTO ${qualifiedTarget(target)} (${columnNames.map(quoteIdentifier).join(", ")}) VALUES (${
    columnNames.map((_, i) => `:${i + 1}`).join(", ")
  })`

/**
 * `ALTER TABLE … RENAME TO …`: renames a table within its schema (the new name is not qualified; Oracle Database
 * SQL Language Reference, ALTER TABLE, rename_table_clause). Used by the core's build-and-swap ingest, since Oracle
 * DDL commits implicitly.
 *
 * @category sql
 * @since 0.1.0
 */
export const renameTableSql = (from: IngestTarget, toTable: string): string =>
  `ALTER TABLE ${qualifiedTarget(from)} RENAME TO ${quoteIdentifier(toTable)}`
