import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { encodedRowsSent } from "../../layers/oracle/EncodedBinds.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const ROWS = 3000
/** Row (0-based) of the whole ingest that the server rejects: deep in the second executeMany of 1000 rows. */
const BAD = 1736

const count = (t: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(
      Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM "${t}"`)),
      (batches) => Number(new Arrow.Table(batches).getChild("C")!.get(0))
    ))

/**
 * `ROWS` rows split into two Arrow batches (so rows are counted across batches too), one bad value at `BAD`; with
 * `doc`, a struct column too, which sends every batch through oracledb's own encoder instead of the fast path.
 */
const data = (id: (i: number) => number, name: (i: number) => string | null, doc = false) => {
  const make = (from: number, to: number) => {
    const n = to - from
    const columns: Record<string, Arrow.Vector> = {
      id: Arrow.vectorFromArray(Array.from({ length: n }, (_, k) => id(from + k)), new Arrow.Int32()),
      name: Arrow.vectorFromArray(Array.from({ length: n }, (_, k) => name(from + k)), new Arrow.Utf8())
    }
    if (doc) {
      const type = new Arrow.Struct([new Arrow.Field("k", new Arrow.Int32())])
      columns["doc"] = Arrow.vectorFromArray(Array.from({ length: n }, (_, k) => ({ k: from + k })), type)
    }
    return new Arrow.Table(columns)
  }
  return new Arrow.Table([...make(0, 700).batches, ...make(700, ROWS).batches])
}

describe("ingest row errors name the row of the whole ingest and the column", () => {
  it.effect("ORA-01400 deep in the second executeMany names row and column; the table is unchanged", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ROWERR")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(50) NOT NULL)`)))
      yield* conn.ingest(fromTable(data((i) => i, (i) => `n${i}`).slice(0, 5)), { targetTable: t, mode: "append" })
      const error = yield* Effect.flip(
        conn.ingest(fromTable(data((i) => i + 10, (i) => (i === BAD ? null : `n${i}`))), { targetTable: t, mode: "append" })
      )
      expect(error.status).toBe("INTEGRITY")
      expect(error.vendorCode).toBe(1400)
      expect(error.sqlState).toBe("23000")
      expect(error.message).toMatch(new RegExp(`^row ${BAD + 1}, column "name": ORA-01400`))
      expect(yield* count(t)).toBe(5)
    }), { "redo.statement.insert_batch_rows": "1000" }))

  it.effect("on oracledb's own encoder (a struct column), ORA-01400 in the second executeMany of the second batch names row and column", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ROWFALL")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(50) NOT NULL, "doc" NVARCHAR2(200))`)))
      const before = encodedRowsSent()
      const error = yield* Effect.flip(
        conn.ingest(fromTable(data((i) => i, (i) => (i === BAD ? null : `n${i}`), true)), { targetTable: t, mode: "append" })
      )
      expect(encodedRowsSent()).toBe(before)
      expect(error.status).toBe("INTEGRITY")
      expect(error.vendorCode).toBe(1400)
      expect(error.sqlState).toBe("23000")
      expect(error.message).toMatch(new RegExp(`^row ${BAD + 1}, column "name": ORA-01400`))
      expect(yield* count(t)).toBe(0)
    }), { "redo.statement.insert_batch_rows": "1000", "redo.ingest.struct_type": "nvarchar2" }))

  it.effect("ORA-00001 names the row of the duplicate; the table is unchanged", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ROWDUP")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) PRIMARY KEY, "name" NVARCHAR2(50))`)))
      const error = yield* Effect.flip(
        conn.ingest(fromTable(data((i) => (i === BAD ? 3 : i), (i) => `n${i}`)), { targetTable: t, mode: "append" })
      )
      expect(error.status).toBe("INTEGRITY")
      expect(error.vendorCode).toBe(1)
      expect(error.message).toMatch(new RegExp(`^row ${BAD + 1}: ORA-00001`))
      expect(yield* count(t)).toBe(0)
    }), { "redo.statement.insert_batch_rows": "1000" }))

  it.effect("a string too long for its column names the row counted across Arrow batches", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ROWLEN")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10), "name" NVARCHAR2(5))`)))
      const error = yield* Effect.flip(
        conn.ingest(fromTable(data((i) => i, (i) => (i === BAD ? "far too long" : "ok"))), { targetTable: t, mode: "append" })
      )
      expect(error.message).toContain(`row ${BAD + 1} holds 12 characters`)
      expect(yield* count(t)).toBe(0)
    }), { "redo.statement.insert_batch_rows": "1000" }))
})
