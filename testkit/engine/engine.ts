/**
 * A dialect-neutral SQL engine over one embedded in-memory DuckDB: one DuckDB instance per test server, one DuckDB
 * connection per client session (so transactions, isolation and TEMP tables are per session, as DuckDB provides).
 */
import { DuckDBDataChunk, DuckDBInstance, ResultReturnType } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResult, DuckDBType, DuckDBValue } from "@duckdb/node-api"
import { SealedRows } from "./bulk.ts"
import type { BulkRows } from "./bulk.ts"
import { chunkColumns, columnInfo } from "./columns.ts"
import { EngineError, toEngineError } from "./errors.ts"
import type { ColumnInfo, ColumnVector } from "./columns.ts"

/** A bind value: DuckDB infers the type (numbers bind as DOUBLE, strings as VARCHAR and cast implicitly). */
export type EngineValue = DuckDBValue

const guard = async <A>(f: () => Promise<A>): Promise<A> => {
  try {
    return await f()
  } catch (e) {
    throw toEngineError(e)
  }
}

/** Rows of a query, read chunk by chunk (≤ 2048 rows per chunk, DuckDB's vector size). */
export interface Cursor {
  readonly columns: readonly ColumnInfo[]
  /** Next chunk of column vectors (views valid until the next call), or null at the end. */
  next(): Promise<Chunk | null>
  /** Releases the result; later `next()` returns null. Idempotent. */
  close(): void
}

/** One chunk of rows, column-wise. */
export interface Chunk {
  readonly rowCount: number
  readonly columns: readonly ColumnVector[]
}

/** Outcome of {@link Session.run}: rows (a cursor), a row count, or nothing (DDL, SET, transaction control). */
export type Outcome =
  | { readonly kind: "rows"; readonly cursor: Cursor }
  | { readonly kind: "changed"; readonly rowsAffected: number }
  | { readonly kind: "nothing" }

/** A statement prepared once and run many times on its session. */
export interface Prepared {
  /** Number of `?`/`$n` parameters. */
  readonly parameterCount: number
  /** DuckDB's inferred type of parameter `i` (0-based), or undefined when DuckDB cannot infer it. */
  parameterType(i: number): DuckDBType | undefined
  /** Result columns (empty for statements that return no rows). */
  readonly columns: readonly ColumnInfo[]
  /** True when running it returns rows. */
  readonly returnsRows: boolean
  run(params: readonly EngineValue[], types?: readonly (DuckDBType | undefined)[]): Promise<Outcome>
  close(): void
}

class ResultCursor implements Cursor {
  private result: DuckDBResult | undefined
  readonly columns: readonly ColumnInfo[]
  constructor(result: DuckDBResult) {
    this.result = result
    const cols: ColumnInfo[] = []
    for (let i = 0; i < result.columnCount; i++) cols.push(columnInfo(result.columnName(i), result.columnType(i)))
    this.columns = cols
  }
  async next(): Promise<Chunk | null> {
    const result = this.result
    if (result === undefined) return null
    const chunk = await guard(() => result.fetchChunk())
    if (chunk === null || chunk.rowCount === 0) {
      this.close()
      return null
    }
    return { rowCount: chunk.rowCount, columns: chunkColumns(chunk, this.columns) }
  }
  close(): void {
    this.result = undefined
  }
}

const outcomeOf = (result: DuckDBResult): Outcome => {
  switch (result.returnType) {
    case ResultReturnType.QUERY_RESULT:
      return { kind: "rows", cursor: new ResultCursor(result) }
    case ResultReturnType.CHANGED_ROWS:
      return { kind: "changed", rowsAffected: Number(result.rowsChanged) }
    default:
      return { kind: "nothing" }
  }
}

const bindArgs = (
  params: readonly EngineValue[] | undefined,
  types: readonly (DuckDBType | undefined)[] | undefined
): [DuckDBValue[]?, DuckDBType[]?] => {
  if (params === undefined || params.length === 0) return []
  if (types === undefined) return [params as DuckDBValue[]]
  return [params as DuckDBValue[], types as DuckDBType[]]
}

/** A table `Session.appendRows` appends to directly: the rows hold all of its columns, in table order. */
export interface AppendTarget {
  /** DuckDB catalog (e.g. `temp` for TEMP tables); default: the session's. */
  readonly database?: string
  readonly schema: string
  readonly table: string
}

/**
 * DuckDB's appender reports a constraint violation as `Failed to append: NOT NULL constraint failed: …`; this
 * gives it the class a statement's violation has (`Constraint Error`).
 */
