/**
 * The SAP HANA driver on the pure-JavaScript `hdb` client: the driver port of src/Driver.ts.
 *
 * - Connect: URI, basic / X.509 / JWT authentication and TLS resolved and checked before any I/O
 *   (ConnectConfig.ts); data format version 8 is requested so timestamps carry 100 ns (LONGDATE) and BOOLEAN is a
 *   real type; `defaultSchema` is applied with SET SCHEMA; the URI `timeout` bounds the whole connect;
 *   `pingInterval` pings the server every that many seconds while the session is idle.
 * - Queries: SQL is normalized (SqlNormalize.ts), results are read page by page (`dba.statement.fetch_size` rows per
 *   FETCH_NEXT) and decoded from the raw bytes into Arrow builders (ResultPage.ts); LOBs are read completely.
 * - Parameters: Arrow batches converted by Params.ts; DML batches are split below hdb's 32,767-row limit; a query
 *   with several parameter rows runs once per row and its results are concatenated.
 * - Catalog (Catalog.ts), ingest DDL (Ddl.ts), type mappings (Types.ts), errors (Errors.ts).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Duration, Effect, type Exit, Fiber, Result, Schedule, type Scope } from "effect"
import { type AdbcError, invalidArgument, notFound, notImplemented } from "../../src/AdbcError.ts"
import type { Page } from "../../src/arrow/index.ts"
import { InfoCode, InfoValue } from "../../src/catalog/index.ts"
import type {
  BoundParameters,
  DriverConnection,
  DriverCursor,
  DriverResult,
  DriverShape,
  ExecuteRequest,
  IngestTarget
} from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { type CancelToken, makeCancellation } from "../common/Cancellation.ts"
import { CATALOG, catalogRows } from "./Catalog.ts"
import { hdbClientOptions, resolveConnectConfig } from "./ConnectConfig.ts"
import * as Ddl from "./Ddl.ts"
import { fromHdbError } from "./Errors.ts"
import * as Hdb from "./Hdb.ts"
import { FetchSize, HanaOptions, ReadBatchRows } from "./HanaOptions.ts"
import { type EncodePlan, type PartEncoder, planEncoding, temporalRefusal } from "./IngestEncoder.ts"
import { nameOversizedParameter, oversizedRow, rowConverter } from "./Params.ts"
import { hanaPage, scanLobs } from "./ResultPage.ts"
import { normalizeSql } from "./SqlNormalize.ts"
import {
  arrowColumns,
  columnTypeFor,
  fromResultMetadata,
  type HdbResultColumn,
  isCompatible,
  type MappedColumn
} from "./Types.ts"

/** Seconds a connect may take when the URI sets no `timeout`. @category constants @since 0.1.0 */
export const DEFAULT_CONNECT_TIMEOUT_S = 30

/**
 * The milliseconds a connect may take: the URI's `timeout` (seconds) when it has one, else
 * {@link DEFAULT_CONNECT_TIMEOUT_S}; undefined (no limit) for `timeout=0`.
 *
 * @category config
 * @since 0.2.0
 */
export const connectTimeoutMs = (uriTimeoutSeconds: number | undefined): number | undefined => {
  const seconds = uriTimeoutSeconds ?? DEFAULT_CONNECT_TIMEOUT_S
  return seconds > 0 ? seconds * 1000 : undefined
}

/** The driver version. @category constants @since 0.1.0 */
export const VERSION = "0.1.0"

const FUNCTION_INSERT = 2
const FUNCTION_SELECT = 5
const FUNCTION_SELECT_FOR_UPDATE = 6
/**
 * DB_PROCEDURE_CALL and …_WITH_RESULT_SET. A real HANA prepares a CALL as 8 even when the procedure returns result
 * sets (SAP/node-hdb test/mock/data/prepare.js), and hdb refuses to batch either (lib/protocol/ExecuteTask.js: only
 * DDL and DML): a CALL runs once per parameter row.
 */
const FUNCTION_PROCEDURE = 8
const FUNCTION_PROCEDURE_WITH_RESULTS = 9
const IO_INPUT = 1
const IO_IN_OUT = 2

const mapColumns = (metadata: ReadonlyArray<HdbResultColumn>) =>
  Effect.fromResult(arrowColumns(fromResultMetadata(metadata)))

