/**
 * Records the request packets a HANA client sends, as their headers describe them: for tests that check how a client
 * splits its requests (packet sizes, rows per PARAMETERS part).
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
