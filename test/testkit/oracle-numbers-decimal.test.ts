import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { abs, add, compare, type Decimal, decimalOf, divide, exp, ln, log, mod, multiply, numberText, orderKey, parseDecimal, power, roundTo, sqrt, subtract } from "../../testkit/oracle/decimal.ts"

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

describe("exact NUMBER functions of the Oracle test server (decimal.ts)", () => {
  /** `d` rounded to `places` fraction digits by BigInt arithmetic on its 10^-200 multiple: the reference. */
  const reference = (d: Decimal, places: number, mode: "round" | "trunc" | "ceil" | "floor"): bigint => {
    const v = scaled(d)
    const unit = 10n ** BigInt(200 - places)
    const magnitude = v < 0n ? -v : v
    let q = magnitude / unit
    const rest = magnitude % unit
    if ((mode === "round" && rest * 2n >= unit) || (mode === "ceil" && rest > 0n && v > 0n) || (mode === "floor" && rest > 0n && v < 0n)) q += 1n
    return (v < 0n ? -q : q) * unit
  }

  it("ROUND / TRUNC / CEIL / FLOOR at any places agree with integer arithmetic (half away from zero, toward zero)", () => {
    fc.assert(
      fc.property(decimal, fc.integer({ min: -20, max: 20 }), fc.constantFrom("round" as const, "trunc" as const, "ceil" as const, "floor" as const), (d, places, mode) => {
        const p = mode === "ceil" || mode === "floor" ? 0 : places
        expect(scaled(roundTo(d, p, mode))).toBe(reference(d, p, mode))
      }),
      { numRuns: 500, seed: 20261125 }
    )
  })

  it("MOD keeps the dividend's sign and returns the dividend for a zero divisor; SQRT squares back within the last digit", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const x = scaled(a)
        const y = scaled(b)
        expect(scaled(mod(a, b))).toBe(y === 0n ? x : x % y)
        const root = sqrt(abs(a))
        // (root ± one unit of its 39th significant digit)² brackets |a|
        const ulp: Decimal = { negative: false, coefficient: 1n, exponent: root.exponent + root.coefficient.toString().length - 39 }
        const below = multiply(subtract(root, ulp), subtract(root, ulp))
        const above = multiply(add(root, ulp), add(root, ulp))
        if (a.coefficient !== 0n) expect(compare(below, abs(a)) <= 0 && compare(abs(a), above) <= 0).toBe(true)
      }),
      { numRuns: 500, seed: 20261126 }
    )
    expect(numberText(mod(decimalOf("-11"), decimalOf("4")))).toBe("-3")
    expect(numberText(mod(decimalOf("11"), decimalOf("-4")))).toBe("3")
    expect(() => sqrt(decimalOf("-1"))).toThrow(/ORA-01428/)
  })

  it("POWER with integer exponents is the exact power rounded once; overflow is ORA-01426, underflow 0", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -999n, max: 999n }), fc.integer({ min: 0, max: 12 }), (base, n) => {
        const exact = base ** BigInt(n)
        expect(numberText(power(decimalOf(String(base)), decimalOf(String(n))))).toBe(numberText(decimalOf(exact.toString())))
      }),
      { numRuns: 300, seed: 20261127 }
    )
    expect(numberText(power(decimalOf("2"), decimalOf("-2")))).toBe(".25")
    // (1 + 1E-10)^1E12 = e^(1E12 · ln(1 + 1E-10)) = e^(100 - 5E-9 + …) = 2.6881171283755497…E43
    expect(numberText(power(decimalOf("1.0000000001"), decimalOf("1000000000000")))).toMatch(/^2688117128375549\d{28}$/)
    expect(() => power(decimalOf("10"), decimalOf("126"))).toThrow(/ORA-01426/)
    expect(numberText(power(decimalOf("10"), decimalOf("-131")))).toBe("0")
    expect(() => power(decimalOf("-8"), decimalOf(".5"))).toThrow(/ORA-01428/)
  })

  it("EXP, LN and LOG to NUMBER's digits: known constants, and EXP(LN(x)) gives x back", () => {
    // e = 2.71828182845904523536028747135266249775724…, ln 10 = 2.30258509299404568401799145468436420760110…
    expect(numberText(exp(decimalOf("1")))).toBe("2.71828182845904523536028747135266249776")
    expect(numberText(ln(decimalOf("10")))).toBe("2.3025850929940456840179914546843642076")
    expect(numberText(log(decimalOf("2"), decimalOf("1024")))).toBe("10")
    expect(numberText(power(decimalOf("10"), decimalOf("2.5")))).toBe("316.227766016837933199889354443271853372")
    fc.assert(
      fc.property(decimal, (a) => {
        if (a.coefficient === 0n) return
        const back = exp(ln(abs(a)))
        // LN rounded to NUMBER's digits has up to 3 integer digits (|LN| < 300): 34 significant digits come back
        const unit: Decimal = { negative: false, coefficient: 1n, exponent: a.exponent + a.coefficient.toString().length - 34 }
        expect(compare(abs(subtract(back, abs(a))), unit) <= 0).toBe(true)
      }),
      { numRuns: 200, seed: 20261128 }
    )
    expect(() => ln(decimalOf("0"))).toThrow(/ORA-01428/)
    expect(() => exp(decimalOf("292"))).toThrow(/ORA-01426/)
  })
})
