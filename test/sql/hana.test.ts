/** The effect/sql client suite on HANA (test/sql/suite.ts). */
import { sqlClientSuite } from "./suite.ts"
import { hana } from "./support.ts"

sqlClientSuite(hana)
