/**
 * The SQL session of one HANA connection (after login): prepared statements, open result sets and LOBs, HANA's
 * transaction semantics over the engine session, and the SQL request kinds (EXECUTE_DIRECT, PREPARE, EXECUTE,
 * FETCH_NEXT, LOB reads and writes, COMMIT/ROLLBACK, session commands). The connection (session.ts) hands it every
 * request once the client is logged in.
 */
import * as crypto from "node:crypto"
import { BulkInsertError, columnInfo } from "../engine/index.ts"
import type { BulkRows, Outcome, Prepared, Session } from "../engine/index.ts"
import { batchError, batchTarget, decodeBatch } from "./bulk-insert.ts"
import { cesu8Text } from "./cesu8-check.ts"
import { cesu8, encodeParameterMetadata, fromCesu8 } from "./encode.ts"
import { fromEngineError, HanaError } from "./errors.ts"
import { decodeParameters, lobValue } from "./params.ts"
import type { ParameterRow, PendingLob } from "./params.ts"
import { describeColumns, OpenResult, resultSetMetadata } from "./results.ts"
import type { EncodedRows, ResultColumn } from "./results.ts"
import { timed } from "../common/stats.ts"
import type { ServerContext } from "./server-context.ts"
import { parameterNames } from "./lexer.ts"
import { translate } from "./translate.ts"
import type { Translated } from "./translated.ts"
import { encodeName, quoteString } from "./names.ts"
import { duckType, parameterWireType, parseTypeText, typeOfDuck, typeOfDuckName } from "./types.ts"
import { declaredColumnTypes, declaredTypes } from "./catalog.ts"
import { parameterColumns } from "./parameter-columns.ts"
import { prepareTyped, withoutPlaceholders } from "./untyped-parameters.ts"
import { bindTypes, copyDeclaredTypes, copyViewTypes, stagedColumns, textForTestOnlyTypes, truncateToDeclared } from "./binding.ts"
import { enforceDeclaredLengths } from "./declared-lengths.ts"
import { exactLiteralWrites } from "./literal-writes.ts"
import { errorPart, failedAtRow, failedRows, i32s, ok, u64 } from "./replies.ts"
import type { Reply } from "./replies.ts"
import type { HanaType } from "./types.ts"
import {
  encodeOptions,
  FunctionCode,
  MalformedPacket,
  MessageType,
  OptionType,
  PartKind,
  requestPart,
  SegmentKind
} from "./wire.ts"
import type { ReplyPart, Request, RequestPart } from "./wire.ts"
import type { PendingExecution, StatementState } from "./statement.ts"
import { procedureStatement } from "./procedures/definition.ts"
import { procedureStore } from "./procedures/registry.ts"
import { prepareProcedure, procedureReply } from "./procedures/requests.ts"
import type { ProcedureHost } from "./procedures/requests.ts"
import type { ProcedureStatement } from "./procedures/definition.ts"
import type { Cursor } from "../engine/index.ts"
import { SessionRowLocks } from "./row-locks.ts"


/** Runs a translated DDL statement and the catalog upkeep it needs (declared types, declared lengths). */
/** The savepoint under which a failed batch's rows are inserted one at a time to find the rejected one. */
const REJECTED_ROW_PROBE = "__HANA_TEST_SERVER_REJECTED_ROW"
/** True when a reply reports a failure (its statement wrote nothing). */
const failedReply = (reply: Reply | undefined): boolean => reply === undefined || reply.kind === SegmentKind.ERROR

/** The savepoint a batch INSERT taking key locks row by row is undone to when one of its rows fails. */
const KEYED_BATCH = "__HANA_TEST_SERVER_KEYED_BATCH"

const runDdlStatement = async (session: Session, t: Extract<Translated, { kind: "ddl" }>): Promise<void> => {
  await session.run(t.sql)
  if (t.copyTypes !== undefined) await copyDeclaredTypes(session, t.copyTypes.from, t.copyTypes.to)
  if (t.view !== undefined) await copyViewTypes(session, t.view.target, t.view.query)
  if (t.declaredLengths !== undefined) await enforceDeclaredLengths(session, t.declaredLengths.table, t.declaredLengths.columns)
}

/** Tables DuckDB SQL reads or writes, as DuckDB resolves them, plus an UPDATE/DELETE target (which it does not name). */
const tablesNamed = (session: Session, sql: string): string[] => {
  let tables: string[] = []
  try {
    // DuckDB names an aliased table `T AS a`: the declared types are looked up by the table's name
    tables = session.tableNames(withoutPlaceholders(sql)).map((t) => t.replace(/ AS (?:"(?:[^"]|"")*"|[^\s."]+)$/, ""))
  } catch {
    // fall through to the target table below
  }
  const target = /^\s*(?:UPDATE|DELETE\s+FROM)\s+((?:"(?:[^"]|"")*"|\w+)(?:\.(?:"(?:[^"]|"")*"|\w+))?)/i.exec(sql)?.[1]
  return target === undefined ? tables : [...tables, target]
}

/** Sends half of a reply and closes the connection (the dropMidResult fault). */
export type SendPartial = (request: Request, reply: Reply) => Promise<void>

