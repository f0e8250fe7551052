/**
 * The HANA driver's bulk insert: the target's schema, one cached prepared INSERT per table (ConnectionContext
 * `inserts`), and each batch sent either encoded straight from its Arrow columns (IngestEncoder.ts, DbCalls.ts
 * `startEncodedExecute`: the next part is encoded while the server works on one) or bound through hdb's writer.
 * An ingest carries no state of its own between its steps here (no rows held back, no limits learnt at create
 * time): every batch stands alone, so there is no per-ingest context and no `finishInsert`.
 *
 * @since 0.2.0
 */
import type * as Arrow from "apache-arrow"
import { Effect } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { DriverIngest, IngestTarget } from "../../src/Driver.ts"
import { type ConnectionContext, tracked } from "./ConnectionContext.ts"
import * as Hdb from "./DbCalls.ts"
import type { HdbStatement } from "./DbTypes.ts"
import * as Ddl from "./Ddl.ts"
import { insertEncoded } from "./EncodedInsert.ts"
import { executeRows } from "./Execute.ts"
import { type EncodePlan, planEncoding, temporalRefusal } from "./IngestEncoder.ts"
import { tableSchema } from "./Metadata.ts"
import { oversizedRow, rowConverter } from "./Params.ts"
import { columnTypeFor, isCompatible } from "./WriteTypes.ts"

/** The target table's schema, or undefined when it does not exist. @category operations @since 0.2.0 */
export const describeTarget = (ctx: ConnectionContext, target: IngestTarget): Effect.Effect<Arrow.Schema | undefined, AdbcError> =>
  tableSchema(ctx, undefined, target.temporary ? undefined : target.dbSchema, Ddl.targetTableName(target)).pipe(
    Effect.map((schema): Arrow.Schema | undefined => schema),
    Effect.catchIf((e) => e.status === "NOT_FOUND", () => Effect.succeed(undefined))
  )

/** The cached prepared INSERT of `sql`, prepared on first use. @category operations @since 0.2.0 */
export const insertStatement = (ctx: ConnectionContext, sql: string) =>
  Effect.suspend(() => {
    const cached = ctx.inserts.get(sql)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.tap(Hdb.prepare(ctx.client, sql), (statement) => Effect.sync(() => ctx.inserts.set(sql, statement)))
  })

/** Batch EXECUTEs through hdb's writer, from JS rows (the path for batches the encoder does not take). @category operations @since 0.2.0 */
export const insertRows = (ctx: ConnectionContext, statement: HdbStatement, batch: Arrow.RecordBatch, types: ReadonlyArray<number>, firstRow: number) =>
  Effect.gen(function*() {
    const c = rowConverter(batch, types)
    if (!c.ok) return yield* c.error
    let total = 0
    for (let start = 0; start < batch.numRows; start += Hdb.MAX_BATCH_ROWS) {
      const end = Math.min(batch.numRows, start + Hdb.MAX_BATCH_ROWS)
      const outcome = yield* executeRows(ctx, statement, c.converter.rows(start, end), false, firstRow + start, batch.schema.fields.map((f) => f.name))
      total += outcome._tag === "Count" && outcome.rowsAffected >= 0 ? outcome.rowsAffected : end - start
    }
    return total
  })

/**
 * Inserts one batch (row `firstRow` of the whole ingest first): encoded from its Arrow columns when the plan allows,
 * else through hdb's writer; a debug log line says which path ran.
 *
 * @category operations
 * @since 0.2.0
 */
export const insertBatch = (ctx: ConnectionContext, target: IngestTarget, batch: Arrow.RecordBatch, firstRow: number) =>
  tracked(ctx, Effect.gen(function*() {
    const sql = Ddl.insertSql(target, batch.schema.fields.map((f) => f.name))
    const statement = yield* insertStatement(ctx, sql)
    const types = statement.parameterMetadata.map((p) => p.dataType)
    const tooLarge = oversizedRow(batch, types, Hdb.packetSizeLimit(ctx.client))
    if (tooLarge !== undefined) return yield* tooLarge
    // With autocommit on, hdb's own batch EXECUTE brackets several packets in one transaction (ExecuteTask).
    const plan: EncodePlan = Hdb.isAutoCommit(ctx.client)
      ? { _tag: "Fallback", reason: "autocommit is on" }
      : planEncoding(batch, statement.parameterMetadata, firstRow)
    yield* Effect.logDebug(
      plan._tag === "Encoded"
        ? "hana: ingest batch encoded from Arrow columns"
        : `hana: ingest batch bound through hdb's writer: ${plan.reason}`
    ).pipe(Effect.annotateLogs({ "hana.ingest.path": plan._tag === "Encoded" ? "encoded" : "hdb", "hana.ingest.rows": batch.numRows }))
    if (plan._tag === "Encoded") return yield* insertEncoded(ctx, statement, batch, plan.encode, firstRow)
    const refused = temporalRefusal(batch, statement.parameterMetadata, firstRow)
    if (refused !== undefined) return yield* refused
    return yield* insertRows(ctx, statement, batch, types, firstRow)
  }))

/** The ingest part of the driver connection. @category constructors @since 0.2.0 */
export const makeIngest = (ctx: ConnectionContext): DriverIngest => ({
  columnType: (field) => Effect.fromResult(columnTypeFor(field)),
  createTableSql: (target, columns) => Ddl.createTableSql(target, columns),
  dropTableSql: (target) => Ddl.dropTableSql(target),
  describeTarget: (target) => describeTarget(ctx, target),
  isCompatible,
  // HANA commits each DDL statement unless the session switched that off; with it off, DROP and CREATE join the
  // open transaction and a rollback undoes them ("SET TRANSACTION AUTOCOMMIT DDL [ON | OFF]: OFF: manual
  // execution of COMMIT is required", stechies.com/kind-auto-commit-options-exist-sap-hana; listed among HANA's
  // SET TRANSACTION statements in the ABAP keyword documentation, abenhana_set_transaction).
  ddl: {
    _tag: "Transactional",
    enable: Effect.asVoid(Hdb.executeDirect(ctx.client, "SET TRANSACTION AUTOCOMMIT DDL OFF")),
    restore: Effect.asVoid(Hdb.executeDirect(ctx.client, "SET TRANSACTION AUTOCOMMIT DDL ON"))
  },
  insertBatch: (target, batch, _options, firstRow) => insertBatch(ctx, target, batch, firstRow),
  targets: { temporary: true }
})
