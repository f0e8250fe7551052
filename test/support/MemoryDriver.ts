/**
 * A small in-memory driver implementing the driver port, for testing the core without a database.
 *
 * Its "SQL" is a tiny command language:
 * - `SELECT * FROM <key> [ORDER BY <column>]` reads a table (key = `schema.table`, or `#table` for a temporary one)
 *   in insertion order; `SELECT COUNT(*) FROM <key>` counts its rows
 * - `CREATE <json>` / `DROP <key>` come from its own ingest DDL
 * - `UPDATE <n>` reports n rows affected, `FAIL <message>` fails, `SELECT PARAMS [?, ...]` returns the bound
 *   parameters (its parameter schema has one field per `?`),
 * - `SELECT MANY <key>, <key>, ...` returns one result set per table (implicit result sets),
 * - `CALL` runs a "procedure" whose OUT / IN/OUT parameters (bound fields with metadata `mem:parameter_type` =
 *   `out` / `inout`) come back holding the first bound row's value; `CALL <key>` also returns that table's rows,
 *   `SELECT OVERFLOW` returns a value too wide for its decimal(5,2) column.
 *
 * Rows inserted while autocommit is off stay pending until commit and are dropped on rollback.
 */
import * as Arrow from "apache-arrow"
import { Effect, Schema } from "effect"
import { adbcError, notFound } from "../../src/AdbcError.ts"
import { type Page, rowsPage } from "../../src/arrow/index.ts"
import { type CatalogRows, InfoCode, InfoValue } from "../../src/catalog/index.ts"
import type {
  BatchCapMode,
  BoundParameters,
  CallIntent,
  DriverConnection,
  DriverShape,
  IngestTarget,
  OutValues,
  ParameterDirection
} from "../../src/Driver.ts"
import { option, OptionSchemas, ALL_LEVELS, DATABASE_LEVEL, type ResolvedOptions } from "../../src/Options.ts"
import * as Std from "../../src/StandardOptions.ts"

/** Page size of the memory driver's cursors. */
export const PageRows = option({ key: "mem.page_rows", schema: OptionSchemas.positiveInt, accepted: "a positive integer", levels: ALL_LEVELS, default: 4 })
/** Batch row cap. */
export const ReadBatchRows = option({ key: "mem.read_batch_rows", schema: OptionSchemas.positiveInt, accepted: "a positive integer", levels: ALL_LEVELS, default: 10 })
/** Approximate bytes per batch. */
export const ReadBatchBytes = option({ key: "mem.read_batch_bytes", schema: OptionSchemas.nonNegativeInt, accepted: "a non-negative integer", levels: ALL_LEVELS, default: 0 })

/** The field metadata key declaring a bound parameter's direction. */
export const PARAMETER_TYPE_KEY = "mem:parameter_type"

/**
 * Optional feature groups of the memory driver; each defaults to present, so tests can take one away and see the
 * core's NOT_IMPLEMENTED.
 */
export interface MemoryFeatures {
  readonly describe?: boolean
  readonly parameterSchema?: boolean
  readonly savepoints?: boolean
  readonly readOnly?: boolean
  readonly isolationLevel?: boolean
  readonly setCatalog?: boolean
  readonly ingestTemporary?: boolean
  readonly ingestCatalog?: boolean
  readonly outParameters?: boolean
  /**
   * How ingest DDL is kept atomic: `buildAndSwap` (default; its DDL commits at once, as Oracle's does) or
   * `transactional` (as HANA with AUTOCOMMIT DDL OFF: CREATE and DROP join the open transaction and a rollback undoes
   * them).
   */
  readonly ingestDdl?: "buildAndSwap" | "transactional"
}

const directionOf = (field: Arrow.Field): ParameterDirection => {
  const value = field.metadata.get(PARAMETER_TYPE_KEY)
  return value === "out" || value === "inout" ? value : "in"
}
/** A secret option, to check redaction. */
export const Token = option({
  key: "mem.token",
  schema: Schema.String.check(Schema.isPattern(/^tok-/)) as Schema.Codec<string, string>,
  accepted: "a token starting with tok-",
  levels: DATABASE_LEVEL,
  secret: true
})

interface Table {
  readonly schema: Arrow.Schema
  rows: Array<Array<unknown>>
}

