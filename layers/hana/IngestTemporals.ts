/**
 * The encoded EXECUTE's date and time column encoders, in the layouts hdb 2.30.1 writes (lib/protocol/Writer.js):
 * DAYDATE the day number (1 = 0001-01-01, Julian calendar before 1582-10-15), SECONDTIME seconds + 1, SECONDDATE
 * and LONGDATE seconds / 100 ns since 0001-01-01 + 1. Dates are taken by their proleptic Gregorian label, times
 * truncated to the column's resolution, as hdb takes the text the row path hands it; a value outside 0001-01-01 …
 * 9999-12-31, or one of the ten labels HANA's calendar skips, is refused naming row and column.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { civilFromDays, formatEpochDay } from "../common/ArrowCells.ts"
import { floorDivInt64, TWO_32 } from "../common/Int64Words.ts"
import { type ColumnEncoder, type Maker, ValueError, writeInt32, writeSafeInt64 } from "./IngestColumns.ts"
import { TypeCode, typeCodeName } from "./ReadTypes.ts"

// Calendar: HANA day numbers of proleptic Gregorian labels (hdb lib/util/calendar.js DAYDATE)

/** Days since 1970-01-01 of 1582-10-15, the first day HANA numbers in the Gregorian calendar. */
const GREGORIAN_START = -141427
/** HANA day number of 1970-01-01 (1 = 0001-01-01). */
const HANA_DAY_1970 = 719165
/** Days since 1970-01-01 of 0001-01-01 and 9999-12-31, the dates hdb accepts. */
const FIRST_DAY = -719162
const LAST_DAY = 2932896

/**
 * The HANA day number of the date labelled like proleptic Gregorian day `epochDay` (hdb calendar.DAYDATE).
 *
 * @category encoding
 * @since 0.1.0
 */
export const hanaDayNumber = (epochDay: number): number => {
  if (epochDay >= GREGORIAN_START) return epochDay + HANA_DAY_1970
  // hdb's Julian day formula for the label.
  const { day, month, year } = civilFromDays(epochDay)
  const jm = month > 2 ? month + 1 : month + 13
  const jy = month > 2 ? year : year - 1
  return Math.trunc(365.25 * jy) + Math.trunc(30.6001 * jm) + day + 1720995 - 1721424 + 1
}

const checkDay = (epochDay: number, row: number, column: number): void => {
  if (!(epochDay >= FIRST_DAY && epochDay <= LAST_DAY)) {
    throw new ValueError(row, column, `the date ${formatEpochDay(epochDay)} is outside 0001-01-01 … 9999-12-31, the range of HANA dates`)
  }
  // HANA's calendar goes from Julian 1582-10-04 to Gregorian 1582-10-15: hdb would number one of the ten labels
  // between as that Julian date, which reads back ten days later; refused rather than silently moved.
  if (epochDay >= GREGORIAN_START - 10 && epochDay < GREGORIAN_START) {
    throw new ValueError(
      row,
      column,
      `the date ${formatEpochDay(epochDay)} has no day in HANA's calendar, which goes from 1582-10-04 (Julian) to 1582-10-15 (Gregorian); HANA would read it back as ${formatEpochDay(epochDay + 10)}`
    )
  }
}

/** Epoch days of a date32 / date64 column. */
const dayReader = (data: Arrow.Data): ((row: number) => number) => {
  const t = data.type as Arrow.Date_
  if (t.unit === Arrow.DateUnit.DAY) {
    const values = data.values as Int32Array
    return (row) => values[row]!
  }
  const words = new Int32Array((data.values as Int32Array).buffer, (data.values as Int32Array).byteOffset, data.length * 2)
  return (row) => Math.floor((words[row * 2 + 1]! * TWO_32 + (words[row * 2]! >>> 0)) / 86_400_000)
}

export const dates: Maker = (data, column, _parameter, target) => {
  if (target !== TypeCode.DAYDATE) return `${data.type} to ${typeCodeName(target)}`
  const day = dayReader(data)
  return {
    maxBytes: 5,
    write: (row, out, pos) => {
      const d = day(row)
      checkDay(d, row, column)
      out[pos] = TypeCode.DAYDATE
      writeInt32(out, pos + 1, hanaDayNumber(d))
      return pos + 5
    }
  }
}

const UNIT_NAMES = ["s", "ms", "µs", "ns"] as const

