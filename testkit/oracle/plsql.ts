/**
 * A small interpreter for the documented PL/SQL subset (README.md): anonymous blocks with DECLARE
 * variables, assignments, SELECT ... INTO, DML, OPEN cursor FOR query, DBMS_SQL.RETURN_RESULT (implicit
 * results), EXECUTE IMMEDIATE of a literal, COMMIT/ROLLBACK, NULL, DBMS_OUTPUT.PUT_LINE (ignored) and calls
 * of procedures created with CREATE PROCEDURE (IN / OUT / IN OUT parameters, bodies in the same subset).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { ColumnVector, Session as EngineSession } from "../engine/index.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"
import type { TableMeta } from "./catalog.ts"
import { canonicalNumberWrites } from "./number-writes.ts"
import { rewriteAttributeAccess } from "./object-attributes.ts"
import { rewriteDbmsLob } from "./lob-functions.ts"
import { rewriteJsonSql } from "./json-sql.ts"
import { rewriteFloatConditions } from "./float-conditions.ts"
import { dbmsLobWrite, type LobSource, lobSourcesOf, requireLocked } from "./plsql-lobs.ts"
import { zonedBinds } from "./datetime-binds.ts"
import { sessionZoneWrites } from "./datetime-writes.ts"
import { intervalLiteralTargets } from "./interval-writes.ts"
import type { OracleDatabase } from "./database.ts"
import type { BindSpec, ExecuteOptions, PlsqlResult, QueryResult, StatementResult } from "./statement.ts"
import { Dty } from "./types.ts"
import { makeTranslator, oracleName, translateQuery, type QueryShape } from "./translate.ts"

/** Bind direction OUT, as reported in the IO vector. */
export const BIND_OUT = 16
/** Bind direction IN. */
export const BIND_IN = 32
/** Bind direction IN OUT. */
export const BIND_INOUT = 48

/** What the interpreter needs from the SQL session it runs in. */
export interface PlsqlHost {
  readonly db: OracleDatabase
  readonly engine: EngineSession
  readonly schema: string
  commit(): Promise<void>
  rollback(): Promise<void>
  mapError(e: unknown): OraError
  runLogged(sql: string, params?: ReadonlyArray<DuckDBValue>): Promise<number>
  queryDuck(duckSql: string, params: ReadonlyArray<DuckDBValue>, shape?: QueryShape): Promise<QueryResult>
  execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult>
  /** NUMBER columns without precision of the tables a statement mentions (computed on exactly: number-functions.ts). */
  exactNumberColumnsOf(sql: string): ReadonlySet<string>
  /** Resolves a table name as the session sees it. */
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined
}

type Value = DuckDBValue | QueryResult

interface Env {
  readonly vars: Map<string, Value>
  readonly binds: Map<string, number>
  readonly bindValues: Array<Value>
  /** The binds' types, by index (a TIMESTAMP WITH TIME ZONE bind is computed on as zoned text, datetime-binds.ts). */
  readonly bindSpecs?: ReadonlyArray<BindSpec>
  readonly assigned: Set<number>
  readonly read: Set<number>
  readonly implicit: Array<QueryResult>
  /** LOB variables' rows, for the DBMS_LOB writes (plsql-lobs.ts). */
  readonly lobs: Map<string, LobSource>
}

const plsErr = (msg: string) => ora.plsql(msg)

/** Unique bind names in order of first appearance (node-oracledb dedups PL/SQL binds the same way). */
const bindNames = (toks: ReadonlyArray<Tok>): Array<string> => {
  const out: Array<string> = []
  for (const t of toks) if (t.kind === "bind" && !out.includes(t.value)) out.push(t.value)
  return out
}

const sig = (sql: string) => tokenize(sql).filter((t) => t.kind !== "ws")

/** Splits a statement list at top-level semicolons. */
const statements = (toks: ReadonlyArray<Tok>): Array<Array<Tok>> => splitTopLevel(toks, ";").filter((s) => s.length > 0)

