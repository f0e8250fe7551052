/**
 * Exact arithmetic on int64 values read as two 32-bit words (an Int32Array view over an Arrow int64 buffer), so that
 * encoders need no BigInt per cell.
 *
 * @since 0.1.0
 */
import { floorDivInt64, TWO_32 } from "../../src/arrow/Words.ts"

/**
 * 2^32, the weight of an int64's upper word, and floor division of an int64 held as two words, for the drivers'
 * encoders and decoders (declared in src/arrow/Words.ts).
 */
export { floorDivInt64, TWO_32 }
