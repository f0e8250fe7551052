import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  // The package's entry points, as the examples import them, are its sources here (tsconfig.json's paths say the same
  // to tsc and tsx; a consumer gets dist/ through package.json's exports).
  resolve: {
    alias: [
      { find: /^effect-adbc$/, replacement: source("./src/index.ts") },
      { find: /^effect-adbc\/hana$/, replacement: source("./layers/hana/index.ts") },
      { find: /^effect-adbc\/oracle$/, replacement: source("./layers/oracle/index.ts") },
      { find: /^effect-adbc\/testkit\/hana$/, replacement: source("./testkit/hana/index.ts") },
      { find: /^effect-adbc\/testkit\/oracle$/, replacement: source("./testkit/oracle/index.ts") }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Type tests (test/types/*.test-d.ts): misuses that must not compile
    typecheck: { enabled: true, include: ["test/types/**/*.test-d.ts"], tsconfig: "tsconfig.json" }
  }
})