/** The SQL session of one logged-in connection. */
export class SqlSession {
  private schema = ""
  private nextId = 1n
  private readonly statements = new Map<bigint, StatementState>()
  private readonly results = new Map<bigint, OpenResult>()
  private readonly lobs = new Map<string, { value: string | Buffer; kind: string }>()
  private pending: PendingExecution | undefined
  /** HANA commits DDL immediately (together with the open transaction) unless `SET TRANSACTION AUTOCOMMIT DDL OFF`. */
  private ddlAutocommit = true
  /** Session context (CLIENT_INFO key/values, e.g. APPLICATION) for SESSION_CONTEXT. */
  private readonly context = new Map<string, string>()
  /** The rows this session's transaction locks, and its waits for other transactions' locks. */
  private readonly rowLocks: SessionRowLocks

  constructor(
    /** The engine session the SQL runs on. */
    readonly session: Session,
    private readonly ctx: ServerContext,
    private readonly connectionId: number,
    private readonly user: string,
    /** Data format version agreed at CONNECT. */
    private readonly dfv: number,
    private readonly sendPartial: SendPartial
  ) {
    this.rowLocks = new SessionRowLocks(ctx.rowLocks, session, connectionId, ctx.stats, ctx.options.lockWaitMs)
  }

  /** The current schema (for error texts). */
  get currentSchema(): string {
    return this.schema
  }

  /** Result sets this session holds open (server cursors not yet read to the end or closed by the client). */
  openResultSets(): number {
    return this.results.size
  }

  /** Closes the open result sets and forgets statements and LOBs (the engine session is closed by the connection). */
  release(): void {
    this.rowLocks.cancel()
    for (const r of this.results.values()) r.close()
    this.results.clear()
    this.statements.clear()
    this.lobs.clear()
  }

  /** Handles one SQL request; undefined when its reply was already sent. */
  async handle(request: Request): Promise<Reply | undefined> {
    const session = this.session
    const clientInfo = requestPart(request, PartKind.CLIENT_INFO)
    if (clientInfo !== undefined) this.updateContext(clientInfo)
    switch (request.messageType) {
      case MessageType.EXECUTE_DIRECT: {
        const command = requestPart(request, PartKind.COMMAND)
        if (command === undefined) throw new MalformedPacket("COMMAND part missing")
        const sql = cesu8Text(command.data, "the statement text")
        return this.executeDirect(session, sql, request.commit, request)
      }
      case MessageType.PREPARE: {
        const command = requestPart(request, PartKind.COMMAND)
        if (command === undefined) throw new MalformedPacket("COMMAND part missing")
        return this.prepare(session, cesu8Text(command.data, "the statement text"))
      }
      case MessageType.EXECUTE:
        return this.execute(session, request)
      case MessageType.FETCH_NEXT:
        return this.fetchNext(request)
      case MessageType.CLOSE_RESULT_SET: {
        const idPart = requestPart(request, PartKind.RESULT_SET_ID)
        if (idPart !== undefined && idPart.data.length >= 8) {
          const id = idPart.data.readBigUInt64LE(0)
          this.results.get(id)?.close()
          this.results.delete(id)
        }
        return ok(FunctionCode.NIL)
      }
      case MessageType.DROP_STATEMENT_ID: {
        const idPart = requestPart(request, PartKind.STATEMENT_ID)
        if (idPart !== undefined && idPart.data.length >= 8) {
          const id = idPart.data.readBigUInt64LE(0)
          const st = this.statements.get(id)
          st?.prepared?.close()
          st?.batches.forEach((p) => p.close())
          this.statements.delete(id)
        }
        return ok(FunctionCode.NIL)
      }
      case MessageType.COMMIT:
        await session.commit()
        return ok(FunctionCode.COMMIT, [this.transactionFlags(1)])
      case MessageType.ROLLBACK:
        await session.rollback()
        return ok(FunctionCode.ROLLBACK, [this.transactionFlags(0)])
      case MessageType.READ_LOB:
        return this.readLob(request)
      case MessageType.WRITE_LOB:
        return this.writeLob(session, request)
      case MessageType.CLIENT_PING:
        return ok(FunctionCode.NIL)
      default:
        throw HanaError.unsupported(`message type ${request.messageType}`)
    }
  }

  private transactionFlags(flag: number): ReplyPart {
    return { kind: PartKind.TRANSACTION_FLAGS, argc: 1, data: encodeOptions([{ name: flag, type: OptionType.BOOLEAN, value: true }]) }
  }

  /** Sets the current schema (SET SCHEMA, and the user's default schema at login). */
  async applySchema(session: Session, schema: string): Promise<void> {
    const exists = await session.queryAll(`SELECT 1 FROM duckdb_schemas() WHERE database_name = current_database() AND schema_name = ?`, [
      encodeName(schema)
    ])
    if (exists.length === 0) throw HanaError.invalidSchema(schema)
    await session.execute(`SET schema = ${quoteString(encodeName(schema))}; SET VARIABLE hana_schema = ${quoteString(schema)}`)
    this.schema = schema
  }


