/**
 * The extended JSON text the server keeps in DuckDB for JSON values, so that every OSON scalar type survives the round
 * trip, and its conversion from and to OSON images (oson.ts).
 *
 * Oracle's extended JSON text (JSON_SERIALIZE ... EXTENDED; "Textual JSON Objects That Represent Extended
 * Scalar Values", https://docs.oracle.com/en-us/iaas/autonomous-database-serverless/doc/autonomous-json-load-ejson.html):
 * `{"$oracleDate": "..."}`, `{"$oracleTimestamp": ...}`, `{"$oracleTimestampTZ": ...}`, `{"$rawhex": ...}`,
 * `{"$numberDouble": ...}`, `{"$numberFloat": ...}`, `{"$intervalDaySecond": ...}`, `{"$intervalYearMonth": ...}`.
 * Numbers keep their exact decimal text (Oracle NUMBER, up to 40 digits).
 */
import { civilFromOracle } from "./datetime.ts"
import { decodeOson, encodeOson, type JsonNode } from "./oson.ts"

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** ISO 8601 text of Oracle DATE/TIMESTAMP[/TZ] bytes (fraction with 9 digits, trailing zeros dropped). */
const isoOfOracle = (bytes: Uint8Array, withFraction: boolean): string => {
  const zoned = bytes.length >= 13 ? Buffer.from(bytes) : undefined
  // a TIMESTAMP WITH TIME ZONE is written in its own offset's local time
  if (zoned !== undefined) shiftMinutes(zoned, (bytes[11]! - 20) * 60 + (bytes[12]! - 60))
  const c = civilFromOracle(zoned ?? bytes)
  const year = c.year < 0 ? `-${pad(-c.year, 4)}` : pad(c.year, 4)
  let s = `${year}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`
  if (withFraction && c.nanos > 0) s += `.${pad(c.nanos, 9).replace(/0+$/, "")}`
  if (bytes.length >= 13) {
    const h = bytes[11]! - 20
    const m = bytes[12]! - 60
    s += h === 0 && m === 0 ? "Z" : `${h < 0 || m < 0 ? "-" : "+"}${pad(Math.abs(h))}:${pad(Math.abs(m))}`
  }
  return s
}

/**
 * Oracle DATE (7), TIMESTAMP (11) or TIMESTAMP WITH TIME ZONE (13) bytes of ISO 8601 text (or DuckDB's text form, with
 * a blank between date and time); undefined if malformed.
 */
export const oracleDateBytes = (text: string, length: 7 | 11 | 13): Buffer | undefined => {
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text)
  if (m === null) return undefined
  const year = Number(m[1])
  const b = Buffer.alloc(length)
  b[0] = Math.floor(year / 100) + 100
  b[1] = (((year % 100) + 100) % 100) + 100
  b[2] = Number(m[2])
  b[3] = Number(m[3])
  b[4] = Number(m[4] ?? 0) + 1
  b[5] = Number(m[5] ?? 0) + 1
  b[6] = Number(m[6] ?? 0) + 1
  if (length >= 11) b.writeUInt32BE(Number((m[7] ?? "").padEnd(9, "0")), 7)
  if (length === 13) {
    const z = m[8] ?? "Z"
    const sign = z.startsWith("-") ? -1 : 1
    // Z, +HH, +HHMM or +HH:MM
    const hours = z === "Z" ? 0 : Number(z.slice(1, 3))
    const minutes = z.length > 3 ? Number(z.slice(-2)) : 0
    b[11] = sign * hours + 20
    b[12] = sign * minutes + 60
    // the date and time of a TIMESTAMP WITH TIME ZONE travel in UTC, the offset beside them
    shiftMinutes(b, -sign * (hours * 60 + minutes))
  }
  return b
}

/** Moves the date and time fields (first 7 bytes) of Oracle DATE/TIMESTAMP bytes by `minutes`. */
const shiftMinutes = (b: Buffer, minutes: number): void => {
  if (minutes === 0) return
  const c = civilFromOracle(b)
  const d = new Date(0)
  d.setUTCFullYear(c.year, c.month - 1, c.day)
  d.setUTCHours(c.hour, c.minute + minutes, c.second)
  const year = d.getUTCFullYear()
  b[0] = Math.floor(year / 100) + 100
  b[1] = (((year % 100) + 100) % 100) + 100
  b[2] = d.getUTCMonth() + 1
  b[3] = d.getUTCDate()
  b[4] = d.getUTCHours() + 1
  b[5] = d.getUTCMinutes() + 1
  b[6] = d.getUTCSeconds() + 1
}

