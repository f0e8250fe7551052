/**
 * TNS framing (Oracle Net): the 8-byte packet header, CONNECT parsing, ACCEPT / REFUSE / MARKER packets and
 * the split of a TTC payload into DATA packets of at most one SDU.
 *
 * Byte layouts: what node-oracledb 26.0.0 thin reads and writes in lib/thin/sqlnet/{packet,networkSession}.js.
 */

/** TNS packet types. */
export const PacketType = { CONNECT: 1, ACCEPT: 2, REFUSE: 4, DATA: 6, MARKER: 12 } as const

/** DATA packet flags. */
export const DataFlag = { EOF: 0x0040, END_OF_REQUEST: 0x0800, END_OF_RESPONSE: 0x2000 } as const

/** Marker kinds carried by a MARKER packet. */
export const MarkerKind = { BREAK: 1, RESET: 2 } as const

/** Largest packet (and SDU) accepted. */
export const MAX_PACKET = 2_097_152

/** Input that breaks the protocol: closes the connection it came from. */
export class ProtocolError extends Error {}

/** What a CONNECT packet says: the SDU it asks for and its connect data (absent when it follows in a DATA packet). */
export interface ConnectRequest {
  readonly sdu: number
  readonly connectData: string | undefined
}

/** Decodes a CONNECT packet (packet.js ConnectPacket). */
export const readConnect = (p: Buffer): ConnectRequest => {
  const version = p.readUInt16BE(8)
  if (version < 315) throw new ProtocolError("client too old")
  const sdu = Math.max(512, Math.min(p.readUInt32BE(58) || p.readUInt16BE(14), MAX_PACKET))
  const cdLen = p.readUInt16BE(24)
  const cdOff = p.readUInt16BE(26)
  // connect data longer than 230 bytes follows in its own DATA packet
  const inline = p.length >= cdOff + cdLen && cdLen > 0
  return { sdu, connectData: inline ? p.subarray(cdOff, cdOff + cdLen).toString("ascii") : undefined }
}

/** Connect data sent in a DATA packet after a short CONNECT. */
export const readConnectData = (p: Buffer): string => p.subarray(10).toString("ascii")

/** The ACCEPT packet (version 319, no ANO, large SDU; end-of-response markers when `endOfResponse`). */
export const acceptPacket = (sdu: number, endOfResponse: boolean): Buffer => {
  const b = Buffer.alloc(45)
  b.writeUInt16BE(45, 0)
  b[4] = PacketType.ACCEPT
  b.writeUInt16BE(319, 8) // TNS version
  b.writeUInt16BE(0x0001, 10) // options
  b.writeUInt16BE(Math.min(sdu, 65535), 12)
  b.writeUInt16BE(65535, 14)
  b.writeUInt16BE(1, 16) // hardware byte order
  b[22] = 0x00
  b[23] = 0x08 // NSINANOSERVICES: no ANO negotiation
  b.writeUInt32BE(sdu, 32)
  b.writeUInt32BE(65535, 36)
  b[40] = 0 // no compression
  b.writeUInt32BE(endOfResponse ? 0x02000000 : 0, 41) // flags2 HAS_END_OF_REQUEST
  return b
}

/** The REFUSE packet carrying a listener error (TNS-12514, 12505, 12516, ...). */
export const refusePacket = (code: number): Buffer => {
  const data = Buffer.from(`(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=${code})(ERROR_STACK=(ERROR=(CODE=${code})(EMFI=4))))`, "ascii")
  const b = Buffer.alloc(12 + data.length)
  b.writeUInt16BE(b.length, 0)
  b[4] = PacketType.REFUSE
  b[8] = 1
  b[9] = 0
  b.writeUInt16BE(data.length, 10)
  data.copy(b, 12)
  return b
}

/** A MARKER packet (large-SDU header). */
export const markerPacket = (kind: number): Buffer => {
  const b = Buffer.alloc(11)
  b.writeUInt32BE(11, 0)
  b[4] = PacketType.MARKER
  b[8] = 1
  b[10] = kind
  return b
}

/** The marker kind of a MARKER packet. */
export const markerKind = (p: Buffer): number => (p.length > 10 ? p[10]! : p[9]!)

/**
 * Splits a TTC payload into DATA packets of at most one SDU (the last one flagged end-of-response when asked), as the
 * buffers to write one after the other: each packet's 10-byte header, then its part of the payload as a view (the
 * payload is not copied; it must not change until written).
 */
export const dataPackets = (payload: Buffer, sdu: number, endOfResponse: boolean): Array<Buffer> => {
  const max = sdu - 10
  const count = Math.max(1, Math.ceil(payload.length / max))
  const headers = Buffer.allocUnsafe(count * 10)
  const out: Array<Buffer> = []
  for (let k = 0; k < count; k++) {
    const part = payload.subarray(k * max, Math.min(payload.length, (k + 1) * max))
    const o = k * 10
    headers.writeUInt32BE(part.length + 10, o)
    headers[o + 4] = PacketType.DATA
    headers[o + 5] = 0
    headers.writeUInt16BE(0, o + 6)
    headers.writeUInt16BE(endOfResponse && k === count - 1 ? DataFlag.END_OF_RESPONSE : 0, o + 8)
    out.push(headers.subarray(o, o + 10), part)
  }
  return out
}
