/**
 * The `effect/sql` statement compiler for databases `effect/sql` does not name (SAP HANA, Oracle), made once for
 * both from a {@link DialectSpec}: placeholders, exact identifier quoting, `sql.insert` (several records become one
 * array-DML execution, see {@link BatchRows}), `sql.updateValues` as a `SELECT … FROM DUMMY/DUAL UNION ALL` derived
 * table, `sql.json`, and an empty `sql.in([])` that is valid SQL on these databases.
 *
 * `Statement.Dialect` is a closed union of five other databases, so the compiler's `dialect` holds our own name
 * (`"hana"`, `"oracle"`) cast to it: `sql.onDialectOrElse` always takes `orElse` (no other database's branch) and
 * `sql.onDialect` fails with a defect naming the database (see `Client.ts`).
 *
 * @since 0.1.0
 */
import { Statement } from "effect/sql"

/**
 * The database a compiler writes for.
 *
 * @category models
 * @since 0.1.0
 */
export interface DialectSpec {
  /** Our dialect name, held in `Compiler.dialect` (not one of `effect/sql`'s five). */
  readonly name: "hana" | "oracle"
  /** The database's name in messages. */
  readonly displayName: string
  /** The placeholder of the `index`-th (1-based) parameter. */
  readonly placeholder: (index: number) => string
  /** The one-row table a `SELECT` without a source reads (`DUMMY`, `DUAL`). */
  readonly oneRowTable: string
  /** SQL turning a bound JSON text into the database's JSON value. */
  readonly json: (placeholder: string) => string
  /**
   * The SQL type a parameter of this kind is cast to where the statement gives it no type (the columns of
   * `sql.updateValues`' derived table).
   */
  readonly castType: (kind: ValueKind) => string
}

/**
 * What kind of JavaScript value a parameter holds, for {@link DialectSpec.castType}.
 *
 * @category models
 * @since 0.1.0
 */
export type ValueKind = "integer" | "number" | "bigint" | "string" | "boolean" | "date" | "binary"

const valueKind = (value: unknown): ValueKind | undefined => {
  switch (typeof value) {
    case "number":
      return Number.isInteger(value) ? "integer" : "number"
    case "bigint":
      return "bigint"
    case "string":
      return "string"
    case "boolean":
      return "boolean"
    default:
      return value instanceof Date ? "date" : value instanceof Uint8Array ? "binary" : undefined
  }
}

/** The kind of a column of rows: its first non-null value's, widened to `number` when integers and fractions mix. */
const columnKind = (rows: ReadonlyArray<ReadonlyArray<unknown>>, column: number): ValueKind => {
  let kind: ValueKind | undefined
  for (const row of rows) {
    const k = valueKind(row[column])
    if (k === undefined) continue
    if (kind === undefined || (kind === "integer" && k === "number")) kind = k
  }
  return kind ?? "string"
}

/**
 * The rows of a multi-record `sql.insert`: one bound parameter of the compiled statement that stands for one row of
 * values per record. The statement's SQL holds one row of placeholders; the client binds every record as one row of
 * the same execution (array DML: hdb's batch execute, oracledb's `executeMany`), so 10,000 records are one
 * statement and one round trip per driver batch instead of 10,000 statements or one giant `VALUES` list that neither
 * database accepts. The values are held column by column (what the Arrow batch binding them needs); `rows` gives them
 * row by row.
 *
 * @category models
 * @since 0.1.0
 */
export class BatchRows {
  #rows: ReadonlyArray<ReadonlyArray<unknown>> | undefined
  private constructor(
    /** One array of values per column, each `length` long. */
    readonly columns: ReadonlyArray<ReadonlyArray<unknown>>,
    /** The number of rows (records). */
    readonly length: number
  ) {}
  /** The batch of `rows` (each row one record's values, in the insert's column order). */
  static fromRows(rows: ReadonlyArray<ReadonlyArray<unknown>>): BatchRows {
    const width = rows[0]?.length ?? 0
    const columns = Array.from({ length: width }, (_, c) => rows.map((row) => row[c]))
    const batch = new BatchRows(columns, rows.length)
    batch.#rows = rows
    return batch
  }
  /** The batch of `columns` (one array of `length` values per column). */
  static fromColumns(columns: ReadonlyArray<ReadonlyArray<unknown>>, length: number): BatchRows {
    return new BatchRows(columns, length)
  }
  /** The values row by row. */
  get rows(): ReadonlyArray<ReadonlyArray<unknown>> {
    this.#rows ??= Array.from({ length: this.length }, (_, r) => this.columns.map((column) => column[r]))
    return this.#rows
  }
}

