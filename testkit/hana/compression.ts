/**
 * LZ4 packet compression of the HANA SQL Command Network Protocol, as hdb 2.30 speaks it
 * (node_modules/hdb/lib/protocol/Compressor.js, PhysicalConnection.js):
 *
 * - negotiation: the client offers CONNECT option COMPRESSION_LEVEL_AND_FLAGS (49) with 0x100 (LZ4 supported) and,
 *   for hdb's `compress: true`, 0x200 (LZ4 enabled); hdb sends no offer for `compress: false`. hdb compresses only if
 *   the server's reply carries both bits, and it keeps its own offer when the reply does not name the option at all,
 *   so the server must always answer an offer. HANA decides by its `indexserver.ini [session] compression` setting
 *   (TRUE on HANA Cloud, FALSE otherwise), and 0x200 from the client forces compression on (hdb README, "Network
 *   Compression").
 * - packets: a compressed packet has packet option 2 at byte 22, the uncompressed varpart length at byte 24, and
 *   everything after the first segment header (32 + 24 bytes) as one raw LZ4 block; its varpart length at byte 12
 *   counts the segment header plus the block. Only packets over 10 KiB are compressed, and only when that saves 5 %.
 *
 * The LZ4 codec is the npm package `lz4-wasm-nodejs` (the one hdb uses); without it the server declines compression.
 */
import { createRequire } from "node:module"
import { PACKET_HEADER_LENGTH, SEGMENT_HEADER_LENGTH } from "./wire.ts"

/** CONNECT option COMPRESSION_LEVEL_AND_FLAGS (hdb common/ConnectOption.js). */
export const COMPRESSION_OPTION = 49
const LZ4_SUPPORTED = 0x100
const LZ4_ENABLED = 0x200
const PACKET_OPTION_COMPRESSED = 2
/** hdb's MIN_COMPRESS_PKT_LEN (common/Constants.js). */
const MIN_COMPRESSED_PACKET = 10 * 1024
const HEADERS = PACKET_HEADER_LENGTH + SEGMENT_HEADER_LENGTH

interface Lz4 {
  readonly compress: (input: Uint8Array) => Uint8Array
  readonly decompress: (input: Uint8Array) => Uint8Array
}

let codec: Lz4 | null | undefined
/** The LZ4 codec, or null when `lz4-wasm-nodejs` is not installed. */
const lz4 = (): Lz4 | null => {
  if (codec === undefined) {
    try {
      codec = createRequire(import.meta.url)("lz4-wasm-nodejs") as Lz4
    } catch {
      codec = null
    }
  }
  return codec
}

/**
 * The server's answer to the client's COMPRESSION_LEVEL_AND_FLAGS offer (undefined: no offer, nothing to answer):
 * LZ4 on (0x300) when the client forces it or the server enables it, else only "supported" (0x100), which hdb reads
 * as off; 0 when the server has no LZ4 codec.
 */
export const negotiateCompression = (offer: unknown, serverEnables: boolean): number | undefined => {
  if (typeof offer !== "number") return undefined
  if ((offer & LZ4_SUPPORTED) === 0 || lz4() === null) return 0
  return (offer & LZ4_ENABLED) !== 0 || serverEnables ? LZ4_SUPPORTED | LZ4_ENABLED : LZ4_SUPPORTED
}

/** Whether an answer of negotiateCompression turns compression on. */
export const compressionOn = (answer: number | undefined): boolean =>
  answer !== undefined && (answer & (LZ4_SUPPORTED | LZ4_ENABLED)) === (LZ4_SUPPORTED | LZ4_ENABLED)

/** Thrown for a compressed packet that does not decompress to the length its header declares. */
export class CorruptCompressedPacket extends Error {
  override readonly name = "CorruptCompressedPacket"
}

/** Whether a request packet is compressed. */
export const isCompressed = (packet: Buffer): boolean => packet.length >= PACKET_HEADER_LENGTH && packet[22] === PACKET_OPTION_COMPRESSED

/** The uncompressed form of a compressed request packet (headers rewritten as if it had never been compressed). */
export const decompressPacket = (packet: Buffer): Buffer => {
  const codec = lz4()
  if (codec === null || packet.length < HEADERS) throw new CorruptCompressedPacket("compressed packet without a codec or a segment header")
  const varpart = packet.readUInt32LE(24)
  if (varpart < SEGMENT_HEADER_LENGTH) throw new CorruptCompressedPacket("compressed packet declares no segment")
  // lz4-wasm-nodejs reads a block prefixed with its uncompressed size (u32 LE), as hdb's Compressor does.
  const block = Buffer.alloc(4 + packet.length - HEADERS)
  block.writeUInt32LE(varpart - SEGMENT_HEADER_LENGTH, 0)
  packet.copy(block, 4, HEADERS)
  let body: Uint8Array
  try {
    body = codec.decompress(block)
  } catch (e) {
    throw new CorruptCompressedPacket(`LZ4 block does not decompress: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (body.length !== varpart - SEGMENT_HEADER_LENGTH) throw new CorruptCompressedPacket("LZ4 block has the wrong length")
  const out = Buffer.alloc(PACKET_HEADER_LENGTH + varpart)
  packet.copy(out, 0, 0, HEADERS)
  out.set(body, HEADERS)
  out.writeUInt32LE(varpart, 12)
  out[22] = 0
  out.writeUInt32LE(0, 24)
  return out
}

/** A reply packet compressed as hdb reads it, or the packet itself when it is small or does not shrink by 5 %. */
export const compressPacket = (packet: Buffer): Buffer => {
  const codec = lz4()
  if (codec === null || packet.length <= MIN_COMPRESSED_PACKET) return packet
  const compressed = codec.compress(packet.subarray(HEADERS)).subarray(4) // without the size prefix
  if (HEADERS + compressed.length >= 0.95 * packet.length) return packet
  const out = Buffer.alloc(HEADERS + compressed.length)
  packet.copy(out, 0, 0, HEADERS)
  out.set(compressed, HEADERS)
  out.writeUInt32LE(packet.readUInt32LE(12), 24)
  out.writeUInt32LE(SEGMENT_HEADER_LENGTH + compressed.length, 12)
  out[22] = PACKET_OPTION_COMPRESSED
  return out
}
