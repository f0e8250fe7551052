/**
 * Test data and a writer for LOB scenarios: 300 KB of text and of bytes, written through a locator in many LOB
 * write calls.
 */
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"

/** Characters of the text, bytes of the binary value. */
export const LOB_SIZE = 300 * 1024
/** 300 KB of text with a multi-byte character every 1000 characters. */
export const lobText = Array.from({ length: LOB_SIZE }, (_, i) => (i % 1000 === 999 ? "é" : String.fromCharCode(97 + (i % 26)))).join("")
/** 300 KB of every byte value. */
export const lobBytes = Buffer.from(Array.from({ length: LOB_SIZE }, (_, i) => (i * 7) % 256))

/**
 * Writes `data` into the locator `lob` through a stream, in chunks of `chunk` (many LOB write calls). The chunks of a
 * CLOB stay strings: node-oracledb advances a CLOB's write offset by each chunk's length, which for a Buffer of
 * multi-byte text would be its bytes, not its characters.
 */
export const writeThrough = async (lob: any, data: string | Buffer, chunk: number): Promise<void> => {
  const pieces = Array.from({ length: Math.ceil(data.length / chunk) }, (_, k) => data.slice(k * chunk, (k + 1) * chunk))
  await pipeline(Readable.from(pieces), lob)
}
