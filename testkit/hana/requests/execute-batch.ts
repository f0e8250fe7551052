/**
 * EXECUTE of a batch INSERT: appended straight to the table's storage, or as multi-row INSERTs; all rows or none,
 * naming the row a unique constraint rejects.
 */
import { BulkInsertError } from "../../engine/index.ts"
import type { BulkRows, Session } from "../../engine/index.ts"
import { bindTypes, stagedColumns, textForTestOnlyTypes, ticksForTimestamps } from "../binding.ts"
import { batchError, batchTarget, decodeBatch, keepBatchRows } from "../bulk-insert.ts"
import { HanaError, fromEngineError } from "../errors.ts"
import { decodeParameters } from "../params.ts"
import type { ParameterRow } from "../params.ts"
import { failedAtRow, failedRows, i32s, ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import type { StatementState } from "../statement.ts"
import type { Translated } from "../translated.ts"
import { FunctionCode, PartKind } from "../wire.ts"
import type { RequestPart } from "../wire.ts"
import type { SqlSessionState } from "../session-state.ts"
import { inTransaction } from "./transaction.ts"

/** The savepoint under which a failed batch's rows are inserted one at a time to find the rejected one. */
const REJECTED_ROW_PROBE = "__HANA_TEST_SERVER_REJECTED_ROW"

/**
 * A batch of `INSERT … VALUES (?, …)` rows decoded straight into the target columns' storage and appended in one
 * engine call (all rows or none; on error every row reports -3, EXECUTION_FAILED); undefined when some value
 * needs the general path.
 */
export const appendBatch = async (
  s: SqlSessionState,
  session: Session,
  statement: StatementState,
  insert: NonNullable<Extract<Translated, { kind: "dml" }>["insert"]>,
  params: RequestPart,
  commit: boolean
): Promise<Reply | undefined> => {
  if (statement.batchTarget === undefined) {
    statement.batchTarget = (await batchTarget(session, insert, s.schema, statement.prepared!)) ?? null
  }
  const target = statement.batchTarget
  if (target === null) return undefined
  let rows: BulkRows | undefined
  try {
    rows = decodeBatch(params.data, params.argc, target)
    if (rows === undefined) return undefined
    const bulk = rows
    await inTransaction(session, commit, () => session.appendRows(target.table, bulk), true)
    keepBatchRows(target, bulk)
  } catch (e) {
    if (e instanceof BulkInsertError) return failedAtRow(batchError(e), FunctionCode.INSERT, params.argc, e.row)
    const err = fromEngineError(e, s.schema)
    const rejected = err.code === 301 ? await rejectedRow(s, session, statement, params).catch(() => undefined) : undefined
    if (rejected !== undefined) return failedAtRow(rejected.error, FunctionCode.INSERT, params.argc, rejected.row)
    return failedRows(err, FunctionCode.INSERT, params.argc)
  }
  return ok(FunctionCode.INSERT, [{ kind: PartKind.ROWS_AFFECTED, argc: params.argc, data: i32s(Array.from({ length: params.argc }, () => 1)) }])
}

/**
 * The first row of a batch that a unique constraint rejects, and its error: the rows are inserted one at a time
 * after a savepoint that is rolled back afterwards (undefined when no row fails on its own). HANA names that row:
 * its reply marks it EXECUTION_FAILED (-3) in ROWS_AFFECTED, and a client pairs the n-th error of the ERROR part
 * with the n-th such row (SAP/go-hdb driver/internal/protocol/protocol.go, "link statement to error").
 */
const rejectedRow = async (s: SqlSessionState, session: Session, statement: StatementState, params: RequestPart): Promise<{ row: number; error: HanaError } | undefined> => {
  const types = statement.parameterTypes
  const rows = decodeParameters(params.data, params.argc, types.length, types.map((p) => Math.max(p.scale, 0)))
  if (statement.prepared === undefined || rows.some((r) => r.pendingLobs.length > 0)) return undefined
  textForTestOnlyTypes(rows, types)
  ticksForTimestamps(rows, statement.prepared)
  const startedHere = !session.inTransaction
  if (startedHere) await session.begin()
  session.savepoint(REJECTED_ROW_PROBE)
  try {
    for (let row = 0; row < rows.length; row++) {
      const values = rows[row]!.values
      try {
        await statement.prepared.run(values, bindTypes(values))
      } catch (e) {
        return { row, error: fromEngineError(e, s.schema) }
      }
    }
    return undefined
  } finally {
    if (startedHere) await session.rollback()
    else {
      await session.rollbackToSavepoint(REJECTED_ROW_PROBE)
      session.releaseSavepoint(REJECTED_ROW_PROBE)
    }
  }
}

/**
 * A batch of `INSERT … VALUES (?, …)` rows as multi-row INSERTs (one engine call per up to ~2000 values), in one
 * transaction: all rows or none (on error every row reports -3, EXECUTION_FAILED).
 */
export const batchInsert = async (s: SqlSessionState, session: Session, statement: StatementState, prefix: string, rows: readonly ParameterRow[], commit: boolean): Promise<Reply> => {
  const count = statement.parameterTypes.length
  const staged = stagedColumns(rows, count)
  if (staged !== undefined) {
    try {
      await inTransaction(session, commit, () => session.bulkInsert(prefix, staged), true)
    } catch (e) {
      const err = fromEngineError(e, s.schema)
      return failedRows(err, FunctionCode.INSERT, rows.length)
    }
    return ok(FunctionCode.INSERT, [{ kind: PartKind.ROWS_AFFECTED, argc: rows.length, data: i32s(rows.map(() => 1)) }])
  }
  const perStatement = Math.max(1, Math.floor(2048 / count))
  const rowSql = `(${Array.from({ length: count }, () => "?").join(", ")})`
  try {
    await inTransaction(session, commit, async () => {
      for (let start = 0; start < rows.length; start += perStatement) {
        const slice = rows.slice(start, start + perStatement)
        let prepared = statement.batches.get(slice.length)
        if (prepared === undefined) {
          prepared = await session.prepare(`${prefix} VALUES ${Array.from({ length: slice.length }, () => rowSql).join(", ")}`)
          statement.batches.set(slice.length, prepared)
        }
        const values = slice.flatMap((r) => r.values)
        await prepared.run(values, bindTypes(values))
      }
    }, true)
  } catch (e) {
    const err = fromEngineError(e, s.schema)
    return failedRows(err, FunctionCode.INSERT, rows.length)
  }
  return ok(FunctionCode.INSERT, [{ kind: PartKind.ROWS_AFFECTED, argc: rows.length, data: i32s(rows.map(() => 1)) }])
}
