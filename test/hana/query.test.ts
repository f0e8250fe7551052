import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const collect = (sql: string, options?: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql, options)))

describe("queries", () => {
  it.effect("SELECT without FROM gets FROM DUMMY", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const batches = yield* collect("SELECT 1 AS ONE, 'x' AS S")
      expect(batches.length).toBe(1)
      expect(batches[0]!.numRows).toBe(1)
      expect(Number(batches[0]!.getChild("ONE")!.get(0))).toBe(1)
      expect(batches[0]!.getChild("S")!.get(0)).toBe("x")
    })))

  it.effect("mixed column types decode from the wire into Arrow", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("MIXED")
      yield* conn.execute(
        `CREATE TABLE ${t} (I INTEGER, B BIGINT, S SMALLINT, D DOUBLE, R REAL, N NVARCHAR(50), DEC DECIMAL(18,4), DT DATE, TS TIMESTAMP, TM TIME, BO BOOLEAN, BIN VARBINARY(10), SD SECONDDATE, TI TINYINT)`
      )
      yield* conn.execute(
        `INSERT INTO ${t} VALUES (1, 9007199254740993, -3, 1.5, 2.5, 'héllo 😀', 12345.6789, '2024-02-29', '2024-02-29 13:45:56.123456', '23:59:58', TRUE, x'0102ff', '1999-12-31 23:59:59', 255)`
      )
      yield* conn.execute(
        `INSERT INTO ${t} VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`
      )
      const batches = yield* collect(`SELECT * FROM ${t} ORDER BY I NULLS LAST`)
      const table = new Arrow.Table(batches)
      expect(table.numRows).toBe(2)
      const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]))
      expect(types).toEqual({
        I: "Int32",
        B: "Int64",
        S: "Int16",
        D: "Float64",
        R: "Float32",
        N: "Utf8",
        DEC: "Decimal[18e+4]",
        DT: "Date32<DAY>",
        TS: "Timestamp<MICROSECOND, UTC>",
        TM: "Time64<MICROSECOND>",
        BO: "Bool",
        BIN: "Binary",
        SD: "Timestamp<MICROSECOND, UTC>",
        TI: "Uint8"
      })
      const row = table.get(0)!.toJSON() as Record<string, unknown>
      expect(row["I"]).toBe(1)
      expect(row["B"]).toBe(9007199254740993n)
      expect(row["S"]).toBe(-3)
      expect(row["D"]).toBe(1.5)
      expect(row["R"]).toBe(2.5)
      expect(row["N"]).toBe("héllo 😀")
      expect(table.getChild("DEC")!.data[0]!.values.slice(0, 4)).toEqual(new Uint32Array([123456789, 0, 0, 0]))
      expect(row["DT"]).toBe(Date.UTC(2024, 1, 29))
      expect(table.getChild("TS")!.data[0]!.values[0]).toBe(BigInt(Date.UTC(2024, 1, 29, 13, 45, 56)) * 1000n + 123456n)
      expect(table.getChild("TM")!.data[0]!.values[0]).toBe(BigInt((23 * 3600 + 59 * 60 + 58) * 1e6))
      expect(row["BO"]).toBe(true)
      expect([...(row["BIN"] as Uint8Array)]).toEqual([1, 2, 255])
      expect(table.getChild("SD")!.data[0]!.values[0]).toBe(BigInt(Date.UTC(1999, 11, 31, 23, 59, 59)) * 1000n)
      expect(row["TI"]).toBe(255)
      const nulls = table.get(1)!.toJSON() as Record<string, unknown>
      for (const name of Object.keys(types)) expect(nulls[name]).toBeNull()
    })))

  it.effect("fetch_size pages and best-effort read_batch_rows: statement beats connection beats database", () =>
    withConnection(
      server.uri,
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("PAGES")
        yield* conn.execute(`CREATE TABLE ${t} (I INTEGER)`)
        yield* conn.execute(`INSERT INTO ${t} SELECT GENERATED_PERIOD_START FROM SERIES_GENERATE_INTEGER(1, 0, 1000)`).pipe(
          Effect.catch(() =>
            Effect.forEach(Array.from({ length: 10 }, (_, k) => k), (k) =>
              conn.execute(`INSERT INTO ${t} SELECT ${k} * 100 + ROW_NUMBER() OVER () - 1 FROM (SELECT 1 FROM SYS.TABLES) LIMIT 100`))
          )
        )
        const total = yield* collect(`SELECT COUNT(*) AS C FROM ${t}`)
        const rows = Number(total[0]!.getChild("C")!.get(0))
        expect(rows).toBeGreaterThan(0)
        // database level: fetch 100, batch 250 → whole pages appended until >= 250
        const dbLevel = yield* collect(`SELECT I FROM ${t}`)
        expect(dbLevel.reduce((s, b) => s + b.numRows, 0)).toBe(rows)
        for (const b of dbLevel.slice(0, -1)) expect(b.numRows).toBeGreaterThanOrEqual(250)
        yield* conn.setOption("dba.statement.read_batch_rows", "120")
        const connLevel = yield* collect(`SELECT I FROM ${t}`)
        for (const b of connLevel.slice(0, -1)) expect(b.numRows).toBeGreaterThanOrEqual(120)
        expect(Math.max(...connLevel.map((b) => b.numRows))).toBeLessThan(250)
        const stmtLevel = yield* collect(`SELECT I FROM ${t}`, {
          "dba.statement.read_batch_rows": "10",
          "dba.statement.fetch_size": "7"
        })
        expect(stmtLevel.reduce((s, b) => s + b.numRows, 0)).toBe(rows)
        // pages of 7 (after the server's first page), cap 10: batches are whole pages, at most one page over
        for (const b of stmtLevel.slice(1, -1)) expect(b.numRows).toBe(14)
        yield* conn.execute(`DROP TABLE ${t}`)
      }),
      { "dba.statement.fetch_size": "100", "dba.statement.read_batch_rows": "250" }
    ))

  it.effect("floating DECIMAL and SMALLDECIMAL decode exactly into decimal128(38,18)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("FLOATDEC")
      yield* conn.execute(`CREATE TABLE ${t} (K INTEGER, D DECIMAL, S SMALLDECIMAL)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 1.25, -0.001)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, 123456789012, 0)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (3, NULL, NULL)`)
      const table = new Arrow.Table(yield* collect(`SELECT D, S FROM ${t} ORDER BY K`))
      expect(table.schema.fields.map((f) => String(f.type))).toEqual(["Decimal[38e+18]", "Decimal[38e+18]"])
      const unscaled = (column: string, row: number) => {
        const words = table.getChild(column)!.data[0]!.values as Uint32Array
        let v = 0n
        for (let k = 3; k >= 0; k--) v = (v << 32n) | BigInt(words[row * 4 + k]!)
        return BigInt.asIntN(128, v)
      }
      expect(unscaled("D", 0)).toBe(1_250_000_000_000_000_000n)
      expect(unscaled("S", 0)).toBe(-1_000_000_000_000_000n)
      expect(unscaled("D", 1)).toBe(123456789012n * 10n ** 18n)
      expect(unscaled("S", 1)).toBe(0n)
      expect(table.getChild("D")!.get(2)).toBeNull()
    })))
})
