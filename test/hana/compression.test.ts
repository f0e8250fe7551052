import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// A server that turns LZ4 compression on for every client that offers it, as HANA Cloud does by default
// (`indexserver.ini [session] compression`, hdb README "Network Compression"): hdb offers it whenever its optional
// lz4-wasm-nodejs is installed, so the driver then talks compressed without asking for it.
const server = useServer({ compression: true })

const ROWS = 30_000

describe("HANA driver over a compressed connection", () => {
  it.effect("ingests and reads back a large table intact", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LZ4")
      const data = new Arrow.Table({
        id: Arrow.vectorFromArray(Array.from({ length: ROWS }, (_, i) => i), new Arrow.Int32()),
        name: Arrow.vectorFromArray(Array.from({ length: ROWS }, (_, i) => (i % 11 === 0 ? null : `name ${i % 50} of many`)), new Arrow.Utf8())
      })
      expect(yield* conn.ingest(fromTable(data), { targetTable: t })).toBe(ROWS)
      const back = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT "id" AS ID, "name" AS NAME FROM ${t} ORDER BY "id"`)))
      expect(back.numRows).toBe(ROWS)
      const ids = back.getChild("ID")!.toArray() as Int32Array
      const names = back.getChild("NAME")!.toArray() as Array<string | null>
      for (let i = 0; i < ROWS; i += 997) {
        expect(ids[i]).toBe(i)
        expect(names[i]).toBe(i % 11 === 0 ? null : `name ${i % 50} of many`)
      }
      expect(names.filter((n) => n === null)).toHaveLength(Math.ceil(ROWS / 11))
    })))
})
