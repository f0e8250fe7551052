import { Decimal, util, type Vector } from "apache-arrow"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  ArrowAssemblyError,
  DecimalBuilder,
  formatDecimal,
  parseDecimalText,
  readDecimalWords,
  writeDecimalText,
  writeDecimalWords
} from "../../src/arrow/index.ts"
import { roundTrip, roundTripBuilder, storedAll } from "./helpers.ts"

/**
 * Unscaled value from stored little-endian 32-bit words, computed independently of src/arrow. (apache-arrow's
 * own `util.bigNumToString` mangles 256-bit values, so it cannot serve as the oracle for decimal256.)
 */
const wordsToBigInt = (words: ReadonlyArray<number>): bigint =>
  BigInt.asIntN(words.length * 32, words.reduceRight((acc, w) => acc * 4294967296n + BigInt(w >>> 0), 0n))

/** Unscaled values of a decimal column after an IPC round trip. */
const unscaledOf = (vector: Vector): Array<bigint | null> =>
  storedAll(vector).map((w) => (w === null ? null : wordsToBigInt(w as Array<number>)))

const unscaledAll = (type: Decimal, values: ReadonlyArray<unknown>): Array<bigint | null> =>
  unscaledOf(roundTrip(type, values))

/** Independent oracle: exact rescale with string surgery and BigInt. */
const oracleUnscaled = (text: string, scale: number): bigint => {
  const negative = text.startsWith("-")
  const body = text.replace(/^[+-]/, "")
  const [int = "", frac = ""] = body.split(".")
  const digits = int + frac
  const shift = scale - frac.length
  const unscaled = shift >= 0 ? BigInt((digits || "0") + "0".repeat(shift)) : BigInt(digits.slice(0, shift) || "0")
  return negative ? -unscaled : unscaled
}

describe("decimal text parsing", () => {
  it("rescales exactly", () => {
    expect(parseDecimalText("-12345.678", 3, 38)).toBe(-12345678)
    expect(parseDecimalText("-12345.678", 5, 38)).toBe(-1234567800)
    expect(parseDecimalText("1.500", 1, 38)).toBe(15)
    expect(parseDecimalText(".5", 2, 38)).toBe(50)
    expect(parseDecimalText("12.", 0, 38)).toBe(12)
    expect(parseDecimalText("+7", 2, 3)).toBe(700)
    expect(parseDecimalText("-0.000", 2, 38)).toBe(0)
    expect(parseDecimalText("1.5E-3", 4, 38)).toBe(15)
    expect(parseDecimalText("1e21", 0, 38)).toBe(10n ** 21n)
    expect(parseDecimalText("12300", -2, 3)).toBe(123)
    expect(parseDecimalText("0.00012", 5, 2)).toBe(12)
    expect(parseDecimalText("99999999999999999999999999999999999999", 0, 38)).toBe(10n ** 38n - 1n)
    expect(parseDecimalText("-0.99999999999999999999999999999999999999", 38, 38)).toBe(-(10n ** 38n - 1n))
  })

  it("rejects lossy, overflowing and malformed text", () => {
    const bad: Array<[string, number, number, RegExp]> = [
      ["1.234", 2, 38, /more fractional digits than the column scale 2/],
      ["100000000000000000000000000000000000000", 0, 38, /needs 39 digits/],
      ["12345", 2, 6, /needs 7 digits at scale 2, more than the column precision 6/],
      ["12350", -2, 5, /fractional digits/],
      ["", 0, 38, /not a decimal number/],
      ["-", 0, 38, /not a decimal/],
      ["1.2.3", 2, 38, /not a decimal/],
      ["1e", 2, 38, /not a decimal/],
      [" 1", 2, 38, /not a decimal/],
      ["NaN", 2, 38, /not a decimal/],
      ["0x10", 2, 38, /not a decimal/]
    ]
    for (const [text, scale, precision, message] of bad) {
      expect(() => parseDecimalText(text, scale, precision, "amount")).toThrow(ArrowAssemblyError)
      expect(() => parseDecimalText(text, scale, precision, "amount")).toThrow(message)
      expect(() => parseDecimalText(text, scale, precision, "amount")).toThrow(/column "amount"/)
    }
  })

  it("agrees with a BigInt oracle on random decimal text (property)", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.stringMatching(/^[0-9]{1,30}$/),
        fc.stringMatching(/^[0-9]{0,20}$/),
        fc.integer({ min: 0, max: 25 }),
        (negative, int, frac, extraScale) => {
          const scale = frac.length + extraScale
          const text = `${negative ? "-" : ""}${int}${frac === "" ? "" : "."}${frac}`
          const expected = oracleUnscaled(text, scale)
          const digits = (expected < 0n ? -expected : expected).toString().length
          if (expected !== 0n && digits > 76) {
            expect(() => parseDecimalText(text, scale, 76)).toThrow(ArrowAssemblyError)
            return
          }
          expect(BigInt(parseDecimalText(text, scale, 76))).toBe(expected)
          expect(BigInt(parseDecimalText(formatDecimal(expected, scale), scale, 76))).toBe(expected)
        }
      )
    )
  })

  it("words round-trip for 128 and 256 bits (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 255n), max: 2n ** 255n - 1n }), fc.boolean(), (value, small) => {
        const words = small ? 4 : 8
        const v = small ? BigInt.asIntN(128, value) : value
        const out = new Uint32Array(words + 2)
        writeDecimalWords(v, out, 1, words)
        expect(readDecimalWords(out, 1, words)).toBe(v)
        if (v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n) {
          const viaNumber = new Uint32Array(words + 2)
          writeDecimalWords(Number(v), viaNumber, 1, words)
          expect(Array.from(viaNumber)).toEqual(Array.from(out))
        }
      })
    )
  })

  it("writeDecimalText (no bigints) writes the same words as the BigInt path (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("", "-", "+"),
        fc.stringMatching(/^[0-9]{0,45}$/),
        fc.stringMatching(/^[0-9]{0,40}$/),
        fc.constantFrom("", "e3", "E-2", "e+0"),
        fc.integer({ min: -5, max: 40 }),
        fc.boolean(),
        (sign, int, frac, exponent, scale, wide) => {
          const text = `${sign}${int}${frac === "" ? "" : "."}${frac}${exponent}`
          const words = wide ? 8 : 4
          const precision = wide ? 76 : 38
          let expected: Array<number> | string
          try {
            const out = new Uint32Array(words)
            writeDecimalWords(parseDecimalText(text, scale, precision), out, 0, words)
            expected = Array.from(out)
          } catch (e) {
            expected = (e as Error).message
          }
          let actual: Array<number> | string
          try {
            const out = new Uint32Array(words + 1).fill(7)
            writeDecimalText(text, scale, precision, out, 1, words)
            actual = Array.from(out.subarray(1))
          } catch (e) {
            actual = (e as Error).message
          }
          expect(actual).toEqual(expected)
        }
      ),
      { numRuns: 500 }
    )
  })

  it("formats unscaled values", () => {
    expect(formatDecimal(-12345678n, 3)).toBe("-12345.678")
    expect(formatDecimal(5n, 3)).toBe("0.005")
    expect(formatDecimal(-5n, 1)).toBe("-0.5")
    expect(formatDecimal(123n, -2)).toBe("12300")
    expect(formatDecimal(0n, 2)).toBe("0.00")
  })
})

