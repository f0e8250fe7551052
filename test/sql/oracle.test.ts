/** The effect/sql client suite on Oracle (test/sql/suite.ts). */
import { sqlClientSuite } from "./suite.ts"
import { oracle } from "./support.ts"

sqlClientSuite(oracle)