/**
 * The error of a read from a result that Connection.cancel cancelled between two reads: HANA's code of a cancelled
 * operation (139), as a cancel during a fetch gives it (nothing is rolled back here: no statement was running).
 */
const cancelledRead = () =>
  fromHdbError({ code: 139, sqlState: "HY008", message: "current operation cancelled by request (Connection.cancel)" })

/** Source of results for a cursor: the first one is open, more may follow (one per parameter row). */
type NextOutcome = Effect.Effect<Hdb.ExecuteOutcome | undefined, AdbcError>

/**
 * A cursor over one or more open result sets (all of the same shape), read in pages of `fetchSize` rows.
 */
const makeCursor = (
  client: Hdb.HdbClient,
  first: Extract<Hdb.ExecuteOutcome, { _tag: "Rows" }>,
  columns: ReadonlyArray<MappedColumn>,
  fetchSize: number,
  more: NextOutcome,
  onClose: Effect.Effect<void>,
  track: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>,
  cancel: CancelToken
): DriverCursor => {
  const schema = new Arrow.Schema(columns.map((c) => c.field))
  const hasLobs = columns.some((c) => c.kind === "blob" || c.kind === "clob")
  let current: Extract<Hdb.ExecuteOutcome, { _tag: "Rows" }> | undefined = first
  let pending: Hdb.RawPage | undefined = first.first
  let lastSeen = false
  let serverClosed = false
  let closed = false
  /**
   * The next page's FETCH_NEXT, sent when a page is handed out so that the server encodes page n+1 while the reader
   * decodes page n (hdb's queue keeps it before any later request of the session). Not with LOB columns, whose pages
   * send READ_LOB calls of their own.
   */
  let ahead: Fiber.Fiber<Exit.Exit<Hdb.RawPage, AdbcError>> | undefined

  const closeCurrent = Effect.suspend(() => {
    const rs = current
    current = undefined
    if (rs === undefined || serverClosed) return Effect.void
    return Hdb.closeResultSet(client, rs.id)
  })

  const pageOf = (raw: Hdb.RawPage): Effect.Effect<Page, AdbcError> =>
    Effect.gen(function*() {
      const buffer = raw.buffer ?? Buffer.alloc(0)
      if (!hasLobs) return hanaPage(buffer, raw.argumentCount, columns)
      const incomplete = scanLobs(buffer, raw.argumentCount, columns)
      const contents: Array<Buffer> = []
      for (const cell of incomplete) contents.push(yield* Hdb.readLob(client, cell))
      return hanaPage(buffer, raw.argumentCount, columns, contents)
    })

  /** A cancelled read: the result set is closed on the server, then error 139. */
  const failCancelled = Effect.andThen(closeCurrent, Effect.failSync(cancelledRead))

  const nextPage: Effect.Effect<Page | undefined, AdbcError> = Effect.gen(function*() {
    while (!closed) {
      if (current === undefined) return undefined
      if (cancel.cancelled()) return yield* failCancelled
      let raw: Hdb.RawPage | undefined = pending
      pending = undefined
      if (raw === undefined) {
        if (lastSeen) {
          yield* closeCurrent
          const next = yield* more
          if (next === undefined || next._tag !== "Rows") return undefined
          current = next
          pending = next.first
          lastSeen = false
          serverClosed = false
          continue
        }
        const sent = ahead
        ahead = undefined
        raw = yield* track(sent === undefined ? Hdb.fetchNext(client, current.id, fetchSize) : Effect.flatten(Fiber.join(sent)))
        // a cancel during a fetch the server answered before the cancel reached it
        if (cancel.cancelled()) return yield* failCancelled
      }
      if (raw.attributes & 1) lastSeen = true
      if (raw.attributes & 16) serverClosed = true
      if (raw.argumentCount > 0) {
        if (!hasLobs && !lastSeen) ahead = Effect.runFork(Effect.exit(Hdb.fetchNext(client, current.id, fetchSize)))
        return yield* pageOf(raw)
      }
    }
    return undefined
  })

  return {
    schema,
    nextPage,
    close: Effect.suspend(() => {
      if (closed) return Effect.void
      closed = true
      cancel.close()
      return closeCurrent.pipe(Effect.ensuring(onClose))
    })
  }
}

