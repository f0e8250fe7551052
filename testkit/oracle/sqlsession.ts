/**
 * Oracle statement semantics for one session on top of a testkit/engine session: statement classes,
 * translation, declared column types, transactions (implicit start, DDL commits, statement-level
 * atomicity), executeMany (bulk path), DDL with catalog upkeep, ALTER SESSION and the data dictionary.
 *
 * DuckDB aborts a whole transaction when one statement fails, while Oracle only rolls back the failed
 * statement. The session therefore keeps a log of the successful statements of the open transaction and,
 * after a failure, rolls back and replays that log before reporting the error.
 */
import * as crypto from "node:crypto"
import { DuckDBBlobValue, DuckDBListValue, DuckDBTimestampTZValue, DuckDBTimestampValue } from "@duckdb/node-api"
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import { DuckDBTypeId } from "@duckdb/node-api"
import type { ColumnInfo, Cursor, Session as EngineSession } from "../engine/index.ts"
import { EngineError } from "../engine/index.ts"
import type { ColumnMeta, ConstraintMeta, TableMeta } from "./catalog.ts"
import { dictionaryShapes } from "./catalog.ts"
import { type OracleDatabase, type SessionInfo, sqlIdOf } from "./database.ts"
import { fromDuckDb, ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"
import { decodeName, duckIdent, encodeName, quoteDuck } from "./names.ts"
import { runPlsql } from "./plsql.ts"
import {
  type BindSpec,
  classify,
  type DmlResult,
  type ExecuteOptions,
  type QueryResult,
  type ResultColumn,
  returningClause,
  type StatementResult,
  stripTerminator
} from "./statement.ts"
import { makeTranslator, oracleName, translateQuery, type QueryShape } from "./translate.ts"
import { inferFromDuck, parseOracleType, rowidType, type OraType } from "./types.ts"

interface LogEntry {
  readonly sql: string
  readonly params: ReadonlyArray<DuckDBValue> | undefined
  readonly types: ReadonlyArray<DuckDBType | undefined> | undefined
}

const DICTIONARY_NAMES = new Set(Object.keys(dictionaryShapes).filter((n) => n !== "DUAL"))
const isDictionaryName = (v: string) =>
  DICTIONARY_NAMES.has(v) ||
  /^(USER|DBA)_(TABLES|VIEWS|TAB_COLUMNS|CONSTRAINTS|CONS_COLUMNS|OBJECTS|SEQUENCES|USERS|TAB_COMMENTS|COL_COMMENTS|INDEXES|IND_COLUMNS)$/.test(v) ||
  v === "TABS" ||
  v === "COLS"

const md5 = (b: Buffer) => crypto.createHash("md5").update(b).digest()

/** One Oracle session's SQL state. */
export class SqlSession {
  schema: string
  sessionTz = "+00:00"
  private inTxn = false
  private log: Array<LogEntry> = []
  private constraintSeq = 0

  constructor(
    readonly db: OracleDatabase,
    readonly engine: EngineSession,
    readonly info: SessionInfo
  ) {
    this.schema = info.user
  }

  /** Sets the session variables used by SYS_CONTEXT/USER and the DuckDB search path. */
  async init(sessionTz: string): Promise<void> {
    await this.engine.execute("SET TimeZone = 'UTC'")
    this.sessionTz = sessionTz
    await this.setVars(this.engine)
    await this.setSearchPath()
  }

  private async setVars(s: EngineSession): Promise<void> {
    const u = this.db.catalog.users.get(this.info.user)
    const sch = this.db.catalog.users.get(this.schema)
    const vars: Record<string, string | number> = {
      ora_user: this.info.user,
      ora_uid: u?.userId ?? 0,
      ora_schema: this.schema,
      ora_schema_id: sch?.userId ?? 0,
      ora_sid: this.info.sid,
      ora_machine: this.info.machine,
      ora_osuser: this.info.osUser,
      ora_module: this.info.program,
      ora_action: "",
      ora_client_id: "",
      ora_client_info: "",
      ora_session_tz: this.sessionTz,
      ora_session_tz_min: offsetMinutes(this.sessionTz, this.db.dbOffsetMinutes())
    }
    await s.execute(
      Object.entries(vars)
        .map(([k, v]) => `SET VARIABLE ${k} = ${typeof v === "number" ? v : `'${v.replace(/'/g, "''")}'`}`)
        .join("; ")
    )
  }

  private async setSearchPath(): Promise<void> {
    await this.engine.execute(`SET search_path = '${quoteDuck(encodeName(this.schema)).replace(/'/g, "''")},"SYS",main'`)
  }

  /** True while a transaction is open (reported to the client as "transaction in progress"). */
  get transactionInProgress(): boolean {
    return this.inTxn
  }

  /** Commits the open transaction. */
  async commit(): Promise<void> {
    this.savepoints.clear()
    if (!this.inTxn) return
    this.inTxn = false
    this.log = []
    await this.engine.commit()
  }

  /** Rolls the open transaction back. */
  async rollback(): Promise<void> {
    this.savepoints.clear()
    if (!this.inTxn) return
    this.inTxn = false
    this.log = []
    await this.engine.rollback()
  }

  private async begin(): Promise<void> {
    if (this.inTxn) return
    await this.engine.begin()
    this.inTxn = true
    this.log = []
  }

  /** Runs a statement inside the transaction with Oracle statement-level atomicity. */
  async runLogged(sql: string, params?: ReadonlyArray<DuckDBValue>, types?: ReadonlyArray<DuckDBType | undefined>): Promise<number> {
    await this.begin()
    try {
      const n = await this.engine.execute(sql, params, types)
      this.log.push({ sql, params, types })
      return n
    } catch (e) {
      await this.recover()
      throw this.mapError(e)
    }
  }

  private savepoints = new Map<string, number>()

  /** ROLLBACK TO SAVEPOINT: roll back and replay the transaction's statements up to the savepoint. */
  private async rollbackTo(name: string): Promise<void> {
    const mark = this.savepoints.get(name)
    if (mark === undefined || !this.inTxn) throw new OraError(1086, `savepoint '${name}' never established in this session or is invalid`)
    const keep = this.log.slice(0, mark)
    for (const [k, v] of this.savepoints) if (v > mark) this.savepoints.delete(k)
    this.log = keep
    await this.recover()
    if (!this.inTxn) {
      // nothing to replay: stay in a (new) transaction, as Oracle does after ROLLBACK TO SAVEPOINT
      await this.begin()
    }
  }

  /** After a failed statement: roll back and replay the successful statements of the transaction. */
  private async recover(): Promise<void> {
    const log = this.log
    try {
      await this.engine.rollback()
    } catch {
      // already rolled back
    }
    this.inTxn = false
    this.log = []
    if (log.length === 0) return
    await this.engine.begin()
    this.inTxn = true
    for (const entry of log) await this.engine.execute(entry.sql, entry.params, entry.types)
    this.log = log
  }

  /** Maps an engine failure onto an ORA- error. */
  mapError(e: unknown): OraError {
    if (e instanceof OraError) return e
    const message = e instanceof Error ? e.message : String(e)
    const err = fromDuckDb(message, this.db.settings.version, decodeName, this.schema)
    const target = this.dmlTarget
    if (err.code === 1 && target !== undefined) {
      // name the table's primary key / unique constraint (23ai also names the table and columns)
      const c = target.constraints.find((x) => x.type === "P") ?? target.constraints.find((x) => x.type === "U")
      if (c !== undefined) {
        const tail = this.db.settings.version === "23ai" ? ` on table ${target.owner}.${target.name} columns (${c.columns.join(", ")})` : ""
        return new OraError(1, `unique constraint (${target.owner}.${c.name}) violated${tail}`)
      }
    }
    return err
  }

  /** Table written by the DML statement being executed (for constraint names in errors). */
  private dmlTarget: TableMeta | undefined

  /** Records the statement for V$SESSION (SQL_ID / PREV_SQL_ID). */
  noteSql(sql: string): void {
    this.info.prevSqlId = this.info.sqlId
    this.info.sqlId = sqlIdOf(sql, md5)
  }

  /** Executes one statement for each bind row (one row when there are no binds). */
  async execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> {
    const cls = classify(sql)
    switch (cls) {
      case "query":
        return this.query(sql, rows[0] ?? [])
      case "dml":
        return this.dml(sql, rows, specs, opts)
      case "ddl":
        await this.commit()
        await this.ddl(sql)
        return { kind: "done" }
      case "plsql":
        return runPlsql(this, sql, rows[0] ?? [], specs)
      case "commit":
        await this.commit()
        return { kind: "done" }
      case "rollback": {
        const to = /^\s*ROLLBACK\s+(?:WORK\s+)?TO\s+(?:SAVEPOINT\s+)?("?)([^"\s;]+)\1\s*;?\s*$/i.exec(sql)
        if (to !== null) {
          await this.rollbackTo(to[1] === '"' ? to[2]! : to[2]!.toUpperCase())
          return { kind: "done" }
        }
        await this.rollback()
        return { kind: "done" }
      }
      default: {
        const kw = sql.trim().split(/\s+/)[0]?.toUpperCase() ?? ""
        const sp = /^\s*SAVEPOINT\s+("?)([^"\s;]+)\1\s*;?\s*$/i.exec(sql)
        if (sp !== null) {
          // a savepoint is a position in the replay log of the transaction
          await this.begin()
          this.savepoints.set(sp[1] === '"' ? sp[2]! : sp[2]!.toUpperCase(), this.log.length)
          return { kind: "done" }
        }
        if (kw === "SET") return { kind: "done" }
        if (kw === "EXPLAIN" || kw === "LOCK") throw ora.unimplemented(kw)
        throw ora.invalidSql()
      }
    }
  }

  /** Translates an Oracle expression/statement fragment with positional binds. */
  translate(sql: string): { toks: Array<Tok>; text: (from: number, to: number) => string; binds: Array<string> } {
    const { toks, tr, binds } = this.bindNumberingTranslator(unqualifySetTargets(tokenize(sql)), sql)
    return { toks, text: (a, b) => tr.range(a, b), binds }
  }

  /** A translator over `tokens` whose bind variables become `$1…$n`, numbered in source order. */
  private bindNumberingTranslator(tokens: ReadonlyArray<Tok>, sql: string) {
    const binds: Array<string> = []
    const numbers = new Map<Tok, number>()
    const { toks, tr } = makeTranslator(tokens, {
      bind: (name, tok) => {
        let n = numbers.get(tok)
        if (n === undefined) {
          binds.push(name)
          n = binds.length
          numbers.set(tok, n)
        }
        return `$${n}`
      },
      dbTimeZone: this.db.settings.dbTimeZone,
      dateColumns: this.dateColumnsOf(sql)
    })
    toks.forEach((t, k) => {
      if (t.kind === "bind") tr.range(k, k + 1)
    })
    return { toks, tr, binds }
  }

  /** Runs a query and describes its columns. */
  async query(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<QueryResult> {
    const { toks, tr, binds } = this.bindNumberingTranslator(tokenize(stripTerminator(sql)), sql)
    const { sql: duckSql, shape } = translateQuery(toks, tr)
    if (binds.length > params.length) throw ora.notAllBound()
    const p = params.slice(0, binds.length)
    const dict = new Set(toks.filter((t) => t.kind === "ident" && isDictionaryName(t.value)).map((t) => t.value))
    let cursor: Cursor
    try {
      if (dict.size > 0) {
        const resolved = new Set([...dict].map((n) => n.replace(/^(USER|DBA)_/, "ALL_")).map((n) => (n === "TABS" ? "ALL_TABLES" : n === "COLS" ? "ALL_TAB_COLUMNS" : n)))
        cursor = await this.db.withAdmin(async (admin) => {
          await this.db.refreshDictionary(admin, resolved)
          await this.setVars(admin)
          await admin.execute(`SET search_path = '${quoteDuck(encodeName(this.schema)).replace(/'/g, "''")},"SYS",main'`)
          return admin.query(duckSql, p)
        })
      } else {
        cursor = await this.engine.query(duckSql, p)
      }
    } catch (e) {
      if (this.inTxn) await this.recover()
      throw this.mapError(e)
    }
    return { kind: "query", columns: this.describe(shape, cursor.columns), cursor }
  }

  /** DATE/TIMESTAMP column names of the tables a statement mentions (identifier match against the catalog). */
  dateColumnsOf(sql: string): ReadonlySet<string> {
    const out = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      const meta = this.lookupTable(undefined, oracleName(t))
      if (meta === undefined) continue
      for (const c of meta.columns) if (["date", "timestamp", "timestamptz", "timestampltz"].includes(c.type.kind)) out.add(c.name)
    }
    return out
  }

  /** Runs an already translated DuckDB query and describes its columns. */
  async queryDuck(duckSql: string, params: ReadonlyArray<DuckDBValue>, shape?: QueryShape): Promise<QueryResult> {
    try {
      const cursor = await this.engine.query(duckSql, params)
      return { kind: "query", columns: this.describe(shape, cursor.columns), cursor }
    } catch (e) {
      if (this.inTxn) await this.recover()
      throw this.mapError(e)
    }
  }

  /** Resolves an unqualified or qualified table name visible to this session. */
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined {
    if (schema !== undefined) return this.db.catalog.getTable(schema, name)
    return this.db.catalog.getTable(this.schema, name) ?? this.db.catalog.getTable("SYS", name)
  }

  /** Maps result columns to declared types where the select list makes that possible. */
  describe(shape: QueryShape | undefined, cols: ReadonlyArray<ColumnInfo>): Array<ResultColumn> {
    const version = this.db.settings.version
    const infer = (c: ColumnInfo): ResultColumn => ({ name: decodeName(c.name), type: inferFromDuck(c.type, version), nullable: true })
    if (shape === undefined) return cols.map(infer)
    const tables = shape.from.map((f) => ({ ref: f, meta: this.lookupTable(f.schema, f.table) }))
    const out: Array<ResultColumn> = []
    let k = 0
    const declared = (c: ColumnInfo, meta: ColumnMeta | undefined): ResultColumn => {
      if (meta === undefined || !compatible(meta.type, c)) return infer(c)
      return { name: decodeName(c.name), type: meta.type, nullable: meta.nullable }
    }
    for (const item of shape.items) {
      if (k >= cols.length) break
      if (item.kind === "star") {
        const sources = item.qualifier === undefined ? tables : tables.filter((t) => t.ref.alias === item.qualifier || (t.ref.alias === undefined && t.ref.table === item.qualifier))
        if (sources.some((s) => s.meta === undefined)) return [...out, ...cols.slice(k).map(infer)]
        for (const s of sources) for (const m of s.meta!.columns) if (k < cols.length) out.push(declared(cols[k++]!, m))
      } else if (item.kind === "col") {
        const c = cols[k++]!
        const sources = item.qualifier === undefined ? tables : tables.filter((t) => t.ref.alias === item.qualifier || (t.ref.alias === undefined && t.ref.table === item.qualifier))
        let meta: ColumnMeta | undefined
        for (const s of sources) {
          meta = s.meta?.columns.find((m) => m.name === item.column)
          if (meta !== undefined) break
        }
        out.push(declared(c, meta))
      } else if (item.kind === "typed") {
        const c = cols[k++]!
        out.push({ name: decodeName(c.name), type: item.type, nullable: true })
      } else if (item.kind === "rowid") {
        const c = cols[k++]!
        out.push({ name: "ROWID", type: c.typeId === DuckDBTypeId.BIGINT ? rowidType : inferFromDuck(c.type, version), nullable: true })
      } else {
        out.push(infer(cols[k++]!))
      }
    }
    for (; k < cols.length; k++) out.push(infer(cols[k]!))
    return out
  }

  private async dml(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<DmlResult> {
    const t = this.translate(stripTerminator(sql))
    if (isKw(t.toks[0], "INSERT") && !isKw(t.toks[1], "INTO")) throw new OraError(925, "missing INTO keyword")
    {
      const at = isKw(t.toks[1], "INTO") ? 2 : 1
      const a = t.toks[at]
      const qualifiedName = isOp(t.toks[at + 1], ".") && t.toks[at + 2] !== undefined
      this.dmlTarget =
        a === undefined || (a.kind !== "ident" && a.kind !== "qident")
          ? undefined
          : qualifiedName
            ? this.lookupTable(oracleName(a), oracleName(t.toks[at + 2]!))
            : this.lookupTable(undefined, oracleName(a))
    }
    const ret = returningClause(t.toks)
    if (ret !== undefined) return this.dmlReturning(t, ret, rows)
    const duckSql = t.text(0, t.toks.length)
    const nBinds = t.binds.length
    for (const r of rows) if (r.length < nBinds) throw ora.notAllBound()
    if (rows.length > 1 && !opts.batchErrors) {
      const bulk = this.bulkInsert(t.toks, t.text, nBinds)
      if (bulk !== undefined) {
        // one VARCHAR parameter per bind column holding a JSON array: DuckDB's JSON reader turns it into a list
        // far faster than binding list values element by element
        const params: Array<DuckDBValue> = []
        const exprs: Array<string> = []
        for (let b = 0; b < nBinds; b++) {
          const col = jsonColumn(rows, b)
          params.push(col.json)
          exprs.push(col.expr(`$${b + 1}`))
        }
        try {
          const n = await this.runLogged(bulk(exprs), params)
          return { kind: "dml", rowCount: n, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
        } catch (e) {
          if (!(e instanceof OraError)) throw e
        }
        // locate the failing row by bisection with bulk inserts; rows before it stay inserted, as in Oracle
        let inserted = 0
        const bisect = async (lo: number, hi: number): Promise<void> => {
          try {
            inserted += (await this.bulkChunk(sql, rows.slice(lo, hi))) ?? 0
          } catch (e) {
            if (hi - lo === 1) {
              const err = this.mapError(e)
              ;(err as OraError & { rowOffset?: number }).rowOffset = lo
              throw err
            }
            const mid = (lo + hi) >> 1
            await bisect(lo, mid)
            await bisect(mid, hi)
          }
        }
        await bisect(0, rows.length)
        return { kind: "dml", rowCount: inserted, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
      }
    }
    let total = 0
    const counts: Array<number> = []
    const errors: Array<{ offset: number; error: OraError }> = []
    const list = rows.length === 0 ? [[]] : rows
    for (let i = 0; i < list.length; i++) {
      try {
        const n = await this.runLogged(duckSql, list[i]!.slice(0, nBinds))
        total += n
        counts.push(n)
      } catch (e) {
        const err = this.mapError(e)
        if (!opts.batchErrors) {
          if (list.length > 1) (err as OraError & { rowOffset?: number }).rowOffset = i
          throw err
        }
        errors.push({ offset: i, error: err })
        counts.push(0)
      }
    }
    return { kind: "dml", rowCount: total, rowCounts: opts.dmlRowCounts ? counts : [], batchErrors: errors }
  }

  /**
   * For `INSERT ... VALUES (...)` with binds: inserts a chunk of bind rows through the bulk path and returns the
   * number of rows inserted; undefined when the statement cannot take the bulk path. Failures are ORA- errors
   * (the transaction is restored first).
   */
  async bulkChunk(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<number | undefined> {
    if (classify(sql) !== "dml") return undefined
    const t = this.translate(stripTerminator(sql))
    if (!isKw(t.toks[0], "INSERT") || returningClause(t.toks) !== undefined) return undefined
    const nBinds = t.binds.length
    const bulk = this.bulkInsert(t.toks, t.text, nBinds)
    if (bulk === undefined) return undefined
    const params: Array<DuckDBValue> = []
    const exprs: Array<string> = []
    for (let b = 0; b < nBinds; b++) {
      const col = jsonColumn(rows, b)
      params.push(col.json)
      exprs.push(col.expr(`$${b + 1}`))
    }
    return this.runLogged(bulk(exprs), params)
  }

  /** DML ... RETURNING exprs INTO :binds, executed per bind row with DuckDB's RETURNING. */
  private async dmlReturning(
    t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> },
    ret: { at: number; into: number; outs: number },
    rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  ): Promise<DmlResult> {
    const nIn = t.binds.length - ret.outs
    const sql = `${t.text(0, ret.at)} RETURNING ${t.text(ret.at + 1, ret.into)}`
    const returned: Array<Array<unknown>> = Array.from({ length: ret.outs }, () => [])
    let total = 0
    await this.begin()
    for (const row of rows.length === 0 ? [[]] : rows) {
      const params = row.slice(0, nIn)
      try {
        const cursor = await this.engine.query(sql, params)
        for (let c = await cursor.next(); c !== null; c = await cursor.next()) {
          for (let i = 0; i < c.rowCount; i++) for (let k = 0; k < ret.outs; k++) returned[k]!.push(c.columns[k]?.value(i) ?? null)
          total += c.rowCount
        }
        this.log.push({ sql, params, types: undefined })
      } catch (e) {
        await this.recover()
        throw this.mapError(e)
      }
    }
    return { kind: "dml", rowCount: total, rowCounts: [], batchErrors: [], returning: returned }
  }

  /** INSERT INTO t [(cols)] VALUES (exprs) -> INSERT ... SELECT over unnest()ed bind columns, or undefined. */
  private bulkInsert(toks: ReadonlyArray<Tok>, text: (a: number, b: number) => string, nBinds: number): ((exprs: ReadonlyArray<string>) => string) | undefined {
    const valuesAt = toks.findIndex((x) => isKw(x, "VALUES"))
    if (valuesAt < 0 || nBinds === 0 || !isOp(toks[valuesAt + 1], "(")) return undefined
    const close = matchParen(toks, valuesAt + 1)
    if (close !== toks.length - 1) return undefined
    const head = text(0, valuesAt)
    // re-render the VALUES expressions with bind k -> column p<k> of the unnest subquery
    const inner = text(valuesAt + 2, close).replace(/\$(\d+)/g, (_, d: string) => `"p${d}"`)
    return (exprs) => `${head} SELECT ${inner} FROM (SELECT ${exprs.map((e, k) => `${e} AS "p${k + 1}"`).join(", ")})`
  }

  // ---------------------------------------------------------------- DDL

  private async runDdl(sql: string): Promise<void> {
    try {
      await this.engine.execute(sql)
    } catch (e) {
      throw this.mapError(e)
    }
  }

  private qualified(toks: ReadonlyArray<Tok>, at: number): { schema: string; name: string; next: number } {
    const a = toks[at]
    if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) throw new OraError(903, "invalid table name")
    if (isOp(toks[at + 1], ".") && (toks[at + 2]?.kind === "ident" || toks[at + 2]?.kind === "qident"))
      return { schema: oracleName(a), name: oracleName(toks[at + 2]!), next: at + 3 }
    return { schema: this.schema, name: oracleName(a), next: at + 1 }
  }

  private nextConstraintName(): string {
    this.constraintSeq++
    return `SYS_C00${(8000 + this.info.sid * 100 + this.constraintSeq).toString().padStart(4, "0")}`
  }

  /** Executes DDL (after the implicit commit). */
  async ddl(sqlText: string): Promise<void> {
    const sql = stripTerminator(sqlText)
    const t = this.translate(sql)
    const toks = t.toks
    const kw = toks[0]?.value
    if (t.binds.length > 0) throw new OraError(1027, "bind variables not allowed for data definition operations")
    if (kw === "CREATE") {
      let k = 1
      let orReplace = false
      if (isKw(toks[k], "OR") && isKw(toks[k + 1], "REPLACE")) {
        orReplace = true
        k += 2
      }
      if (isKw(toks[k], "GLOBAL", "PRIVATE") && isKw(toks[k + 1], "TEMPORARY")) k += 2
      if (isKw(toks[k], "TABLE")) return this.createTable(toks, k + 1, t.text, sql)
      if (isKw(toks[k], "FORCE", "NOFORCE", "EDITIONABLE", "NONEDITIONABLE")) k++
      if (isKw(toks[k], "VIEW")) return this.createView(toks, k + 1, t.text, orReplace, sql)
      if (isKw(toks[k], "UNIQUE", "BITMAP")) k++
      if (isKw(toks[k], "INDEX")) return this.createIndex(toks, k, t.text)
      if (isKw(toks[k], "SEQUENCE")) return this.createSequence(toks, k + 1)
      if (isKw(toks[k], "USER")) {
        const name = oracleName(toks[k + 1]!)
        const pw = toks[k + 4]
        if (!isKw(toks[k + 2], "IDENTIFIED") || !isKw(toks[k + 3], "BY") || pw === undefined) throw ora.invalidSql()
        if (this.db.catalog.users.has(name)) throw new OraError(1920, `user name '${name}' conflicts with another user or role name`)
        await this.db.withAdmin(() => this.db.createUser(name, pw.kind === "qident" || pw.kind === "str" ? pw.value : pw.text))
        return
      }
      if (isKw(toks[k], "PROCEDURE")) {
        const { defineProcedure } = await import("./plsql.ts")
        defineProcedure(this, sql)
        return
      }
      if (isKw(toks[k], "SYNONYM", "PUBLIC", "TYPE", "FUNCTION", "PACKAGE", "TRIGGER", "ROLE", "TABLESPACE", "DATABASE", "DIRECTORY", "MATERIALIZED"))
        throw ora.unimplemented(`CREATE ${toks[k]!.value}`)
      throw ora.invalidSql()
    }
    if (kw === "DROP") {
      const what = toks[1]?.value
      if (what === "TABLE") {
        const q = this.qualified(toks, 2)
        if (this.db.catalog.getTable(q.schema, q.name)?.kind !== "TABLE" && this.db.catalog.getTable(q.schema, q.name) !== undefined) throw ora.tableNotFound(this.db.settings.version, q.schema, q.name)
        await this.runDdl(`DROP TABLE ${duckIdent(q.schema)}.${duckIdent(q.name)}${isKw(toks[q.next], "CASCADE") ? " CASCADE" : ""}`)
        this.db.catalog.dropTable(q.schema, q.name)
        return
      }
      if (what === "VIEW") {
        const q = this.qualified(toks, 2)
        await this.runDdl(`DROP VIEW ${duckIdent(q.schema)}.${duckIdent(q.name)}`)
        this.db.catalog.dropTable(q.schema, q.name)
        return
      }
      if (what === "SEQUENCE") {
        const q = this.qualified(toks, 2)
        await this.runDdl(`DROP SEQUENCE ${duckIdent(q.schema)}.${duckIdent(q.name)}`).catch(() => {
          throw new OraError(2289, "sequence does not exist")
        })
        this.db.catalog.dropObject(q.schema, "SEQUENCE", q.name)
        return
      }
      if (what === "INDEX") {
        const q = this.qualified(toks, 2)
        await this.runDdl(`DROP INDEX ${duckIdent(q.schema)}.${duckIdent(q.name)}`).catch(() => {
          throw new OraError(1418, "specified index does not exist")
        })
        this.db.catalog.dropObject(q.schema, "INDEX", q.name)
        return
      }
      if (what === "USER") {
        const name = oracleName(toks[2]!)
        if (!this.db.catalog.users.has(name)) throw ora.userNotFound(name)
        await this.db.withAdmin(() => this.db.dropUser(name))
        return
      }
      if (what === "PROCEDURE") {
        const q = this.qualified(toks, 2)
        if (!this.db.procedures.delete(`${q.schema}.${q.name}`)) throw new OraError(4043, `object ${q.name} does not exist`)
        this.db.catalog.dropObject(q.schema, "PROCEDURE", q.name)
        return
      }
      throw ora.unimplemented(`DROP ${what ?? ""}`)
    }
    if (kw === "TRUNCATE") {
      const q = this.qualified(toks, 2)
      await this.runDdl(`DELETE FROM ${duckIdent(q.schema)}.${duckIdent(q.name)}`)
      return
    }
    if (kw === "ALTER") {
      if (isKw(toks[1], "SESSION")) return this.alterSession(toks)
      if (isKw(toks[1], "TABLE")) return this.alterTable(toks, t.text)
      if (isKw(toks[1], "USER")) {
        const name = oracleName(toks[2]!)
        const u = this.db.catalog.users.get(name)
        if (u === undefined) throw ora.userNotFound(name)
        if (isKw(toks[3], "IDENTIFIED") && isKw(toks[4], "BY") && toks[5] !== undefined) {
          u.password = toks[5].kind === "qident" ? toks[5].value : toks[5].text
          await this.db.withAdmin(async () => this.db.createUser(name, u.password).catch(() => undefined))
        }
        return
      }
      throw ora.unimplemented(`ALTER ${toks[1]?.value ?? ""}`)
    }
    if (kw === "COMMENT") {
      // COMMENT ON TABLE t IS '...' | COMMENT ON COLUMN t.c IS '...'
      const isAt = toks.findIndex((x) => isKw(x, "IS"))
      const text = toks[isAt + 1]
      if (!isKw(toks[1], "ON") || isAt < 0 || text === undefined || (text.kind !== "str" && !isKw(text, "NULL"))) throw ora.invalidSql()
      const value = text.kind === "str" && text.value.length > 0 ? text.value : null
      const parts = toks.slice(3, isAt).filter((x) => x.kind === "ident" || x.kind === "qident").map(oracleName)
      if (isKw(toks[2], "TABLE") && parts.length >= 1) {
        const meta = this.lookupTable(parts.length > 1 ? parts[0] : undefined, parts[parts.length - 1]!)
        if (meta === undefined) throw ora.tableNotFound(this.db.settings.version, this.schema, parts[parts.length - 1])
        meta.comment = value
        this.db.catalog.putTable(meta)
        return
      }
      if (isKw(toks[2], "COLUMN") && parts.length >= 2) {
        const col = parts[parts.length - 1]!
        const meta = this.lookupTable(parts.length > 2 ? parts[0] : undefined, parts[parts.length - 2]!)
        if (meta === undefined) throw ora.tableNotFound(this.db.settings.version, this.schema, parts[parts.length - 2])
        if (!meta.columns.some((c) => c.name === col)) throw ora.invalidIdentifier(col)
        meta.columnComments = { ...meta.columnComments }
        if (value === null) delete meta.columnComments[col]
        else meta.columnComments[col] = value
        this.db.catalog.putTable(meta)
        return
      }
      return
    }
    if (kw === "GRANT" || kw === "REVOKE" || kw === "ANALYZE" || kw === "AUDIT") return
    if (kw === "RENAME") {
      const from = oracleName(toks[1]!)
      const to = oracleName(toks[3]!)
      await this.renameTable(this.schema, from, to)
      return
    }
    throw ora.invalidSql()
  }

  private async alterSession(toks: ReadonlyArray<Tok>): Promise<void> {
    if (!isKw(toks[2], "SET")) throw new OraError(922, "missing or invalid option")
    const param = toks[3]?.value
    const valueTok = toks[5]
    if (!isOp(toks[4], "=") || valueTok === undefined) throw new OraError(922, "missing or invalid option")
    if (param === "CURRENT_SCHEMA") {
      const name = oracleName(valueTok)
      if (!this.db.catalog.users.has(name)) throw ora.userNotFound(name)
      this.schema = name
      this.info.schema = name
      await this.setVars(this.engine)
      await this.setSearchPath()
      return
    }
    if (param === "TIME_ZONE") {
      const v = valueTok.kind === "str" ? valueTok.value : valueTok.value
      if (v === "LOCAL" || v === "DBTIMEZONE") this.sessionTz = this.db.settings.dbTimeZone
      else if (/^[+-]?\d{1,2}:\d{1,2}$/.test(v)) this.sessionTz = normaliseOffset(v)
      else if (regionOffsetMinutes(v) === undefined) throw new OraError(1882, "timezone region not found")
      else this.sessionTz = v
      await this.setVars(this.engine)
      return
    }
    // NLS_* and other parameters are accepted and ignored
  }

  private columnsOf(elements: ReadonlyArray<ReadonlyArray<Tok>>, text: (a: number, b: number) => string, all: ReadonlyArray<Tok>, owner: string, table: string) {
    const columns: Array<ColumnMeta> = []
    const constraints: Array<ConstraintMeta> = []
    const duckDefs: Array<string> = []
    const sequences: Array<string> = []
    const idx = (tok: Tok) => all.indexOf(tok)
    const consName = (name: string | undefined) => name ?? this.nextConstraintName()
    const colList = (toksIn: ReadonlyArray<Tok>, open: number): Array<string> => {
      const close = matchParen(toksIn, open)
      return splitTopLevel(toksIn.slice(open + 1, close)).map((p) => oracleName(p[0]!))
    }
    for (const el of elements) {
      if (el.length === 0) continue
      let k = 0
      let cname: string | undefined
      if (isKw(el[0], "CONSTRAINT")) {
        cname = oracleName(el[1]!)
        k = 2
      }
      const head = el[k]
      if (isKw(head, "PRIMARY", "UNIQUE", "FOREIGN", "CHECK")) {
        if (isKw(head, "PRIMARY") || isKw(head, "UNIQUE")) {
          const open = isKw(head, "PRIMARY") ? k + 2 : k + 1
          const cols = colList(el, open)
          constraints.push({ name: consName(cname), type: isKw(head, "PRIMARY") ? "P" : "U", columns: cols, searchCondition: null, refOwner: null, refConstraint: null, generated: cname === undefined })
          duckDefs.push(`${isKw(head, "PRIMARY") ? "PRIMARY KEY" : "UNIQUE"} (${cols.map(duckIdent).join(", ")})`)
          if (isKw(head, "PRIMARY")) for (const c of cols) markNotNull(columns, c)
        } else if (isKw(head, "FOREIGN")) {
          const cols = colList(el, k + 2)
          const refAt = el.findIndex((x) => isKw(x, "REFERENCES"))
          const refSchema = isOp(el[refAt + 2], ".") ? oracleName(el[refAt + 1]!) : owner
          const refTable = isOp(el[refAt + 2], ".") ? oracleName(el[refAt + 3]!) : oracleName(el[refAt + 1]!)
          const refOpen = el.findIndex((x, j) => j > refAt && isOp(x, "("))
          const refCols = refOpen > 0 ? colList(el, refOpen) : []
          const refCons = this.db.catalog.getTable(refSchema, refTable)?.constraints.find((c) => c.type === "P" || (c.type === "U" && c.columns.join() === refCols.join()))
          constraints.push({ name: consName(cname), type: "R", columns: cols, searchCondition: null, refOwner: refSchema, refConstraint: refCons?.name ?? null, generated: cname === undefined })
          duckDefs.push(`FOREIGN KEY (${cols.map(duckIdent).join(", ")}) REFERENCES ${duckIdent(refSchema)}.${duckIdent(refTable)}${refCols.length > 0 ? ` (${refCols.map(duckIdent).join(", ")})` : ""}`)
        } else {
          const open = k + 1
          const close = matchParen(el, open)
          const cond = el.slice(open + 1, close).map((x) => x.text).join(" ")
          constraints.push({ name: consName(cname), type: "C", columns: [], searchCondition: cond, refOwner: null, refConstraint: null, generated: cname === undefined })
          // `IS JSON` conditions are recorded but not enforced (DuckDB has no such predicate)
          if (!isJsonCheck(el.slice(open + 1, close))) duckDefs.push(`CHECK (${text(idx(el[open + 1]!), idx(el[close]!))})`)
        }
        continue
      }
      // column definition
      const colTok = el[0]!
      if (colTok.kind !== "ident" && colTok.kind !== "qident") throw ora.invalidIdentifier(colTok.text)
      const name = oracleName(colTok)
      const stop = new Set(["DEFAULT", "NOT", "NULL", "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "GENERATED", "ENABLE", "DISABLE", "COLLATE", "VISIBLE", "INVISIBLE", "AS"])
      let j = 1
      let depth = 0
      while (j < el.length) {
        const x = el[j]!
        if (isOp(x, "(")) depth++
        else if (isOp(x, ")")) depth--
        else if (depth === 0 && x.kind === "ident" && stop.has(x.value)) break
        j++
      }
      const typeText = el
        .slice(1, j)
        .map((x) => x.text)
        .join(" ")
      const type = parseOracleType(typeText)
      // SQL BOOLEAN and JSON columns exist from 23ai / 21c on
      if (type === undefined || (this.db.settings.version === "19c" && (type.kind === "boolean" || type.kind === "json" || type.kind === "vector")))
        throw new OraError(902, "invalid datatype")
      let nullable = true
      let defaultText: string | null = null
      let duckDefault = ""
      const extra: Array<string> = []
      let pendingName: string | undefined
      while (j < el.length) {
        const x = el[j]!
        if (isKw(x, "CONSTRAINT")) {
          pendingName = oracleName(el[j + 1]!)
          j += 2
          continue
        }
        const ccName = pendingName
        pendingName = undefined
        if (isKw(x, "DEFAULT")) {
          let e = j + 1
          if (isKw(el[e], "ON") && isKw(el[e + 1], "NULL")) e += 2
          let d = 0
          let end = e
          while (end < el.length) {
            const y = el[end]!
            if (isOp(y, "(")) d++
            else if (isOp(y, ")")) d--
            else if (d === 0 && y.kind === "ident" && ["NOT", "NULL", "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "ENABLE"].includes(y.value)) break
            end++
          }
          defaultText = el
            .slice(e, end)
            .map((y) => y.text)
            .join(" ")
          duckDefault = ` DEFAULT ${text(idx(el[e]!), idx(el[end - 1]!) + 1)}`
          j = end
          continue
        }
        if (isKw(x, "NOT") && isKw(el[j + 1], "NULL")) {
          nullable = false
          constraints.push({ name: consName(ccName), type: "C", columns: [name], searchCondition: `"${name}" IS NOT NULL`, refOwner: null, refConstraint: null, generated: ccName === undefined })
          extra.push("NOT NULL")
          j += 2
          continue
        }
        if (isKw(x, "NULL")) {
          j++
          continue
        }
        if (isKw(x, "PRIMARY") && isKw(el[j + 1], "KEY")) {
          nullable = false
          constraints.push({ name: consName(ccName), type: "P", columns: [name], searchCondition: null, refOwner: null, refConstraint: null, generated: ccName === undefined })
          extra.push("PRIMARY KEY")
          j += 2
          continue
        }
        if (isKw(x, "UNIQUE")) {
          constraints.push({ name: consName(ccName), type: "U", columns: [name], searchCondition: null, refOwner: null, refConstraint: null, generated: ccName === undefined })
          extra.push("UNIQUE")
          j++
          continue
        }
        if (isKw(x, "CHECK") && isOp(el[j + 1], "(")) {
          const close = matchParen(el, j + 1)
          constraints.push({ name: consName(ccName), type: "C", columns: [name], searchCondition: el.slice(j + 2, close).map((y) => y.text).join(" "), refOwner: null, refConstraint: null, generated: ccName === undefined })
          if (!isJsonCheck(el.slice(j + 2, close))) extra.push(`CHECK (${text(idx(el[j + 2]!), idx(el[close]!))})`)
          j = close + 1
          continue
        }
        if (isKw(x, "REFERENCES")) {
          const refSchema = isOp(el[j + 2], ".") ? oracleName(el[j + 1]!) : owner
          const refTable = isOp(el[j + 2], ".") ? oracleName(el[j + 3]!) : oracleName(el[j + 1]!)
          let e = isOp(el[j + 2], ".") ? j + 4 : j + 2
          let refCols: Array<string> = []
          if (isOp(el[e], "(")) {
            refCols = colList(el, e)
            e = matchParen(el, e) + 1
          }
          const refCons = this.db.catalog.getTable(refSchema, refTable)?.constraints.find((c) => c.type === "P")
          constraints.push({ name: consName(ccName), type: "R", columns: [name], searchCondition: null, refOwner: refSchema, refConstraint: refCons?.name ?? null, generated: ccName === undefined })
          extra.push(`REFERENCES ${duckIdent(refSchema)}.${duckIdent(refTable)}${refCols.length > 0 ? ` (${refCols.map(duckIdent).join(", ")})` : ""}`)
          j = e
          continue
        }
        if (isKw(x, "GENERATED")) {
          // GENERATED [ALWAYS | BY DEFAULT [ON NULL]] AS IDENTITY [(options)]
          let e = j + 1
          while (e < el.length && !isKw(el[e], "IDENTITY")) e++
          e++
          if (isOp(el[e], "(")) e = matchParen(el, e) + 1
          const seq = `ISEQ$$_${this.db.catalog.newObjectId()}`
          sequences.push(seq)
          duckDefault = ` DEFAULT nextval('${encodeName(owner)}.${encodeName(seq)}')`
          defaultText = `"${owner}"."${seq}".nextval`
          nullable = false
          constraints.push({ name: consName(undefined), type: "C", columns: [name], searchCondition: `"${name}" IS NOT NULL`, refOwner: null, refConstraint: null, generated: true })
          extra.push("NOT NULL")
          j = e
          continue
        }
        if (isKw(x, "ENABLE", "DISABLE", "VISIBLE", "INVISIBLE", "VALIDATE", "NOVALIDATE")) {
          j++
          continue
        }
        throw new OraError(907, "missing right parenthesis")
      }
      if (columns.some((c) => c.name === name)) throw new OraError(957, "duplicate column name")
      // Oracle rejects values longer than the declared size with ORA-12899 (DuckDB ignores VARCHAR(n)). Sizes are in
      // bytes unless declared `n CHAR` or national (https://docs.oracle.com/en/error-help/db/ora-12899/).
      // CASE, not OR: DuckDB evaluates both sides of OR, and error() must only run for too-long values.
      if ((type.kind === "varchar" || type.kind === "nvarchar" || type.kind === "raw") && type.charSize > 0) {
        const col = duckIdent(name)
        const len = type.kind === "raw" ? `octet_length(${col})` : type.kind === "nvarchar" || /\bCHAR\s*\)/i.test(typeText) ? `length(${col})` : `strlen(${col})`
        const where = `"${owner}"."${table}"."${name}"`.replace(/'/g, "''")
        extra.push(`CHECK (CASE WHEN ${len} <= ${type.charSize} THEN true ELSE error('ORA-12899: value too large for column ${where} (actual: ' || ${len} || ', maximum: ${type.charSize})') END)`)
      }
      columns.push({ name, type, nullable, defaultText })
      duckDefs.push(`${duckIdent(name)} ${type.duck}${duckDefault}${extra.length > 0 ? " " + extra.join(" ") : ""}`)
    }
    return { columns, constraints, duckDefs, sequences }
  }

  private async createTable(toks: ReadonlyArray<Tok>, at: number, text: (a: number, b: number) => string, sql: string): Promise<void> {
    const q = this.qualified(toks, at)
    if (!this.db.catalog.users.has(q.schema)) throw ora.userNotFound(q.schema)
    if (this.db.catalog.getTable(q.schema, q.name) !== undefined || this.nonTableNameTaken(q.schema, q.name)) throw ora.nameInUse()
    const target = `${duckIdent(q.schema)}.${duckIdent(q.name)}`
    let k = q.next
    if (isKw(toks[k], "AS") || (isOp(toks[k], "(") && isKw(toks[matchParen(toks, k) + 1], "AS"))) {
      // CREATE TABLE t [(names)] AS SELECT ...
      let names: Array<string> | undefined
      if (isOp(toks[k], "(")) {
        const close = matchParen(toks, k)
        names = splitTopLevel(toks.slice(k + 1, close)).map((p) => oracleName(p[0]!))
        k = close + 1
      }
      const selectSql = sql.slice(toks[k + 1]!.pos)
      const result = await this.query(selectSql, [])
      result.cursor.close()
      const { sql: duckSelect } = (() => {
        const tt = makeTranslator(tokenize(selectSql), { bind: () => "NULL", dbTimeZone: this.db.settings.dbTimeZone })
        return translateQuery(tt.toks, tt.tr)
      })()
      const cols: Array<ColumnMeta> = result.columns.map((c, i) => ({ name: names?.[i] ?? c.name, type: c.type, nullable: true, defaultText: null }))
      const defs = cols.map((c) => `${duckIdent(c.name)} ${c.type.duck}`).join(", ")
      await this.runDdl(`CREATE TABLE ${target} (${defs})`)
      try {
        await this.engine.execute(`INSERT INTO ${target} ${duckSelect}`)
      } catch (e) {
        await this.engine.execute(`DROP TABLE ${target}`).catch(() => undefined)
        throw this.mapError(e)
      }
      this.db.catalog.putTable({ owner: q.schema, name: q.name, kind: "TABLE", columns: cols, constraints: [], objectId: this.db.catalog.newObjectId(), created: new Date(), viewText: null })
      return
    }
    if (!isOp(toks[k], "(")) throw new OraError(906, "missing left parenthesis")
    const close = matchParen(toks, k)
    if (close < 0) throw new OraError(907, "missing right parenthesis")
    const elements = splitTopLevel(toks.slice(k + 1, close))
    const { columns, constraints, duckDefs, sequences } = this.columnsOf(elements, text, toks, q.schema, q.name)
    if (columns.length === 0) throw new OraError(904, "invalid identifier")
    for (const s of sequences) await this.runDdl(`CREATE SEQUENCE ${duckIdent(q.schema)}.${duckIdent(s)}`)
    await this.runDdl(`CREATE TABLE ${target} (${duckDefs.join(", ")})`)
    const meta: TableMeta = { owner: q.schema, name: q.name, kind: "TABLE", columns, constraints, objectId: this.db.catalog.newObjectId(), created: new Date(), viewText: null }
    this.db.catalog.putTable(meta)
    for (const c of constraints)
      if (c.type === "P" || c.type === "U")
        this.db.catalog.putObject({
          owner: q.schema,
          name: c.name,
          type: "INDEX",
          objectId: this.db.catalog.newObjectId(),
          created: new Date(),
          tableName: q.name,
          indexColumns: c.columns.map((name) => ({ name, descending: false })),
          unique: true,
          constraintIndex: true
        })
  }

  private async createView(toks: ReadonlyArray<Tok>, at: number, _text: (a: number, b: number) => string, orReplace: boolean, sql: string): Promise<void> {
    const q = this.qualified(toks, at)
    let k = q.next
    let names: Array<string> | undefined
    if (isOp(toks[k], "(")) {
      const close = matchParen(toks, k)
      names = splitTopLevel(toks.slice(k + 1, close)).map((p) => oracleName(p[0]!))
      k = close + 1
    }
    if (!isKw(toks[k], "AS")) throw new OraError(905, "missing keyword")
    const existing = this.db.catalog.getTable(q.schema, q.name)
    if ((existing !== undefined && (!orReplace || existing.kind !== "VIEW")) || this.nonTableNameTaken(q.schema, q.name)) throw ora.nameInUse()
    const selectSql = sql.slice(toks[k + 1]!.pos)
    const result = await this.query(selectSql, [])
    result.cursor.close()
    const tt = makeTranslator(tokenize(selectSql), { bind: () => "NULL", dbTimeZone: this.db.settings.dbTimeZone })
    const { sql: duckSelect } = translateQuery(tt.toks, tt.tr)
    const cols = result.columns.map((c, i) => ({ name: names?.[i] ?? c.name, type: c.type, nullable: c.nullable, defaultText: null }))
    const aliases = names !== undefined ? ` (${names.map(duckIdent).join(", ")})` : ""
    await this.runDdl(`CREATE OR REPLACE VIEW ${duckIdent(q.schema)}.${duckIdent(q.name)}${aliases} AS ${duckSelect}`)
    this.db.catalog.putTable({ owner: q.schema, name: q.name, kind: "VIEW", columns: cols, constraints: [], objectId: existing?.objectId ?? this.db.catalog.newObjectId(), created: new Date(), viewText: selectSql.trim() })
  }

  private async createIndex(toks: ReadonlyArray<Tok>, at: number, _text: (a: number, b: number) => string): Promise<void> {
    const unique = isKw(toks[at - 1], "UNIQUE")
    const q = this.qualified(toks, at + 1)
    if (!isKw(toks[q.next], "ON")) throw new OraError(969, "missing ON keyword")
    const tq = this.qualified(toks, q.next + 1)
    const open = tq.next
    const close = matchParen(toks, open)
    const keys = splitTopLevel(toks.slice(open + 1, close)).map((p) => ({ name: oracleName(p[0]!), descending: isKw(p[1], "DESC") }))
    const cols = keys.map((k) => `${duckIdent(k.name)}${k.descending ? " DESC" : ""}`)
    await this.runDdl(`CREATE ${unique ? "UNIQUE " : ""}INDEX ${duckIdent(q.name)} ON ${duckIdent(tq.schema)}.${duckIdent(tq.name)} (${cols.join(", ")})`)
    this.db.catalog.putObject({ owner: q.schema, name: q.name, type: "INDEX", objectId: this.db.catalog.newObjectId(), created: new Date(), tableName: tq.name, indexColumns: keys, unique })
  }

  /**
   * Tables, views, sequences and procedures share one namespace per schema (indexes and constraints have their own):
   * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Database-Object-Names-and-Qualifiers.html
   */
  private nonTableNameTaken(schema: string, name: string): boolean {
    return this.db.catalog.getObject(schema, "SEQUENCE", name) !== undefined || this.db.catalog.getObject(schema, "PROCEDURE", name) !== undefined
  }

  private async createSequence(toks: ReadonlyArray<Tok>, at: number): Promise<void> {
    const q = this.qualified(toks, at)
    if (this.db.catalog.getTable(q.schema, q.name) !== undefined || this.db.catalog.getObject(q.schema, "PROCEDURE", q.name) !== undefined) throw ora.nameInUse()
    const opts: Array<string> = []
    for (let k = q.next; k < toks.length; k++) {
      const x = toks[k]!
      const num = (j: number) => {
        const neg = isOp(toks[j], "-")
        const n = toks[neg ? j + 1 : j]!
        return { text: (neg ? "-" : "") + n.value, next: neg ? j + 2 : j + 1 }
      }
      if (isKw(x, "START") && isKw(toks[k + 1], "WITH")) {
        const n = num(k + 2)
        opts.push(`START ${n.text}`)
        k = n.next - 1
      } else if (isKw(x, "INCREMENT") && isKw(toks[k + 1], "BY")) {
        const n = num(k + 2)
        opts.push(`INCREMENT BY ${n.text}`)
        k = n.next - 1
      } else if (isKw(x, "MINVALUE", "MAXVALUE")) {
        const n = num(k + 1)
        opts.push(`${x.value} ${n.text}`)
        k = n.next - 1
      } else if (isKw(x, "CYCLE")) opts.push("CYCLE")
      else if (isKw(x, "CACHE")) k++
    }
    await this.runDdl(`CREATE SEQUENCE ${duckIdent(q.schema)}.${duckIdent(q.name)} ${opts.join(" ")}`).catch((e: unknown) => {
      throw e instanceof OraError && e.code === 955 ? e : ora.nameInUse()
    })
    this.db.catalog.putObject({ owner: q.schema, name: q.name, type: "SEQUENCE", objectId: this.db.catalog.newObjectId(), created: new Date() })
  }

  private async renameTable(schema: string, from: string, to: string): Promise<void> {
    const meta = this.db.catalog.getTable(schema, from)
    await this.runDdl(`ALTER TABLE ${duckIdent(schema)}.${duckIdent(from)} RENAME TO ${duckIdent(to)}`)
    if (meta !== undefined) {
      this.db.catalog.dropTable(schema, from)
      this.db.catalog.putTable({ ...meta, name: to })
    }
  }

  private async alterTable(toks: ReadonlyArray<Tok>, text: (a: number, b: number) => string): Promise<void> {
    const q = this.qualified(toks, 2)
    const meta = this.db.catalog.getTable(q.schema, q.name)
    if (meta === undefined) throw ora.tableNotFound(this.db.settings.version, q.schema, q.name)
    const target = `${duckIdent(q.schema)}.${duckIdent(q.name)}`
    let k = q.next
    const action = toks[k]?.value
    if (action === "ADD") {
      k++
      if (isKw(toks[k], "CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK")) throw ora.unimplemented("ALTER TABLE ADD CONSTRAINT")
      let elements: Array<Array<Tok>>
      if (isOp(toks[k], "(")) elements = splitTopLevel(toks.slice(k + 1, matchParen(toks, k)))
      else elements = [toks.slice(k)]
      const { columns, constraints, duckDefs } = this.columnsOf(elements, text, toks, q.schema, q.name)
      // DuckDB's ADD COLUMN takes no CHECK: added columns go without the ORA-12899 length check (it is always last)
      const withoutLengthCheck = (d: string) => {
        const at = d.lastIndexOf(" CHECK (CASE WHEN ")
        return at >= 0 && d.includes("ORA-12899", at) ? d.slice(0, at) : d
      }
      for (const d of duckDefs) await this.runDdl(`ALTER TABLE ${target} ADD COLUMN ${withoutLengthCheck(d).replace(/ PRIMARY KEY| UNIQUE/g, "")}`)
      meta.columns.push(...columns)
      meta.constraints.push(...constraints)
      this.db.catalog.putTable(meta)
      return
    }
    if (action === "DROP") {
      k++
      let names: Array<string>
      if (isKw(toks[k], "COLUMN")) names = [oracleName(toks[k + 1]!)]
      else if (isOp(toks[k], "(")) names = splitTopLevel(toks.slice(k + 1, matchParen(toks, k))).map((p) => oracleName(p[0]!))
      else throw ora.unimplemented("ALTER TABLE DROP")
      for (const n of names) await this.runDdl(`ALTER TABLE ${target} DROP COLUMN ${duckIdent(n)}`)
      meta.columns = meta.columns.filter((c) => !names.includes(c.name))
      this.db.catalog.putTable(meta)
      return
    }
    if (action === "RENAME") {
      if (isKw(toks[k + 1], "COLUMN")) {
        const from = oracleName(toks[k + 2]!)
        const to = oracleName(toks[k + 4]!)
        await this.runDdl(`ALTER TABLE ${target} RENAME COLUMN ${duckIdent(from)} TO ${duckIdent(to)}`)
        meta.columns = meta.columns.map((c) => (c.name === from ? { ...c, name: to } : c))
        this.db.catalog.putTable(meta)
        return
      }
      if (isKw(toks[k + 1], "TO")) return this.renameTable(q.schema, q.name, oracleName(toks[k + 2]!))
    }
    if (action === "MODIFY") {
      k++
      const elements = isOp(toks[k], "(") ? splitTopLevel(toks.slice(k + 1, matchParen(toks, k))) : [toks.slice(k)]
      for (const el of elements) {
        const name = oracleName(el[0]!)
        const col = meta.columns.find((c) => c.name === name)
        if (col === undefined) throw ora.invalidIdentifier(name)
        const rest = el.slice(1).map((x) => x.text).join(" ")
        const nn = /\bNOT\s+NULL\b/i.test(rest)
        const typeText = rest.replace(/\bNOT\s+NULL\b|\bNULL\b/gi, "").trim()
        let type = col.type
        if (typeText.length > 0) {
          type = parseOracleType(typeText) ?? col.type
          if (type.duck !== col.type.duck) await this.runDdl(`ALTER TABLE ${target} ALTER COLUMN ${duckIdent(name)} TYPE ${type.duck}`)
        }
        if (nn) await this.runDdl(`ALTER TABLE ${target} ALTER COLUMN ${duckIdent(name)} SET NOT NULL`)
        meta.columns = meta.columns.map((c) => (c.name === name ? { ...c, type, nullable: nn ? false : c.nullable } : c))
      }
      this.db.catalog.putTable(meta)
      return
    }
    throw ora.unimplemented(`ALTER TABLE ${action ?? ""}`)
  }
}

/**
 * UPDATE/MERGE: Oracle allows `SET alias.col = ...`; DuckDB wants the bare column name, so the qualifier of
 * SET targets is dropped.
 */
const unqualifySetTargets = (all: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "UPDATE", "MERGE")) return all
  const drop = new Set<Tok>()
  let inSet = false
  let depth = 0
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (isKw(t, "SET")) {
      inSet = true
      continue
    }
    if (isKw(t, "WHERE", "WHEN", "RETURNING", "RETURN")) inSet = false
    const prev = sig[k - 1]
    if (inSet && depth === 0 && (isKw(prev, "SET") || isOp(prev, ",")) && (t.kind === "ident" || t.kind === "qident") && isOp(sig[k + 1], ".") && isOp(sig[k + 3], "=")) {
      drop.add(t)
      drop.add(sig[k + 1]!)
    }
  }
  return all.filter((t) => !drop.has(t))
}

/** `col IS [NOT] JSON [...]` check conditions. */
const isJsonCheck = (toks: ReadonlyArray<Tok>): boolean => toks.some((t, k) => isKw(t, "IS") && (isKw(toks[k + 1], "JSON") || (isKw(toks[k + 1], "NOT") && isKw(toks[k + 2], "JSON"))))

const markNotNull = (columns: Array<ColumnMeta>, name: string) => {
  const i = columns.findIndex((c) => c.name === name)
  if (i >= 0) columns[i] = { ...columns[i]!, nullable: false }
}

/** True when a DuckDB result column can carry values of the declared Oracle type. */
const compatible = (t: OraType, c: ColumnInfo): boolean => {
  const id = c.typeId
  switch (t.duck) {
    case "VARCHAR":
    case "JSON":
      return id === DuckDBTypeId.VARCHAR
    case "BLOB":
      return id === DuckDBTypeId.BLOB
    case "DOUBLE":
      return id === DuckDBTypeId.DOUBLE
    case "FLOAT":
      return id === DuckDBTypeId.FLOAT
    case "BOOLEAN":
      return id === DuckDBTypeId.BOOLEAN
    case "TIMESTAMP":
      return id === DuckDBTypeId.TIMESTAMP
    case "TIMESTAMP_NS":
      return id === DuckDBTypeId.TIMESTAMP_NS
    case "TIMESTAMP_S":
      return id === DuckDBTypeId.TIMESTAMP_S
    case "TIMESTAMPTZ":
      return id === DuckDBTypeId.TIMESTAMP_TZ
    case "INTERVAL":
      return id === DuckDBTypeId.INTERVAL
    case "FLOAT[]":
    case "DOUBLE[]":
    case "TINYINT[]":
      return id === DuckDBTypeId.LIST && c.type.toString() === t.duck
    default:
      return t.duck.startsWith("DECIMAL") ? id === DuckDBTypeId.DECIMAL && `DECIMAL(${c.precision},${c.scale})` === t.duck : false
  }
}

/** UTC offset of a region name (e.g. Asia/Kolkata) now, from the IANA data Node ships; undefined if unknown. */
const regionOffsetMinutes = (tz: string): number | undefined => {
  try {
    const name = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "longOffset" }).formatToParts(new Date()).find((p) => p.type === "timeZoneName")?.value
    const m = name?.match(/^GMT(?:([+-])(\d{2}):(\d{2}))?$/)
    if (m === null || m === undefined) return undefined
    const v = m[1] === undefined ? 0 : Number(m[2]) * 60 + Number(m[3])
    return m[1] === "-" ? -v : v
  } catch {
    return undefined
  }
}

