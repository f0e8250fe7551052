/**
 * CESU-8 validation of character data a client sends (parameters, LOB chunks, command text).
 *
 * HANA's character encoding on the wire is CESU-8: UTF-8, except that a character beyond U+FFFF is its UTF-16
 * surrogate pair, each half as a 3-byte sequence (ED A0..AF xx, then ED B0..BF xx). HANA refuses bytes that are not
 * such text with error 609 (the SQL Error Codes list names it ERR_API_INVALID_CESU8_STRING, "invalid CESU-8
 * string", as catalogued at https://dberror.org/sap-s4hana/609; its exact message text is not confirmed).
 * A 4-byte UTF-8 sequence is not CESU-8 but is accepted: hdb sends one for a supplementary character when its
 * `useCesu8` option is off, and whether HANA then refuses it is not confirmed.
 */
import { fromCesu8 } from "./cesu8.ts"
import { HanaError } from "./errors.ts"

/** {@link scanCesu8}: valid, and the bytes are UTF-8 as they are (no surrogate pair). */
export const CESU8_PLAIN = -1
/** {@link scanCesu8}: valid, with at least one surrogate pair (decode with `fromCesu8`). */
export const CESU8_PAIRS = -2

const isContinuation = (c: number | undefined): boolean => c !== undefined && (c & 0xc0) === 0x80

/**
 * Scans `b[start, end)`: {@link CESU8_PLAIN} or {@link CESU8_PAIRS} when it is valid text, otherwise the offset
 * (from `start`) of the first byte that begins no valid sequence (an overlong form, a stray continuation byte, a
 * truncated sequence, an unpaired surrogate half, a byte never used in UTF-8).
 */
export const scanCesu8 = (b: Uint8Array, start: number, end: number): number => {
  let pairs = false
  let i = start
  while (i < end) {
    const c = b[i]!
    if (c < 0x80) {
      i += 1
      continue
    }
    if (c >= 0xc2 && c <= 0xdf) {
      if (i + 2 > end || !isContinuation(b[i + 1])) return i - start
      i += 2
      continue
    }
    if (c >= 0xe0 && c <= 0xef) {
      if (i + 3 > end) return i - start
      const c1 = b[i + 1]!
      if (!isContinuation(c1) || !isContinuation(b[i + 2]) || (c === 0xe0 && c1 < 0xa0)) return i - start
      if (c === 0xed && c1 >= 0xa0) {
        // A surrogate half: valid only as a high half (A0..AF) followed directly by a low half (B0..BF).
        if (c1 >= 0xb0 || i + 6 > end || b[i + 3] !== 0xed || b[i + 4]! < 0xb0 || b[i + 4]! > 0xbf || !isContinuation(b[i + 5])) {
          return i - start
        }
        pairs = true
        i += 6
        continue
      }
      i += 3
      continue
    }
    if (c >= 0xf0 && c <= 0xf4) {
      if (i + 4 > end) return i - start
      const c1 = b[i + 1]!
      if (!isContinuation(c1) || !isContinuation(b[i + 2]) || !isContinuation(b[i + 3])) return i - start
      if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return i - start
      i += 4
      continue
    }
    return i - start
  }
  return pairs ? CESU8_PAIRS : CESU8_PLAIN
}

/** HANA's 609 for character data that is not CESU-8, naming where (`what`) and the first bad byte. */
export const invalidCesu8 = (what: string, offset: number, byte: number | undefined): HanaError =>
  new HanaError(
    609,
    "HY000",
    `invalid CESU-8 string: ${what} has a byte sequence that is not CESU-8 at byte ${offset} (0x${(byte ?? 0).toString(16).padStart(2, "0").toUpperCase()})`
  )

/** The text of CESU-8 bytes; fails with {@link invalidCesu8} (naming `what`) when they are not valid CESU-8. */
export const cesu8Text = (bytes: Uint8Array, what: string): string => {
  const scan = scanCesu8(bytes, 0, bytes.length)
  if (scan === CESU8_PLAIN) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8")
  if (scan === CESU8_PAIRS) return fromCesu8(bytes)
  throw invalidCesu8(what, scan, bytes[scan])
}
