/**
 * A loopback TCP proxy that counts request/response round trips between node-oracledb and the test server:
 * each burst of client bytes that follows server bytes (or starts the conversation) is one round trip.
 */
import * as net from "node:net"

/** A running counting proxy. */
export interface RoundTripProxy {
  readonly port: number
  /** Round trips since the proxy started or since the last `reset()`. */
  readonly roundTrips: () => number
  /** Every byte the server sent so far, in order (all connections). */
  readonly serverBytes: () => Buffer
  /** Every byte the clients sent so far, in order (all connections). */
  readonly clientBytes: () => Buffer
  readonly reset: () => void
  readonly close: () => Promise<void>
}

/**
 * Starts a proxy on 127.0.0.1 in front of `targetPort`. With `coalesceMs`, client bytes are held that long and
 * forwarded in one write, so packets the client sent back to back (a BREAK marker and the RESET behind it) reach
 * the server in one chunk, as they may on a loaded machine.
 */
export const startRoundTripProxy = async (targetPort: number, options: { readonly coalesceMs?: number } = {}): Promise<RoundTripProxy> => {
  let count = 0
  const fromServer: Buffer[] = []
  const fromClient: Buffer[] = []
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1")
    sockets.add(client).add(upstream)
    let clientTurn = false
    const held: Buffer[] = []
    client.on("data", (chunk) => {
      if (!clientTurn) count++
      clientTurn = true
      fromClient.push(chunk)
      if (options.coalesceMs === undefined) upstream.write(chunk)
      else {
        held.push(chunk)
        if (held.length === 1)
          setTimeout(() => {
            upstream.write(Buffer.concat(held.splice(0)))
          }, options.coalesceMs)
      }
    })
    upstream.on("data", (chunk) => {
      clientTurn = false
      fromServer.push(chunk)
      client.write(chunk)
    })
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on("close", end).on("error", end)
    upstream.on("close", end).on("error", end)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    port: (server.address() as net.AddressInfo).port,
    roundTrips: () => count,
    serverBytes: () => Buffer.concat(fromServer),
    clientBytes: () => Buffer.concat(fromClient),
    reset: () => {
      count = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}
