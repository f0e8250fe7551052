import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Type tests (test/types/*.test-d.ts): misuses that must not compile
    typecheck: { enabled: true, include: ["test/types/**/*.test-d.ts"], tsconfig: "tsconfig.json" }
  }
})