  private sessionValues() {
    return { schema: this.schema, user: this.user, connectionId: this.connectionId, context: this.context }
  }

  /** Applies a CLIENT_INFO part: a text list of key, value pairs (length 255 = NULL value = remove). */
  private updateContext(part: RequestPart): void {
    const b = part.data
    let o = 0
    const texts: Array<string | null> = []
    while (o < b.length) {
      let len = b[o]!
      o += 1
      if (len === 255) {
        texts.push(null)
        continue
      }
      if (len === 246) {
        len = b.readUInt16LE(o)
        o += 2
      }
      if (o + len > b.length) throw new MalformedPacket("CLIENT_INFO truncated")
      texts.push(fromCesu8(b.subarray(o, o + len)))
      o += len
    }
    for (let i = 0; i + 1 < texts.length; i += 2) {
      const key = texts[i]
      const value = texts[i + 1]
      if (key === null || key === undefined) continue
      if (value === null || value === undefined || value === "") this.context.delete(key.toUpperCase())
      else this.context.set(key.toUpperCase(), value)
    }
  }

  /**
   * Runs engine work with HANA's transaction semantics: `commit` is the request's autocommit flag; `batch` runs
   * several engine calls as one unit even in autocommit mode.
   */
  private async inTransaction<A>(session: Session, commit: boolean, work: () => Promise<A>, batch = false): Promise<A> {
    const startedHere = (!commit || batch) && !session.inTransaction
    if (startedHere) await session.begin()
    // HANA's default isolation is READ COMMITTED: each statement sees the latest commits.
    else await session.refreshSnapshot()
    try {
      const out = await work()
      if (commit && session.inTransaction) await session.commit()
      return out
    } catch (e) {
      if (startedHere && commit) await session.rollback().catch(() => undefined)
      else if (session.inTransaction) {
        // HANA undoes only the failed statement; the engine restores the transaction (or reports it lost).
        const kept = await session.recoverStatement().catch(() => false)
        if (!kept && !commit) await session.begin().catch(() => undefined)
      }
      throw e
    }
  }

  /**
   * DDL as HANA runs it by default: the open transaction is committed, the DDL commits on its own, and without
   * autocommit a new transaction follows. With `SET TRANSACTION AUTOCOMMIT DDL OFF` the DDL joins the transaction.
   */
  private async runDdl(session: Session, commit: boolean, work: () => Promise<void>): Promise<void> {
    if (!this.ddlAutocommit) return this.inTransaction(session, commit, work)
    if (session.inTransaction) await session.commit()
    await this.inTransaction(session, true, work)
    if (!commit) await session.begin()
  }

  private async executeDirect(session: Session, sql: string, commit: boolean, request: Request): Promise<Reply | undefined> {
    const procedure = procedureStatement(sql, this.schema)
    if (procedure !== undefined) return procedureReply(this.procedureHost(session), procedure, commit, [])
    const t = translate(await exactLiteralWrites(session, sql), this.sessionValues())
    if (t.kind !== "query" && t.kind !== "dml" && t.kind !== "ddl") return this.sessionCommand(session, t, commit)
    if (t.params > 0) throw HanaError.syntax("parameters are only allowed in prepared statements", 0)
    if (t.kind === "ddl") {
      await this.runDdl(session, commit, () => runDdlStatement(session, t))
      return ok(FunctionCode.DDL)
    }
    const lockKeys = t.kind === "dml" ? t.lockKeys : undefined
    const outcome = await this.inTransaction(session, commit, () =>
      this.rowLocks.runInsert(lockKeys, [], () => this.rowLocks.run(t.lockRows, [], () => session.run(t.sql)))
    )
    return this.outcomeReply(session, t, outcome, undefined, request)
  }

  private async savepointAction(action: () => Promise<void>): Promise<void> {
    try {
      await action()
    } catch (e) {
      throw HanaError.general(e instanceof Error ? e.message : String(e))
    }
  }

  private requireAdmin(what: string): void {
    if (this.user !== "SYSTEM") throw HanaError.privilege(what)
  }

