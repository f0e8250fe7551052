/**
 * The server's PL/SQL engine (README.md, "Accepted PL/SQL"): anonymous blocks and CALL statements run by
 * interpreter.ts over parser.ts's tree, and CREATE PROCEDURE, whose body is compiled (parsed) when it is created.
 */
import { DuckDBBlobValue, type DuckDBValue } from "@duckdb/node-api"
import { OraError, ora } from "../errors.ts"
import { findTopLevel, isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "../lexer.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import type { BindSpec, PlsqlResult } from "../statement.ts"
import { Dty } from "../types.ts"
import { oracleName } from "../translate.ts"
import { BIND_IN, BIND_INOUT, BIND_OUT, type PlsqlHost } from "./host.ts"
import type { BindEnv } from "./context.ts"
import { Interpreter, runTopLevel } from "./interpreter.ts"
import { parseAnonymousBlock } from "./parser.ts"
import { lineColumn, unexpectedSymbol } from "./errors.ts"
import { noteCompileWarning } from "./compile-errors.ts"
import { checkBlockNames, compileProcedure, loadEngineFunctions, recordDependencies } from "./unit-compilation.ts"
import { RowReader } from "./row-reader.ts"
import { unitName } from "./stored-packages.ts"

export { BIND_IN, BIND_INOUT, BIND_OUT, type PlsqlHost } from "./host.ts"

const sig = (sql: string) => tokenize(sql).filter((t) => t.kind !== "ws")

/** Unique bind names in order of first appearance (node-oracledb dedups PL/SQL binds the same way). */
const bindNames = (toks: ReadonlyArray<Tok>): Array<string> => {
  const out: Array<string> = []
  for (const t of toks) if (t.kind === "bind" && !out.includes(t.value)) out.push(t.value)
  return out
}

/**
 * ORA-06502 when an OUT string does not fit its bind variable: Oracle raises "character string buffer too small"
 * on the assignment (https://docs.oracle.com/en/error-help/db/ora-06502/). A VARCHAR bind holds `maxSize` bytes;
 * an NVARCHAR bind's metadata size is its character count times oracledb's buffer factor 4 (withData.js
 * writeColumnMetadata).
 */
const checkOutFits = (value: unknown, spec: BindSpec | undefined): void => {
  // an array OUT bind holds maxArraySize elements (Database Error Messages, ORA-06513)
  if (spec?.maxArrayElements !== undefined && Array.isArray(value) && value.length > spec.maxArrayElements)
    throw new OraError(6513, "PL/SQL: index for PL/SQL table out of range for host language array")
  // a RAW bind holds maxSize bytes: Oracle's message for longer bytes is "raw variable length too long"
  if (spec?.dty === Dty.RAW && value instanceof Uint8Array && value.length > spec.maxSize)
    throw new OraError(6502, "PL/SQL: numeric or value error: raw variable length too long")
  if (spec === undefined || typeof value !== "string" || spec.dty !== Dty.VARCHAR) return
  const fits = spec.csfrm === 2 ? [...value].length <= Math.floor(spec.maxSize / 4) : Buffer.byteLength(value) <= spec.maxSize
  if (!fits) throw new OraError(6502, "PL/SQL: numeric or value error: character string buffer too small")
}

/** Runs an anonymous block (or CALL statement). */
export const runPlsql = async (s: PlsqlHost, sql: string, values: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>): Promise<PlsqlResult> => {
  const toks = sig(sql)
  if (!isKw(toks[0], "CALL")) return runBlock(s, sql, toks, values, specs)
  const end = toks.findLastIndex((t) => !isOp(t, ";"))
  // `CALL f(args) INTO :x` of a function: the block `BEGIN :x := f(args); END;` (SQL Language Reference, CALL)
  const into = findTopLevel(toks, 1, end + 1, (t) => isKw(t, "INTO"))
  const callEnd = into >= 0 ? into - 1 : end
  // `CALL p()`: CALL wants the parentheses, a PL/SQL call statement takes none for no arguments (PLS-00103)
  const last = isOp(toks[callEnd], ")") && isOp(toks[callEnd - 1], "(") ? callEnd - 2 : callEnd
  const target = into >= 0 ? [...toks.slice(into + 1, end + 1), ...sig(":=").map((t) => ({ ...t, pos: toks[into]!.pos }))] : []
  const block = [{ ...toks[0]!, text: "BEGIN", value: "BEGIN" }, ...target, ...toks.slice(1, last + 1), ...sig("; END;").map((t) => ({ ...t, pos: toks[end]!.pos }))]
  // CALL of a routine that does not exist (or a component its package lacks) is ORA-06576 (Error Messages, ORA-06576)
  const nameAt = new Set<string>()
  for (let k = 1; k < toks.length && !isOp(toks[k], "("); k++) {
    const { line, column } = lineColumn(sql, toks[k]!.pos)
    nameAt.add(`line ${line}, column ${column}:`)
  }
  return runBlock(s, sql, block, values, specs).catch((e: unknown) => {
    const m = e instanceof OraError && e.code === 6550 ? /^(line \d+, column \d+:)\nPLS-00(201|302): /.exec(e.detail) : null
    throw m !== null && nameAt.has(m[1]!) ? new OraError(6576, "not a valid function or procedure name") : e
  })
}

/** Runs an anonymous block's significant tokens `toks` (`sql` the text their positions point into). */
const runBlock = async (s: PlsqlHost, sql: string, toks: ReadonlyArray<Tok>, values: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>): Promise<PlsqlResult> => {
  const block = parseAnonymousBlock(sql, toks)
  await loadEngineFunctions(s.db, async () => {
    const reader = new RowReader(await s.queryDuck("SELECT DISTINCT function_name FROM duckdb_functions()", []), s)
    try {
      return await reader.take(Infinity)
    } finally {
      reader.close()
    }
  })
  checkBlockNames(s.db, s.schema, sql, block)
  const names = bindNames(toks)
  const env: BindEnv = {
    binds: new Map(names.map((n, i) => [n, i])),
    values: names.map((_, i) => values[i] ?? null),
    specs,
    assigned: new Set(),
    read: new Set()
  }
  const interp = new Interpreter(s, sql, env, [])
  await runTopLevel(interp, block)
  for (const i of env.assigned) {
    // bytes as DuckDB hands them (an IN bind's value assigned on) leave as the Buffer the RAW encoder writes
    const v = env.values[i]
    if (v instanceof DuckDBBlobValue) env.values[i] = Buffer.from(v.bytes) as unknown as DuckDBValue
    checkOutFits(env.values[i] ?? null, specs[i])
  }
  const directions = names.map((_, i) => (env.assigned.has(i) ? (env.read.has(i) ? BIND_INOUT : BIND_OUT) : BIND_IN))
  return { kind: "plsql", directions, values: env.values, implicit: interp.implicit }
}

/** Registers CREATE [OR REPLACE] PROCEDURE name [(params)] IS|AS [decls] BEGIN ... END, or FUNCTION ... RETURN type IS|AS .... */
export const defineProcedure = (s: PlsqlHost, sql: string): void => {
  const source = sql.replace(/\/\s*$/, "")
  const toks = sig(source)
  const head = toks.findIndex((t) => isKw(t, "PROCEDURE", "FUNCTION"))
  const isFunction = isKw(toks[head], "FUNCTION")
  const { owner, name, next } = unitName(toks, head + 1, s.schema)
  let k = next
  const params: Array<PlsqlProcedure["params"][number]> = []
  let returns: string | undefined
  if (isOp(toks[k], "(")) {
    const close = matchParen(toks, k)
    for (const p of splitTopLevel(toks.slice(k + 1, close))) {
      const pn = oracleName(p[0]!)
      let mode: "IN" | "OUT" | "IN OUT" = "IN"
      if (isKw(p[1], "IN") && isKw(p[2], "OUT")) mode = "IN OUT"
      else if (isKw(p[1], "OUT")) mode = "OUT"
      const dflt = p.findIndex((t) => isOp(t, ":=") || isKw(t, "DEFAULT"))
      const typeAt = (mode === "IN OUT" ? 3 : isKw(p[1], "IN", "OUT") ? 2 : 1) + (isKw(p[mode === "IN OUT" ? 3 : isKw(p[1], "IN", "OUT") ? 2 : 1], "NOCOPY") ? 1 : 0)
      const type = p[typeAt]?.value
      const declared = { name: pn, mode, ...(type !== undefined ? { type } : {}) }
      params.push(dflt < 0 ? declared : { ...declared, default: p.slice(dflt + 1) })
    }
    k = close + 1
  }
  // `AUTHID CURRENT_USER | DEFINER` (PL/SQL Language Reference, "CREATE PROCEDURE Statement", invoker_rights_clause):
  // shown in USER_PROCEDURES.AUTHID (stored-code.ts); CURRENT_USER runs the unit with its caller's rights (definer-rights.ts)
  if (!isFunction && isKw(toks[k], "AUTHID") && isKw(toks[k + 1], "CURRENT_USER", "DEFINER")) k += 2
  if (isFunction) {
    if (!isKw(toks[k], "RETURN")) throw unexpectedSymbol(source, toks[k]?.pos ?? source.length, toks[k]?.text ?? "end-of-file", ["(", "return"])
    // a schema-qualified type keeps its owner (`RETURN sys.odcinumberlist`)
    returns = isOp(toks[k + 2], ".") && toks[k + 3] !== undefined ? `${toks[k + 1]!.value}.${toks[k + 3]!.value}` : toks[k + 1]?.value
    while (toks[k] !== undefined && !isKw(toks[k], "IS", "AS")) k++
  }
  if (!isKw(toks[k], "IS", "AS")) throw unexpectedSymbol(source, toks[k]?.pos ?? source.length, toks[k]?.text ?? "end-of-file", ["(", ";", "is", "as"])
  const body = toks.slice(k + 1)
  // the client sends the statement without its final ";" (node-oracledb strips it from DDL)
  const last = body[body.length - 1]
  if (last !== undefined && !isOp(last, ";")) body.push({ kind: "op", text: ";", value: ";", pos: last.pos + last.text.length })
  // a body that does not compile still creates the unit, INVALID, with its errors (stored-code.ts)
  const compiled = compileProcedure(s, owner, source, name, params, body)
  const errors = compiled.errors
  if (errors !== undefined) noteCompileWarning(s)
  const key = `${owner}.${name}`
  const existed = s.db.procedures.has(key)
  if (existed && !/^\s*CREATE\s+OR\s+REPLACE/i.test(sql)) throw ora.nameInUse()
  if (existed && (s.db.procedures.get(key)?.isFunction === true) !== isFunction) throw ora.nameInUse()
  const invalid = errors !== undefined ? { errors } : {}
  const unit: PlsqlProcedure = isFunction ? { owner, name, params, isFunction, ...(returns !== undefined ? { returns } : {}), body, source, ...invalid } : { owner, name, params, body, source, ...invalid }
  s.db.procedures.set(key, unit)
  recordDependencies(unit, compiled.dependencies)
  const type = isFunction ? "FUNCTION" : "PROCEDURE"
  // put again when replaced: the dictionary's snapshot follows the catalog's version (STATUS may have changed)
  s.db.catalog.putObject(s.db.catalog.getObject(owner, type, name) ?? { owner, name, type, objectId: s.db.catalog.newObjectId(), created: new Date() })
}
