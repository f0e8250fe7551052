/**
 * Oracle's time zone functions SYS_EXTRACT_UTC, FROM_TZ, TZ_OFFSET and NEW_TIME (SQL Language Reference, "SYS_EXTRACT_UTC",
 * "FROM_TZ", "TZ_OFFSET", "NEW_TIME"): {@link zoneFunctionSql} renders a call for DuckDB, {@link zoneFunctions} are the
 * scalar functions it calls (registered with datetime-functions.ts). Zoned values are the server's text datetimes
 * (datetime.ts); a TIMESTAMP or DATE argument where a zoned one is expected is read in the session time zone, as
 * Oracle converts it.
 */
import { TIMESTAMP, VARCHAR, timestampValue } from "@duckdb/node-api"
import type { DuckDBScalarFunction, DuckDBTimestampValue, DuckDBType } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { canonicalRegion, datetimeText, offsetText, parseDatetimeText, utcNanos, zoneOffsetMinutes } from "./datetime.ts"
import { OraError } from "./errors.ts"

/** The functions this module renders, with their argument count (each takes a fixed number). */
const ARITY: ReadonlyMap<string, number> = new Map([["SYS_EXTRACT_UTC", 1], ["FROM_TZ", 2], ["TZ_OFFSET", 1], ["NEW_TIME", 3]])

/** Whether an argument (by index) is a zoned text datetime (translate.ts textDatetimeAt). */
export type ZonedArgument = (k: number) => boolean

const SESSION_ZONE = "getvariable('ora_session_tz')"
const text = (sql: string): string => `CAST(${sql} AS VARCHAR)`

/**
 * The DuckDB SQL of the call `name(args)` (arguments already translated), or undefined when `name` is none of these
 * functions. ORA-00909 for a wrong number of arguments.
 *
 * - SYS_EXTRACT_UTC(datetime with time zone) → TIMESTAMP: the UTC wall clock of the instant (of a TIMESTAMP WITH TIME
 *   ZONE value with its nine fraction digits, described as TIMESTAMP(9); of others in microseconds).
 * - FROM_TZ(timestamp, zone) → TIMESTAMP WITH TIME ZONE: the wall clock in that zone (an offset or a region).
 * - TZ_OFFSET(zone) → VARCHAR2: the zone's offset now, `+hh:mi` (a region, an offset, SESSIONTIMEZONE, DBTIMEZONE).
 * - NEW_TIME(date, zone1, zone2) → DATE: the wall clock of zone1 as zone2 shows it, by the abbreviations NEW_TIME takes.
 * - GREATEST / LEAST with a zoned argument → TIMESTAMP WITH TIME ZONE: compared by instant (see {@link extremeSql}).
 * - NULLIF(a, b) with a zoned argument → TIMESTAMP WITH TIME ZONE: NULL when both are one instant, else `a`.
 */
export const zoneFunctionSql = (name: string, args: ReadonlyArray<string>, zoned: ZonedArgument): string | undefined => {
  if (name === "GREATEST" || name === "LEAST") return extremeSql(name, args, zoned)
  if (name === "NULLIF" && args.length === 2 && (zoned(0) || zoned(1))) {
    // NULL when the two are one instant (Oracle compares TIMESTAMP WITH TIME ZONE values so), else the first
    const key = (a: string) => `ora_tstz_key(${text(a)}, ${SESSION_ZONE})`
    return `ora_tstz(CASE WHEN ${key(args[0]!)} = ${key(args[1]!)} THEN NULL ELSE ${text(args[0]!)} END, ${SESSION_ZONE})`
  }
  const arity = ARITY.get(name)
  if (arity === undefined) return undefined
  if (args.length !== arity) throw new OraError(909, "invalid number of arguments")
  const [a = "NULL", b = "NULL", c = "NULL"] = args
  switch (name) {
    case "SYS_EXTRACT_UTC":
      // of a zoned text datetime every fraction digit (TIMESTAMP(9) text), of another datetime a TIMESTAMP
      return zoned(0) ? `ora_ts(${text(`ora_tstz_at(${text(a)}, '', '+00:00')`)})` : `ora_sys_extract_utc(${text(a)}, ${SESSION_ZONE})`
    case "FROM_TZ":
      // ora_tstz( ...) so that the translator knows the result as a zoned text datetime (translate.ts textDatetimeOfText)
      return `ora_tstz(ora_from_tz(${text(a)}, ${text(b)}), '')`
    case "TZ_OFFSET":
      return `ora_tz_offset(${text(a)})`
    default:
      return `CAST(ora_new_time(CAST(${a} AS TIMESTAMP), ${text(b)}, ${text(c)}) AS TIMESTAMP_S)`
  }
}

/**
 * GREATEST / LEAST of arguments one of which is a zoned value: the argument with the greatest / least instant, with its
 * own zone (the first of equal instants), every other argument read as a TIMESTAMP WITH TIME ZONE (a TIMESTAMP in the
 * session time zone), NULL when any argument is NULL ("If you call a SQL function with a null argument, then the SQL
 * function automatically returns null", SQL Language Reference, "Nulls in SQL Functions"; MySQL and Oracle return NULL
 * from GREATEST with a NULL argument, DuckDB's skips it). Undefined when no argument is zoned.
 */