  private async sessionCommand(session: Session, t: Translated, commit: boolean): Promise<Reply> {
    switch (t.kind) {
      case "savepoint":
        // In autocommit mode there is no transaction to mark, as on HANA the savepoint has no effect.
        if (t.action === "set") await this.inTransaction(session, commit, async () => session.savepoint(t.name))
        else if (t.action === "rollback") await this.savepointAction(() => session.rollbackToSavepoint(t.name))
        else await this.savepointAction(async () => session.releaseSavepoint(t.name))
        return ok(FunctionCode.DDL)
      case "commit":
        await session.commit()
        return ok(FunctionCode.DDL)
      case "rollback":
        await session.rollback()
        return ok(FunctionCode.DDL)
      case "setSchema":
        await this.applySchema(session, t.schema)
        return ok(FunctionCode.DDL)
      case "ddlAutocommit":
        this.ddlAutocommit = t.on
        return ok(FunctionCode.DDL)
      case "lockWaitTimeout":
        this.rowLocks.lockWaitMs = t.ms
        return ok(FunctionCode.DDL)
      case "cancelSession": {
        this.requireAdmin("ALTER SYSTEM requires SYSTEM")
        const target = this.ctx.connections.get(t.connectionId)
        if (target === undefined) throw new HanaError(2, "HY000", `general error: session ${t.connectionId} does not exist`)
        if (t.disconnect) void target.close()
        else {
          this.ctx.stats.cancels++
          target.cancel()
        }
        return ok(FunctionCode.DDL)
      }
      case "createUser": {
        this.requireAdmin("CREATE USER requires SYSTEM")
        if (this.ctx.users.has(t.user)) throw new HanaError(331, "HY000", `user name already exists: ${t.user}`)
        await this.ctx.addUser({ name: t.user, password: t.password })
        return ok(FunctionCode.DDL)
      }
      case "identity":
        this.requireAdmin("security administration requires SYSTEM")
        // Security statements are DDL: they commit the open transaction. The store itself is never rolled back.
        if (session.inTransaction) await session.commit()
        await this.ctx.administer(t.command)
        return ok(FunctionCode.DDL)
      case "dropUser":
        this.requireAdmin("DROP USER requires SYSTEM")
        await this.ctx.dropUser(t.user)
        return ok(FunctionCode.DDL)
      default:
        return ok(FunctionCode.DDL)
    }
  }

  private async outcomeReply(
    session: Session,
    t: Translated,
    outcome: Outcome,
    statement: StatementState | undefined,
    request: Request
  ): Promise<Reply | undefined> {
    if (outcome.kind === "rows") {
      const columns =
        statement?.columns ??
        (await describeColumns(session, outcome.cursor.columns, this.tablesOf(session, t), this.dfv, t.kind === "query" ? t.columnNames : undefined, t.kind === "query" ? t.columnSources : undefined, t.kind === "query" ? t.fromItems : undefined))
      const parts = await this.resultSetParts(outcome.cursor, columns)
      if (this.ctx.faults.dropMidResult) {
        await this.sendPartial(request, ok(FunctionCode.SELECT, parts))
        return undefined
      }
      return ok(FunctionCode.SELECT, parts)
    }
    if (t.kind === "dml") {
      const n = outcome.kind === "changed" ? outcome.rowsAffected : 0
      return ok(t.functionCode, [{ kind: PartKind.ROWS_AFFECTED, argc: 1, data: i32s([n]) }])
    }
    return ok(FunctionCode.DDL)
  }

  /** A result set's RESULT_SET_METADATA, RESULT_SET_ID and first RESULT_SET; kept open while rows remain. */
  private async resultSetParts(cursor: Cursor, columns: readonly ResultColumn[]): Promise<ReplyPart[]> {
    const id = this.nextId++
    const result = new OpenResult(id, cursor, columns, (value, kind) => this.registerLob(value, kind))
    const first = await this.fetchRows(result, this.ctx.options.firstFetchSize)
    if (!first.last) this.results.set(id, result)
    else result.close()
    return [
      { kind: PartKind.RESULT_SET_METADATA, argc: columns.length, data: resultSetMetadata(columns) },
      { kind: PartKind.RESULT_SET_ID, argc: 1, data: u64(id) },
      { kind: PartKind.RESULT_SET, attributes: first.last ? (first.rows === 0 ? 25 : 17) : 0, argc: first.rows, data: first.data }
    ]
  }

  /** What a procedure statement (procedures/requests.ts) needs from this session. */
  private procedureHost(session: Session): ProcedureHost {
    return {
      call: { session, values: this.sessionValues(), dfv: this.dfv },
      store: procedureStore(this.ctx.engine),
      runDdl: (commit, work) => this.runDdl(session, commit, work),
      inTransaction: (commit, work) => this.inTransaction(session, commit, work, true),
      resultSetParts: (r) => this.resultSetParts(r.cursor, r.columns),
      firstRow: async (r) => {
        const result = new OpenResult(0n, r.cursor, r.columns, (value, kind) => this.registerLob(value, kind))
        const row = await result.fetch(1)
        result.close()
        return row.data
      }
    }
  }

  private tablesOf(session: Session, t: Translated): string[] {
    return t.kind === "query" ? tablesNamed(session, t.sql) : []
  }

  private registerLob(value: string | Buffer, kind: string): Buffer {
    const id = crypto.randomBytes(8)
    this.lobs.set(id.toString("hex"), { value, kind })
    return id
  }

