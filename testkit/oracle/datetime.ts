/**
 * Calendar arithmetic for Oracle DATE/TIMESTAMP wire values, done on integers (no JS Date and no
 * process time zone involved). Day arithmetic is the servers' shared civil calendar (../common/civil.ts).
 */
import { civilFromDays, daysFromCivil } from "../common/civil.ts"
import { OraError } from "./errors.ts"
import { ORACLE_REGION_IDS, ORACLE_REGION_NAMES } from "../../layers/oracle/RegionIds.ts"

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
 * The region of an Oracle region id, spelled as Oracle prints it. The ids are those of Oracle's time zone file
 * (layers/oracle/RegionIds.ts, the table the driver writes with: every region both Oracle and the JavaScript time
 * zone database know).
 */
const regionOfId = (id: number): string | undefined => ORACLE_REGION_NAMES.get(id)

/** Per region, its offset formatter: building one costs far more than using it, and values are converted per row. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>()

/** Offset east of UTC in minutes of `zone` (an offset or an IANA region) at the instant `utcMillis`. */
export const zoneOffsetMinutes = (zone: string, utcMillis: number): number => {
  const m = /^([+-])(\d{1,2}):(\d{2})$/.exec(zone)
  if (m !== null) return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
  let format = offsetFormats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    offsetFormats.set(zone, format)
  }
  const name = format.formatToParts(new Date(utcMillis)).find((p) => p.type === "timeZoneName")?.value ?? "GMT"
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
  const id = ORACLE_REGION_IDS.get(zone.toUpperCase())
  if (id !== undefined) return [0x80 | (id >> 6), (id & 0x3f) << 2]
  const minutes = zoneOffsetMinutes(zone, utcMillis)
  const sign = minutes < 0 ? -1 : 1
  return [20 + sign * Math.floor(Math.abs(minutes) / 60), 60 + sign * (Math.abs(minutes) % 60)]
}

const NS_PER_MINUTE = 60_000_000_000n
const NS_PER_DAY = 86_400_000_000_000n

/**
 * A TIMESTAMP [WITH TIME ZONE] value as the server stores it in columns DuckDB's datetime types cannot hold (README.md,
 * "TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9)"): the wall clock in nanoseconds since the epoch, and for a zoned value
 * its offset east of UTC in minutes and the region it was given in (undefined for an offset).
 */
export interface DatetimeValue {
  readonly wall: bigint
  readonly offsetMinutes?: number
  readonly region?: string
}

/** The UTC instant of a zoned value in nanoseconds since the epoch (a zoneless value's wall clock). */
export const utcNanos = (v: DatetimeValue): bigint => v.wall - BigInt(v.offsetMinutes ?? 0) * NS_PER_MINUTE

/**
 * The region name as the time zone database spells it (`europe/paris` → `Europe/Paris`), or undefined when unknown.
 * An alias stays the name given (`Asia/Kolkata`, `US/Pacific`: Oracle keeps and prints the region named, where ICU
 * would answer its own canonical `Asia/Calcutta`, `America/Los_Angeles`).
 */
export const canonicalRegion = (name: string): string | undefined => {
  if (canonicalRegions.has(name)) return canonicalRegions.get(name)
  let canonical: string | undefined
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone
    canonical = resolved.toLowerCase() === name.toLowerCase() || !/^[A-Za-z]+\//.test(name) ? resolved : name
  } catch {
    canonical = undefined
  }
  if (canonical !== undefined) canonicalRegions.set(name, canonical)
  return canonical
}

/** Known region names already looked up (the answer for a name never changes), as values are parsed per row. */
const canonicalRegions = new Map<string, string | undefined>()

/**
 * The session time zone `ALTER SESSION SET TIME_ZONE = '...'` sets: an offset normalised to `+hh:mm`, or a region
 * the time zone database knows, as given; undefined for an unknown region (ORA-01882).
 */
export const sessionTimeZoneOf = (value: string): string | undefined => {
  const m = /^([+-]?)(\d{1,2}):(\d{1,2})$/.exec(value)
  if (m !== null) return `${m[1] === "-" ? "-" : "+"}${m[2]!.padStart(2, "0")}:${m[3]!.padStart(2, "0")}`
  return canonicalRegion(value) === undefined ? undefined : value
}

/** Offset east of UTC in minutes of a time zone (an offset or a known region) now; undefined for an unknown region. */
export const currentOffsetMinutes = (zone: string): number | undefined =>
  /^[+-]\d{1,2}:\d{2}$/.test(zone) || canonicalRegion(zone) !== undefined ? zoneOffsetMinutes(zone, Date.now()) : undefined

/**
 * Offset of `region` at the wall clock `wall` (nanoseconds). Where the wall clock occurs twice (the hour summer time
 * ends), standard time, the smaller offset, as Oracle reads it with ERROR_ON_OVERLAP_TIME false; where it does not
 * occur, the offset before the change.
 */