/** A bound batch the ingest encoder takes, with its first row's place among all bound rows. */
interface EncodedBatch {
  readonly batch: Arrow.RecordBatch
  readonly encode: PartEncoder
  readonly firstRow: number
}

/** Every bound batch planned for the encoder, or undefined when one of them is not (then hdb's writer binds them). */
const encodedBatches = (
  batches: ReadonlyArray<Arrow.RecordBatch>,
  parameters: ReadonlyArray<Hdb.HdbParameter>
): ReadonlyArray<EncodedBatch> | undefined => {
  const planned: Array<EncodedBatch> = []
  let firstRow = 0
  for (const batch of batches) {
    const plan = planEncoding(batch, parameters, firstRow)
    if (plan._tag !== "Encoded") return undefined
    planned.push({ batch, encode: plan.encode, firstRow })
    firstRow += batch.numRows
  }
  return planned
}

const makeConnection = (client: Hdb.HdbClient, hdbOptions: Record<string, unknown>): DriverConnection => {
  /** Prepared INSERT statements of ingest, by SQL text; cleared by any DDL. */
  const inserts = new Map<string, Hdb.HdbStatement>()
  let autocommit = true
  // Connection.cancel cancels the running request on the server, and marks the open readers cancelled
  const cancellation = makeCancellation()

  const clearInserts = Effect.suspend(() => {
    const statements = [...inserts.values()]
    inserts.clear()
    return Effect.forEach(statements, Hdb.dropStatement, { discard: true })
  })

  /** Asks the server, from a second session, to cancel the statement this session is running. */
  // The side session connects within the answer budget itself: acquireRelease connects uninterruptibly.
  const cancelOnServer = Effect.suspend(() => {
    const id = client._connection.connectOptions?.connectionId
    if (id === undefined) return Effect.fail(notImplemented("the session id is unknown; cannot cancel"))
    return Effect.scoped(
      Effect.gen(function*() {
        const side = yield* Effect.acquireRelease(Hdb.connect({ ...hdbOptions }, Hdb.ANSWER_BUDGET_MS), Hdb.disconnect)
        yield* Hdb.executeDirect(side, `ALTER SYSTEM CANCEL SESSION '${id}'`)
      })
    )
  })

  /** Resolves once hdb has no request running or queued on this session. */
  const idle = Effect.suspend(function poll(): Effect.Effect<void> {
    return client._connection.isIdle() || client.readyState === "closed"
      ? Effect.void
      : Effect.andThen(Effect.sleep(5), Effect.suspend(poll))
  })

  /**
   * An interrupted request: the server is asked to cancel it and its answer awaited, all within the answer budget;
   * a server that does not answer in time gets the socket closed (the connection is broken, later calls fail IO).
   */
  const stopInterrupted = Effect.suspend(() =>
    client._connection.isIdle() ? Effect.void : Hdb.withinBudget(client, Effect.andThen(Effect.ignore(cancelOnServer), idle))
  )

  const tracked = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    cancellation.running(Effect.onInterrupt(effect, () => stopInterrupted))

  const cursorResult = (
    outcome: Extract<Hdb.ExecuteOutcome, { _tag: "Rows" }>,
    options: ResolvedOptions,
    more: NextOutcome,
    onClose: Effect.Effect<void>
  ): Effect.Effect<DriverResult, AdbcError> =>
    mapColumns([...outcome.metadata]).pipe(
      Effect.tapError(() => Hdb.closeResultSet(client, outcome.id).pipe(Effect.andThen(onClose))),
      Effect.map((columns) => ({
        _tag: "Rows" as const,
        cursor: makeCursor(
          client,
          outcome,
          columns,
          options.value(FetchSize),
          tracked(more),
          onClose,
          tracked,
          cancellation.reader()
        )
      }))
    )

  /**
   * EXECUTE of one parameter row (`single`) or a batch of rows; a row too large for one packet fails naming its
   * largest parameter.
   */
  const executeRows = (
    statement: Hdb.HdbStatement,
    rows: ReadonlyArray<ReadonlyArray<unknown>>,
    single: boolean,
    firstRow: number,
    names: ReadonlyArray<string>
  ) =>
    Hdb.executePrepared(client, statement, single ? rows[0]! : rows, firstRow).pipe(
      Effect.mapError((error) =>
        nameOversizedParameter(error, {
          rows,
          firstRow,
          names,
          parameterTypes: statement.parameterMetadata.map((p) => p.dataType),
          packetBytes: Hdb.packetSizeLimit(client)
        })
      )
    )

  const executeWithParameters = (
    sql: string,
    parameters: BoundParameters,
    options: ResolvedOptions,
    intent: ExecuteRequest["intent"]
  ): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
    Effect.gen(function*() {
      const statement = yield* Hdb.prepare(client, sql)
      let dropped = false
      const drop = Effect.suspend(() => {
        if (dropped) return Effect.void
        dropped = true
        return Hdb.dropStatement(statement)
      })
      yield* Effect.addFinalizer(() => drop)
      const inputs = statement.parameterMetadata.filter((p) => p.ioType === IO_INPUT || p.ioType === IO_IN_OUT)
      if (parameters.schema.fields.length !== inputs.length) {
        return yield* invalidArgument(
          `the statement has ${inputs.length} parameters but ${parameters.schema.fields.length} columns are bound`
        )
      }
      const types = inputs.map((p) => p.dataType)
      const names = parameters.schema.fields.map((f) => f.name)
      const isCall = statement.functionCode === FUNCTION_PROCEDURE || statement.functionCode === FUNCTION_PROCEDURE_WITH_RESULTS
      const isQuery = statement.functionCode === FUNCTION_SELECT ||
        statement.functionCode === FUNCTION_SELECT_FOR_UPDATE ||
        (isCall && intent === "query") ||
        (statement.resultSetMetadata !== undefined && statement.resultSetMetadata.length > 0)
      const converters = []
      let rowsBefore = 0
      for (const batch of parameters.batches) {
        const c = rowConverter(batch, types)
        if (!c.ok) return yield* c.error
        const refused = temporalRefusal(batch, inputs, rowsBefore)
        if (refused !== undefined) return yield* refused
        rowsBefore += batch.numRows
        const tooLarge = oversizedRow(batch, types, Hdb.packetSizeLimit(client))
        if (tooLarge !== undefined) return yield* tooLarge
        converters.push({ batch, converter: c.converter })
      }
      if (!isQuery && isCall) {
        // an update CALL: once per row, any result sets closed unread, no row count
        let before = 0
        for (const { batch, converter } of converters) {
          for (const [i, row] of converter.rows(0, batch.numRows).entries()) {
            const outcome = yield* executeRows(statement, [row], true, before + i, names)
            if (outcome._tag === "Rows") yield* Hdb.closeResultSet(client, outcome.id)
          }
          before += batch.numRows
        }
        yield* drop
        return { _tag: "Count" as const, rowsAffected: -1 }
      }
      if (!isQuery && statement.functionCode === FUNCTION_INSERT && inputs.length === statement.parameterMetadata.length) {
        const plans = encodedBatches(parameters.batches, inputs)
        yield* Effect.logDebug(plans !== undefined ? "hana: bound INSERT encoded from Arrow columns" : "hana: bound INSERT through hdb's writer")
          .pipe(Effect.annotateLogs({ "hana.insert.path": plans !== undefined ? "encoded" : "hdb" }))
        if (plans !== undefined) {
          const total = yield* insertEncodedStatement(statement, plans)
          yield* drop
          return { _tag: "Count" as const, rowsAffected: total }
        }
      }
      if (!isQuery) {
        let total = 0
        for (const { batch, converter } of converters) {
          for (let start = 0; start < batch.numRows; start += Hdb.MAX_BATCH_ROWS) {
            const end = Math.min(batch.numRows, start + Hdb.MAX_BATCH_ROWS)
            const outcome = yield* executeRows(statement, converter.rows(start, end), false, start, names)
            if (outcome._tag === "Count" && outcome.rowsAffected > 0) total += outcome.rowsAffected
            if (outcome._tag === "Rows") yield* Hdb.closeResultSet(client, outcome.id)
          }
        }
        yield* drop
        return { _tag: "Count" as const, rowsAffected: total }
      }
      // A query runs once per parameter row; results are concatenated.
      const rows: Array<ReadonlyArray<unknown>> = []
      for (const { batch, converter } of converters) {
        for (const row of converter.rows(0, batch.numRows)) rows.push([...row])
      }
      if (rows.length === 0) {
        return yield* invalidArgument("no parameter rows are bound to the query")
      }
      let next = 0
      const more: NextOutcome = Effect.suspend(() =>
        next >= rows.length ? Effect.succeed(undefined) : executeRows(statement, [rows[next]!], true, next++, names)
      )
      const first = yield* more
      if (first === undefined || first._tag !== "Rows") {
        yield* drop
        return { _tag: "Count" as const, rowsAffected: first?._tag === "Count" ? first.rowsAffected : -1 }
      }
      return yield* cursorResult(first, options, more, drop)
    })

  const execute = (
    { intent, options, parameters, sql }: ExecuteRequest
  ): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
    tracked(Effect.gen(function*() {
      const text = normalizeSql(sql)
      if (parameters !== undefined && parameters.schema.fields.length > 0) {
        return yield* executeWithParameters(text, parameters, options, intent)
      }
      const outcome = yield* Hdb.executeDirect(client, text)
      if (outcome._tag === "Rows") return yield* cursorResult(outcome, options, Effect.succeed(undefined), Effect.void)
      if (outcome.rowsAffected < 0) yield* clearInserts
      return outcome
    }))

  /** Result schema of a statement, from PREPARE (no execution). */
  const describeStatement = (sql: string): Effect.Effect<Arrow.Schema, AdbcError> =>
    Effect.acquireUseRelease(
      Hdb.prepare(client, normalizeSql(sql)),
      (statement) =>
        Effect.map(mapColumns([...(statement.resultSetMetadata ?? [])]), (cols) => new Arrow.Schema(cols.map((c) => c.field))),
      Hdb.dropStatement
    )

  const tableSql = (dbSchema: string | undefined, table: string) =>
    `SELECT * FROM ${dbSchema === undefined ? "" : `${Ddl.quoteIdentifier(dbSchema)}.`}${Ddl.quoteIdentifier(table)}`

  /** Column nullability from the dictionary (result metadata does not always carry it). */
  const dictionaryNullability = (dbSchema: string | undefined, table: string) => {
    const schemaCondition = dbSchema === undefined ? "SCHEMA_NAME = CURRENT_SCHEMA" : "SCHEMA_NAME = ?"
    const values = dbSchema === undefined ? [table] : [dbSchema, table]
    return Effect.gen(function*() {
      const rows = yield* Hdb.queryAll(
        client,
        `SELECT COLUMN_NAME, IS_NULLABLE FROM SYS.TABLE_COLUMNS WHERE ${schemaCondition} AND TABLE_NAME = ?`,
        values
      )
      const temps = table.startsWith("#")
        ? yield* Hdb.queryAll(
          client,
          `SELECT COLUMN_NAME, IS_NULLABLE FROM SYS.M_TEMPORARY_TABLE_COLUMNS WHERE CONNECTION_ID = CURRENT_CONNECTION AND TABLE_NAME = ?`,
          [table]
        )
        : []
      return new Map([...rows, ...temps].map((r) => [String(r[0]), String(r[1]).toUpperCase() === "TRUE"]))
    }).pipe(Effect.orElseSucceed(() => new Map<string, boolean>()))
  }

  const tableSchema = (catalog: string | undefined, dbSchema: string | undefined, table: string) =>
    Effect.gen(function*() {
      if (catalog !== undefined && catalog !== CATALOG) {
        return yield* notFound(`catalog ${JSON.stringify(catalog)} does not exist; the only catalog is "db"`)
      }
      const schema = yield* describeStatement(tableSql(dbSchema, table))
      const nullable = yield* dictionaryNullability(dbSchema, table)
      if (nullable.size === 0) return schema
      return new Arrow.Schema(
        schema.fields.map((f) => {
          const n = nullable.get(f.name)
          return n === undefined || n === f.nullable ? f : new Arrow.Field(f.name, f.type, n, f.metadata)
        }),
        schema.metadata
      )
    })

  const describeTarget = (target: IngestTarget): Effect.Effect<Arrow.Schema | undefined, AdbcError> =>
    tableSchema(undefined, target.temporary ? undefined : target.dbSchema, Ddl.targetTableName(target)).pipe(
      Effect.map((schema): Arrow.Schema | undefined => schema),
      Effect.catchIf((e) => e.status === "NOT_FOUND", () => Effect.succeed(undefined))
    )

  const insertStatement = (sql: string) =>
    Effect.suspend(() => {
      const cached = inserts.get(sql)
      if (cached !== undefined) return Effect.succeed(cached)
      return Effect.tap(Hdb.prepare(client, sql), (statement) => Effect.sync(() => inserts.set(sql, statement)))
    })

  /**
   * Batch EXECUTEs of rows encoded by IngestEncoder.ts; the next part is encoded while the server works on one. A
   * rejected row is named counted from `firstRow`, the batch's 0-based row in the whole ingest. `commit`: "session"
   * sends each part with the session's autocommit flag; "deferred" sends them uncommitted (the caller commits);
   * "statement" makes the batch all or nothing under autocommit as hdb's own batch execute does
   * (lib/protocol/ExecuteTask.js): a batch of one part commits with it, a longer one is sent uncommitted and then
   * committed, or rolled back when a part fails or the call is interrupted.
   */
  const insertEncoded = (
    statement: Hdb.HdbStatement,
    batch: Arrow.RecordBatch,
    encode: PartEncoder,
    firstRow: number,
    commit: "session" | "deferred" | "statement" = "session"
  ) =>
    Effect.gen(function*() {
      const rows = batch.numRows
      const partOf = (start: number) => {
        const part = encode(start, Math.min(rows, start + Hdb.MAX_BATCH_ROWS), Hdb.parameterBytesAvailable(client))
        return "status" in part ? Effect.fail(part) : Effect.succeed(part)
      }
      const first = rows === 0 ? undefined : yield* partOf(0)
      const bracketed = commit === "statement" && first !== undefined && first.rows < rows && Hdb.isAutoCommit(client)
      const flag = commit === "deferred" || bracketed ? false : undefined
      const parts = Effect.gen(function*() {
        let total = 0
        let part = first
        let start = 0
        while (part !== undefined) {
          // A reply may have grown the statement context since the part was encoded: measure again before sending.
          if (part.bytes > Hdb.parameterBytesAvailable(client)) part = yield* partOf(start)
          const reply = yield* Hdb.startEncodedExecute(client, statement, part.rows, part.data, firstRow + start, flag)
          start += part.rows
          const next = start < rows ? partOf(start) : Effect.succeed(undefined)
          const encoded = yield* Effect.result(next)
          total += yield* reply
          part = yield* Effect.fromResult(encoded)
        }
        return total
      })
      if (!bracketed) return yield* parts
      return yield* Effect.onExit(
        Effect.tap(parts, () => Hdb.commit(client)),
        (exit) => exit._tag === "Success" ? Effect.void : Effect.ignore(Hdb.rollback(client))
      )
    })

  /**
   * A bound INSERT's batches on the encoded path, all or nothing under autocommit (see `insertEncoded`); several
   * batches are sent uncommitted and committed together. Without autocommit the parts join the open transaction.
   */
  const insertEncodedStatement = (statement: Hdb.HdbStatement, batches: ReadonlyArray<EncodedBatch>) =>
    Effect.gen(function*() {
      if (batches.length === 1) {
        const { batch, encode, firstRow } = batches[0]!
        return yield* insertEncoded(statement, batch, encode, firstRow, "statement")
      }
      const autoCommit = Hdb.isAutoCommit(client)
      const sent = Effect.gen(function*() {
        let total = 0
        for (const { batch, encode, firstRow } of batches) {
          total += yield* insertEncoded(statement, batch, encode, firstRow, autoCommit ? "deferred" : "session")
        }
        if (autoCommit) yield* Hdb.commit(client)
        return total
      })
      return yield* autoCommit
        ? Effect.onExit(sent, (exit) => exit._tag === "Success" ? Effect.void : Effect.ignore(Hdb.rollback(client)))
        : sent
    })

  /** Batch EXECUTEs through hdb's writer, from JS rows (the path for batches the encoder does not take). */
  const insertRows = (statement: Hdb.HdbStatement, batch: Arrow.RecordBatch, types: ReadonlyArray<number>, firstRow: number) =>
    Effect.gen(function*() {
      const c = rowConverter(batch, types)
      if (!c.ok) return yield* c.error
      let total = 0
      for (let start = 0; start < batch.numRows; start += Hdb.MAX_BATCH_ROWS) {
        const end = Math.min(batch.numRows, start + Hdb.MAX_BATCH_ROWS)
        const outcome = yield* executeRows(statement, c.converter.rows(start, end), false, firstRow + start, batch.schema.fields.map((f) => f.name))
        total += outcome._tag === "Count" && outcome.rowsAffected >= 0 ? outcome.rowsAffected : end - start
      }
      return total
    })

  const insertBatch = (target: IngestTarget, batch: Arrow.RecordBatch, firstRow: number) =>
    tracked(Effect.gen(function*() {
      const sql = Ddl.insertSql(target, batch.schema.fields.map((f) => f.name))
      const statement = yield* insertStatement(sql)
      const types = statement.parameterMetadata.map((p) => p.dataType)
      const tooLarge = oversizedRow(batch, types, Hdb.packetSizeLimit(client))
      if (tooLarge !== undefined) return yield* tooLarge
      // With autocommit on, hdb's own batch EXECUTE brackets several packets in one transaction (ExecuteTask).
      const plan: EncodePlan = Hdb.isAutoCommit(client)
        ? { _tag: "Fallback", reason: "autocommit is on" }
        : planEncoding(batch, statement.parameterMetadata, firstRow)
      yield* Effect.logDebug(
        plan._tag === "Encoded"
          ? "hana: ingest batch encoded from Arrow columns"
          : `hana: ingest batch bound through hdb's writer: ${plan.reason}`
      ).pipe(Effect.annotateLogs({ "hana.ingest.path": plan._tag === "Encoded" ? "encoded" : "hdb", "hana.ingest.rows": batch.numRows }))
      if (plan._tag === "Encoded") return yield* insertEncoded(statement, batch, plan.encode, firstRow)
      const refused = temporalRefusal(batch, statement.parameterMetadata, firstRow)
      if (refused !== undefined) return yield* refused
      return yield* insertRows(statement, batch, types, firstRow)
    }))

  const scalar = (sql: string) =>
    Effect.map(Hdb.queryAll(client, sql), (rows) => (rows[0]?.[0] === undefined || rows[0][0] === null ? "" : String(rows[0][0])))

  const ISOLATION: Readonly<Record<string, string>> = {
    "adbc.connection.transaction.isolation.default": "READ COMMITTED",
    "adbc.connection.transaction.isolation.read_committed": "READ COMMITTED",
    "adbc.connection.transaction.isolation.repeatable_read": "REPEATABLE READ",
    "adbc.connection.transaction.isolation.serializable": "SERIALIZABLE"
  }

  return {
    execute,
    describe: (sql) => describeStatement(sql),
    parameterSchema: (sql) =>
      Effect.acquireUseRelease(
        Hdb.prepare(client, normalizeSql(sql)),
        (statement) =>
          Effect.gen(function*() {
            const inputs = statement.parameterMetadata.filter((p) => p.ioType === IO_INPUT || p.ioType === IO_IN_OUT)
            const fields: Array<Arrow.Field> = []
            for (const p of inputs) {
              const mapped = arrowColumns([{
                name: p.name ?? "",
                dataType: p.dataType,
                length: p.length,
                fraction: p.fraction,
                nullable: true
              }])
              fields.push(
                Result.isSuccess(mapped) ? mapped.success[0]!.field : new Arrow.Field(p.name ?? "", new Arrow.Null(), true)
              )
            }
            return new Arrow.Schema(fields)
          }),
        Hdb.dropStatement
      ),
    setAutocommit: (enabled) =>
      Effect.gen(function*() {
        if (enabled && !autocommit) yield* Hdb.commit(client)
        client.setAutoCommit(enabled)
        autocommit = enabled
      }),
    commit: Hdb.commit(client),
    rollback: Hdb.rollback(client),
    savepoints: {
      create: (name) => Effect.asVoid(Hdb.executeDirect(client, `SAVEPOINT ${Ddl.quoteIdentifier(name)}`)),
      rollbackTo: (name) =>
        Effect.asVoid(Hdb.executeDirect(client, `ROLLBACK TO SAVEPOINT ${Ddl.quoteIdentifier(name)}`))
    },
    setIsolationLevel: (level) => {
      const sql = ISOLATION[level]
      return sql === undefined
        ? Effect.fail(notImplemented(`isolation level ${level} is not supported by SAP HANA`))
        : Effect.asVoid(Hdb.executeDirect(client, `SET TRANSACTION ISOLATION LEVEL ${sql}`))
    },
    currentCatalog: Effect.succeed(CATALOG),
    currentDbSchema: scalar("SELECT CURRENT_SCHEMA FROM DUMMY"),
    setCurrentDbSchema: (schema) =>
      Effect.andThen(Hdb.executeDirect(client, `SET SCHEMA ${Ddl.quoteIdentifier(schema)}`), clearInserts),
    info: Effect.gen(function*() {
      const version = yield* scalar("SELECT VERSION FROM SYS.M_DATABASE").pipe(Effect.orElseSucceed(() => ""))
      const values = new Map<number, InfoValue>([[InfoCode.VENDOR_NAME, InfoValue.string("SAP HANA")]])
      if (version !== "") values.set(InfoCode.VENDOR_VERSION, InfoValue.string(version))
      return values
    }),
    catalogRows: (depth, filters) => catalogRows(client, depth, filters),
    tableSchema,
    tableTypes: ["TABLE", "VIEW"],
    ingest: {
      columnType: (field) => Effect.fromResult(columnTypeFor(field)),
      createTableSql: (target, columns) => Ddl.createTableSql(target, columns),
      dropTableSql: (target) => Ddl.dropTableSql(target),
      describeTarget,
      isCompatible,
      // HANA commits each DDL statement unless the session switched that off; with it off, DROP and CREATE join the
      // open transaction and a rollback undoes them ("SET TRANSACTION AUTOCOMMIT DDL [ON | OFF]: OFF: manual
      // execution of COMMIT is required", stechies.com/kind-auto-commit-options-exist-sap-hana; listed among HANA's
      // SET TRANSACTION statements in the ABAP keyword documentation, abenhana_set_transaction).
      ddl: {
        _tag: "Transactional",
        enable: Effect.asVoid(Hdb.executeDirect(client, "SET TRANSACTION AUTOCOMMIT DDL OFF")),
        restore: Effect.asVoid(Hdb.executeDirect(client, "SET TRANSACTION AUTOCOMMIT DDL ON"))
      },
      insertBatch: (target, batch, _options, firstRow) => insertBatch(target, batch, firstRow),
      targets: { temporary: true }
    },
    isUsable: () => client.readyState === "connected",
    abort: Hdb.breakConnection(client),
    cancel: cancellation.cancel(cancelOnServer)
  }
}

