import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import * as Connection from "../../src/Connection.ts"
import { columnCells, epochDayOf } from "../../layers/common/ArrowCells.ts"
import { isHanaCalendarDay, isHanaCalendarInstant } from "./ingestArbitraries.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// Property: Arrow values bound to a prepared INSERT into pre-created columns of the mapped types (the binding path,
// as opposed to ingest's created tables in roundtrip.test.ts) read back equal, nulls included.
const server = useServer()

const makeVector = (type: Arrow.DataType, values: ReadonlyArray<unknown>, Storage: new (n: number) => ArrayLike<unknown> & { [i: number]: unknown }) => {
  const bits = new Uint8Array(Math.ceil(values.length / 8) || 1)
  const data = new Storage(values.length * (type instanceof Arrow.Decimal ? 4 : 1))
  values.forEach((v, i) => {
    if (v === null) return
    bits[i >> 3]! |= 1 << (i & 7)
    if (type instanceof Arrow.Decimal) {
      let x = BigInt.asUintN(128, v as bigint)
      for (let k = 0; k < 4; k++, x >>= 32n) data[i * 4 + k] = Number(x & 0xffffffffn)
    } else data[i] = v
  })
  return Arrow.makeVector(Arrow.makeData({
    type,
    length: values.length,
    nullCount: values.filter((v) => v === null).length,
    nullBitmap: bits,
    data
  } as never))
}

const cellsOf = (vector: Arrow.Vector) =>
  vector.data.flatMap((data) => {
    const cells = columnCells(data)
    return Array.from({ length: data.length }, (_, i) => {
      const v = cells.get(i)
      return v instanceof Uint8Array ? [...v] : typeof v === "bigint" || typeof v === "number" ? String(v) : v
    })
  })

const US_PER_DAY = 86_400_000_000n
const US_MIN = BigInt(epochDayOf(1, 1, 1)) * US_PER_DAY
const US_MAX = BigInt(epochDayOf(9999, 12, 31) + 1) * 86_400_000_000n - 1n
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 })
const row = fc.record({
  i: opt(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
  l: opt(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
  d: opt(fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x))),
  s: opt(fc.string({ unit: "grapheme", maxLength: 30 }).filter((x) => !x.includes("\u0000"))),
  b: opt(fc.uint8Array({ maxLength: 30 })),
  o: opt(fc.boolean()),
  dt: opt(fc.integer({ min: epochDayOf(1, 1, 1), max: epochDayOf(9999, 12, 31) }).filter(isHanaCalendarDay)),
  n: opt(fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n })),
  ts: opt(fc.bigInt({ min: US_MIN, max: US_MAX }).filter((us) => isHanaCalendarInstant(us, US_PER_DAY)))
})

describe("binding property (prepared INSERT into pre-created columns)", () => {
  it("every mapped type binds and reads back equal, nulls included", async () => {
    const t = uniqueName("BINDP")
    await Effect.runPromise(withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) =>
      conn.execute(
        `CREATE TABLE ${t} (K INTEGER, I INTEGER, L BIGINT, D DOUBLE, S NVARCHAR(100), B VARBINARY(100), O BOOLEAN, DT DATE, N DECIMAL(18,4), TS TIMESTAMP)`
      ))))
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 10 }), async (rows) => {
        const k = run++
        const col = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key])
        const table = new Arrow.Table({
          k: Arrow.vectorFromArray(rows.map(() => k), new Arrow.Int32()),
          i: Arrow.vectorFromArray(col("i"), new Arrow.Int32()),
          l: makeVector(new Arrow.Int64(), col("l"), BigInt64Array as never),
          d: Arrow.vectorFromArray(col("d"), new Arrow.Float64()),
          s: Arrow.vectorFromArray(col("s"), new Arrow.Utf8()),
          b: Arrow.vectorFromArray(col("b"), new Arrow.Binary()),
          o: Arrow.vectorFromArray(col("o"), new Arrow.Bool()),
          dt: makeVector(new Arrow.DateDay(), col("dt"), Int32Array as never),
          n: makeVector(new Arrow.Decimal(4, 18, 128), col("n"), Uint32Array as never),
          ts: makeVector(new Arrow.TimestampMicrosecond(), col("ts"), BigInt64Array as never)
        })
        const back = await Effect.runPromise(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const insert = yield* conn.statement()
          yield* insert.setSqlQuery(`INSERT INTO ${t} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
          yield* insert.prepare
          yield* insert.bind(table.batches[0]!)
          expect(yield* insert.executeUpdate).toBe(rows.length)
          // insertion order is not kept by a SELECT without a key per row; compare as sorted multisets of rows
          return new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT I, L, D, S, B, O, DT, N, TS FROM ${t} WHERE K = ${k}`)))
        })))
        const rowsOf = (tbl: Arrow.Table, names: ReadonlyArray<string>) => {
          const columns = names.map((name) => cellsOf(tbl.getChild(name)!))
          return Array.from({ length: tbl.numRows }, (_, r) => JSON.stringify(columns.map((c) => c[r]))).sort()
        }
        expect(rowsOf(back, ["I", "L", "D", "S", "B", "O", "DT", "N", "TS"])).toEqual(rowsOf(table, ["i", "l", "d", "s", "b", "o", "dt", "n", "ts"]))
      }),
      { numRuns: 25 }
    )
  }, 60_000)
})