export const times: Maker = (data, column, _parameter, target) => {
  if (target !== TypeCode.SECONDTIME) return `${data.type} to ${typeCodeName(target)}`
  const t = data.type as Arrow.Time
  const perSecond = [1, 1e3, 1e6, 1e9][t.unit]!
  const raw = data.values as Int32Array | BigInt64Array
  const values = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4)
  const read = t.bitWidth === 32
    ? (row: number) => values[row]!
    : (row: number) => values[row * 2 + 1]! * TWO_32 + (values[row * 2]! >>> 0)
  return {
    maxBytes: 5,
    write: (row, out, pos) => {
      // hdb keeps whole seconds of the time text (Writer.js writeSecondTime).
      const seconds = Math.floor(read(row) / perSecond)
      if (!(seconds >= 0 && seconds < 86400)) {
        const value = t.bitWidth === 32 ? String(values[row]!) : String((raw as BigInt64Array)[row]!)
        throw new ValueError(row, column, `the time ${value} ${UNIT_NAMES[t.unit]} is outside 00:00:00 … 23:59:59, the range of HANA times`)
      }
      out[pos] = TypeCode.SECONDTIME
      writeInt32(out, pos + 1, seconds + 1)
      return pos + 5
    }
  }
}

const US_PER_DAY = 86_400_000_000
/** 100 ns ticks per day: 201 · 2^32 + 711,573,504. */
const TICKS_PER_DAY_HI = 201
const TICKS_PER_DAY_LO = 711_573_504

/**
 * A timestamp into a DATE parameter: its UTC day, the time of day dropped, as hdb's writer takes the timestamp's text
 * (Writer.js writeDayDate reads only its date).
 */
const timestampDays = (data: Arrow.Data, column: number): ColumnEncoder => {
  const t = data.type as Arrow.Timestamp
  const values = data.values as unknown as BigInt64Array
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  const perSecond = [1, 1e3, 1e6, 1e9][t.unit]!
  const split = new Float64Array(2)
  return {
    maxBytes: 5,
    write: (row, out, pos) => {
      floorDivInt64(words[row * 2 + 1]!, words[row * 2]!, perSecond, split)
      const day = Math.floor(split[0]! / 86_400)
      checkDay(day, row, column)
      out[pos] = TypeCode.DAYDATE
      writeInt32(out, pos + 1, hanaDayNumber(day))
      return pos + 5
    }
  }
}

export const timestamps: Maker = (data, column, _parameter, target) => {
  if (target === TypeCode.DAYDATE) return timestampDays(data, column)
  if (target !== TypeCode.LONGDATE && target !== TypeCode.SECONDDATE) return `${data.type} to ${typeCodeName(target)}`
  const t = data.type as Arrow.Timestamp
  const values = data.values as unknown as BigInt64Array
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  /** Microseconds per unit (seconds, ms, µs) or undefined for ns. */
  const usPerUnit = [1e6, 1e3, 1, undefined][t.unit]
  const perSecond = [1, 1e3, 1e6, 1e9][t.unit]!
  /** [seconds since the epoch (floor), ticks into that second] of the cell being written. */
  const split = new Float64Array(2)
  const long = target === TypeCode.LONGDATE
  /** Writes the value of epoch day `day`, `us` microseconds and `sub` 100 ns ticks into the day. */
  const put = (out: Buffer, pos: number, day: number, us: number, sub: number, row: number) => {
    checkDay(day, row, column)
    const d = hanaDayNumber(day) - 1
    out[pos] = target
    if (long) {
      const low = d * TICKS_PER_DAY_LO + us * 10 + sub + 1
      const carry = Math.floor(low / TWO_32)
      writeInt32(out, pos + 1, low - carry * TWO_32)
      writeInt32(out, pos + 5, d * TICKS_PER_DAY_HI + carry)
    } else {
      writeSafeInt64(out, pos + 1, d * 86400 + Math.floor(us / 1e6) + 1)
    }
    return pos + 9
  }
  return {
    maxBytes: 9,
    write: (row, out, pos) => {
      const hi = words[row * 2 + 1]!
      if (usPerUnit !== undefined && hi >= -2097152 && hi < 2097152) {
        const us = (hi * TWO_32 + (words[row * 2]! >>> 0)) * usPerUnit
        if (Number.isSafeInteger(us)) {
          const day = Math.floor(us / US_PER_DAY)
          return put(out, pos, day, us - day * US_PER_DAY, 0, row)
        }
      }
      // Exact path without a BigInt: nanoseconds (100 ns kept, as hdb keeps 7 fraction digits) and values beyond
      // 2^53 µs, split into whole seconds (floor) and ticks into the second. The seconds are exact within ±2^53;
      // beyond, the value lies far outside 0001 … 9999 and `put` refuses its day all the same.
      floorDivInt64(hi, words[row * 2]!, perSecond, split)
      const seconds = split[0]!
      const ticks = split[1]!
      const day = Math.floor(seconds / 86_400)
      const micros = (seconds - day * 86_400) * 1e6
      return usPerUnit === undefined
        ? put(out, pos, day, micros + Math.floor(ticks / 1000), Math.floor((ticks % 1000) / 100), row)
        : put(out, pos, day, micros + ticks * usPerUnit, 0, row)
    }
  }
}
