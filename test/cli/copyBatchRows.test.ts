import { describe, expect, it } from "@effect/vitest"
import { COPY_BATCH_ROWS, copyBatchRows, MIN_COPY_BATCH_ROWS } from "../../cli/copy.ts"

describe("copy batch size (cli/copy.ts)", () => {
  it("a copy of known size holds batches no larger than at 1,000,000 rows, however large the table (memory bounded)", () => {
    const atOneMillion = copyBatchRows(1_000_000)
    for (const rows of [2_000_000, 3_200_000, 4_000_000, 50_000_000]) {
      expect(copyBatchRows(rows)).toBeLessThanOrEqual(Math.ceil(atOneMillion * 1.05))
    }
  })
  it("a 32nd of a small table, never fewer than MIN_COPY_BATCH_ROWS; unknown size gets COPY_BATCH_ROWS", () => {
    expect(copyBatchRows(200_000)).toBe(6_250)
    expect(copyBatchRows(1_000_000)).toBe(31_250)
    expect(copyBatchRows(10)).toBe(MIN_COPY_BATCH_ROWS)
    expect(copyBatchRows(undefined)).toBe(COPY_BATCH_ROWS)
  })
})
