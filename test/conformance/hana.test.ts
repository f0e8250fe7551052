import { hana } from "./drivers/hana.ts"
import { runConformance } from "./conformance.ts"

runConformance(hana)