const appendError = (e: unknown): EngineError => {
  const message = e instanceof Error ? e.message : String(e)
  const inner = message.replace(/^Failed to append: /, "")
  if (inner !== message && /constraint|duplicate key/i.test(inner)) return new EngineError(`Constraint Error: ${inner}`, "Constraint Error", e)
  return toEngineError(e)
}

/** Values a transaction's replay journal may hold before statement-level recovery is given up. */
const JOURNAL_LIMIT = 5_000_000

/** One client session: one DuckDB connection. Calls must not overlap (except {@link Session.interrupt}). */
export class Session {
  private closed = false
  private transaction = false
  private readonly prepared = new Set<DuckDBPreparedStatement>()
  private stageCounter = 0
  /** Successful writes of the open transaction, replayed by {@link recoverStatement}; undefined once too large. */
  private journal: Array<() => Promise<unknown>> | undefined
  private journalWeight = 0
  /** Savepoints of the open transaction: name and the journal length when it was set. */
  private savepoints: Array<{ readonly name: string; readonly mark: number }> = []
  /** Called whenever the open transaction ends (commit, rollback, lost in recovery, close): a server's lock release. */
  onTransactionEnd: (() => void) | undefined
  /** @internal */
  constructor(
    /** Session number, unique within its engine, starting at 1. */
    readonly id: number,
    private readonly connection: DuckDBConnection,
    private readonly onClose: (s: Session) => void
  ) {}

  /** True between {@link begin} and {@link commit}/{@link rollback}. */
  get inTransaction(): boolean {
    return this.transaction
  }

  /** True once {@link close} ran. */
  get isClosed(): boolean {
    return this.closed
  }

  /**
   * Runs SQL (several `;`-separated statements allowed; the last one's outcome is returned). Results are
   * materialized, so a cursor stays readable while the session runs other statements.
   */
  async run(sql: string, params?: readonly EngineValue[], types?: readonly (DuckDBType | undefined)[]): Promise<Outcome> {
    const outcome = await this.rawRun(sql, params, types)
    if (outcome.kind !== "rows") this.record(() => this.rawRun(sql, params, types), params?.length ?? 0)
    return outcome
  }

  private rawRun(sql: string, params?: readonly EngineValue[], types?: readonly (DuckDBType | undefined)[]): Promise<Outcome> {
    return guard(async () => outcomeOf(await this.connection.run(sql, ...bindArgs(params, types))))
  }

  /**
   * Runs SQL that changes session state outside any transaction (DuckDB variables), not journaled: a statement-level
   * rollback's replay neither undoes nor repeats it.
   */
  runUnrecorded(sql: string, params?: readonly EngineValue[], types?: readonly (DuckDBType | undefined)[]): Promise<Outcome> {
    return this.rawRun(sql, params, types)
  }

  /** Remembers a successful write of the open transaction for {@link recoverStatement}. */
  private record(replay: () => Promise<unknown>, weight: number): void {
    if (!this.transaction || this.journal === undefined) return
    this.journalWeight += weight + 1
    if (this.journalWeight > JOURNAL_LIMIT) this.journal = undefined
    else this.journal.push(replay)
  }

  /**
   * Read-committed emulation: while the open transaction has written nothing, starts it anew so the next
   * statement sees what other sessions committed meanwhile (DuckDB otherwise keeps the snapshot taken at BEGIN).
   * After the first write the snapshot stays (snapshot isolation).
   */
  async refreshSnapshot(): Promise<void> {
    if (!this.transaction || this.journal === undefined || this.journal.length > 0) return
    await this.rawRun("COMMIT")
    await this.rawRun("BEGIN TRANSACTION")
  }

  /**
   * Call after a statement failed inside a transaction. DuckDB keeps the transaction after parser, catalog and
   * binder errors but aborts it after execution errors (constraint violations, conversions); then this rolls
   * back, starts a new transaction and replays the transaction's earlier successful writes, so only the failed
   * statement is undone (statement-level rollback, as HANA and Oracle do). Resolves to false when the transaction
   * could not be restored (too large to replay, or a replay failed): it has then been rolled back and ended.
   */
  async recoverStatement(): Promise<boolean> {
    if (!this.transaction) return true
    const aborted = await this.rawRun("SELECT 1").then(
      () => false,
      () => true
    )
    if (!aborted) return true
    const journal = this.journal
    await this.rawRun("ROLLBACK").catch(() => undefined)
    if (journal !== undefined) {
      try {
        await this.rawRun("BEGIN TRANSACTION")
        for (const replay of journal) await replay()
        return true
      } catch {
        await this.rawRun("ROLLBACK").catch(() => undefined)
      }
    }
    this.transaction = false
    this.journal = undefined
    this.savepoints = []
    this.onTransactionEnd?.()
    return false
  }

