import { Field, Float64, Int32, Int64, Schema, Utf8 } from "apache-arrow"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  ArrowAssemblyError,
  BatchAssembler,
  type ColumnBuilder,
  columnsPage,
  Int32Builder,
  type Page,
  recordsPage,
  rowsPage,
  VarBinaryBuilder
} from "../../src/arrow/index.ts"
import { ipcRoundTrip } from "./helpers.ts"

const fields = [
  { name: "id", type: new Int32(), nullable: false },
  { name: "name", type: new Utf8() }
]

/** A page of `count` rows starting at id `start`, decoded with the type-specific fast paths as a driver would. */
const idPage = (start: number, count: number): Page => {
  let position = 0
  return {
    appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number {
      const n = Math.min(maxRows, count - position)
      const ids = builders[0] as Int32Builder<Int32>
      const names = builders[1] as VarBinaryBuilder<Utf8>
      for (let r = position; r < position + n; r++) {
        ids.appendNumber(start + r)
        if ((start + r) % 5 === 0) names.appendNull()
        else names.appendString(`n${start + r}`)
      }
      position += n
      return n
    }
  }
}

/** Runs pages of the given sizes through an assembler; returns the batches (including the flushed remainder). */
const assemble = (sizes: ReadonlyArray<number>, maxRows: number, mode: "hard" | "best-effort") => {
  const assembler = new BatchAssembler(fields, { maxRows, mode, initialCapacity: 2 })
  const batches = []
  let start = 0
  for (const size of sizes) {
    batches.push(...assembler.push(idPage(start, size)))
    start += size
  }
  const last = assembler.flush()
  if (last !== undefined) batches.push(last)
  expect(assembler.pendingRows).toBe(0)
  return batches
}

describe("BatchAssembler row caps", () => {
  it("hard mode never exceeds the cap, splits pages, and keeps every row in order (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }), fc.integer({ min: 1, max: 25 }), (sizes, cap) => {
        const batches = assemble(sizes, cap, "hard")
        const total = sizes.reduce((a, b) => a + b, 0)
        expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(total)
        for (const b of batches) expect(b.numRows).toBeGreaterThan(0)
        for (const b of batches) expect(b.numRows).toBeLessThanOrEqual(cap)
        // all but the last batch are exactly full
        for (const b of batches.slice(0, -1)) expect(b.numRows).toBe(cap)
        const table = ipcRoundTrip(...batches)
        expect(Array.from(table.getChild("id")?.toArray() ?? [])).toEqual(Array.from({ length: total }, (_, i) => i))
        for (let i = 0; i < total; i++) expect(table.getChild("name")!.get(i)).toBe(i % 5 === 0 ? null : `n${i}`)
      })
    )
  })

  it("best-effort mode appends whole pages and cuts once the cap is reached (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }), fc.integer({ min: 1, max: 25 }), (sizes, cap) => {
        const batches = assemble(sizes, cap, "best-effort")
        const total = sizes.reduce((a, b) => a + b, 0)
        expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(total)
        // Expected cut points: accumulate whole pages until >= cap.
        const expected: Array<number> = []
        let pending = 0
        for (const size of sizes) {
          pending += size
          if (pending >= cap) {
            expected.push(pending)
            pending = 0
          }
        }
        if (pending > 0) expected.push(pending)
        expect(batches.map((b) => b.numRows)).toEqual(expected)
        const table = ipcRoundTrip(...batches)
        expect(Array.from(table.getChild("id")?.toArray() ?? [])).toEqual(Array.from({ length: total }, (_, i) => i))
      })
    )
  })

  it("best-effort may exceed the cap by a page; hard splits the same page", () => {
    expect(assemble([3, 10], 5, "best-effort").map((b) => b.numRows)).toEqual([13])
    expect(assemble([3, 10], 5, "hard").map((b) => b.numRows)).toEqual([5, 5, 3])
    expect(assemble([5], 5, "hard").map((b) => b.numRows)).toEqual([5])
  })

  it("approximate byte cap cuts batches early", () => {
    const assembler = new BatchAssembler([{ name: "s", type: new Utf8() }], { maxRows: 1_000_000, mode: "hard", maxBytes: 1000 })
    const rows = Array.from({ length: 100 }, (_, i) => [`${i}`.padStart(50, "x")])
    const batches = []
    for (let p = 0; p < 10; p++) batches.push(...assembler.push(rowsPage(rows.slice(p * 10, p * 10 + 10))))
    const last = assembler.flush()
    if (last) batches.push(last)
    expect(batches.length).toBeGreaterThan(1)
    expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(100)
    for (const b of batches) expect(b.numRows).toBeLessThanOrEqual(30)
  })
})

