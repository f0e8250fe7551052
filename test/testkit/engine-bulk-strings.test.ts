import { describe, expect, it } from "@effect/vitest"
import { BLOB, INTEGER, VARCHAR } from "@duckdb/node-api"
import { BulkRows, Engine } from "../../testkit/engine/index.ts"

/** Text of row `i`: inlined (≤ 12 bytes), long, or long with multi-byte characters, by row. */
const text = (i: number): string => (i % 3 === 0 ? `s${i}` : i % 3 === 1 ? `a longer value of row ${i}` : `äöü ${"x".repeat(i % 50)} ${i} €`)

// BulkRows.chunk hands the long strings of a chunk column to DuckDB as one value and points every row's string
// struct into its copy: each value must come back whole, compare equal, sort and group as itself.
describe("testkit engine BulkRows long strings", () => {
  it("every long and short VARCHAR / BLOB value of many chunks reads back, compares equal and groups as itself", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute(`CREATE TABLE t (id INTEGER, name VARCHAR, bin BLOB)`)
      const n = 7000
      const rows = new BulkRows(
        [
          { name: "id", type: INTEGER },
          { name: "name", type: VARCHAR },
          { name: "bin", type: BLOB }
        ],
        n
      )
      const enc = new TextEncoder()
      for (let i = 0; i < n; i++) {
        rows.setNumber(0, i, i)
        if (i % 11 === 5) rows.setNull(1, i)
        else rows.setBytes(1, i, enc.encode(text(i)))
        // a value set twice (a bind row decoded again when it continued in the next packet) keeps the second copy
        if (i % 13 === 0 && i % 11 !== 5) rows.setBytes(1, i, enc.encode(text(i)))
        rows.setBytes(2, i, enc.encode(`blob ${"b".repeat(i % 40)} ${i}`))
      }
      expect(await s.appendRows({ schema: "main", table: "t" }, rows)).toBe(n)
      const got = await s.queryAll(`SELECT id, name, CAST(bin AS VARCHAR) FROM t ORDER BY id`)
      expect(got).toEqual(Array.from({ length: n }, (_, i) => [i, i % 11 === 5 ? null : text(i), `blob ${"b".repeat(i % 40)} ${i}`]))
      // equality, prefix and ordering go through DuckDB's string structs, not only the bytes they point at
      expect(await s.queryAll(`SELECT id FROM t WHERE name = 'a longer value of row 4000'`)).toEqual([[4000]])
      const ids = Array.from({ length: n }, (_, i) => i)
      const longRows = ids.filter((i) => i % 3 === 1 && i % 11 !== 5).length
      expect(await s.queryAll(`SELECT count(*) FROM t WHERE name LIKE 'a longer value of row %'`)).toEqual([[BigInt(longRows)]])
      const named = BigInt(ids.filter((i) => i % 11 !== 5).length)
      expect(await s.queryAll(`SELECT count(DISTINCT name), count(name) FROM t`)).toEqual([[named, named]])
    } finally {
      engine.close()
    }
  })

  it("values set out of row order (a spread-out arena) read back each as its own row", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute(`CREATE TABLE u (id INTEGER, name VARCHAR)`)
      const n = 5000
      const rows = new BulkRows(
        [
          { name: "id", type: INTEGER },
          { name: "name", type: VARCHAR }
        ],
        n
      )
      const enc = new TextEncoder()
      // rows filled in a stride order, so each chunk's values lie scattered over the whole arena
      for (let k = 0; k < n; k++) {
        const i = (k * 2003) % n
        rows.setNumber(0, i, i)
        rows.setBytes(1, i, enc.encode(`${"value ".repeat(1 + (i % 4))}${i}`))
      }
      expect(await s.appendRows({ schema: "main", table: "u" }, rows)).toBe(n)
      const got = await s.queryAll(`SELECT id, name FROM u ORDER BY id`)
      expect(got).toEqual(Array.from({ length: n }, (_, i) => [i, `${"value ".repeat(1 + (i % 4))}${i}`]))
    } finally {
      engine.close()
    }
  })
})