  /**
   * Sets a savepoint in the open transaction (a name set again moves to the newest position). DuckDB has no
   * savepoints, so rolling back to one replays the transaction's journal up to it.
   */
  savepoint(name: string): void {
    if (!this.transaction) throw new EngineError(`savepoint ${name}: no transaction is open`, "Transaction Error")
    if (this.journal === undefined) {
      throw new EngineError(`savepoint ${name}: the transaction is too large to keep savepoints`, "Transaction Error")
    }
    this.savepoints = this.savepoints.filter((s) => s.name !== name)
    this.savepoints.push({ name, mark: this.journal.length })
  }

  /** Undoes every write since savepoint `name`; the savepoint stays, later ones are released. */
  async rollbackToSavepoint(name: string): Promise<void> {
    const index = this.savepoints.findIndex((s) => s.name === name)
    const journal = this.journal
    if (!this.transaction || index < 0 || journal === undefined) {
      throw new EngineError(`savepoint ${name} does not exist`, "Transaction Error")
    }
    const mark = this.savepoints[index]!.mark
    const kept = journal.slice(0, mark)
    await this.rawRun("ROLLBACK").catch(() => undefined)
    try {
      await this.rawRun("BEGIN TRANSACTION")
      for (const replay of kept) await replay()
    } catch (e) {
      await this.rawRun("ROLLBACK").catch(() => undefined)
      this.transaction = false
      this.journal = undefined
      this.savepoints = []
      throw new EngineError(`rollback to savepoint ${name} failed; the transaction was rolled back`, "Transaction Error", e)
    }
    this.journal = kept
    this.savepoints = this.savepoints.slice(0, index + 1)
  }

  /** Forgets savepoint `name` (and the ones set after it). */
  releaseSavepoint(name: string): void {
    const index = this.savepoints.findIndex((s) => s.name === name)
    if (index < 0) throw new EngineError(`savepoint ${name} does not exist`, "Transaction Error")
    this.savepoints = this.savepoints.slice(0, index)
  }

  /** Runs a statement that returns no rows; resolves to the rows affected (0 for DDL). */
  async execute(sql: string, params?: readonly EngineValue[], types?: readonly (DuckDBType | undefined)[]): Promise<number> {
    const outcome = await this.run(sql, params, types)
    if (outcome.kind === "rows") outcome.cursor.close()
    return outcome.kind === "changed" ? outcome.rowsAffected : 0
  }

  /** Runs a query; fails with {@link EngineError} when the statement returns no rows. */
  async query(sql: string, params?: readonly EngineValue[], types?: readonly (DuckDBType | undefined)[]): Promise<Cursor> {
    const outcome = await this.run(sql, params, types)
    if (outcome.kind !== "rows") throw new EngineError("statement returns no rows", "Invalid Input Error")
    return outcome.cursor
  }

  /** Reads a whole query into arrays of generic values (slow path; for small catalog queries). */
  async queryAll(sql: string, params?: readonly EngineValue[]): Promise<Array<Array<ReturnType<ColumnVector["value"]>>>> {
    const cursor = await this.query(sql, params)
    const rows: Array<Array<ReturnType<ColumnVector["value"]>>> = []
    for (let chunk = await cursor.next(); chunk !== null; chunk = await cursor.next()) {
      for (let r = 0; r < chunk.rowCount; r++) rows.push(chunk.columns.map((c) => c.value(r)))
    }
    return rows
  }

  /**
   * Inserts many rows fast: the columns are appended (DuckDB appender, 2048-row chunks) to a private TEMP staging
   * table whose column types are `columns[i].type`, then `${insertPrefix} SELECT * FROM <staging>` runs (so DuckDB
   * casts to the target's column types) and the staging table is dropped. `insertPrefix` is e.g.
   * `INSERT INTO "S"."T" ("A", "B")`. Resolves to the rows inserted. All rows or none.
   */
  async bulkInsert(
    insertPrefix: string,
    columns: ReadonlyArray<{ readonly type: DuckDBType; readonly values: readonly EngineValue[] }>
  ): Promise<number> {
    const inserted = await this.rawBulkInsert(insertPrefix, columns)
    this.record(() => this.rawBulkInsert(insertPrefix, columns), columns.length * (columns[0]?.values.length ?? 0))
    return inserted
  }