describe("BatchAssembler byte cap inside a page", () => {
  /** Bytes a row of `text` takes in a (Int32, Utf8) batch: 4 for the id, 4 for the offset, the UTF-8 bytes. */
  const rowBytes = (text: string) => 8 + Buffer.byteLength(text)
  /** Pages of rows (id, text); `rowByRow` false hides `appendRowsWithin`, as a page that only decodes slices. */
  const run = (pages: ReadonlyArray<ReadonlyArray<string>>, maxBytes: number, mode: "hard" | "best-effort", maxRows = 1_000_000, rowByRow = true) => {
    const assembler = new BatchAssembler(fields, { maxRows, mode, maxBytes })
    const batches = []
    let id = 0
    for (const texts of pages) {
      const page = rowsPage(texts.map((t) => [id++, t]))
      batches.push(...assembler.push(rowByRow ? page : { appendRows: (builders, rows) => page.appendRows(builders, rows) }))
    }
    const last = assembler.flush()
    if (last !== undefined) batches.push(last)
    return batches
  }

  it("a page larger than the budget is cut into several batches, none above about twice the budget (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ minLength: 50, maxLength: 100 }), { maxLength: 400 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 300, max: 8000 }),
        fc.constantFrom("hard" as const, "best-effort" as const),
        fc.boolean(),
        (pages, maxBytes, mode, rowByRow) => {
          const batches = run(pages, maxBytes, mode, 1_000_000, rowByRow)
          const texts = pages.flat()
          expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(texts.length)
          let row = 0
          for (const b of batches) {
            let bytes = 0
            for (let k = 0; k < b.numRows; k++) bytes += rowBytes(texts[row + k]!)
            if (b.numRows > 1) expect(bytes, `${b.numRows} rows`).toBeLessThanOrEqual(2 * maxBytes)
            row += b.numRows
          }
          if (texts.length > 0) expect(Array.from(ipcRoundTrip(...batches).getChild("name")!, (v) => v)).toEqual(texts)
        }
      ),
      { numRuns: 60 }
    )
  })

  it("rows of any sizes in one page (pages checking the budget row by row): a batch of several rows stays within the budget plus its last row, below twice the budget, and a row larger than the budget is alone (property)", () => {
    const sized = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 200, max: 3_000 }), fc.integer({ min: 5_000, max: 20_000 }))
    fc.assert(
      fc.property(
        fc.array(fc.array(sized, { maxLength: 300 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1_000, max: 10_000 }),
        fc.constantFrom("hard" as const, "best-effort" as const),
        fc.integer({ min: 1, max: 500 }),
        (lengths, maxBytes, mode, maxRows) => {
          const pages = lengths.map((page) => page.map((n, i) => String.fromCharCode(97 + (i % 26)).repeat(n)))
          const batches = run(pages, maxBytes, mode, maxRows)
          const texts = pages.flat()
          expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(texts.length)
          let row = 0
          for (const b of batches) {
            const rows = texts.slice(row, (row += b.numRows)).map(rowBytes)
            const bytes = rows.reduce((n, r) => n + r, 0)
            if (mode === "hard") expect(b.numRows).toBeLessThanOrEqual(maxRows)
            if (b.numRows > 1) {
              expect(bytes - rows.at(-1)!, `${b.numRows} rows`).toBeLessThan(maxBytes)
              expect(bytes, `${b.numRows} rows`).toBeLessThanOrEqual(maxBytes + 8)
              for (const r of rows) expect(r).toBeLessThanOrEqual(maxBytes)
            }
          }
          if (texts.length > 0) expect(Array.from(ipcRoundTrip(...batches).getChild("name")!, (v) => v)).toEqual(texts)
        }
      ),
      { numRuns: 60 }
    )
  })

  it("one page of 1,000 rows under a 2,000-byte budget gives many batches; after a row larger than the budget, batches shrink again", () => {
    const texts = Array.from({ length: 1000 }, (_, i) => `row ${i}`.padEnd(60, "."))
    const batches = run([texts], 2000, "hard")
    expect(batches.length).toBeGreaterThan(20)
    for (const b of batches) expect(b.numRows).toBeLessThanOrEqual(Math.ceil(4000 / rowBytes(texts[0]!)))
    // the large row is a batch alone; the ones after it are within the budget
    const big = "x".repeat(10_000)
    const mixed = [...texts.slice(0, 100), big, ...texts.slice(100, 400)]
    const huge = run([mixed], 2000, "hard")
    expect(huge.reduce((n, b) => n + b.numRows, 0)).toBe(401)
    let row = 0
    const sizes = huge.map((b) => {
      const slice = mixed.slice(row, (row += b.numRows))
      return { big: slice.includes(big), bytes: slice.reduce((n, t) => n + rowBytes(t), 0) }
    })
    expect(sizes.filter((b) => b.big)).toHaveLength(1)
    for (const b of sizes) if (!b.big) expect(b.bytes).toBeLessThanOrEqual(4000)
    expect(sizes.filter((b) => !b.big).length).toBeGreaterThan(10)
    // the row cap still holds with a byte cap
    for (const b of run([texts], 1_000_000, "hard", 7)) expect(b.numRows).toBeLessThanOrEqual(7)
  })

  it("a null does not shrink batches to one row: a validity bitmap counts the bytes its rows use, not its allocation", () => {
    // rows of 14 or 15 bytes (8 + "row NN"), every seventh name null: about six fit in 100 bytes
    const rows = Array.from({ length: 100 }, (_, i) => [i, i % 7 === 0 ? null : `row ${i}`.padStart(6, "0")])
    for (const mode of ["hard", "best-effort"] as const) {
      const assembler = new BatchAssembler(fields, { maxRows: 1_000_000, mode, maxBytes: 100 })
      const batches = assembler.push(rowsPage(rows))
      const last = assembler.flush()
      if (last !== undefined) batches.push(last)
      expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(100)
      for (const b of batches.slice(0, -1)) {
        expect(b.numRows, mode).toBeGreaterThanOrEqual(4)
        expect(b.numRows, mode).toBeLessThanOrEqual(8)
      }
    }
  })
})

