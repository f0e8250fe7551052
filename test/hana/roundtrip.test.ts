import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { columnCells } from "../../layers/common/ArrowCells.ts"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import { isHanaCalendarDay, isHanaCalendarInstant } from "./ingestArbitraries.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// Property: Arrow values bound through ingest (Arrow → HANA) and read back (HANA → Arrow) come back equal, nulls
// included, for every mapped type.
const server = useServer()

type Cell = number | bigint | string | boolean | Uint8Array | null

const bitmap = (values: ReadonlyArray<unknown>) => {
  const bits = new Uint8Array(Math.ceil(values.length / 8) || 1)
  values.forEach((v, i) => {
    if (v !== null) bits[i >> 3]! |= 1 << (i & 7)
  })
  return bits
}
const nulls = (values: ReadonlyArray<unknown>) => values.filter((v) => v === null).length

/** An Arrow vector of `type` from plain values (bigints for 64-bit storage, unscaled bigints for decimals). */
const vectorOf = (type: Arrow.DataType, values: ReadonlyArray<Cell>): Arrow.Vector => {
  const common = { type, length: values.length, nullCount: nulls(values), nullBitmap: bitmap(values) }
  if (type instanceof Arrow.Decimal) {
    const words = new Uint32Array(values.length * 4)
    values.forEach((v, i) => {
      let x = BigInt.asUintN(128, (v as bigint | null) ?? 0n)
      for (let k = 0; k < 4; k++) {
        words[i * 4 + k] = Number(x & 0xffffffffn)
        x >>= 32n
      }
    })
    return Arrow.makeVector(Arrow.makeData({ ...common, type, data: words } as never))
  }
  if (type instanceof Arrow.Timestamp || (type instanceof Arrow.Time && type.bitWidth === 64) || (type instanceof Arrow.Int && type.bitWidth === 64)) {
    const data = new BigInt64Array(values.map((v) => (v === null ? 0n : BigInt(v as bigint))))
    return Arrow.makeVector(Arrow.makeData({ ...common, type, data } as never))
  }
  if (type instanceof Arrow.Date_ || type instanceof Arrow.Time) {
    const data = new Int32Array(values.map((v) => (v === null ? 0 : Number(v))))
    return Arrow.makeVector(Arrow.makeData({ ...common, type, data } as never))
  }
  return Arrow.vectorFromArray(values as Array<never>, type)
}

/** Comparable cells of a column, via the shared cell reader (decimals as text, temporal values in epoch units). */
const cellsOf = (vector: Arrow.Vector): Array<unknown> => {
  const out: Array<unknown> = []
  for (const data of vector.data) {
    const cells = columnCells(data)
    for (let i = 0; i < data.length; i++) {
      const v = cells.get(i)
      out.push(v instanceof Uint8Array ? [...v] : typeof v === "bigint" ? v.toString() : typeof v === "number" ? String(v) : v)
    }
  }
  return out
}

interface Case {
  readonly name: string
  readonly type: Arrow.DataType
  readonly value: fc.Arbitrary<Cell>
  readonly readType: string
}

const DAY_MIN = epochDayOf(1, 1, 1)
const DAY_MAX = epochDayOf(9999, 12, 31)
const US_PER_DAY = 86_400_000_000n

