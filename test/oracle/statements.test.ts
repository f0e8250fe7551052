import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const batchOf = (columns: Record<string, Arrow.Vector>) => new Arrow.Table(columns).batches[0]!
const rowsOf = (sql: string, options?: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => new Arrow.Table(batches)))

describe("prepared statements and parameters", () => {
  it.effect("prepare / executeSchema describe an INSERT or a DDL statement without running it", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("DESC")
      yield* conn.execute(`CREATE TABLE ${t} (I NUMBER(10))`)
      for (const sql of [`INSERT INTO ${t} VALUES (1)`, `DROP TABLE ${t}`, `CREATE TABLE ${t}_X (J NUMBER)`]) {
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(sql)
        yield* stmt.prepare
        yield* stmt.executeSchema
      }
      const count = yield* rowsOf(`SELECT COUNT(*) AS N FROM ${t}`)
      expect(count.get(0)!.toJSON()["N"]).toBe(0)
      const created = yield* rowsOf(`SELECT COUNT(*) AS N FROM USER_TABLES WHERE TABLE_NAME = '${t}_X'`)
      expect(created.get(0)!.toJSON()["N"]).toBe(0)
    })))

  it.effect("binds Arrow batches to an INSERT (executeMany) and to a query run per row; values round-trip exactly", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("BIND")
      yield* conn.execute(
        `CREATE TABLE ${t} (I NUMBER(10), S NVARCHAR2(20), D NUMBER(20,4), F BINARY_DOUBLE, DT DATE, TS TIMESTAMP(9), TZ TIMESTAMP(6) WITH TIME ZONE, B BOOLEAN, R RAW(10))`
      )
      const insert = yield* conn.statement()
      yield* insert.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2, :3, :4, :5, :6, :7, :8, :9)`)
      yield* insert.prepare
      // Bound TIMESTAMP(9) values: the test server keeps microseconds of bound timestamps (testkit/oracle/params.ts),
      // so the values here are whole microseconds; nanosecond reads are covered by query.test.ts.
      const ts = new Arrow.Data(new Arrow.TimestampNanosecond(), 0, 3, 1, [
        undefined,
        new BigInt64Array([1709214356123456000n, -1000n, 0n]),
        new Uint8Array([0b011])
      ] as never)
      const tz = new Arrow.Data(new Arrow.TimestampMicrosecond("UTC"), 0, 3, 1, [
        undefined,
        new BigInt64Array([1717236000987654n, 0n, 0n]),
        new Uint8Array([0b001])
      ] as never)
      yield* insert.bind(batchOf({
        i: Arrow.vectorFromArray([1, 2, null], new Arrow.Int32()),
        s: Arrow.vectorFromArray(["a", "😀 é", null], new Arrow.Utf8()),
        d: Arrow.makeVector(new Arrow.Data(new Arrow.Decimal(4, 20, 128), 0, 3, 1, [
          undefined,
          new Uint32Array([0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 123456789, 0, 0, 0, 0, 0, 0, 0]),
          new Uint8Array([0b011])
        ] as never)),
        f: Arrow.vectorFromArray([1.5, -0.25, null], new Arrow.Float64()),
        dt: Arrow.vectorFromArray([new Date(Date.UTC(2024, 1, 29)), new Date(Date.UTC(1969, 11, 31)), null], new Arrow.DateDay()),
        ts: Arrow.makeVector(ts),
        tz: Arrow.makeVector(tz),
        b: Arrow.vectorFromArray([true, false, null], new Arrow.Bool()),
        r: Arrow.vectorFromArray([new Uint8Array([1, 2]), new Uint8Array([]), null], new Arrow.Binary())
      }))
      expect(yield* insert.executeUpdate).toBe(3)
      const table = yield* rowsOf(`SELECT I, S, D, F, DT, TS, TZ, B FROM ${t} ORDER BY I NULLS LAST`)
      const rows = table.toArray().map((r) => r.toJSON())
      expect(rows.map((r) => r["I"])).toEqual([1n, 2n, null])
      expect(rows.map((r) => r["S"])).toEqual(["a", "😀 é", null])
      expect(rows.map((r) => r["F"])).toEqual([1.5, -0.25, null])
      expect(rows.map((r) => r["B"])).toEqual([true, false, null])
      expect([...(table.getChild("DT")!.data[0]!.values as Int32Array)].slice(0, 2)).toEqual([19782, -1])
      expect([...(table.getChild("TS")!.data[0]!.values as BigInt64Array)].slice(0, 2)).toEqual([1709214356123456000n, -1000n])
      expect((table.getChild("TZ")!.data[0]!.values as BigInt64Array)[0]).toBe(1717236000987654n)
      const d = table.getChild("D")!.data[0]!.values as Uint32Array
      expect([d[0], d[1], d[4]]).toEqual([0xFFFFFFFF, 0xFFFFFFFF, 123456789]) // -1 and 123456789 unscaled
      const select = yield* conn.statement()
      yield* select.setSqlQuery(`SELECT I, S FROM ${t} WHERE I = :1`)
      yield* select.bind(batchOf({ i: Arrow.vectorFromArray([2, 1], new Arrow.Int32()) }))
      const selected = yield* Effect.scoped(Effect.flatMap(select.executeQuery, (r) => Stream.runCollect(r.batches)))
      expect(new Arrow.Table(selected).toArray().map((r) => r.toJSON())).toEqual([{ I: 2n, S: "😀 é" }, { I: 1n, S: "a" }])
    })))

  it.effect("NA bind types fail NOT_IMPLEMENTED naming the type; GetParameterSchema is NOT_IMPLEMENTED", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("SELECT :1 FROM DUAL")
      yield* stmt.bind(batchOf({ a: Arrow.vectorFromArray([1n], new Arrow.Int64()) }))
      const error = yield* Effect.flip(Effect.scoped(stmt.executeQuery))
      expect(error.status).toBe("NOT_IMPLEMENTED")
      expect(error.message).toContain("Int64")
      yield* stmt.prepare.pipe(Effect.ignore)
      const schema = yield* Effect.flip(stmt.getParameterSchema)
      expect(schema.status).toBe("NOT_IMPLEMENTED")
    })))

  it.effect("transactions: autocommit off, rollback discards, commit keeps", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TXN")
      yield* conn.execute(`CREATE TABLE ${t} (I NUMBER(10))`)
      yield* conn.setOption("adbc.connection.autocommit", "false")
      yield* conn.execute(`INSERT INTO ${t} VALUES (1)`)
      yield* conn.rollback
      yield* conn.execute(`INSERT INTO ${t} VALUES (2)`)
      yield* conn.commit
      yield* conn.setOption("adbc.connection.autocommit", "true")
      const table = yield* rowsOf(`SELECT I FROM ${t}`)
      expect(table.toArray().map((r) => r.toJSON()["I"])).toEqual([2n])
    })))

  it.effect("isolation levels: read committed and serializable are set, others fail NOT_IMPLEMENTED naming the accepted", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const key = "adbc.connection.transaction.isolation_level"
      yield* conn.setOption(key, "adbc.connection.transaction.isolation.serializable")
      yield* conn.setOption(key, "adbc.connection.transaction.isolation.read_committed")
      yield* conn.setOption(key, "adbc.connection.transaction.isolation.default")
      for (const level of ["repeatable_read", "read_uncommitted", "snapshot", "linearizable"]) {
        const error = yield* Effect.flip(conn.setOption(key, `adbc.connection.transaction.isolation.${level}`))
        expect(error.status).toBe("NOT_IMPLEMENTED")
        expect(error.message).toContain("read committed, serializable")
      }
      const plain = yield* rowsOf("SELECT 1 AS ONE FROM DUAL")
      expect(plain.numRows).toBe(1)
    })))

  it.effect("nested withTransaction: an inner failure rolls back to its savepoint, the outer work commits", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("SAVEPT")
      yield* conn.execute(`CREATE TABLE ${t} (I NUMBER(10))`)
      const inner = conn.withTransaction(Effect.gen(function*() {
        yield* conn.execute(`INSERT INTO ${t} VALUES (2)`)
        return yield* Effect.fail("inner failed" as const)
      }))
      const outcome = yield* conn.withTransaction(Effect.gen(function*() {
        yield* conn.execute(`INSERT INTO ${t} VALUES (1)`)
        const innerError = yield* Effect.flip(inner)
        yield* conn.execute(`INSERT INTO ${t} VALUES (3)`)
        return innerError
      }))
      expect(outcome).toBe("inner failed")
      const kept = yield* rowsOf(`SELECT I FROM ${t} ORDER BY I`)
      expect(kept.toArray().map((r) => r.toJSON()["I"])).toEqual([1n, 3n])
      const outerFailed = yield* Effect.flip(conn.withTransaction(Effect.gen(function*() {
        yield* conn.execute(`INSERT INTO ${t} VALUES (4)`)
        yield* conn.withTransaction(conn.execute(`INSERT INTO ${t} VALUES (5)`))
        return yield* Effect.fail("outer failed" as const)
      })))
      expect(outerFailed).toBe("outer failed")
      const after = yield* rowsOf(`SELECT I FROM ${t} ORDER BY I`)
      expect(after.toArray().map((r) => r.toJSON()["I"])).toEqual([1n, 3n])
    })))
})
