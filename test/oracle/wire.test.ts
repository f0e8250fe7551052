/**
 * Batch mode decodes TTC row bytes straight into Arrow (WirePage.ts WireDecoder); row mode keeps node-oracledb's
 * JS values. Both must give the same Arrow results, and the wire decoder must agree with oracledb's own NUMBER
 * parsing on every value.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Result, Stream } from "effect"
import fc from "fast-check"
import { createRequire } from "node:module"
import { BatchAssembler } from "../../src/arrow/index.ts"
import * as Connection from "../../src/Connection.ts"
import { installHooks, RAW_TEMPORAL, RawTemporal } from "../../layers/oracle/DbPatches.ts"
import { RowCapture, WireRows } from "../../layers/oracle/RowCapture.ts"
import { canDecodeWire, WireDecoder } from "../../layers/oracle/WirePage.ts"
import { arrowColumns, DEFAULT_MAPPING, type MappingOptions, type OracleColumnMetadata } from "../../layers/oracle/ReadTypes.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const require = createRequire(import.meta.url)
/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = require("oracledb")
const { BaseBuffer, GrowableBuffer } = require("oracledb/lib/impl/datahandlers/buffer.js")
const MessageWithData = require("oracledb/lib/thin/protocol/messages/withData.js")

const server = useServer()

/** Counts rows this driver's wire capture records (instead of oracledb decoding them). */
const capturedRows = (() => {
  const CAPTURE = Symbol.for("effect-adbc/oracle/row-capture")
  const state = { rows: 0, executeRows: 0, wrapped: false }
  return {
    start() {
      if (!state.wrapped) {
        state.wrapped = true
        const original = MessageWithData.prototype.processRowData
        MessageWithData.prototype.processRowData = function(this: any, buf: unknown) {
          const capture = this.statement?.[CAPTURE]
          const before: number = capture?.rows.length ?? 0
          const result = original.call(this, buf)
          if (capture !== undefined && capture.owner === this.resultSet) state.rows += capture.rows.length - before
          else if (this.constructor.name === "ExecuteMessage" && this.inFetch) state.executeRows++
          return result
        }
      }
      state.rows = 0
      state.executeRows = 0
    },
    get count() {
      return state.rows
    },
    /** Rows oracledb decoded from the first round trip (the execute's prefetch). */
    get prefetched() {
      return state.executeRows
    }
  }
})()

/** Oracle NUMBER wire bytes of decimal text, encoded by oracledb's own writer. */
const numberBytes = (text: string): Buffer => {
  const buf = new GrowableBuffer()
  buf.writeOracleNumber(text, false)
  return Buffer.from(buf.buf.subarray(0, buf.pos))
}

/** oracledb's decimal text of NUMBER bytes, with the leading zero it leaves out. */
const oracledbText = (bytes: Buffer): string => {
  const text: string = BaseBuffer.prototype.parseOracleNumber.call({}, bytes)
  return text.startsWith(".") ? `0${text}` : text.startsWith("-.") ? `-0${text.slice(1)}` : text
}

/** Decodes one column of length-prefixed NUMBER values through the wire decoder. */
const decodeNumbers = (column: OracleColumnMetadata, values: ReadonlyArray<Buffer>, o: Partial<MappingOptions> = {}) => {
  const mapped = Result.getOrThrow(arrowColumns([column], { ...DEFAULT_MAPPING, ...o }))
  const wire = [{ oraTypeNum: 2, csfrm: 0, maxSize: 22 }]
  expect(canDecodeWire(mapped, wire)).toBe(true)
  const rows = new WireRows()
  for (const v of values) {
    rows.bufs.push(Buffer.concat([Buffer.from([v.length]), v]))
    rows.starts.push(0)
  }
  const assembler = new BatchAssembler(new Arrow.Schema(mapped.map((m) => m.field)), { maxRows: 100_000, mode: "hard" })
  const batches = [...assembler.push(new WireDecoder(mapped, wire, 0, []).page(rows, 0))]
  const last = assembler.flush()
  if (last !== undefined) batches.push(last)
  return new Arrow.Table(batches).getChild(column.name)!
}

const decimalText = fc.tuple(
  fc.boolean(),
  fc.stringMatching(/^[1-9][0-9]{0,24}$|^0$/),
  fc.stringMatching(/^[0-9]{0,12}$/)
).map(([negative, whole, fraction]) => {
  // Normalized as the server sends NUMBERs: no trailing fractional zeros.
  const trimmed = fraction.replace(/0+$/, "")
  const text = trimmed === "" ? whole : `${whole}.${trimmed}`
  return negative && /[1-9]/.test(text) ? `-${text}` : text
})

