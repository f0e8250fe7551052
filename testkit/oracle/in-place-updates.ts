/**
 * UPDATEs and MERGEs of a table with an index (a primary or unique key is one) written in place, as Oracle writes them:
 * a row keeps its ROWID when an UPDATE changes it (Database Concepts, "Rowid Data Types"), and a parent row that child
 * rows reference may be updated as long as its referenced key keeps its value; ORA-02292 is for deleting a parent key
 * or changing it while children reference it (SQL Language Reference, "constraint", references clause; Database Error
 * Messages, ORA-02292).
 *
 * DuckDB (1.5) writes an UPDATE of a table with any index as a delete and an insert (new row ids, and a parent row with
 * children fails its foreign key check) when the statement has a RETURNING clause or its SET names an indexed column
 * (indexed-columns.ts), also to its own value; on a table without an index RETURNING does not. So an UPDATE returning
 * values or assigning an indexed column is run in parts: a query first finds the rows it changes and whether each keeps
 * the values of the indexed columns it is assigned; the rows keeping them are updated by row id without those columns
 * (in place) and their RETURNING values read after by row id; the rows where one really changes are updated with every
 * assignment and their own RETURNING (the engine's checks then fail a key's change as Oracle's would: ORA-02292 with
 * children, ORA-00001 on a duplicate; a changed non-key indexed column of a parent with children fails ORA-02292 too,
 * a DuckDB limitation). When both kinds of rows are written, a SET clause reading other rows of the table in a subquery
 * sees the first part's writes. A MERGE returning the keys it writes runs without RETURNING: the keys of the rows it
 * inserted, which alone have row ids above the highest the table had before it (the engine numbers a transaction's new
 * rows upwards and never reuses a number), are read after it.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Session as EngineSession } from "../engine/index.ts"
import { duckIdent } from "./names.ts"
import { isVolatileSql, type ReplayInsert } from "./volatile-inserts.ts"
import { type Assignment, readAll, readByRowIds, renumbered, rowIdLists, splitReturning, updateParts, writeParts } from "./volatile-updates.ts"

/** An UPDATE taken apart for {@link runInPlaceUpdate}. */
export interface InPlaceUpdate {
  readonly target: string
  readonly assignments: ReadonlyArray<Assignment>
  readonly where: string | undefined
  /** The RETURNING list (engine text), undefined for none. */
  readonly returning: string | undefined
  /** The assignments of indexed columns (keys included). */
  readonly keys: ReadonlyArray<Assignment>
}

/** What a write in place did: rows changed, the RETURNING rows, the statements for the replay log. */
export interface InPlaceOutcome {
  readonly count: number
  readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  readonly replay: ReadonlyArray<ReplayInsert>
}

/**
 * The UPDATE `sql` (translated, with its RETURNING clause if any) of a table whose indexed columns are `keyColumns`
 * (Oracle names, keys included: indexed-columns.ts), when the engine would not write it in place as it stands (it
 * returns values or assigns an indexed column); undefined for other statements, other forms and volatile ones
 * (volatile-updates.ts writes those by row id).
 */
export const inPlaceUpdate = (sql: string, keyColumns: ReadonlyArray<string>): InPlaceUpdate | undefined => {
  if (isVolatileSql(sql)) return undefined
  const parts = updateParts(sql)
  if (parts === undefined) return undefined
  const keys = parts.assignments.filter((a) => keyColumns.includes(a.name))
  return keys.length === 0 && parts.returning === undefined ? undefined : { ...parts, keys }
}

/** `c = e, ...` of `assignments`. */
const setList = (assignments: ReadonlyArray<Assignment>): string => assignments.map((a) => `${a.column} = ${a.expr}`).join(", ")

/**
 * Runs the UPDATE `plan` (from {@link inPlaceUpdate}) with `params`, writing in place every row whose indexed values
 * stay; `readKept` false leaves out the RETURNING rows of those (a caller that knows them: the keys they kept).
 */
export const runInPlaceUpdate = async (engine: EngineSession, plan: InPlaceUpdate, params: ReadonlyArray<DuckDBValue> | undefined, readKept = true): Promise<InPlaceOutcome> => {
  const where = plan.where === undefined ? "" : ` WHERE ${plan.where}`
  const stays = plan.keys.length === 0 ? "TRUE" : plan.keys.map((a) => `(${a.expr}) IS NOT DISTINCT FROM ${a.column}`).join(" AND ")
  const find = renumbered(`SELECT rowid, ${stays} FROM ${plan.target}${where}`, params, undefined)
  const found = (await readAll(engine, find.sql, find.params)).rows
  const kept = found.filter((row) => row[1] === true).map((row) => String(row[0]))
  const moved = found.filter((row) => row[1] !== true).map((row) => String(row[0]))
  // one kind of row alone is found again by the statement's own condition; both, each by its row ids
  const matching = (ids: ReadonlyArray<string>) => (ids.length === found.length ? [where] : rowIdLists(ids).map((list) => ` WHERE rowid IN (${list})`))
  const rows: Array<ReadonlyArray<DuckDBValue>> = []
  const replay: Array<ReplayInsert> = []
  const run = async (sql: string, returning: boolean) => {
    const q = renumbered(sql, params, undefined)
    if (returning) rows.push(...(await readAll(engine, q.sql, q.params)).rows)
    else await engine.execute(q.sql, q.params)
    replay.push({ sql: q.sql, params: q.params, types: undefined })
  }
  const others = plan.assignments.filter((a) => !plan.keys.includes(a))
  if (kept.length > 0 && others.length > 0) for (const condition of matching(kept)) await run(`UPDATE ${plan.target} SET ${setList(others)}${condition}`, false)
  if (plan.returning !== undefined && kept.length > 0 && readKept) rows.push(...(await readByRowIds(engine, plan.target, plan.returning, kept)))
  const returning = plan.returning === undefined ? "" : ` RETURNING ${plan.returning}`
  if (moved.length > 0) for (const condition of matching(moved)) await run(`UPDATE ${plan.target} SET ${setList(plan.assignments)}${condition}${returning}`, plan.returning !== undefined)
  return { count: found.length, rows, replay }
}

/**
 * The MERGE `sql` (translated, with its RETURNING clause of key columns) split into the statement without it and the
 * table it writes; undefined for other statements, forms and volatile ones.
 */
export const mergeWritingKeys = (sql: string): { readonly merge: string; readonly table: string } | undefined => {
  if (isVolatileSql(sql)) return undefined
  const { body } = splitReturning(sql)
  const parts = writeParts(body)
  return parts?.kind === "merge" ? { merge: body, table: parts.table } : undefined
}

/** Runs the MERGE `merge` of `table` with `params` in place, returning the key columns `keyColumns` of the rows it inserted. */
export const runMergeWritingKeys = async (
  engine: EngineSession,
  write: { readonly merge: string; readonly table: string },
  keyColumns: ReadonlyArray<string>,
  params: ReadonlyArray<DuckDBValue> | undefined
): Promise<InPlaceOutcome> => {
  const before = (await engine.queryAll(`SELECT coalesce(max(rowid), -1) FROM ${write.table}`))[0]![0] as DuckDBValue
  const count = await engine.execute(write.merge, params)
  const rows = await engine.queryAll(`SELECT ${keyColumns.map(duckIdent).join(", ")} FROM ${write.table} WHERE rowid > $1`, [before])
  return { count, rows: rows as Array<Array<DuckDBValue>>, replay: [{ sql: write.merge, params: params ?? [], types: undefined }] }
}
