/**
 * The output buffer both test servers encode replies into: it doubles when full, and hot loops may write to `buf`
 * at `pos` directly after {@link GrowableBuffer.ensure}. Each protocol adds its own primitive writers.
 */
export class GrowableBuffer {
  buf: Buffer
  pos = 0

  constructor(initialSize: number) {
    this.buf = Buffer.allocUnsafe(initialSize)
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + n) size *= 2
    const next = Buffer.allocUnsafe(size)
    this.buf.copy(next, 0, 0, this.pos)
    this.buf = next
  }

  /** Appends one byte. */
  u8(v: number): void {
    this.ensure(1)
    this.buf[this.pos++] = v & 0xff
  }
}