describe("wire decoding of NUMBER", () => {
  it("decimal text, doubles, int64 and decimal128 agree with oracledb's own NUMBER parsing", () => {
    fc.assert(
      fc.property(fc.array(decimalText, { minLength: 1, maxLength: 40 }), (texts) => {
        const bytes = texts.map(numberBytes)
        const expectedText = bytes.map(oracledbText)
        const asText = decodeNumbers({ name: "N", type: "NUMBER", precision: 0, scale: -127, nullable: true }, bytes, {
          unboundedNumber: "string"
        })
        expect(asText.toArray()).toEqual(expectedText)
        const asDouble = decodeNumbers({ name: "N", type: "NUMBER", precision: 0, scale: -127, nullable: true }, bytes)
        expect([...asDouble.toArray()]).toEqual(expectedText.map(Number))
        const asDecimal = decodeNumbers({ name: "N", type: "NUMBER", precision: 38, scale: 12, nullable: true }, bytes)
        const words = asDecimal.data[0]!.values as Uint32Array
        expectedText.forEach((text, i) => {
          let unscaled = 0n
          for (let k = 3; k >= 0; k--) unscaled = (unscaled << 32n) | BigInt(words[i * 4 + k]!)
          const [whole, fraction = ""] = text.replace("-", "").split(".")
          const expected = BigInt(whole + fraction.padEnd(12, "0")) * (text.startsWith("-") ? -1n : 1n)
          expect(BigInt.asIntN(128, unscaled)).toBe(expected)
        })
      }),
      { numRuns: 200 }
    )
  })

  it("integers across the int64 range decode exactly; a fraction in an int64 column fails naming column and row", () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(2n ** 63n) + 1n, max: 2n ** 63n - 1n }), { minLength: 1, maxLength: 30 }), (values) => {
        const column = decodeNumbers(
          { name: "I", type: "NUMBER", precision: 0, scale: -127, nullable: true },
          values.map((v) => numberBytes(String(v))),
          { unboundedNumber: "int64" }
        )
        expect([...(column.data[0]!.values as BigInt64Array)]).toEqual(values)
      }),
      { numRuns: 200 }
    )
    expect(() =>
      decodeNumbers({ name: "I", type: "NUMBER", precision: 0, scale: -127, nullable: true }, [numberBytes("7"), numberBytes("1.5")], {
        unboundedNumber: "int64"
      })
    ).toThrow(/column "I".*row 2: NUMBER value 1\.5 is not an integer/s)
  })
})

