/**
 * What conditional compilation leaves of a stored unit's source, kept beside the source as written: the unit
 * compiles from the post-processed text, while ALL_SOURCE shows the source as written and
 * DBMS_PREPROCESSOR.GET_POST_PROCESSED_SOURCE the text that was compiled (PL/SQL Language Reference,
 * "Conditional Compilation": "DBMS_PREPROCESSOR Package"; PL/SQL Packages and Types Reference, DBMS_PREPROCESSOR). A
 * `$ERROR` the CREATE met is kept too, for the compilation to store the unit INVALID with it.
 */
import { type OracleDatabase, versionInfo } from "../database.ts"
import { significant, tokenize } from "../lexer.ts"
import { compiledUnitOf, preprocess, preprocessUnit } from "./conditional-compilation.ts"
import type { PlsCompileError } from "./errors.ts"

interface Preprocessed {
  readonly written: string
  readonly error: PlsCompileError | undefined
}

const byDatabase = new WeakMap<OracleDatabase, Map<string, Preprocessed>>()

/** Records that CREATE statement `compiled` is what conditional compilation made of `written`. */
export const notePreprocessed = (db: OracleDatabase, compiled: string, written: string, error: PlsCompileError | undefined): void => {
  let known = byDatabase.get(db)
  if (known === undefined) byDatabase.set(db, (known = new Map()))
  known.set(compiled, { written, error })
}

/** The CREATE statement a unit's stored `source` was written as (itself when it held no directive). */
export const sourceAsWritten = (db: OracleDatabase, source: string): string => byDatabase.get(db)?.get(source)?.written ?? source

/** The `$ERROR` conditional compilation met in the CREATE statement that became `source`, if any. */
export const directiveErrorOf = (db: OracleDatabase, source: string): PlsCompileError | undefined => byDatabase.get(db)?.get(source)?.error

/** The units whose CREATE stores them INVALID with a `$ERROR` (the others fail with it, ORA-06550). */
const STORED_INVALID = new Set(["PROCEDURE", "FUNCTION", "PACKAGE BODY"])

/**
 * Statement `sql` (a block or DDL holding `$`) after conditional compilation under the session's PLSQL_CCFLAGS
 * `ccflags`; a stored unit's CREATE is remembered with its source as written.
 */
export const preprocessStatement = (db: OracleDatabase, sql: string, schema: string, ccflags: string): string => {
  const unit = compiledUnitOf(significant(tokenize(sql)), schema)
  const version = Number(versionInfo(db.settings.version).version.split(".")[0])
  if (unit.type === "ANONYMOUS BLOCK") return preprocess(sql, unit, ccflags, version)
  const { text, error } = preprocessUnit(sql, unit, ccflags, version)
  if (error !== undefined && !STORED_INVALID.has(unit.type)) throw error
  if (text !== sql) notePreprocessed(db, text, sql, error)
  return text
}
