/**
 * The DATA_TYPES negotiation (messages/dataType.js): reads the client's capabilities (its TTC field version) and
 * answers with the database time zone and an empty conversion list.
 */
import type { ReadBuffer, WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"

/** Reads the DATA_TYPES request and returns the client's TTC field version (undefined when not sent). */
export const readDataTypes = (r: ReadBuffer): number | undefined => {
  r.u16le()
  r.u16le()
  r.u8()
  const ccaps = r.bytesWithLength()
  return ccaps !== null && ccaps.length > 7 ? ccaps[7]! : undefined
}

/** Writes the DATA_TYPES reply with the database time zone offset (minutes). */
export const writeDataTypesReply = (w: WriteBuffer, dbOffsetMinutes: number): void => {
  w.u8(Msg.DATA_TYPES)
  // DB time zone as an 11-byte interval: days 0, hours + 60, minutes + 60, then 0x80 0 0 0 0
  const tz = Buffer.alloc(11)
  tz.writeUInt32BE(0x80000000, 0)
  tz[4] = Math.trunc(dbOffsetMinutes / 60) + 60
  tz[5] = (dbOffsetMinutes % 60) + 60
  tz[6] = 0x80
  w.raw(tz)
  w.u16be(0)
}