describe("duplicate columns (bit vectors)", () => {
  it("a column a row leaves out repeats the previous row's value, also across fetches and from oracledb's last value", () => {
    const mapped = Result.getOrThrow(arrowColumns([
      { name: "ID", type: "NUMBER", precision: 10, scale: 0, nullable: true },
      { name: "NAME", type: "VARCHAR", byteSize: 20, nullable: true }
    ], DEFAULT_MAPPING))
    const wire = [{ oraTypeNum: 2, csfrm: 0, maxSize: 22 }, { oraTypeNum: 1, csfrm: 1, maxSize: 20 }]
    const value = (bytes: Buffer) => Buffer.concat([Buffer.from([bytes.length]), bytes])
    const name = (text: string) => value(Buffer.from(text))
    // Packet: row 1 (both columns), a BIT_VECTOR message (21, left to oracledb), row 2 (NAME left out), then a
    // ROW_DATA message (7) with row 3 (both), which the capture takes in the same call as row 2.
    const row1 = Buffer.concat([value(numberBytes("5")), name("xy")])
    const vectorMessage = Buffer.from([21, 1, 2, 0b01])
    const row2 = value(numberBytes("6"))
    const row3 = Buffer.concat([Buffer.from([7]), value(numberBytes("7")), Buffer.from([0])])
    const buf = Buffer.concat([row1, vectorMessage, row2, row3])
    const packet = { buf, pos: 0, size: buf.length, readBytesWithLength: () => { throw new Error("not in this packet") } }
    const capture = new RowCapture(undefined, 2)
    capture.capture(packet, null)
    expect(packet.pos).toBe(row1.length)
    packet.pos += vectorMessage.length
    capture.capture(packet, Buffer.from([0b01]))
    expect(packet.pos).toBe(buf.length)
    const first = capture.take()
    expect(first.length).toBe(3)
    // A later fetch whose first row leaves out ID: it repeats row 3's ID.
    const later = Buffer.concat([name("zz")])
    const packet2 = { ...packet, buf: later, pos: 0, size: later.length }
    capture.capture(packet2, Buffer.from([0b10]))
    const second = capture.take()
    const decoder = new WireDecoder(mapped, wire, 0, [4n, "js"])
    const table = (rows: WireRows, firstRow: number) => {
      const assembler = new BatchAssembler(new Arrow.Schema(mapped.map((m) => m.field)), { maxRows: 100, mode: "hard" })
      assembler.push(decoder.page(rows, firstRow))
      return assembler.flush()!.toArray().map((r) => r.toJSON())
    }
    expect(table(first, 0)).toEqual([{ ID: 5n, NAME: "xy" }, { ID: 6n, NAME: "xy" }, { ID: 7n, NAME: null }])
    expect(table(second, 3)).toEqual([{ ID: 7n, NAME: "zz" }])
    // Before any wire row, a left-out column takes oracledb's own last decoded value.
    const fresh = new WireDecoder(mapped, wire, 0, [4n, "js"])
    const rows = new WireRows()
    rows.bufs.push(later)
    rows.starts.push(0)
    rows.vectors.set(0, Buffer.from([0b10]))
    const assembler = new BatchAssembler(new Arrow.Schema(mapped.map((m) => m.field)), { maxRows: 100, mode: "hard" })
    assembler.push(fresh.page(rows, 0))
    expect(assembler.flush()!.toArray().map((r) => r.toJSON())).toEqual([{ ID: 4n, NAME: "zz" }])
  })
})

const collect = (sql: string, options: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql, options)))

const ROWS = 300

