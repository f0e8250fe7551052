/**
 * executeMany's bulk paths for one session: bind rows appended column-wise (bulk-insert.ts targets), or inserted as
 * one `INSERT ... SELECT` over unnested JSON columns, a failing batch bisected down to its failing rows (their
 * offsets reported as Oracle reports them, with or without batchErrors).
 */
import { DuckDBBlobValue, DuckDBListValue, DuckDBTimestampNanosecondsValue, DuckDBTimestampTZValue, DuckDBTimestampValue } from "@duckdb/node-api"
import type { DuckDBValue } from "@duckdb/node-api"
import type { AppendTarget, BulkRows, Session as EngineSession } from "../engine/index.ts"
import { type BatchTarget, type BatchTargets, bulkRowsOfBinds } from "./bulk-insert.ts"
import type { TableMeta } from "./catalog.ts"
import type { DatetimeBindTexts } from "./datetime-bind-texts.ts"
import { OraError } from "./errors.ts"
import { anyIntervalBinds } from "./intervals.ts"
import { keyedTable } from "./key-locks.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import type { KeyClaims } from "./session-key-claims.ts"
import type { SessionTransaction } from "./session-transaction.ts"
import type { TranslatedStatement } from "./session-translate.ts"
import { type BindSpec, classify, type DmlResult, type ExecuteOptions, returningClause, stripTerminator } from "./statement.ts"

/** What the bulk paths need from their session. */
export interface ExecuteManyHost {
  readonly engine: EngineSession
  readonly txn: SessionTransaction
  readonly keys: KeyClaims
  readonly batchTargets: BatchTargets
  mapError(e: unknown): OraError
  translate(sql: string, specs?: ReadonlyArray<BindSpec>): TranslatedStatement
  /** The table an INSERT / UPDATE / DELETE / MERGE writes, when the catalog knows it. */
  targetOf(toks: ReadonlyArray<Tok>): TableMeta | undefined
  /** The texts datetime binds written into character columns get, in the session's formats as they are now. */
  datetimeBindTexts(): DatetimeBindTexts
}

/** One session's executeMany bulk paths. */
export class ExecuteMany {
  constructor(private readonly host: ExecuteManyHost) {}

