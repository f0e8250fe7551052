/**
 * The `effect/sql` statement compiler for Oracle: `:1 … :n` placeholders, identifiers quoted exactly (Oracle
 * upper-cases unquoted names, so `CREATE TABLE users` is `sql("USERS")`), `sql.insert` of several records as one
 * array-DML execution, `sql.updateValues` as a `SELECT … FROM DUAL UNION ALL …` derived table, `sql.json(value)` as
 * `JSON(:n)` (a JSON value, not text).
 *
 * @since 0.1.0
 */
import type { Statement } from "effect/sql"
import { type DialectSpec, makeCompiler as makeDialectCompiler } from "../../src/sql/Compiler.ts"

const ORACLE_CAST = {
  integer: "NUMBER(19)",
  number: "BINARY_DOUBLE",
  bigint: "NUMBER(38)",
  string: "VARCHAR2(4000)",
  boolean: "BOOLEAN",
  date: "TIMESTAMP",
  binary: "RAW(2000)"
} as const

/**
 * Oracle's statement dialect.
 *
 * @category constants
 * @since 0.1.0
 */
export const dialect: DialectSpec = {
  name: "oracle",
  displayName: "Oracle",
  placeholder: (index) => `:${index}`,
  oneRowTable: "DUAL",
  // JSON(text) makes a JSON value from text (Oracle Database SQL Language Reference, "JSON Type Constructor", 21c+)
  json: (placeholder) => `JSON(${placeholder})`,
  castType: (kind) => ORACLE_CAST[kind]
}

/**
 * Creates the Oracle compiler; `transform` renames identifiers (`transformQueryNames`).
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeCompiler = (transform?: ((name: string) => string) | undefined): Statement.Compiler =>
  makeDialectCompiler(dialect, transform)
