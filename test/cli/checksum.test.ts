import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { ChecksumAccumulator, compareChecksums } from "../../cli/demo/checksum.ts"
import { lineitemBatch } from "../../cli/demo/lineitem.ts"
import { decimals } from "../support/arrowVectors.ts"

const checksum = (...batches: Array<Arrow.RecordBatch>) => {
  const accumulator = new ChecksumAccumulator()
  for (const batch of batches) accumulator.add(batch)
  return accumulator.result()
}

describe("the main job's checksum", () => {
  it("does not depend on row order or batch sizes, and the generator is deterministic", () => {
    const whole = lineitemBatch(5, 0, 200)
    // Every row as its own one-row slice (a non-zero offset into the same buffers), last row first.
    const reversed = Array.from({ length: 200 }, (_, i) => whole.slice(199 - i, 200 - i))
    expect(compareChecksums(checksum(whole), checksum(...reversed))).toEqual([])
    expect(compareChecksums(checksum(whole), checksum(whole.slice(0, 77), whole.slice(77)))).toEqual([])
    expect(checksum(lineitemBatch(5, 0, 200))).toEqual(checksum(whole))
    expect(checksum(lineitemBatch(6, 0, 200))).not.toEqual(checksum(whole))
  })

  it("names the column whose values differ, and notices values swapped between rows", () => {
    const a = new Arrow.Table({ K: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()), S: Arrow.vectorFromArray(["x", "y", "z"]) })
    const b = new Arrow.Table({ K: Arrow.vectorFromArray([1, 2, 4], new Arrow.Int32()), S: Arrow.vectorFromArray(["x", "y", "z"]) })
    const swapped = new Arrow.Table({ K: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()), S: Arrow.vectorFromArray(["y", "x", "z"]) })
    expect(compareChecksums(checksum(...a.batches), checksum(...b.batches))).toEqual([expect.stringMatching(/^column K differs/)])
    expect(compareChecksums(checksum(...a.batches), checksum(...swapped.batches))).toEqual([expect.stringMatching(/^row checksum/)])
  })

  it("compares values across the types the databases read back: int64 equals decimal128(19,0), 7.50 equals 7.5", () => {
    const ints = new Arrow.Table({ N: Arrow.vectorFromArray([1n, -20n, 300n], new Arrow.Int64()) })
    const asDecimal = new Arrow.Table({ N: decimals(19, 0, [1n, -20n, 300n]) })
    expect(compareChecksums(checksum(...ints.batches), checksum(...asDecimal.batches))).toEqual([])
    const scale2 = new Arrow.Table({ D: decimals(15, 2, [750n, 100n]) })
    const scale1 = new Arrow.Table({ D: decimals(10, 1, [75n, 10n]) })
    expect(compareChecksums(checksum(...scale2.batches), checksum(...scale1.batches))).toEqual([])
  })
})
