/**
 * DML with `RETURNING` as `effect/sql` writes it (`sql.insert(…).returning(…)`, `SqlModel` repositories'
 * `update … returning *`), run on databases whose SQL has no such clause: the statement gives back the rows it wrote.
 *
 * - Oracle (`"into"`): `RETURNING cols INTO :n, …` with one OUT bind per column, typed as the table's column; the
 *   OUT values are the row. A statement touching no row gives none; one touching several fails (OUT binds hold one
 *   row), with the statement undone.
 * - SAP HANA (`"selectBack"`, HANA has no RETURNING): the statement and a `SELECT` of its rows, in one transaction
 *   (a savepoint inside one). An insert's row is found by the table's primary key: its values from the inserted
 *   record, or, for the one key column the record leaves out, `CURRENT_IDENTITY_VALUE()` (the identity the session
 *   generated last). An update's or delete's rows are those its `WHERE` selects: after an update (so the `WHERE`
 *   must not filter on a column the update changes), before a delete.
 *
 * A multi-record insert with returning runs record by record in one transaction, its rows in record order.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { AdbcError } from "../AdbcError.ts"
import { recordBatchOf } from "../arrow/BatchAssembler.ts"
import { makeColumnBuilder } from "../arrow/makeColumnBuilder.ts"
import type { ConnectionShape } from "../Connection.ts"
import { escapeIdentifier } from "./Compiler.ts"
import { parameterBatch, parameterRows, UnsupportedParameter } from "./Params.ts"
import { batchToArrays } from "./Rows.ts"

/**
 * How a database gives back the rows of DML with `RETURNING`.
 *
 * @category models
 * @since 0.1.0
 */
export type ReturningMode = "into" | "selectBack"

/**
 * A DML statement with a trailing `RETURNING` list.
 *
 * @category models
 * @since 0.1.0
 */
export interface ReturningStatement {
  readonly kind: "INSERT" | "UPDATE" | "DELETE"
  readonly schema: string | undefined
  readonly table: string
  /** The statement without its `RETURNING` clause. */
  readonly statement: string
  /** `*`, or the columns as the database names them. */
  readonly columns: "*" | ReadonlyArray<string>
}

const NAME = String.raw`(?:"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_$#]*)`
const TARGET = new RegExp(String.raw`^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(${NAME})(?:\s*\.\s*(${NAME}))?`, "i")
const RETURNING = new RegExp(String.raw`\s+RETURNING\s+(\*|${NAME}(?:\s*,\s*${NAME})*)\s*$`, "i")

/** A name as the database stores it: quoted exactly, unquoted in upper case. */
const storedName = (name: string) => name.startsWith("\"") ? name.slice(1, -1).replaceAll("\"\"", "\"") : name.toUpperCase()

/**
 * The statement's target and `RETURNING` list, when `sql` is INSERT / UPDATE / DELETE ending in `RETURNING`
 * (without `INTO`).
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseReturning = (sql: string): ReturningStatement | undefined => {
  const returning = RETURNING.exec(sql)
  const target = returning === null ? null : TARGET.exec(sql)
  if (returning === null || target === null) return undefined
  const list = returning[1]!
  return {
    kind: target[1]!.split(/\s+/)[0]!.toUpperCase() as ReturningStatement["kind"],
    schema: target[3] === undefined ? undefined : storedName(target[2]!),
    table: storedName(target[3] ?? target[2]!),
    statement: sql.slice(0, returning.index),
    columns: list === "*" ? "*" : list.match(new RegExp(NAME, "g"))!.map(storedName)
  }
}

const invalid = (message: string) => new AdbcError({ status: "INVALID_ARGUMENT", message })

/** The Arrow batch binding `rows` (one parameter row), with `extra` fields appended as NULL columns. */
const bindBatch = (params: ReadonlyArray<unknown>, extra: ReadonlyArray<Arrow.Field> = []) =>
  Effect.try({
    try: () => {
      const batch = parameterBatch(params)
      if (extra.length === 0) return batch
      const fields = [...(batch?.schema.fields ?? []), ...extra]
      const columns: Array<Arrow.Data> = batch === undefined ? [] : batch.data.children.slice()
      for (const field of extra) {
        const builder = makeColumnBuilder(field.type, { name: field.name, initialCapacity: 1 })
        builder.append(null)
        columns.push(builder.finish())
      }
      return recordBatchOf(new Arrow.Schema(fields), columns, 1)
    },
    catch: (e) => e instanceof UnsupportedParameter ? e : new UnsupportedParameter(String(e))
  })

