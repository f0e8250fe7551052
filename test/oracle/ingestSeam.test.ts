import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Result, Stream } from "effect"
import * as fc from "fast-check"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as Ddl from "../../layers/oracle/Ddl.ts"
import { encodedRowsSent, SEAM_ORACLEDB_VERSION } from "../../layers/oracle/EncodedBinds.ts"
import { fastPathRefusal } from "../../layers/oracle/IngestEncoder.ts"
import { installHooks, oracledb } from "../../layers/oracle/DbPatches.ts"
import { bindRows, ingestColumns } from "../../layers/oracle/Params.ts"
import { ingestColumnType } from "../../layers/oracle/WriteTypes.ts"
import { parseUri } from "../../layers/oracle/Uri.ts"
import { makeRecorder } from "../telemetry/support.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()
const require = createRequire(import.meta.url)

/**
 * The seam of the ingest fast path (layers/oracle/EncodedBinds.ts) relies on node-oracledb internals: these files,
 * exactly as read when it was written. A new node-oracledb release fails here first; read the files again (the
 * module comment of EncodedBinds.ts says what is used) and update the digests. The last four are those of the JSON
 * and OBJECT read hooks (layers/oracle/DbPatches.ts `hookJsonScalars`, `hookObjectAttributes`): the OSON decoder and
 * its node types, and how a DbObject attribute reaches its value (NUMBER unpickled as text, then converted).
 */
const SEAM_FILES: Record<string, string> = {
  "lib/thin/protocol/messages/withData.js": "9854960d2f44b6ef29bc7cacf48a944f65a7bd3530e54298fe2d9d2304845789",
  "lib/thin/protocol/messages/execute.js": "39cfa540c83923d0cf502f5e77b09a5842252fa28ed05ca276f7a73ae2b0d931",
  "lib/thin/connection.js": "6e6ec3596917f4f8c8288a0d60e86a5949af95baedb623454ccf38961c5da51e",
  "lib/connection.js": "539f3a07d2774688742c56f2705678ae8d852de5b893c2470d39c2c9f58d72d1",
  "lib/impl/datahandlers/buffer.js": "a371cd040f0eaeb3ad10ae08b32c3e990021b102d2747b424ef03fa4c2105c4f",
  "lib/thin/protocol/packet.js": "6744f8b3875cc7e1628f9bb59e02845155942f3ba8e255062c3b05eb9963bdc6",
  "lib/impl/datahandlers/oson.js": "050f3e442babcd5f2fdc68440e702227ff2f8c17a62197ffaaf38b2de9d42a97",
  "lib/impl/datahandlers/constants.js": "bac5f44ac1b69752cd4190255bfc9a1c2f030e6c30decf6d48b38b1e6d916cb0",
  "lib/dbObject.js": "cd324f9e5a386c8dd8370b0fa8c93cb633a94d2026c809f23d58fad5a5e2e8a1",
  "lib/thin/dbObject.js": "860190ac0b65f996b9d98a0c1008aac34728d1c24f20845741bee2e1171fb9a6"
}

const rowsOf = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) => Effect.map(Stream.runCollect(conn.query(sql)), (batches) => new Arrow.Table(batches)))

/** A raw node-oracledb connection to the suite's database. */
const rawConnection = async () => {
  const parsed = Result.getOrThrow(parseUri(server.uri))
  return oracledb.getConnection({ user: parsed.user, password: parsed.password, connectString: parsed.connectString }) as unknown as Promise<{
    execute: (sql: string) => Promise<unknown>
    executeMany: (sql: string, rows: unknown, options: Record<string, unknown>) => Promise<unknown>
    commit: () => Promise<void>
    close: () => Promise<void>
  }>
}

/** A fixed-width column of `values` (`stride` slots per value), null where `valid(i)` is false. */
const fixed = (type: Arrow.DataType, values: ArrayLike<number | bigint>, valid: (i: number) => boolean, stride = 1): Arrow.Vector => {
  const length = values.length / stride
  const nullBitmap = new Uint8Array(Math.ceil(length / 8))
  for (let i = 0; i < length; i++) if (valid(i)) nullBitmap[i >> 3]! |= 1 << (i & 7)
  const Ctor = (type as unknown as { ArrayType: new(n: number) => { [i: number]: unknown } }).ArrayType
  const data = new Ctor(values.length)
  for (let i = 0; i < values.length; i++) data[i] = values[i]
  return Arrow.makeVector(Arrow.makeData({ type, length, nullBitmap, data } as never))
}

