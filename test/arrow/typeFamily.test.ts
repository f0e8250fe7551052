import * as Arrow from "apache-arrow"
import { describe, expect, it } from "vitest"
import { isCompatible as hanaCompatible } from "../../layers/hana/WriteTypes.ts"
import { isCompatible as oracleCompatible } from "../../layers/oracle/WriteTypes.ts"

// Both drivers' append checks sort Arrow types into the families of layers/common/TypeFamily.ts, each with its own
// rules between families: these pin the rules that differ.
const f = (type: Arrow.DataType) => new Arrow.Field("C", type, true)

describe("append compatibility by type family", () => {
  it("numbers go into numbers, booleans into numbers, dates and timestamps into each other, in both drivers", () => {
    for (const compatible of [hanaCompatible, oracleCompatible]) {
      expect(compatible(f(new Arrow.Int32()), f(new Arrow.Decimal(2, 10, 128)))).toBe(true)
      expect(compatible(f(new Arrow.Float64()), f(new Arrow.Int64()))).toBe(true)
      expect(compatible(f(new Arrow.Bool()), f(new Arrow.Float64()))).toBe(true)
      expect(compatible(f(new Arrow.DateDay()), f(new Arrow.TimestampMicrosecond()))).toBe(true)
      expect(compatible(f(new Arrow.Int32()), f(new Arrow.Utf8()))).toBe(true)
      expect(compatible(f(new Arrow.Binary()), f(new Arrow.Utf8()))).toBe(false)
      expect(compatible(f(new Arrow.Utf8()), f(new Arrow.Int32()))).toBe(false)
    }
  })

  it("intervals append only on Oracle; times and nested values go into Oracle text only", () => {
    const interval = new Arrow.IntervalDayTime()
    expect(hanaCompatible(f(interval), f(interval))).toBe(false)
    expect(oracleCompatible(f(interval), f(interval))).toBe(true)
    expect(hanaCompatible(f(new Arrow.TimeMillisecond()), f(new Arrow.TimeMillisecond()))).toBe(true)
    expect(oracleCompatible(f(new Arrow.TimeMillisecond()), f(new Arrow.Utf8()))).toBe(true)
    expect(oracleCompatible(f(new Arrow.TimeMillisecond()), f(new Arrow.TimestampSecond()))).toBe(false)
    const nested = new Arrow.List(new Arrow.Field("item", new Arrow.Int32()))
    expect(hanaCompatible(f(nested), f(new Arrow.Utf8()))).toBe(false)
    expect(oracleCompatible(f(nested), f(new Arrow.Utf8()))).toBe(true)
  })
})
