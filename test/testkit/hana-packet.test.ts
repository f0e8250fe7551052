/**
 * The HANA test server enforces the packet size each request declares: a packet holding more bytes than its header's
 * buffer size is refused with HANA's error 1033 and the session goes on (raw hdb, with the header rewritten on the
 * socket as a client that split its data wrongly would send it); hdb's own multi-packet batches and the driver's
 * fast-path ingest, whose parts are split by measured packet space, fill their packets up to that size and pass.
 */
import * as net from "node:net"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { withConnection } from "../hana/support.ts"
import { EXECUTE, packetReader, recordingProxy } from "../support/hanaPackets.ts"
import type { PacketSeen } from "../support/hanaPackets.ts"
import { call, createClient } from "./hana/client.ts"
import type { HdbClient, HdbSqlError, HdbStatement } from "./hana/client.ts"

let server: HanaTestServerHandle
let client: HdbClient

beforeAll(async () => {
  server = await startHanaTestServer()
  client = createClient({ host: server.host, port: server.port, user: server.user, password: server.password })
  await call((cb) => client.connect(cb))
})

afterAll(async () => {
  client.close()
  await server.close()
})

const exec = <A = unknown>(c: HdbClient, sql: string) => call<A>((cb) => c.exec(sql, cb))

/** hdb's socket under `c` (lib/protocol/Connection.js: the anchor physical connection). */
const socketOf = (c: HdbClient): net.Socket =>
  (c as unknown as { _connection: { _physicalConnections: { getAnchorConnection(): { _socket: net.Socket } } } })
    ._connection._physicalConnections.getAnchorConnection()._socket

/** Rewrites the declared buffer size of the next packet hdb writes (hdb writes each packet with one `write`). */
const declareNextPacket = (c: HdbClient, declare: (length: number) => number): void => {
  const socket = socketOf(c)
  const write = socket.write
  socket.write = ((chunk: Buffer, ...rest: Array<never>) => {
    socket.write = write
    const packet = Buffer.from(chunk)
    packet.writeUInt32LE(declare(packet.readUInt32LE(12)), 16)
    return write.call(socket, packet, ...rest)
  }) as typeof socket.write
}

describe("HANA test server: request packet size", () => {
  it("refuses a packet holding one byte more than it declares with error 1033; the session goes on", async () => {
    declareNextPacket(client, (length) => length - 1)
    const err = await exec(client, "SELECT 'refused' AS S FROM DUMMY").then(
      () => undefined,
      (e: HdbSqlError) => e
    )
    expect(err?.code).toBe(1033)
    expect(err?.sqlState).toBe("HY000")
    expect(err?.message).toBe("error while parsing protocol: invalid communication buffer structure")
    expect(await exec(client, "SELECT 'alive' AS S FROM DUMMY")).toEqual([{ S: "alive" }])
  })

  it("accepts a packet exactly as large as it declares", async () => {
    declareNextPacket(client, (length) => length)
    expect(await exec(client, "SELECT 'exact' AS S FROM DUMMY")).toEqual([{ S: "exact" }])
  })

  it("takes hdb's own batch of 20,000 rows in several full packets, none larger than declared", async () => {
    const seen: Array<PacketSeen> = []
    const socket = socketOf(client)
    const record = packetReader(seen)
    record(Buffer.alloc(14)) // the init request went out at connect time
    const write = socket.write
    socket.write = ((chunk: Buffer, ...rest: Array<never>) => {
      record(Buffer.from(chunk))
      return write.call(socket, chunk, ...rest)
    }) as typeof socket.write
    try {
      await exec(client, `CREATE COLUMN TABLE "PKT_RAW" ("ID" INTEGER, "S" NVARCHAR(60))`)
      const statement = await call<HdbStatement>((cb) => client.prepare(`INSERT INTO "PKT_RAW" VALUES (?, ?)`, cb))
      const rows = Array.from({ length: 20_000 }, (_, i) => [i, `row ${String(i).padStart(6, "0")} of the raw hdb batch`])
      await call((cb) => statement.exec(rows, cb))
    } finally {
      socket.write = write
    }
    const executes = seen.filter((p) => p.messageType === EXECUTE)
    expect(executes.length).toBeGreaterThanOrEqual(5)
    expect(seen.every((p) => p.length <= p.declared)).toBe(true)
    expect(executes.filter((p) => p.declared - p.length < 256).length).toBeGreaterThanOrEqual(4)
    expect(await exec(client, `SELECT COUNT(*) AS N, SUM("ID") AS T FROM "PKT_RAW"`)).toEqual([{ N: 20_000, T: 199_990_000 }])
  })

  it("takes the driver's fast-path ingest of 30,000 rows in several parts, each filling its packet to within one row", async () => {
    const seen: Array<PacketSeen> = []
    const proxy = await recordingProxy(server.uri, seen)
    const ids = Int32Array.from({ length: 30_000 }, (_, i) => i)
    const data = fromTable(
      new Arrow.Table({
        ID: Arrow.makeVector(ids),
        S: Arrow.vectorFromArray(Array.from(ids, (i) => `row ${String(i).padStart(6, "0")} of the ingest`), new Arrow.Utf8())
      })
    )
    try {
      const stored = await Effect.runPromise(withConnection(
        proxy.uri,
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          yield* conn.ingest(data, { targetTable: "PKT_INGEST", mode: "create" })
          const batches = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N, SUM("ID") AS T FROM "PKT_INGEST"`))
          const t = new Arrow.Table([...batches])
          return [Number(t.getChild("N")!.get(0)), Number(t.getChild("T")!.get(0))]
        })
      ))
      expect(stored).toEqual([30_000, 449_985_000])
    } finally {
      await proxy.close()
    }
    // One row takes 1+4 bytes (INTEGER) and 1+1+24 (NVARCHAR): a part stops when the next row does not fit, so every
    // full packet but the last has less room left than one row and the part's 8-byte alignment.
    const rowBytes = 31
    const executes = seen.filter((p) => p.messageType === EXECUTE && p.length > 64 * 1024)
    expect(executes.length).toBeGreaterThanOrEqual(5)
    expect(seen.every((p) => p.length <= p.declared)).toBe(true)
    const slack = executes.slice(0, -1).map((p) => p.declared - p.length)
    expect(Math.max(...slack)).toBeLessThan(rowBytes + 8)
  })
})
