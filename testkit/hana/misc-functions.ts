/**
 * More HANA scalar functions DuckDB has no namesake for, as the SAP HANA SQL Reference describes each
 * (SAP-docs/sap-hana-cloud-hana-database, docs/sql-ref/010-SQL-Reference/011-SQL-Functions):
 *
 * - SYSUUID is a new 16-byte VARBINARY UUID on every call ("SYSUUID Function (Miscellaneous)"; sql-rewrite.ts's
 *   special values map the bare word onto `hana_sysuuid()`).
 * - BINTOSTR(b) is the text of a VARBINARY (a string argument is read as hex digits, as the reference's
 *   BINTOSTR('416E74') = 'Ant' shows); STRTOBIN(s, codepage) the bytes of s in that code page (UTF-8, CESU-8, UTF-16BE,
 *   UTF-16LE, ISO-8859-1 / LATIN1, US-ASCII here) ("BINTOSTR Function (String)", "STRTOBIN Function (String)").
 * - NEXT_DAY(d) is the DATE after d ("NEXT_DAY Function (Datetime)"), counted as HANA counts days across 1582.
 * - UTCTOLOCAL(t [, tz [, dataset]]) and LOCALTOUTC(t [, tz [, dataset]]) move a TIMESTAMP between UTC and a time
 *   zone's local time (IANA names and abbreviations such as 'EST', from the platform's data; no tz means the
 *   server's own zone; dataset 'platform' or 'sap'); an unknown zone fails with 1843 "timezone not found", another
 *   dataset with 1841 ("UTCTOLOCAL Function (Datetime)", "LOCALTOUTC Function (Datetime)"; "SQL Error Codes").
 * - WIDTH_BUCKET(e, min, max, n) is the INTEGER bucket 1 … n of e in n equal parts of [min, max), 0 below min and
 *   n + 1 from max on ("WIDTH_BUCKET Function (Miscellaneous)"); numeric e only here.
 * - BITCOUNT(x) is the INTEGER count of set bits of an integer or a VARBINARY ("BITCOUNT Function (Numeric)").
 * - BITOR(a, b), BITXOR(a, b) and BITNOT(a) are the bitwise OR, XOR and NOT of integers, typed as the argument, or
 *   (OR, XOR) of two VARBINARY values of one length, byte by byte ("BITOR Function (Numeric)": BITOR(255, 123) is 255,
 *   "BITXOR Function (Numeric)": 132, "BITNOT Function (Numeric)": BITNOT(255) is -256); values of different lengths
 *   fail with 266 as BITAND's do. BITSET(b, start, n) / BITUNSET(b, start, n) set / clear n bits of a VARBINARY from
 *   the 1-based bit start, counted from the first byte's highest bit (a string is read as hex digits: BITSET('0000',
 *   1, 3) is E000, BITUNSET('ffff', 1, 3) is 1FFF; "BITSET Function (Numeric)", "BITUNSET Function (Numeric)").
 * - ESCAPE_SINGLE_QUOTES(s) / ESCAPE_DOUBLE_QUOTES(s) double every `'` / `"` ("ESCAPE_SINGLE_QUOTES Function
 *   (Security)", "ESCAPE_DOUBLE_QUOTES Function (Security)").
 * - MAP(e, s1, r1 [, s2, r2 …] [, default]) is the result of the first search value equal to e, else the default,
 *   else NULL ("MAP Function (Miscellaneous)"); it is rewritten to `CASE e WHEN s1 THEN r1 … ELSE default END`.
 * - ROUND(x, pos, mode) rounds with ROUND_HALF_UP (the default), ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_UP,
 *   ROUND_DOWN, ROUND_CEILING or ROUND_FLOOR, and keeps x's type (the reference's ROUND(1234.1234, 1) is
 *   1234.1000; "ROUND Function (Numeric)"); a DECIMAL rounds exactly on its digits.
 */