  private async rawBulkInsert(
    insertPrefix: string,
    columns: ReadonlyArray<{ readonly type: DuckDBType; readonly values: readonly EngineValue[] }>
  ): Promise<number> {
    const rows = columns[0]?.values.length ?? 0
    const stage = `__engine_stage_${this.id}_${this.stageCounter++}`
    const defs = columns.map((c, i) => `c${i} ${c.type.toString()}`).join(", ")
    await this.rawRun(`CREATE TEMP TABLE "${stage}" (${defs})`)
    try {
      await guard(async () => {
        const appender = await this.connection.createAppender(stage, "main", "temp")
        try {
          const types = columns.map((c) => c.type)
          for (let start = 0; start < rows; start += 2048) {
            const n = Math.min(2048, rows - start)
            const chunk = DuckDBDataChunk.create(types, n)
            for (let c = 0; c < columns.length; c++) {
              chunk.setColumnValues(c, columns[c]!.values.slice(start, start + n) as DuckDBValue[])
            }
            appender.appendDataChunk(chunk)
          }
          appender.flushSync()
        } catch (e) {
          // as in appendChunks: no buffered rows left for a later close or finalizer to flush
          appender.clear()
          throw e
        } finally {
          appender.closeSync()
        }
      })
      const outcome = await this.rawRun(`${insertPrefix} SELECT * FROM temp.main."${stage}"`)
      return outcome.kind === "changed" ? outcome.rowsAffected : 0
    } finally {
      await this.rawRun(`DROP TABLE IF EXISTS temp.main."${stage}"`).catch(() => undefined)
    }
  }

  /**
   * Inserts `rows` fast, all rows or none, and resolves to the rows inserted. NOT NULL columns are checked first
   * and fail with {@link BulkInsertError} naming the row.
   * - `table` as an {@link AppendTarget} (`rows.columns` are all of the table's columns, in table order): the
   *   2048-row chunks go through DuckDB's appender straight into the table (which checks its constraints).
   * - `table` as a quoted, possibly schema-qualified name (`rows.columns` any subset; defaults fill the rest): the
   *   chunks are appended to a private TEMP staging table typed like the targets, then one
   *   `INSERT INTO table (columns) SELECT` moves them (no casts; the table's constraints are checked too).
   * {@link BulkRows} are sealed into DuckDB chunks first ({@link BulkRows.seal}), and the transaction's journal keeps
   * those: once this resolves the caller may reset and refill `rows`. {@link SealedRows} are appended as they are.
   */
  async appendRows(table: string | AppendTarget, rows: BulkRows | SealedRows): Promise<number> {
    const sealed = rows instanceof SealedRows ? rows : rows.seal()
    if (sealed.violation !== undefined) throw sealed.violation
    const inserted = await this.rawAppendRows(table, sealed)
    this.record(() => this.rawAppendRows(table, sealed), sealed.rowCount * sealed.columns.length)
    return inserted
  }

  private async rawAppendRows(table: string | AppendTarget, rows: SealedRows): Promise<number> {
    if (typeof table !== "string") {
      await this.appendChunks(table.table, table.schema, table.database, rows)
      return rows.rowCount
    }
    const stage = `__engine_stage_${this.id}_${this.stageCounter++}`
    const defs = rows.columns.map((c, i) => `c${i} ${c.type.toString()}`).join(", ")
    await this.rawRun(`CREATE TEMP TABLE "${stage}" (${defs})`)
    try {
      await this.appendChunks(stage, "main", "temp", rows)
      const names = rows.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(", ")
      const outcome = await this.rawRun(`INSERT INTO ${table} (${names}) SELECT * FROM temp.main."${stage}"`)
      return outcome.kind === "changed" ? outcome.rowsAffected : 0
    } finally {
      await this.rawRun(`DROP TABLE IF EXISTS temp.main."${stage}"`).catch(() => undefined)
    }
  }

  /** Appends every chunk of `rows` with one DuckDB appender and one flush (so a failure appends nothing). */
  private async appendChunks(table: string, schema: string, database: string | undefined, rows: SealedRows): Promise<void> {
    const appender = await guard(() => this.connection.createAppender(table, schema, database ?? null))
    try {
      for (const chunk of rows.chunks) appender.appendDataChunk(chunk)
      appender.flushSync()
    } catch (e) {
      // a failed flush keeps its rows buffered, and closing the appender (or its finalizer at some later garbage
      // collection) flushes them again into whatever transaction the connection then has open, aborting it
      appender.clear()
      throw appendError(e)
    } finally {
      try {
        appender.closeSync()
      } catch {
        // closing on an aborted transaction can fail as well: the first error counts
      }
    }
  }

  /** Tables a query reads, as DuckDB resolves its text (quoted, schema-qualified where written so). */
  tableNames(sql: string): string[] {
    return [...this.connection.getTableNames(sql, true)]
  }

