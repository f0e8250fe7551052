import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { add, compare, type Decimal, decimalOf, divide, multiply, numberText, orderKey, parseDecimal, subtract } from "../../testkit/oracle/decimal.ts"

/** Decimals of up to 18 digits at exponents -30 .. 30: products always, sums of near exponents keep every digit. */
const decimal: fc.Arbitrary<Decimal> = fc
  .tuple(fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }), fc.integer({ min: -30, max: 30 }))
  .map(([c, e]) => decimalOf(`${c}e${e}`))

/** `d` as an integer count of 10^-200 (exact reference arithmetic). */
const scaled = (d: Decimal): bigint => (d.negative ? -1n : 1n) * d.coefficient * 10n ** BigInt(d.exponent + 200)

/** True when the integer has at most 38 significant digits (NUMBER holds it without rounding). */
const fits = (v: bigint): boolean => (v < 0n ? -v : v).toString().replace(/0+$/, "").length <= 38

describe("exact NUMBER values of the Oracle test server (decimal.ts)", () => {
  it("orders the order key as the numbers, and reads its TO_CHAR text back as the same value", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const byKey = orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0
        expect(byKey).toBe(compare(a, b))
        expect(parseDecimal(numberText(a))).toEqual(a)
      }),
      { numRuns: 500, seed: 20261123 }
    )
  })

  it("adds, subtracts and multiplies exactly while the result has at most 38 digits", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const sum = scaled(a) + scaled(b)
        if (fits(sum)) expect(scaled(add(a, b))).toBe(sum)
        const difference = scaled(a) - scaled(b)
        if (fits(difference)) expect(scaled(subtract(a, b))).toBe(difference)
        const product = scaled(a) * scaled(b)
        if (fits(product)) expect(scaled(multiply(a, b)) * 10n ** 200n).toBe(product)
      }),
      { numRuns: 500, seed: 20261124 }
    )
  })

  it("rounds to NUMBER's 40 digits (39 when the leading pair has one digit), half away from zero", () => {
    expect(numberText(divide(decimalOf("1"), decimalOf("3")))).toBe("." + "3".repeat(40))
    expect(numberText(divide(decimalOf("2"), decimalOf("3")))).toBe("." + "6".repeat(39) + "7")
    expect(numberText(divide(decimalOf("10"), decimalOf("3")))).toBe("3." + "3".repeat(38))
    expect(numberText(decimalOf("-12345678901234567890123456789012345678951"))).toBe("-12345678901234567890123456789012345679000")
    expect(numberText(decimalOf("12345678901234567890123456789012345678949"))).toBe("12345678901234567890123456789012345678900")
    expect(numberText(decimalOf("1e-131"))).toBe("0")
    expect(() => decimalOf("1e126")).toThrow(/ORA-01426/)
    expect(() => decimalOf("12a")).toThrow(/ORA-01722/)
    expect(() => divide(decimalOf("1"), decimalOf("0"))).toThrow(/ORA-01476/)
  })
})
