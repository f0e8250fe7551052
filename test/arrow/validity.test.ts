import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { ValidityBitmap } from "../../src/arrow/Validity.ts"

describe("ValidityBitmap", () => {
  it("allocates nothing until the first null", () => {
    const bitmap = new ValidityBitmap()
    expect(bitmap.byteLength).toBe(0)
    expect(bitmap.finish(100)).toBeUndefined()
    expect(bitmap.nullCount).toBe(0)
  })

  it("marks exactly the null rows and clears padding bits (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.array(fc.nat(), { maxLength: 50 }), (length, picks) => {
        const nulls = [...new Set(picks.map((p) => p % length))].sort((a, b) => a - b)
        const bitmap = new ValidityBitmap()
        for (const i of nulls) bitmap.setNull(i)
        expect(bitmap.nullCount).toBe(nulls.length)
        const bytes = bitmap.finish(length)
        if (nulls.length === 0) {
          expect(bytes).toBeUndefined()
          return
        }
        expect(bytes!.length).toBe(Math.ceil(length / 8))
        const nullSet = new Set(nulls)
        for (let i = 0; i < bytes!.length * 8; i++) {
          const bit = (bytes![i >> 3]! >> (i & 7)) & 1
          expect(bit).toBe(i < length && !nullSet.has(i) ? 1 : 0)
        }
        expect(bitmap.nullCount).toBe(0)
        expect(bitmap.byteLength).toBe(0)
      })
    )
  })
})