/** Parses `[DECLARE decls] BEGIN body END [name]` (or a bare body for procedures). */
const parseBlock = (toks: ReadonlyArray<Tok>): { decls: Array<Array<Tok>>; body: Array<Tok> } => {
  let k = 0
  let decls: Array<Array<Tok>> = []
  if (isKw(toks[0], "DECLARE")) {
    const begin = toks.findIndex((t) => isKw(t, "BEGIN"))
    if (begin < 0) throw plsErr('Encountered the symbol "end-of-file" when expecting one of the following: begin')
    decls = statements(toks.slice(1, begin))
    k = begin
  }
  if (!isKw(toks[k], "BEGIN")) throw plsErr(`Encountered the symbol "${toks[k]?.text ?? "end-of-file"}" when expecting one of the following: begin declare`)
  // find the matching END
  let depth = 0
  let end = -1
  for (let j = k; j < toks.length; j++) {
    if (isKw(toks[j], "BEGIN")) depth++
    else if (isKw(toks[j], "END") && !isKw(toks[j + 1], "IF", "LOOP", "CASE")) {
      depth--
      if (depth === 0) {
        end = j
        break
      }
    }
  }
  if (end < 0) throw plsErr('Encountered the symbol "end-of-file" when expecting one of the following: end')
  const body = toks.slice(k + 1, end)
  if (body.some((t) => isKw(t, "BEGIN"))) throw ora.unimplemented("nested PL/SQL blocks")
  if (body.some((t) => isKw(t, "EXCEPTION")) || statements(body).some((st) => isKw(st[0], "IF", "LOOP", "WHILE", "FOR", "CASE", "GOTO", "RAISE", "FORALL", "EXIT", "RETURN")))
    throw ora.unimplemented("PL/SQL control structures (IF, LOOP, FOR, WHILE, CASE, EXCEPTION, RAISE)")
  return { decls, body }
}

/** Renders expression tokens as DuckDB SQL, binding variables and bind placeholders as parameters. */
const renderExpr = (
  s: PlsqlHost,
  env: Env,
  toks: ReadonlyArray<Tok>,
  asQuery = false
): { sql: string; params: Array<DuckDBValue>; shape?: QueryShape } => {
  const params: Array<DuckDBValue> = []
  const numbered = new Map<Tok, number>()
  const specOfParam: Array<BindSpec | undefined> = []
  const source = rewriteAttributeAccess(rewriteFloatConditions(rewriteDbmsLob(rewriteJsonSql(toks, s.db.settings.version))), (schema, name) => s.lookupTable(schema, name))
  // variables become binds so the translator turns them into parameters
  const rewritten = source.map((t, i) => {
    if (t.kind === "ident" && env.vars.has(t.value) && !isOp(source[i + 1], "(") && !isOp(source[i - 1], ".") && !isOp(source[i + 1], "."))
      return { ...t, kind: "bind" as const, text: `:${t.value}`, value: `\u0000VAR:${t.value}` }
    return t
  })
  const withSpaces: Array<Tok> = []
  for (const t of rewritten) withSpaces.push(t, { kind: "ws", text: " ", value: " ", pos: t.pos })
  const { toks: tt, tr } = makeTranslator(withSpaces, {
    bind: (name, tok) => {
      const known = numbered.get(tok)
      if (known !== undefined) return `$${known}`
      let v: Value
      if (name.startsWith("\u0000VAR:")) v = env.vars.get(name.slice(5)) ?? null
      else {
        const idx = env.binds.get(name)
        if (idx === undefined) throw ora.notAllBound()
        env.read.add(idx)
        v = env.bindValues[idx] ?? null
        specOfParam[params.length] = env.bindSpecs?.[idx]
      }
      if (v !== null && typeof v === "object" && "kind" in v) throw plsErr("cursor variable used in an expression")
      params.push(v as DuckDBValue)
      numbered.set(tok, params.length)
      return `$${params.length}`
    },
    datetimeBind: zonedBinds(specOfParam),
    dbTimeZone: s.db.settings.dbTimeZone,
    exactNumberColumns: s.exactNumberColumnsOf(toks.map((t) => t.text).join(" "))
  })
  if (asQuery) {
    const q = translateQuery(tt, tr)
    return { sql: q.sql, params, shape: q.shape }
  }
  return { sql: tr.range(0, tt.length), params }
}

/** A generic engine value as a PL/SQL variable value (decimals become numbers when exact). */
const plainValue = (c: ColumnVector, i: number): DuckDBValue => {
  const v = c.value(i)
  if (v === null) return null
  if (c.info.layout.startsWith("decimal") && typeof v === "string") {
    const n = Number(v)
    return v.replace(/^-|\.|^0+/g, "").length <= 15 ? n : v
  }
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  return v as DuckDBValue
}

const firstRow = async (q: QueryResult): Promise<Array<DuckDBValue> | undefined> => {
  const chunk = await q.cursor.next()
  q.cursor.close()
  if (chunk === null || chunk.rowCount === 0) return undefined
  return chunk.columns.map((c) => plainValue(c, 0))
}

