/**
 * What the HANA driver's connection answers from the database's dictionary: a table's Arrow schema (PREPARE of a
 * SELECT, nullability from SYS.TABLE_COLUMNS and this session's temporary-table columns), single-value look-ups
 * and the driver info. The catalog listing itself is Catalog.ts.
 *
 * @since 0.2.0
 */
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { type AdbcError, notFound } from "../../src/AdbcError.ts"
import { InfoCode, InfoValue } from "../../src/catalog/index.ts"
import { CATALOG } from "./Catalog.ts"
import type { ConnectionContext } from "./ConnectionContext.ts"
import * as Hdb from "./DbCalls.ts"
import * as Ddl from "./Ddl.ts"
import { describeStatement } from "./Execute.ts"

const tableSql = (dbSchema: string | undefined, table: string) =>
  `SELECT * FROM ${dbSchema === undefined ? "" : `${Ddl.quoteIdentifier(dbSchema)}.`}${Ddl.quoteIdentifier(table)}`

/** Column nullability from the dictionary (result metadata does not always carry it); empty when the look-up fails. @category operations @since 0.2.0 */
export const dictionaryNullability = (ctx: ConnectionContext, dbSchema: string | undefined, table: string) => {
  const schemaCondition = dbSchema === undefined ? "SCHEMA_NAME = CURRENT_SCHEMA" : "SCHEMA_NAME = ?"
  const values = dbSchema === undefined ? [table] : [dbSchema, table]
  return Effect.gen(function*() {
    const rows = yield* Hdb.queryAll(
      ctx.client,
      `SELECT COLUMN_NAME, IS_NULLABLE FROM SYS.TABLE_COLUMNS WHERE ${schemaCondition} AND TABLE_NAME = ?`,
      values
    )
    const temps = table.startsWith("#")
      ? yield* Hdb.queryAll(
        ctx.client,
        `SELECT COLUMN_NAME, IS_NULLABLE FROM SYS.M_TEMPORARY_TABLE_COLUMNS WHERE CONNECTION_ID = CURRENT_CONNECTION AND TABLE_NAME = ?`,
        [table]
      )
      : []
    return new Map([...rows, ...temps].map((r) => [String(r[0]), String(r[1]).toUpperCase() === "TRUE"]))
  }).pipe(Effect.orElseSucceed(() => new Map<string, boolean>()))
}

/**
 * A table's Arrow schema: its result columns from PREPARE, nullability from the dictionary. NOT_FOUND for a catalog
 * other than `db`.
 *
 * @category operations
 * @since 0.2.0
 */
export const tableSchema = (ctx: ConnectionContext, catalog: string | undefined, dbSchema: string | undefined, table: string) =>
  Effect.gen(function*() {
    if (catalog !== undefined && catalog !== CATALOG) {
      return yield* notFound(`catalog ${JSON.stringify(catalog)} does not exist; the only catalog is "db"`)
    }
    const schema = yield* describeStatement(ctx, tableSql(dbSchema, table))
    const nullable = yield* dictionaryNullability(ctx, dbSchema, table)
    if (nullable.size === 0) return schema
    return new Arrow.Schema(
      schema.fields.map((f) => {
        const n = nullable.get(f.name)
        return n === undefined || n === f.nullable ? f : new Arrow.Field(f.name, f.type, n, f.metadata)
      }),
      schema.metadata
    )
  })

/** The first value of a one-row query as text ("" for NULL or no row). @category operations @since 0.2.0 */
export const scalar = (ctx: ConnectionContext, sql: string) =>
  Effect.map(Hdb.queryAll(ctx.client, sql), (rows) => (rows[0]?.[0] === undefined || rows[0][0] === null ? "" : String(rows[0][0])))

/** The driver info the connection answers: vendor name, and the server version when it can be read. @category operations @since 0.2.0 */
export const info = (ctx: ConnectionContext): Effect.Effect<Map<number, InfoValue>, AdbcError> =>
  Effect.gen(function*() {
    const version = yield* scalar(ctx, "SELECT VERSION FROM SYS.M_DATABASE").pipe(Effect.orElseSucceed(() => ""))
    const values = new Map<number, InfoValue>([[InfoCode.VENDOR_NAME, InfoValue.string("SAP HANA")]])
    if (version !== "") values.set(InfoCode.VENDOR_VERSION, InfoValue.string(version))
    return values
  })
