import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
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
