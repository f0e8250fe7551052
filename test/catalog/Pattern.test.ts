import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { compilePattern, matchesPattern, patternPushdown } from "../../src/catalog/Pattern.ts"

/**
 * Independent reference: classic dynamic programming over code points, no regular expressions.
 * `%` = any run (possibly empty), `_` = exactly one code point, everything else literal, case-sensitive.
 */
const referenceMatch = (pattern: string, name: string): boolean => {
  const p = Array.from(pattern)
  const s = Array.from(name)
  // row[j] = does p[0..i) match s[0..j)
  let row = Array.from({ length: s.length + 1 }, (_, j) => j === 0)
  for (const pc of p) {
    const next = Array.from({ length: s.length + 1 }, () => false)
    next[0] = pc === "%" && row[0]!
    for (let j = 1; j <= s.length; j++) {
      if (pc === "%") next[j] = row[j]! || next[j - 1]!
      else if (pc === "_") next[j] = row[j - 1]!
      else next[j] = row[j - 1]! && pc === s[j - 1]
    }
    row = next
  }
  return row[s.length]!
}

// Characters that are special to regular expressions, to SQL patterns, plus case pairs and astral code points.
const alphabet = fc.constantFrom(
  "a", "A", "b", "B", "%", "_", ".", "*", "+", "?", "^", "$", "(", ")", "[", "]", "{", "}", "|", "\\", "/", "-",
  "\n", " ", "é", "É", "😀", "\u0000"
)
const text = (maxLength: number) => fc.array(alphabet, { maxLength }).map((cs) => cs.join(""))

describe("compilePattern", () => {
  it("treats null and undefined as no filter, matching missing names too", () => {
    for (const p of [null, undefined]) {
      const m = compilePattern(p)
      expect([m("x"), m(""), m(null), m(undefined)]).toEqual([true, true, true, true])
    }
  })

  it('"" matches only objects without a name (and the empty name)', () => {
    const m = compilePattern("")
    expect([m(null), m(undefined), m(""), m("x"), m("%")]).toEqual([true, true, true, false, false])
  })

  it("non-empty patterns never match a missing name, not even %", () => {
    for (const p of ["%", "%%", "_", "a", "a%"]) {
      expect(compilePattern(p)(null)).toBe(false)
      expect(compilePattern(p)(undefined)).toBe(false)
    }
  })

  it("% matches any run, _ exactly one character", () => {
    expect(matchesPattern("bulk_%", "bulk_ingest")).toBe(true)
    expect(matchesPattern("bulk_%", "bulkXingest")).toBe(true)
    expect(matchesPattern("bulk_%", "bulk")).toBe(false)
    expect(matchesPattern("in%", "int64s")).toBe(true)
    expect(matchesPattern("in%", "strings")).toBe(false)
    expect(matchesPattern("%", "")).toBe(true)
    expect(matchesPattern("_", "")).toBe(false)
    expect(matchesPattern("a_c", "abc")).toBe(true)
    expect(matchesPattern("a_c", "abbc")).toBe(false)
    expect(matchesPattern("%b%", "abc")).toBe(true)
  })

  it("is case-sensitive", () => {
    expect(matchesPattern("SYS", "sys")).toBe(false)
    expect(matchesPattern("s%", "SYS")).toBe(false)
    expect(matchesPattern("S%", "SYS")).toBe(true)
  })

  it("has no escaping and no regex injection", () => {
    expect(matchesPattern("a.c", "abc")).toBe(false)
    expect(matchesPattern("a.c", "a.c")).toBe(true)
    expect(matchesPattern("(a|b)*", "a")).toBe(false)
    expect(matchesPattern("(a|b)*", "(a|b)*")).toBe(true)
    expect(matchesPattern("\\%", "\\anything")).toBe(true)
    expect(matchesPattern("\\%", "%")).toBe(false)
    expect(matchesPattern("[a-z]", "q")).toBe(false)
    expect(matchesPattern("[a-z]", "[a-z]")).toBe(true)
    expect(matchesPattern("_SYS_%", "_SYS_BIC")).toBe(true)
  })

  it("_ matches one code point, including astral characters and newlines", () => {
    expect(matchesPattern("_", "😀")).toBe(true)
    expect(matchesPattern("__", "😀")).toBe(false)
    expect(matchesPattern("a_b", "a\nb")).toBe(true)
    expect(matchesPattern("a%b", "a\n\nb")).toBe(true)
  })

  it("returns the cached matcher for the same pattern", () => {
    expect(compilePattern("abc%")).toBe(compilePattern("abc%"))
  })

  it("agrees with an independent reference matcher (property)", () => {
    fc.assert(
      fc.property(text(8), text(10), (pattern, name) => {
        expect(compilePattern(pattern)(name)).toBe(referenceMatch(pattern, name))
      }),
      { numRuns: 3000 }
    )
  })

  it("matches every name against a pattern derived from it (property)", () => {
    // Replace some characters of a name by _ or insert %: the result must still match the name.
    fc.assert(
      fc.property(
        text(10).filter((s) => s.length > 0),
        fc.array(fc.constantFrom("keep", "underscore", "percent"), { minLength: 10, maxLength: 10 }),
        (name, edits) => {
          const pattern = Array.from(name)
            .map((c, i) => (edits[i] === "underscore" ? "_" : edits[i] === "percent" ? `%${c}` : c))
            .join("")
          expect(compilePattern(pattern)(name)).toBe(true)
        }
      ),
      { numRuns: 1000 }
    )
  })
})

describe("patternPushdown", () => {
  it("classifies patterns for dictionary-query pre-filtering", () => {
    expect(patternPushdown(undefined)).toEqual({ _tag: "All" })
    expect(patternPushdown(null)).toEqual({ _tag: "All" })
    expect(patternPushdown("")).toEqual({ _tag: "Missing" })
    expect(patternPushdown("SALES")).toEqual({ _tag: "Equals", value: "SALES" })
    expect(patternPushdown("a.b\\c")).toEqual({ _tag: "Equals", value: "a.b\\c" })
    expect(patternPushdown("S%")).toEqual({ _tag: "Like", pattern: "S%" })
    expect(patternPushdown("_SYS_BIC")).toEqual({ _tag: "Like", pattern: "_SYS_BIC" })
  })

  it("Equals means the matcher accepts exactly that name (property)", () => {
    fc.assert(
      fc.property(text(8), text(8), (pattern, name) => {
        const pushdown = patternPushdown(pattern)
        if (pushdown._tag === "Equals") expect(compilePattern(pattern)(name)).toBe(name === pushdown.value)
      }),
      { numRuns: 1000 }
    )
  })
})
