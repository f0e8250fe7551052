import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { ObjectDepth } from "../../src/catalog/index.ts"
import { fromTable } from "../../src/Ingest.ts"
import { HanaDriver } from "../../layers/hana/index.ts"
import { batchRows } from "../catalog/arrowPlain.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

// Gaps found by the audit of the driver against seed A (/work/coord/audit-hana-driver.md), each proven through the
// real hdb client against the test server.
const server = useServer()

const collect = (sql: string, options?: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql, options)))
const sizes = (batches: ReadonlyArray<Arrow.RecordBatch>) => batches.map((b) => b.numRows)
const fill = (table: string, rows: number) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    conn.execute(`CREATE TABLE ${table} AS (SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 0, ${rows}))`))

describe.skipIf(realHana)("fetch_size and read_batch_rows at every level (test server: first page 32 rows)", () => {
  it.effect("with read_batch_rows 1 every batch is one fetch page, so batch sizes show the fetch size in force", () =>
    withConnection(
      server.uri,
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("FS")
        yield* fill(t, 200)
        // database level: fetch 50
        expect(sizes(yield* collect(`SELECT I FROM ${t}`))).toEqual([32, 50, 50, 50, 18])
        // connection level beats database level
        yield* conn.setOption("dba.statement.fetch_size", "40")
        expect(sizes(yield* collect(`SELECT I FROM ${t}`))).toEqual([32, 40, 40, 40, 40, 8])
        // statement level beats connection level, for this statement only
        expect(sizes(yield* collect(`SELECT I FROM ${t}`, { "dba.statement.fetch_size": "84" }))).toEqual([32, 84, 84])
        expect(sizes(yield* collect(`SELECT I FROM ${t}`))).toEqual([32, 40, 40, 40, 40, 8])
        // read_batch_rows: database 1, connection 70 (whole pages appended until >= 70), statement 200
        yield* conn.setOption("dba.statement.read_batch_rows", "70")
        expect(sizes(yield* collect(`SELECT I FROM ${t}`))).toEqual([72, 80, 48])
        expect(sizes(yield* collect(`SELECT I FROM ${t}`, { "dba.statement.read_batch_rows": "200" }))).toEqual([200])
      }),
      { "dba.statement.fetch_size": "50", "dba.statement.read_batch_rows": "1" }
    ))

  it.effect("defaults: fetch_size 50000 and read_batch_rows 100000", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const t = uniqueName("DEF")
      yield* fill(t, 120_000)
      expect(sizes(yield* collect(`SELECT I FROM ${t}`, { "dba.statement.read_batch_rows": "1" }))).toEqual([
        32,
        50_000,
        50_000,
        19_968
      ])
      // pages 32 + 1000 × 100 reach 100,000 at 100,032 rows
      expect(sizes(yield* collect(`SELECT I FROM ${t}`, { "dba.statement.fetch_size": "1000" }))).toEqual([100_032, 19_968])
    })), 60_000)

  it.effect("zero, negative and non-integer sizes are INVALID_ARGUMENT at every level", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      for (const bad of ["0", "-5", "1.5", "many"]) {
        for (const key of ["dba.statement.fetch_size", "dba.statement.read_batch_rows"]) {
          const atStatement = yield* Effect.flip(collect("SELECT 1 AS X FROM DUMMY", { [key]: bad }))
          expect(atStatement.status).toBe("INVALID_ARGUMENT")
          const atConnection = yield* Effect.flip(conn.setOption(key, bad))
          expect(atConnection.status).toBe("INVALID_ARGUMENT")
        }
      }
    })))
})
