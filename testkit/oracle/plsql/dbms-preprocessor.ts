/**
 * DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE and GET_POST_PROCESSED_SOURCE (PL/SQL Packages and Types Reference,
 * DBMS_PREPROCESSOR): the text
 * conditional compilation made of a stored unit (`object_type, schema_name, object_name`: the text it was last
 * compiled from, plsql/preprocessed-sources.ts) or of a unit's source text given as a string, under the session's
 * PLSQL_CCFLAGS, printed through DBMS_OUTPUT. The post-processed text keeps the source's lines, the text left out
 * blanked; the lines left blank are not printed (Steven Feuerstein, "Oracle PL/SQL Programming", "Working with
 * Postprocessed Code": PRINT_POST_PROCESSED_SOURCE shows only the selected branch's lines; that GET_POST_PROCESSED_SOURCE
 * gives the blanked lines as blanks rather than empty is **unconfirmed**). A NULL object name is
 * ORA-00931, another object type than PACKAGE, PACKAGE BODY, PROCEDURE, FUNCTION, TRIGGER, TYPE or TYPE BODY
 * ORA-24235, a unit that is not there ORA-24234, an empty text ORA-24236 (the package's exceptions as
 * https://morganslibrary.net/reference/pkgs/dbms_preprocessor.html lists them; their message texts **unconfirmed**).
 */
import { OraError } from "../errors.ts"
import { significant, tokenize } from "../lexer.ts"
import { wrongArguments } from "./arguments.ts"
import { storedText } from "./compile-errors.ts"
import { compiledUnitOf, preprocess } from "./conditional-compilation.ts"
import type { BuiltinPackage } from "./context.ts"
import { putLine } from "./dbms-output.ts"
import { releaseOf } from "./preprocessed-sources.ts"
import type { PlsqlHost } from "./host.ts"
import { packagesOf } from "./package-store.ts"
import { PlsqlCollection } from "./collections.ts"
import { SOURCE_LINES_T } from "./source-lines.ts"
import type { DuckDBValue } from "@duckdb/node-api"

const OBJECT_TYPES = new Set(["PACKAGE", "PACKAGE BODY", "PROCEDURE", "FUNCTION", "TRIGGER", "TYPE", "TYPE BODY"])

/** The text a stored unit was last compiled from, as ALL_SOURCE shows a source (without CREATE [OR REPLACE]). */
const storedUnitText = (host: PlsqlHost, type: string, schema: string, name: string): string | undefined => {
  if (type === "PROCEDURE" || type === "FUNCTION") {
    const proc = host.db.procedures.get(`${schema}.${name}`)
    return proc === undefined || proc.package !== undefined || (proc.isFunction === true) !== (type === "FUNCTION") ? undefined : storedText(proc.source)
  }
  const def = packagesOf(host.db).get(`${schema}.${name}`)
  if (def === undefined || def.hidden === true) return undefined
  const source = type === "PACKAGE" ? def.spec.source : type === "PACKAGE BODY" ? def.body?.source : undefined
  return source === undefined ? undefined : storedText(source)
}

/** A unit's source text (style 2) after conditional compilation under the session's flags, in the current schema. */
const postProcessedText = (host: PlsqlHost, source: string): string => {
  const unit = compiledUnitOf(significant(tokenize(/^\s*(PROCEDURE|FUNCTION|PACKAGE|TRIGGER|TYPE)\b/i.test(source) ? `CREATE ${source}` : source)), host.schema)
  return preprocess(source, unit, host.plsqlCcflags, releaseOf(host.db))
}

/**
 * The post-processed text of a call's argument values: `object_type, schema_name, object_name` of a stored unit, or a
 * unit's source text.
 */
const postProcessed = (host: PlsqlHost, procedure: string, values: ReadonlyArray<unknown>): string => {
  if (values.length === 3) {
    const [type, schema, name] = values
    if (name === null || name === undefined) throw new OraError(931, "missing identifier")
    const objectType = String(type ?? "").toUpperCase()
    if (!OBJECT_TYPES.has(objectType)) throw new OraError(24235, `bad value for object type: ${String(type ?? "")}`)
    const owner = schema === null || schema === undefined ? host.schema : String(schema)
    const found = storedUnitText(host, objectType, owner, String(name))
    if (found === undefined) throw new OraError(24234, `unable to get source of ${objectType} "${owner}"."${String(name)}", insufficient privileges or does not exist`)
    return found
  }
  if (values.length !== 1) throw wrongArguments(procedure)
  const source = values[0]
  if (source === null || source === undefined || String(source).trim() === "") throw new OraError(24236, "source text is empty")
  return postProcessedText(host, String(source))
}

/**
 * DBMS_PREPROCESSOR.GET_POST_PROCESSED_SOURCE: the post-processed text as SOURCE_LINES_T, one element a line from 1,
 * each but the last with its line feed (as ALL_SOURCE.TEXT), the blanked lines kept.
 */
export const getPostProcessedSource = (host: PlsqlHost, values: ReadonlyArray<unknown>): PlsqlCollection<DuckDBValue> => {
  const lines = new PlsqlCollection<DuckDBValue>(SOURCE_LINES_T)
  const text = postProcessed(host, "GET_POST_PROCESSED_SOURCE", values)
  text.split("\n").forEach((l, i, all) => lines.set(i + 1, i < all.length - 1 ? `${l}\n` : l))
  return lines
}

/** DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE. */
export const dbmsPreprocessor: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "PRINT_POST_PROCESSED_SOURCE") return false
  const values: Array<unknown> = []
  for (const a of args) values.push(await ctx.evaluate(a))
  for (const line of postProcessed(ctx.host, procedure, values).split("\n")) if (line.trim() !== "") putLine(ctx.host, line)
  return true
}
