/**
 * What the HANA test server keeps per statement: prepared statements (translation, engine statements, described
 * parameters and result columns, the batch fast path's target) and an execution waiting for its LOB data.
 */
import type { Prepared } from "../engine/index.ts"
import type { BatchTarget } from "./bulk-insert.ts"
import type { ParameterRow, PendingLob } from "./params.ts"
import type { ResultColumn } from "./results.ts"
import type { ProcedureStatement } from "./procedures/definition.ts"
import type { Translated } from "./translated.ts"
import type { HanaType } from "./types.ts"

/** A prepared statement of the session: its translation, engine statements and described parameters/columns. */
export interface StatementState {
  readonly id: bigint
  /** Multi-row INSERT statements by row count, for batches. */
  readonly batches: Map<number, Prepared>
  readonly translated: Translated
  readonly prepared: Prepared | undefined
  readonly parameterTypes: readonly HanaType[]
  readonly columns: readonly ResultColumn[] | undefined
  readonly tables: readonly string[]
  /** Where a batch INSERT's fast path appends (null: the fast path does not apply); resolved on first use. */
  batchTarget?: BatchTarget | null
  /** A prepared CREATE PROCEDURE, DROP PROCEDURE or CALL (procedures/), run instead of `translated`. */
  readonly procedure?: ProcedureStatement
}

/** An execution waiting for its LOB data (WRITE_LOB requests) before it runs. */
export interface PendingExecution {
  readonly statement: StatementState
  readonly row: ParameterRow
  readonly locators: Map<string, PendingLob>
}
