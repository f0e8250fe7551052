import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_S } from "../../layers/hana/HanaDriver.ts"
import { parseUri } from "../../layers/hana/Uri.ts"

/** The connect time limit the driver applies for a URI. */
const limitFor = (uri: string) => connectTimeoutMs(Result.getOrThrow(parseUri(uri)).timeoutSeconds)

describe("HANA connect time limit", () => {
  it("a URI without timeout gets the default (30 s); timeout=N gets N seconds; timeout=0 waits without limit", () => {
    expect(DEFAULT_CONNECT_TIMEOUT_S).toBe(30)
    expect(limitFor("hdb://USER:pw@localhost:30015")).toBe(30_000)
    expect(limitFor("hdb://USER:pw@localhost:30015?timeout=5")).toBe(5_000)
    expect(limitFor("hdb://USER:pw@localhost:30015?timeout=0")).toBeUndefined()
  })
})
