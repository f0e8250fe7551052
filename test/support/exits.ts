import { Exit } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"

/** The typed failure of an exit; throws (failing the test) on success or on a defect. */
export const failure = <A>(exit: Exit.Exit<A, AdbcError>): AdbcError => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (reason === undefined || reason._tag !== "Fail") throw new Error(`expected a typed failure: ${exit.cause}`)
  return reason.error
}
