/**
 * Lazily allocated Arrow validity bitmap.
 *
 * Nothing is allocated until the first null. The bitmap is kept all-ones ("valid") beyond the nulls already
 * recorded, so appending a non-null value never has to touch it: only {@link ValidityBitmap.setNull} writes bits.
 */
export class ValidityBitmap {
  private bytes: Uint8Array | null = null
  private nulls = 0

  /** Number of nulls recorded since the last {@link ValidityBitmap.finish}. */
  get nullCount(): number {
    return this.nulls
  }

  /** Bytes currently allocated (0 until the first null). */
  get byteLength(): number {
    return this.bytes === null ? 0 : this.bytes.byteLength
  }

  /**
   * Bytes the bitmap for `rows` rows takes in a batch (what {@link ValidityBitmap.finish} returns): 0 without a null,
   * else `ceil(rows / 8)`, however much is allocated ahead (a byte cap counts this, not the allocation).
   */
  usedBytes(rows: number): number {
    return this.nulls === 0 ? 0 : (rows + 7) >>> 3
  }

  /** Marks row `index` as null. */
  setNull(index: number): void {
    const byte = index >>> 3
    let bytes = this.bytes
    if (bytes === null || byte >= bytes.length) bytes = this.grow(byte + 1)
    bytes[byte] = bytes[byte]! & ~(1 << (index & 7))
    this.nulls++
  }

  /**
   * Returns the bitmap for `length` rows (exactly `ceil(length / 8)` bytes, padding bits cleared), or `undefined`
   * when there was no null, and resets for the next batch.
   */
  finish(length: number): Uint8Array | undefined {
    const bytes = this.bytes
    this.bytes = null
    if (this.nulls === 0 || bytes === null) {
      this.nulls = 0
      return undefined
    }
    this.nulls = 0
    const needed = (length + 7) >>> 3
    let out: Uint8Array
    if (bytes.length >= needed) {
      out = bytes.subarray(0, needed)
    } else {
      out = new Uint8Array(needed).fill(0xff)
      out.set(bytes)
    }
    const tail = length & 7
    if (tail !== 0) out[needed - 1] = out[needed - 1]! & ((1 << tail) - 1)
    return out
  }

  private grow(minBytes: number): Uint8Array {
    const old = this.bytes
    const size = Math.max(minBytes, old === null ? 64 : old.length * 2)
    const next = new Uint8Array(size).fill(0xff)
    if (old !== null) next.set(old)
    this.bytes = next
    return next
  }
}
