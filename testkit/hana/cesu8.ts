/**
 * CESU-8, HANA's character encoding on the wire: UTF-8 except that a character beyond U+FFFF is sent as its two
 * UTF-16 surrogates, three bytes each.
 */
const SURROGATE = /[\uD800-\uDFFF]/

/** CESU-8 bytes of a string (UTF-8 except that supplementary characters are two 3-byte surrogate encodings). */
export const cesu8 = (s: string): Buffer => {
  if (!SURROGATE.test(s)) return Buffer.from(s, "utf8")
  const out = Buffer.allocUnsafe(s.length * 3)
  let o = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) out[o++] = c
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6)
      out[o++] = 0x80 | (c & 0x3f)
    } else {
      out[o++] = 0xe0 | (c >> 12)
      out[o++] = 0x80 | ((c >> 6) & 0x3f)
      out[o++] = 0x80 | (c & 0x3f)
    }
  }
  return out.subarray(0, o)
}

/** Decodes CESU-8 (or plain UTF-8) bytes. */
export const fromCesu8 = (b: Uint8Array): string => {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length)
  let hasSurrogate = false
  for (let i = 0; i + 1 < buf.length; i++) {
    if (buf[i] === 0xed && buf[i + 1]! >= 0xa0) {
      hasSurrogate = true
      break
    }
  }
  if (!hasSurrogate) return buf.toString("utf8")
  let s = ""
  let i = 0
  while (i < buf.length) {
    const c = buf[i]!
    if (c < 0x80) {
      s += String.fromCharCode(c)
      i += 1
    } else if (c < 0xe0) {
      s += String.fromCharCode(((c & 0x1f) << 6) | (buf[i + 1]! & 0x3f))
      i += 2
    } else if (c < 0xf0) {
      s += String.fromCharCode(((c & 0x0f) << 12) | ((buf[i + 1]! & 0x3f) << 6) | (buf[i + 2]! & 0x3f))
      i += 3
    } else {
      s += buf.toString("utf8", i, i + 4)
      i += 4
    }
  }
  return s
}

/** UTF-8 bytes as CESU-8 (the same bytes unless a 4-byte sequence occurs). */
export const asCesu8 = (bytes: Uint8Array): Uint8Array => {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0xf0) return cesu8(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"))
  }
  return bytes
}