const evalExpr = async (s: PlsqlHost, env: Env, toks: ReadonlyArray<Tok>): Promise<DuckDBValue> => {
  const { sql, params } = renderExpr(s, env, toks)
  const cursor = await s.engine.query(`SELECT ${sql}`, params).catch((e: unknown) => {
    throw s.mapError(e)
  })
  const chunk = await cursor.next()
  cursor.close()
  const col = chunk?.columns[0]
  return col === undefined ? null : plainValue(col, 0)
}

const assign = (env: Env, target: Tok, value: Value) => {
  if (target.kind === "bind") {
    const idx = env.binds.get(target.value)
    if (idx === undefined) throw ora.notAllBound()
    env.bindValues[idx] = value
    env.assigned.add(idx)
    return
  }
  const name = oracleName(target)
  if (!env.vars.has(name)) throw plsErr(`identifier '${name}' must be declared`)
  env.vars.set(name, value)
}

const runStatement = async (s: PlsqlHost, env: Env, st: ReadonlyArray<Tok>): Promise<void> => {
  const head = st[0]!
  // target := expr
  const assignAt = st.findIndex((t) => isOp(t, ":="))
  if (assignAt === 1) {
    assign(env, head, await evalExpr(s, env, st.slice(2)))
    return
  }
  if (isKw(head, "NULL") && st.length === 1) return
  if (isKw(head, "COMMIT")) return s.commit()
  if (isKw(head, "ROLLBACK")) return s.rollback()
  if (isKw(head, "SELECT")) {
    const into = st.findIndex((t) => isKw(t, "INTO"))
    const from = st.findIndex((t) => isKw(t, "FROM"))
    if (into < 0 || from < into) throw new OraError(6550, "line 1, column 7:\nPLS-00428: an INTO clause is expected in this SELECT statement")
    const targets = splitTopLevel(st.slice(into + 1, from)).map((p) => p[0]!)
    const q = [...st.slice(0, into), ...st.slice(from)]
    const { sql, params, shape } = renderExpr(s, env, q, true)
    const result = await s.queryDuck(sql, params, shape)
    const row = await firstRow(result)
    if (row === undefined) throw ora.noDataFound()
    targets.forEach((t, i) => assign(env, t, row[i] ?? null))
    for (const [name, source] of lobSourcesOf(splitTopLevel(st.slice(1, into)), targets, st.slice(from))) env.lobs.set(name, source)
    return
  }
  if (isKw(head, "INSERT", "UPDATE", "DELETE", "MERGE")) {
    const lookup = (schema: string | undefined, name: string) => s.lookupTable(schema, name)
    const { sql, params } = renderExpr(s, env, intervalLiteralTargets(sessionZoneWrites(canonicalNumberWrites(st, lookup), lookup), lookup))
    await s.runLogged(sql, params)
    return
  }
  if (isKw(head, "OPEN")) {
    const forAt = st.findIndex((t) => isKw(t, "FOR"))
    if (forAt !== 2) throw plsErr("OPEN cursor FOR query expected")
    const { sql, params, shape } = renderExpr(s, env, st.slice(3), true)
    assign(env, st[1]!, await s.queryDuck(sql, params, shape))
    return
  }
  if (isKw(head, "EXECUTE") && isKw(st[1], "IMMEDIATE")) {
    const lit = st[2]
    if (lit?.kind !== "str") throw ora.unimplemented("EXECUTE IMMEDIATE of a non-literal")
    if (st.length > 3) throw ora.unimplemented("EXECUTE IMMEDIATE ... USING/INTO")
    await s.execute(lit.value, [], [], { batchErrors: false, dmlRowCounts: false })
    return
  }
  // procedure call: [schema.]name[.name](args) or DBMS_SQL.RETURN_RESULT / DBMS_OUTPUT.PUT_LINE
  let k = 0
  const parts: Array<string> = [oracleName(head)]
  while (isOp(st[k + 1], ".") && st[k + 2] !== undefined) {
    parts.push(oracleName(st[k + 2]!))
    k += 2
  }
  const full = parts.join(".")
  const open = k + 1
  const args = isOp(st[open], "(") ? splitTopLevel(st.slice(open + 1, matchParen(st, open))) : []
  if (full === "DBMS_SQL.RETURN_RESULT" || full === "SYS.DBMS_SQL.RETURN_RESULT") {
    const a = args[0]?.[0]
    if (a === undefined) throw plsErr("wrong number or types of arguments in call to 'RETURN_RESULT'")
    const v = a.kind === "bind" ? env.bindValues[env.binds.get(a.value) ?? -1] : env.vars.get(oracleName(a))
    if (v === undefined || v === null || typeof v !== "object" || !("kind" in v)) throw new OraError(1001, "invalid cursor")
    env.implicit.push(v)
    return
  }
  if (parts.length === 2 && parts[0] === "DBMS_LOB") return dbmsLob(s, env, parts[1]!, args)
  if (full === "DBMS_OUTPUT.PUT_LINE" || full === "DBMS_OUTPUT.ENABLE" || full === "DBMS_SESSION.SET_IDENTIFIER") return
  const owner = parts.length > 1 ? parts[0]! : s.schema
  const pname = parts[parts.length - 1]!
  const proc = s.db.procedures.get(`${owner}.${pname}`) ?? s.db.procedures.get(`${s.schema}.${pname}`)
  if (proc === undefined) throw plsErr(`identifier '${full}' must be declared`)
  // bind arguments (positional or named)
  const actual: Array<ReadonlyArray<Tok> | undefined> = proc.params.map(() => undefined)
  args.forEach((a, i) => {
    if (a.length >= 3 && isOp(a[1], "=>")) {
      const pi = proc.params.findIndex((p) => p.name === oracleName(a[0]!))
      if (pi < 0) throw plsErr(`wrong number or types of arguments in call to '${pname}'`)
      actual[pi] = a.slice(2)
    } else actual[i] = a
  })
  if (args.length > proc.params.length) throw plsErr(`wrong number or types of arguments in call to '${pname}'`)
  const inner: Env = { vars: new Map(), binds: new Map(), bindValues: [], assigned: new Set(), read: new Set(), implicit: env.implicit, lobs: new Map() }
  for (let i = 0; i < proc.params.length; i++) {
    const p = proc.params[i]!
    const a = actual[i]
    if (a === undefined) throw plsErr(`wrong number or types of arguments in call to '${pname}'`)
    inner.vars.set(p.name, p.mode === "OUT" ? null : await evalExpr(s, env, a))
  }
  await runBody(s, inner, proc.body)
  for (let i = 0; i < proc.params.length; i++) {
    const p = proc.params[i]!
    if (p.mode === "IN") continue
    const a = actual[i]!
    if (a.length !== 1) throw plsErr(`expression '${a.map((t) => t.text).join("")}' cannot be used as an assignment target`)
    assign(env, a[0]!, inner.vars.get(p.name) ?? null)
  }
}

