/**
 * Arrow timestamps with a named time zone go to the database with that zone: a region (Europe/Berlin) as its region,
 * an offset (+05:30) as that offset, bound as parameters and ingested on both paths (the fast path, and oracledb's
 * encoder when a struct column sends the batch through it). The database's TO_CHAR(…, 'TZR') shows the zone stored.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/** 2024-07-01 12:00:00.25 UTC (summer: Berlin is +02:00) and 2024-01-15 06:30:00 UTC (winter: +01:00), in µs. */
const INSTANTS = [BigInt(Date.UTC(2024, 6, 1, 12)) * 1000n + 250_000n, BigInt(Date.UTC(2024, 0, 15, 6, 30)) * 1000n]

const zoned = (zone: string) =>
  Arrow.makeVector(Arrow.makeData({ type: new Arrow.Timestamp(Arrow.TimeUnit.MICROSECOND, zone), length: 2, nullCount: 0, data: BigInt64Array.from(INSTANTS) }))

const FORMAT = "'YYYY-MM-DD HH24:MI:SS.FF3 TZR'"

const texts = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql)), (batches) => new Arrow.Table(batches).toArray().map((r) => String(r.toJSON()["T"]))))

describe("timestamps with a named time zone keep their zone", () => {
  it.effect("bound: Europe/Berlin as the region, +05:30 as the offset (not converted to +00:00)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TZBIND")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(2), T TIMESTAMP(6) WITH TIME ZONE)`)
      for (const [k, zone] of [[1, "Europe/Berlin"], [2, "+05:30"]] as const) {
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (${k}, :1)`)
        const field = new Arrow.Field("t", new Arrow.Timestamp(Arrow.TimeUnit.MICROSECOND, zone))
        const vector = zoned(zone)
        yield* stmt.bind(new Arrow.RecordBatch(new Arrow.Schema([field]), Arrow.makeData({ type: new Arrow.Struct([field]), length: 1, nullCount: 0, children: [vector.data[0]!.slice(0, 1)] })))
        yield* stmt.executeUpdate
      }
      expect(yield* texts(`SELECT TO_CHAR(T, ${FORMAT}) AS T FROM ${t} ORDER BY K`)).toEqual([
        "2024-07-01 14:00:00.250 Europe/Berlin",
        "2024-07-01 17:30:00.250 +05:30"
      ])
    })))

  for (const path of ["fast path", "oracledb's encoder (a struct column)"] as const) {
    it.effect(`ingested (${path}): each value in its zone, summer and winter, read back as the same instants`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("TZING")
        const columns: Record<string, Arrow.Vector> = { K: Arrow.vectorFromArray([1, 2], new Arrow.Int32()), B: zoned("Europe/Berlin"), O: zoned("+05:30") }
        if (path !== "fast path") {
          columns["DOC"] = Arrow.vectorFromArray([{ a: 1 }, { a: 2 }], new Arrow.Struct([new Arrow.Field("a", new Arrow.Int32())]))
        }
        yield* conn.ingest(fromTable(new Arrow.Table(columns)), { targetTable: t })
        expect(yield* texts(`SELECT TO_CHAR("B", ${FORMAT}) AS T FROM "${t}" ORDER BY "K"`)).toEqual([
          "2024-07-01 14:00:00.250 Europe/Berlin",
          "2024-01-15 07:30:00.000 Europe/Berlin"
        ])
        expect(yield* texts(`SELECT TO_CHAR("O", ${FORMAT}) AS T FROM "${t}" ORDER BY "K"`)).toEqual([
          "2024-07-01 17:30:00.250 +05:30",
          "2024-01-15 12:00:00.000 +05:30"
        ])
        const instants = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT "B", "O" FROM "${t}" ORDER BY "K"`)))
        for (const name of ["B", "O"]) {
          expect(Array.from(instants.getChild(name)!.data[0]!.values as BigInt64Array), name).toEqual(INSTANTS)
        }
      }), path === "fast path" ? {} : { "redo.ingest.struct_type": "nvarchar2" }))
  }

  // Oracle's region ids (go-ora v3/types/oracle_zones.go): every region of Oracle's time zone file keeps its name,
  // not only the commonest ones; half-hour, 45-minute and 30-minute-DST regions read back with the exact instant.
  const REGIONS = ["America/Argentina/Buenos_Aires", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe"] as const
  const wallClock = (region: string, micros: bigint) => {
    const parts = Object.fromEntries(new Intl.DateTimeFormat("en-GB", { timeZone: region, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(new Date(Number(micros / 1000n))).map((p) => [p.type, p.value]))
    return `${parts["year"]}-${parts["month"]}-${parts["day"]} ${parts["hour"]}:${parts["minute"]}:${parts["second"]}.${String(Number(micros % 1_000_000n) / 1000).padStart(3, "0")} ${region}`
  }

  it.effect("bound and ingested in any region of Oracle's time zone file: read back with the region and the exact instant", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      for (const region of REGIONS) {
        const t = uniqueName("TZREG")
        yield* conn.ingest(fromTable(new Arrow.Table({ K: Arrow.vectorFromArray([1, 2], new Arrow.Int32()), Z: zoned(region) })), { targetTable: t })
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(`INSERT INTO "${t}" ("K", "Z") VALUES (3, :1)`)
        const field = new Arrow.Field("z", new Arrow.Timestamp(Arrow.TimeUnit.MICROSECOND, region))
        yield* stmt.bind(new Arrow.RecordBatch(new Arrow.Schema([field]), Arrow.makeData({ type: new Arrow.Struct([field]), length: 1, nullCount: 0, children: [zoned(region).data[0]!.slice(1, 1)] })))
        yield* stmt.executeUpdate
        expect(yield* texts(`SELECT TO_CHAR("Z", ${FORMAT}) AS T FROM "${t}" ORDER BY "K"`), region).toEqual(
          [INSTANTS[0]!, INSTANTS[1]!, INSTANTS[1]!].map((micros) => wallClock(region, micros))
        )
        const instants = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT "Z" FROM "${t}" ORDER BY "K"`)))
        expect(Array.from(instants.getChild("Z")!.data[0]!.values as BigInt64Array), region).toEqual([...INSTANTS, INSTANTS[1]!])
      }
    })))

  it.effect("a zone that is neither an offset nor a known region fails INVALID_ARGUMENT naming the field, before anything is sent", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = yield* Effect.flip(conn.ingest(fromTable(new Arrow.Table({ T: zoned("Mars/Olympus") })), { targetTable: uniqueName("TZBAD") }))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain('field "T": time zone "Mars/Olympus"')
    })))
})
