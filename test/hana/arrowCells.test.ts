import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { columnCells } from "../../layers/common/ArrowCells.ts"

const plain = (v: unknown) => (v instanceof Uint8Array ? [...v] : typeof v === "bigint" ? Number(v) : v)

describe("shared Arrow cell reader", () => {
  const n = 20
  const vectors: Record<string, Arrow.Vector> = {
    int8: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : i - 10)), new Arrow.Int8()),
    int32: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 4 === 0 ? null : i * 1000)), new Arrow.Int32()),
    int64: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : BigInt(i) * 10n ** 15n)), new Arrow.Int64()),
    float64: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? null : i / 4)), new Arrow.Float64()),
    bool: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : i % 2 === 0)), new Arrow.Bool()),
    utf8: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 3 === 1 ? null : `s${i}😀`)), new Arrow.Utf8()),
    binary: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 3 === 2 ? null : new Uint8Array([i, i + 1]))), new Arrow.Binary())
  }

  for (const [name, vector] of Object.entries(vectors)) {
    it(`${name}: whole and sliced columns read like apache-arrow's own get()`, () => {
      const table = new Arrow.Table({ v: vector })
      for (const [start, end] of [[0, n], [3, 17], [9, 10]] as const) {
        const sliced = table.slice(start, end)
        const expected: Array<unknown> = []
        const actual: Array<unknown> = []
        for (const data of sliced.getChild("v")!.data) {
          const cells = columnCells(data)
          const v = Arrow.makeVector(data)
          for (let i = 0; i < data.length; i++) {
            expected.push(plain(v.get(i)))
            actual.push(plain(cells.get(i)))
          }
        }
        expect(actual).toEqual(expected)
      }
    })
  }

  it("decimal, date, time and timestamp slices", () => {
    const rows = 10
    const words = new Uint32Array(rows * 4)
    for (let i = 0; i < rows; i++) {
      const v = BigInt.asUintN(128, BigInt(i - 5) * 12345n)
      for (let k = 0; k < 4; k++) words[i * 4 + k] = Number((v >> BigInt(32 * k)) & 0xffffffffn)
    }
    const dec = Arrow.makeVector(Arrow.makeData({ type: new Arrow.Decimal(2, 10, 128), length: rows, nullCount: 0, data: words }))
    const days = Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: rows, nullCount: 0, data: new Int32Array(rows).map((_, i) => i * 100) }))
    const ts = Arrow.makeVector(Arrow.makeData({
      type: new Arrow.TimestampMicrosecond("UTC"),
      length: rows,
      nullCount: 0,
      data: new BigInt64Array(rows).map((_, i) => BigInt(i) * 1_000_001n)
    }))
    const table = new Arrow.Table({ dec, days, ts }).slice(4, 8)
    const read = (name: "dec" | "days" | "ts") => {
      const data = table.getChild(name)!.data[0]!
      const cells = columnCells(data)
      return Array.from({ length: data.length }, (_, i) => cells.get(i))
    }
    expect(read("dec")).toEqual(["-123.45", "0.00", "123.45", "246.90"])
    expect(read("days")).toEqual([400, 500, 600, 700])
    expect(read("ts")).toEqual([4n, 5n, 6n, 7n].map((i) => i * 1_000_001n * 1000n))
  })
})