  private async prepare(session: Session, sql: string): Promise<Reply> {
    const procedure = procedureStatement(sql, this.schema)
    if (procedure !== undefined) {
      const id = this.nextId++
      const { reply, inputTypes } = prepareProcedure(this.procedureHost(session), procedure, id)
      this.statements.set(id, { id, batches: new Map(), translated: { kind: "noop" }, prepared: undefined, parameterTypes: inputTypes, columns: undefined, tables: [], procedure })
      return reply
    }
    const t = translate(await exactLiteralWrites(session, sql), this.sessionValues())
    let prepared: Prepared | undefined
    let columns: ResultColumn[] | undefined
    let parameterTypes: HanaType[] = []
    let tables: string[] = []
    if (t.kind === "query" || t.kind === "dml") {
      prepared = await prepareTyped(session, t.sql)
      if (t.kind === "query") {
        tables = this.tablesOf(session, t)
        columns = await describeColumns(session, prepared.columns, tables, this.dfv, t.columnNames, t.columnSources, t.fromItems)
      }
      parameterTypes = await this.parameterTypes(session, sql, t, prepared)
    }
    const names = parameterNames(sql)
    const id = this.nextId++
    this.statements.set(id, { id, batches: new Map(), translated: t, prepared, parameterTypes, columns, tables })
    const fc = t.kind === "query" ? FunctionCode.SELECT : t.kind === "dml" ? t.functionCode : FunctionCode.DDL
    const parts: ReplyPart[] = [
      { kind: PartKind.STATEMENT_ID, argc: 1, data: u64(id) },
      {
        kind: PartKind.PARAMETER_METADATA,
        argc: parameterTypes.length,
        data: encodeParameterMetadata(
          parameterTypes.map((p, i) => ({ nullable: true, wire: parameterWireType(p, this.dfv), name: names.length === parameterTypes.length ? names[i] : undefined }))
        )
      }
    ]
    if (columns !== undefined) parts.push({ kind: PartKind.RESULT_SET_METADATA, argc: columns.length, data: resultSetMetadata(columns) })
    return ok(fc, parts)
  }

  private async parameterTypes(session: Session, sql: string, t: Translated, prepared: Prepared): Promise<HanaType[]> {
    const count = prepared.parameterCount
    const out: HanaType[] = []
    let declared: HanaType[] | undefined
    if (t.kind === "dml" && t.insert !== undefined) {
      const columnTypes = await declaredColumnTypes(session, t.insert.schema, t.insert.table)
      const typeOf = (text: string): HanaType => parseTypeText(text) ?? typeOfDuckName(text)
      const byName = new Map([...columnTypes.byName].map(([name, text]) => [name, typeOf(text)]))
      const ordered = columnTypes.ordered.map(typeOf)
      declared = t.insert.columns === undefined ? ordered : t.insert.columns.map((c) => byName.get(encodeName(c)) ?? typeOfDuckName("VARCHAR"))
    }
    const columns = parameterColumns(sql)
    let tableColumns: Map<string, { type: string }> | undefined
    for (let i = 0; i < count; i++) {
      const d = declared?.[i]
      if (d !== undefined) {
        out.push(d)
        continue
      }
      const inferred = prepared.parameterType(i)
      if (inferred === undefined) {
        out.push({ name: "NVARCHAR", length: 5000, scale: 0 })
        continue
      }
      const column = columns.length === count ? columns[i] : undefined
      if (column !== undefined) {
        tableColumns ??= await declaredTypes(session, this.tablesRead(session, t))
        const text = tableColumns.get(encodeName(column))?.type
        const parsed = text === undefined ? undefined : parseTypeText(text)
        // Only when the column's storage is what DuckDB inferred: then the declared type describes the value exactly.
        if (parsed !== undefined && duckType(parsed).replace(/\s/g, "") === inferred.toString().replace(/\s/g, "")) {
          out.push(parsed)
          continue
        }
      }
      out.push(typeOfDuck(columnInfo("", inferred)))
    }
    return out
  }

  /** Tables a query or DML statement reads or writes (empty when DuckDB cannot tell). */
  private tablesRead(session: Session, t: Translated): string[] {
    return t.kind === "query" || t.kind === "dml" ? tablesNamed(session, t.sql) : []
  }

  private async execute(session: Session, request: Request): Promise<Reply | undefined> {
    const rows = requestPart(request, PartKind.PARAMETERS)?.argc ?? 0
    if (rows <= 1) return this.executeStatement(session, request)
    this.ctx.stats.insertCalls++
    this.ctx.stats.insertRows += rows
    return timed(this.ctx.stats, "insert", () => this.executeStatement(session, request))
  }