const offsetMinutes = (tz: string, fallback: number): number => {
  const m = tz.match(/^([+-])(\d{1,2}):(\d{2})$/)
  if (m === null) return regionOffsetMinutes(tz) ?? fallback
  const v = Number(m[2]) * 60 + Number(m[3])
  return m[1] === "-" ? -v : v
}

const normaliseOffset = (v: string): string => {
  const m = v.match(/^([+-]?)(\d{1,2}):(\d{1,2})$/)!
  return `${m[1] === "-" ? "-" : "+"}${m[2]!.padStart(2, "0")}:${m[3]!.padStart(2, "0")}`
}

/** A bind column as one JSON array parameter and the SQL expression that unnests it with the right type. */
const jsonColumn = (rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, b: number): { json: string; expr: (p: string) => string } => {
  const n = rows.length
  const values: Array<unknown> = new Array(n)
  let kind: "number" | "string" | "boolean" | "timestamp" | "timestamptz" | "blob" | "list" | "other" | "null" = "null"
  let mixed = false
  for (let i = 0; i < n; i++) {
    const v = rows[i]![b] ?? null
    if (v === null) {
      values[i] = null
      continue
    }
    const t = typeof v
    if (t === "number" || t === "string" || t === "boolean") {
      if (kind === "null") kind = t as "number" | "string" | "boolean"
      else if (kind !== t) mixed = true
      values[i] = v
      continue
    }
    if (v instanceof DuckDBTimestampValue) {
      if (kind === "null") kind = "timestamp"
      else if (kind !== "timestamp") mixed = true
      values[i] = Number(v.micros)
    } else if (v instanceof DuckDBTimestampTZValue) {
      if (kind === "null") kind = "timestamptz"
      else if (kind !== "timestamptz") mixed = true
      values[i] = Number(v.micros)
    } else if (v instanceof DuckDBListValue) {
      if (kind === "null") kind = "list"
      else if (kind !== "list") mixed = true
      values[i] = v.items
    } else if (v instanceof DuckDBBlobValue) {
      if (kind === "null") kind = "blob"
      else if (kind !== "blob") mixed = true
      values[i] = Buffer.from(v.bytes).toString("hex")
    } else {
      if (kind === "null") kind = "other"
      else if (kind !== "other") mixed = true
      values[i] = String(v)
    }
  }
  if (mixed) {
    // e.g. NUMBER binds where some values need exact decimal text: send everything as text
    for (let i = 0; i < n; i++) {
      const v = values[i]
      if (v !== null && typeof v !== "string") values[i] = String(rows[i]![b])
    }
    kind = "string"
  }
  const json = JSON.stringify(values)
  const list = (t: string) => (p: string) => `unnest(CAST(CAST(${p} AS JSON) AS ${t}[]))`
  switch (kind) {
    case "number":
      return { json, expr: list("DOUBLE") }
    case "boolean":
      return { json, expr: list("BOOLEAN") }
    case "timestamp":
      return { json, expr: (p) => `make_timestamp(${list("BIGINT")(p)})` }
    case "timestamptz":
      return { json, expr: (p) => `CAST(make_timestamp(${list("BIGINT")(p)}) AS TIMESTAMPTZ)` }
    case "blob":
      return { json, expr: (p) => `unhex(${list("VARCHAR")(p)})` }
    case "list":
      return { json, expr: list("DOUBLE[]") }
    case "other":
      return { json, expr: (p) => `CAST(${list("VARCHAR")(p)} AS INTERVAL)` }
    default:
      return { json, expr: list("VARCHAR") }
  }
}

export { EngineError }