describe("batch mode reads TTC rows straight into Arrow", () => {
  it.effect("every wire-decoded type, NULLs, long chunked strings and rows spanning packets match row mode and the inserted values", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const t = uniqueName("WIRE")
      const values = fc.sample(
        fc.record({
          id: fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
          amount: fc.option(fc.integer({ min: -99_999_999_999, max: 99_999_999_999 }).map((n) => n / 100)),
          ratio: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0))),
          // NUMBER holds magnitudes from 1e-130 to below 1e126.
          number: fc.option(fc.double({ noNaN: true, min: -1e100, max: 1e100 }).filter((x) => x === 0 || Math.abs(x) > 1e-100)),
          day: fc.option(fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31) }).map((ms) => new Date(ms))),
          ts: fc.option(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }).map((ms) => new Date(ms))),
          text: fc.option(fc.string({ unit: "binary", minLength: 150, maxLength: 700, size: "max" }).filter((x) => !x.includes("\u0000"))),
          flag: fc.option(fc.boolean())
        }),
        { numRuns: ROWS, seed: 42 }
      )
      const raw: any = yield* Effect.promise(() => {
        const { user, password, connectString } = connectParts(server.uri)
        return oracledb.getConnection({ user, password, connectString })
      })
      yield* Effect.promise(async () => {
        await raw.execute(
          `CREATE TABLE ${t} (ID NUMBER(10), AMOUNT NUMBER(12,2), RATIO BINARY_DOUBLE, N NUMBER, DAY DATE, TS TIMESTAMP(6), TEXT VARCHAR2(4000), FLAG BOOLEAN)`
        )
        await raw.executeMany(
          `INSERT INTO ${t} VALUES (:1, :2, :3, :4, :5, :6, :7, :8)`,
          values.map((v, i) => [i, v.amount, v.ratio, v.number, v.day, v.ts, v.text, v.flag]),
          {
            autoCommit: true,
            bindDefs: [
              { type: oracledb.NUMBER },
              { type: oracledb.NUMBER },
              { type: oracledb.DB_TYPE_BINARY_DOUBLE },
              { type: oracledb.NUMBER },
              { type: oracledb.DATE },
              { type: oracledb.DB_TYPE_TIMESTAMP },
              { type: oracledb.STRING, maxSize: 4000 },
              { type: oracledb.DB_TYPE_BOOLEAN }
            ]
          }
        )
        await raw.close()
      })
      const sql = `SELECT ID, AMOUNT, RATIO, N, DAY, TS, TEXT, FLAG FROM ${t} ORDER BY ID`
      // Small round trips and an odd batch cap: many fetches, packet boundaries inside rows, batches cut mid-fetch.
      const options = {
        "redo.statement.fetch_array_size": "120",
        "redo.statement.prefetch_rows": "5",
        "redo.statement.read_batch_rows": "17",
        "redo.query.date_type": "timestamp"
      }
      capturedRows.start()
      const batches = yield* collect(sql, { ...options, "redo.statement.execution_mode": "batch" })
      expect(capturedRows.count).toBe(ROWS - 120)
      // read_batch_rows is a hard limit on the wire path too: round trips of 120 rows cut into batches of at most 17.
      expect(batches.every((b) => b.numRows <= 17)).toBe(true)
      expect(batches.filter((b) => b.numRows === 17).length).toBeGreaterThan(10)
      const batch = new Arrow.Table(batches)
      capturedRows.start()
      const row = new Arrow.Table(yield* collect(sql, { ...options, "redo.statement.execution_mode": "row" }))
      expect(capturedRows.count).toBe(0)
      expect(batch.schema.fields.map(String)).toEqual(row.schema.fields.map(String))
      expect(batch.numRows).toBe(ROWS)
      expect(batch.toArray().map((r) => r.toJSON())).toEqual(row.toArray().map((r) => r.toJSON()))
      const amount = batch.getChild("AMOUNT")!
      const ratio = batch.getChild("RATIO")!
      const n = batch.getChild("N")!
      const text = batch.getChild("TEXT")!
      const flag = batch.getChild("FLAG")!
      values.forEach((v, i) => {
        expect(amount.get(i) === null ? null : Number(String(amount.get(i)))).toBe(v.amount === null ? null : Math.round(v.amount * 100))
        expect(ratio.get(i)).toBe(v.ratio)
        // The test server's unbounded NUMBER may round the last digit of a double; exactness is checked above.
        if (v.number === null) expect(n.get(i)).toBeNull()
        else expect(n.get(i)).toBeCloseTo(v.number, -Math.floor(Math.log10(Math.abs(v.number) || 1)) + 13)
        expect(text.get(i)).toBe(v.text === null || v.text === "" ? null : v.text)
        expect(flag.get(i)).toBe(v.flag)
      })
    })))

  it.effect("intervals, zoned timestamps, NVARCHAR2, CHAR, RAW and BINARY_FLOAT read the same in both modes", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("WIRE2")
      yield* conn.execute(
        `CREATE TABLE ${t} (ID NUMBER(10), DS INTERVAL DAY(3) TO SECOND(9), YM INTERVAL YEAR(4) TO MONTH, TZ TIMESTAMP(9) WITH TIME ZONE, LTZ TIMESTAMP(6) WITH LOCAL TIME ZONE, NV NVARCHAR2(40), C CHAR(6), R RAW(16), BF BINARY_FLOAT, BIG NUMBER(30,4))`
      )
      // From 1: the test server rejects the literal INTERVAL '0 01:02:03.000000000' DAY(3) TO SECOND(9) (ORA-01722).
      for (let i = 1; i <= 40; i++) {
        yield* conn.execute(
          i % 7 === 3
            ? `INSERT INTO ${t} (ID) VALUES (${i})`
            : `INSERT INTO ${t} VALUES (${i}, INTERVAL '${i} 01:02:03.${String(i * 7919).padStart(9, "0")}' DAY(3) TO SECOND(9), INTERVAL '${i}-${i % 12}' YEAR(4) TO MONTH, TIMESTAMP '2024-0${1 + (i % 9)}-1${i % 10} 12:34:56.${String(i).padStart(9, "1")} +0${i % 9}:30', TIMESTAMP '2001-02-03 04:05:06.${String(i).padStart(6, "0")}', 'wörld ${i} 😀', 'c${i}', HEXTORAW('${(i * 4099).toString(16).padStart(8, "0")}'), ${i}.25, -${i}123456789012345678901234.5678)`
        )
      }
      const sql = `SELECT * FROM ${t} ORDER BY ID`
      const options = { "redo.statement.fetch_array_size": "6", "redo.statement.prefetch_rows": "2" }
      for (const intervals of [{}, { "redo.query.day_time_interval_type": "string", "redo.query.year_month_interval_type": "string" }, { "redo.query.day_time_interval_type": "duration" }]) {
        capturedRows.start()
        const batch = new Arrow.Table(yield* collect(sql, { ...options, ...intervals, "redo.statement.execution_mode": "batch" }))
        expect(capturedRows.count).toBe(40 - 6)
        const row = new Arrow.Table(yield* collect(sql, { ...options, ...intervals, "redo.statement.execution_mode": "row" }))
        expect(batch.schema.fields.map(String)).toEqual(row.schema.fields.map(String))
        expect(batch.toArray().map((r) => r.toJSON())).toEqual(row.toArray().map((r) => r.toJSON()))
        expect(batch.numRows).toBe(40)
      }
    })))
})

