import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { columnCells, epochDayOf } from "../../layers/common/ArrowCells.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

const oracledb = createRequire(import.meta.url)("oracledb") as {
  getConnection: (a: Record<string, unknown>) => Promise<{ execute: (sql: string) => Promise<{ rows?: Array<Array<unknown>> }>; close: () => Promise<void> }>
}

// A database whose territory writes numbers with a decimal comma (NLS_NUMERIC_CHARACTERS ',.', the default of
// much of Europe): every session starts with it.
const server = useServer({ numericCharacters: ",." })

/** A decimal128 vector of unscaled values. */
const decimals = (precision: number, scale: number, values: ReadonlyArray<bigint | null>) => {
  const bits = new Uint8Array(Math.ceil(values.length / 8) || 1)
  const words = new Uint32Array(values.length * 4)
  values.forEach((v, i) => {
    if (v === null) return
    bits[i >> 3]! |= 1 << (i & 7)
    let x = BigInt.asUintN(128, v)
    for (let k = 0; k < 4; k++, x >>= 32n) words[i * 4 + k] = Number(x & 0xffffffffn)
  })
  return Arrow.makeVector(Arrow.makeData({
    type: new Arrow.Decimal(scale, precision, 128),
    length: values.length,
    nullCount: values.filter((v) => v === null).length,
    nullBitmap: bits,
    data: words
  } as never))
}

const unscaled = (vector: Arrow.Vector, i: number): bigint => {
  const w = vector.data[0]!.values as Uint32Array
  let x = 0n
  for (let k = 3; k >= 0; k--) x = (x << 32n) | BigInt(w[i * 4 + k]!)
  return BigInt.asIntN(128, x)
}

