/**
 * The byte cap of one batch as a page sees it while it decodes rows: before a row, whether a row of about a given
 * size still fits beside the rows already pending; after it, whether the pending rows reached the cap, measured on
 * the column builders themselves.
 */
import type { ColumnBuilder } from "./ColumnBuilder.ts"

/**
 * Checked by a page around every row it decodes under a byte cap (see `Page.appendRowsWithin`).
 *
 * @since 0.1.0
 */
export interface ByteBudget {
  /**
   * Whether a row of about `rowBytes` Arrow bytes may join the pending rows: always when none are pending, else when
   * the pending rows and it stay within the cap. A page stops before a row it is refused.
   */
  admits(rowBytes: number): boolean
  /** Whether the pending rows' builders reached the cap; a page calls it after every row and stops when it is true. */
  full(): boolean
}

/**
 * The {@link ByteBudget} of a batch assembler: `start` before every call of a page, then the page's answers say
 * whether the batch is to be cut.
 *
 * @since 0.1.0
 */
export class BuilderByteBudget implements ByteBudget {
  private rows = 0
  private bytes = 0
  /** The page was refused a row: the pending rows are to be cut before it. */
  refused = false
  /** The pending rows reached the cap. */
  reached = false

  constructor(private readonly builders: ReadonlyArray<ColumnBuilder>, private readonly maxBytes: number) {}

  /** Resets the answers for a page call that starts with `rows` rows pending. */
  start(rows: number): void {
    this.rows = rows
    this.bytes = rows === 0 ? 0 : this.measure()
    this.refused = false
    this.reached = false
  }

  admits(rowBytes: number): boolean {
    if (this.rows === 0 || this.bytes + rowBytes <= this.maxBytes) return true
    this.refused = true
    return false
  }

  full(): boolean {
    this.rows++
    this.bytes = this.measure()
    this.reached = this.bytes >= this.maxBytes
    return this.reached
  }

  private measure(): number {
    let bytes = 0
    for (let i = 0; i < this.builders.length; i++) bytes += this.builders[i]!.byteLength
    return bytes
  }
}

/** Strings above this many UTF-16 units are measured in UTF-8 bytes; shorter ones count a byte per unit. */
const MEASURED_TEXT = 1024

/**
 * About the Arrow bytes of a row of JS values, for a page's {@link ByteBudget.admits}: text and binary by their
 * length, other values as 8 bytes.
 *
 * @since 0.1.0
 */
export const rowValueBytes = (row: ReadonlyArray<unknown>): number => {
  let bytes = 0
  for (let c = 0; c < row.length; c++) {
    const value = row[c]
    if (typeof value === "string") bytes += value.length > MEASURED_TEXT ? Buffer.byteLength(value, "utf8") : value.length
    else if (value instanceof Uint8Array) bytes += value.byteLength
    else bytes += 8
  }
  return bytes
}
