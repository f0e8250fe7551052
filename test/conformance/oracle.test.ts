import { oracle } from "./drivers/oracle.ts"
import { runConformance } from "./conformance.ts"

runConformance(oracle)
