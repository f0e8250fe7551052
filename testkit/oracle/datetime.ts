/**
 * Calendar arithmetic for Oracle DATE/TIMESTAMP wire values, done on integers (no JS Date and no
 * process time zone involved). Day arithmetic is the servers' shared civil calendar (../common/civil.ts).
 */
import { civilFromDays, daysFromCivil } from "../common/civil.ts"

/** Broken-down wall-clock time. */
export interface Civil {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  nanos: number
}

const US_PER_DAY = 86_400_000_000n

/** Microseconds since the epoch (wall clock) to broken-down time. */
export const civilFromMicros = (micros: bigint): Civil => {
  let days = micros / US_PER_DAY
  let rem = micros % US_PER_DAY
  if (rem < 0n) {
    rem += US_PER_DAY
    days -= 1n
  }
  const d = civilFromDays(Number(days))
  const r = Number(rem)
  const secs = Math.floor(r / 1_000_000)
  return {
    year: d.year,
    month: d.month,
    day: d.day,
    hour: Math.floor(secs / 3600),
    minute: Math.floor(secs / 60) % 60,
    second: secs % 60,
    nanos: (r % 1_000_000) * 1000
  }
}

/** Broken-down time to microseconds since the epoch. */
export const microsFromCivil = (c: Civil): bigint =>
  BigInt(daysFromCivil(c.year, c.month, c.day)) * US_PER_DAY +
  BigInt(c.hour * 3600 + c.minute * 60 + c.second) * 1_000_000n +
  BigInt(Math.floor(c.nanos / 1000))

/** Nanoseconds since the epoch (wall clock) of Oracle DATE/TIMESTAMP bytes, exact for every Oracle year. */
export const nanosOfOracle = (b: Uint8Array): bigint => {
  const days = daysFromCivil((b[0]! - 100) * 100 + (b[1]! - 100), b[2]!, b[3]!)
  const secs = days * 86_400 + (b[4]! - 1) * 3600 + (b[5]! - 1) * 60 + (b[6]! - 1)
  const ns = b.length >= 11 ? ((b[7]! << 24) >>> 0) + (b[8]! << 16) + (b[9]! << 8) + b[10]! : 0
  return BigInt(secs) * 1_000_000_000n + BigInt(ns)
}

/**
 * Microseconds since the epoch of Oracle DATE/TIMESTAMP bytes, exact (a bigint: microseconds of years before 1685
 * or after 2255 are beyond 2^53); digits below the microsecond are dropped (floor).
 */
export const microsOfOracle = (b: Uint8Array): bigint => {
  const ns = nanosOfOracle(b)
  const us = ns / 1000n
  return ns < 0n && us * 1000n !== ns ? us - 1n : us
}

/** Decodes Oracle DATE/TIMESTAMP bytes (7, 11 or 13 long) to broken-down time. */
export const civilFromOracle = (b: Uint8Array): Civil => ({
  year: (b[0]! - 100) * 100 + (b[1]! - 100),
  month: b[2]!,
  day: b[3]!,
  hour: b[4]! - 1,
  minute: b[5]! - 1,
  second: b[6]! - 1,
  nanos: b.length >= 11 ? ((b[7]! << 24) >>> 0) + (b[8]! << 16) + (b[9]! << 8) + b[10]! : 0
})

/** Parses an offset such as "+02:00", "-05:30" or "UTC" to minutes east of UTC. */
export const parseOffset = (tz: string): number => {
  const m = tz.trim().match(/^([+-])(\d{1,2}):?(\d{2})?$/)
  if (m === null) return 0
  const v = Number(m[2]) * 60 + Number(m[3] ?? "0")
  return m[1] === "-" ? -v : v
}