const connectParts = (uri: string) => {
  const url = new URL(uri)
  return {
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    connectString: `${url.hostname}:${url.port || 1521}${url.pathname}`
  }
}

describe("prefetch limits", () => {
  it.effect("redo.statement.prefetch_bytes lowers the first round trip's rows to whole rows that fit; prefetch_rows applies when reached first", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("PREF")
      // A row's define buffers: NUMBER 22 bytes + VARCHAR2(100) 100 bytes = 122 bytes.
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10), NAME VARCHAR2(100))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2)`)
      yield* stmt.bind(new Arrow.Table({
        id: Arrow.vectorFromArray(Array.from({ length: 200 }, (_, i) => i), new Arrow.Int32()),
        name: Arrow.vectorFromArray(Array.from({ length: 200 }, (_, i) => `n${i}`), new Arrow.Utf8())
      }).batches[0]!)
      yield* stmt.executeUpdate
      const read = (options: Record<string, string>) =>
        Effect.gen(function*() {
          capturedRows.start()
          const table = new Arrow.Table(yield* collect(`SELECT ID, NAME FROM ${t}`, { "redo.statement.fetch_array_size": "100", ...options }))
          expect(table.numRows).toBe(200)
          return capturedRows.prefetched
        })
      expect(yield* read({ "redo.statement.prefetch_rows": "50", "redo.statement.prefetch_bytes": "500" })).toBe(4)
      expect(yield* read({ "redo.statement.prefetch_rows": "50", "redo.statement.prefetch_bytes": "100000" })).toBe(50)
      expect(yield* read({ "redo.statement.prefetch_rows": "50", "redo.statement.prefetch_bytes": "10" })).toBe(1)
      expect(yield* read({ "redo.statement.prefetch_rows": "30" })).toBe(30)
      // a query with bound parameters: its first execute is the one a new SQL text gets, prefetch included
      const bound = (options: Record<string, string>) =>
        Effect.gen(function*() {
          const stmt = yield* conn.statement()
          yield* stmt.setSqlQuery(`SELECT ID, NAME FROM ${t} WHERE ID >= :1`)
          yield* stmt.bind(new Arrow.Table({ lo: Arrow.vectorFromArray([0], new Arrow.Int32()) }).batches[0]!)
          for (const [key, value] of Object.entries({ "redo.statement.fetch_array_size": "100", ...options })) yield* stmt.setOption(key, value)
          capturedRows.start()
          const table = new Arrow.Table(yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches))))
          expect(table.numRows).toBe(200)
          return capturedRows.prefetched
        })
      expect(yield* bound({ "redo.statement.prefetch_rows": "30" })).toBe(30)
      expect(yield* bound({ "redo.statement.prefetch_rows": "50", "redo.statement.prefetch_bytes": "500" })).toBe(4)
    })))
})

describe("TIMESTAMP WITH LOCAL TIME ZONE and a region-named database time zone", () => {
  it("is left to oracledb, which refuses it (NJS-201), instead of being shifted by a guessed offset", () => {
    installHooks()
    const bytes = Buffer.from([120, 124, 2, 29, 13, 35, 57, 0, 0, 0, 0])
    const parse = (caps: Record<PropertyKey, unknown>, useDbTz: boolean) =>
      BaseBuffer.prototype.parseOracleDate.call({ caps: { [RAW_TEMPORAL]: true, ...caps } }, bytes, false, useDbTz)
    expect(parse({ dbTzOffset: 60, dbTzRegion: null }, true)).toEqual(new RawTemporal(Date.UTC(2024, 1, 29, 12, 34, 56) / 1000, 0, 60))
    expect(parse({ dbTzOffset: null, dbTzRegion: "Europe/Paris" }, false)).toBeInstanceOf(RawTemporal)
    expect(() => parse({ dbTzOffset: null, dbTzRegion: "Europe/Paris" }, true)).toThrow(/NJS-201/)
  })
})
