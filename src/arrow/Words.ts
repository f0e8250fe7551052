/**
 * The 32-bit words an int64 is read as (two Int32/Uint32 array elements), so that hot paths need no BigInt per cell.
 */

/** 2^32: the weight of an int64's upper 32-bit word (`value = hi · TWO_32 + (lo >>> 0)`). */
export const TWO_32 = 4_294_967_296
