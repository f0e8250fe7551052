/**
 * The time zone of TIMESTAMP WITH TIME ZONE wire values: 13 bytes, the first 11 the UTC date and time, the last two
 * the zone, either an offset (hours + 20, minutes + 60) or, with the high bit of the first set, a region id of
 * Oracle's time zone file (`0x80 | id >> 6`, `(id & 0x3f) << 2`). node-oracledb thin always writes +00:00
 * (lib/impl/datahandlers/buffer.js `writeOracleDate`) and ignores the zone bytes it reads; the driver writes an Arrow
 * timestamp's zone itself (DbPatches.ts write hook, IngestEncoder.ts) and reads them for JSON and OBJECT text.
 *
 * Region ids: every region of Oracle's time zone file that the JavaScript time zone database knows (RegionIds.ts,
 * about 600 names with their aliases) is sent as its id, so the database keeps the region named; a region outside it
 * is sent as its offset at that instant (the local time and instant are kept, the region name is not).
 *
 * @since 0.1.0
 */
import type * as Arrow from "apache-arrow"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { ORACLE_REGION_IDS, ORACLE_REGION_NAMES } from "./RegionIds.ts"

/** Zones that mean UTC itself: sent as +00:00, as before any zone was written. */
const UTC_NAMES = new Set(["UTC", "Z", "+00:00", "+0000", "ETC/UTC", "-00:00"])

/** How a column's zone is written: the same two bytes for every value, or a region's offset at each value's instant. */
export type ZoneEncoding =
  | { readonly _tag: "Fixed"; readonly bytes: readonly [number, number] }
  | { readonly _tag: "Offset"; readonly region: string }

const offsetBytes = (minutes: number): [number, number] => {
  const sign = minutes < 0 ? -1 : 1
  const m = Math.abs(minutes)
  return [20 + sign * Math.floor(m / 60), 60 + sign * (m % 60)]
}

const formats = new Map<string, Intl.DateTimeFormat>()

/** Offset east of UTC in minutes of the IANA region `region` at the instant `utcMillis`. */
export const regionOffsetMinutes = (region: string, utcMillis: number): number => {
  let format = formats.get(region)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: region, timeZoneName: "longOffset" })
    formats.set(region, format)
  }
  const name = format.formatToParts(new Date(utcMillis)).find((p) => p.type === "timeZoneName")?.value ?? "GMT"
  const o = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
  return o === null ? 0 : (o[1] === "-" ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3]))
}

/**
 * How values of an Arrow timestamp zone are written: UTC as +00:00, an offset (`+05:30`) as itself, a region with a
 * known id as that id, another region the time zone database knows as its offset at each value's instant; undefined
 * for a zone that is none of these.
 *
 * @category datetime
 * @since 0.1.0
 */
export const zoneEncoding = (timezone: string): ZoneEncoding | undefined => {
  const zone = timezone.trim()
  if (UTC_NAMES.has(zone.toUpperCase())) return { _tag: "Fixed", bytes: [20, 60] }
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)
  if (offset !== null) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3])
    return minutes > 14 * 60 ? undefined : { _tag: "Fixed", bytes: offsetBytes(offset[1] === "-" ? -minutes : minutes) }
  }
  const id = ORACLE_REGION_IDS.get(zone.toUpperCase())
  if (id !== undefined) return { _tag: "Fixed", bytes: [0x80 | (id >> 6), (id & 0x3f) << 2] }
  try {
    return { _tag: "Offset", region: Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone }
  } catch {
    return undefined
  }
}

/** The two zone bytes of a value at the instant `utcSeconds`. @category datetime @since 0.1.0 */
export const zoneBytesAt = (encoding: ZoneEncoding, utcSeconds: number): readonly [number, number] =>
  encoding._tag === "Fixed" ? encoding.bytes : offsetBytes(regionOffsetMinutes(encoding.region, utcSeconds * 1000))

/**
 * The offset east of UTC in minutes that two zone bytes give at the instant `utcMillis` (a region's at that
 * instant; 0 for a region id not in the table).
 *
 * @category datetime
 * @since 0.1.0
 */
export const offsetOfZoneBytes = (b0: number, b1: number, utcMillis: number): number => {
  if ((b0 & 0x80) === 0) return (b0 - 20) * 60 + (b1 - 60)
  const region = ORACLE_REGION_NAMES.get(((b0 & 0x7f) << 6) | (b1 >> 2))
  return region === undefined ? 0 : regionOffsetMinutes(region, utcMillis)
}

/**
 * The refusal of a timestamp field whose zone is neither an offset nor a region the time zone database knows.
 *
 * @category datetime
 * @since 0.1.0
 */
export const unknownZone = (field: Arrow.Field, timezone: string): AdbcError =>
  invalidArgument(
    `field ${JSON.stringify(field.name)}: time zone ${JSON.stringify(timezone)} is not an offset (+05:30) or a region the time zone database knows (Europe/Berlin)`
  )