/** ISO 8601 duration of INTERVAL YEAR TO MONTH bytes, e.g. P1Y2M or -P3M. */
const isoOfYm = (b: Uint8Array): string => {
  const years = Buffer.from(b).readUInt32BE(0) - 0x80000000
  const months = b[4]! - 60
  const neg = years < 0 || months < 0
  return `${neg ? "-" : ""}P${Math.abs(years)}Y${Math.abs(months)}M`
}

/** ISO 8601 duration of INTERVAL DAY TO SECOND bytes, e.g. P1DT2H3M4.5S. */
const isoOfDs = (bytes: Uint8Array): string => {
  const b = Buffer.from(bytes)
  const days = b.readUInt32BE(0) - 0x80000000
  const h = b[4]! - 60
  const mi = b[5]! - 60
  const s = b[6]! - 60
  const ns = b.readUInt32BE(7) - 0x80000000
  const neg = days < 0 || h < 0 || mi < 0 || s < 0 || ns < 0
  const fraction = ns === 0 ? "" : `.${pad(Math.abs(ns), 9).replace(/0+$/, "")}`
  return `${neg ? "-" : ""}P${Math.abs(days)}DT${Math.abs(h)}H${Math.abs(mi)}M${Math.abs(s)}${fraction}S`
}

const ymOfIso = (text: string): Buffer | undefined => {
  const m = /^(-?)P(?:(\d+)Y)?(?:(\d+)M)?$/.exec(text)
  if (m === null) return undefined
  const sign = m[1] === "-" ? -1 : 1
  const b = Buffer.alloc(5)
  b.writeUInt32BE(0x80000000 + sign * Number(m[2] ?? 0))
  b[4] = 60 + sign * Number(m[3] ?? 0)
  return b
}

const dsOfIso = (text: string): Buffer | undefined => {
  const m = /^(-?)P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,9}))?S)?)?$/.exec(text)
  if (m === null) return undefined
  const sign = m[1] === "-" ? -1 : 1
  const b = Buffer.alloc(11)
  b.writeUInt32BE(0x80000000 + sign * Number(m[2] ?? 0))
  b[4] = 60 + sign * Number(m[3] ?? 0)
  b[5] = 60 + sign * Number(m[4] ?? 0)
  b[6] = 60 + sign * Number(m[5] ?? 0)
  b.writeUInt32BE(0x80000000 + sign * Number((m[6] ?? "").padEnd(9, "0")), 7)
  return b
}