import { BLOB, BOOLEAN, INTEGER, TIMESTAMP, VARCHAR, blobValueFromBytes, timestampValue } from "@duckdb/node-api"
import type { DuckDBBlobValue, DuckDBConnection, DuckDBScalarFunction, DuckDBTimestampValue } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { HanaError, INCONSISTENT_DATATYPE, INVALID_ARGUMENT, INVALID_TZ_DATASET, TIMEZONE_NOT_FOUND } from "./errors.ts"
import { matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { columnName, unaliasedItem } from "./call-rewrites.ts"

/** HANA function names and the session macros that implement them. */
export const MISC_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ["BINTOSTR", "hana_bintostr"],
  ["STRTOBIN", "hana_strtobin"],
  ["NEXT_DAY", "hana_next_day"],
  ["UTCTOLOCAL", "hana_utctolocal"],
  ["LOCALTOUTC", "hana_localtoutc"],
  ["WIDTH_BUCKET", "hana_width_bucket"],
  ["BITCOUNT", "hana_bitcount"],
  ["BITOR", "hana_bitor"],
  ["BITXOR", "hana_bitxor"],
  ["BITNOT", "hana_bitnot"],
  ["BITSET", "hana_bitset"],
  ["BITUNSET", "hana_bitunset"],
  ["ESCAPE_SINGLE_QUOTES", "hana_escape_single_quotes"],
  ["ESCAPE_DOUBLE_QUOTES", "hana_escape_double_quotes"]
]

/** The session macros behind {@link MISC_FUNCTIONS} and SYSUUID (TEMP macros, created at login with the others). */
export const MISC_FUNCTION_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_sysuuid() AS unhex(replace(CAST(gen_random_uuid() AS VARCHAR), '-', ''))",
  "CREATE OR REPLACE TEMP MACRO hana_bintostr(b) AS decode(CASE WHEN typeof(b) = 'VARCHAR' THEN unhex(CAST(b AS VARCHAR)) ELSE CAST(b AS BLOB) END)",
  "CREATE OR REPLACE TEMP MACRO hana_next_day(d) AS hana_shift_days(hana_as(d, CAST(NULL AS DATE)), 1)",
  "CREATE OR REPLACE TEMP MACRO hana_utctolocal(t, tz := '', ds := 'platform') AS hana_ld(hana_tz_convert(hana_ticks_ts(hana_ld(t)), tz, ds, TRUE))",
  "CREATE OR REPLACE TEMP MACRO hana_localtoutc(t, tz := '', ds := 'platform') AS hana_ld(hana_tz_convert(hana_ticks_ts(hana_ld(t)), tz, ds, FALSE))",
  "CREATE OR REPLACE TEMP MACRO hana_width_bucket(e, mn, mx, n) AS CASE WHEN CAST(n AS BIGINT) < 1 OR mn = mx " +
    `THEN error('${INVALID_ARGUMENT}WIDTH_BUCKET needs a positive number of buckets and two different bounds') ` +
    "WHEN mn < mx AND e < mn OR mn > mx AND e > mn THEN 0 WHEN mn < mx AND e >= mx OR mn > mx AND e <= mx THEN CAST(n AS INTEGER) + 1 " +
    "ELSE CAST(floor(CAST(e - mn AS DOUBLE) * CAST(n AS DOUBLE) / CAST(mx - mn AS DOUBLE)) AS INTEGER) + 1 END",
  // Told by typeof, not by typed macro overloads, which DuckDB picks before it knows an aggregate's type (longdate.ts);
  // every branch binds for every type (a cast that cannot be made fails only if its branch runs).
  "CREATE OR REPLACE TEMP MACRO hana_bitcount(x) AS CASE typeof(x) " +
    "WHEN 'BLOB' THEN (CASE WHEN octet_length(CAST(x AS BLOB)) = 0 THEN 0 ELSE CAST(bit_count(CAST(CAST(x AS BLOB) AS BIT)) AS INTEGER) END) " +
    ["UTINYINT", "SMALLINT", "INTEGER", "BIGINT"].map((t) => `WHEN '${t}' THEN CAST(bit_count(CAST(x AS ${t})) AS INTEGER) `).join("") +
    "WHEN 'HUGEINT' THEN CAST(bit_count(CAST(x AS BIGINT)) AS INTEGER) WHEN '\"NULL\"' THEN CAST(NULL AS INTEGER) " +
    `ELSE error('${INCONSISTENT_DATATYPE}BIT_COUNT does not take arguments of these types') END`,
  ...([["OR", "|"], ["XOR", "xor"]] as const).map(([name, op]) => {
    const apply = (a: string, b: string) => (op === "|" ? `${a} | ${b}` : `xor(${a}, ${b})`)
    return `CREATE OR REPLACE TEMP MACRO hana_bit${name.toLowerCase()}(a BLOB, b BLOB) AS CASE WHEN octet_length(a) <> octet_length(b) THEN ` +
      `error('${INCONSISTENT_DATATYPE}BIT${name} of VARBINARY values of different lengths (' || octet_length(a) || ' and ' || octet_length(b) || ' bytes)') ` +
      `WHEN octet_length(a) = 0 THEN a ELSE CAST(${apply("CAST(a AS BIT)", "CAST(b AS BIT)")} AS BLOB) END, (a, b) AS ${apply("a", "b")}`
  }),
  "CREATE OR REPLACE TEMP MACRO hana_bitnot(a) AS ~a",
  ...(["set", "unset"] as const).map((name) =>
    `CREATE OR REPLACE TEMP MACRO hana_bit${name}(t VARCHAR, s, n) AS hana_bit_fill(unhex(t), CAST(s AS INTEGER), CAST(n AS INTEGER), ${name === "set" ? "TRUE" : "FALSE"}), ` +
    `(t, s, n) AS hana_bit_fill(CAST(t AS BLOB), CAST(s AS INTEGER), CAST(n AS INTEGER), ${name === "set" ? "TRUE" : "FALSE"})`),
  "CREATE OR REPLACE TEMP MACRO hana_escape_single_quotes(s) AS replace(CAST(s AS VARCHAR), '''', '''''')",
  "CREATE OR REPLACE TEMP MACRO hana_escape_double_quotes(s) AS replace(CAST(s AS VARCHAR), '\"', '\"\"')",
  "CREATE OR REPLACE TEMP MACRO hana_round_mode(x, pos, m) AS cast_to_type(hana_round_text(CAST(x AS VARCHAR), CAST(pos AS INTEGER), m), x)"
]