describe("decimal parameters bind as NUMBER", () => {
  it.effect.skipIf(realOracle)("the test server's sessions start with the database's ',' decimal character (raw oracledb)", () =>
    Effect.promise(async () => {
      const u = new URL(server.uri)
      const c = await oracledb.getConnection({ user: u.username, password: u.password, connectString: `${u.host}${u.pathname}` })
      try {
        expect((await c.execute("SELECT TO_CHAR(1.5) FROM DUAL")).rows).toEqual([["1,5"]])
      } finally {
        await c.close()
      }
    }))

  it.effect("the driver's sessions use '.' whatever the database's default (NLS_NUMERIC_CHARACTERS set at connect)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = new Arrow.Table(yield* Stream.runCollect(conn.query("SELECT TO_CHAR(1.5) AS T FROM DUAL")))
      expect(table.getChild("T")!.get(0)).toBe("1.5")
    })))

  it.effect("SELECT :1 with a decimal128 parameter describes as NUMBER and keeps every digit, under a ',' session too", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute("ALTER SESSION SET NLS_NUMERIC_CHARACTERS = ',.'")
      const values = [12345678901234567890123456789n, -1n, 0n, null, 10n ** 37n + 7n]
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("SELECT :1 AS V FROM DUAL")
      yield* stmt.bind(new Arrow.Table({ d: decimals(38, 10, values) }).batches[0]!)
      const table = new Arrow.Table(yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches))))
      const field = table.schema.fields[0]!
      expect(field.metadata.get("oracle.type-name")).toMatch(/^NUMBER/)
      expect(field.type.typeId).not.toBe(Arrow.Type.Utf8)
      const column = table.getChild("V")!
      expect(column.toArray().length).toBe(values.length)
      // NUMBER without precision reads as float64 by default: compare through its text instead.
      yield* stmt.setOption("redo.query.unbounded_number_type", "string")
      const text = new Arrow.Table(yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches))))
      expect(text.getChild("V")!.toArray()).toEqual([
        "1234567890123456789.0123456789",
        "-0.0000000001",
        "0",
        null,
        "1000000000000000000000000000.0000000007"
      ])
    })))

  it.effect("decimal128(38,10) values inserted through binds into NUMBER(38,10) read back exactly, under a ',' session", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute("ALTER SESSION SET NLS_NUMERIC_CHARACTERS = ',.'")
      const t = uniqueName("DECB")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), D NUMBER(38,10))`)
      const values = [12345678901234567890123456789n, -99999999999999999999999999999999999999n, 5n, null, 0n]
      const insert = yield* conn.statement()
      yield* insert.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2)`)
      yield* insert.bind(new Arrow.Table({
        k: Arrow.vectorFromArray(values.map((_, i) => i), new Arrow.Int32()),
        d: decimals(38, 10, values)
      }).batches[0]!)
      expect(yield* insert.executeUpdate).toBe(values.length)
      const back = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT D FROM ${t} ORDER BY K`)))
      const d = back.getChild("D")!
      expect(d.type).toEqual(new Arrow.Decimal(10, 38, 128))
      expect(values.map((v, i) => (v === null ? d.isValid(i) : unscaled(d, i)))).toEqual(values.map((v) => (v === null ? false : v)))
    })))
})

/** An Arrow vector of raw values in the type's own storage (int64 timestamps, unscaled decimals). */
const rawVector = (type: Arrow.DataType, values: ReadonlyArray<bigint | null>) => {
  if (type instanceof Arrow.Decimal) return decimals(type.precision, type.scale, values)
  const bits = new Uint8Array(Math.ceil(values.length / 8) || 1)
  const data = new BigInt64Array(values.length)
  values.forEach((v, i) => {
    if (v === null) return
    bits[i >> 3]! |= 1 << (i & 7)
    data[i] = v
  })
  return Arrow.makeVector(Arrow.makeData({ type, length: values.length, nullCount: values.filter((v) => v === null).length, nullBitmap: bits, data } as never))
}

/** Comparable cells of a column: bytes as hex, numbers and bigints as text, timestamps as epoch nanoseconds. */
const cellsOf = (vector: Arrow.Vector) =>
  vector.data.flatMap((data) => {
    const cells = columnCells(data)
    return Array.from({ length: data.length }, (_, i) => {
      const v = cells.get(i)
      if (v instanceof Uint8Array) return Buffer.from(v).toString("hex")
      return typeof v === "bigint" || typeof v === "number" ? String(v) : v
    })
  })

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 })
const DAY_MIN = epochDayOf(1, 1, 1)
const DAY_MAX = epochDayOf(9999, 12, 31)
const S_MIN = BigInt(DAY_MIN) * 86_400n
const S_MAX = BigInt(DAY_MAX + 1) * 86_400n - 1n
const noNegativeZero = (x: number) => (Object.is(x, -0) ? 0 : x)
const bytes = (max: number) => fc.uint8Array({ maxLength: max })
const text = fc.string({ unit: "grapheme", maxLength: 20 }).filter((x) => !x.includes("\u0000"))
const row = fc.record({
  bin: opt(bytes(40)),
  lbin: opt(bytes(40)),
  fbin: opt(fc.uint8Array({ minLength: 4, maxLength: 4 })),
  vbin: opt(bytes(40)),
  bo: opt(fc.boolean()),
  dt: opt(fc.integer({ min: DAY_MIN, max: DAY_MAX })),
  dec: opt(fc.bigInt({ min: -(10n ** 20n) + 1n, max: 10n ** 20n - 1n })),
  // below 2^63 in magnitude: the test server fails integral BINARY_FLOAT / BINARY_DOUBLE binds beyond the int64
  // range ("ORA-00604 ... bigint out of int64 range", a test-server limitation; Oracle stores them)
  d: opt(fc.double({ noNaN: true, min: -(2 ** 62), max: 2 ** 62 }).map(noNegativeZero)),
  f: opt(fc.float({ noNaN: true, min: -(2 ** 62), max: 2 ** 62 }).map(noNegativeZero)),
  // quarters up to ±512 are exact in half precision
  h: opt(fc.integer({ min: -2048, max: 2048 }).map((q) => noNegativeZero(q / 4))),
  i16: opt(fc.integer({ min: -32768, max: 32767 })),
  i32: opt(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
  s: opt(text),
  ls: opt(text),
  sv: opt(text),
  ts0: opt(fc.bigInt({ min: S_MIN, max: S_MAX })),
  // ms / µs / ns within 2^53 microseconds of the epoch (1685-2255): beyond that the test server rounds bound
  // timestamps of multi-row binds through a double (a test-server limitation, reported; the driver sends exact
  // seconds and nanoseconds, see DbPatches.ts WireTimestamp)
  ts3: opt(fc.bigInt({ min: -(2n ** 53n) / 1000n, max: 2n ** 53n / 1000n })),
  ts6: opt(fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n })),
  // int64 nanoseconds span 1677-2262; the test server keeps microseconds of bound timestamps (testkit/oracle/
  // params.ts), so the values are whole microseconds (nanosecond binds are the time-zone/timestamp tests' concern)
  ts9: opt(fc.bigInt({ min: -(2n ** 62n) / 1000n, max: 2n ** 62n / 1000n }).map((us) => us * 1000n)),
  tz6: opt(fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n })),
  j: opt(fc.record({ a: fc.integer(), b: fc.string({ maxLength: 10 }), c: fc.boolean() }))
})

const COLUMNS = "K NUMBER(10), BIN RAW(100), LBIN RAW(100), FBIN RAW(4), VBIN RAW(100), BO BOOLEAN, DT DATE, DEC NUMBER(20,4), D BINARY_DOUBLE, F BINARY_FLOAT, H BINARY_FLOAT, I16 NUMBER(5), I32 NUMBER(10), S NVARCHAR2(100), LS NVARCHAR2(100), SV RAW(200), TS0 TIMESTAMP(0), TS3 TIMESTAMP(3), TS6 TIMESTAMP(6), TS9 TIMESTAMP(9), TZ6 TIMESTAMP(6) WITH TIME ZONE, J JSON"

describe("binding property (prepared INSERT into pre-created columns of the Bind column's types)", () => {
  it("every bindable Arrow type binds and reads back equal, nulls included", async () => {
    const t = uniqueName("BINDP")
    await Effect.runPromise(withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) => conn.execute(`CREATE TABLE ${t} (${COLUMNS})`))))
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), async (rows) => {
        const k = run++
        const col = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key])
        const utf8 = (values: ReadonlyArray<string | null>) => values.map((v) => (v === null ? null : new TextEncoder().encode(v)))
        const json = new Arrow.Field("j", new Arrow.Utf8(), true, new Map([["ARROW:extension:name", "arrow.json"]]))
        const vectors: Record<string, Arrow.Vector> = {
          k: Arrow.vectorFromArray(rows.map(() => k), new Arrow.Int32()),
          bin: Arrow.vectorFromArray(col("bin"), new Arrow.Binary()),
          lbin: Arrow.vectorFromArray(col("lbin"), new Arrow.LargeBinary()),
          fbin: Arrow.vectorFromArray(col("fbin"), new Arrow.FixedSizeBinary(4)),
          vbin: Arrow.vectorFromArray(col("vbin"), new Arrow.BinaryView()),
          bo: Arrow.vectorFromArray(col("bo"), new Arrow.Bool()),
          dt: Arrow.vectorFromArray(col("dt").map((d) => (d === null ? null : new Date(d * 86_400_000))), new Arrow.DateDay()),
          dec: rawVector(new Arrow.Decimal(4, 20, 128), col("dec")),
          d: Arrow.vectorFromArray(col("d"), new Arrow.Float64()),
          f: Arrow.vectorFromArray(col("f"), new Arrow.Float32()),
          h: Arrow.vectorFromArray(col("h"), new Arrow.Float16()),
          i16: Arrow.vectorFromArray(col("i16"), new Arrow.Int16()),
          i32: Arrow.vectorFromArray(col("i32"), new Arrow.Int32()),
          s: Arrow.vectorFromArray(col("s"), new Arrow.Utf8()),
          ls: Arrow.vectorFromArray(col("ls"), new Arrow.LargeUtf8()),
          sv: Arrow.vectorFromArray(col("sv"), new Arrow.Utf8View()),
          ts0: rawVector(new Arrow.TimestampSecond(), col("ts0")),
          ts3: rawVector(new Arrow.TimestampMillisecond(), col("ts3")),
          ts6: rawVector(new Arrow.TimestampMicrosecond(), col("ts6")),
          ts9: rawVector(new Arrow.TimestampNanosecond(), col("ts9")),
          tz6: rawVector(new Arrow.TimestampMicrosecond("UTC"), col("tz6")),
          j: Arrow.vectorFromArray(col("j").map((v) => (v === null ? null : JSON.stringify(v))), new Arrow.Utf8())
        }
        const names = Object.keys(vectors)
        const fields = names.map((name) => (name === "j" ? json : new Arrow.Field(name, vectors[name]!.type, true)))
        const batch = new Arrow.RecordBatch(new Arrow.Schema(fields), Arrow.makeData({
          type: new Arrow.Struct(fields),
          length: rows.length,
          nullCount: 0,
          children: names.map((name) => vectors[name]!.data[0]!)
        }))
        const back = await Effect.runPromise(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const insert = yield* conn.statement()
          yield* insert.setSqlQuery(`INSERT INTO ${t} VALUES (${names.map((_, i) => `:${i + 1}`).join(", ")})`)
          yield* insert.prepare
          yield* insert.bind(batch)
          expect(yield* insert.executeUpdate).toBe(rows.length)
          return new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT ${names.slice(1).map((n) => n.toUpperCase()).join(", ")} FROM ${t} WHERE K = ${k}`)))
        })))
        // Oracle stores an empty string or empty RAW as NULL (SQL Language Reference, "Nulls": "Oracle Database
        // currently treats a character value with a length of zero as null"); binary cells compare as hex text
        const emptyIsNull = (cells: Array<unknown>) => cells.map((v) => (v === "" ? null : v))
        const expected = (name: string): Array<unknown> => {
          if (name === "sv") return emptyIsNull(cellsOf(Arrow.vectorFromArray(utf8(col("sv")), new Arrow.Binary())))
          if (name === "j") return col("j").map((v) => (v === null ? null : JSON.stringify(v)))
          return emptyIsNull(cellsOf(vectors[name]!))
        }
        const actual = (name: string): Array<unknown> => {
          const cells = cellsOf(back.getChild(name.toUpperCase())!)
          return name === "j" ? cells.map((v) => (v === null ? null : JSON.stringify(JSON.parse(v as string)))) : cells
        }
        const sorted = (column: (name: string) => Array<unknown>) => {
          const columns = names.slice(1).map(column)
          return Array.from({ length: rows.length }, (_, r) => JSON.stringify(columns.map((c) => c[r]))).sort()
        }
        expect(back.numRows).toBe(rows.length)
        expect(sorted(actual)).toEqual(sorted(expected))
      }),
      { numRuns: 15 }
    )
  }, 120_000)
})
