/**
 * redo.statement.read_batch_approx_bytes bounds every batch, also inside one fetched page whose rows vary strongly
 * in size: no batch of more than one row holds more than twice the budget, a row larger than the budget alone is a
 * batch of its own, and every row arrives whole and in order, in both execution modes (batch mode decodes the TTC
 * row bytes, row mode oracledb's JS values; a CLOB column is read through oracledb's values in both).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const BUDGET = 20_000

/** Bytes of a batch's Arrow buffers (values, offsets, validity) over its rows. */
const batchBytes = (b: Arrow.RecordBatch): number =>
  b.data.children.reduce((n, d) => n + (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0), 0)

/** The text of row `id` with `length` characters (ASCII, so bytes = characters), distinct per row. */
const textOf = (id: number, length: number): string => {
  const head = `${id}:`
  return length <= head.length ? head.slice(0, length) : head + String.fromCharCode(97 + (id % 26)).repeat(length - head.length)
}

/** Inserts rows `ID, A, B, C` with each text of `lengths[id]` characters. */
const fill = (table: string, lengths: ReadonlyArray<number>, clob = false) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const text = clob ? "CLOB" : "VARCHAR2(4000)"
    yield* conn.execute(`CREATE TABLE ${table} (ID NUMBER(10), A ${text}, B ${text}, C ${text})`)
    const stmt = yield* conn.statement()
    yield* stmt.setSqlQuery(`INSERT INTO ${table} (ID, A, B, C) VALUES (:1, :2, :3, :4)`)
    const texts = () => Arrow.vectorFromArray(lengths.map((n, id) => textOf(id, n)), new Arrow.Utf8())
    yield* stmt.bind(new Arrow.Table({
      id: Arrow.vectorFromArray(lengths.map((_, id) => id), new Arrow.Int32()),
      a: texts(),
      b: texts(),
      c: texts()
    }))
    yield* stmt.executeUpdate
  })

/** Reads the table in one round trip of rows (after the prefetched first row) under the budget, in `mode`. */
const readCapped = (table: string, mode: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Stream.runCollect(conn.query(`SELECT ID, A, B, C FROM ${table} ORDER BY ID`, {
      "redo.statement.execution_mode": mode,
      "redo.statement.fetch_array_size": "5000",
      "redo.statement.read_batch_approx_bytes": String(BUDGET)
    })))

/** Every batch of more than one row within twice the budget; every row whole and in order. */
const expectBounded = (batches: ReadonlyArray<Arrow.RecordBatch>, lengths: ReadonlyArray<number>, mode: string) => {
  const sizes = batches.map((b) => ({ rows: b.numRows, bytes: batchBytes(b) }))
  for (const size of sizes) if (size.rows > 1) expect(size.bytes, `${mode}: ${JSON.stringify(size)}`).toBeLessThanOrEqual(2 * BUDGET)
  const table = new Arrow.Table(batches)
  expect(table.numRows, mode).toBe(lengths.length)
  const ids = Array.from(table.getChild("ID")!, Number)
  expect(ids, mode).toEqual(lengths.map((_, id) => id))
  for (const name of ["A", "B", "C"]) {
    const column = table.getChild(name)!
    lengths.forEach((n, id) => {
      if (column.get(id) !== textOf(id, n)) expect(column.get(id), `${mode}: ${name} of row ${id}`).toBe(textOf(id, n))
    })
  }
  return sizes
}

const small = (n: number) => Array.from({ length: n }, () => 10)
const large = (n: number) => Array.from({ length: n }, () => 3_900)

describe("redo.statement.read_batch_approx_bytes inside one fetched page", () => {
  it.effect("small rows then large rows: the page is cut so that no batch passes twice the budget", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const t = uniqueName("GROW")
      const lengths = [...small(400), ...large(200)]
      yield* fill(t, lengths)
      for (const mode of ["batch", "row"]) {
        const sizes = expectBounded(yield* readCapped(t, mode), lengths, mode)
        // 200 rows of about 11.7 KB under a 20 KB budget: one or two rows a batch
        expect(sizes.length, mode).toBeGreaterThanOrEqual(100)
      }
    })), 120_000)

  it.effect("large rows then small rows, and blocks of small and large rows alternating", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const shrink = uniqueName("SHRINK")
      const shrinking = [...large(60), ...small(3_000)]
      yield* fill(shrink, shrinking)
      const mixed = uniqueName("MIXED")
      const alternating = Array.from({ length: 4 }, () => [...small(700), ...large(30)]).flat()
      yield* fill(mixed, alternating)
      for (const mode of ["batch", "row"]) {
        const sizes = expectBounded(yield* readCapped(shrink, mode), shrinking, mode)
        // a large row (about 11.7 KB) is a batch alone, since two pass the budget; the small rows after them (about
        // 3,000 × 50 bytes) are not cut into tiny batches: about 8 more
        // (the last one shares its batch with the first small rows)
        expect(sizes.slice(0, 59).map((s) => s.rows), mode).toEqual(large(59).map(() => 1))
        expect(sizes.length, mode).toBeLessThanOrEqual(60 + 10)
        expectBounded(yield* readCapped(mixed, mode), alternating, mode)
      }
    })), 120_000)

  it.effect("a CLOB row larger than the budget alone is a batch of its own; the rows around it stay bounded", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const t = uniqueName("HUGE")
      const lengths = [...small(300), 40_000, ...small(300), 40_000, 40_000, ...small(10)]
      yield* fill(t, lengths, true)
      for (const mode of ["batch", "row"]) {
        const batches = yield* readCapped(t, mode)
        expectBounded(batches, lengths, mode)
        const huge = batches.filter((b) => batchBytes(b) > 2 * BUDGET)
        expect(huge.map((b) => b.numRows), mode).toEqual([1, 1, 1])
      }
    })), 120_000)
})