const CODEPAGES: Readonly<Record<string, (s: string) => Uint8Array>> = {
  "UTF-8": (s) => Buffer.from(s, "utf8"),
  UTF8: (s) => Buffer.from(s, "utf8"),
  // CESU-8 differs from UTF-8 only for characters beyond U+FFFF (two 3-byte surrogates)
  "CESU-8": (s) => Buffer.from(s.split("").flatMap((ch) => {
    const u = ch.charCodeAt(0)
    return u >= 0xd800 && u <= 0xdfff ? [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)] : [...Buffer.from(ch, "utf8")]
  })),
  "UTF-16LE": (s) => Buffer.from(s, "utf16le"),
  "UTF-16BE": (s) => Buffer.from(s, "utf16le").swap16(),
  "ISO-8859-1": (s) => Buffer.from(s, "latin1"),
  LATIN1: (s) => Buffer.from(s, "latin1"),
  "US-ASCII": (s) => Buffer.from(s, "ascii"),
  ASCII: (s) => Buffer.from(s, "ascii")
}

const strtobin = (s: string, codepage: string): Uint8Array => {
  const encode = CODEPAGES[codepage.toUpperCase()]
  if (encode === undefined) throw new Error(`${INVALID_ARGUMENT}unknown codepage ${codepage}`)
  return encode(s)
}

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatter = (tz: string): Intl.DateTimeFormat => {
  let f = formatters.get(tz)
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", { timeZone: tz === "" ? undefined : tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" })
    } catch {
      throw new Error(`${TIMEZONE_NOT_FOUND}${tz}`)
    }
    formatters.set(tz, f)
  }
  return f
}

