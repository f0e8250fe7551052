/**
 * The requests of procedure statements: `CREATE [OR REPLACE] PROCEDURE` and `DROP PROCEDURE` (DDL: they commit as
 * other DDL does), PREPARE of `CALL` (its parameter metadata, with directions) and the execution of `CALL` (an
 * OUTPUT_PARAMETERS part with the scalar OUT/INOUT values, then one RESULT_SET_METADATA / RESULT_SET_ID / RESULT_SET
 * group per result set, function code DB_PROCEDURE_CALL 8 or, with result sets, DB_PROCEDURE_CALL_WITH_RESULT_SET 9;
 * hdb lib/protocol/Result.js handleDBCall hands them to the callback as (parameters, ...resultSets), and a real
 * HANA's reply to a CALL with a table-typed OUT parameter has that shape: SAP/node-hdb test/mock/data/execute.js).
 */
import type { EngineValue, Session } from "../../engine/index.ts"
import { encodeParameterMetadata } from "../metadata.ts"
import { HanaError } from "../errors.ts"
import { encodeName } from "../names.ts"
import { ok, u64 } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { parameterWireType } from "../types.ts"
import type { HanaType } from "../types.ts"
import { FunctionCode, PartKind } from "../wire.ts"
import type { ReplyPart } from "../wire.ts"
import type { ProcedureDefinition, ProcedureStatement } from "./definition.ts"
import { procedureStore } from "./registry.ts"
import { callParameters, runProcedure } from "./run.ts"
import type { CallContext, CallResult } from "./run.ts"

/** What the SQL session lends a procedure request. */
export interface ProcedureHost {
  readonly call: CallContext
  readonly store: ReturnType<typeof procedureStore>
  /** Runs DDL with HANA's DDL commit semantics. */
  runDdl(commit: boolean, work: () => Promise<void>): Promise<void>
  /** Runs work as one statement (all or nothing) with HANA's transaction semantics. */
  inTransaction<A>(commit: boolean, work: () => Promise<A>): Promise<A>
  /** The RESULT_SET_METADATA, RESULT_SET_ID and RESULT_SET parts of a result (kept open when rows remain). */
  resultSetParts(result: CallResult): Promise<ReplyPart[]>
  /** The first row of a result, encoded as result cells. */
  firstRow(result: CallResult): Promise<Buffer>
}

const qualified = (schema: string, name: string): string => `${schema}.${name}`

/** SAP HANA SQL Reference, "SQL Error Codes": 328 ERR_SQL_INV_PROC "invalid name of function or procedure". */
const invalidProcedure = (schema: string, name: string): HanaError =>
  new HanaError(328, "HY000", `invalid name of function or procedure: ${name}: ${qualified(schema, name)} not found`)

const lookup = (host: ProcedureHost, schema: string, name: string): ProcedureDefinition => {
  const definition = host.store.get(schema, name)
  if (definition === undefined) throw invalidProcedure(schema, name)
  return definition
}

const schemaExists = async (session: Session, schema: string): Promise<boolean> =>
  (await session.queryAll(`SELECT 1 FROM duckdb_schemas() WHERE database_name = current_database() AND schema_name = ?`, [encodeName(schema)])).length > 0

const IO = { IN: 1, INOUT: 2, OUT: 4 } as const

const CALL_SAVEPOINT = "__HANA_TEST_SERVER_CALL"

/**
 * Runs a CALL as one statement inside an open transaction: a failure undoes the writes the procedure made before
 * it, not the transaction's earlier ones (statement-level rollback, as for any statement).
 */
const asOneStatement = async <A>(session: Session, work: () => Promise<A>): Promise<A> => {
  let marked = false
  try {
    session.savepoint(CALL_SAVEPOINT)
    marked = true
  } catch {
    // No savepoint possible (transaction too large to journal): a failure then rolls back as the engine can.
  }
  try {
    const out = await work()
    if (marked) session.releaseSavepoint(CALL_SAVEPOINT)
    return out
  } catch (e) {
    if (marked) {
      await session.rollbackToSavepoint(CALL_SAVEPOINT).catch(() => undefined)
      try {
        session.releaseSavepoint(CALL_SAVEPOINT)
      } catch {
        // already gone with a failed rollback
      }
    }
    throw e
  }
}

/** The PREPARE reply of a procedure statement, and the types of the parameters the client binds. */
export const prepareProcedure = (
  host: ProcedureHost,
  statement: ProcedureStatement,
  id: bigint
): { reply: Reply; inputTypes: HanaType[] } => {
  const parameters = statement.kind === "call" ? callParameters(lookup(host, statement.schema, statement.name), statement.args) : []
  const metadata = encodeParameterMetadata(
    parameters.map((p) => ({ nullable: true, wire: parameterWireType(p.type, host.call.dfv), name: p.name, io: IO[p.mode] }))
  )
  const reply = ok(statement.kind === "call" ? FunctionCode.DB_PROCEDURE_CALL : FunctionCode.DDL, [
    { kind: PartKind.STATEMENT_ID, argc: 1, data: u64(id) },
    { kind: PartKind.PARAMETER_METADATA, argc: parameters.length, data: metadata }
  ])
  return { reply, inputTypes: parameters.filter((p) => p.mode !== "OUT").map((p) => p.type) }
}

/** Runs a procedure statement; `inputs` are the values bound to a CALL's IN/INOUT `?` parameters. */
export const procedureReply = async (
  host: ProcedureHost,
  statement: ProcedureStatement,
  commit: boolean,
  inputs: readonly EngineValue[]
): Promise<Reply> => {
  const { session } = host.call
  switch (statement.kind) {
    case "create": {
      const { definition } = statement
      if (!(await schemaExists(session, definition.schema))) throw HanaError.invalidSchema(definition.schema)
      if (!statement.replace && host.store.get(definition.schema, definition.name) !== undefined) {
        // SAP HANA SQL Reference, "SQL Error Codes": 329 ERR_SQL_EXST_PROC "cannot use duplicate name of function or procedure".
        throw new HanaError(329, "HY000", `cannot use duplicate name of function or procedure: ${definition.name}`)
      }
      await host.runDdl(commit, async () => host.store.put(definition))
      return ok(FunctionCode.DDL)
    }
    case "drop":
      lookup(host, statement.schema, statement.name)
      await host.runDdl(commit, async () => {
        host.store.remove(statement.schema, statement.name)
      })
      return ok(FunctionCode.DDL)
    case "call": {
      const definition = lookup(host, statement.schema, statement.name)
      const outcome = await host.inTransaction(commit, () => asOneStatement(session, () => runProcedure(host.call, definition, statement.args, inputs)))
      const parts: ReplyPart[] = []
      if (outcome.outputs !== undefined) {
        parts.push({ kind: PartKind.OUTPUT_PARAMETERS, argc: 1, data: await host.firstRow(outcome.outputs) })
      }
      for (const result of outcome.resultSets) parts.push(...(await host.resultSetParts(result)))
      return ok(outcome.resultSets.length > 0 ? FunctionCode.DB_PROCEDURE_CALL_WITH_RESULT_SET : FunctionCode.DB_PROCEDURE_CALL, parts)
    }
  }
}