  private async executeStatement(session: Session, request: Request): Promise<Reply | undefined> {
    const idPart = requestPart(request, PartKind.STATEMENT_ID)
    if (idPart === undefined || idPart.data.length < 8) throw new MalformedPacket("STATEMENT_ID part missing")
    const statement = this.statements.get(idPart.data.readBigUInt64LE(0))
    if (statement === undefined) throw HanaError.invalidStatement()
    if (statement.procedure !== undefined) return this.executeProcedure(session, statement, statement.procedure, request)
    const t = statement.translated
    if (t.kind !== "query" && t.kind !== "dml" && t.kind !== "ddl") return this.sessionCommand(session, t, request.commit)
    if (t.kind === "ddl") {
      await this.runDdl(session, request.commit, () => runDdlStatement(session, t))
      return ok(FunctionCode.DDL)
    }
    const paramsPart = requestPart(request, PartKind.PARAMETERS)
    const count = statement.parameterTypes.length
    // an INSERT into a keyed table inside a transaction (or while another transaction holds keys of it) locks its keys
    const keys = t.kind === "dml" && t.lockKeys !== undefined && (await this.rowLocks.insertTakesKeys(t.lockKeys, request.commit)) ? t.lockKeys : undefined
    const decode = () =>
      count === 0 || paramsPart === undefined
        ? [{ values: [], pendingLobs: [] } as ParameterRow]
        : decodeParameters(paramsPart.data, paramsPart.argc, count, statement.parameterTypes.map((p) => Math.max(p.scale, 0)))
    const batchKeys = keys !== undefined && t.kind === "dml" && t.insert !== undefined && paramsPart !== undefined && paramsPart.argc > 1 ? keys : undefined
    if (t.kind === "dml" && t.insert !== undefined && paramsPart !== undefined && paramsPart.argc > 1 && count > 0) {
      const insert = t.insert
      const append = () => this.appendBatch(session, statement, insert, paramsPart, request.commit)
      const reply = batchKeys === undefined ? await append() : await this.rowLocks.runInsertBatch(batchKeys, decode().map((r) => r.values), append, failedReply)
      if (reply !== undefined) return reply
    }
    const rows = decode()
    textForTestOnlyTypes(rows, statement.parameterTypes)
    truncateToDeclared(rows, statement.parameterTypes)
    const prepared = statement.prepared!
    if (t.kind === "query") {
      const row = rows[0]!
      const outcome = await this.inTransaction(session, request.commit, () =>
        this.rowLocks.run(t.lockRows, row.values, () => prepared.run(row.values, bindTypes(row.values)))
      )
      return this.outcomeReply(session, t, outcome, statement, request)
    }
    if (t.insert !== undefined && rows.length > 1 && count > 0 && rows.every((r) => r.pendingLobs.length === 0)) {
      const prefix = t.insert.prefix
      const insert = () => this.batchInsert(session, statement, prefix, rows, request.commit)
      return batchKeys === undefined ? insert() : this.rowLocks.runInsertBatch(batchKeys, rows.map((r) => r.values), insert, failedReply)
    }
    // DML: one engine execution per parameter row; hdb reads one ROWS_AFFECTED entry per row.
    const affected: number[] = []
    let pendingRow: ParameterRow | undefined
    // a batch INSERT taking key locks fails as a whole, as the batch paths do
    const wholeBatch = keys !== undefined && rows.length > 1
    try {
      await this.inTransaction(session, request.commit && !rows.some((r) => r.pendingLobs.length > 0), async () => {
        if (wholeBatch) session.savepoint(KEYED_BATCH)
        for (const row of rows) {
          if (row.pendingLobs.length > 0) {
            pendingRow = row
            break
          }
          const outcome = await this.rowLocks.runInsert(t.lockKeys, row.values, () =>
            this.rowLocks.run(t.lockRows, row.values, () => prepared.run(row.values, bindTypes(row.values)))
          )
          affected.push(outcome.kind === "changed" ? outcome.rowsAffected : 0)
        }
        if (wholeBatch) session.releaseSavepoint(KEYED_BATCH)
      }, rows.length > 1)
    } catch (e) {
      const err = fromEngineError(e, this.schema)
      if (wholeBatch && session.inTransaction) {
        await session.rollbackToSavepoint(KEYED_BATCH).catch(() => undefined)
        session.releaseSavepoint(KEYED_BATCH)
        return failedRows(err, t.functionCode, rows.length)
      }
      // In autocommit mode the batch ran as one unit and was rolled back; in a transaction the rows before the
      // failing one stay (statement-level rollback).
      if (request.commit || affected.length === 0) return failedRows(err, t.functionCode, rows.length)
      return {
        kind: SegmentKind.ERROR,
        functionCode: t.functionCode,
        parts: [errorPart(err), { kind: PartKind.ROWS_AFFECTED, argc: rows.length, data: i32s([...affected, ...rows.slice(affected.length).map(() => -3)]) }]
      }
    }
    const parts: ReplyPart[] = []
    if (pendingRow !== undefined) {
      const locators = new Map<string, PendingLob>()
      const ids: Buffer[] = []
      for (const lob of pendingRow.pendingLobs) {
        const locator = crypto.randomBytes(8)
        locators.set(locator.toString("hex"), lob)
        ids.push(locator)
      }
      this.pending = { statement, row: pendingRow, locators }
      parts.push({ kind: PartKind.WRITE_LOB_REPLY, argc: ids.length, data: Buffer.concat(ids) })
      parts.push({ kind: PartKind.ROWS_AFFECTED, argc: Math.max(affected.length, 1), data: i32s(affected.length > 0 ? affected : [-1]) })
    } else {
      parts.push({ kind: PartKind.ROWS_AFFECTED, argc: affected.length, data: i32s(affected) })
    }
    return ok(t.functionCode, parts)
  }

  /** EXECUTE of a prepared procedure statement, with its one row of IN/INOUT values. */
  private async executeProcedure(session: Session, statement: StatementState, procedure: ProcedureStatement, request: Request): Promise<Reply> {
    const params = requestPart(request, PartKind.PARAMETERS)
    const types = statement.parameterTypes
    const rows = types.length === 0 || params === undefined ? [] : decodeParameters(params.data, params.argc, types.length, types.map((p) => Math.max(p.scale, 0)))
    if (rows.length > 1) throw HanaError.unsupported("batch execution of CALL")
    if (rows.some((r) => r.pendingLobs.length > 0)) throw HanaError.unsupported("streamed LOB arguments of CALL")
    textForTestOnlyTypes(rows, types)
    return procedureReply(this.procedureHost(session), procedure, request.commit, rows[0]?.values ?? [])
  }

