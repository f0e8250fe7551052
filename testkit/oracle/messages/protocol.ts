/**
 * The PROTOCOL negotiation reply (messages/protocol.js processProtocolInfo): banner, character sets and the
 * compile-time and run-time capabilities, including the TTC field version.
 */
import type { WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"

/** Writes the PROTOCOL reply announcing `fieldVersion`. */
export const writeProtocolReply = (w: WriteBuffer, fieldVersion: number): void => {
  w.u8(Msg.PROTOCOL)
  w.u8(6) // protocol version
  w.u8(0)
  w.raw(Buffer.from("x86_64/Linux 2.4.xx\0", "ascii"))
  w.u16le(873) // AL32UTF8
  w.u8(1) // flags
  w.u16le(0) // elements
  // FDO: the client reads the national character set id at fdo[6 + fdo[5] + fdo[6] + 3..4]
  const fdo = Buffer.alloc(11)
  fdo.writeUInt16BE(2000, 9) // AL16UTF16
  w.u16be(fdo.length)
  w.raw(fdo)
  const ccaps = Buffer.alloc(53)
  ccaps[0] = 6 // SQL version
  ccaps[4] = 0x08 | 0x02 | 0x20 | 0x40 | 0x80 // logon types
  ccaps[7] = fieldVersion
  ccaps[15] = 0x01 | 0x08 | 0x20
  ccaps[37] = 0x10 | 0x20 | 0x80 // implicit results, big chunk clear, keep out order
  w.bytesWithLength(ccaps)
  const rcaps = Buffer.alloc(7)
  rcaps[0] = 2 // compat 8.1
  rcaps[1] = 0x01 // TZ_EX: DB time zone travels in the DATA_TYPES reply
  rcaps[6] = 0x01 | 0x04 // zero copy, 32K strings
  w.bytesWithLength(rcaps)
}
