/**
 * The HANA driver's connection: `makeConnection` assembles the DriverConnection from the role modules (Execute.ts,
 * Cursor.ts, Ingest.ts, Metadata.ts, Catalog.ts) over one ConnectionContext, and answers transactions, savepoints,
 * isolation, the current schema, usability, abort and cancel itself.
 *
 * @since 0.2.0
 */
import { Effect } from "effect"
import { notImplemented } from "../../src/AdbcError.ts"
import type { DriverConnection } from "../../src/Driver.ts"
import { CATALOG, catalogRows } from "./Catalog.ts"
import { cancelOnServer, clearInserts, makeConnectionContext } from "./ConnectionContext.ts"
import * as Hdb from "./DbCalls.ts"
import type { HdbClient } from "./DbTypes.ts"
import * as Ddl from "./Ddl.ts"
import { describeStatement, execute, parameterSchema } from "./Execute.ts"
import { makeIngest } from "./Ingest.ts"
import { info, scalar, tableSchema } from "./Metadata.ts"

const ISOLATION: Readonly<Record<string, string>> = {
  "adbc.connection.transaction.isolation.default": "READ COMMITTED",
  "adbc.connection.transaction.isolation.read_committed": "READ COMMITTED",
  "adbc.connection.transaction.isolation.repeatable_read": "REPEATABLE READ",
  "adbc.connection.transaction.isolation.serializable": "SERIALIZABLE"
}

/**
 * The DriverConnection of a connected client (`hdbOptions`: the options it was opened with, for the side session a
 * cancel opens).
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeConnection = (client: HdbClient, hdbOptions: Record<string, unknown>): DriverConnection => {
  const ctx = makeConnectionContext(client, hdbOptions)
  return {
    execute: (request) => execute(ctx, request),
    describe: (sql) => describeStatement(ctx, sql),
    parameterSchema: (sql) => parameterSchema(ctx, sql),
    setAutocommit: (enabled) =>
      Effect.gen(function*() {
        if (enabled && !ctx.autocommit) yield* Hdb.commit(ctx.client)
        ctx.client.setAutoCommit(enabled)
        ctx.autocommit = enabled
      }),
    commit: Hdb.commit(ctx.client),
    rollback: Hdb.rollback(ctx.client),
    savepoints: {
      create: (name) => Effect.asVoid(Hdb.executeDirect(ctx.client, `SAVEPOINT ${Ddl.quoteIdentifier(name)}`)),
      rollbackTo: (name) =>
        Effect.asVoid(Hdb.executeDirect(ctx.client, `ROLLBACK TO SAVEPOINT ${Ddl.quoteIdentifier(name)}`))
    },
    setIsolationLevel: (level) => {
      const sql = ISOLATION[level]
      return sql === undefined
        ? Effect.fail(notImplemented(`isolation level ${level} is not supported by SAP HANA`))
        : Effect.asVoid(Hdb.executeDirect(ctx.client, `SET TRANSACTION ISOLATION LEVEL ${sql}`))
    },
    currentCatalog: Effect.succeed(CATALOG),
    currentDbSchema: scalar(ctx, "SELECT CURRENT_SCHEMA FROM DUMMY"),
    setCurrentDbSchema: (schema) =>
      Effect.andThen(Hdb.executeDirect(ctx.client, `SET SCHEMA ${Ddl.quoteIdentifier(schema)}`), clearInserts(ctx)),
    info: info(ctx),
    catalogRows: (depth, filters) => catalogRows(ctx.client, depth, filters),
    tableSchema: (catalog, dbSchema, table) => tableSchema(ctx, catalog, dbSchema, table),
    tableTypes: ["TABLE", "VIEW"],
    ingest: makeIngest(ctx),
    isUsable: () => ctx.client.readyState === "connected",
    abort: Hdb.breakConnection(ctx.client),
    cancel: ctx.cancellation.cancel(cancelOnServer(ctx))
  }
}
