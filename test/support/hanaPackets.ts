/**
 * Records the request packets a HANA client sends, as their headers describe them: for tests that check how a client
 * splits its requests (packet sizes, rows per PARAMETERS part); and a proxy that cuts the replies into small chunks.
 */
import * as net from "node:net"

const PACKET_HEADER = 32
const SEGMENT_HEADER = 24
const PART_HEADER = 16
/** PartKind.PARAMETERS (SQL Command Network Protocol). */
const PARAMETERS = 32

/** The message type of an EXECUTE request segment. */
export const EXECUTE = 13

/**
 * One request packet as its header describes it: bytes held (VARPARTLENGTH), buffer size declared (VARPARTSIZE), the
 * first segment's message type, and the argument count (rows) of its PARAMETERS part when it has one.
 */
export interface PacketSeen {
  readonly length: number
  readonly declared: number
  readonly messageType: number
  readonly parameterRows: number | undefined
}

/** The argument count of the first segment's PARAMETERS part (int16, or the int32 after it when the int16 is -1). */
const parameterRowsOf = (segment: Buffer): number | undefined => {
  const parts = segment.readInt16LE(8)
  let offset = SEGMENT_HEADER
  for (let i = 0; i < parts && offset + PART_HEADER <= segment.length; i++) {
    const count = segment.readInt16LE(offset + 2)
    if (segment[offset] === PARAMETERS) return count === -1 ? segment.readInt32LE(offset + 4) : count
    offset += PART_HEADER + Math.ceil(segment.readInt32LE(offset + 8) / 8) * 8
  }
  return undefined
}

/** Parses the request packets of a client→server byte stream (after the 14-byte init request) into `seen`. */
export const packetReader = (seen: Array<PacketSeen>) => {
  let buffered = Buffer.alloc(0)
  let initialized = false
  return (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    if (!initialized) {
      if (buffered.length < 14) return
      buffered = buffered.subarray(14)
      initialized = true
    }
    while (buffered.length >= PACKET_HEADER && buffered.length >= PACKET_HEADER + buffered.readUInt32LE(12)) {
      const length = buffered.readUInt32LE(12)
      const segment = buffered.subarray(PACKET_HEADER, PACKET_HEADER + length)
      seen.push({
        length,
        declared: buffered.readUInt32LE(16),
        messageType: segment[13]!,
        parameterRows: parameterRowsOf(segment)
      })
      buffered = buffered.subarray(PACKET_HEADER + length)
    }
  }
}

/** A TCP proxy to the HANA server at `uri` that records every request packet passing through it; its `uri` connects through it. */
export const recordingProxy = async (uri: string, seen: Array<PacketSeen>) => {
  const target = new URL(uri.replace(/^hdb:/, "http:"))
  const sockets = new Set<net.Socket>()
  const proxy = net.createServer((downstream) => {
    const upstream = net.connect(Number(target.port), target.hostname)
    for (const s of [downstream, upstream]) {
      sockets.add(s)
      s.on("error", () => undefined)
    }
    downstream.on("data", packetReader(seen))
    downstream.pipe(upstream)
    upstream.pipe(downstream)
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()))
  const port = (proxy.address() as net.AddressInfo).port
  return {
    uri: `hdb://${target.username}:${target.password}@127.0.0.1:${port}${target.search}`,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => proxy.close(() => resolve()))
    }
  }
}

/**
 * A TCP proxy to the HANA server at `uri` that forwards the server's bytes to the client in pieces of the given sizes
 * (cycling through them, one write per turn of the event loop), so that reply packets reach the client in chunks
 * that cut through their headers and bodies; its `uri` connects through it. The server's first write (the
 * initialization reply, which hdb reads from one chunk) is passed on whole.
 */
export const rechunkingProxy = async (uri: string, sizes: ReadonlyArray<number>) => {
  const target = new URL(uri.replace(/^hdb:/, "http:"))
  const sockets = new Set<net.Socket>()
  const proxy = net.createServer((downstream) => {
    const upstream = net.connect(Number(target.port), target.hostname)
    for (const s of [downstream, upstream]) {
      sockets.add(s)
      s.on("error", () => undefined)
    }
    downstream.pipe(upstream)
    let queue = Buffer.alloc(0)
    let next = 0
    let writing = false
    const drain = () => {
      if (queue.length === 0 || downstream.destroyed) {
        writing = false
        return
      }
      const size = sizes[next++ % sizes.length]!
      downstream.write(queue.subarray(0, size))
      queue = queue.subarray(size)
      setImmediate(drain)
    }
    let first = true
    upstream.on("data", (chunk: Buffer) => {
      if (first) {
        first = false
        downstream.write(chunk)
        return
      }
      queue = Buffer.concat([queue, chunk])
      if (!writing) {
        writing = true
        setImmediate(drain)
      }
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()))
  const port = (proxy.address() as net.AddressInfo).port
  return {
    uri: `hdb://${target.username}:${target.password}@127.0.0.1:${port}${target.search}`,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => proxy.close(() => resolve()))
    }
  }
}