/**
 * A JSON value for `sql.json`: bound as its JSON text.
 *
 * @category models
 * @since 0.1.0
 */
export interface JsonValue extends Statement.Custom<"JsonValue", unknown> {}

/**
 * The `sql.json(value)` fragment: `value` bound as JSON text (Oracle: wrapped in `JSON(…)` so that it is a JSON value,
 * not a string).
 *
 * @category constructors
 * @since 0.1.0
 */
export const json = (value: unknown): Statement.Fragment =>
  Statement.fragment([Statement.custom<JsonValue>("JsonValue")(value, undefined, undefined)])

/**
 * Quotes an identifier exactly as given: inside double quotes, a double quote doubled; a dot separates
 * schema and object (`sql("S.T")` is `"S"."T"`). Unquoted names are upper-cased by both databases, so a table created
 * as `CREATE TABLE users` is `sql("USERS")`, and `sql("users")` names another (lower-case) table.
 *
 * @category constructors
 * @since 0.1.0
 */
export const escapeIdentifier: (name: string) => string = Statement.defaultEscape("\"")

const QUOTED = /"(?:[^"]|"")*"/g
const GROUP = /\(([^()]*)\)/g

/** The quoted column names of `("A","B")` as the compiler rendered them. */
const splitColumns = (columns: string): Array<string> => columns.match(QUOTED) ?? []

/** The placeholder groups `(?,?),(?,?)` as lists of placeholders. */
const splitGroups = (placeholders: string): Array<Array<string>> =>
  Array.from(placeholders.matchAll(GROUP), (m) => m[1]!.split(","))

const noReturning = (spec: DialectSpec, helper: string) =>
  new Error(
    `${helper} with returning is not supported on ${spec.displayName}: it updates several rows from a derived table, ` +
      `and only single-table INSERT / UPDATE / DELETE give back their rows here; select the rows after the statement`
  )

const EMPTY_IN = "(SELECT NULL WHERE 1=0)"

interface StatementLike {
  readonly segments: ReadonlyArray<Statement.Segment>
}

const readers = new Map<string, (record: Record<string, unknown>) => ReadonlyArray<unknown>>()

/** The generated reader, or undefined where the host forbids code from strings (`--disallow-code-generation-from-strings`). */
const generatedReader = (keys: ReadonlyArray<string>) => {
  try {
    return new Function("r", `return [${keys.map((k) => `r[${JSON.stringify(k)}]`).join(",")}]`) as (
      record: Record<string, unknown>
    ) => ReadonlyArray<unknown>
  } catch {
    return undefined
  }
}

/**
 * A function reading `keys` of a record into an array. Made with `new Function` so that each key is a property load
 * of its own, which V8 caches per record shape; reading a varying key (`record[key]`) takes its generic lookup, which
 * was a tenth of a 10,000-record insert's client time. Keys are JSON-quoted string literals in the generated code.
 */
const recordReader = (keys: ReadonlyArray<string>) => {
  const signature = JSON.stringify(keys)
  let read = readers.get(signature)
  if (read === undefined) {
    if (readers.size >= 256) readers.clear()
    read = generatedReader(keys) ?? ((record) => keys.map((key) => record[key]))
    readers.set(signature, read)
  }
  return read
}

/**
 * A statement holding a `sql.insert` of more than two records whose values are all plain (no `sql.json` or other
 * fragment): the same statement with the first two records (what the compiler renders), and all records' values
 * column by column, read as `effect/sql` reads them (the first record's keys, undefined as null).
 */
const manyRecordInsert = (statement: StatementLike) => {
  const segments = statement.segments
  const at = segments.findIndex((s) => s._tag === "RecordInsertHelper" && s.value.length > 2)
  if (at < 0) return undefined
  const helper = segments[at] as Statement.RecordInsertHelper
  const records = helper.value
  const keys = Object.keys(records[0]!)
  const read = recordReader(keys)
  const columns = keys.map(() => new Array<unknown>(records.length))
  for (let r = 0; r < records.length; r++) {
    const values = read(records[r]!)
    for (let c = 0; c < values.length; c++) {
      const value = values[c]
      if (typeof value === "object" && value !== null && !(value instanceof Date) && Statement.isFragment(value)) {
        return undefined
      }
      columns[c]![r] = value === undefined ? null : value
    }
  }
  const firstTwo = Object.assign(Object.create(Object.getPrototypeOf(helper)), helper, { value: records.slice(0, 2) })
  return {
    proxy: { segments: segments.map((s, i) => (i === at ? firstTwo : s)) },
    batch: BatchRows.fromColumns(columns, records.length)
  }
}