  /**
   * Several bind rows of a translated statement through a bulk path (an append, or one INSERT ... SELECT with
   * bisection on failure); undefined, with nothing written, when the statement needs the row-by-row path.
   */
  async bulk(sql: string, t: TranslatedStatement, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<DmlResult | undefined> {
    const nBinds = t.binds.length
    // all rows or none, so a success has no batch errors
    const appended = await this.appendBinds(t, rows, specs)
    if (appended !== undefined) return { kind: "dml", rowCount: appended, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
    if (!opts.batchErrors) {
      const bulk = this.bulkInsert(t.toks, t.text, nBinds)
      if (bulk !== undefined) {
        // one VARCHAR parameter per bind column holding a JSON array: DuckDB's JSON reader turns it into a list
        // far faster than binding list values element by element
        const params: Array<DuckDBValue> = []
        const exprs: Array<string> = []
        for (let b = 0; b < nBinds; b++) {
          const col = jsonColumn(rows, b)
          params.push(col.json)
          exprs.push(col.expr(`$${b + 1}`))
        }
        try {
          const n = await this.host.keys.runInsert(bulk(exprs), params)
          return { kind: "dml", rowCount: n, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
        } catch (e) {
          if (!(e instanceof OraError)) throw e
        }
        // locate the failing row by bisection with bulk inserts; rows before it stay inserted, as in Oracle
        const inserted = await this.bisectInsert(sql, rows, specs, (offset, err) => {
          ;(err as OraError & { rowOffset?: number }).rowOffset = offset
          throw err
        })
        return { kind: "dml", rowCount: inserted, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
      }
    }
    if (opts.batchErrors && !opts.dmlRowCounts && this.bulkInsert(t.toks, t.text, nBinds) !== undefined) {
      // batch errors: chunks inserted whole, a failing chunk bisected down to its failing rows, each reported alone
      // with its own error (a row-by-row insert would also be far slower for large requests)
      const errors: Array<{ offset: number; error: OraError }> = []
      const inserted = await this.bisectInsert(sql, rows, specs, (offset, error) => errors.push({ offset, error }))
      // a failed attempt can leave DuckDB's transaction aborted: roll back to the statements and chunks that succeeded
      if (errors.length > 0) await this.host.txn.recover()
      return { kind: "dml", rowCount: inserted, rowCounts: [], batchErrors: errors }
    }
    return undefined
  }

  /**
   * Inserts `rows` in bulk chunks, a failing chunk bisected down to its failing rows, each handed to `failed` (which
   * may throw to stop); returns the rows inserted.
   */
  private async bisectInsert(
    sql: string,
    rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
    specs: ReadonlyArray<BindSpec>,
    failed: (offset: number, error: OraError) => void
  ): Promise<number> {
    let inserted = 0
    const bisect = async (lo: number, hi: number): Promise<void> => {
      try {
        inserted += (await this.bulkChunk(sql, rows.slice(lo, hi), specs)) ?? 0
      } catch (e) {
        if (hi - lo === 1) return failed(lo, this.host.mapError(e))
        const mid = (lo + hi) >> 1
        await bisect(lo, mid)
        await bisect(mid, hi)
      }
    }
    await bisect(0, rows.length)
    return inserted
  }

  /**
   * For `INSERT ... VALUES (...)` with binds: inserts a chunk of bind rows through the bulk path and returns the
   * number of rows inserted; undefined when the statement cannot take the bulk path. Failures are ORA- errors
   * (the transaction is restored first). `specs` are the binds' metadata (see the session's `translate`).
   */
  async bulkChunk(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs?: ReadonlyArray<BindSpec>): Promise<number | undefined> {
    if (classify(sql) !== "dml" || anyIntervalBinds(rows)) return undefined
    const t = this.host.translate(stripTerminator(sql), specs)
    if (!isKw(t.toks[0], "INSERT") || returningClause(t.toks) !== undefined) return undefined
    const nBinds = t.binds.length
    const bulk = this.bulkInsert(t.toks, t.text, nBinds)
    const write = async (): Promise<number | undefined> => {
      const appended = await this.appendBinds(t, rows, specs ?? [])
      if (appended !== undefined || bulk === undefined) return appended
      const params: Array<DuckDBValue> = []
      const exprs: Array<string> = []
      for (let b = 0; b < nBinds; b++) {
        const col = jsonColumn(rows, b)
        params.push(col.json)
        exprs.push(col.expr(`$${b + 1}`))
      }
      return this.host.keys.runInsert(bulk(exprs), params)
    }
    const keyed = keyedTable(this.host.targetOf(t.toks))
    return keyed === undefined ? write() : this.host.keys.claiming(keyed, write, false)
  }

  /**
   * executeMany's fast path: `INSERT INTO t [(columns)] VALUES (:1, …, :n)` with one bind per target column is
   * appended column-wise (`Session.appendRows`); undefined, with nothing written, when the statement or a value needs
   * the general path (which then also reports any error with its row offset).
   */
  private async appendBinds(t: TranslatedStatement, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>): Promise<number | undefined> {
    const target = await this.host.batchTargets.of(t)
    if (target === undefined) return undefined
    const bulk = bulkRowsOfBinds(rows, target.columns, target.zoned, specs, target.fractions, target.padded, target.character, this.host.datetimeBindTexts())
    if (bulk === undefined) return undefined
    return this.appendBulk(target.table, bulk)
  }

  /**
   * The append target of an executeMany INSERT (bulk-insert.ts {@link BatchTargets}), for bind rows decoded straight
   * into {@link BulkRows} while the request arrives; undefined when the statement needs the general path.
   */
  async appendTargetOf(sql: string): Promise<BatchTarget | undefined> {
    if (classify(sql) !== "dml") return undefined
    const t = this.host.translate(stripTerminator(sql))
    if (!isKw(t.toks[0], "INSERT") || returningClause(t.toks) !== undefined) return undefined
    return this.host.batchTargets.of(t)
  }

  /**
   * Appends rows laid out for an append target inside the transaction (logged for statement-level recovery); on a
   * failure the transaction is restored and undefined returned (the general path then reports the error).
   */
  async appendBulk(table: string | AppendTarget, bulk: BulkRows): Promise<number | undefined> {
    const { engine, txn, keys } = this.host
    const append = async (): Promise<number | undefined> => {
      await txn.begin()
      try {
        // the log keeps the sealed rows, not `bulk`: its caller may reuse those buffers once this resolves
        const rows = bulk.seal()
        const n = await engine.appendRows(table, rows)
        txn.push({ sql: "", params: undefined, types: undefined, append: { table, rows } })
        keys.noteBulk(bulk)
        return n
      } catch {
        await txn.recover()
        return undefined
      }
    }
    // tables with keys are appended through staging, by their INSERT's table text (BatchTargets)
    const keyed = this.host.batchTargets.keyedTableOf(table)
    return keyed === undefined ? append() : keys.claiming(keyed, append, false)
  }

  /** INSERT INTO t [(cols)] VALUES (exprs) -> INSERT ... SELECT over unnest()ed bind columns, or undefined. */
  private bulkInsert(toks: ReadonlyArray<Tok>, text: (a: number, b: number) => string, nBinds: number): ((exprs: ReadonlyArray<string>) => string) | undefined {
    const valuesAt = toks.findIndex((x) => isKw(x, "VALUES"))
    // an INSERT's VALUES, not a MERGE's WHEN NOT MATCHED THEN INSERT ... VALUES (...)
    if (!isKw(toks[0], "INSERT") || valuesAt < 0 || nBinds === 0 || !isOp(toks[valuesAt + 1], "(")) return undefined
    const close = matchParen(toks, valuesAt + 1)
    if (close !== toks.length - 1) return undefined
    const head = text(0, valuesAt)
    // re-render the VALUES expressions with bind k -> column p<k> of the unnest subquery
    const inner = text(valuesAt + 2, close).replace(/\$(\d+)/g, (_, d: string) => `"p${d}"`)
    return (exprs) => `${head} SELECT ${inner} FROM (SELECT ${exprs.map((e, k) => `${e} AS "p${k + 1}"`).join(", ")})`
  }
}

/** The class of a bind column's non-null values, which decides how its JSON array is unnested. */
type BindColumnKind = "number" | "string" | "boolean" | "timestamp" | "timestamp_ns" | "timestamptz" | "blob" | "list" | "other"

/** A bind column as one JSON array parameter and the SQL expression that unnests it with the right type. */
const jsonColumn = (rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, b: number): { json: string; expr: (p: string) => string } => {
  const n = rows.length
  const values: Array<unknown> = new Array(n)
  let kind: BindColumnKind | "null" = "null"
  let mixed = false
  for (let i = 0; i < n; i++) {
    const v = rows[i]![b] ?? null
    if (v === null) {
      values[i] = null
      continue
    }
    // the cell's class (a string constant: nothing allocated per cell) and its JSON value
    let cell: BindColumnKind
    const t = typeof v
    if (t === "number" || t === "string" || t === "boolean") {
      cell = t
      values[i] = v
    } else if (v instanceof DuckDBTimestampValue) {
      cell = "timestamp"
      values[i] = v.micros
    } else if (v instanceof DuckDBTimestampNanosecondsValue) {
      cell = "timestamp_ns"
      values[i] = v.nanos
    } else if (v instanceof DuckDBTimestampTZValue) {
      cell = "timestamptz"
      values[i] = v.micros
    } else if (v instanceof DuckDBListValue) {
      cell = "list"
      values[i] = v.items
    } else if (v instanceof DuckDBBlobValue) {
      cell = "blob"
      values[i] = Buffer.from(v.bytes).toString("hex")
    } else {
      cell = "other"
      values[i] = String(v)
    }
    if (kind === "null") kind = cell
    else if (kind !== cell) mixed = true
  }
  if (mixed) {
    // e.g. NUMBER binds where some values need exact decimal text: send everything as text
    for (let i = 0; i < n; i++) {
      const v = values[i]
      if (v !== null && typeof v !== "string") values[i] = String(rows[i]![b])
    }
    kind = "string"
  }
  // microseconds beyond 2^53 (before 1685, after 2255) are no JS numbers: bigints are written as JSON integers
  const json = kind === "timestamp" || kind === "timestamp_ns" || kind === "timestamptz" ? `[${values.map((v) => (v === null ? "null" : String(v))).join(",")}]` : JSON.stringify(values)
  const list = (t: string) => (p: string) => `unnest(CAST(CAST(${p} AS JSON) AS ${t}[]))`
  switch (kind) {
    case "number":
      // integers as BIGINT: their text in a NUMBER column without precision (decimal text) is canonical ("500",
      // where a DOUBLE would give "500.0" and a key 500 would not clash with it)
      return { json, expr: list(values.every((v) => v === null || Number.isSafeInteger(v)) ? "BIGINT" : "DOUBLE") }
    case "boolean":
      return { json, expr: list("BOOLEAN") }
    case "timestamp":
      return { json, expr: (p) => `make_timestamp(${list("BIGINT")(p)})` }
    case "timestamp_ns":
      return { json, expr: (p) => `make_timestamp_ns(${list("BIGINT")(p)})` }
    case "timestamptz":
      return { json, expr: (p) => `CAST(make_timestamp(${list("BIGINT")(p)}) AS TIMESTAMPTZ)` }
    case "blob":
      return { json, expr: (p) => `unhex(${list("VARCHAR")(p)})` }
    case "list":
      return { json, expr: list("DOUBLE[]") }
    case "other":
      return { json, expr: (p) => `CAST(${list("VARCHAR")(p)} AS INTERVAL)` }
    default:
      return { json, expr: list("VARCHAR") }
  }
}