const TYPES: Record<string, () => Arrow.DataType> = {
  INT32: () => new Arrow.Int32(),
  INT64: () => new Arrow.Int64(),
  FLOAT64: () => new Arrow.Float64(),
  UTF8: () => new Arrow.Utf8(),
  UTF8_VIEW: () => new Arrow.Utf8View(),
  BOOL: () => new Arrow.Bool()
}
const sqlTypeOf = (type: Arrow.DataType): string | undefined =>
  Object.keys(TYPES).find((name) => TYPES[name]!().toString() === type.toString())

/** What the memory "server" saw, for assertions. */
export class MemoryServer {
  readonly tables = new Map<string, Table>()
  readonly statements: Array<string> = []
  openCursors = 0
  closedCursors = 0
  openConnections = 0
  /** Fail the n-th insert batch (1-based) from now on; 0 = never. */
  failInsertBatch = 0
  insertBatches = 0
  /** The intent of every execute call, in order. */
  readonly intents: Array<CallIntent> = []
  /** Savepoints created and rolled back to, in order (`create:NAME`, `rollback:NAME`). */
  readonly savepoints: Array<string> = []
  /** Read-only and isolation-level settings received. */
  readonly settings: Array<string> = []
  /** Fail the next page fetched with an IO error (a connection lost mid-fetch). */
  failNextPage = false
  /** Message of a failure injected into connect. */
  connectFailure: string | undefined
  /** What every connection's `isUsable` hook answers (false: as if its socket had closed). */
  usable = true
}

const keyOf = (target: IngestTarget) => (target.temporary ? `#${target.table}` : `${target.dbSchema ?? "MAIN"}.${target.table}`)

const pagesOf = (rows: ReadonlyArray<ReadonlyArray<unknown>>, pageRows: number): Array<ReadonlyArray<ReadonlyArray<unknown>>> => {
  const pages: Array<ReadonlyArray<ReadonlyArray<unknown>>> = []
  for (let i = 0; i < rows.length; i += pageRows) pages.push(rows.slice(i, i + pageRows))
  return pages
}

/** The rows of a batch, in the column order of `into` (columns by name; a column the batch lacks is null). */
const rowsOfBatch = (batch: Arrow.RecordBatch, into: Arrow.Schema = batch.schema): Array<Array<unknown>> => {
  const columns = into.fields.map((field) => batch.getChild(field.name))
  const out: Array<Array<unknown>> = []
  for (let r = 0; r < batch.numRows; r++) out.push(columns.map((column) => column?.get(r) ?? null))
  return out
}

/** Creates the memory driver over `server`, with the given batch cap mode and optional features. */
export const memoryDriver = (
  server: MemoryServer,
  mode: BatchCapMode = "best-effort",
  features: MemoryFeatures = {}
): DriverShape => ({
  name: "memory",
  version: "0.0.0-test",
  options: [PageRows, ReadBatchRows, ReadBatchBytes, Token],
  batchCap: { mode, rows: ReadBatchRows, bytes: ReadBatchBytes },
  ...(features.outParameters === false ? {} : { outParameters: { direction: directionOf } }),
  validate: (options) =>
    options.raw(Std.Uri.key) === undefined
      ? Effect.fail(adbcError("INVALID_ARGUMENT", "option uri is required"))
      : Effect.void,
  connect: () =>
    Effect.gen(function*() {
      if (server.connectFailure !== undefined) {
        return yield* Effect.fail(adbcError("UNAUTHENTICATED", server.connectFailure))
      }
      server.openConnections++
      yield* Effect.addFinalizer(() => Effect.sync(() => server.openConnections--))
      return makeConnection(server, features)
    })
})

/** OUT values of a call: each OUT / IN/OUT parameter holds the first bound row's value. */
const outValuesOf = (parameters: BoundParameters | undefined): OutValues | undefined => {
  if (parameters === undefined) return undefined
  const indexes = parameters.schema.fields.flatMap((f, i) => (directionOf(f) === "in" ? [] : [i]))
  if (indexes.length === 0) return undefined
  const first = parameters.batches.find((b) => b.numRows > 0)
  return {
    schema: new Arrow.Schema(indexes.map((i) => {
      const f = parameters.schema.fields[i]!
      return new Arrow.Field(f.name, f.type, true)
    })),
    values: indexes.map((i) => first?.getChildAt(i)?.get(0) ?? null)
  }
}

