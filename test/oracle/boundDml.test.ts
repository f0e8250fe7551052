/**
 * Bound array DML under autocommit (an INSERT bound to several parameter rows, as the Effect SQL client's
 * `sql.insert([...])` sends it): one executeMany that commits in the same round trip, as oracledb's own
 * `executeMany(..., { autoCommit: true })` does, with no separate parse or COMMIT call; and a failing row leaves the
 * table as it was (Oracle commits only a call that succeeds).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

/** Counts oracledb's COMMIT calls while `effect` runs (the calls still go to the server). */
const countingCommits = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const original = oracledb.Connection.prototype.commit
      const counter = { commits: 0 }
      oracledb.Connection.prototype.commit = function(this: unknown, ...args: Array<unknown>) {
        counter.commits++
        return original.apply(this, args)
      }
      return { original, counter }
    }),
    ({ counter }) => Effect.map(effect, (a) => [a, counter.commits] as const),
    ({ original }) => Effect.sync(() => { oracledb.Connection.prototype.commit = original })
  )

const count = (conn: Connection.ConnectionShape, table: string) =>
  Effect.map(Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM ${table}`)), (batches) =>
    Number(new Arrow.Table(batches).get(0)!.toJSON()["C"]))

describe("bound array DML under autocommit", () => {
  it.effect("an INSERT bound to 3,000 rows is one executeMany that commits itself: no separate COMMIT call", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("BDML")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10) NOT NULL, NAME VARCHAR2(20))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2)`)
      yield* stmt.bind(new Arrow.Table({
        ID: Arrow.makeVector(Int32Array.from({ length: 3_000 }, (_, i) => i)),
        NAME: Arrow.vectorFromArray(Array.from({ length: 3_000 }, (_, i) => `n${i}`), new Arrow.Utf8())
      }))
      const [rows, commits] = yield* countingCommits(stmt.executeUpdate)
      expect(rows).toBe(3_000)
      expect(commits).toBe(0)
      expect(yield* count(conn, t)).toBe(3_000)
    })))

  it.effect("a row that fails (NOT NULL) leaves the table as it was, the rows before it included", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("BDMLF")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10) NOT NULL, NAME VARCHAR2(20))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2)`)
      yield* stmt.bind(new Arrow.Table({
        ID: Arrow.vectorFromArray([1, 2, null, 4], new Arrow.Int32()),
        NAME: Arrow.vectorFromArray(["a", "b", "c", "d"], new Arrow.Utf8())
      }))
      const error = yield* Effect.flip(stmt.executeUpdate)
      expect(error.vendorCode).toBe(1400)
      expect(yield* count(conn, t)).toBe(0)
      // the connection is still in autocommit: the next statement commits on its own
      yield* conn.execute(`INSERT INTO ${t} VALUES (9, 'z')`)
      expect(yield* count(conn, t)).toBe(1)
    })))
})