  /** Encodes up to `max` rows of `result`, counted in the server's stats. */
  private async fetchRows(result: OpenResult, max: number): Promise<EncodedRows> {
    const rows = await timed(this.ctx.stats, "encode", () => result.fetch(max))
    this.ctx.stats.encodedRows += rows.rows
    return rows
  }

  /**
   * A batch of `INSERT … VALUES (?, …)` rows decoded straight into the target columns' storage and appended in one
   * engine call (all rows or none; on error every row reports -3, EXECUTION_FAILED); undefined when some value
   * needs the general path.
   */
  private async appendBatch(
    session: Session,
    statement: StatementState,
    insert: NonNullable<Extract<Translated, { kind: "dml" }>["insert"]>,
    params: RequestPart,
    commit: boolean
  ): Promise<Reply | undefined> {
    if (statement.batchTarget === undefined) {
      statement.batchTarget = (await batchTarget(session, insert, this.schema, statement.prepared!)) ?? null
    }
    const target = statement.batchTarget
    if (target === null) return undefined
    let rows: BulkRows | undefined
    try {
      rows = decodeBatch(params.data, params.argc, target)
      if (rows === undefined) return undefined
      const bulk = rows
      await this.inTransaction(session, commit, () => session.appendRows(target.table, bulk), true)
    } catch (e) {
      if (e instanceof BulkInsertError) return failedAtRow(batchError(e), FunctionCode.INSERT, params.argc, e.row)
      const err = fromEngineError(e, this.schema)
      const rejected = err.code === 301 ? await this.rejectedRow(session, statement, params).catch(() => undefined) : undefined
      if (rejected !== undefined) return failedAtRow(rejected.error, FunctionCode.INSERT, params.argc, rejected.row)
      return failedRows(err, FunctionCode.INSERT, params.argc)
    }
    return ok(FunctionCode.INSERT, [{ kind: PartKind.ROWS_AFFECTED, argc: params.argc, data: i32s(Array.from({ length: params.argc }, () => 1)) }])
  }

  /**
   * The first row of a batch that a unique constraint rejects, and its error: the rows are inserted one at a time
   * after a savepoint that is rolled back afterwards (undefined when no row fails on its own). HANA names that row:
   * its reply marks it EXECUTION_FAILED (-3) in ROWS_AFFECTED, and a client pairs the n-th error of the ERROR part
   * with the n-th such row (SAP/go-hdb driver/internal/protocol/protocol.go, "link statement to error").
   */
  private async rejectedRow(session: Session, statement: StatementState, params: RequestPart): Promise<{ row: number; error: HanaError } | undefined> {
    const types = statement.parameterTypes
    const rows = decodeParameters(params.data, params.argc, types.length, types.map((p) => Math.max(p.scale, 0)))
    if (statement.prepared === undefined || rows.some((r) => r.pendingLobs.length > 0)) return undefined
    textForTestOnlyTypes(rows, types)
    const startedHere = !session.inTransaction
    if (startedHere) await session.begin()
    session.savepoint(REJECTED_ROW_PROBE)
    try {
      for (let row = 0; row < rows.length; row++) {
        const values = rows[row]!.values
        try {
          await statement.prepared.run(values, bindTypes(values))
        } catch (e) {
          return { row, error: fromEngineError(e, this.schema) }
        }
      }
      return undefined
    } finally {
      if (startedHere) await session.rollback()
      else {
        await session.rollbackToSavepoint(REJECTED_ROW_PROBE)
        session.releaseSavepoint(REJECTED_ROW_PROBE)
      }
    }
  }

  /**
   * A batch of `INSERT … VALUES (?, …)` rows as multi-row INSERTs (one engine call per up to ~2000 values), in one
   * transaction: all rows or none (on error every row reports -3, EXECUTION_FAILED).
   */
  private async batchInsert(session: Session, statement: StatementState, prefix: string, rows: readonly ParameterRow[], commit: boolean): Promise<Reply> {
    const count = statement.parameterTypes.length
    const staged = stagedColumns(rows, count)
    if (staged !== undefined) {
      try {
        await this.inTransaction(session, commit, () => session.bulkInsert(prefix, staged), true)
      } catch (e) {
        const err = fromEngineError(e, this.schema)
        return failedRows(err, FunctionCode.INSERT, rows.length)
      }
      return ok(FunctionCode.INSERT, [{ kind: PartKind.ROWS_AFFECTED, argc: rows.length, data: i32s(rows.map(() => 1)) }])
    }
    const perStatement = Math.max(1, Math.floor(2048 / count))
    const rowSql = `(${Array.from({ length: count }, () => "?").join(", ")})`
    try {
      await this.inTransaction(session, commit, async () => {
        for (let start = 0; start < rows.length; start += perStatement) {
          const slice = rows.slice(start, start + perStatement)
          let prepared = statement.batches.get(slice.length)
          if (prepared === undefined) {
            prepared = await session.prepare(`${prefix} VALUES ${Array.from({ length: slice.length }, () => rowSql).join(", ")}`)
            statement.batches.set(slice.length, prepared)
          }
          const values = slice.flatMap((r) => r.values)
          await prepared.run(values, bindTypes(values))
        }
      }, true)
    } catch (e) {
      const err = fromEngineError(e, this.schema)
      return failedRows(err, FunctionCode.INSERT, rows.length)
    }
    return ok(FunctionCode.INSERT, [{ kind: PartKind.ROWS_AFFECTED, argc: rows.length, data: i32s(rows.map(() => 1)) }])
  }

