/**
 * The HANA driver's encoded INSERT: batch EXECUTEs whose parameter rows IngestEncoder.ts wrote straight from the Arrow
 * columns (DbCalls.ts `startEncodedExecute`), the next part encoded while the server works on one. Ingest sends each
 * batch this way (Ingest.ts); a prepared INSERT bound with Arrow batches does too (Execute.ts), as one statement that
 * is all or nothing under autocommit, as hdb's own batch execute brackets its packets (lib/protocol/ExecuteTask.js).
 *
 * @since 0.2.0
 */
import type * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { type ConnectionContext } from "./ConnectionContext.ts"
import * as Hdb from "./DbCalls.ts"
import { parameterBytesAvailable } from "./DbPatches.ts"
import type { HdbParameter, HdbStatement } from "./DbTypes.ts"
import { type PartEncoder, planEncoding } from "./IngestEncoder.ts"

/**
 * How the parts of an encoded batch commit: "session" sends each with the session's autocommit flag; "deferred" sends
 * them uncommitted (the caller commits); "statement" makes the batch all or nothing under autocommit: a batch of one
 * part commits with it, a longer one is sent uncommitted and then committed, or rolled back when a part fails or the
 * call is interrupted.
 *
 * @category models
 * @since 0.2.0
 */
export type PartCommit = "session" | "deferred" | "statement"

/**
 * Batch EXECUTEs of rows encoded by IngestEncoder.ts; the next part is encoded while the server works on one. A
 * rejected row is named counted from `firstRow`, the batch's 0-based row in the whole ingest.
 *
 * @category operations
 * @since 0.2.0
 */
export const insertEncoded = (
  ctx: ConnectionContext,
  statement: HdbStatement,
  batch: Arrow.RecordBatch,
  encode: PartEncoder,
  firstRow: number,
  commit: PartCommit = "session"
) =>
  Effect.gen(function*() {
    const rows = batch.numRows
    const partOf = (start: number) => {
      const part = encode(start, Math.min(rows, start + Hdb.MAX_BATCH_ROWS), parameterBytesAvailable(ctx.client))
      return "status" in part ? Effect.fail(part) : Effect.succeed(part)
    }
    const first = rows === 0 ? undefined : yield* partOf(0)
    const bracketed = commit === "statement" && first !== undefined && first.rows < rows && Hdb.isAutoCommit(ctx.client)
    const flag = commit === "deferred" || bracketed ? false : undefined
    const parts = Effect.gen(function*() {
      let total = 0
      let part = first
      let start = 0
      while (part !== undefined) {
        // A reply may have grown the statement context since the part was encoded: measure again before sending.
        if (part.bytes > parameterBytesAvailable(ctx.client)) part = yield* partOf(start)
        const reply = yield* Hdb.startEncodedExecute(ctx.client, statement, part.rows, part.data, firstRow + start, flag)
        start += part.rows
        const next = start < rows ? partOf(start) : Effect.succeed(undefined)
        const encoded = yield* Effect.result(next)
        total += yield* reply
        part = yield* Effect.fromResult(encoded)
      }
      return total
    })
    if (!bracketed) return yield* parts
    return yield* rolledBackUnlessDone(ctx, Effect.tap(parts, () => Hdb.commit(ctx.client)))
  })

/** `effect`, followed by a ROLLBACK when it fails or is interrupted. */
const rolledBackUnlessDone = <A, E>(ctx: ConnectionContext, effect: Effect.Effect<A, E>) =>
  Effect.onExit(effect, (exit) => exit._tag === "Success" ? Effect.void : Effect.ignore(Hdb.rollback(ctx.client)))

/**
 * A bound batch the encoder takes, with its first row's place among all bound rows.
 *
 * @category models
 * @since 0.2.0
 */
export interface EncodedBatch {
  readonly batch: Arrow.RecordBatch
  readonly encode: PartEncoder
  readonly firstRow: number
}

/**
 * Every bound batch planned for the encoder, or undefined when one of them is not (then hdb's writer binds them).
 *
 * @category operations
 * @since 0.2.0
 */
export const encodedBatches = (
  batches: ReadonlyArray<Arrow.RecordBatch>,
  parameters: ReadonlyArray<HdbParameter>
): ReadonlyArray<EncodedBatch> | undefined => {
  const planned: Array<EncodedBatch> = []
  let firstRow = 0
  for (const batch of batches) {
    const plan = planEncoding(batch, parameters, firstRow)
    if (plan._tag !== "Encoded") return undefined
    planned.push({ batch, encode: plan.encode, firstRow })
    firstRow += batch.numRows
  }
  return planned
}

/**
 * A bound INSERT's batches on the encoded path, all or nothing under autocommit (see {@link PartCommit}); several
 * batches are sent uncommitted and committed together. Without autocommit the parts join the open transaction.
 *
 * @category operations
 * @since 0.2.0
 */
export const insertEncodedStatement = (ctx: ConnectionContext, statement: HdbStatement, batches: ReadonlyArray<EncodedBatch>) =>
  Effect.gen(function*() {
    if (batches.length === 1) {
      const { batch, encode, firstRow } = batches[0]!
      return yield* insertEncoded(ctx, statement, batch, encode, firstRow, "statement")
    }
    const autoCommit = Hdb.isAutoCommit(ctx.client)
    const sent = Effect.gen(function*() {
      let total = 0
      for (const { batch, encode, firstRow } of batches) {
        total += yield* insertEncoded(ctx, statement, batch, encode, firstRow, autoCommit ? "deferred" : "session")
      }
      if (autoCommit) yield* Hdb.commit(ctx.client)
      return total
    })
    return yield* autoCommit ? rolledBackUnlessDone(ctx, sent) : sent
  })
