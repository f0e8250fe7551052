import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { readWkb, writeWkb } from "../../layers/common/Geometry.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const tableOf = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) => Stream.runCollect(conn.query(sql))).pipe(Effect.map((batches) => new Arrow.Table(batches)))

describe("text and spatial types through the HANA driver", () => {
  it.effect("TEXT, SHORTTEXT and BINTEXT read as strings, named by their HANA type", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TXT")
      yield* conn.execute(`CREATE COLUMN TABLE ${t} (ID INTEGER, T TEXT, S SHORTTEXT(30), B BINTEXT)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 'long text 😀', 'short 😀', 'bin text')`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, NULL, NULL, NULL)`)
      const table = yield* tableOf(`SELECT T, S, B FROM ${t} ORDER BY ID`)
      expect(table.schema.fields.map((f) => [f.name, String(f.type), f.metadata.get("hana.type-name")])).toEqual([
        ["T", "Utf8", "TEXT"],
        ["S", "Utf8", "SHORTTEXT"],
        ["B", "Utf8", "BINTEXT"]
      ])
      expect(table.toArray().map((r) => r.toJSON())).toEqual([
        { T: "long text 😀", S: "short 😀", B: "bin text" },
        { T: null, S: null, B: null }
      ])
    })))

  it.effect("ST_GEOMETRY and ST_POINT read as binary WKB with the geoarrow.wkb extension type", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("GEO")
      yield* conn.execute(`CREATE COLUMN TABLE ${t} (ID INTEGER, G ST_GEOMETRY(4326), P ST_POINT(4326))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, ST_GeomFromText('LINESTRING (0 0, 1 2)', 4326), ST_GeomFromText('POINT (3 4)', 4326))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, NULL, NULL)`)
      const table = yield* tableOf(`SELECT G, P FROM ${t} ORDER BY ID`)
      expect(table.schema.fields.map((f) => [
        f.name,
        String(f.type),
        f.metadata.get("hana.type-name"),
        f.metadata.get("ARROW:extension:name"),
        f.metadata.get("ARROW:extension:metadata")
      ])).toEqual([
        ["G", "Binary", "ST_GEOMETRY", "geoarrow.wkb", "{}"],
        ["P", "Binary", "ST_POINT", "geoarrow.wkb", "{}"]
      ])
      const g = table.getChild("G")!
      const p = table.getChild("P")!
      expect(readWkb(g.get(0) as Uint8Array).geometry).toEqual({ type: "LineString", points: [[0, 0], [1, 2]], parts: [] })
      expect(readWkb(p.get(0) as Uint8Array).geometry).toEqual({ type: "Point", points: [[3, 4]], parts: [] })
      expect([g.get(1), p.get(1)]).toEqual([null, null])
    })))

  it.effect("WKB bound or ingested into ST_GEOMETRY / ST_POINT columns reads back as the same geometry", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("GEOIN")
      yield* conn.execute(`CREATE COLUMN TABLE ${t} (ID INTEGER, G ST_GEOMETRY(4326), P ST_POINT(4326))`)
      const line = writeWkb({ type: "LineString", points: [[1, 1], [2, 3]], parts: [] }, 2)
      const point = writeWkb({ type: "Point", points: [[5, 6]], parts: [] }, 2)
      const data = new Arrow.Table({
        ID: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        G: Arrow.vectorFromArray([line, null], new Arrow.Binary()),
        P: Arrow.vectorFromArray([point, point], new Arrow.Binary())
      })
      expect(yield* conn.ingest(fromTable(data), { targetTable: t, mode: "append" })).toBe(2)
      expect((yield* tableOf(`SELECT ID, G.ST_AsText() AS G, P.ST_AsText() AS P FROM ${t} ORDER BY ID`)).toArray().map((r) => r.toJSON())).toEqual([
        { ID: 1, G: "LINESTRING (1 1, 2 3)", P: "POINT (5 6)" },
        { ID: 2, G: null, P: "POINT (5 6)" }
      ])
    })))

  it.effect("REAL_VECTOR columns fail with the server's 264 invalid datatype (a HANA Cloud type on a HANA 2.0 server)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = yield* Effect.flip(conn.execute(`CREATE TABLE ${uniqueName("VEC")} (V REAL_VECTOR(3))`))
      expect(error.vendorCode).toBe(264)
      expect(error.message).toContain("REAL_VECTOR")
    })))
})