/** A DBMS_LOB procedure on a LOB variable: its new value, written back into the row it was selected FOR UPDATE from. */
const dbmsLob = async (s: PlsqlHost, env: Env, procedure: string, args: ReadonlyArray<ReadonlyArray<Tok>>): Promise<void> => {
  const locator = args[0]
  if (locator === undefined || locator.length !== 1) throw plsErr(`wrong number or types of arguments in call to '${procedure}'`)
  const name = oracleName(locator[0]!)
  if (!env.vars.has(name)) throw plsErr(`identifier '${name}' must be declared`)
  const values: Array<DuckDBValue> = []
  for (const a of args.slice(1)) values.push(await evalExpr(s, env, a))
  const current = env.vars.get(name)
  const next = dbmsLobWrite(procedure, (current ?? null) as DuckDBValue, values)
  if (next === undefined) throw ora.unimplemented(`DBMS_LOB.${procedure} in PL/SQL`)
  const source = requireLocked(env.lobs.get(name))
  env.vars.set(name, next)
  const whereAt = source.fromWhere.findIndex((t) => isKw(t, "WHERE"))
  const table = whereAt < 0 ? source.fromWhere : source.fromWhere.slice(0, whereAt)
  const where = whereAt < 0 ? [] : source.fromWhere.slice(whereAt)
  const column = source.column[source.column.length - 1]!
  const update = [...sig("UPDATE"), ...table, ...sig("SET"), column, ...sig("="), locator[0]!, ...where]
  const { sql, params } = renderExpr(s, env, update)
  await s.runLogged(sql, params)
}

const declare = async (s: PlsqlHost, env: Env, decls: ReadonlyArray<ReadonlyArray<Tok>>) => {
  for (const d of decls) {
    const name = oracleName(d[0]!)
    const init = d.findIndex((t) => isOp(t, ":=") || isKw(t, "DEFAULT"))
    env.vars.set(name, init >= 0 ? await evalExpr(s, env, d.slice(init + 1)) : null)
  }
}

