/**
 * SQL text the driver generates: identifiers are always double-quoted (so reserved words such as `create` and
 * names such as `a"b` work, and case is kept exactly), temporary tables get their `#` prefix.
 *
 * HANA stores unquoted identifiers in upper case; a table created with a quoted mixed-case name must be referred
 * to by that exact quoted name (the driver's errors rule). Ingest quotes the name exactly as given.
 *
 * @since 0.1.0
 */
import type { IngestColumn, IngestTarget } from "../../src/Driver.ts"

/** Double-quotes an identifier, doubling embedded quotes. @category sql @since 0.1.0 */
export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, "\"\"")}"`

/** Single-quotes a string literal, doubling embedded quotes. @category sql @since 0.1.0 */
export const quoteLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`

/** The table name of a target: temporary tables carry a `#` prefix (added when missing). @category sql @since 0.1.0 */
export const targetTableName = (target: IngestTarget): string =>
  target.temporary && !target.table.startsWith("#") ? `#${target.table}` : target.table

/** The quoted, schema-qualified name of a target (temporary tables are never qualified). @category sql @since 0.1.0 */
export const qualifiedTarget = (target: IngestTarget): string => {
  const table = quoteIdentifier(targetTableName(target))
  return !target.temporary && target.dbSchema !== undefined ? `${quoteIdentifier(target.dbSchema)}.${table}` : table
}

/** `CREATE [LOCAL TEMPORARY] TABLE …` for an ingest target. @category sql @since 0.1.0 */
export const createTableSql = (target: IngestTarget, columns: ReadonlyArray<IngestColumn>): string => {
  const body = columns
    .map((c) => `${quoteIdentifier(c.field.name)} ${c.sqlType}${c.nullable ? "" : " NOT NULL"}`)
    .join(", ")
  return `CREATE ${target.temporary ? "LOCAL TEMPORARY " : ""}TABLE ${qualifiedTarget(target)} (${body})`
}

/** `DROP TABLE …` for an ingest target. @category sql @since 0.1.0 */
export const dropTableSql = (target: IngestTarget): string => `DROP TABLE ${qualifiedTarget(target)}`

/** `INSERT INTO … (cols) VALUES (?, …)`. @category sql @since 0.1.0 */
export const insertSql = (target: IngestTarget, columnNames: ReadonlyArray<string>): string =>
  `INSERT INTO ${qualifiedTarget(target)} (${columnNames.map(quoteIdentifier).join(", ")}) VALUES (${
    columnNames.map(() => "?").join(", ")
  })`