const makeConnection = (server: MemoryServer, features: MemoryFeatures): DriverConnection => {
  let autocommit = true
  let pending: Array<{ table: Table; rows: Array<Array<unknown>> }> = []
  let schemaName = "MAIN"
  let catalogName = "mem"
  const savepointMarks = new Map<string, { rows: number; ddl: number }>()
  /** With transactional DDL switched on: how to undo each DDL statement of the open transaction, in order. */
  let ddlUndo: Array<() => void> = []
  let ddlInTransaction = false
  const undoDdlTo = (mark: number) => {
    for (const undo of ddlUndo.splice(mark).reverse()) undo()
  }
  /** Runs a DDL change; inside a transaction with transactional DDL, keeps how to undo it. */
  const ddlChange = (change: () => void, undo: () => void) => {
    change()
    if (ddlInTransaction && !autocommit) ddlUndo.push(undo)
  }
  const temps = new Map<string, Table>()
  const lookup = (key: string) => (key.startsWith("#") ? temps.get(key) : server.tables.get(key))

  const cursorOver = (schema: Arrow.Schema, rows: ReadonlyArray<ReadonlyArray<unknown>>, options: ResolvedOptions) =>
    Effect.gen(function*() {
      const pages = pagesOf(rows, options.value(PageRows))
      server.openCursors++
      let closed = false
      return {
        _tag: "Rows" as const,
        cursor: {
          schema,
          nextPage: Effect.suspend(() => {
            if (server.failNextPage) return Effect.fail(adbcError("IO", "connection lost during fetch"))
            const page = pages.shift()
            return Effect.succeed<Page | undefined>(page === undefined ? undefined : rowsPage(page))
          }),
          close: Effect.sync(() => {
            if (closed) throw new Error("cursor closed twice")
            closed = true
            server.openCursors--
            server.closedCursors++
          })
        }
      }
    })

  const tableOrFail = (key: string) => {
    const table = lookup(key)
    return table === undefined
      ? Effect.fail(adbcError("NOT_FOUND", `table ${key} not found`, { vendorCode: 259, sqlState: "42S02" }))
      : Effect.succeed(table)
  }

  const connection: DriverConnection = {
    execute: ({ intent, options, parameters, sql }) =>
      Effect.gen(function*() {
        server.statements.push(sql)
        server.intents.push(intent)
        const [verb, ...rest] = sql.split(" ")
        const arg = rest.join(" ")
        switch (verb) {
          case "CALL": {
            const out = outValuesOf(parameters)
            if (arg === "") return { _tag: "Count" as const, rowsAffected: 0, out }
            const table = yield* tableOrFail(arg)
            const rows = yield* cursorOver(table.schema, table.rows, options)
            return { ...rows, out }
          }
          case "SELECT": {
            if (arg.startsWith("MANY ")) {
              const tables = []
              for (const key of arg.slice(5).split(", ")) tables.push(yield* tableOrFail(key))
              const cursors = []
              for (const table of tables) cursors.push((yield* cursorOver(table.schema, table.rows, options)).cursor)
              return { _tag: "Rows" as const, cursor: cursors[0]!, more: cursors.slice(1) }
            }
            if (arg === "OVERFLOW") {
              const schema = new Arrow.Schema([new Arrow.Field("d", new Arrow.Decimal(2, 5, 128), true)])
              return yield* cursorOver(schema, [["1.5"], ["123456.78"]], options)
            }
            if (arg === "PARAMS" || arg.startsWith("PARAMS ")) {
              if (parameters === undefined) return yield* Effect.fail(adbcError("INVALID_STATE", "no parameters bound"))
              return yield* cursorOver(parameters.schema, parameters.batches.flatMap((batch) => rowsOfBatch(batch)), options)
            }
            const counting = arg.startsWith("COUNT(*) FROM ")
            const key = arg.replace(/^(\*|COUNT\(\*\)) FROM /, "").replace(/ ORDER BY .*$/, "")
            const table = lookup(key)
            if (table === undefined) return yield* Effect.fail(adbcError("NOT_FOUND", `table ${key} not found`, { vendorCode: 259, sqlState: "42S02" }))
            if (counting) {
              const schema = new Arrow.Schema([new Arrow.Field("count", new Arrow.Int32(), false)])
              return yield* cursorOver(schema, [[table.rows.length]], options)
            }
            return yield* cursorOver(table.schema, table.rows, options)
          }
          case "CREATE": {
            const spec = JSON.parse(arg) as { key: string; columns: Array<{ name: string; sqlType: string; nullable: boolean }> }
            if (lookup(spec.key) !== undefined) return yield* Effect.fail(adbcError("ALREADY_EXISTS", `table ${spec.key} exists`))
            const table: Table = {
              schema: new Arrow.Schema(spec.columns.map((c) => new Arrow.Field(c.name, TYPES[c.sqlType]!(), c.nullable))),
              rows: []
            }
            const home = spec.key.startsWith("#") ? temps : server.tables
            ddlChange(() => home.set(spec.key, table), () => home.delete(spec.key))
            return { _tag: "Count" as const, rowsAffected: 0 }
          }
          case "RENAME": {
            // build-and-swap ingest (src/Ingest.ts): `RENAME <key> <key>`, auto-committed like all its DDL
            const [from, to] = arg.split(" ") as [string, string]
            const table = server.tables.get(from)
            if (table === undefined) return yield* Effect.fail(notFound(`table ${from} not found`))
            if (server.tables.has(to)) return yield* Effect.fail(adbcError("ALREADY_EXISTS", `table ${to} exists`))
            server.tables.delete(from)
            server.tables.set(to, table)
            return { _tag: "Count" as const, rowsAffected: 0 }
          }
          case "DROP": {
            const home = temps.has(arg) ? temps : server.tables
            const dropped = home.get(arg)
            ddlChange(() => home.delete(arg), () => dropped !== undefined && home.set(arg, dropped))
            return { _tag: "Count" as const, rowsAffected: 0 }
          }
          case "UPDATE":
            return { _tag: "Count" as const, rowsAffected: Number(arg) }
          case "FAIL":
            return yield* Effect.fail(adbcError("INVALID_ARGUMENT", arg, { vendorCode: 257, sqlState: "42000" }))
          default:
            return yield* Effect.fail(adbcError("INVALID_ARGUMENT", `syntax error near ${verb}`))
        }
      }),
    ...(features.describe === false ? {} : {
      describe: (sql: string) =>
        Effect.suspend(() => {
          // the parameters' types are known only once bound
          if (sql.startsWith("SELECT PARAMS")) {
            return Effect.succeed(new Arrow.Schema([...sql.matchAll(/\?/g)].map((_, i) => new Arrow.Field(`P${i}`, new Arrow.Null(), true))))
          }
          const table = lookup(sql.replace(/^SELECT \* FROM /, ""))
          return table === undefined ? Effect.fail(notFound(`cannot describe ${sql}`)) : Effect.succeed(table.schema)
        })
    }),
    ...(features.parameterSchema === false ? {} : {
      parameterSchema: (sql: string) =>
        Effect.succeed(new Arrow.Schema([...sql.matchAll(/\?/g)].map(() => new Arrow.Field("", new Arrow.Null(), true))))
    }),
    setAutocommit: (enabled) =>
      Effect.sync(() => {
        if (enabled) applyPending()
        autocommit = enabled
      }),
    commit: Effect.sync(() => applyPending()),
    rollback: Effect.sync(() => {
      pending = []
      undoDdlTo(0)
    }),
    ...(features.savepoints === false ? {} : {
      savepoints: {
        create: (name: string) =>
          Effect.sync(() => {
            server.savepoints.push(`create:${name}`)
            savepointMarks.set(name, { rows: pending.length, ddl: ddlUndo.length })
          }),
        rollbackTo: (name: string) =>
          Effect.sync(() => {
            server.savepoints.push(`rollback:${name}`)
            const mark = savepointMarks.get(name) ?? { rows: 0, ddl: 0 }
            pending = pending.slice(0, mark.rows)
            undoDdlTo(mark.ddl)
          })
      }
    }),
    ...(features.readOnly === false ? {} : {
      setReadOnly: (readOnly: boolean) => Effect.sync(() => void server.settings.push(`readonly:${readOnly}`))
    }),
    ...(features.isolationLevel === false ? {} : {
      setIsolationLevel: (level: string) => Effect.sync(() => void server.settings.push(`isolation:${level}`))
    }),
    currentCatalog: Effect.sync(() => catalogName),
    ...(features.setCatalog === false ? {} : {
      setCurrentCatalog: (catalog: string) =>
        Effect.sync(() => {
          catalogName = catalog
        })
    }),
    currentDbSchema: Effect.sync(() => schemaName),
    setCurrentDbSchema: (schema) =>
      Effect.sync(() => {
        schemaName = schema
      }),
    info: Effect.succeed(new Map([[InfoCode.VENDOR_NAME, InfoValue.string("Memory")]])),
    catalogRows: () =>
      Effect.sync((): CatalogRows => {
        const entries = [...server.tables.entries()].map(([key, table]) => {
          const [schema, name] = key.split(".") as [string, string]
          return { schema, name, table }
        })
        return {
          catalogs: ["mem"],
          schemas: [...new Set(["MAIN", ...entries.map((e) => e.schema)])].map((schema) => ({ catalog: "mem", schema })),
          tables: entries.map((e) => ({ catalog: "mem", schema: e.schema, name: e.name, type: "TABLE" })),
          columns: entries.flatMap((e) =>
            e.table.schema.fields.map((f, i) => ({
              catalog: "mem",
              schema: e.schema,
              table: e.name,
              name: f.name,
              ordinalPosition: i + 1,
              xdbcTypeName: sqlTypeOf(f.type) ?? null
            }))
          ),
          constraints: []
        }
      }),
    tableSchema: (_catalog, dbSchema, table) =>
      Effect.suspend(() => {
        const found = lookup(`${dbSchema ?? schemaName}.${table}`)
        return found === undefined ? Effect.fail(notFound(`table ${table} not found`)) : Effect.succeed(found.schema)
      }),
    tableTypes: ["TABLE", "VIEW"],
    ingest: {
      columnType: (field) => {
        const name = sqlTypeOf(field.type)
        return name === undefined
          ? Effect.fail(adbcError("NOT_IMPLEMENTED", `column ${field.name}: cannot create a column of type ${field.type}`))
          : Effect.succeed(name)
      },
      targets: { temporary: features.ingestTemporary !== false, catalog: features.ingestCatalog === true },
      createTableSql: (target, columns) =>
        `CREATE ${JSON.stringify({ key: keyOf(target), columns: columns.map((c) => ({ name: c.field.name, sqlType: c.sqlType, nullable: c.nullable })) })}`,
      dropTableSql: (target) => `DROP ${keyOf(target)}`,
      // By default its DDL commits at once (as Oracle's does): create and replace build a new table and swap names.
      ddl: features.ingestDdl === "transactional"
        ? {
          _tag: "Transactional",
          enable: Effect.sync(() => {
            server.settings.push("ddl:transactional")
            ddlInTransaction = true
          }),
          restore: Effect.sync(() => {
            server.settings.push("ddl:autocommit")
            ddlInTransaction = false
          })
        }
        : { _tag: "BuildAndSwap", renameTableSql: (from, to) => `RENAME ${keyOf(from)} ${keyOf({ ...from, table: to })}` },
      describeTarget: (target) => Effect.sync(() => lookup(keyOf(target))?.schema),
      isCompatible: (incoming, existing) => incoming.type.toString() === existing.type.toString(),
      insertBatch: (target, batch) =>
        Effect.gen(function*() {
          server.insertBatches++
          if (server.failInsertBatch > 0 && server.insertBatches >= server.failInsertBatch) {
            return yield* Effect.fail(adbcError("IO", "connection lost during insert"))
          }
          const table = lookup(keyOf(target))
          if (table === undefined) return yield* Effect.fail(notFound(`table ${keyOf(target)} not found`))
          // by column name, as a database's INSERT (col, ...) does
          const rows = rowsOfBatch(batch, table.schema)
          if (autocommit) table.rows.push(...rows)
          else pending.push({ table, rows })
          return rows.length
        })
    },
    cancel: Effect.void,
    isUsable: () => server.usable
  }
  function applyPending() {
    for (const { table, rows } of pending) table.rows.push(...rows)
    pending = []
    ddlUndo = []
  }
  return connection
}