const connect = (options: ResolvedOptions): Effect.Effect<DriverConnection, AdbcError, Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* Effect.fromResult(resolveConnectConfig(options))
    const hdbOptions = yield* hdbClientOptions(config)
    const bounded = Hdb.connect({ ...hdbOptions }, connectTimeoutMs(config.uri.timeoutSeconds))
    const client = yield* Effect.acquireRelease(bounded, Hdb.disconnect, { interruptible: true })
    const ping = config.uri.pingIntervalSeconds
    if (ping !== undefined && ping > 0) {
      // Background keep-alive for the connection's lifetime (URI parameter pingInterval).
      yield* Effect.forkScoped(
        Effect.repeat(Hdb.pingIfIdle(client), Schedule.spaced(Duration.seconds(ping)))
      )
    }
    if (config.uri.defaultSchema !== undefined && config.uri.defaultSchema !== "") {
      yield* Hdb.executeDirect(client, `SET SCHEMA ${Ddl.quoteIdentifier(config.uri.defaultSchema)}`)
    }
    return makeConnection(client, hdbOptions)
  })

/**
 * The HANA driver.
 *
 * @category drivers
 * @since 0.1.0
 */
export const HanaDriver: DriverShape = {
  name: "hana",
  version: VERSION,
  options: HanaOptions,
  batchCap: { mode: "best-effort", rows: ReadBatchRows },
  validate: (options) => Effect.asVoid(Effect.fromResult(resolveConnectConfig(options))),
  // "sap.hana" is the conventions' db.system.name for SAP HANA (registry/attributes/db, db.system.name values); the
  // tenant database the URI names is the namespace.
  telemetry: {
    systemName: "sap.hana",
    endpoint: (options) => {
      const uri = Result.getOrUndefined(resolveConnectConfig(options))?.uri
      return { address: uri?.host, port: uri?.port, namespace: uri?.databaseName }
    }
  },
  connect
}
