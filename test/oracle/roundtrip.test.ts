import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import fc from "fast-check"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

interface Row {
  readonly i: number | null
  readonly f: number | null
  readonly s: string | null
  readonly b: boolean | null
  readonly d: number | null
  readonly t: bigint | null
  readonly m: bigint | null
  readonly bin: Uint8Array | null
  readonly lbin: Uint8Array | null
  readonly fbin: Uint8Array | null
  readonly vbin: Uint8Array | null
  readonly ls: string | null
  readonly sv: string | null
}

const nullable = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: null, freq: 5 })
const row: fc.Arbitrary<Row> = fc.record({
  i: nullable(fc.integer()),
  f: nullable(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0))),
  s: nullable(fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 })),
  b: nullable(fc.boolean()),
  // 0001-01-01 .. 9999-12-31 as days since the epoch
  d: nullable(fc.integer({ min: -719162, max: 2932896 })),
  // timestamps in microseconds, years 1900..2200
  t: nullable(fc.bigInt({ min: -2208988800000000n, max: 7258118400000000n })),
  // decimal(18,4) unscaled values
  m: nullable(fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n })),
  // Oracle reads empty binary and text as NULL: the values are non-empty
  bin: nullable(fc.uint8Array({ minLength: 1, maxLength: 64 })),
  lbin: nullable(fc.uint8Array({ minLength: 1, maxLength: 300 })),
  fbin: nullable(fc.uint8Array({ minLength: 8, maxLength: 8 })),
  vbin: nullable(fc.uint8Array({ minLength: 1, maxLength: 40 })),
  ls: nullable(fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 })),
  sv: nullable(fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }))
})

const validity = (values: ReadonlyArray<unknown>) => {
  const bits = new Uint8Array(Math.ceil(values.length / 8))
  values.forEach((v, i) => {
    if (v !== null) bits[i >> 3]! |= 1 << (i & 7)
  })
  return bits
}

const tableOf = (rows: ReadonlyArray<Row>): Arrow.Table => {
  const n = rows.length
  const decimal = new Uint32Array(n * 4)
  rows.forEach((r, k) => {
    const v = BigInt.asUintN(128, r.m ?? 0n)
    for (let w = 0; w < 4; w++) decimal[k * 4 + w] = Number((v >> BigInt(32 * w)) & 0xFFFFFFFFn)
  })
  const data = (type: Arrow.DataType, values: ArrayLike<unknown>, column: ReadonlyArray<unknown>) =>
    Arrow.makeVector(Arrow.makeData({ type, length: n, nullCount: column.filter((v) => v === null).length, nullBitmap: validity(column), data: values } as never))
  return new Arrow.Table({
    I: data(new Arrow.Int32(), Int32Array.from(rows, (r) => r.i ?? 0), rows.map((r) => r.i)),
    F: data(new Arrow.Float64(), Float64Array.from(rows, (r) => r.f ?? 0), rows.map((r) => r.f)),
    S: Arrow.vectorFromArray(rows.map((r) => r.s), new Arrow.Utf8()),
    B: Arrow.vectorFromArray(rows.map((r) => r.b), new Arrow.Bool()),
    D: data(new Arrow.DateDay(), Int32Array.from(rows, (r) => r.d ?? 0), rows.map((r) => r.d)),
    T: data(new Arrow.TimestampMicrosecond(), BigInt64Array.from(rows, (r) => r.t ?? 0n), rows.map((r) => r.t)),
    M: data(new Arrow.Decimal(4, 18, 128), decimal, rows.map((r) => r.m)),
    BIN: Arrow.vectorFromArray(rows.map((r) => r.bin), new Arrow.Binary()),
    LBIN: Arrow.vectorFromArray(rows.map((r) => r.lbin), new Arrow.LargeBinary()),
    FBIN: Arrow.vectorFromArray(rows.map((r) => r.fbin), new Arrow.FixedSizeBinary(8)),
    VBIN: Arrow.vectorFromArray(rows.map((r) => r.vbin), new Arrow.BinaryView()),
    LS: Arrow.vectorFromArray(rows.map((r) => r.ls), new Arrow.LargeUtf8()),
    SV: Arrow.vectorFromArray(rows.map((r) => r.sv), new Arrow.Utf8View()),
    N: Arrow.makeVector(Arrow.makeData({ type: new Arrow.Null(), length: n }))
  })
}

describe("round trips through the server", () => {
  it.effect("random values of every ingestable column type come back unchanged, nulls included (ingest, then query)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const rows = fc.sample(row, { numRuns: 200, seed: 20261123 })
      // Oracle reads '' as NULL: keep strings non-empty (generated with minLength 1).
      const t = uniqueName("RT")
      const data = tableOf(rows)
      const input = new Arrow.Table({ K: Arrow.vectorFromArray(rows.map((_, k) => k), new Arrow.Int32()), ...Object.fromEntries(data.schema.fields.map((f) => [f.name, data.getChild(f.name)!])) })
      // apache-arrow marks a Null-typed vector's field non-nullable, which ingest would create NOT NULL: declare it
      const schema = new Arrow.Schema(input.schema.fields.map((f) => (f.typeId === Arrow.Type.Null ? f.clone({ nullable: true }) : f)))
      const nullable = new Arrow.Table(schema, input.batches.map((b) => new Arrow.RecordBatch(schema, b.data)))
      expect(yield* conn.ingest(fromTable(nullable), { targetTable: t })).toBe(rows.length)
      const back = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT * FROM "${t}" ORDER BY "K"`)))
      expect(back.numRows).toBe(rows.length)
      rows.forEach((r, k) => {
        const got = back.get(k)!.toJSON() as Record<string, unknown>
        expect(got["I"] === null ? null : Number(got["I"])).toBe(r.i)
        expect(got["F"]).toBe(r.f)
        expect(got["S"]).toBe(r.s)
        expect(got["B"]).toBe(r.b)
        const d = back.getChild("D")!
        expect(d.isValid(k) ? (d.data[0]!.values as Int32Array)[k] : null).toBe(r.d)
        const ts = back.getChild("T")!
        expect(ts.isValid(k) ? (ts.data[0]!.values as BigInt64Array)[k] : null).toBe(r.t)
        const m = back.getChild("M")!
        if (r.m === null) expect(m.isValid(k)).toBe(false)
        else {
          const w = m.data[0]!.values as Uint32Array
          let v = 0n
          for (let x = 3; x >= 0; x--) v = (v << 32n) | BigInt(w[k * 4 + x]!)
          expect(BigInt.asIntN(128, v)).toBe(r.m)
        }
        const bytes = (v: unknown) => (v === null ? null : Array.from(v as Uint8Array))
        const label = `row ${k}`
        expect([bytes(got["BIN"]), bytes(got["LBIN"]), bytes(got["FBIN"]), bytes(got["VBIN"])], label).toEqual(
          [bytes(r.bin), bytes(r.lbin), bytes(r.fbin), bytes(r.vbin)]
        )
        expect([got["LS"], got["SV"], got["N"]], label).toEqual([r.ls, r.sv, null])
      })
      // binary kinds are stored as BLOB, large_string and string_view as NVARCHAR2(2000), null as NUMBER
      const types = Object.fromEntries(back.schema.fields.map((f) => [f.name, f.metadata.get("oracle.type-name")]))
      expect(["BIN", "LBIN", "FBIN", "VBIN", "LS", "SV", "N"].map((c) => types[c])).toEqual(
        ["BLOB", "BLOB", "BLOB", "BLOB", "NVARCHAR2(2000)", "NVARCHAR2(2000)", "NUMBER"]
      )
    })))
})
