import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as net from "node:net"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

/**
 * TNS packet framing of the Oracle test server whatever the TCP reads look like: the raw oracledb client talks to it
 * through a proxy that forwards the client's bytes in slices of odd sizes (a read ending inside a packet header, in a
 * packet's body, or holding several packets), so that a large executeMany's packets are completed from later reads
 * (testkit/oracle/session.ts copies only what a held partial packet lacks) and every row still arrives once.
 */

/** Slice sizes cycled through: shorter than a header, inside one packet, several packets at once. */
const SLICES = [1, 5, 3, 7, 8_000, 2, 20_000, 11, 65_536, 8_197]

const startSlicingProxy = async (targetPort: number) => {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1")
    sockets.add(client).add(upstream)
    let next = 0
    client.on("data", (d: Buffer) => {
      for (let at = 0; at < d.length;) {
        const size = SLICES[next++ % SLICES.length]!
        upstream.write(Buffer.from(d.subarray(at, at + size)))
        at += size
      }
    })
    upstream.on("data", (d) => client.write(d))
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
    client.on("error", () => upstream.destroy())
    upstream.on("error", () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

describe("Oracle test server: TNS packets split across reads at any point", () => {
  let server: OracleTestServerHandle
  let proxy: Awaited<ReturnType<typeof startSlicingProxy>>
  let conn: Conn

  beforeAll(async () => {
    server = (await withServer()).server
    proxy = await startSlicingProxy(server.port)
    conn = await oracledb.getConnection({
      user: server.user,
      password: server.password,
      connectString: `127.0.0.1:${proxy.port}/${server.connectString.split("/")[1]}`
    })
  })
  afterAll(async () => {
    await conn?.close()
    await proxy?.close()
    await server?.close()
  })

  it("a 30,000-row executeMany sent in odd slices stores every row once, values intact", async () => {
    await conn.execute("CREATE TABLE framed (id NUMBER(10), note VARCHAR2(60))")
    const rows = Array.from({ length: 30_000 }, (_, i) => [i, `note ${i} ${"x".repeat(i % 40)}`])
    const r = await conn.executeMany("INSERT INTO framed VALUES (:1, :2)", rows, {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 60 }]
    })
    expect(r.rowsAffected).toBe(30_000)
    const check = await conn.execute("SELECT COUNT(*), SUM(id), SUM(LENGTH(note)) FROM framed")
    const lengths = rows.reduce((n, row) => n + String(row[1]).length, 0)
    expect(check.rows[0]).toEqual([30_000, (30_000 * 29_999) / 2, lengths])
    const last = await conn.execute("SELECT note FROM framed WHERE id IN (0, 12345, 29999) ORDER BY id")
    expect(last.rows).toEqual([[rows[0]![1]], [rows[12_345]![1]], [rows[29_999]![1]]])
  }, 120_000)
})
