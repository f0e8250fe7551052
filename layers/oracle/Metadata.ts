/**
 * What the Oracle driver's connection answers from the database without running a statement's rows: a statement's
 * result schema (a parse-only describe, ParseAhead.ts), a table's Arrow schema, single-value look-ups and the driver
 * info. The catalog listing itself is Catalog.ts.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { type AdbcError, notFound } from "../../src/AdbcError.ts"
import { InfoCode, InfoValue } from "../../src/catalog/index.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { CURRENT_CATALOG_SQL } from "./Catalog.ts"
import type { ConnectionContext } from "./ConnectionContext.ts"
import { mapColumns, queryOptions } from "./Cursor.ts"
import * as DbCalls from "./DbCalls.ts"
import * as Ddl from "./Ddl.ts"
import * as ParseAhead from "./ParseAhead.ts"

/** The result schema of `sql` from a parse-only describe, mapped with `options`. @category operations @since 0.1.0 */
export const describe = (ctx: ConnectionContext, sql: string, options: ResolvedOptions): Effect.Effect<Arrow.Schema, AdbcError> =>
  Effect.gen(function*() {
    const info = yield* ParseAhead.statementInfo(ctx.connection, sql, queryOptions(options, 1))
    const columns = yield* mapColumns(info.metaData ?? [], options)
    return new Arrow.Schema(columns.map((c) => c.field))
  })

/** The first value of a one-row query as text ("" for NULL or no row). @category operations @since 0.1.0 */
export const scalar = (ctx: ConnectionContext, sql: string) =>
  Effect.map(DbCalls.queryAll(ctx.connection, sql), (rows) => (rows[0]?.[0] === undefined || rows[0][0] === null ? "" : String(rows[0][0])))

/**
 * A table's Arrow schema, described with the connection's options. NOT_FOUND for a catalog other than the current
 * one.
 *
 * @category operations
 * @since 0.1.0
 */
export const tableSchema = (ctx: ConnectionContext, catalog: string | undefined, dbSchema: string | undefined, table: string) =>
  Effect.gen(function*() {
    if (catalog !== undefined) {
      const current = yield* scalar(ctx, CURRENT_CATALOG_SQL)
      if (catalog !== current) {
        return yield* notFound(`catalog ${JSON.stringify(catalog)} does not exist; the only catalog is ${JSON.stringify(current)}`)
      }
    }
    const name = `${dbSchema === undefined ? "" : `${Ddl.quoteIdentifier(dbSchema)}.`}${Ddl.quoteIdentifier(table)}`
    return yield* describe(ctx, `SELECT * FROM ${name}`, ctx.connectOptions)
  })

/**
 * The driver info the connection answers: vendor name, and the server version the logon reply carried (no round
 * trip).
 *
 * @category operations
 * @since 0.1.0
 */
export const info = (ctx: ConnectionContext): Effect.Effect<Map<number, InfoValue>, AdbcError> =>
  Effect.gen(function*() {
    const values = new Map<number, InfoValue>([[InfoCode.VENDOR_NAME, InfoValue.string("Oracle")]])
    if (ctx.connection.oracleServerVersionString !== "") {
      values.set(InfoCode.VENDOR_VERSION, InfoValue.string(ctx.connection.oracleServerVersionString))
    }
    return values
  })