/**
 * Creates the compiler of `spec`'s database; `transform` renames identifiers (`transformQueryNames`).
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeCompiler = (spec: DialectSpec, transform?: ((name: string) => string) | undefined): Statement.Compiler => {
  const emptyIn = `(SELECT NULL FROM ${spec.oneRowTable} WHERE 1=0)`
  const base = Statement.makeCompiler<JsonValue>({
    dialect: spec.name as Statement.Dialect,
    placeholder: (index) => spec.placeholder(index),
    onIdentifier: transform
      ? (value, withoutTransform) => escapeIdentifier(withoutTransform ? value : transform(value))
      : (value) => escapeIdentifier(value),
    onInsert: (columns, placeholders, values, returning) => {
      const firstRow = placeholders.slice(0, placeholders.indexOf(")") + 1)
      const bound = values.length === 1 ? values[0]! : [BatchRows.fromRows(values)]
      // RETURNING is run by the client (Returning.ts): Oracle as RETURNING … INTO, HANA by selecting the rows back
      return returning === undefined
        ? [`(${columns.join(",")}) VALUES ${firstRow}`, bound]
        : [`(${columns.join(",")}) VALUES ${firstRow} RETURNING ${returning[0]}`, [...bound, ...returning[1]]]
    },
    onRecordUpdate: (placeholders, alias, columns, values, returning) => {
      if (returning !== undefined) throw noReturning(spec, "sql.updateValues")
      const names = splitColumns(columns)
      const types = names.map((_, i) => spec.castType(columnKind(values, i)))
      const rows = splitGroups(placeholders).map((group) =>
        `SELECT ${group.map((p, i) => `CAST(${p} AS ${types[i]}) AS ${names[i]}`).join(", ")} FROM ${spec.oneRowTable}`
      )
      return [`(${rows.join(" UNION ALL ")}) ${alias}`, values.flat()]
    },
    onCustom: (custom, placeholder) => {
      const text = JSON.stringify(custom.paramA)
      return [spec.json(placeholder(text)), [text]]
    }
  })
  const proto = Object.getPrototypeOf(base) as {
    compile: (this: Statement.Compiler, ...args: ReadonlyArray<unknown>) => readonly [string, ReadonlyArray<unknown>]
  }
  const cache = [new WeakMap<object, readonly [string, ReadonlyArray<unknown>]>(), new WeakMap<object, readonly [string, ReadonlyArray<unknown>]>()]
  const compile = function(this: Statement.Compiler, ...args: ReadonlyArray<unknown>) {
    const [statement, withoutTransform, placeholderOverride] = args as [StatementLike, boolean | undefined, unknown]
    const many = placeholderOverride === undefined ? manyRecordInsert(statement) : undefined
    if (many === undefined) return withEmptyIn(proto.compile.apply(this, [...args]))
    const cached = cache[withoutTransform ? 1 : 0]!
    const hit = cached.get(statement)
    if (hit !== undefined) return hit
    // effect/sql renders a placeholder group for every record, which the statement's SQL does not use (one row of
    // placeholders is bound as array DML): compile the statement with its first two records and bind all of them.
    const [sql, binds] = proto.compile.call(this, many.proxy, withoutTransform)
    const compiled = withEmptyIn([sql, binds.map((b) => b instanceof BatchRows ? many.batch : b)])
    cached.set(statement, compiled)
    return compiled
  }
  // `effect/sql` renders an empty `sql.in([])` as a subquery without FROM, which neither database accepts.
  const withEmptyIn = (compiled: readonly [string, ReadonlyArray<unknown>]) =>
    compiled[0].includes(EMPTY_IN) ? [compiled[0].split(EMPTY_IN).join(emptyIn), compiled[1]] as const : compiled
  return Object.assign(base, { compile })
}

/**
 * Makes `sql.onDialect` on a constructor for `spec`'s database fail with a defect naming the database: its five
 * branches are other databases' SQL, and taking any of them would run that database's SQL here.
 * `sql.onDialectOrElse` needs no change: it takes `orElse`, since no branch is named `"hana"` or `"oracle"`.
 *
 * @category constructors
 * @since 0.1.0
 */
export const guardDialect = <C extends Statement.Constructor>(sql: C, spec: DialectSpec): C =>
  Object.assign(sql, {
    onDialect: (): never => {
      throw new Error(
        `sql.onDialect has no branch for ${spec.displayName}: effect/sql's dialects are sqlite, pg, mysql, mssql and ` +
          `clickhouse; use sql.onDialectOrElse({ orElse: () => … }) for ${spec.displayName}`
      )
    }
  })
