/**
 * CREATE SEQUENCE options Oracle refuses, checked before the engine sees them (Oracle SQL Language Reference,
 * "CREATE SEQUENCE"; codes and texts: Oracle Database Error Messages, https://docs.oracle.com/en/error-help/db/
 * ora-04002/, ora-04004, ora-04006, ora-04008, ora-04010).
 */
import { OraError } from "./errors.ts"

/** The numeric options a CREATE SEQUENCE gives (undefined where it gives none). */
export interface SequenceOptions {
  readonly start?: number | undefined
  readonly increment?: number | undefined
  readonly minValue?: number | undefined
  readonly maxValue?: number | undefined
  readonly cache?: number | undefined
}

/** Throws Oracle's error for options no sequence can have; the defaults are Oracle's (ascending from 1). */
export const checkSequenceOptions = (o: SequenceOptions): void => {
  const increment = o.increment ?? 1
  if (increment === 0 || !Number.isInteger(increment)) throw new OraError(4002, "INCREMENT must be a non-zero integer")
  const min = o.minValue ?? (increment > 0 ? 1 : -(10 ** 27) + 1)
  const max = o.maxValue ?? (increment > 0 ? 10 ** 28 - 1 : -1)
  if (min >= max) throw new OraError(4004, "MINVALUE must be less than MAXVALUE")
  const start = o.start ?? (increment > 0 ? min : max)
  if (start < min) throw new OraError(4006, "START WITH cannot be less than MINVALUE")
  if (start > max) throw new OraError(4008, "START WITH cannot be more than MAXVALUE")
  if (o.cache !== undefined && o.cache < 2) throw new OraError(4010, "the number of values to CACHE must be greater than 1")
}
