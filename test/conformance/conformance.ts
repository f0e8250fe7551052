/**
 * Registers every conformance rule for one driver. Each driver's test file calls {@link runConformance} once.
 */
import { cancelRules } from "./rules/cancel.ts"
import { catalogRules } from "./rules/catalog.ts"
import { connectionRules } from "./rules/connection.ts"
import { faultRules } from "./rules/faults.ts"
import { ingestRules } from "./rules/ingest.ts"
import { poolRules } from "./rules/pool.ts"
import { readerRules } from "./rules/readers.ts"
import { statementRules } from "./rules/statements.ts"
import { transactionRules } from "./rules/transactions.ts"
import { type ConformanceDriver, useEnv } from "./harness.ts"

/** Every rule, in the order they are reported. Add a rule file here. */
const RULES = [
  connectionRules,
  readerRules,
  cancelRules,
  statementRules,
  transactionRules,
  ingestRules,
  poolRules,
  catalogRules,
  faultRules
]

/** Registers the conformance suite for `driver`; starts its server for the calling test file. */
export const runConformance = (driver: ConformanceDriver): void => {
  const env = useEnv(driver)
  for (const rules of RULES) rules(driver, env)
}