const runBody = async (s: PlsqlHost, env: Env, toks: ReadonlyArray<Tok>) => {
  const { decls, body } = parseBlock(toks)
  await declare(s, env, decls)
  for (const st of statements(body)) await runStatement(s, env, st)
}

/**
 * ORA-06502 when an OUT string does not fit its bind variable: Oracle raises "character string buffer too small"
 * on the assignment (https://docs.oracle.com/en/error-help/db/ora-06502/). A VARCHAR bind holds `maxSize` bytes;
 * an NVARCHAR bind's metadata size is its character count times oracledb's buffer factor 4 (withData.js
 * writeColumnMetadata).
 */
const checkOutFits = (value: unknown, spec: BindSpec | undefined): void => {
  if (spec === undefined || typeof value !== "string" || spec.dty !== Dty.VARCHAR) return
  const fits = spec.csfrm === 2 ? [...value].length <= Math.floor(spec.maxSize / 4) : Buffer.byteLength(value) <= spec.maxSize
  if (!fits) throw new OraError(6502, "PL/SQL: value or conversion error: character string buffer too small")
}

/** Runs an anonymous block (or CALL statement). */
export const runPlsql = async (s: PlsqlHost, sql: string, values: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>): Promise<PlsqlResult> => {
  let toks = sig(sql)
  if (isKw(toks[0], "CALL")) {
    const rest = toks.slice(1)
    toks = [...sig("BEGIN"), ...rest, ...sig("; END;")]
  }
  const names = bindNames(toks)
  const env: Env = {
    vars: new Map(),
    binds: new Map(names.map((n, i) => [n, i])),
    bindValues: names.map((_, i) => values[i] ?? null),
    bindSpecs: specs,
    assigned: new Set(),
    read: new Set(),
    implicit: [],
    lobs: new Map()
  }
  await runBody(s, env, toks)
  for (const i of env.assigned) checkOutFits(env.bindValues[i] ?? null, specs[i])
  const directions = names.map((_, i) => (env.assigned.has(i) ? (env.read.has(i) ? BIND_INOUT : BIND_OUT) : BIND_IN))
  return { kind: "plsql", directions, values: env.bindValues, implicit: env.implicit }
}

/** Registers CREATE [OR REPLACE] PROCEDURE name [(params)] IS|AS [decls] BEGIN ... END. */
export const defineProcedure = (s: PlsqlHost, sql: string): void => {
  const toks = sig(sql.replace(/\/\s*$/, ""))
  let k = toks.findIndex((t) => isKw(t, "PROCEDURE")) + 1
  let owner = s.schema
  let name = oracleName(toks[k]!)
  if (isOp(toks[k + 1], ".")) {
    owner = name
    name = oracleName(toks[k + 2]!)
    k += 2
  }
  k++
  const params: Array<{ name: string; mode: "IN" | "OUT" | "IN OUT" }> = []
  if (isOp(toks[k], "(")) {
    const close = matchParen(toks, k)
    for (const p of splitTopLevel(toks.slice(k + 1, close))) {
      const pn = oracleName(p[0]!)
      let mode: "IN" | "OUT" | "IN OUT" = "IN"
      if (isKw(p[1], "IN") && isKw(p[2], "OUT")) mode = "IN OUT"
      else if (isKw(p[1], "OUT")) mode = "OUT"
      params.push({ name: pn, mode })
    }
    k = close + 1
  }
  if (!isKw(toks[k], "IS", "AS")) throw plsErr(`Encountered the symbol "${toks[k]?.text ?? ""}" when expecting one of the following: ( ; is as`)
  const rest = toks.slice(k + 1)
  const begin = rest.findIndex((t) => isKw(t, "BEGIN"))
  const body = begin > 0 ? [...sig("DECLARE"), ...rest] : rest
  parseBlock(body) // validate now, as Oracle compiles at CREATE time
  const key = `${owner}.${name}`
  const existed = s.db.procedures.has(key)
  if (existed && !/^\s*CREATE\s+OR\s+REPLACE/i.test(sql)) throw ora.nameInUse()
  s.db.procedures.set(key, { owner, name, params, body, source: sql })
  if (!existed) s.db.catalog.putObject({ owner, name, type: "PROCEDURE", objectId: s.db.catalog.newObjectId(), created: new Date() })
}