  /** Prepares one statement. */
  async prepare(sql: string): Promise<Prepared> {
    const stmt = await guard(() => this.connection.prepare(sql))
    this.prepared.add(stmt)
    const columns: ColumnInfo[] = []
    for (let i = 0; i < stmt.columnCount; i++) columns.push(columnInfo(stmt.columnName(i), stmt.columnType(i)))
    const prepared = this.prepared
    let open = true
    return {
      parameterCount: stmt.parameterCount,
      parameterType: (i) => {
        try {
          return stmt.parameterType(i + 1)
        } catch {
          return undefined
        }
      },
      columns,
      returnsRows: columns.length > 0 && stmt.statementType !== 2 && stmt.statementType !== 3 && stmt.statementType !== 5,
      run: async (params, types) => {
        const outcome = await guard(async () => {
          if (!open) throw new EngineError("prepared statement is closed", "Invalid Input Error")
          stmt.clearBindings()
          if (params.length > 0) stmt.bind(params as DuckDBValue[], types as DuckDBType[] | undefined)
          return outcomeOf(await stmt.run())
        })
        if (outcome.kind !== "rows") this.record(() => this.rawRun(sql, params, types), params.length)
        return outcome
      },
      close: () => {
        if (!open) return
        open = false
        prepared.delete(stmt)
        stmt.destroySync()
      }
    }
  }

  /** Starts an explicit transaction. */
  async begin(): Promise<void> {
    await this.rawRun("BEGIN TRANSACTION")
    this.transaction = true
    this.journal = []
    this.journalWeight = 0
    this.savepoints = []
  }

  /** Commits the explicit transaction, if any. */
  async commit(): Promise<void> {
    if (!this.transaction) return
    this.transaction = false
    this.journal = undefined
    this.savepoints = []
    try {
      await this.rawRun("COMMIT")
    } finally {
      this.onTransactionEnd?.()
    }
  }

  /** Rolls back the explicit transaction, if any. */
  async rollback(): Promise<void> {
    if (!this.transaction) return
    this.transaction = false
    this.journal = undefined
    this.savepoints = []
    try {
      await this.rawRun("ROLLBACK")
    } finally {
      this.onTransactionEnd?.()
    }
  }

  /** Interrupts the statement currently running on this session (it fails with an `INTERRUPT Error`). */
  interrupt(): void {
    if (!this.closed) this.connection.interrupt()
  }

  /** Rolls back any open transaction and closes the connection (TEMP tables vanish). Idempotent. */
  close(): void {
    if (this.closed) return
    this.closed = true
    for (const stmt of this.prepared) stmt.destroySync()
    this.prepared.clear()
    this.connection.closeSync()
    this.onTransactionEnd?.()
    this.onClose(this)
  }
}

/** Options of {@link Engine.open}. */
export interface EngineOptions {
  /** DuckDB worker threads (default 2). */
  readonly threads?: number
}

/** One in-memory DuckDB database shared by all sessions of a test server. */
export class Engine {
  private nextId = 1
  private readonly sessions = new Set<Session>()
  private closed = false
  private readonly functionConnections: Array<DuckDBConnection> = []
  private constructor(private readonly instance: DuckDBInstance) {}

  /** Opens a fresh in-memory database. */
  static async open(options: EngineOptions = {}): Promise<Engine> {
    const instance = await guard(() => DuckDBInstance.create(":memory:", { threads: String(options.threads ?? 2) }))
    return new Engine(instance)
  }

  /** Opens a new session (its own DuckDB connection, autocommit until {@link Session.begin}). */
  async session(): Promise<Session> {
    if (this.closed) throw new EngineError("engine is closed", "Connection Error")
    const connection = await guard(() => this.instance.connect())
    const session = new Session(this.nextId++, connection, (s) => this.sessions.delete(s))
    this.sessions.add(session)
    return session
  }

  /**
   * Registers scalar functions for every session: DuckDB keeps them in the database's system catalog. The connection
   * they are registered on stays open (it holds the JavaScript callbacks) until {@link close}.
   */
  async registerFunctions(register: (connection: DuckDBConnection) => void): Promise<void> {
    const connection = await guard(() => this.instance.connect())
    this.functionConnections.push(connection)
    register(connection)
  }

  /** Sessions currently open. */
  get openSessions(): number {
    return this.sessions.size
  }

  /** Closes every session, then the database. Idempotent. */
  close(): void {
    if (this.closed) return
    this.closed = true
    for (const s of [...this.sessions]) s.close()
    for (const c of this.functionConnections) c.closeSync()
    this.instance.closeSync()
  }
}
