import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { cyclesIn, importsOf } from "../support/importGraph.ts"

// The Database module is below Connection: a connection is opened on a database, never the other way round.
const src = fileURLToPath(new URL("../../src/", import.meta.url))

/** Every module `entry` reaches through relative imports. */
const reachableFrom = (entry: string): Set<string> => {
  const seen = new Set<string>()
  const pending = [entry]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    pending.push(...importsOf(file))
  }
  return seen
}

describe("import structure", () => {
  it("src/Database.ts does not import src/Connection.ts, directly or transitively", () => {
    const reached = reachableFrom(`${src}Database.ts`)
    expect(reached.size).toBeGreaterThan(1)
    expect([...reached].filter((file) => file === `${src}Connection.ts`)).toEqual([])
  })

  it("the walk finds a transitive import (Connection.ts reaches Database.ts and Driver.ts)", () => {
    const reached = reachableFrom(`${src}Connection.ts`)
    expect(reached.has(`${src}Database.ts`)).toBe(true)
    expect(reached.has(`${src}Driver.ts`)).toBe(true)
  })

  it("has no import cycle anywhere in the sources (type-only imports included), across folders too", () => {
    const cycles = cyclesIn(["src", "layers", "testkit", "cli", "scripts", "bench", "examples"])
    expect(cycles).toEqual([])
  })
})