  private async writeLob(session: Session, request: Request): Promise<Reply> {
    const p = requestPart(request, PartKind.WRITE_LOB_REQUEST)
    if (p === undefined) throw new MalformedPacket("WRITE_LOB_REQUEST part missing")
    const pending = this.pending
    if (pending === undefined) throw new HanaError(2, "HY000", "general error: no LOB is being written")
    let o = 0
    const b = p.data
    for (let i = 0; i < p.argc; i++) {
      if (o + 21 > b.length) throw new MalformedPacket("WRITE_LOB_REQUEST truncated")
      const locator = b.subarray(o, o + 8).toString("hex")
      const options = b[o + 8]!
      const len = b.readInt32LE(o + 17)
      const data = b.subarray(o + 21, o + 21 + len)
      o += 21 + len
      const lob = pending.locators.get(locator)
      if (lob === undefined) throw new HanaError(603, "HY000", "invalid LOB: unknown locator")
      lob.chunks.push(Buffer.from(data))
      if (options & 4) lob.done = true
    }
    if (![...pending.locators.values()].every((l) => l.done)) return ok(FunctionCode.NIL, [{ kind: PartKind.WRITE_LOB_REPLY, argc: 0, data: Buffer.alloc(0) }])
    this.pending = undefined
    const values = [...pending.row.values]
    for (const lob of pending.locators.values()) values[lob.index] = lobValue(lob)
    const t = pending.statement.translated
    const outcome = await this.inTransaction(session, false, () => pending.statement.prepared!.run(values, bindTypes(values)))
    const n = outcome.kind === "changed" ? outcome.rowsAffected : 0
    return ok(t.kind === "dml" ? t.functionCode : FunctionCode.NIL, [
      { kind: PartKind.WRITE_LOB_REPLY, argc: 0, data: Buffer.alloc(0) },
      { kind: PartKind.ROWS_AFFECTED, argc: 1, data: i32s([n]) }
    ])
  }

  private async fetchNext(request: Request): Promise<Reply | undefined> {
    const idPart = requestPart(request, PartKind.RESULT_SET_ID)
    const sizePart = requestPart(request, PartKind.FETCH_SIZE)
    if (idPart === undefined || idPart.data.length < 8) throw new MalformedPacket("RESULT_SET_ID part missing")
    const id = idPart.data.readBigUInt64LE(0)
    const result = this.results.get(id)
    if (result === undefined) throw HanaError.invalidResultSet()
    const size = sizePart !== undefined && sizePart.data.length >= 4 ? Math.max(1, sizePart.data.readInt32LE(0)) : 1024
    const rows = await this.fetchRows(result, size)
    if (rows.last) {
      result.close()
      this.results.delete(id)
    }
    const reply = ok(FunctionCode.FETCH, [
      { kind: PartKind.RESULT_SET, attributes: rows.last ? (rows.rows === 0 ? 25 : 17) : 0, argc: rows.rows, data: rows.data }
    ])
    if (this.ctx.faults.dropMidResult) {
      await this.sendPartial(request, reply)
      return undefined
    }
    return reply
  }

  private readLob(request: Request): Reply {
    const p = requestPart(request, PartKind.READ_LOB_REQUEST)
    if (p === undefined || p.data.length < 20) throw new MalformedPacket("READ_LOB_REQUEST part missing")
    const locator = p.data.subarray(0, 8)
    const offset = Number(p.data.readBigInt64LE(8))
    const length = p.data.readInt32LE(16)
    const lob = this.lobs.get(locator.toString("hex"))
    if (lob === undefined) throw new HanaError(603, "HY000", "invalid LOB: unknown locator")
    let chunk: Buffer
    let last: boolean
    if (typeof lob.value === "string") {
      const start = Math.max(0, offset - 1)
      const end = Math.min(lob.value.length, start + length)
      chunk = cesu8(lob.value.slice(start, end))
      last = end >= lob.value.length
    } else {
      const start = Math.max(0, offset - 1)
      const end = Math.min(lob.value.length, start + length)
      chunk = lob.value.subarray(start, end)
      last = end >= lob.value.length
    }
    const head = Buffer.alloc(16)
    locator.copy(head, 0)
    head[8] = 2 | (last ? 4 : 0)
    head.writeInt32LE(chunk.length, 9)
    return ok(FunctionCode.NIL, [{ kind: PartKind.READ_LOB_REPLY, argc: 1, data: Buffer.concat([head, chunk]) }])
  }
}