/** Oracle's date range in days since 1970, by the label the encoders write: -4712-01-01 to 9999-12-31. */
const MIN_DAY = epochDayOf(-4712, 1, 1)
const MAX_DAY = epochDayOf(9999, 12, 31)

/**
 * Random rows (from `seed`) of one column per Arrow type of the Ingest mapping that the fast path encodes, with
 * NULLs, extremes, non-ASCII and empty strings, inline and out-of-line view values, full-precision decimals and
 * Oracle's date boundaries.
 */
const everyType = (n: number, seed: number) => {
  const cells = <T,>(arbitrary: fc.Arbitrary<T>, edges: ReadonlyArray<T>): Array<T> =>
    fc.sample(arbitrary, { numRuns: n, seed }).map((v, i) => (i < edges.length ? edges[i]! : v))
  const valid = (column: number) => (i: number) => (i * 7 + column * 3 + seed) % 6 !== 0
  const opt = <T,>(column: number, values: Array<T>) => values.map((v, i) => (valid(column)(i) ? v : null))
  const p38 = 10n ** 38n - 1n
  const decimals = cells(fc.bigInt({ min: -p38, max: p38 }), [p38, -p38, 0n, 1n, -1n])
  const micros = cells(fc.bigInt({ min: BigInt(MIN_DAY) * 86_400_000_000n, max: BigInt(MAX_DAY + 1) * 86_400_000_000n - 1n }), [
    BigInt(MIN_DAY) * 86_400_000_000n,
    BigInt(MAX_DAY + 1) * 86_400_000_000n - 1n,
    -1n,
    -2_208_988_800_000_001n // 1899-12-31 23:59:59.999999
  ])
  // (reading back a value within a second of the int64 limits of timestamp[ns] fails on the read side)
  const nanos = cells(fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }), [2n ** 62n, -(2n ** 62n), -1n])
  return new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new Arrow.Int32()),
    small: Arrow.vectorFromArray(opt(1, cells(fc.integer({ min: -32768, max: 32767 }), [-32768, 32767])), new Arrow.Int16()),
    whole: Arrow.vectorFromArray(opt(2, cells(fc.integer(), [-(2 ** 31), 2 ** 31 - 1])), new Arrow.Int32()),
    big: fixed(new Arrow.Int64(), cells(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n]), valid(3)),
    amount: fixed(new Arrow.Decimal(10, 38, 128), decimals.flatMap((v) => {
      const u = BigInt.asUintN(128, v)
      return [0, 1, 2, 3].map((w) => Number((u >> BigInt(32 * w)) & 0xffffffffn))
    }), valid(4), 4),
    ratio: Arrow.vectorFromArray(opt(5, cells(fc.double({ noNaN: true }), [Number.MAX_VALUE, -Number.MIN_VALUE, Infinity, -Infinity, -0])), new Arrow.Float64()),
    single: Arrow.vectorFromArray(opt(6, cells(fc.float({ noNaN: true }), [3.4028234663852886e38, 1.401298464324817e-45])), new Arrow.Float32()),
    flag: Arrow.vectorFromArray(opt(7, cells(fc.boolean(), [true, false])), new Arrow.Bool()),
    day: fixed(new Arrow.DateDay(), cells(fc.integer({ min: MIN_DAY, max: MAX_DAY }), [MIN_DAY, MAX_DAY, -25_568]), valid(8)),
    // date64 values need not be midnights: a value within a day, before 1970 included, is stored as its day
    millis: fixed(new Arrow.DateMillisecond(), cells(fc.bigInt({ min: BigInt(MIN_DAY) * 86_400_000n, max: BigInt(MAX_DAY + 1) * 86_400_000n - 1n }), [
      BigInt(MIN_DAY) * 86_400_000n,
      BigInt(MAX_DAY + 1) * 86_400_000n - 1n,
      -1n
    ]), valid(20)),
    stamp: fixed(new Arrow.TimestampMicrosecond(), micros, valid(9)),
    zoned: fixed(new Arrow.TimestampNanosecond("UTC"), nanos, valid(10)),
    name: Arrow.vectorFromArray(opt(11, cells(fc.string({ unit: "grapheme", maxLength: 40 }), ["", "ü€𝄞", "x".repeat(2000), " "])), new Arrow.Utf8()),
    bytes: Arrow.vectorFromArray(opt(12, cells(fc.uint8Array({ maxLength: 300 }), [new Uint8Array(0), new Uint8Array(40_000).fill(7)])), new Arrow.Binary()),
    wideName: Arrow.vectorFromArray(opt(15, cells(fc.string({ unit: "grapheme", maxLength: 40 }), ["€".repeat(2000), ""])), new Arrow.LargeUtf8()),
    // view values of 12 bytes or fewer sit inline in the view, longer ones in a data buffer: both kinds occur
    nameView: Arrow.vectorFromArray(opt(16, cells(fc.string({ unit: "grapheme", maxLength: 40 }), ["", "exactly12byt", "thirteen byte", "ü€𝄞"])), new Arrow.Utf8View()),
    bytesView: Arrow.vectorFromArray(opt(17, cells(fc.uint8Array({ maxLength: 64 }), [new Uint8Array(0), new Uint8Array(12).fill(255), new Uint8Array(13).fill(1)])), new Arrow.BinaryView()),
    wideBytes: Arrow.vectorFromArray(opt(18, cells(fc.uint8Array({ maxLength: 300 }), [new Uint8Array(0), new Uint8Array(40_000).fill(9)])), new Arrow.LargeBinary()),
    fixedBytes: Arrow.vectorFromArray(opt(19, cells(fc.uint8Array({ minLength: 16, maxLength: 16 }), [new Uint8Array(16), new Uint8Array(16).fill(255)])), new Arrow.FixedSizeBinary(16))
  })
}

