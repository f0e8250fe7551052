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

/**
 * Oracle's ids of time zone regions, as TIMESTAMP WITH TIME ZONE wire values carry them (a subset: the regions of
 * Oracle's time zone file the tests use and the most common ones). The ids are those of Oracle's time zone file as
 * the go-ora thin driver lists them (github.com/sijms/go-ora, v2/converters/type_conversion.go `oracleZones`).
 */
const REGION_IDS: ReadonlyMap<string, number> = new Map([
  ["Africa/Cairo", 44], ["Africa/Johannesburg", 72], ["America/Chicago", 101], ["America/Denver", 102],
  ["America/Los_Angeles", 103], ["America/New_York", 100], ["America/Sao_Paulo", 188], ["America/Toronto", 220],
  ["Asia/Calcutta", 260], ["Asia/Kolkata", 772], ["Asia/Shanghai", 250], ["Asia/Singapore", 292], ["Asia/Tokyo", 267],
  ["Australia/Sydney", 352], ["Europe/Berlin", 383], ["Europe/London", 369], ["Europe/Madrid", 404],
  ["Europe/Moscow", 402], ["Europe/Paris", 382], ["Europe/Rome", 387], ["Etc/GMT", 1], ["Etc/UTC", 28], ["GMT", 513],
  ["US/Eastern", 612], ["US/Pacific", 615], ["UTC", 5121]
].map(([name, id]) => [String(name).toUpperCase(), Number(id)]))

/** Offset east of UTC in minutes of `zone` (an offset or an IANA region) at the instant `utcMillis`. */
export const zoneOffsetMinutes = (zone: string, utcMillis: number): number => {
  const m = /^([+-])(\d{1,2}):(\d{2})$/.exec(zone)
  if (m !== null) return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(new Date(utcMillis)).find((p) => p.type === "timeZoneName")?.value ?? "GMT"
  const o = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
  return o === null ? 0 : (o[1] === "-" ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3]))
}

/**
 * The two zone bytes of a TIMESTAMP WITH TIME ZONE wire value (after the 11 bytes of its UTC date and time): a region
 * with a known id as 0x80 | id >> 6 and (id & 0x3f) << 2, else the offset (of the region at that instant) as hours + 20
 * and minutes + 60. Layout: go-ora v2/converters/type_conversion.go `EncodeTimeStamp` / `DecodeDate`; node-oracledb's
 * thin decoder ignores both bytes (lib/impl/datahandlers/buffer.js `parseOracleDate`).
 */
export const zoneBytes = (zone: string, utcMillis: number): [number, number] => {
  const id = REGION_IDS.get(zone.toUpperCase())
  if (id !== undefined) return [0x80 | (id >> 6), (id & 0x3f) << 2]
  const minutes = zoneOffsetMinutes(zone, utcMillis)
  const sign = minutes < 0 ? -1 : 1
  return [20 + sign * Math.floor(Math.abs(minutes) / 60), 60 + sign * (Math.abs(minutes) % 60)]
}