const regionOffsetAtWall = (region: string, wall: bigint, abbreviation?: string, gapFails = false): number => {
  const wallMillis = Number(wall / 1_000_000n)
  const candidates = [zoneOffsetMinutes(region, wallMillis - 43_200_000), zoneOffsetMinutes(region, wallMillis + 43_200_000)]
  const valid = candidates.filter((o) => zoneOffsetMinutes(region, wallMillis - o * 60_000) === o)
  // a wall clock the region skips (the hour clocks go forward): Oracle's "nonexisting time" error, ORA-01878 (SQL
  // Language Reference, ORA_DST_ERROR: "1878: the datetime value results in a "nonexisting time" error")
  if (gapFails && valid.length === 0) throw new OraError(1878, "specified field not found in datetime or interval")
  // an abbreviation names the side of a repeated hour ("Datetime Literals": `TIMESTAMP '1999-10-29 01:30:00 US/Pacific
  // PDT'`, SQL Language Reference); one the region does not use there leaves the default
  const named = abbreviation === undefined ? undefined : valid.find((o) => zoneAbbreviation(region, (wall - BigInt(o) * NS_PER_MINUTE)).toUpperCase() === abbreviation.toUpperCase())
  return named ?? (valid.length === 0 ? candidates[0]! : Math.min(...valid))
}

/** Per region and locale, its abbreviation formatter (values are formatted per row). */
const abbreviationFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * The abbreviation of `region` at the UTC instant `utc` (nanoseconds), as TO_CHAR's TZD prints it (`CEST`, `EDT`):
 * the time zone database's short name, the British one where the American locale has only a `GMT+2` form.
 */
export const zoneAbbreviation = (region: string, utc: bigint): string => {
  const at = new Date(Number(utc / 1_000_000n))
  const name = (locale: string) => {
    let format = abbreviationFormats.get(`${locale} ${region}`)
    if (format === undefined) {
      format = new Intl.DateTimeFormat(locale, { timeZone: region, timeZoneName: "short" })
      abbreviationFormats.set(`${locale} ${region}`, format)
    }
    return format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? ""
  }
  const us = name("en-US")
  return /^(GMT|UTC)[+-]/.test(us) ? name("en-GB").replace(/^(GMT|UTC)[+-].*/, "") : us
}

const DATETIME_TEXT =
  /^\s*(-?\d{1,5})-(\d{1,2})-(\d{1,2})(?:\s*\(BC\))?(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?)?(\s*\(BC\))?\s*(.*?)\s*$/i

/**
 * Parses the text of a datetime: the server's stored form (`2024-03-01 10:00:00.000000000+01:00 Europe/Paris`), an
 * Oracle literal's (`2024-03-01 10:00:00 Europe/Paris CET`, `... +05:30`, `... -8:00`) or DuckDB's rendering of its
 * own datetimes (`2024-03-01 09:00:00+00`, `0044-03-15 (BC) 10:00:00`). A text without zone is in `zone` when one is
 * given (an offset or a region; Oracle reads a TIMESTAMP as TIMESTAMP WITH TIME ZONE in the session time zone),
 * else zoneless. Undefined for text that is no datetime; an unknown region raises ORA-01882.
 */
export const parseDatetimeText = (text: string, zone?: string): DatetimeValue | undefined => {
  const m = DATETIME_TEXT.exec(text)
  if (m === null) return undefined
  const bc = /\(BC\)/i.test(text)
  const year = bc ? 1 - Number(m[1]) : Number(m[1])
  const days = BigInt(daysFromCivil(year, Number(m[2]), Number(m[3])))
  const seconds = BigInt(Number(m[4] ?? 0) * 3600 + Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0))
  const wall = days * NS_PER_DAY + seconds * 1_000_000_000n + BigInt((m[7] ?? "").padEnd(9, "0").slice(0, 9) || "0")
  const zoneText = m[9]!.trim() === "" ? (zone ?? "") : m[9]!.trim()
  if (zoneText === "") return { wall }
  const offset = /^([+-])(\d{1,2})(?::?(\d{2}))?(?:\s+(\S+))?/.exec(zoneText)
  if (offset !== null) {
    const minutes = (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3] ?? 0))
    const region = offset[4] === undefined ? undefined : canonicalRegion(offset[4])
    return region === undefined ? { wall, offsetMinutes: minutes } : { wall, offsetMinutes: minutes, region }
  }
  const [name = "", abbreviation] = zoneText.split(/\s+/)
  if (/^Z$/i.test(name)) return { wall, offsetMinutes: 0 }
  const region = canonicalRegion(name)
  if (region === undefined) throw new OraError(1882, "timezone region not found")
  return { wall, offsetMinutes: regionOffsetAtWall(region, wall, abbreviation, m[9]!.trim() !== ""), region }
}

