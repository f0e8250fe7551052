/**
 * A multi-record `sql.insert` on Oracle under autocommit costs what the raw client's
 * `executeMany(rows, { autoCommit: true })` costs: one round trip, counted at the server (its `requests`), with no
 * catalog query describing the table and no COMMIT of its own; and a failing record leaves the table as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as OracleClient from "../../layers/oracle/OracleClient.ts"
import { rowsEncoded } from "../../layers/oracle/IngestEncoder.ts"
import { uniqueName, useServer } from "../oracle/support.ts"

const server = useServer()

const records = (from: number, n: number): [Record<string, unknown>, ...Array<Record<string, unknown>>] =>
  Array.from({ length: n }, (_, i) => ({
    ID: from + i,
    AMOUNT: (from + i) / 4,
    DAY: new Date(Date.UTC(2024, 0, 1 + (i % 28))),
    NAME: `name ${from + i}`,
    FLAG: i % 2 === 0
  })) as unknown as [Record<string, unknown>, ...Array<Record<string, unknown>>]

const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, Layer.fresh(OracleClient.layer({ uri: server.uri, poolSize: 1 })))

describe.skipIf(server.server === undefined && process.env["ORACLE_URI"] !== undefined)("Oracle sql.insert of many records", () => {
  it.live("is one round trip under autocommit, as executeMany with autoCommit is, and commits its rows", () =>
    run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const table = uniqueName("SQLIRT")
      yield* sql.unsafe(`CREATE TABLE ${table} (ID NUMBER(10) NOT NULL, AMOUNT NUMBER(12,2), DAY DATE, NAME VARCHAR2(40), FLAG BOOLEAN)`)
      // the first insert parses the statement (a cursor the connection keeps)
      yield* sql`INSERT INTO ${sql(table)} ${sql.insert(records(0, 100))}`
      const stats = server.server!.stats
      const before = stats.requests
      const encodedBefore = rowsEncoded()
      yield* sql`INSERT INTO ${sql(table)} ${sql.insert(records(100, 2_000))}`
      expect(stats.requests - before).toBe(1)
      // encoded straight from the Arrow buffers, not turned into JS values for oracledb's encoder
      expect(rowsEncoded() - encodedBefore).toBe(2_000)
      const [row] = yield* sql<{ C: number; S: string }>`SELECT COUNT(*) AS C, SUM(AMOUNT) AS S FROM ${sql(table)}`
      expect(row!.C).toBe(2_100)
      expect(String(row!.S)).toBe(String(Array.from({ length: 2_100 }, (_, i) => i / 4).reduce((a, b) => a + b, 0)))
    })))

  it.live("leaves the table as it was when a record fails, and the connection stays in autocommit", () =>
    run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const table = uniqueName("SQLIRF")
      yield* sql.unsafe(`CREATE TABLE ${table} (ID NUMBER(10) NOT NULL, AMOUNT NUMBER(12,2), DAY DATE, NAME VARCHAR2(40), FLAG BOOLEAN)`)
      yield* sql`INSERT INTO ${sql(table)} ${sql.insert(records(0, 10))}`
      const bad = records(10, 500)
      bad[250] = { ...bad[250]!, ID: null }
      const failed = yield* Effect.flip(sql`INSERT INTO ${sql(table)} ${sql.insert(bad)}`)
      expect(failed.message).toMatch(/1400|NULL/)
      expect(yield* sql`SELECT COUNT(*) AS C FROM ${sql(table)}`).toEqual([{ C: 10 }])
      yield* sql`INSERT INTO ${sql(table)} ${sql.insert(records(600, 5))}`
      // a second connection sees the committed rows
      const other = yield* Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (s) => s`SELECT COUNT(*) AS C FROM ${s(table)}`),
        Layer.fresh(OracleClient.layer({ uri: server.uri, poolSize: 1 }))
      )
      expect(other).toEqual([{ C: 15 }])
    })))
})