/** The zone's offset from UTC, in milliseconds, at the instant `utcMs`. */
const offsetAt = (tz: string, utcMs: number): number => {
  const p = Object.fromEntries(formatter(tz).formatToParts(new Date(utcMs)).map((x) => [x.type, Number(x.value)]))
  const wall = new Date(0)
  wall.setUTCFullYear(p.year!, p.month! - 1, p.day!)
  wall.setUTCHours(p.hour!, p.minute!, p.second!, 0)
  return wall.getTime() - Math.floor(utcMs / 1000) * 1000
}

/** `micros` (a wall clock) moved from UTC to the zone's local time, or back. */
const tzConvert = (micros: bigint, tz: string, dataset: string, toLocal: boolean): bigint => {
  if (!["PLATFORM", "SAP"].includes(dataset.toUpperCase())) throw new Error(`${INVALID_TZ_DATASET}${dataset}`)
  const ms = Number(micros / 1000n)
  let shift: number
  if (toLocal) shift = offsetAt(tz, ms)
  else {
    const guess = ms - offsetAt(tz, ms)
    shift = offsetAt(tz, guess)
    shift = -offsetAt(tz, ms - shift)
  }
  return micros + BigInt(shift) * 1000n
}

/** The decimal text `text` rounded to `pos` places after the point (before it when negative) in HANA's `mode`. */
export const roundText = (text: string, pos: number, mode: string): string => {
  let plain = text
  if (/[eE]|inf|nan/i.test(plain)) {
    const n = Number(plain)
    if (!Number.isFinite(n)) return plain
    plain = Math.abs(n) >= 1e21 ? BigInt(n).toString() : n.toFixed(20)
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(plain)
  if (m === null) throw new Error(`${INVALID_ARGUMENT}ROUND of ${text}`)
  const negative = m[1] === "-"
  const fraction = m[3] ?? ""
  if (pos >= fraction.length) return text
  const digits = BigInt((m[2] ?? "") + fraction || "0")
  const divisor = 10n ** BigInt(fraction.length - pos)
  let q = digits / divisor
  const twice = (digits % divisor) * 2n
  const rest = twice > 0n
  const up =
    mode === "HALF_UP" ? twice >= divisor
    : mode === "HALF_DOWN" ? twice > divisor
    : mode === "HALF_EVEN" ? twice > divisor || (twice === divisor && q % 2n === 1n)
    : mode === "UP" ? rest
    : mode === "CEILING" ? rest && !negative
    : mode === "FLOOR" ? rest && negative
    : false
  if (up) q++
  const sign = negative && q !== 0n ? "-" : ""
  if (pos <= 0) return sign + (q === 0n ? "0" : q.toString() + "0".repeat(-pos))
  const s = q.toString().padStart(pos + 1, "0")
  return `${sign}${s.slice(0, -pos)}.${s.slice(-pos)}`
}

/** `bytes` with `n` bits from the 1-based bit `start` (the first byte's highest bit is 1) set or cleared; bits past the end are ignored. */
const bitFill = (bytes: Uint8Array, start: number, n: number, set: boolean): Uint8Array => {
  const out = Uint8Array.from(bytes)
  for (let bit = Math.max(start, 1) - 1; bit < start - 1 + n && bit < out.length * 8; bit++) {
    const mask = 0x80 >> bit % 8
    out[bit >> 3] = set ? out[bit >> 3]! | mask : out[bit >> 3]! & ~mask
  }
  return out
}

/** Registers the scalar functions the macros above call. */
export const registerMiscFunctions = (connection: DuckDBConnection): void => {
  const functions: DuckDBScalarFunction[] = [
    fn("hana_strtobin", [VARCHAR, VARCHAR], BLOB, ([s, c]) => blobValueFromBytes(strtobin(String(s), String(c)))),
    fn("hana_tz_convert", [TIMESTAMP, VARCHAR, VARCHAR, BOOLEAN], TIMESTAMP, ([t, tz, ds, toLocal]) =>
      timestampValue(tzConvert((t as DuckDBTimestampValue).micros, String(tz), String(ds), toLocal === true))),
    fn("hana_bit_fill", [BLOB, INTEGER, INTEGER, BOOLEAN], BLOB, ([b, start, n, set]) =>
      blobValueFromBytes(bitFill((b as DuckDBBlobValue).bytes, Number(start), Number(n), set === true))),
    fn("hana_round_text", [VARCHAR, INTEGER, VARCHAR], VARCHAR, ([x, pos, m]) => roundText(String(x), Number(pos), String(m)))
  ]
  for (const f of functions) connection.registerScalarFunction(f)
}

const ROUNDING_MODES = new Set(["ROUND_HALF_UP", "ROUND_HALF_DOWN", "ROUND_HALF_EVEN", "ROUND_UP", "ROUND_DOWN", "ROUND_CEILING", "ROUND_FLOOR"])
/** Words before a `MAP(` that make it a name (a table or column), not the function. */
const NAME_POSITIONS = new Set(["TABLE", "INTO", "FROM", "JOIN", "UPDATE", "VIEW", "EXISTS", "REFERENCES", "FUNCTION", "PROCEDURE", "INDEX", "ON", "TYPE"])

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v

/**
 * Rewrites `MAP( … )` into a CASE and `ROUND(x, pos, ROUND_…)` into `hana_round_mode(x, pos, '…')`, the arguments in
 * their written order (so `?` parameters keep theirs); text without them is returned as it is.
 */
export const rewriteMiscCalls = (sql: string): string => {
  if (!/\bMAP\s*\(|ROUND_/i.test(sql)) return sql
  const tokens = sig(tokenize(sql))
  const text = (part: readonly Token[]): string => rewriteMiscCalls(sql.slice(part[0]!.pos!, part[part.length - 1]!.end!))
  let out = ""
  let at = 0
  for (let i = 0; i < tokens.length; i++) {
    const U = upper(tokens[i])
    if (!isOp(tokens[i + 1], "(") || isOp(tokens[i - 1], ".") || (U !== "MAP" && U !== "ROUND")) continue
    const close = matching(tokens, i + 1)
    const args = splitTopLevel(tokens.slice(i + 2, close))
    let call: string | undefined
    if (U === "MAP" && !NAME_POSITIONS.has(upper(tokens[i - 1]))) {
      if (args.length < 3 || args.some((a) => a.length === 0)) throw HanaError.syntax("MAP(<expression>, <search_value>, <result> [, …] [, <default_result>]) expected", tokens[i]!.pos ?? 0)
      const pairs = args.slice(1)
      const whens: string[] = []
      for (let k = 0; k + 1 < pairs.length; k += 2) whens.push(`WHEN ${text(pairs[k]!)} THEN ${text(pairs[k + 1]!)}`)
      const otherwise = pairs.length % 2 === 1 ? ` ELSE ${text(pairs[pairs.length - 1]!)}` : ""
      call = `CASE ${text(args[0]!)} ${whens.join(" ")}${otherwise} END`
    } else if (U === "ROUND" && args.length === 3 && args[2]!.length === 1 && ROUNDING_MODES.has(upper(args[2]![0]))) {
      if (args[0]!.length === 0 || args[1]!.length === 0) throw HanaError.syntax("ROUND(<number>, <position>, <rounding_mode>) expected", tokens[i]!.pos ?? 0)
      call = `hana_round_mode(${text(args[0]!)}, ${text(args[1]!)}, '${upper(args[2]![0]).slice("ROUND_".length)}')`
    }
    if (call === undefined) continue
    if (unaliasedItem(tokens, i, close)) call += ` AS ${columnName(sql.slice(tokens[i]!.pos!, tokens[close]!.end!))}`
    out += sql.slice(at, tokens[i]!.pos!) + call
    at = tokens[close]!.end!
    i = close
  }
  return out + sql.slice(at)
}