describe("decimal128 and decimal256 columns round-trip through IPC", () => {
  it("decimal128(38, s) at the limits, negatives and nulls", () => {
    const max38 = "9".repeat(38)
    expect(unscaledAll(new Decimal(0, 38, 128), [max38, `-${max38}`, null, "0", "-1", 12345n, -7])).toEqual([
      10n ** 38n - 1n,
      -(10n ** 38n - 1n),
      null,
      0n,
      -1n,
      12345n,
      -7n
    ])
    expect(unscaledAll(new Decimal(4, 20, 128), ["-12345.678", "0.0001", 1.25, null])).toEqual([
      -123456780n,
      1n,
      12500n,
      null
    ])
  })

  it("decimal256 with more than 38 digits", () => {
    const big = "1234567890".repeat(7) + "123456"
    expect(big.length).toBe(76)
    const type = new Decimal(6, 76, 256)
    const text = `${big.slice(0, 70)}.${big.slice(70)}`
    expect(unscaledAll(type, [text, `-${text}`, null, "-0.000001"])).toEqual([BigInt(big), -BigInt(big), null, -1n])
    const vector = roundTrip(type, [text])
    expect(vector.type.bitWidth).toBe(256)
    expect(vector.type.precision).toBe(76)
  })

  it("grows past initial capacity (property against the BigInt oracle)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n })), { maxLength: 60 }),
        (values) => {
          const builder = new DecimalBuilder(new Decimal(10, 38, 128), { initialCapacity: 1 })
          for (const v of values) {
            if (v === null) builder.appendNull()
            else builder.appendString(formatDecimal(v, 10))
          }
          const vector = roundTripBuilder(builder)
          expect(unscaledOf(vector)).toEqual(values)
          // apache-arrow's own reader agrees for decimal128
          expect(values.map((_, i) => (vector.get(i) === null ? null : BigInt(util.bigNumToString(vector.get(i) as never))))).toEqual(values)
        }
      )
    )
  })

  it("rejects values that do not fit, naming the column", () => {
    const builder = new DecimalBuilder(new Decimal(2, 5, 128), { name: "price" })
    expect(() => builder.appendString("1234.5")).toThrow(/column "price".*precision 5/)
    expect(() => builder.appendString("1.234")).toThrow(/scale 2/)
    expect(() => builder.appendBigInt(100000n)).toThrow(/more than 5 digits/)
    expect(() => builder.appendNumber(NaN)).toThrow(ArrowAssemblyError)
    expect(builder.length).toBe(0)
    expect(() => new DecimalBuilder(new Decimal(0, 39, 128))).toThrow(/precision must be 1..38/)
    expect(() => new DecimalBuilder(new Decimal(0, 77, 256))).toThrow(/precision must be 1..76/)
  })
})
