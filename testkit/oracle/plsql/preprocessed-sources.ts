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
  /** The PLSQL_CCFLAGS it was compiled with (ALTER ... COMPILE REUSE SETTINGS compiles with them again). */
  readonly flags: string
}

const byDatabase = new WeakMap<OracleDatabase, Map<string, Preprocessed>>()

/** Records that CREATE statement `compiled` is what conditional compilation made of `written` under `flags`. */
export const notePreprocessed = (db: OracleDatabase, compiled: string, written: string, error: PlsCompileError | undefined, flags: string): void => {
  let known = byDatabase.get(db)
  if (known === undefined) byDatabase.set(db, (known = new Map()))
  known.set(compiled, { written, error, flags })
}

/** The PLSQL_CCFLAGS the unit stored as `source` was compiled with; undefined when its source held no directive. */
export const compiledFlagsOf = (db: OracleDatabase, source: string): string | undefined => byDatabase.get(db)?.get(source)?.flags

/** The CREATE statement a unit's stored `source` was written as (itself when it held no directive). */
export const sourceAsWritten = (db: OracleDatabase, source: string): string => byDatabase.get(db)?.get(source)?.written ?? source

/** The `$ERROR` conditional compilation met in the CREATE statement that became `source`, if any. */
export const directiveErrorOf = (db: OracleDatabase, source: string): PlsCompileError | undefined => byDatabase.get(db)?.get(source)?.error

/** The release the server reports as DBMS_DB_VERSION.VERSION (19 or 23), which conditional compilation reads. */
export const releaseOf = (db: OracleDatabase): number => Number(versionInfo(db.settings.version).version.split(".")[0])

/** The units whose CREATE stores them INVALID with a `$ERROR` (the others fail with it, ORA-06550). */
const STORED_INVALID = new Set(["PROCEDURE", "FUNCTION", "PACKAGE BODY"])

/**
 * Statement `sql` (a block or DDL holding `$`) after conditional compilation under the session's PLSQL_CCFLAGS
 * `ccflags`; a stored unit's CREATE is remembered with its source as written.
 */
export const preprocessStatement = (db: OracleDatabase, sql: string, schema: string, ccflags: string): string => {
  const unit = compiledUnitOf(significant(tokenize(sql)), schema)
  const version = releaseOf(db)
  if (unit.type === "ANONYMOUS BLOCK") return preprocess(sql, unit, ccflags, version)
  const { text, error } = preprocessUnit(sql, unit, ccflags, version)
  if (error !== undefined && !STORED_INVALID.has(unit.type)) throw error
  if (text !== sql) notePreprocessed(db, text, sql, error, ccflags)
  return text
}

/**
 * The CREATE OR REPLACE statement that compiles stored `source` again from its source as written under PLSQL_CCFLAGS
 * `ccflags` (ALTER ... COMPILE), remembered as {@link preprocessStatement} remembers a CREATE; undefined when the
 * source held no directive (compiling it again gives the same text).
 */
export const recompiledStatement = (db: OracleDatabase, source: string, schema: string, ccflags: string): string | undefined => {
  const written = byDatabase.get(db)?.get(source)?.written
  if (written === undefined) return undefined
  const statement = written.replace(/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?/i, "CREATE OR REPLACE ")
  const unit = compiledUnitOf(significant(tokenize(statement)), schema)
  const version = releaseOf(db)
  const { text, error } = preprocessUnit(statement, unit, ccflags, version)
  notePreprocessed(db, text, written, error, ccflags)
  return text
}