const cases: ReadonlyArray<Case> = [
  { name: "int8", type: new Arrow.Int8(), value: fc.integer({ min: -128, max: 127 }), readType: "Int16" },
  { name: "uint8", type: new Arrow.Uint8(), value: fc.integer({ min: 0, max: 255 }), readType: "Uint8" },
  { name: "int16", type: new Arrow.Int16(), value: fc.integer({ min: -32768, max: 32767 }), readType: "Int16" },
  { name: "int32", type: new Arrow.Int32(), value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), readType: "Int32" },
  { name: "int64", type: new Arrow.Int64(), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), readType: "Int64" },
  { name: "uint32", type: new Arrow.Uint32(), value: fc.integer({ min: 0, max: 2 ** 32 - 1 }), readType: "Int64" },
  { name: "float32", type: new Arrow.Float32(), value: fc.float({ noNaN: true, noDefaultInfinity: true }).map((f) => (Object.is(f, -0) ? 0 : f)), readType: "Float32" },
  { name: "float64", type: new Arrow.Float64(), value: fc.double({ noNaN: true, noDefaultInfinity: true }).map((f) => (Object.is(f, -0) ? 0 : f)), readType: "Float64" },
  { name: "decimal(12,3)", type: new Arrow.Decimal(3, 12, 128), value: fc.bigInt({ min: -(10n ** 12n) + 1n, max: 10n ** 12n - 1n }), readType: "Decimal[12e+3]" },
  { name: "decimal(38,10)", type: new Arrow.Decimal(10, 38, 128), value: fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), readType: "Decimal[38e+10]" },
  { name: "bool", type: new Arrow.Bool(), value: fc.boolean(), readType: "Bool" },
  { name: "utf8", type: new Arrow.Utf8(), value: fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !s.includes("\u0000")), readType: "Utf8" },
  { name: "large_utf8", type: new Arrow.LargeUtf8(), value: fc.string({ maxLength: 20 }).filter((s) => !s.includes("\u0000")), readType: "Utf8" },
  { name: "binary", type: new Arrow.Binary(), value: fc.uint8Array({ maxLength: 40 }), readType: "Binary" },
  { name: "date32", type: new Arrow.DateDay(), value: fc.integer({ min: DAY_MIN, max: DAY_MAX }).filter(isHanaCalendarDay), readType: "Date32<DAY>" },
  { name: "time64[us] (whole seconds: HANA TIME)", type: new Arrow.TimeMicrosecond(), value: fc.integer({ min: 0, max: 86399 }).map((s) => BigInt(s) * 1_000_000n), readType: "Time64<MICROSECOND>" },
  { name: "time32[s]", type: new Arrow.TimeSecond(), value: fc.integer({ min: 0, max: 86399 }), readType: "Time64<MICROSECOND>" },
  {
    name: "timestamp[us]",
    type: new Arrow.TimestampMicrosecond(),
    value: fc.bigInt({ min: BigInt(DAY_MIN) * US_PER_DAY, max: BigInt(DAY_MAX + 1) * US_PER_DAY - 1n }).filter((us) => isHanaCalendarInstant(us, US_PER_DAY)),
    readType: "Timestamp<MICROSECOND, UTC>"
  },
  {
    name: "timestamp[ms, UTC]",
    type: new Arrow.TimestampMillisecond("UTC"),
    value: fc.bigInt({ min: BigInt(DAY_MIN) * 86_400_000n, max: BigInt(DAY_MAX + 1) * 86_400_000n - 1n }).filter((ms) => isHanaCalendarInstant(ms, 86_400_000n)),
    readType: "Timestamp<MICROSECOND, UTC>"
  }
]

/** Converts cells of the written type to the read type's units, for comparison. */
const expectedCells = (c: Case, vector: Arrow.Vector): Array<unknown> => {
  const cells = cellsOf(vector)
  // Shared cells give times in ns and timestamps in ns: the same whatever the Arrow unit, so no conversion needed.
  return c.name === "float32" ? cells.map((v) => (v === null ? null : String(Math.fround(Number(v))))) : cells
}

describe("type round trips through the test server (Arrow → HANA → Arrow)", () => {
  for (const c of cases) {
    it(c.name, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(c.value, { nil: null, freq: 4 }), { maxLength: 12 }), async (values) => {
          const vector = vectorOf(c.type, values)
          const table = new Arrow.Table({ k: Arrow.vectorFromArray(values.map((_, i) => i), new Arrow.Int32()), v: vector })
          const name = uniqueName("RT")
          const read = await Effect.runPromise(withConnection(server.uri, Effect.gen(function*() {
            const conn = yield* Connection.Connection
            yield* conn.ingest(values.length === 0 ? { schema: table.schema, batches: Stream.empty } : fromTable(table), { targetTable: name })
            const batches = yield* Stream.runCollect(conn.query(`SELECT "v" FROM "${name}" ORDER BY "k"`))
            yield* conn.execute(`DROP TABLE "${name}"`)
            return batches
          })))
          const back = new Arrow.Table(read.length > 0 ? read : [])
          if (read.length > 0) expect(String(back.schema.fields[0]!.type)).toBe(c.readType)
          expect(read.length === 0 ? [] : cellsOf(back.getChild("v")!)).toEqual(expectedCells(c, vector))
        }),
        { numRuns: 8 }
      )
    }, 60_000)
  }
})
