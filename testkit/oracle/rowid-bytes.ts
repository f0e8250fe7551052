/**
 * Rowids on the wire: the fields of the physical rowid the server gives a DuckDB row id (database.ts `ora_rowid`
 * writes the same text) or reads from 18-character rowid text, and the UROWID wire form (encode.ts sends both).
 */

/** The parts of a physical rowid: data object number, relative file number, block and slot. */
export interface RowidFields {
  readonly object: number
  readonly file: number
  readonly block: number
  readonly slot: number
}

/**
 * The rowid of a DuckDB row id, as `ora_rowid` (database.ts) writes it: object 73000, file 12, block = bits 16..45
 * (row ids of uncommitted rows start at 2^62: 32 bits of block are kept), slot = bits 0..15.
 */
export const fieldsOfRowNumber = (rowNumber: bigint): RowidFields => {
  const v = BigInt.asUintN(64, rowNumber)
  return { object: 73000, file: 12, block: Number((v >> 16n) & 0x3fffffffn), slot: Number(v & 0xffffn) }
}

export const ROWID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

/** The 18-character rowid text `ora_rowid` (database-macros.ts) gives a DuckDB row id. */
export const rowidText = (rowNumber: bigint): string => {
  const { block, slot } = fieldsOfRowNumber(rowNumber)
  const b64 = (n: number, length: number) => Array.from({ length }, (_, p) => ROWID_ALPHABET[Math.floor(n / 64 ** (length - 1 - p)) % 64]).join("")
  return `AAAR0oAAM${b64(block, 6)}${b64(slot, 3)}`
}

/** The fields of an 18-character extended rowid (base-64 groups of 6, 3, 6 and 3 characters), or undefined. */
export const rowidFields = (text: string): RowidFields | undefined => {
  if (!/^[A-Za-z0-9+/]{18}$/.test(text)) return undefined
  const field = (from: number, length: number) =>
    [...text.slice(from, from + length)].reduce((v, c) => v * 64 + ROWID_ALPHABET.indexOf(c), 0)
  return { object: field(0, 6), file: field(6, 3), block: field(9, 6), slot: field(15, 3) }
}

/**
 * The UROWID wire form of a stored rowid text: a physical rowid as type byte 1, then data object number (u32), file
 * (u16), block (u32) and slot (u16), big-endian; any other text as a logical rowid (type byte 2, then the bytes the
 * client shows as `*` and their base 64). Oracle refuses text that is no rowid on insert (ORA-01410); this server
 * stores it as given.
 */
export const urowidBytes = (text: string): Buffer => {
  const fields = rowidFields(text)
  if (fields !== undefined) {
    const b = Buffer.alloc(13)
    b[0] = 1
    b.writeUInt32BE(fields.object, 1)
    b.writeUInt16BE(fields.file, 5)
    b.writeUInt32BE(fields.block, 7)
    b.writeUInt16BE(fields.slot, 11)
    return b
  }
  const logical = text.startsWith("*") ? Buffer.from(text.slice(1), "base64") : Buffer.from(text, "utf8")
  return Buffer.concat([Buffer.from([2]), logical])
}