const statementOf = (connection: ConnectionShape, sql: string, params: ReadonlyArray<unknown>, extra?: ReadonlyArray<Arrow.Field>) =>
  Effect.gen(function*() {
    const batch = yield* bindBatch(params, extra)
    const statement = yield* connection.statement()
    yield* statement.setSqlQuery(sql)
    if (batch !== undefined) yield* statement.bind(batch)
    return statement
  })

const queryBatches = (connection: ConnectionShape, sql: string, params: ReadonlyArray<unknown>, extra?: ReadonlyArray<Arrow.Field>) =>
  Effect.scoped(Effect.gen(function*() {
    const statement = yield* statementOf(connection, sql, params, extra)
    const reader = yield* statement.executeQuery
    return Array.from(yield* Stream.runCollect(reader.batches))
  }))

const update = (connection: ConnectionShape, sql: string, params: ReadonlyArray<unknown>) =>
  Effect.scoped(Effect.flatMap(statementOf(connection, sql, params), (statement) => statement.executeUpdate))

/** The columns of the table, in the table's own Arrow types. */
const tableFields = (connection: ConnectionShape, target: ReturningStatement) =>
  Effect.gen(function*() {
    const schema = yield* connection.getTableSchema(undefined, target.schema, target.table)
    if (target.columns === "*") return schema.fields
    return yield* Effect.forEach(target.columns, (name) => {
      const field = schema.fields.find((f) => f.name === name)
      return field === undefined
        ? Effect.fail(invalid(`RETURNING names ${JSON.stringify(name)}, which is not a column of ${target.table}; its columns are ${schema.fields.map((f) => f.name).join(", ")}`))
        : Effect.succeed(field)
    })
  })

const quoted = (target: ReturningStatement) =>
  `${target.schema === undefined ? "" : `${escapeIdentifier(target.schema)}.`}${escapeIdentifier(target.table)}`

const placeholderCount = (params: ReadonlyArray<unknown>) => parameterRows(params)[0]?.length ?? 0

/** Integers other than 16 / 32-bit signed: Oracle binds no OUT parameter of them, so they come back as exact text. */
const asText = (type: Arrow.DataType) =>
  Arrow.DataType.isInt(type) && !(type.isSigned && (type.bitWidth === 16 || type.bitWidth === 32))

/** The OUT row with the columns bound as text turned back into the table's integer types, as a query reads them. */
const inTableTypes = (batch: Arrow.RecordBatch, fields: ReadonlyArray<Arrow.Field>): Arrow.RecordBatch => {
  if (!fields.some((f) => asText(f.type))) return batch
  const columns = fields.map((field, c) => {
    const column = batch.getChildAt(c)!
    if (!asText(field.type)) return column.data[0]!
    const builder = makeColumnBuilder(field.type, { name: field.name, initialCapacity: batch.numRows })
    for (let i = 0; i < batch.numRows; i++) {
      const text = column.get(i) as string | null
      builder.append(text === null ? null : (field.type as Arrow.Int).bitWidth === 64 ? BigInt(text) : Number(text))
    }
    return builder.finish()
  })
  return recordBatchOf(new Arrow.Schema(fields.slice()), columns, batch.numRows)
}

/** Oracle: the statement with `RETURNING cols INTO` OUT binds; no row when every OUT value is NULL (none touched). */
const returningInto = (
  connection: ConnectionShape,
  target: ReturningStatement,
  params: ReadonlyArray<unknown>,
  placeholder: (index: number) => string
) =>
  Effect.gen(function*() {
    const fields = yield* tableFields(connection, target)
    const first = placeholderCount(params)
    const outs = fields.map((f) =>
      new Arrow.Field(f.name, asText(f.type) ? new Arrow.Utf8() : f.type, true, new Map([["ORACLE:parameter_type", "out"]]))
    )
    const sql = `${target.statement} RETURNING ${fields.map((f) => escapeIdentifier(f.name)).join(", ")} INTO ${
      fields.map((_, i) => placeholder(first + i + 1)).join(", ")
    }`
    const batches = yield* queryBatches(connection, sql, params, outs)
    return batches
      .filter((batch) => batch.schema.fields.some((_, c) => batch.getChildAt(c)?.isValid(0) === true))
      .map((batch) => inTableTypes(batch, fields))
  })

const PRIMARY_KEY =
  `SELECT COLUMN_NAME FROM SYS.CONSTRAINTS WHERE SCHEMA_NAME = COALESCE(?, CURRENT_SCHEMA) AND TABLE_NAME = ? AND IS_PRIMARY_KEY = 'TRUE' ORDER BY POSITION`
