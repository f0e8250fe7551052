import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { floorDivInt64 } from "../../layers/common/Int64Words.ts"

/** The two 32-bit words of an int64, as an Int32Array view over its buffer reads them (little-endian). */
const wordsOf = (v: bigint): [hi: number, lo: number] => {
  const words = new Int32Array(new BigInt64Array([v]).buffer)
  return [words[1]!, words[0]!]
}

describe("floorDivInt64: the int64 encoders' split without a BigInt per cell", () => {
  it("equals BigInt floor division (quotient and non-negative remainder) for every int64 and the encoders' divisors", () => {
    const divisors = [1, 7, 100, 1_000, 1_024, 1_000_000, 86_400_000, 1_000_000_000, 2 ** 30]
    const int64 = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 1n, -(2n ** 32n), 2n ** 32n - 1n, -(2n ** 53n) - 1n, 2n ** 53n + 1n)
    )
    const out = new Float64Array(2)
    fc.assert(fc.property(int64, fc.constantFrom(...divisors), (v, divisor) => {
      const d = BigInt(divisor)
      let q = v / d
      if (v - q * d < 0n) q -= 1n
      const [hi, lo] = wordsOf(v)
      floorDivInt64(hi, lo, divisor, out)
      expect(out[1]).toBe(Number(v - q * d))
      // the quotient is exact within ±2^53 (always from a divisor of 1024 on)
      if (q >= -(2n ** 53n) && q <= 2n ** 53n) expect(out[0]).toBe(Number(q))
      else expect(divisor).toBeLessThan(1_024)
    }), { numRuns: 2_000 })
  })
})