const extremeSql = (name: "GREATEST" | "LEAST", args: ReadonlyArray<string>, zoned: ZonedArgument): string | undefined => {
  if (!args.some((_, k) => zoned(k))) return undefined
  const f = name === "GREATEST" ? "ora_tstz_greatest2" : "ora_tstz_least2"
  const [first = "NULL", ...rest] = args
  const folded = rest.reduce((acc, a) => `${f}(${text(acc)}, ${text(a)}, ${SESSION_ZONE})`, `ora_tstz(${text(first)}, ${SESSION_ZONE})`)
  // as ora_tstz(...), which the translator knows as a zoned value (translate.ts textDatetimeOfText)
  return `ora_tstz(${text(folded)}, '')`
}

/**
 * The zones NEW_TIME takes and their offsets in minutes ("NEW_TIME", SQL Language Reference: AST/ADT Atlantic,
 * BST/BDT Bering, CST/CDT Central, EST/EDT Eastern, GMT, HST/HDT Alaska-Hawaii, MST/MDT Mountain, NST Newfoundland,
 * PST/PDT Pacific, YST/YDT Yukon, each standard or daylight time).
 */
const NEW_TIME_ZONES: ReadonlyMap<string, number> = new Map([
  ["AST", -240], ["ADT", -180], ["BST", -660], ["BDT", -600], ["CST", -360], ["CDT", -300], ["EST", -300], ["EDT", -240],
  ["GMT", 0], ["HST", -600], ["HDT", -540], ["MST", -420], ["MDT", -360], ["NST", -210], ["PST", -480], ["PDT", -420],
  ["YST", -540], ["YDT", -480]
])

const OFFSET = /^([+-]?)(\d{1,2})(?::(\d{1,2}))?$/

/** Minutes east of UTC of an offset text (`+5:30`, `-08:00`, `7`), or undefined when `zone` is no offset. */
const offsetMinutesOf = (zone: string): number | undefined => {
  const m = OFFSET.exec(zone)
  return m === null ? undefined : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0))
}

/** ORA-01882 unless `zone` is an offset or a region the time zone database knows. */
const checkedZone = (zone: string): string => {
  const z = zone.trim()
  if (OFFSET.test(z) || canonicalRegion(z) !== undefined) return z
  throw new OraError(1882, "timezone region not found")
}

const newTimeOffset = (zone: string): number => {
  const minutes = NEW_TIME_ZONES.get(zone.trim().toUpperCase())
  if (minutes === undefined) throw new OraError(1857, "not a valid time zone")
  return minutes
}

/** The value of a text datetime argument read in `zone` when it has none; ORA-01861 for text that is no datetime. */
const zonedValue = (text: unknown, zone: unknown) => {
  const v = parseDatetimeText(String(text), String(zone))
  if (v === undefined) throw new OraError(1861, "literal does not match format string")
  return v
}

/** The scalar functions {@link zoneFunctionSql} calls; `zoned` is the type of zoned results (datetime-functions.ts ZONED_ALIAS). */
export const zoneFunctions = (zoned: DuckDBType): Array<DuckDBScalarFunction> => [
  fn("ora_tstz_greatest2", [VARCHAR, VARCHAR, VARCHAR], zoned, ([a, b, z]) => {
    const [x, y] = [zonedValue(a, z), zonedValue(b, z)]
    return datetimeText(utcNanos(y) > utcNanos(x) ? y : x)
  }),
  fn("ora_tstz_least2", [VARCHAR, VARCHAR, VARCHAR], zoned, ([a, b, z]) => {
    const [x, y] = [zonedValue(a, z), zonedValue(b, z)]
    return datetimeText(utcNanos(y) < utcNanos(x) ? y : x)
  }),
  fn("ora_sys_extract_utc", [VARCHAR, VARCHAR], TIMESTAMP, ([t, z]) => {
    const ns = utcNanos(zonedValue(t, z))
    return timestampValue(ns / 1000n - (ns < 0n && ns % 1000n !== 0n ? 1n : 0n))
  }),
  fn("ora_from_tz", [VARCHAR, VARCHAR], VARCHAR, ([t, z]) => {
    const wall = parseDatetimeText(String(t))
    if (wall === undefined) throw new OraError(1861, "literal does not match format string")
    const zone = checkedZone(String(z))
    const minutes = offsetMinutesOf(zone)
    const zoned = parseDatetimeText(`${datetimeText({ wall: wall.wall })} ${minutes === undefined ? zone : offsetText(minutes)}`)
    if (zoned === undefined) throw new OraError(1882, "timezone region not found")
    return datetimeText(zoned)
  }),
  fn("ora_tz_offset", [VARCHAR], VARCHAR, ([z]) => {
    const zone = checkedZone(String(z))
    return offsetText(offsetMinutesOf(zone) ?? zoneOffsetMinutes(zone, Date.now()))
  }),
  fn("ora_new_time", [TIMESTAMP, VARCHAR, VARCHAR], TIMESTAMP, ([d, from, to]) => {
    const shift = BigInt(newTimeOffset(String(to)) - newTimeOffset(String(from))) * 60_000_000n
    return timestampValue((d as DuckDBTimestampValue).micros + shift)
  })
]
