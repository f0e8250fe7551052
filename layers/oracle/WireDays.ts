/**
 * Days since 1970-01-01 of the date bytes of an Oracle DATE / TIMESTAMP on the wire (century + 100, year of century +
 * 100, month, day; proleptic Gregorian), shared by the driver's wire decoder and the test server's bind decoder.
 */
import { epochDayOf } from "../common/ArrowCells.ts"

const DAY_SLOTS = 4096
const dayKeys = new Float64Array(DAY_SLOTS).fill(-1)
const dayValues = new Float64Array(DAY_SLOTS)

/**
 * Days since the epoch of the date bytes at `p`, memoised in a direct-mapped table of 4,096 dates: a column's dates
 * mostly repeat or lie close together, and the calendar arithmetic (a chain of float divisions) costs more than the
 * rest of the cell.
 */
export const wireDay = (b: Uint8Array, p: number): number => {
  const b0 = b[p]!
  const b1 = b[p + 1]!
  const b2 = b[p + 2]!
  const b3 = b[p + 3]!
  const key = b0 * 16777216 + ((b1 << 16) | (b2 << 8) | b3)
  const slot = (b1 * 384 + b2 * 32 + b3) & (DAY_SLOTS - 1)
  if (dayKeys[slot] === key) return dayValues[slot]!
  const days = epochDayOf((b0 - 100) * 100 + b1 - 100, b2, b3)
  dayKeys[slot] = key
  dayValues[slot] = days
  return days
}
