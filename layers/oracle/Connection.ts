/**
 * The Oracle driver's connection: `makeConnection` assembles the DriverConnection from the role modules (Execute.ts,
 * Cursor.ts, Ingest.ts, Metadata.ts, Catalog.ts) over one ConnectionContext, and answers transactions, savepoints,
 * isolation, the current schema, usability, abort and cancel itself.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { notImplemented } from "../../src/AdbcError.ts"
import type { DriverConnection } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { catalogRows, CURRENT_CATALOG_SQL } from "./Catalog.ts"
import { makeConnectionContext, run } from "./ConnectionContext.ts"
import * as DbCalls from "./DbCalls.ts"
import type * as DbTypes from "./DbTypes.ts"
import * as Ddl from "./Ddl.ts"
import { execute } from "./Execute.ts"
import { makeIngest } from "./Ingest.ts"
import { describe, info, scalar, tableSchema } from "./Metadata.ts"

const ISOLATION: Readonly<Record<string, string>> = {
  "adbc.connection.transaction.isolation.default": "READ COMMITTED",
  "adbc.connection.transaction.isolation.read_committed": "READ COMMITTED",
  "adbc.connection.transaction.isolation.serializable": "SERIALIZABLE"
}

/**
 * The DriverConnection of a connected oracledb connection (`connectOptions`: the options it was opened with, with
 * which a table's schema is described).
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeConnection = (connection: DbTypes.OracleConnection, connectOptions: ResolvedOptions): DriverConnection => {
  const ctx = makeConnectionContext(connection, connectOptions)
  return {
    namespace: connection.instanceName,
    // Execute update with OUT parameters is refused by the core (the driver declares `outParameters`).
    execute: (request) => execute(ctx, request.sql, request.parameters, request.options),
    describe: (sql, options) => describe(ctx, sql, options),
    setAutocommit: (enabled) =>
      Effect.gen(function*() {
        if (enabled && !ctx.autocommit) yield* DbCalls.call(connection, () => connection.commit())
        ctx.autocommit = enabled
      }),
    commit: DbCalls.call(connection, () => connection.commit()),
    rollback: DbCalls.call(connection, () => connection.rollback()),
    savepoints: {
      create: (name) => Effect.asVoid(run(ctx, `SAVEPOINT ${Ddl.quoteIdentifier(name)}`, [], {})),
      rollbackTo: (name) => Effect.asVoid(run(ctx, `ROLLBACK TO SAVEPOINT ${Ddl.quoteIdentifier(name)}`, [], {}))
    },
    // No setReadOnly: Oracle's SET TRANSACTION READ ONLY lasts one transaction, so the core accepts only `false`.
    setIsolationLevel: (level) => {
      const sql = ISOLATION[level]
      return sql === undefined
        ? Effect.fail(notImplemented(`isolation level ${level} is not supported by Oracle (read committed, serializable)`))
        : Effect.asVoid(run(ctx, `ALTER SESSION SET ISOLATION_LEVEL = ${sql}`, [], {}))
    },
    currentCatalog: scalar(ctx, CURRENT_CATALOG_SQL),
    currentDbSchema: scalar(ctx, "SELECT SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') FROM DUAL"),
    setCurrentDbSchema: (schema) =>
      Effect.asVoid(run(ctx, `ALTER SESSION SET CURRENT_SCHEMA = ${Ddl.quoteIdentifier(schema)}`, [], {})),
    info: info(ctx),
    catalogRows: (depth, filters) => catalogRows(connection, depth, filters),
    tableSchema: (catalog, dbSchema, table) => tableSchema(ctx, catalog, dbSchema, table),
    tableTypes: ["TABLE", "VIEW"],
    ingest: makeIngest(ctx),
    cancel: ctx.cancellation.cancel(Effect.promise(() => connection.breakExecution().catch(() => undefined))),
    isUsable: () => connection.isHealthy(),
    abort: DbCalls.abort(connection)
  }
}
