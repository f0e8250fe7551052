/**
 * EXECUTE of a prepared statement: one parameter row or a batch, with the row and key locks it takes, a procedure
 * CALL, or an execution waiting for its LOB data.
 */
import { timed } from "../../common/stats.ts"
import type { Session } from "../../engine/index.ts"
import { bindTypes, textForTestOnlyTypes, ticksForTimestamps, truncateToDeclared } from "../binding.ts"
import { HanaError, fromEngineError } from "../errors.ts"
import { decodeParameters } from "../params.ts"
import type { ParameterRow, PendingLob } from "../params.ts"
import type { ProcedureStatement } from "../procedures/definition.ts"
import { procedureReply } from "../procedures/requests.ts"
import { errorPart, failedRows, i32s, ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import type { StatementState } from "../statement.ts"
import { FunctionCode, MalformedPacket, PartKind, SegmentKind, requestPart } from "../wire.ts"
import type { ReplyPart, Request } from "../wire.ts"
import * as crypto from "node:crypto"
import type { SqlSessionState } from "../session-state.ts"
import { appendBatch, batchInsert } from "./execute-batch.ts"
import { procedureHost } from "./procedure-host.ts"
import { outcomeReply } from "./result-sets.ts"
import { sessionCommand } from "./session-command.ts"
import { inTransaction, runDdl, runDdlStatement } from "./transaction.ts"

/** True when a reply reports a failure (its statement wrote nothing). */
const failedReply = (reply: Reply | undefined): boolean => reply === undefined || reply.kind === SegmentKind.ERROR

/** The savepoint a batch INSERT taking key locks row by row is undone to when one of its rows fails. */
const KEYED_BATCH = "__HANA_TEST_SERVER_KEYED_BATCH"

/** EXECUTE of a prepared statement; a batch is counted (and timed) in the server's insert stats. */
export const execute = async (s: SqlSessionState, session: Session, request: Request): Promise<Reply | undefined> => {
  const rows = requestPart(request, PartKind.PARAMETERS)?.argc ?? 0
  if (rows <= 1) return executeStatement(s, session, request)
  s.ctx.stats.insertCalls++
  s.ctx.stats.insertRows += rows
  return timed(s.ctx.stats, "insert", () => executeStatement(s, session, request))
}

const executeStatement = async (s: SqlSessionState, session: Session, request: Request): Promise<Reply | undefined> => {
  const idPart = requestPart(request, PartKind.STATEMENT_ID)
  if (idPart === undefined || idPart.data.length < 8) throw new MalformedPacket("STATEMENT_ID part missing")
  const statement = s.statements.get(idPart.data.readBigUInt64LE(0))
  if (statement === undefined) throw HanaError.invalidStatement()
  if (statement.procedure !== undefined) return executeProcedure(s, session, statement, statement.procedure, request)
  const t = statement.translated
  if (t.kind !== "query" && t.kind !== "dml" && t.kind !== "ddl") return sessionCommand(s, session, t, request.commit)
  if (t.kind === "ddl") {
    await runDdl(s, session, request.commit, () => runDdlStatement(session, t))
    return ok(FunctionCode.DDL)
  }
  const paramsPart = requestPart(request, PartKind.PARAMETERS)
  const count = statement.parameterTypes.length
  // an INSERT into a keyed table inside a transaction (or while another transaction holds keys of it) locks its keys
  const keys = t.kind === "dml" && t.lockKeys !== undefined && (await s.rowLocks.insertTakesKeys(t.lockKeys, request.commit)) ? t.lockKeys : undefined
  const decode = () =>
    count === 0 || paramsPart === undefined
      ? [{ values: [], pendingLobs: [] } as ParameterRow]
      : decodeParameters(paramsPart.data, paramsPart.argc, count, statement.parameterTypes.map((p) => Math.max(p.scale, 0)))
  const batchKeys = keys !== undefined && t.kind === "dml" && t.insert !== undefined && paramsPart !== undefined && paramsPart.argc > 1 ? keys : undefined
  if (t.kind === "dml" && t.insert !== undefined && paramsPart !== undefined && paramsPart.argc > 1 && count > 0) {
    const insert = t.insert
    const append = () => appendBatch(s, session, statement, insert, paramsPart, request.commit)
    // the keys as the table holds them: a TIMESTAMP as its ticks (longdate.ts)
    const keyRows = () => {
      const decoded = decode()
      ticksForTimestamps(decoded, statement.prepared)
      return decoded.map((r) => r.values)
    }
    const reply = batchKeys === undefined ? await append() : await s.rowLocks.runInsertBatch(batchKeys, keyRows(), append, failedReply)
    if (reply !== undefined) return reply
  }
  const rows = decode()
  textForTestOnlyTypes(rows, statement.parameterTypes)
  truncateToDeclared(rows, statement.parameterTypes)
  ticksForTimestamps(rows, statement.prepared)
  const prepared = statement.prepared!
  if (t.kind === "query") {
    const row = rows[0]!
    const outcome = await inTransaction(session, request.commit, () =>
      s.rowLocks.run(t.lockRows, row.values, () => prepared.run(row.values, bindTypes(row.values)))
    )
    return outcomeReply(s, session, t, outcome, statement, request)
  }
  if (t.insert !== undefined && rows.length > 1 && count > 0 && rows.every((r) => r.pendingLobs.length === 0)) {
    const prefix = t.insert.prefix
    const insert = () => batchInsert(s, session, statement, prefix, rows, request.commit)
    return batchKeys === undefined ? insert() : s.rowLocks.runInsertBatch(batchKeys, rows.map((r) => r.values), insert, failedReply)
  }
  // DML: one engine execution per parameter row; hdb reads one ROWS_AFFECTED entry per row.
  const affected: number[] = []
  let pendingRow: ParameterRow | undefined
  // a batch INSERT taking key locks fails as a whole, as the batch paths do
  const wholeBatch = keys !== undefined && rows.length > 1
  try {
    await inTransaction(session, request.commit && !rows.some((r) => r.pendingLobs.length > 0), async () => {
      if (wholeBatch) session.savepoint(KEYED_BATCH)
      for (const row of rows) {
        if (row.pendingLobs.length > 0) {
          pendingRow = row
          break
        }
        const outcome = await s.rowLocks.runInsert(t.lockKeys, row.values, () =>
          s.rowLocks.run(t.lockRows, row.values, () => prepared.run(row.values, bindTypes(row.values)))
        )
        affected.push(outcome.kind === "changed" ? outcome.rowsAffected : 0)
      }
      if (wholeBatch) session.releaseSavepoint(KEYED_BATCH)
    }, rows.length > 1)
  } catch (e) {
    const err = fromEngineError(e, s.schema)
    if (wholeBatch && session.inTransaction) {
      await session.rollbackToSavepoint(KEYED_BATCH).catch(() => undefined)
      session.releaseSavepoint(KEYED_BATCH)
      return failedRows(err, t.functionCode, rows.length)
    }
    // In autocommit mode the batch ran as one unit and was rolled back; in a transaction the rows before the
    // failing one stay (statement-level rollback).
    if (request.commit || affected.length === 0) return failedRows(err, t.functionCode, rows.length)
    return {
      kind: SegmentKind.ERROR,
      functionCode: t.functionCode,
      parts: [errorPart(err), { kind: PartKind.ROWS_AFFECTED, argc: rows.length, data: i32s([...affected, ...rows.slice(affected.length).map(() => -3)]) }]
    }
  }
  const parts: ReplyPart[] = []
  if (pendingRow !== undefined) {
    const locators = new Map<string, PendingLob>()
    const ids: Buffer[] = []
    for (const lob of pendingRow.pendingLobs) {
      const locator = crypto.randomBytes(8)
      locators.set(locator.toString("hex"), lob)
      ids.push(locator)
    }
    s.pending = { statement, row: pendingRow, locators }
    parts.push({ kind: PartKind.WRITE_LOB_REPLY, argc: ids.length, data: Buffer.concat(ids) })
    parts.push({ kind: PartKind.ROWS_AFFECTED, argc: Math.max(affected.length, 1), data: i32s(affected.length > 0 ? affected : [-1]) })
  } else {
    parts.push({ kind: PartKind.ROWS_AFFECTED, argc: affected.length, data: i32s(affected) })
  }
  return ok(t.functionCode, parts)
}

/** EXECUTE of a prepared procedure statement, with its one row of IN/INOUT values. */
const executeProcedure = async (s: SqlSessionState, session: Session, statement: StatementState, procedure: ProcedureStatement, request: Request): Promise<Reply> => {
  const params = requestPart(request, PartKind.PARAMETERS)
  const types = statement.parameterTypes
  const rows = types.length === 0 || params === undefined ? [] : decodeParameters(params.data, params.argc, types.length, types.map((p) => Math.max(p.scale, 0)))
  if (rows.length > 1) throw HanaError.unsupported("batch execution of CALL")
  if (rows.some((r) => r.pendingLobs.length > 0)) throw HanaError.unsupported("streamed LOB arguments of CALL")
  textForTestOnlyTypes(rows, types)
  return procedureReply(procedureHost(s, session), procedure, request.commit, rows[0]?.values ?? [])
}
