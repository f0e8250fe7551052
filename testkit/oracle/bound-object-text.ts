/**
 * The stored text of a DbObject bind: the value tree the client pickled (pickle.ts unpackImage), with its scalar
 * attributes and elements written as a constructor call writes them (named-types.ts), so that attribute access,
 * comparisons, ORDER BY and fetching read an object the same way whether a bind or a constructor built it:
 * DATE and TIMESTAMP as DuckDB's text of a TIMESTAMP (`2024-01-02 03:04:05[.5]`), TIMESTAMP WITH TIME ZONE and WITH
 * LOCAL TIME ZONE as the server's zoned text (`2024-01-02 03:04:05.000000000+02:00`), RAW as hex digits, a finite
 * BINARY_DOUBLE / BINARY_FLOAT as a JSON number.
 */
import { datetimeOfOracle, datetimeText } from "./datetime.ts"
import { decimalOf, numberText } from "./decimal.ts"
import { toExtendedJson } from "./extended-json.ts"
import type { JsonNode } from "./oson.ts"
import { type Member, type NamedType, unpackImage } from "./pickle.ts"
import { withTypeTag } from "./type-inheritance.ts"
import type { OraType } from "./types.ts"

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** DuckDB's text of a TIMESTAMP (fraction without trailing zeros), or the server's own text beyond DuckDB's range or precision. */
const wallText = (bytes: Uint8Array, withFraction: boolean): string => {
  const full = datetimeText(datetimeOfOracle(bytes.subarray(0, 11)))
  const [date, time] = full.split(" ") as [string, string]
  if (date.startsWith("-") || date.startsWith("0000")) return full
  const [hms, fraction] = time.split(".") as [string, string]
  if (withFraction && fraction.slice(6) !== "000") return full
  const kept = withFraction ? fraction.slice(0, 6).replace(/0+$/, "") : ""
  return `${date} ${hms}${kept === "" ? "" : `.${kept}`}`
}

/** A scalar attribute's or element's value as a constructor call stores it. */
const scalarForm = (t: OraType, v: JsonNode, dbTzOffsetMinutes: number): JsonNode => {
  switch (v.kind) {
    case "date":
    case "timestamp":
      if (t.kind === "timestampltz") return { kind: "string", value: datetimeText({ wall: datetimeOfOracle(v.bytes).wall, offsetMinutes: dbTzOffsetMinutes }) }
      return { kind: "string", value: wallText(v.bytes, t.kind !== "date") }
    case "timestamptz":
      return { kind: "string", value: datetimeText(datetimeOfOracle(v.bytes)) }
    case "binary":
      return { kind: "string", value: Buffer.from(v.bytes).toString("hex").toUpperCase() }
    case "number":
      // as a constructor's ora_number stores it (JSON text of its TO_CHAR form), so that a bound object and a
      // constructed one with the same attributes have the same text and compare equal
      return t.kind === "number" ? { kind: "string", value: numberText(decimalOf(v.text)) } : v
    case "double":
    case "float":
      return Number.isFinite(v.value) ? { kind: "number", text: String(v.value) } : v
    default:
      return v
  }
}

const memberForm = (m: Member, v: JsonNode, dbTz: number): JsonNode => (v.kind === "null" ? v : "named" in m ? valueForm(m.named, v, dbTz) : scalarForm(m.scalar, v, dbTz))

const valueForm = (t: NamedType, v: JsonNode, dbTz: number): JsonNode => {
  if (v.kind === "object" && t.element !== undefined) return { kind: "object", fields: v.fields.map(([k, x]) => [k, memberForm(t.element!, x, dbTz)] as const) }
  if (v.kind !== "array") return v
  if (t.kind !== "object") return t.element === undefined ? v : { kind: "array", items: v.items.map((x) => memberForm(t.element!, x, dbTz)) }
  // a trailing type element of a hierarchy's instance (type-inheritance.ts) is left as it is
  return { kind: "array", items: v.items.map((x, k) => (k < t.attributes.length ? memberForm(t.attributes[k]!.member, x, dbTz) : x)) }
}

/**
 * The stored text of a pickled bind `image` of `type`; TIMESTAMP WITH LOCAL TIME ZONE values arrive as the wall clock
 * of the database time zone (`dbTzOffsetMinutes` east of UTC), as pickle.ts sends them.
 */
export const boundObjectText = (type: NamedType, image: Uint8Array, dbTzOffsetMinutes: number): string =>
  toExtendedJson(withTypeTag(type, valueForm(type, unpackImage(type, image), dbTzOffsetMinutes)))
