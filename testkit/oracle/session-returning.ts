/**
 * `INSERT / UPDATE / DELETE ... RETURNING exprs INTO :binds`: the statement run once per bind row with DuckDB's
 * RETURNING, the returned values collected per OUT bind, and the rows of returned LOBs (returning-lobs.ts).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Session as EngineSession } from "../engine/index.ts"
import type { TableMeta } from "./catalog.ts"
import { inPlaceUpdate, runInPlaceUpdate } from "./in-place-updates.ts"
import { splitTopLevel } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import type { OraError } from "./errors.ts"
import { isPlainColumn, returningLobPlan } from "./returning-lobs.ts"
import type { SessionTransaction } from "./session-transaction.ts"
import type { TranslatedStatement } from "./session-translate.ts"
import type { DmlResult } from "./statement.ts"
import { replayInserts, volatileInsertTarget } from "./volatile-inserts.ts"
import { runVolatileWrite, volatileWrite } from "./volatile-updates.ts"

/** What a RETURNING statement needs from its session. */
export interface ReturningHost {
  readonly engine: EngineSession
  readonly txn: SessionTransaction
  /** The keys the statement claims (session-key-claims.ts): their columns are returned too. */
  readonly keys: {
    readonly returnedColumns: ReadonlyArray<string> | undefined
    noteReturned(rows: ReadonlyArray<ReadonlyArray<unknown>>): void
    /** The columns of a table some DuckDB index covers (indexed-columns.ts). */
    indexedColumnsOf(meta: TableMeta | undefined): ReadonlyArray<string>
  }
  mapError(e: unknown): OraError
}

/** DML ... RETURNING exprs INTO :binds of `target`, executed per bind row with DuckDB's RETURNING. */
export const dmlReturning = async (
  host: ReturningHost,
  target: TableMeta | undefined,
  t: TranslatedStatement,
  ret: { at: number; into: number; outs: number },
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
): Promise<DmlResult> => {
  const { engine, txn } = host
  const nIn = t.binds.length - ret.outs
  const plan = returningLobPlan(t.toks, t.toks.slice(ret.at + 1, ret.into), target)
  const keyColumns = host.keys.returnedColumns ?? []
  const keyAt = ret.outs + (plan?.extraCount ?? 0)
  // an INSERT computing NEXTVAL, SYSDATE, ... returns its whole rows too, which the replay log writes again
  const volatileTarget = volatileInsertTarget(t.text(0, ret.at))
  // an UPDATE computing them is written by row id (volatile-updates.ts), returning from those writes
  const write = volatileTarget === undefined ? volatileWrite(t.text(0, ret.at)) : undefined
  const volatileUpdate = write?.kind === "update" ? write : undefined
  const returningList = `${t.text(ret.at + 1, ret.into)}${plan?.extraReturning ?? ""}${keyColumns.map((c) => `, ${duckIdent(c)}`).join("")}`
  const sql = `${t.text(0, ret.at)} RETURNING ${returningList}${volatileTarget === undefined ? "" : ", *"}`
  // an UPDATE of a table with an index (a key's too) writes in place, returning values read by row id, every
  // indexed column left out where it keeps its value (in-place-updates.ts); without any, the engine writes in place
  const indexed = host.keys.indexedColumnsOf(target)
  const inPlace = indexed.length === 0 || volatileTarget !== undefined ? undefined : inPlaceUpdate(sql, indexed)
  const wholeAt = keyAt + keyColumns.length
  const returned: Array<Array<unknown>> = Array.from({ length: ret.outs }, () => [])
  const lobs = plan?.columns.map((source) => (source === undefined ? undefined : { source, rowids: new Array<bigint>() }))
  let total = 0
  const perRow: Array<number> = []
  await txn.begin()
  for (const row of rows.length === 0 ? [[]] : rows) {
    const params = row.slice(0, nIn)
    try {
      const extras: Array<Array<unknown>> = []
      const keys: Array<Array<unknown>> = []
      const take = (value: (column: number) => unknown) => {
        for (let k = 0; k < ret.outs; k++) returned[k]!.push(value(k) ?? null)
        extras.push(Array.from({ length: plan?.extraCount ?? 0 }, (_, k) => value(ret.outs + k) ?? null))
        if (keyColumns.length > 0) keys.push(keyColumns.map((_, k) => value(keyAt + k) ?? null))
      }
      const written =
        volatileUpdate !== undefined ? await runVolatileWrite(engine, volatileUpdate, params, undefined, returningList, indexed) : inPlace !== undefined ? await runInPlaceUpdate(engine, inPlace, params) : undefined
      if (written !== undefined) {
        for (const row of written.rows) take((k) => row[k])
        for (const entry of written.replay) txn.push(entry)
      } else {
        const cursor = await engine.query(sql, params)
        const whole: Array<Array<DuckDBValue>> = []
        for (let c = await cursor.next(); c !== null; c = await cursor.next()) {
          for (let i = 0; i < c.rowCount; i++) {
            if (volatileTarget !== undefined) whole.push(c.columns.slice(wholeAt).map((v) => v.value(i) as DuckDBValue))
            take((k) => c.columns[k]?.value(i))
          }
        }
        if (volatileTarget === undefined) txn.push({ sql, params, types: undefined })
        else for (const entry of replayInserts(volatileTarget, cursor.columns.slice(wholeAt), whole)) txn.push(entry)
      }
      // the rows written: one returned row each, but one row for them all when RETURNING aggregates them
      total += written?.count ?? extras.length
      perRow.push(extras.length)
      host.keys.noteReturned(keys)
      if (plan !== undefined && extras.length > 0) {
        const rowids = await plan.rowIds((q, p) => engine.queryAll(q, p).then((r) => r.map((x) => BigInt(String(x[0])))), extras)
        for (const l of lobs ?? []) l?.rowids.push(...rowids)
      }
    } catch (e) {
      await txn.recover()
      throw host.mapError(e)
    }
  }
  // a computed LOB is a temporary LOB, as Oracle's SQL functions return one (returning-lobs.ts isPlainColumn)
  const temporary = splitTopLevel(t.toks.slice(ret.at + 1, ret.into)).map((e) => !isPlainColumn(e))
  return {
    kind: "dml",
    rowCount: total,
    rowCounts: [],
    batchErrors: [],
    returning: returned,
    ...(perRow.length > 1 ? { returningPerRow: perRow } : {}),
    ...(lobs !== undefined ? { returningLobs: lobs } : {}),
    ...(temporary.some((x) => x) ? { returningTemporary: temporary } : {})
  }
}
