/**
 * Query results of a request: the tables a statement reads, a result set's first reply (kept open while rows remain)
 * and the reply to an executed statement.
 */
import { timed } from "../../common/stats.ts"
import type { Cursor, Outcome, Session } from "../../engine/index.ts"
import { i32s, ok, u64 } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { OpenResult, describeColumns, resultSetMetadata } from "../results.ts"
import type { EncodedRows, ResultColumn } from "../results.ts"
import type { StatementState } from "../statement.ts"
import type { Translated } from "../translated.ts"
import { withoutPlaceholders } from "../untyped-parameters.ts"
import { FunctionCode, PartKind } from "../wire.ts"
import type { ReplyPart, Request } from "../wire.ts"
import { registerLob } from "../session-state.ts"
import type { SqlSessionState } from "../session-state.ts"

/** Tables DuckDB SQL reads or writes, as DuckDB resolves them, plus an UPDATE/DELETE target (which it does not name). */
const tablesNamed = (session: Session, sql: string): string[] => {
  let tables: string[] = []
  try {
    // DuckDB names an aliased table `T AS a`: the declared types are looked up by the table's name
    tables = session.tableNames(withoutPlaceholders(sql)).map((t) => t.replace(/ AS (?:"(?:[^"]|"")*"|[^\s."]+)$/, ""))
  } catch {
    // fall through to the target table below
  }
  const target = /^\s*(?:UPDATE|DELETE\s+FROM)\s+((?:"(?:[^"]|"")*"|\w+)(?:\.(?:"(?:[^"]|"")*"|\w+))?)/i.exec(sql)?.[1]
  return target === undefined ? tables : [...tables, target]
}

/** Tables a query reads (empty for other statements). */
export const tablesOf = (session: Session, t: Translated): string[] => {
  return t.kind === "query" ? tablesNamed(session, t.sql) : []
}

/** Tables a query or DML statement reads or writes (empty when DuckDB cannot tell). */
export const tablesRead = (session: Session, t: Translated): string[] => {
  return t.kind === "query" || t.kind === "dml" ? tablesNamed(session, t.sql) : []
}

/** Encodes up to `max` rows of `result`, counted in the server's stats. */
export const fetchRows = async (s: SqlSessionState, result: OpenResult, max: number): Promise<EncodedRows> => {
  const rows = await timed(s.ctx.stats, "encode", () => result.fetch(max))
  s.ctx.stats.encodedRows += rows.rows
  return rows
}

/** A result set's RESULT_SET_METADATA, RESULT_SET_ID and first RESULT_SET; kept open while rows remain. */
export const resultSetParts = async (s: SqlSessionState, cursor: Cursor, columns: readonly ResultColumn[]): Promise<ReplyPart[]> => {
  const id = s.nextId++
  const result = new OpenResult(id, cursor, columns, (value, kind) => registerLob(s, value, kind))
  const first = await fetchRows(s, result, s.ctx.options.firstFetchSize)
  if (!first.last) s.results.set(id, result)
  else result.close()
  return [
    { kind: PartKind.RESULT_SET_METADATA, argc: columns.length, data: resultSetMetadata(columns) },
    { kind: PartKind.RESULT_SET_ID, argc: 1, data: u64(id) },
    { kind: PartKind.RESULT_SET, attributes: first.last ? (first.rows === 0 ? 25 : 17) : 0, argc: first.rows, data: first.data }
  ]
}

/** The reply to an executed statement: a query's result set (first rows), a DML's rows affected, else OK. */
export const outcomeReply = async (
  s: SqlSessionState,
  session: Session,
  t: Translated,
  outcome: Outcome,
  statement: StatementState | undefined,
  request: Request
): Promise<Reply | undefined> => {
  if (outcome.kind === "rows") {
    const columns =
      statement?.columns ??
      (await describeColumns(session, outcome.cursor.columns, tablesOf(session, t), s.dfv, t.kind === "query" ? t.columnNames : undefined, t.kind === "query" ? t.columnSources : undefined, t.kind === "query" ? t.fromItems : undefined, t.kind === "query" ? t.columnTypes : undefined))
    const parts = await resultSetParts(s, outcome.cursor, columns)
    if (s.ctx.faults.dropMidResult) {
      await s.sendPartial(request, ok(FunctionCode.SELECT, parts))
      return undefined
    }
    return ok(FunctionCode.SELECT, parts)
  }
  if (t.kind === "dml") {
    const n = outcome.kind === "changed" ? outcome.rowsAffected : 0
    return ok(t.functionCode, [{ kind: PartKind.ROWS_AFFECTED, argc: 1, data: i32s([n]) }])
  }
  return ok(FunctionCode.DDL)
}