/** The same instant in `v`'s zone after moving it to `utc` nanoseconds (a region's offset follows the new instant). */
export const atInstant = (v: DatetimeValue, utc: bigint): DatetimeValue => {
  if (v.offsetMinutes === undefined) return { wall: utc }
  const offsetMinutes = v.region === undefined ? v.offsetMinutes : zoneOffsetMinutes(v.region, Number(utc / 1_000_000n))
  const wall = utc + BigInt(offsetMinutes) * NS_PER_MINUTE
  return v.region === undefined ? { wall, offsetMinutes } : { wall, offsetMinutes, region: v.region }
}

const pad = (n: number, width: number): string => String(Math.abs(n)).padStart(width, "0")

/** `+05:30` of an offset in minutes. */
export const offsetText = (minutes: number): string => `${minutes < 0 ? "-" : "+"}${pad(Math.trunc(minutes / 60), 2)}:${pad(minutes % 60, 2)}`

/** Broken-down wall clock of a value. */
export const civilOfNanos = (wall: bigint): Civil => {
  const us = wall / 1000n - (wall < 0n && wall % 1000n !== 0n ? 1n : 0n)
  const c = civilFromMicros(us)
  return { ...c, nanos: Number(((wall % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n) }
}

/** The stored text of a value: `YYYY-MM-DD HH:MI:SS.fffffffff[+HH:MM[ Region]]` (a negative year keeps its sign). */
export const datetimeText = (v: DatetimeValue): string => {
  const c = civilOfNanos(v.wall)
  const date = `${c.year < 0 ? "-" : ""}${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}`
  const time = `${pad(c.hour, 2)}:${pad(c.minute, 2)}:${pad(c.second, 2)}.${pad(c.nanos, 9)}`
  const zone = v.offsetMinutes === undefined ? "" : `${offsetText(v.offsetMinutes)}${v.region === undefined ? "" : ` ${v.region}`}`
  return `${date} ${time}${zone}`
}

/**
 * Adds `months` and `nanos` to a time in nanoseconds. A day the new month lacks raises ORA-01839, as Oracle's
 * datetime-plus-interval arithmetic does (unlike ADD_MONTHS, it does not clip to the month's end).
 */
export const addToNanos = (ns: bigint, months: number, nanos: bigint): bigint => {
  if (months === 0) return ns + nanos
  const c = civilOfNanos(ns)
  const total = c.year * 12 + (c.month - 1) + months
  const year = Math.floor(total / 12)
  const month = total - year * 12 + 1
  if (civilFromDays(daysFromCivil(year, month, c.day)).month !== month) throw new OraError(1839, "date not valid for month specified")
  const timeOfDay = ((ns % NS_PER_DAY) + NS_PER_DAY) % NS_PER_DAY
  return BigInt(daysFromCivil(year, month, c.day)) * NS_PER_DAY + timeOfDay + nanos
}

/**
 * Oracle's TIMESTAMP WITH TIME ZONE wire value (13 bytes: the UTC date and time, then the zone bytes of
 * {@link zoneBytes}) or TIMESTAMP (11 bytes, the wall clock), fraction cut to `fsp` digits.
 */
export const oracleBytesOf = (v: DatetimeValue, zoned: boolean, fsp: number): Buffer => {
  const c = civilOfNanos(zoned ? utcNanos(v) : v.wall)
  const b = Buffer.alloc(zoned ? 13 : 11)
  // a negative year as Oracle writes it: century and year each below 100 (-4712: 53, 88)
  b[0] = Math.trunc(c.year / 100) + 100
  b[1] = (c.year % 100) + 100
  b[2] = c.month
  b[3] = c.day
  b[4] = c.hour + 1
  b[5] = c.minute + 1
  b[6] = c.second + 1
  const unit = 10 ** (9 - Math.min(Math.max(fsp, 0), 9))
  b.writeUInt32BE(Math.floor(c.nanos / unit) * unit, 7)
  if (zoned) {
    const [z0, z1] =
      v.region !== undefined && ORACLE_REGION_IDS.has(v.region.toUpperCase())
        ? zoneBytes(v.region, 0)
        : [20 + Math.trunc((v.offsetMinutes ?? 0) / 60), 60 + ((v.offsetMinutes ?? 0) % 60)]
    b[11] = z0
    b[12] = z1
  }
  return b
}

/** The value of Oracle TIMESTAMP [WITH TIME ZONE] wire bytes (a zone as its region when its id is known). */
export const datetimeOfOracle = (b: Uint8Array): DatetimeValue => {
  const utc = nanosOfOracle(b)
  if (b.length < 13) return { wall: utc }
  if ((b[11]! & 0x80) !== 0) {
    const id = ((b[11]! & 0x7f) << 6) | (b[12]! >> 2)
    const region = regionOfId(id)
    if (region !== undefined) return atInstant({ wall: utc, offsetMinutes: 0, region }, utc)
    return { wall: utc, offsetMinutes: 0 }
  }
  const offsetMinutes = (b[11]! - 20) * 60 + (b[12]! - 60)
  return { wall: utc + BigInt(offsetMinutes) * NS_PER_MINUTE, offsetMinutes }
}
