import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import type { StatementShape } from "../../src/Statement.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const out = (name: string, type: Arrow.DataType, direction = "out") =>
  new Arrow.Field(name, type, true, new Map([["ORACLE:parameter_type", direction]]))

const batchOf = (fields: ReadonlyArray<Arrow.Field>, vectors: ReadonlyArray<Arrow.Vector>) =>
  new Arrow.RecordBatch(new Arrow.Schema([...fields]), Arrow.makeData({
    type: new Arrow.Struct([...fields]),
    length: vectors[0]!.length,
    nullCount: 0,
    children: vectors.map((v) => v.data[0]!)
  }))

/** The unscaled value of a decimal128 column's first row, from its four little-endian 32-bit words. */
const unscaled = (table: Arrow.Table, column: string): bigint => {
  const data = table.getChild(column)!.data[0]!
  const words = data.values as Uint32Array
  const raw = [0, 1, 2, 3].reduce((n, w) => n | (BigInt(words[w]!) << BigInt(32 * w)), 0n)
  return BigInt.asIntN(128, raw)
}

const runQuery = (stmt: StatementShape) => Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches)))

describe("OUT parameters", () => {
  it.effect("OUT columns carry oracle.type-name: the Oracle type each was bound as", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("BEGIN :1 := 42; :2 := 'zwei'; :3 := 1.5; :4 := 12.34; END;")
      const fields = [
        out("n", new Arrow.Int32()),
        out("s", new Arrow.Utf8()),
        out("f", new Arrow.Float64()),
        out("d", new Arrow.Decimal(2, 10, 128), "inout")
      ]
      yield* stmt.bind(batchOf(fields, [
        Arrow.vectorFromArray([null], new Arrow.Int32()),
        Arrow.vectorFromArray([null], new Arrow.Utf8()),
        Arrow.vectorFromArray([null], new Arrow.Float64()),
        Arrow.makeVector(Arrow.makeData({ type: new Arrow.Decimal(2, 10, 128), length: 1, nullCount: 0, data: new Uint32Array([100, 0, 0, 0]) }))
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => [f.name, f.metadata.get("oracle.type-name")])).toEqual([
        ["n", "NUMBER(38,0)"],
        ["s", "NVARCHAR2"],
        ["f", "BINARY_DOUBLE"],
        ["d", "NUMBER(10,2)"]
      ])
      expect(table.schema.fields.every((f) => f.metadata.get("ORACLE:parameter_type") !== undefined)).toBe(true)
      const row = table.get(0)!.toJSON()
      expect([row["n"], row["s"], row["f"]]).toEqual([42, "zwei", 1.5])
      expect(unscaled(table, "d")).toBe(1234n)
    })))

  it.effect("OUT and IN OUT decimals keep every digit: a 38-digit OUT value and an IN OUT value come back exact", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("BEGIN :1 := 1234567890123456789012345678.0123456789; :2 := TO_NUMBER(:2) + 1; END;")
      const wide = new Arrow.Decimal(10, 38, 128)
      // IN OUT input 999999999999999999999999999.9999999998 (unscaled 10^37 - 2): a double would round it
      const input = 10n ** 37n - 2n
      const words = new Uint32Array(4)
      for (let w = 0; w < 4; w++) words[w] = Number((input >> BigInt(32 * w)) & 0xffffffffn)
      yield* stmt.bind(batchOf([out("o", wide), out("io", wide, "inout")], [
        Arrow.makeVector(Arrow.makeData({ type: wide, length: 1, nullCount: 1, nullBitmap: new Uint8Array([0]), data: new Uint32Array(4) })),
        Arrow.makeVector(Arrow.makeData({ type: wide, length: 1, nullCount: 0, data: words }))
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["NUMBER(38,10)", "NUMBER(38,10)"])
      expect(unscaled(table, "o")).toBe(12345678901234567890123456780123456789n)
      expect(unscaled(table, "io")).toBe(10n ** 37n - 2n + 10n ** 10n)
    })))

  it.effect("OUT parameters followed by a result set (batch mode): the first row holds the OUT values, later rows NULL", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("OUTRS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10))`)
      for (const id of [1, 2, 3]) yield* conn.execute(`INSERT INTO ${t} VALUES (${id})`)
      const stmt = yield* conn.statement({ "redo.statement.execution_mode": "batch" })
      yield* stmt.setSqlQuery(`DECLARE c SYS_REFCURSOR; BEGIN :1 := :2 * 2; OPEN c FOR SELECT ID FROM ${t} ORDER BY ID; DBMS_SQL.RETURN_RESULT(c); END;`)
      yield* stmt.bind(batchOf([out("o", new Arrow.Int32()), new Arrow.Field("x", new Arrow.Int32())], [
        Arrow.vectorFromArray([null], new Arrow.Int32()),
        Arrow.vectorFromArray([21], new Arrow.Int32())
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => f.name)).toEqual(["ID", "o"])
      expect(table.schema.fields[1]!.metadata.get("oracle.type-name")).toBe("NUMBER(38,0)")
      expect(table.toArray().map((r) => r.toJSON())).toEqual([{ ID: 1n, o: 42 }, { ID: 2n, o: null }, { ID: 3n, o: null }])
    })))
  it.effect("OUT parameters with several parameter rows are refused before the block runs: the table is untouched", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("OUTROWS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`BEGIN INSERT INTO ${t} VALUES (:1); :2 := :1 * 2; END;`)
      yield* stmt.bind(batchOf([new Arrow.Field("x", new Arrow.Int32()), out("o", new Arrow.Int32())], [
        Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
        Arrow.vectorFromArray([null, null, null], new Arrow.Int32())
      ]))
      const error = yield* Effect.flip(runQuery(stmt))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain("exactly one parameter row")
      expect(error.message).toContain("got 3")
      const rows = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM ${t}`)))
      expect(Number(rows.get(0)!.toJSON()["N"])).toBe(0)
    })))
  it.effect("DATE, TIMESTAMP(9), TIMESTAMP WITH [LOCAL] TIME ZONE and INTERVAL OUT and IN OUT values (TSTZ IN OUT arithmetic included) come back as their Arrow types, exact", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`BEGIN
        :1 := DATE '2024-02-29';
        :2 := TIMESTAMP '2024-02-29 12:34:56.123456';
        :3 := TIMESTAMP '2024-02-29 12:34:56.123456 +05:30';
        :4 := CAST(TIMESTAMP '2024-02-29 12:34:56.123456 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE);
        :5 := INTERVAL '-3-7' YEAR TO MONTH;
        :6 := INTERVAL '3 04:05:06.123456789' DAY TO SECOND(9);
        :7 := INTERVAL '-1 00:00:00.5' DAY TO SECOND;
        :8 := INTERVAL '2 00:00:01.000000007' DAY TO SECOND(9);
        :9 := :9 + INTERVAL '1' DAY;
        :10 := :10 + INTERVAL '1' DAY;
        :11 := :11 + INTERVAL '1' MONTH;
        :12 := :12;
        :13 := :13 + INTERVAL '1' HOUR;
      END;`)
      const ns = new Arrow.TimestampNanosecond()
      const tz = new Arrow.Timestamp(Arrow.TimeUnit.NANOSECOND, "UTC")
      const us = new Arrow.Timestamp(Arrow.TimeUnit.MICROSECOND, "UTC")
      const ym = new Arrow.IntervalYearMonth()
      const mdn = new Arrow.IntervalMonthDayNano()
      const dt = new Arrow.IntervalDayTime()
      const dur = new Arrow.Duration(Arrow.TimeUnit.NANOSECOND)
      const fields = [
        out("d", new Arrow.DateDay()),
        out("ts", ns),
        out("tstz", tz),
        out("ltz", us),
        out("ym", ym),
        out("ds", mdn),
        out("dsms", dt),
        out("dsdur", dur),
        out("d_io", new Arrow.DateDay(), "inout"),
        out("ts_io", ns, "inout"),
        out("ym_io", ym, "inout"),
        out("dur_io", dur, "inout"),
        out("tstz_io", tz, "inout")
      ]
      const nulls = (type: Arrow.DataType) => Arrow.makeVector(Arrow.makeData({ type, length: 1, nullCount: 1, nullBitmap: new Uint8Array([0]) } as never))
      const day = Date.UTC(2024, 1, 29) / 86_400_000
      const tsNanos = BigInt(Date.UTC(2024, 1, 29, 12, 34, 56)) * 1_000_000n + 123_456_789n
      // the test server evaluates PL/SQL datetimes in microseconds
      const tsMicros = tsNanos - 789n
      yield* stmt.bind(batchOf(fields, [
        nulls(new Arrow.DateDay()), nulls(ns), nulls(tz), nulls(us), nulls(ym), nulls(mdn), nulls(dt), nulls(dur),
        Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: 1, nullCount: 0, data: new Int32Array([day]) })),
        Arrow.makeVector(Arrow.makeData({ type: ns, length: 1, nullCount: 0, data: new BigInt64Array([tsMicros]) })),
        Arrow.makeVector(Arrow.makeData({ type: ym, length: 1, nullCount: 0, data: new Int32Array([-5]) })),
        Arrow.makeVector(Arrow.makeData({ type: dur, length: 1, nullCount: 0, data: new BigInt64Array([86_400_000_001_000n]) })),
        Arrow.makeVector(Arrow.makeData({ type: tz, length: 1, nullCount: 0, data: new BigInt64Array([tsMicros]) }))
      ]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect(table.schema.fields.map((f) => String(f.type))).toEqual(fields.map((f) => String(f.type)))
      const cell = (name: string) => table.getChild(name)!.data[0]!.values
      expect(cell("d")[0]).toBe(day)
      expect((cell("ts") as BigInt64Array)[0]).toBe(tsMicros)
      expect((cell("tstz") as BigInt64Array)[0]).toBe(tsMicros - 19_800_000_000_000n)
      expect((cell("ltz") as BigInt64Array)[0]).toBe(tsMicros / 1000n)
      expect(cell("ym")[0]).toBe(-43)
      expect(Array.from(cell("ds") as Int32Array)).toEqual([0, 3, 14_706_123_456_789 % 2 ** 32 | 0, Math.floor(14_706_123_456_789 / 2 ** 32)])
      expect(Array.from(cell("dsms") as Int32Array)).toEqual([-1, -500])
      expect((cell("dsdur") as BigInt64Array)[0]).toBe(2n * 86_400_000_000_000n + 1_000_000_007n)
      expect(cell("d_io")[0]).toBe(day + 1)
      expect((cell("ts_io") as BigInt64Array)[0]).toBe(tsMicros + 86_400_000_000_000n)
      expect(cell("ym_io")[0]).toBe(-4)
      // the test server evaluates PL/SQL intervals in microseconds
      expect((cell("dur_io") as BigInt64Array)[0]).toBe(86_400_000_001_000n)
      // TIMESTAMP WITH TIME ZONE IN OUT arithmetic (was ORA-00932 on the test server)
      expect((cell("tstz_io") as BigInt64Array)[0]).toBe(tsMicros + 3_600_000_000_000n)
    })))

  it.effect("a PL/SQL OUT string holds 32,767 bytes, as oracledb thin allows in PL/SQL", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("BEGIN :1 := RPAD('x', 32767, 'x'); END;")
      yield* stmt.bind(batchOf([out("s", new Arrow.Utf8())], [Arrow.vectorFromArray([null], new Arrow.Utf8())]))
      const table = new Arrow.Table(yield* runQuery(stmt))
      expect((table.get(0)!.toJSON()["s"] as string).length).toBe(32767)
    })))
  it.effect("RETURNING ... INTO: one touched row gives its values (a 3,000-byte string within SQL's 4,000); several fail INVALID_ARGUMENT and write nothing", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("RETINTO")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(5), NAME VARCHAR2(4000))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (1, RPAD('y', 3000, 'y')) RETURNING ID, NAME INTO :1, :2`)
      yield* stmt.bind(batchOf([out("id", new Arrow.Int32()), out("name", new Arrow.Utf8())], [
        Arrow.vectorFromArray([null], new Arrow.Int32()),
        Arrow.vectorFromArray([null], new Arrow.Utf8())
      ]))
      const row = new Arrow.Table(yield* runQuery(stmt)).get(0)!.toJSON()
      expect([row["id"], (row["name"] as string).length]).toEqual([1, 3000])
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, 'z')`)
      const update = yield* conn.statement()
      yield* update.setSqlQuery(`UPDATE ${t} SET NAME = 'changed' RETURNING ID INTO :1`)
      yield* update.bind(batchOf([out("id", new Arrow.Int32())], [Arrow.vectorFromArray([null], new Arrow.Int32())]))
      const error = yield* Effect.flip(runQuery(update))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain("RETURNING ... INTO returned 2 rows")
      const names = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM ${t} WHERE NAME = 'changed'`)))
      expect(Number(names.get(0)!.toJSON()["N"])).toBe(0)
    })))
})