const INSERT_COLUMNS = /\(((?:\s*"(?:[^"]|"")*"\s*,?)+)\)\s*VALUES\s*\(/i

/** HANA: the inserted row, by the table's primary key (from the record, or the session's last identity value). */
const insertSelectBack = (connection: ConnectionShape, target: ReturningStatement, params: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    yield* update(connection, target.statement, params)
    const keys = (yield* queryBatches(connection, PRIMARY_KEY, [target.schema ?? null, target.table]))
      .flatMap((batch) => batchToArrays(batch).map((row) => String(row[0])))
    const inserted = INSERT_COLUMNS.exec(target.statement)?.[1]?.match(/"(?:[^"]|"")*"/g)?.map(storedName) ?? []
    const values = parameterRows(params)[0] ?? []
    if (keys.length === 0 || inserted.length !== values.length) {
      return yield* Effect.fail(invalid(
        `RETURNING on SAP HANA reads the inserted row back by the table's primary key, and ${target.table} ${
          keys.length === 0 ? "has none" : "was not inserted with sql.insert"
        }; insert without returning and select the row`
      ))
    }
    const missing = keys.filter((k) => !inserted.includes(k))
    if (missing.length > 1) {
      return yield* Effect.fail(invalid(
        `RETURNING on SAP HANA reads the inserted row back by the primary key, and the record leaves out ${missing.join(", ")}; give the key's values (one generated identity column may be left out)`
      ))
    }
    const where = keys.map((k) => `${escapeIdentifier(k)} = ${missing.includes(k) ? "CURRENT_IDENTITY_VALUE()" : "?"}`)
    const keyValues = keys.filter((k) => !missing.includes(k)).map((k) => values[inserted.indexOf(k)])
    return yield* queryBatches(connection, `SELECT ${selectList(target)} FROM ${quoted(target)} WHERE ${where.join(" AND ")}`, keyValues)
  })

const selectList = (target: ReturningStatement) =>
  target.columns === "*" ? "*" : target.columns.map(escapeIdentifier).join(", ")

/**
 * The offset of the statement's top-level `WHERE` and how many `?` come before it, skipping quoted text and
 * parentheses.
 */
const whereOf = (sql: string): { readonly at: number; readonly before: number } | undefined => {
  let depth = 0
  let before = 0
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!
    if (c === "'" || c === "\"") {
      const end = sql.indexOf(c, i + 1)
      i = end < 0 ? sql.length : end
    } else if (c === "(") depth++
    else if (c === ")") depth--
    else if (c === "?") before++
    else if (depth === 0 && /^WHERE\b/i.test(sql.slice(i, i + 6)) && /\s/.test(sql[i - 1] ?? "")) return { at: i, before }
  }
  return undefined
}

/** HANA: an update's rows selected by its `WHERE` after it, a delete's before it. */
const whereSelectBack = (connection: ConnectionShape, target: ReturningStatement, params: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const values = parameterRows(params)[0] ?? []
    const where = whereOf(target.statement)
    const select = `SELECT ${selectList(target)} FROM ${quoted(target)}${
      where === undefined ? "" : ` ${target.statement.slice(where.at)}`
    }`
    const whereValues = where === undefined ? [] : values.slice(where.before)
    if (target.kind === "DELETE") {
      const rows = yield* queryBatches(connection, select, whereValues)
      yield* update(connection, target.statement, params)
      return rows
    }
    yield* update(connection, target.statement, params)
    return yield* queryBatches(connection, select, whereValues)
  })

/**
 * Runs `target` (parsed from the statement run with `params`) so that it gives back its rows, in one transaction
 * (a savepoint inside one); a multi-record insert runs record by record.
 *
 * @category execution
 * @since 0.1.0
 */
export const runReturning = (
  connection: ConnectionShape,
  mode: ReturningMode,
  target: ReturningStatement,
  params: ReadonlyArray<unknown>,
  placeholder: (index: number) => string
): Effect.Effect<Array<Arrow.RecordBatch>, AdbcError | UnsupportedParameter> => {
  const one = (values: ReadonlyArray<unknown>) =>
    mode === "into"
      ? returningInto(connection, target, values, placeholder)
      : target.kind === "INSERT"
      ? insertSelectBack(connection, target, values)
      : whereSelectBack(connection, target, values)
  return Effect.flatMap(
    Effect.try({
      try: () => parameterRows(params),
      catch: (e) => e instanceof UnsupportedParameter ? e : new UnsupportedParameter(String(e))
    }),
    (rows) =>
      connection.withTransaction(
        rows.length > 1 ? Effect.map(Effect.forEach(rows, one), (batches) => batches.flat()) : one(params)
      )
  )
}
