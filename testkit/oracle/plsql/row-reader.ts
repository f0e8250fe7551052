/** Rows of a query as PL/SQL values, read one at a time (cursors, SELECT INTO, BULK COLLECT, trigger rows). */
import type { DuckDBValue } from "@duckdb/node-api"
import type { ColumnVector } from "../../engine/index.ts"
import type { QueryResult } from "../statement.ts"
import type { FromRef, RowLockClause } from "../translate-types.ts"
import type { OraType } from "../type-shapes.ts"
import type { PlsqlHost } from "./host.ts"
import { kindOfColumn, numberOfText } from "./value-kinds.ts"

/**
 * A block's query result (`claimFetchedRow`: a cursor FOR UPDATE SKIP LOCKED locks each row as it is fetched); a FOR
 * UPDATE cursor's `rowidTables` are the FROM tables whose row ids {@link RowReader.rowids} holds, in that order, and
 * `rowLock` its FOR UPDATE clause (WHERE CURRENT OF: plsql/current-of.ts).
 */
export type BlockQueryResult = QueryResult & { readonly rowidTables?: ReadonlyArray<FromRef>; readonly rowLock?: RowLockClause }

/** Rows of an open cursor, one at a time. */
export class RowReader {
  private buffered: Array<Array<DuckDBValue>> = []
  private bufferedRowids: Array<ReadonlyArray<bigint | undefined>> = []
  /** The DuckDB row id of the row {@link next} returned last, when the query selects them (QueryResult.rowidColumn). */
  rowid: bigint | undefined
  /** All the row ids the query selects for that row (a join's tables: ResultColumn.lobRowid indexes them). */
  rowids: ReadonlyArray<bigint | undefined> = []
  private done = false
  count = 0
  found: boolean | null = null
  constructor(
    readonly result: BlockQueryResult,
    private readonly host: PlsqlHost
  ) {}

  get names(): Array<string> {
    return this.result.columns.map((c) => c.name)
  }

  async next(): Promise<Array<DuckDBValue> | undefined> {
    for (;;) {
      const row = await this.nextRead()
      // SKIP LOCKED: a row another transaction holds is left out
      if (row === undefined || this.result.claimFetchedRow === undefined || (await this.result.claimFetchedRow(this.rowids))) {
        this.rowid = this.rowids[0]
        this.found = row !== undefined
        if (row !== undefined) this.count++
        return row
      }
    }
  }

  /** The next row the query read, its row ids in {@link rowids}. */
  private async nextRead(): Promise<Array<DuckDBValue> | undefined> {
    while (this.buffered.length === 0 && !this.done) {
      let chunk
      try {
        chunk = await this.result.cursor.next()
      } catch (e) {
        await this.host.statementFailed()
        throw this.host.mapError(e)
      }
      if (chunk === null) {
        this.done = true
        break
      }
      const width = this.result.columns.length
      for (let r = 0; r < chunk.rowCount; r++) this.buffered.push(chunk.columns.slice(0, width).map((c, j) => plainValue(c, r, this.result.columns[j]?.type)))
      const rowids = this.result.rowidColumn === undefined ? [] : chunk.columns.slice(this.result.rowidColumn)
      // an outer join's missing row has no row id
      for (let r = 0; r < chunk.rowCount; r++) this.bufferedRowids.push(rowids.map((c) => (c.value(r) === null ? undefined : BigInt(String(c.value(r))))))
    }
    const row = this.buffered.shift()
    this.rowids = this.bufferedRowids.shift() ?? []
    return row
  }

  /** Up to `limit` rows (BULK COLLECT); %FOUND is whether it got as many as it asked for. */
  async take(limit: number): Promise<Array<Array<DuckDBValue>>> {
    const rows: Array<Array<DuckDBValue>> = []
    while (rows.length < limit) {
      const row = await this.next()
      if (row === undefined) break
      rows.push(row)
    }
    this.found = rows.length === limit
    return rows
  }

  close(): void {
    this.result.cursor.close()
  }
}

/** Every row of a query as PL/SQL values (plsql/triggers.ts reads the rows a statement writes this way). */
export const rowsOfQuery = async (host: PlsqlHost, result: QueryResult): Promise<Array<Array<DuckDBValue>>> => {
  const reader = new RowReader(result, host)
  const rows: Array<Array<DuckDBValue>> = []
  for (let row = await reader.next(); row !== undefined; row = await reader.next()) rows.push(row)
  return rows
}

/** A generic engine value as a PL/SQL variable value (decimals become numbers when exact). */
const plainValue = (c: ColumnVector, i: number, type: OraType | undefined): DuckDBValue => {
  const v = c.value(i)
  if (v === null) return null
  // a NUMBER column in exact storage gives decimal text: a number as a NUMBER variable holds it (text in exponent
  // form, 1E-130, stays text: its double would print otherwise)
  if (typeof v === "string" && !/[eE]/.test(v) && type !== undefined && kindOfColumn(type) === "number") return numberOfText(v)
  if (c.info.layout.startsWith("decimal") && typeof v === "string") {
    const n = Number(v)
    return v.replace(/^-|\.|^0+/g, "").length <= 15 ? n : v
  }
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  return v as DuckDBValue
}

/** Whether a value is a cursor (a query's rows). */
export const isCursorValue = (v: unknown): v is QueryResult => v !== null && typeof v === "object" && "kind" in v && (v as { kind: unknown }).kind === "query"