/** Doubles as extended JSON text: JSON has no NaN or infinities, so those are strings as in Oracle's extended form. */
const doubleText = (v: number): string => (Number.isFinite(v) ? String(v) : JSON.stringify(Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity"))

/** Serializes a JSON value as Oracle extended JSON text (compact), numbers with their exact decimal digits. */
export const toExtendedJson = (n: JsonNode): string => {
  switch (n.kind) {
    case "null":
      return "null"
    case "boolean":
      return n.value ? "true" : "false"
    case "string":
      return JSON.stringify(n.value)
    case "number":
      return n.text
    case "double":
      return `{"$numberDouble":${doubleText(n.value)}}`
    case "float":
      return `{"$numberFloat":${doubleText(n.value)}}`
    case "date":
      return `{"$oracleDate":"${isoOfOracle(n.bytes, false)}"}`
    case "timestamp":
      return `{"$oracleTimestamp":"${isoOfOracle(n.bytes, true)}"}`
    case "timestamptz":
      return `{"$oracleTimestampTZ":"${isoOfOracle(n.bytes, true)}"}`
    case "binary":
      return `{"$rawhex":"${Buffer.from(n.bytes).toString("hex").toUpperCase()}"}`
    case "intervalym":
      return `{"$intervalYearMonth":"${isoOfYm(n.bytes)}"}`
    case "intervalds":
      return `{"$intervalDaySecond":"${isoOfDs(n.bytes)}"}`
    case "array":
      return `[${n.items.map(toExtendedJson).join(",")}]`
    case "object":
      return `{${n.fields.map(([k, v]) => `${JSON.stringify(k)}:${toExtendedJson(v)}`).join(",")}}`
  }
}

/** A parsed number literal: its source text, kept exactly. */
class NumberLiteral {
  constructor(readonly text: string) {}
}

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown

/**
 * Parses (extended) JSON text, keeping number literals' exact text (JSON.parse source text access, Node 21+), and
 * turning recognised extended scalar objects into the OSON scalar types.
 */
export const fromExtendedJson = (text: string): JsonNode => {
  const reviver: Reviver = (_key, value, context) => (typeof value === "number" && context?.source !== undefined ? new NumberLiteral(context.source) : value)
  return nodeOf(JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown))
}

const numberText = (v: unknown): string => (v instanceof NumberLiteral ? v.text : String(v))

const extendedScalar = (key: string, v: unknown): JsonNode | undefined => {
  const text = typeof v === "string" ? v : v instanceof NumberLiteral ? v.text : undefined
  if (text === undefined) return undefined
  const ieee = () => (text === "NaN" ? NaN : text === "Infinity" ? Infinity : text === "-Infinity" ? -Infinity : Number(text))
  switch (key) {
    case "$numberDecimal":
      return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? { kind: "number", text } : undefined
    case "$numberDouble":
      return { kind: "double", value: ieee() }
    case "$numberFloat":
      return { kind: "float", value: ieee() }
    case "$oracleDate": {
      const bytes = oracleDateBytes(text, 7)
      return bytes === undefined ? undefined : { kind: "date", bytes }
    }
    case "$oracleTimestamp": {
      const bytes = oracleDateBytes(text, 11)
      return bytes === undefined ? undefined : { kind: "timestamp", bytes }
    }
    case "$oracleTimestampTZ": {
      const bytes = oracleDateBytes(text, 13)
      return bytes === undefined ? undefined : { kind: "timestamptz", bytes }
    }
    case "$rawhex":
      return /^([0-9a-fA-F]{2})*$/.test(text) ? { kind: "binary", bytes: Buffer.from(text, "hex") } : undefined
    case "$binary":
      return { kind: "binary", bytes: Buffer.from(text, "base64") }
    case "$intervalYearMonth": {
      const bytes = ymOfIso(text)
      return bytes === undefined ? undefined : { kind: "intervalym", bytes }
    }
    case "$intervalDaySecond": {
      const bytes = dsOfIso(text)
      return bytes === undefined ? undefined : { kind: "intervalds", bytes }
    }
    default:
      return undefined
  }
}

const nodeOf = (v: unknown): JsonNode => {
  if (v === null) return { kind: "null" }
  if (typeof v === "boolean") return { kind: "boolean", value: v }
  if (typeof v === "string") return { kind: "string", value: v }
  if (v instanceof NumberLiteral || typeof v === "number") return { kind: "number", text: numberText(v) }
  if (Array.isArray(v)) return { kind: "array", items: v.map(nodeOf) }
  const entries = Object.entries(v as Record<string, unknown>)
  if (entries.length === 1) {
    const [k, inner] = entries[0]!
    const scalar = k.startsWith("$") ? extendedScalar(k, inner) : undefined
    if (scalar !== undefined) return scalar
  }
  return { kind: "object", fields: entries.map(([k, x]) => [k, nodeOf(x)] as const) }
}

/** OSON image of stored JSON text (text that is not JSON becomes a JSON string, as the column held it). */
export const osonOfStoredJson = (text: string): Buffer => {
  let node: JsonNode
  try {
    node = fromExtendedJson(text)
  } catch {
    node = { kind: "string", value: text }
  }
  return encodeOson(node)
}

/** The text stored for an OSON image received from a client; null for JSON null, as the client sends SQL NULL so. */
export const storedJsonOfOson = (image: Uint8Array): string | null => {
  const node = decodeOson(image)
  return node.kind === "null" ? null : toExtendedJson(node)
}
