import { describe, expect, it } from "@effect/vitest"
import type * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { LobPrefetchLength } from "../../layers/oracle/OracleOptions.ts"
import { readTable, uniqueName, useServer, withConnection, withRawConnection } from "./support.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const require = createRequire(import.meta.url)
const oracledb: any = require("oracledb")
/** oracledb's internal LOB: its `read` is one LOB read round trip. */
const ThinLobImpl: any = require("oracledb/lib/thin/lob.js")

// LOB prefetch through the driver: a LOB no longer than the prefetch length arrives with its locator and needs no
// LOB read round trip; an empty LOB stays a zero-length value and NULL null; a longer one is read through its locator.
const server = useServer()

/** Counts the LOB read calls oracledb makes while `effect` runs (the calls themselves go through unchanged). */
const countingLobReads = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const original = ThinLobImpl.prototype.read
      const counter = { reads: 0, original }
      ThinLobImpl.prototype.read = function(this: unknown, ...args: Array<unknown>) {
        counter.reads++
        return original.apply(this, args)
      }
      return counter
    }),
    (counter) => Effect.map(effect, (a) => [a, counter.reads] as const),
    (counter) => Effect.sync(() => {
      ThinLobImpl.prototype.read = counter.original
    })
  )

const withRaw = (f: (raw: any) => Promise<void>) => withRawConnection(server.uri, f)

const N = LobPrefetchLength.default
const emoji = "\u{1F600}"
/** Rows (K, C, NC, B): whole with their locators up to K = 4, read through the locator from K = 5. */
const values: ReadonlyArray<readonly [number, string | null, string | null, Buffer | null]> = [
  [3, "Grüße " + emoji, "Grüße " + emoji, Buffer.from([0, 255, 16])],
  // exactly the prefetch length: CLOB length counts UTF-16 code units, so 2,000 emoji are 4,000 characters
  [4, emoji.repeat(N / 2), "ü".repeat(N), Buffer.alloc(N, 9)],
  // one more: the prefix the server sends ends inside a surrogate pair
  [5, "x" + emoji.repeat(N / 2), "ü".repeat(N + 1), Buffer.alloc(N + 1, 9)],
  [6, "0123456789".repeat(110_000), "ß".repeat(600_000), Buffer.alloc(1_100_000, 7)]
]

const fill = (t: string) =>
  Effect.gen(function*() {
    yield* withRaw(async (raw) => {
      await raw.execute(`CREATE TABLE ${t} (K NUMBER(10), C CLOB, NC NCLOB, B BLOB)`)
      await raw.execute(`INSERT INTO ${t} VALUES (1, EMPTY_CLOB(), EMPTY_CLOB(), EMPTY_BLOB())`)
      await raw.execute(`INSERT INTO ${t} VALUES (2, NULL, NULL, NULL)`)
      for (const [k, c, nc, b] of values) {
        await raw.execute(`INSERT INTO ${t} VALUES (:k, :c, :nc, :b)`, {
          k,
          c: { val: c, type: oracledb.CLOB },
          nc: { val: nc, type: oracledb.DB_TYPE_NCLOB },
          b: { val: b, type: oracledb.BLOB }
        })
      }
      await raw.commit()
    })
  })

const expectRows = (table: Arrow.Table) => {
  const c = table.getChild("C")!
  const nc = table.getChild("NC")!
  const b = table.getChild("B")!
  expect([c.get(0), nc.get(0), [...(b.get(0) as Uint8Array)]]).toEqual(["", "", []])
  expect([c.get(1), nc.get(1), b.get(1)]).toEqual([null, null, null])
  values.forEach(([k, cv, ncv, bv], i) => {
    expect([k, c.get(i + 2), nc.get(i + 2)]).toEqual([k, cv, ncv])
    expect([k, Buffer.from(b.get(i + 2) as Uint8Array).equals(bv!)]).toEqual([k, true])
  })
}

describe("LOB prefetch: small LOBs come with their locators", () => {
  for (const mode of ["row", "batch"]) {
    it.effect(`empty, NULL, small, prefetch-length, longer and > 1 MB CLOB / NCLOB / BLOB values; LOB reads only for the longer ones (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("LPF")
        yield* fill(t)
        // twice: the second execute reuses the cached cursor and its define
        for (let run = 0; run < 2; run++) {
          const [table, reads] = yield* countingLobReads(readTable(conn, `SELECT C, NC, B FROM ${t} ORDER BY K`, mode))
          expectRows(table)
          // K = 5 and K = 6, three columns each
          expect(reads).toBe(6)
        }
      })), 60_000)
  }
})

describe("LOB prefetch off (redo.connection.lob_prefetch_length = 0)", () => {
  it.effect("every non-empty LOB is read through its locator, and the values are the same", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LPO")
      yield* fill(t)
      const [table, reads] = yield* countingLobReads(readTable(conn, `SELECT C, NC, B FROM ${t} ORDER BY K`, "batch"))
      expectRows(table)
      // K = 3 .. 6, three columns each: none came with its locator
      expect(reads).toBeGreaterThanOrEqual(12)
    }), { "redo.connection.lob_prefetch_length": "0" }), 60_000)

  it.effect("a negative or non-numeric length is refused before connecting, naming the option and what it accepts", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(withConnection(server.uri, Effect.void, { "redo.connection.lob_prefetch_length": "-1" }))
      expect(exit._tag).toBe("Failure")
      expect(String(JSON.stringify(exit))).toMatch(/redo\.connection\.lob_prefetch_length.*non-negative integer/)
    }))
})
