/**
 * JSON_SERIALIZE's text (SQL Language Reference, "JSON_SERIALIZE"): a document (VARCHAR2, CLOB, BLOB or a JSON
 * column's stored extended JSON, oson.ts) as standard JSON text, Oracle's extended scalars (dates, doubles, RAW) as
 * strings or numbers. PRETTY indents by two blanks a level and writes `"key" : value`, as the reference's example
 * shows, and a non-empty array or object member value on the next line at the key's indentation (`"my_shapes" :` then
 * `[`: the JSON_SERIALIZE PRETTY output quoted in gaiansentience/practicalplsql,
 * scripts/articles/json/dynamic-unpivot-dataguide/design-1.2-test_jdoc-query.sql); ASCII writes non-ASCII characters as `\uXXXX` escapes (upper-case hex, as in the example's `\u20AC`);
 * ORDERED sorts each object's members by name. The result is limited to the RETURNING type's size: TRUNCATE cuts it,
 * otherwise a longer result fails with ORA-40478 (the default ERROR ON ERROR), as does text that is not JSON
 * (ORA-40441).
 */
import { BLOB, DuckDBBlobValue, INTEGER, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"
import { documentText, plainJson } from "./json-functions.ts"
import { fromExtendedJson } from "./extended-json.ts"
import type { JsonNode } from "./oson.ts"

/** A node with each object's members sorted by name (ORDERED). */
const ordered = (n: JsonNode): JsonNode => {
  if (n.kind === "array") return { ...n, items: n.items.map(ordered) }
  if (n.kind === "object") return { ...n, fields: [...n.fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, ordered(v)] as const) }
  return n
}

/** What follows a member's `:`: a line break to the key's indentation before a non-empty array or object, else a blank. */
const memberSeparator = (v: JsonNode, pad: string): string => ((v.kind === "array" && v.items.length > 0) || (v.kind === "object" && v.fields.length > 0) ? `\n${pad}` : " ")

/** PRETTY text of a node at indentation `depth`. */
const pretty = (n: JsonNode, depth: number): string => {
  const pad = "  ".repeat(depth + 1)
  const end = "  ".repeat(depth)
  if (n.kind === "array") return n.items.length === 0 ? "[]" : `[\n${n.items.map((v) => pad + pretty(v, depth + 1)).join(",\n")}\n${end}]`
  if (n.kind === "object") return n.fields.length === 0 ? "{}" : `{\n${n.fields.map(([k, v]) => `${pad}${JSON.stringify(k)} :${memberSeparator(v, pad)}${pretty(v, depth + 1)}`).join(",\n")}\n${end}}`
  return plainJson(n)
}

const asciiOnly = (text: string): string => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`)

/**
 * JSON_SERIALIZE of `doc` by `flags` (PRETTY, ASCII, ORDERED, TRUNCATE) within `maxBytes` (0: no limit, for CLOB and
 * BLOB results).
 */
export const serializeJson = (doc: string, flags: string, maxBytes: number): string => {
  let node: JsonNode
  try {
    node = fromExtendedJson(doc)
  } catch {
    throw new OraError(40441, "JSON syntax error")
  }
  if (flags.includes("ORDERED")) node = ordered(node)
  let text = flags.includes("PRETTY") ? pretty(node, 0) : plainJson(node)
  if (flags.includes("ASCII")) text = asciiOnly(text)
  if (maxBytes > 0 && Buffer.byteLength(text) > maxBytes) {
    if (!flags.includes("TRUNCATE")) throw new OraError(40478, `output value too large (maximum: ${maxBytes})`)
    let cut = Buffer.from(text).subarray(0, maxBytes).toString("utf8")
    // a character cut in two is left out
    if (cut.endsWith("\ufffd")) cut = cut.slice(0, -1)
    text = cut
  }
  return text
}


/** Registers `ora_json_serialize(doc, flags, maxBytes)` (VARCHAR) and `ora_json_serialize_blob` (its UTF-8 bytes). */
export const registerJsonSerialize = (connection: DuckDBConnection): void => {
  for (const doc of [VARCHAR, BLOB]) {
    connection.registerScalarFunction(fn("ora_json_serialize", [doc, VARCHAR, INTEGER], VARCHAR, ([d, f, m]) => serializeJson(documentText(d!), String(f), Number(m))))
    connection.registerScalarFunction(fn("ora_json_serialize_blob", [doc, VARCHAR, INTEGER], BLOB, ([d, f, m]) => new DuckDBBlobValue(Buffer.from(serializeJson(documentText(d!), String(f), Number(m))))))
  }
}