describe("BatchAssembler zero rows and schema", () => {
  it("no rows: flush gives no batch, emptyBatch gives a zero-row batch with the schema", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 10, mode: "hard" })
    expect(assembler.push(rowsPage([]))).toEqual([])
    expect(assembler.flush()).toBeUndefined()
    const empty = assembler.emptyBatch()
    expect(empty.numRows).toBe(0)
    const table = ipcRoundTrip(empty)
    expect(table.numRows).toBe(0)
    expect(table.schema.fields.map((f) => [f.name, String(f.type), f.nullable])).toEqual([
      ["id", "Int32", false],
      ["name", "Utf8", true]
    ])
  })

  it("keeps field metadata and accepts a prebuilt Schema", () => {
    const schema = new Schema([new Field("n", new Float64(), true, new Map([["oracle.type-name", "BINARY_DOUBLE"]]))])
    const assembler = new BatchAssembler(schema, { maxRows: 2, mode: "best-effort" })
    const [batch] = assembler.push(columnsPage([[1.5, null, 3]]))
    expect(batch!.numRows).toBe(3)
    const table = ipcRoundTrip(batch!)
    expect(table.schema.fields[0]!.metadata.get("oracle.type-name")).toBe("BINARY_DOUBLE")
    expect(Array.from({ length: 3 }, (_, i) => table.getChild("n")!.get(i))).toEqual([1.5, null, 3])
    const withSpecMetadata = new BatchAssembler([{ name: "x", type: new Int64(), metadata: { k: "v" } }], {
      maxRows: 1,
      mode: "hard"
    })
    expect(withSpecMetadata.schema.fields[0]!.metadata.get("k")).toBe("v")
  })

  it("recordsPage reads hdb-style row objects by key", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 100, mode: "best-effort" })
    assembler.push(recordsPage([{ ID: 1, NAME: "a" }, { ID: 2, NAME: null }], ["ID", "NAME"]))
    const table = ipcRoundTrip(assembler.flush()!)
    expect(table.toArray().map((r) => r.toJSON())).toEqual([{ id: 1, name: "a" }, { id: 2, name: null }])
  })
})

