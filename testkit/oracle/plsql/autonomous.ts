/**
 * Autonomous transactions (PRAGMA AUTONOMOUS_TRANSACTION): a routine so marked runs in a transaction of its own,
 * which it must commit or roll back before it returns, while its caller's transaction waits, as the PL/SQL Language
 * Reference, "AUTONOMOUS_TRANSACTION Pragma" and "Autonomous Transactions"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/19/lnpls/static-sql.html) describe: "When an
 * autonomous routine is invoked, the main transaction is suspended. The autonomous transaction is fully independent
 * of the main transaction: they share no locks, resources, or commit dependencies."
 *
 * The routine's SQL runs on a session of its own (the host's `openAutonomous`: same user, schema, roles and
 * settings, its own engine session and row locks), so it sees only committed data and its commit is its own. The
 * package state and DBMS_OUTPUT stay the calling session's (host.ts `clientSessionOf`). A lock the routine waits for
 * that its caller's transaction holds is a deadlock, ORA-00060, as on Oracle (the caller waits for the routine:
 * deadlocks.ts `awaitCall`). Leaving with the transaction open rolls it back and raises ORA-06519; an exception the
 * routine does not handle rolls it back too.
 */
import { OraError } from "../errors.ts"
import type { Frame } from "./context.ts"

/** Runs `body` (the routine's block) in an autonomous transaction of `ctx`'s session. */
export async function runAutonomously(ctx: Frame, body: () => Promise<void>): Promise<void> {
  const main = ctx.host
  const own = await main.openAutonomous()
  main.db.waitsFor.awaitCall(main.info.sid, own.info.sid)
  ctx.host = own
  try {
    await body()
    if (own.transactionInProgress) {
      await own.rollback()
      // Database Error Messages, ORA-06519 "active autonomous transaction detected and rolled back"
      throw new OraError(6519, "active autonomous transaction detected and rolled back")
    }
  } catch (e) {
    if (own.transactionInProgress) await own.rollback()
    throw e
  } finally {
    ctx.host = main
    main.db.waitsFor.callReturned(main.info.sid)
    await own.closeAutonomous()
  }
}