/**
 * Interval columns (INTERVAL YEAR TO MONTH, DAY TO SECOND), in a table of their own: the test server inserts rows
 * with intervals through its general path, which binds an integral double beyond 2^63 (BINARY_DOUBLE 1.7e308) as an
 * integer and fails (testkit/engine/README.md), with oracledb's encoder as with ours.
 */
const intervals = (n: number, seed: number) => {
  const cells = <T,>(arbitrary: fc.Arbitrary<T>, edges: ReadonlyArray<T>): Array<T> =>
    fc.sample(arbitrary, { numRuns: n, seed }).map((v, i) => (i < edges.length ? edges[i]! : v))
  const valid = (column: number) => (i: number) => (i * 7 + column * 3 + seed) % 6 !== 0
  return new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new Arrow.Int32()),
    months: fixed(new Arrow.IntervalYearMonth(), cells(fc.integer({ min: -11_999_999_999, max: 11_999_999_999 }).map((m) => Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, m))), [0, -1]), valid(13)),
    span: fixed(new Arrow.IntervalMonthDayNano(), cells(fc.tuple(fc.integer({ min: -99_999, max: 99_999 }), fc.bigInt({ min: -(2n ** 50n), max: 2n ** 50n })), [[0, 0n] as [number, bigint]]).flatMap(([d, ns]): Array<number> => {
      const u = BigInt.asUintN(64, ns)
      return [0, d, Number(u & 0xffffffffn) | 0, Number(u >> 32n) | 0]
    }), valid(14), 4)
  })
}

