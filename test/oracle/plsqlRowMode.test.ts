import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { failure } from "../conformance/harness.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// Row mode refuses a PL/SQL block's implicit result sets, which only its run reveals: the refusal leaves no effect of
// the block behind, with autocommit on and inside the caller's transaction (whose earlier work stays).
const server = useServer()

/** A block that inserts `value` into `table` and returns a result set (`:1` instead of the value when `bound`). */
const insertAndReturn = (table: string, value: string) =>
  `DECLARE c SYS_REFCURSOR; BEGIN INSERT INTO ${table} VALUES (${value}); OPEN c FOR SELECT N FROM ${table}; DBMS_SQL.RETURN_RESULT(c); END;`

/** The values of column N of `table`, read on a connection of its own (so only committed rows count). */
const committed = (table: string) =>
  withConnection(server.uri, Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const batches = yield* Stream.runCollect(conn.query(`SELECT N FROM ${table} ORDER BY N`))
    return batches.flatMap((b) => Array.from(b.getChild("N")!.toArray() as ArrayLike<unknown>, Number))
  }))

const expectRefused = (exit: Parameters<typeof failure>[0]) => {
  const error = failure(exit)
  expect(error.status).toBe("NOT_IMPLEMENTED")
  expect(error.message).toContain("redo.statement.execution_mode=batch")
}

describe("PL/SQL implicit result sets in row mode", () => {
  it.live("with autocommit, the refused block's INSERT is rolled back; a block without result sets is committed", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("RMB")
      yield* conn.execute(`CREATE TABLE ${t} (N NUMBER(3))`)
      expectRefused(yield* Effect.exit(Stream.runCollect(conn.query(insertAndReturn(t, "1")))))
      expect(yield* committed(t)).toEqual([])
      // the same with the block's value bound (one parameter row)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(insertAndReturn(t, ":1"))
      yield* stmt.bind(new Arrow.Table({ v: Arrow.vectorFromArray([2], new Arrow.Int32()) }).batches[0]!)
      expectRefused(yield* Effect.exit(Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches)))))
      expect(yield* committed(t)).toEqual([])
      // a block that returns nothing still commits under autocommit
      yield* conn.execute(`BEGIN INSERT INTO ${t} VALUES (3); END;`)
      expect(yield* committed(t)).toEqual([3])
    })), 30_000)

  it.live("inside a transaction, the refused block is undone and the caller's earlier work is kept", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("RMT")
      yield* conn.execute(`CREATE TABLE ${t} (N NUMBER(3))`)
      const refused = yield* conn.withTransaction(Effect.gen(function*() {
        yield* conn.execute(`INSERT INTO ${t} VALUES (10)`)
        const exit = yield* Effect.exit(Stream.runCollect(conn.query(insertAndReturn(t, "11"))))
        yield* conn.execute(`INSERT INTO ${t} VALUES (12)`)
        return exit
      }))
      expectRefused(refused)
      expect(yield* committed(t)).toEqual([10, 12])
    })), 30_000)
})
