/**
 * The `effect/sql` statement compiler for SAP HANA: `?` placeholders, identifiers quoted exactly (HANA upper-cases
 * unquoted names, so `CREATE TABLE users` is `sql("USERS")`), `sql.insert` of several records as one batch execution,
 * `sql.updateValues` as a `SELECT … FROM DUMMY UNION ALL …` derived table, `sql.json(value)` bound as JSON text.
 *
 * @since 0.1.0
 */
import type { Statement } from "effect/sql"
import { type DialectSpec, makeCompiler as makeDialectCompiler } from "../../src/sql/Compiler.ts"

const HANA_CAST = {
  integer: "BIGINT",
  number: "DOUBLE",
  bigint: "DECIMAL(38,0)",
  string: "NVARCHAR(5000)",
  boolean: "BOOLEAN",
  date: "TIMESTAMP",
  binary: "VARBINARY(5000)"
} as const

/**
 * SAP HANA's statement dialect.
 *
 * @category constants
 * @since 0.1.0
 */
export const dialect: DialectSpec = {
  name: "hana",
  displayName: "SAP HANA",
  placeholder: () => "?",
  oneRowTable: "DUMMY",
  // HANA has no JSON column type (JSON is stored as NCLOB/NVARCHAR and read with JSON_VALUE / JSON_QUERY)
  json: (placeholder) => placeholder,
  castType: (kind) => HANA_CAST[kind]
}

/**
 * Creates the HANA compiler; `transform` renames identifiers (`transformQueryNames`).
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeCompiler = (transform?: ((name: string) => string) | undefined): Statement.Compiler =>
  makeDialectCompiler(dialect, transform)
