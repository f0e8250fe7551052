/** DBMS_LOCK: SLEEP (the lock management procedures, REQUEST / RELEASE / ALLOCATE_UNIQUE, are not provided). */
import type { BuiltinPackage } from "./context.ts"
import { sleep } from "./sleep.ts"

/** DBMS_LOCK.SLEEP(seconds). */
export const dbmsLock: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "SLEEP") return false
  await sleep(ctx, "SLEEP", args)
  return true
}
