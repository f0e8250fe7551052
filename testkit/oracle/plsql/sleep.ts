/**
 * The wait of DBMS_SESSION.SLEEP and DBMS_LOCK.SLEEP (PL/SQL Packages and Types Reference: "the smallest increment
 * is a hundredth of a second"): real wall-clock time, ended at once by a break (connection.break(), a call timeout),
 * which the call then reports as ORA-01013.
 */
import { ora } from "../errors.ts"
import type { CallContext } from "./context.ts"
import { wrongArguments } from "./arguments.ts"
import type { Expr } from "./ast.ts"

/** How often a sleeping call looks for a break. */
const BREAK_POLL_MS = 10

/** Sleeps the seconds `args` name (one NUMBER, rounded to hundredths; NULL or not positive: no wait). */
export const sleep = async (ctx: CallContext, procedure: string, args: ReadonlyArray<Expr>): Promise<void> => {
  if (args.length !== 1) throw wrongArguments(procedure)
  const seconds = Number(await ctx.evaluate(args[0]!))
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 100) * 10 : 0
  const end = Date.now() + ms
  for (;;) {
    if (ctx.host.callInterrupted) throw ora.cancelled()
    const left = end - Date.now()
    if (left <= 0) return
    await new Promise((r) => setTimeout(r, Math.min(BREAK_POLL_MS, left)))
  }
}
