import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as net from "node:net"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec } from "./hana/client.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** Packets seen in one direction: how many, how many compressed (packet option 2 at byte 22), and their bytes. */
interface Traffic {
  packets: number
  compressed: number
  bytes: number
}

/** Counts the packets of one direction after its init exchange (14 bytes from the client, 8 from the server). */
const packetCounter = (traffic: Traffic, initLength: number) => {
  let buffered = Buffer.alloc(0)
  let skipped = false
  return (chunk: Buffer) => {
    traffic.bytes += chunk.length
    buffered = Buffer.concat([buffered, chunk])
    if (!skipped) {
      if (buffered.length < initLength) return
      buffered = buffered.subarray(initLength)
      skipped = true
    }
    while (buffered.length >= 32 && buffered.length >= 32 + buffered.readUInt32LE(12)) {
      traffic.packets++
      if (buffered[22] === 2) traffic.compressed++
      buffered = buffered.subarray(32 + buffered.readUInt32LE(12))
    }
  }
}

/** A TCP proxy in front of the server that counts the packets passing each way. */
const countingProxy = async (port: number) => {
  const up: Traffic = { packets: 0, compressed: 0, bytes: 0 }
  const down: Traffic = { packets: 0, compressed: 0, bytes: 0 }
  const sockets = new Set<net.Socket>()
  const proxy = net.createServer((client) => {
    const server = net.connect(port, "127.0.0.1")
    for (const s of [client, server]) {
      sockets.add(s)
      s.on("error", () => undefined)
    }
    client.on("data", packetCounter(up, 14))
    server.on("data", packetCounter(down, 8))
    client.pipe(server)
    server.pipe(client)
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()))
  return {
    port: (proxy.address() as net.AddressInfo).port,
    up,
    down,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => proxy.close(() => resolve()))
    }
  }
}

const ROWS = 20_000

/**
 * hdb asks for LZ4 compression at CONNECT (option COMPRESSION_LEVEL_AND_FLAGS 49) and compresses packets over 10 KiB
 * when the server's answer has both bits 0x100 and 0x200 (node_modules/hdb/lib/protocol/Compressor.js); HANA answers by
 * its `[session] compression` setting, and hdb's `compress: true` forces it on (hdb README, "Network Compression").
 */
describe("HANA test server: LZ4 compression as hdb negotiates it (raw hdb client)", () => {
  const servers: HanaTestServerHandle[] = []
  const start = async (compression?: boolean) => {
    const server = await startHanaTestServer(compression === undefined ? {} : { compression })
    servers.push(server)
    return server
  }
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()))
  })

  /** A large result and a large batch insert through a counting proxy; returns the traffic and the client's flags. */
  const roundTrip = async (server: HanaTestServerHandle, options: Record<string, unknown>) => {
    const proxy = await countingProxy(server.port)
    let c: HdbClient | undefined
    try {
      c = await connect({ host: "127.0.0.1", port: proxy.port, user: server.user, password: server.password, dataFormatSupport: 8, ...options })
      const table = `Z${Math.random().toString(36).slice(2, 8).toUpperCase()}`
      await exec(c, `CREATE TABLE ${table} (ID INTEGER, NAME NVARCHAR(100), AMOUNT DECIMAL(12,2))`)
      const st = await call<HdbStatement>((cb) => c!.prepare(`INSERT INTO ${table} VALUES (?, ?, ?)`, cb))
      const rows = Array.from({ length: ROWS }, (_, i) => [i, `customer name number ${i % 100} of the test`, `${i}.25`])
      const affected = await call<number[]>((cb) => st.exec(rows, cb))
      expect(affected).toHaveLength(ROWS)
      const got = await exec<Array<{ ID: number; NAME: string; AMOUNT: string }>>(c, `SELECT ID, NAME, AMOUNT FROM ${table} ORDER BY ID`)
      expect(got).toHaveLength(ROWS)
      expect(got[12_345]).toEqual({ ID: 12_345, NAME: "customer name number 45 of the test", AMOUNT: "12345.25" })
      expect(got.every((r, i) => r.ID === i && r.NAME === `customer name number ${i % 100} of the test`)).toBe(true)
      const flags = (c as unknown as { connectOptions: { compressionLevelAndFlags?: number } }).connectOptions.compressionLevelAndFlags
      return { up: { ...proxy.up }, down: { ...proxy.down }, flags }
    } finally {
      closeQuietly(c)
      await proxy.close()
    }
  }

  let plain: Awaited<ReturnType<typeof roundTrip>>
  beforeAll(async () => {
    plain = await roundTrip(await start(), { compress: false })
  })

  it("compress: false sends no offer, and nothing is compressed either way", () => {
    expect(plain.flags).toBeUndefined()
    expect(plain.up.compressed).toBe(0)
    expect(plain.down.compressed).toBe(0)
  })

  it("compress: true is answered with LZ4 on: large requests and replies travel compressed both ways, values intact", async () => {
    const forced = await roundTrip(await start(), { compress: true })
    expect(forced.flags).toBe(0x300)
    expect(forced.up.compressed).toBeGreaterThan(0)
    expect(forced.down.compressed).toBeGreaterThan(0)
    expect(forced.up.bytes).toBeLessThan(plain.up.bytes / 2)
    expect(forced.down.bytes).toBeLessThan(plain.down.bytes / 2)
  })

  it("without the option hdb only offers LZ4: the server declines by default and accepts when its compression is on", async () => {
    const declined = await roundTrip(await start(), {})
    expect(declined.flags).toBe(0x100)
    expect(declined.up.compressed + declined.down.compressed).toBe(0)
    const accepted = await roundTrip(await start(true), {})
    expect(accepted.flags).toBe(0x300)
    expect(accepted.up.compressed).toBeGreaterThan(0)
    expect(accepted.down.compressed).toBeGreaterThan(0)
  })

  it("a server with compression on still talks plainly to a client that turned it off", async () => {
    const off = await roundTrip(await start(true), { compress: false })
    expect(off.flags).toBeUndefined()
    expect(off.up.compressed + off.down.compressed).toBe(0)
  })
})
