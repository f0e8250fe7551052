/**
 * COMMIT and ROLLBACK requests, answered with the transaction flags.
 */
import type { Session } from "../../engine/index.ts"
import { ok } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { encodeOptions, FunctionCode, OptionType, PartKind } from "../wire.ts"
import type { ReplyPart } from "../wire.ts"

const transactionFlags = (flag: number): ReplyPart => {
  return { kind: PartKind.TRANSACTION_FLAGS, argc: 1, data: encodeOptions([{ name: flag, type: OptionType.BOOLEAN, value: true }]) }
}

/** COMMIT: the transaction is committed; the reply says so in its transaction flags. */
export const commitRequest = async (session: Session): Promise<Reply> => {
  await session.commit()
  return ok(FunctionCode.COMMIT, [transactionFlags(1)])
}

/** ROLLBACK: the transaction is rolled back; the reply says so in its transaction flags. */
export const rollbackRequest = async (session: Session): Promise<Reply> => {
  await session.rollback()
  return ok(FunctionCode.ROLLBACK, [transactionFlags(0)])
}
