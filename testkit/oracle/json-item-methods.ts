/**
 * Item methods at the end of a SQL/JSON path step (`$.price.number()`, `$.tags.size()`, `$.items[*].count()`), as the
 * JSON Developer's Guide describes them ("SQL/JSON Path Expression Item Methods"): a method transforms the values the
 * path before it targets into scalars; a value the method cannot take is dropped ("If an item method conversion fails
 * for any reason, such as its argument being of the wrong type, then the path cannot be matched (it refers to no
 * data)", so JSON_VALUE's error handling applies and JSON_EXISTS is false). In lax mode an array is unwrapped and the
 * method applied to each element, except for `size()` and `type()`, which describe the array itself; the aggregate
 * methods (`count()`, `sum()`, `avg()`, `minNumber()`, `maxNumber()`, `minString()`, `maxString()`) take every
 * targeted value (arrays unwrapped) together and give one value.
 */
import { add, compare, decimalOf, divide, numberText, parseDecimal, roundTo, type Decimal } from "./decimal.ts"
import { fromExtendedJson, toExtendedJson } from "./extended-json.ts"
import type { JsonNode } from "./oson.ts"

const SCALAR_METHODS = ["abs", "boolean", "booleanOnly", "ceiling", "date", "double", "float", "floor", "length", "lower", "number", "numberOnly", "string", "stringOnly", "timestamp", "upper"]
const AGGREGATE_METHODS = ["count", "sum", "avg", "minNumber", "maxNumber", "minString", "maxString"]

/** The item method names a path may end a step with (case-sensitive, as the guide writes them). */
export const ITEM_METHODS: ReadonlySet<string> = new Set([...SCALAR_METHODS, ...AGGREGATE_METHODS, "size", "type"])

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?(Z|[+-]\d{2}:?\d{2})?$/

const numberNode = (d: Decimal): JsonNode => ({ kind: "number", text: numberText(d) })

/** A number's exact value: a JSON number, or a double / float when finite; `lax` also reads a numeric string. */
const decimalOfNode = (n: JsonNode, lax: boolean): Decimal | undefined => {
  if (n.kind === "number") return parseDecimal(n.text)
  if ((n.kind === "double" || n.kind === "float") && Number.isFinite(n.value)) return parseDecimal(String(n.value))
  return lax && n.kind === "string" ? parseDecimal(n.value.trim()) : undefined
}

/** A scalar's text as `string()` gives it: strings as they are, numbers and booleans as JSON writes them, datetimes in ISO 8601. */
const stringOf = (n: JsonNode): string | undefined => {
  switch (n.kind) {
    case "string":
      return n.value
    case "number":
      return n.text
    case "boolean":
      return n.value ? "true" : "false"
    case "array":
    case "object":
    case "null":
      return undefined
    default: {
      const text = toExtendedJson(n)
      const inner = /^\{"\$\w+":(.*)\}$/.exec(text)?.[1] ?? text
      return inner.startsWith('"') ? (JSON.parse(inner) as string) : inner
    }
  }
}

/** The Oracle JSON type name `type()` gives ("null", "boolean", "number", "string", "array", "object", "double", "float", "date", "timestamp", "timestamp with time zone", "binary", "daysecondInterval", "yearmonthInterval"). */
const typeName = (n: JsonNode): string => {
  switch (n.kind) {
    case "timestamptz":
      return "timestamp with time zone"
    case "intervalds":
      return "daysecondInterval"
    case "intervalym":
      return "yearmonthInterval"
    default:
      return n.kind
  }
}

/** A datetime node from an ISO 8601 string (date() keeps the day only, timestamp() the time of day too). */
const datetimeOf = (n: JsonNode, withTime: boolean): JsonNode | undefined => {
  if (n.kind === "date" || n.kind === "timestamp" || n.kind === "timestamptz") {
    if (withTime) return n
    const text = stringOf(n)?.slice(0, 10)
    return text === undefined ? undefined : fromExtendedJson(`{"$oracleDate":"${text}T00:00:00"}`)
  }
  if (n.kind !== "string") return undefined
  const m = ISO_DATE.exec(n.value.trim())
  if (m === null) return undefined
  const time = m[2] === undefined ? "00:00:00" : m[2].length === 5 ? `${m[2]}:00` : m[2]
  try {
    return withTime ? fromExtendedJson(`{"$oracleTimestamp":"${m[1]}T${time}"}`) : fromExtendedJson(`{"$oracleDate":"${m[1]}T00:00:00"}`)
  } catch {
    return undefined
  }
}