describe("ingest fast path seam (node-oracledb internals)", () => {
  it("node-oracledb is the version the seam was written against, its files unchanged", () => {
    const pkg = JSON.parse(readFileSync(require.resolve("oracledb/package.json"), "utf8")) as { version: string }
    expect(pkg.version).toBe(SEAM_ORACLEDB_VERSION)
    expect(oracledb.versionString).toBe(SEAM_ORACLEDB_VERSION)
    const root = require.resolve("oracledb/package.json").replace(/package\.json$/, "")
    for (const [file, digest] of Object.entries(SEAM_FILES)) {
      expect(createHash("sha256").update(readFileSync(root + file)).digest("hex"), file).toBe(digest)
    }
  })

  it.effect("plain columns go through the seam and log oracle.ingest.path=encoded; a struct column sends the batch through oracledb's encoder and logs oracledb with the reason", () => {
    const recorder = makeRecorder()
    return withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const data = everyType(300, 7)
      expect(data.schema.fields.map((f) => fastPathRefusal(f, true))).toEqual(data.schema.fields.map(() => undefined))
      const before = encodedRowsSent()
      expect(yield* conn.ingest(fromTable(data), { targetTable: uniqueName("SEAM") })).toBe(300)
      expect(encodedRowsSent() - before).toBe(300)

      const struct = Arrow.vectorFromArray([{ a: 1 }, { a: 2 }], new Arrow.Struct([new Arrow.Field("a", new Arrow.Int32())]))
      const nested = new Arrow.Table({ id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()), doc: struct })
      expect(fastPathRefusal(nested.schema.fields[1]!, true)).toContain("JSON text")
      const middle = encodedRowsSent()
      const target = uniqueName("NESTED")
      expect(yield* conn.ingest(fromTable(nested), { targetTable: target })).toBe(2)
      expect(encodedRowsSent()).toBe(middle)
      const stored = yield* rowsOf(`SELECT "id", "doc" FROM "${target}" ORDER BY "id"`)
      expect(stored.toArray().map((r) => [Number(r["id"]), JSON.parse(String(r["doc"]))])).toEqual([[1, { a: 1 }], [2, { a: 2 }]])

      const paths = recorder.logs.filter((l) => l.annotations["oracle.ingest.path"] !== undefined)
      expect(paths.map((l) => [l.annotations["oracle.ingest.path"], l.annotations["oracle.ingest.rows"]])).toEqual([["encoded", 300], ["oracledb", 2]])
      expect(paths[1]!.message).toContain(`column 2 ("doc"): Arrow type Struct<{a:Int32}> (JSON text)`)
    }), { "redo.ingest.struct_type": "nvarchar2" }).pipe(Effect.provide(recorder.layer))
  })

  it.effect("property: a random batch of every fast-path type stores the same values through the fast path as through oracledb's encoder", () =>
    withConnection(server.uri, Effect.gen(function*() {
      installHooks()
      const conn = yield* Connection.Connection
      const context = yield* Effect.context<Connection.Connection>()
      /** Ingests `data` through the fast path and by raw executeMany with the oracledb path's binds; both tables read back. */
      const bothWays = Effect.fnUntraced(function*(data: Arrow.Table) {
        const fast = uniqueName("FAST")
        const reference = uniqueName("REF")
        const before = encodedRowsSent()
        yield* conn.ingest(fromTable(data), { targetTable: fast })
        expect(encodedRowsSent() - before).toBe(data.numRows)
        // the reference table: the same DDL, rows sent by raw executeMany with the oracledb path's binds
        const columns = data.schema.fields.map((field) => ({ field, sqlType: Result.getOrThrow(ingestColumnType(field)), nullable: true }))
        const target = { table: reference, dbSchema: undefined, catalog: undefined, temporary: false }
        const binds = Result.getOrThrow(ingestColumns(data.batches[0]!, "nvarchar2", () => undefined))
        yield* Effect.promise(async () => {
          const raw = await rawConnection()
          try {
            await raw.execute(Ddl.createTableSql(target, columns, undefined))
            await raw.executeMany(Ddl.insertSql(target, data.schema.fields.map((f) => f.name)), bindRows(binds, 0, data.numRows), {
              bindDefs: binds.map((b) => b.def),
              autoCommit: true
            })
          } finally {
            await raw.close()
          }
        })
        const ours = yield* rowsOf(`SELECT * FROM "${fast}" ORDER BY "id"`)
        const theirs = yield* rowsOf(`SELECT * FROM "${reference}" ORDER BY "id"`)
        expect(ours.numRows).toBe(data.numRows)
        expect(ours.toArray().map((r) => r.toJSON())).toEqual(theirs.toArray().map((r) => r.toJSON()))
      })
      // fast-check draws the batch (its size and the seed of its cells); the edge values open every column. Two rows
      // at least: the test server inserts a single row through its general path, which fails on an integral double
      // beyond 2^63 (see intervals above) with either encoder
      const batches = fc.record({ rows: fc.integer({ min: 2, max: 120 }), seed: fc.nat() })
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(batches, ({ rows, seed }) =>
            Effect.runPromiseWith(context)(Effect.andThen(bothWays(everyType(rows, seed)), bothWays(intervals(rows, seed))))),
          { numRuns: 12 }
        )
      )
    })), 120_000)
})
