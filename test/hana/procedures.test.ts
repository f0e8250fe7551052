import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const batchOf = (columns: Record<string, Arrow.Vector>) => new Arrow.Table(columns).batches[0]!

const rowsOf = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql))).pipe(
    Effect.map((batches) => new Arrow.Table(batches).toArray().map((r) => r.toJSON() as Record<string, unknown>))
  )

describe("CALL of a SQLScript procedure through the HANA driver", () => {
  it.effect("a query CALL reads the procedure's first result set as Arrow and closes the others (not read to their end) on the server", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("PT")
      const p = uniqueName("PP")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER, NAME NVARCHAR(20))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 'one')`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, 'two')`)
      yield* conn.execute(
        `CREATE PROCEDURE ${p} (IN lo INTEGER, OUT res TABLE (ID INTEGER, NAME NVARCHAR(20))) AS
         BEGIN
           res = SELECT ID, NAME FROM ${t} WHERE ID >= :lo ORDER BY ID;
           SELECT GENERATED_PERIOD_START AS N FROM SERIES_GENERATE_INTEGER(1, 0, 100);
         END`
      )
      const batches = yield* Stream.runCollect(conn.query(`CALL ${p}(1, ?)`))
      const table = new Arrow.Table(batches)
      expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual(["ID:Int32", "NAME:Utf8"])
      expect(table.toArray().map((r) => r.toJSON())).toEqual([
        { ID: 1, NAME: "one" },
        { ID: 2, NAME: "two" }
      ])
      if (!realHana) expect(server.server!.openResultSets()).toBe(0)
      yield* conn.execute(`DROP PROCEDURE ${p}`)
    })))

  it.effect("an update CALL runs the body's writes and reports no row count", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("PU")
      const p = uniqueName("PQ")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER)`)
      yield* conn.execute(`CREATE PROCEDURE ${p} (IN n INTEGER) AS BEGIN INSERT INTO ${t} VALUES (:n); INSERT INTO ${t} VALUES (:n + 1); END`)
      const affected = yield* conn.execute(`CALL ${p}(41)`)
      expect(affected).toBe(-1)
      expect(yield* rowsOf(`SELECT ID FROM ${t} ORDER BY ID`)).toEqual([{ ID: 41 }, { ID: 42 }])
      yield* conn.execute(`DROP PROCEDURE ${p}`)
    })))

  it.effect("a CALL with bound parameters: executeQuery reads its result set, executeUpdate runs it once per row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("PB")
      const add = uniqueName("PBA")
      const list = uniqueName("PBL")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER)`)
      yield* conn.execute(`CREATE PROCEDURE ${add} (IN n INTEGER) AS BEGIN INSERT INTO ${t} VALUES (:n); END`)
      yield* conn.execute(
        `CREATE PROCEDURE ${list} (IN lo INTEGER, OUT res TABLE (ID INTEGER)) AS BEGIN res = SELECT ID FROM ${t} WHERE ID >= :lo ORDER BY ID; END`
      )
      const insert = yield* conn.statement()
      yield* insert.setSqlQuery(`CALL ${add}(?)`)
      yield* insert.bind(batchOf({ n: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()) }))
      expect(yield* insert.executeUpdate).toBe(-1)
      const query = yield* conn.statement()
      yield* query.setSqlQuery(`CALL ${list}(?, ?)`)
      yield* query.bind(batchOf({ lo: Arrow.vectorFromArray([2], new Arrow.Int32()) }))
      const table = new Arrow.Table(yield* Effect.scoped(Effect.flatMap(query.executeQuery, (reader) => Stream.runCollect(reader.batches))))
      expect(table.toArray().map((r) => r.toJSON())).toEqual([{ ID: 2 }, { ID: 3 }])
    })))

  it.effect("an error raised in the procedure reaches the caller with HANA's code", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const p = uniqueName("PE")
      yield* conn.execute(`CREATE PROCEDURE ${p} AS BEGIN SIGNAL SQL_ERROR_CODE 10042 SET MESSAGE_TEXT = 'refused'; END`)
      const error = yield* Effect.flip(conn.execute(`CALL ${p}`))
      expect(error.vendorCode).toBe(10042)
      expect(error.message).toContain("refused")
      yield* conn.execute(`DROP PROCEDURE ${p}`)
    })))
  it.effect("a procedure with SQLScript control flow: a FOR loop's writes, an exit handler's result set, a declared condition's code", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("PC")
      const p = uniqueName("PCF")
      const q = uniqueName("PCS")
      yield* conn.execute(`CREATE TABLE ${t} (ID INTEGER PRIMARY KEY)`)
      yield* conn.execute(
        `CREATE PROCEDURE ${p} (IN n INTEGER) AS
         BEGIN
           DECLARE EXIT HANDLER FOR SQLEXCEPTION SELECT ::SQL_ERROR_CODE AS CODE FROM DUMMY;
           FOR i IN 1..:n DO
             IF MOD(:i, 2) = 0 THEN CONTINUE; END IF;
             INSERT INTO ${t} VALUES (:i);
           END FOR;
           INSERT INTO ${t} VALUES (1);
         END`
      )
      // The loop writes 1, 3, 5; the duplicate key then goes to the handler, whose SELECT is the CALL's result set.
      expect(yield* rowsOf(`CALL ${p}(5)`)).toEqual([{ CODE: 301 }])
      expect(yield* rowsOf(`SELECT ID FROM ${t} ORDER BY ID`)).toEqual([{ ID: 1 }, { ID: 3 }, { ID: 5 }])
      yield* conn.execute(
        `CREATE PROCEDURE ${q} (IN n INTEGER) AS
         BEGIN
           DECLARE too_many CONDITION FOR SQL_ERROR_CODE 10077;
           IF :n > 3 THEN SIGNAL too_many SET MESSAGE_TEXT = 'at most 3, got ' || :n; END IF;
         END`
      )
      const error = yield* Effect.flip(conn.execute(`CALL ${q}(4)`))
      expect(error.vendorCode).toBe(10077)
      expect(error.message).toContain("at most 3, got 4")
      yield* conn.execute(`DROP PROCEDURE ${p}`)
      yield* conn.execute(`DROP PROCEDURE ${q}`)
    })))
})
