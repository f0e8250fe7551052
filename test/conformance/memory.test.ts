import { memory } from "./drivers/memory.ts"
import { runConformance } from "./conformance.ts"

runConformance(memory)