/** One scalar method on one value; undefined when the value does not fit the method. */
const applyScalar = (method: string, n: JsonNode): JsonNode | undefined => {
  switch (method) {
    case "abs":
    case "ceiling":
    case "floor": {
      const d = decimalOfNode(n, false)
      if (d === undefined) return undefined
      return numberNode(method === "abs" ? { ...d, negative: false } : roundTo(d, 0, method === "ceiling" ? "ceil" : "floor"))
    }
    case "number":
    case "numberOnly": {
      const d = decimalOfNode(n, method === "number")
      return d === undefined ? undefined : numberNode(d)
    }
    case "double":
    case "float": {
      const d = decimalOfNode(n, true)
      if (d === undefined) return undefined
      const value = Number(numberText(d))
      return { kind: method, value: method === "float" ? Math.fround(value) : value }
    }
    case "string":
    case "stringOnly": {
      if (method === "stringOnly" && n.kind !== "string") return undefined
      const text = stringOf(n)
      return text === undefined ? undefined : { kind: "string", value: text }
    }
    case "length":
    case "lower":
    case "upper": {
      if (n.kind !== "string") return undefined
      if (method === "length") return { kind: "number", text: String([...n.value].length) }
      return { kind: "string", value: method === "lower" ? n.value.toLowerCase() : n.value.toUpperCase() }
    }
    case "boolean":
    case "booleanOnly":
      if (n.kind === "boolean") return n
      if (method === "boolean" && n.kind === "string" && (n.value === "true" || n.value === "false")) return { kind: "boolean", value: n.value === "true" }
      return undefined
    case "date":
      return datetimeOf(n, false)
    case "timestamp":
      return datetimeOf(n, true)
    default:
      return undefined
  }
}

/** An aggregate method over every value (arrays unwrapped); undefined when it has nothing to aggregate. */
const applyAggregate = (method: string, values: ReadonlyArray<JsonNode>): JsonNode | undefined => {
  if (method === "count") return { kind: "number", text: String(values.length) }
  if (method === "minString" || method === "maxString") {
    const texts = values.flatMap((v) => (v.kind === "string" ? [v.value] : []))
    if (texts.length === 0) return undefined
    const pick = texts.reduce((a, b) => ((method === "minString" ? b < a : b > a) ? b : a))
    return { kind: "string", value: pick }
  }
  const numbers = values.flatMap((v) => {
    const d = decimalOfNode(v, false)
    return d === undefined ? [] : [d]
  })
  if (numbers.length === 0) return undefined
  if (method === "minNumber" || method === "maxNumber") return numberNode(numbers.reduce((a, b) => ((method === "minNumber" ? compare(b, a) < 0 : compare(b, a) > 0) ? b : a)))
  const total = numbers.reduce((a, b) => add(a, b))
  return numberNode(method === "sum" ? total : divide(total, decimalOf(String(numbers.length))))
}

/** The values item method `method` makes of the values `current` targeted (lax mode). */
export const applyItemMethod = (method: string, current: ReadonlyArray<JsonNode>): Array<JsonNode> => {
  if (method === "size") return current.map((n) => ({ kind: "number", text: String(n.kind === "array" ? n.items.length : 1) }))
  if (method === "type") return current.map((n) => ({ kind: "string", value: typeName(n) }))
  const unwrapped = current.flatMap((n) => (n.kind === "array" ? n.items : [n]))
  if (AGGREGATE_METHODS.includes(method)) {
    const one = applyAggregate(method, unwrapped)
    return one === undefined ? [] : [one]
  }
  return unwrapped.flatMap((n) => {
    const out = applyScalar(method, n)
    return out === undefined ? [] : [out]
  })
}