describe("BatchAssembler builders", () => {
  it("uses a driver-supplied builder when given, and checks its type", () => {
    let calls = 0
    class CountingUtf8 extends VarBinaryBuilder<Utf8> {
      override appendString(value: string): void {
        calls++
        super.appendString(value.toUpperCase())
      }
    }
    const assembler = new BatchAssembler(fields, {
      maxRows: 10,
      mode: "hard",
      makeBuilder: (field) => (field.name === "name" ? new CountingUtf8(new Utf8(), { name: field.name }) : undefined)
    })
    assembler.push(rowsPage([[1, "a"], [2, "b"]]))
    const table = ipcRoundTrip(assembler.flush()!)
    expect([table.getChild("name")!.get(0), table.getChild("name")!.get(1)]).toEqual(["A", "B"])
    expect(calls).toBe(2)
    expect(() => new BatchAssembler(fields, { maxRows: 1, mode: "hard", makeBuilder: () => new VarBinaryBuilder(new Utf8()) }))
      .toThrow(/builder type Utf8 does not match field type Int32/)
  })

  it("clear() drops pending rows", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 10, mode: "hard" })
    assembler.push(rowsPage([[1, "a"]]))
    expect(assembler.pendingRows).toBe(1)
    expect(assembler.pendingBytes).toBeGreaterThan(0)
    assembler.clear()
    expect(assembler.pendingRows).toBe(0)
    expect(assembler.flush()).toBeUndefined()
    assembler.push(rowsPage([[2, "b"]]))
    expect(ipcRoundTrip(assembler.flush()!).getChild("id")!.get(0)).toBe(2)
  })
})

describe("BatchAssembler guards", () => {
  it("rejects a null in a non-nullable field", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 1, mode: "hard" })
    expect(() => assembler.push(rowsPage([[null, "x"]]))).toThrow(/column "id": null in a non-nullable field/)
  })

  it("rejects a page decoder that appends unevenly", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 10, mode: "hard" })
    const broken: Page = {
      appendRows(builders) {
        builders[0]!.append(1)
        return 1
      }
    }
    assembler.push(broken)
    expect(() => assembler.flush()).toThrow(ArrowAssemblyError)
  })

  it("rejects a page reporting more rows than allowed, and bad options", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 2, mode: "hard" })
    expect(() => assembler.push({ appendRows: () => 3 })).toThrow(/page appended 3 rows/)
    expect(() => new BatchAssembler(fields, { maxRows: 0, mode: "hard" })).toThrow(/maxRows/)
    expect(() => new BatchAssembler(fields, { maxRows: 1.5, mode: "hard" })).toThrow(/maxRows/)
    expect(() => new BatchAssembler(fields, { maxRows: 1, mode: "hard", maxBytes: -1 })).toThrow(/maxBytes/)
  })
})
