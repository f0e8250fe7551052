import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { requestOf } from "../../src/internal/ingest.ts"

// Connection.ingest hands the runner a typed request; the string keys stay for the statement API only.
describe("the typed ingest request", () => {
  it("carries the target and the mode of IngestOptions", () => {
    expect(Result.getOrThrow(requestOf({ targetTable: "T", mode: "append", targetDbSchema: "S" }))).toEqual({
      target: { table: "T", dbSchema: "S", catalog: undefined, temporary: false },
      mode: "adbc.ingest.mode.append"
    })
  })

  it("uses the declared defaults (create, not temporary) and drops the schema of a temporary target", () => {
    expect(Result.getOrThrow(requestOf({ targetTable: "T", targetDbSchema: "S", temporary: true }))).toEqual({
      target: { table: "T", dbSchema: undefined, catalog: undefined, temporary: true },
      mode: "adbc.ingest.mode.create"
    })
  })

  it("fails a bad value as the statement option would, naming its key and what is accepted", () => {
    const empty = requestOf({ targetTable: "" })
    expect(Result.isFailure(empty) && empty.failure.status).toBe("INVALID_ARGUMENT")
    expect(Result.isFailure(empty) && empty.failure.message).toContain("adbc.ingest.target_table")
    const mode = requestOf({ targetTable: "T", mode: "upsert" as never })
    expect(Result.isFailure(mode) && mode.failure.message).toContain("adbc.ingest.mode")
  })
})
