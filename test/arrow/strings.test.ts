import { Binary, LargeBinary, LargeUtf8, Utf8, vectorFromArray } from "apache-arrow"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { LargeVarBinaryBuilder, makeColumnBuilder, VarBinaryBuilder } from "../../src/arrow/index.ts"
import { roundTrip, roundTripBuilder } from "./helpers.ts"

const samples = ["", "a", "héllo", "日本語テキスト", "emoji 😀 and 𝄞", "\u0000nul", null, "x".repeat(5000), "", null]

const bytesOf = (v: unknown): unknown => (v instanceof Uint8Array ? Array.from(v) : v)

describe("utf8 and large_utf8", () => {
  for (const type of [new Utf8(), new LargeUtf8()]) {
    it(`${type}: empty, non-ASCII (incl. 4-byte UTF-8), nulls and long values`, () => {
      const vector = roundTrip(type, samples)
      expect(String(vector.type)).toBe(String(type))
      expect(samples.map((_, i) => vector.get(i))).toEqual(samples)
      expect(vector.nullCount).toBe(2)
    })

    it(`${type}: matches apache-arrow's vectorFromArray (property, full Unicode)`, () => {
      fc.assert(
        fc.property(fc.array(fc.option(fc.string({ unit: "binary" }), { nil: null })), (values) => {
          const builder = makeColumnBuilder(type, { initialCapacity: 1 })
          for (const v of values) builder.append(v)
          const ours = roundTripBuilder(builder)
          const oracle = vectorFromArray(values, type)
          expect(values.map((_, i) => ours.get(i))).toEqual(values.map((_, i) => oracle.get(i)))
          expect(ours.nullCount).toBe(oracle.nullCount)
        })
      )
    })
  }

  for (const type of [new Utf8(), new LargeUtf8()]) {
    it(`${type}: chunked ASCII writing survives any mix of ASCII, non-ASCII, empty, null, bytes and long texts (property)`, () => {
      type Op = { kind: "string"; value: string } | { kind: "bytes"; value: string } | { kind: "null" }
      const op: fc.Arbitrary<Op> = fc.oneof(
        { weight: 20, arbitrary: fc.stringMatching(/^[ -~]{0,30}$/).map((value) => ({ kind: "string", value }) as Op) },
        { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }).map((value) => ({ kind: "string", value }) as Op) },
        { weight: 1, arbitrary: fc.constant({ kind: "null" } as Op) },
        { weight: 1, arbitrary: fc.constant({ kind: "string", value: "" } as Op) },
        { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((value) => ({ kind: "bytes", value }) as Op) },
        { weight: 1, arbitrary: fc.constantFrom("x", "é").map((c) => ({ kind: "string", value: c.repeat(70_000) }) as Op) }
      )
      fc.assert(
        fc.property(fc.array(op, { maxLength: 5000 }), fc.integer({ min: 1, max: 3 }), (ops, batches) => {
          const builder = makeColumnBuilder(type, { initialCapacity: 1 })
          // the same builder is reused for several batches: chunked mode must come back after a fallback
          for (let b = 0; b < batches; b++) {
            const expected: Array<string | null> = []
            for (const o of ops) {
              if (o.kind === "null") {
                builder.appendNull()
                expected.push(null)
              } else if (o.kind === "bytes") {
                builder.append(new TextEncoder().encode(o.value))
                expected.push(new TextDecoder().decode(new TextEncoder().encode(o.value)))
              } else {
                builder.append(o.value)
                expected.push(new TextDecoder().decode(new TextEncoder().encode(o.value)))
              }
            }
            const vector = roundTripBuilder(builder)
            expect(vector.length).toBe(expected.length)
            for (let i = 0; i < expected.length; i++) {
              if (vector.get(i) !== expected[i]) expect({ row: i, value: vector.get(i) }).toEqual({ row: i, value: expected[i] })
            }
          }
        }),
        { numRuns: 25 }
      )
    })
  }

  it("lone surrogates are written as U+FFFD like TextEncoder", () => {
    const vector = roundTrip(new Utf8(), ["a\uD800b"])
    expect(vector.get(0)).toBe(new TextDecoder().decode(new TextEncoder().encode("a\uD800b")))
  })

  it("offsets are exact Int32 for utf8 and BigInt64 for large_utf8", () => {
    const small = new VarBinaryBuilder(new Utf8())
    const large = new LargeVarBinaryBuilder(new LargeUtf8())
    for (const s of ["ab", "😀", "", "é"]) {
      small.appendString(s)
      large.appendString(s)
    }
    small.appendNull()
    large.appendNull()
    const a = small.finish()
    const b = large.finish()
    expect(Array.from(a.valueOffsets)).toEqual([0, 2, 6, 6, 8, 8])
    expect(Array.from(b.valueOffsets as unknown as BigInt64Array)).toEqual([0n, 2n, 6n, 6n, 8n, 8n])
    expect(a.values.byteLength).toBe(8)
  })

  it("long texts (CLOB-sized) are stored whole, ASCII and multi-byte", () => {
    const builder = new LargeVarBinaryBuilder(new LargeUtf8(), { initialCapacity: 1 })
    const ascii = "a".repeat(200_000)
    const wide = "日😀".repeat(40_000)
    builder.appendString(ascii)
    builder.appendString(wide)
    builder.appendString("end")
    const vector = roundTripBuilder(builder)
    expect([vector.get(0), vector.get(1), vector.get(2)]).toEqual([ascii, wide, "end"])
  })

  it("grows data and offsets far past their initial capacity", () => {
    const builder = new VarBinaryBuilder(new Utf8(), { initialCapacity: 1 })
    const values = Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? null : `row-${i}-ü`))
    for (const v of values) builder.append(v)
    const vector = roundTripBuilder(builder)
    expect(vector.length).toBe(values.length)
    expect([vector.get(0), vector.get(1), vector.get(19_999)]).toEqual([null, "row-1-ü", "row-19999-ü"])
    expect(Array.from({ length: values.length }, (_, i) => vector.get(i))).toEqual(values)
  })
})

describe("binary and large_binary", () => {
  for (const type of [new Binary(), new LargeBinary()]) {
    it(`${type}: bytes, empty, nulls; matches vectorFromArray (property)`, () => {
      const fixed = [new Uint8Array([0, 255, 1]), new Uint8Array(0), null, Buffer.from("buffer ok")]
      const vector = roundTrip(type, fixed)
      expect(fixed.map((_, i) => bytesOf(vector.get(i)))).toEqual(fixed.map(bytesOf))
      fc.assert(
        fc.property(fc.array(fc.option(fc.uint8Array(), { nil: null })), (values) => {
          const builder = makeColumnBuilder(type, { initialCapacity: 1 })
          for (const v of values) builder.append(v)
          const ours = roundTripBuilder(builder)
          const oracle = vectorFromArray(values, type)
          expect(values.map((_, i) => bytesOf(ours.get(i)))).toEqual(values.map((_, i) => bytesOf(oracle.get(i))))
        })
      )
    })
  }
})
