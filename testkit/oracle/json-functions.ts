/**
 * DuckDB scalar functions computing Oracle's SQL/JSON query functions and conditions over JSON text (a VARCHAR2 /
 * CLOB document, or a JSON column's stored extended JSON text, oson.ts): JSON_VALUE, JSON_QUERY, JSON_EXISTS, IS JSON,
 * and the pieces of JSON_OBJECT / JSON_ARRAY. json-sql.ts rewrites the Oracle syntax into calls of these.
 *
 * Semantics follow the Oracle JSON Developer's Guide (23ai) and SQL Language Reference:
 * - path expressions in lax mode by default ("SQL/JSON Path Expression Syntax Relaxation": an array step on a non-array
 *   treats it as a one-element array, a member step on an array applies to each element), in strict mode after the
 *   keyword `strict` (no relaxation: a missing field, an array position past the end, a member step on a non-object or
 *   an array step on a non-array is an error, which the ON ERROR clause handles; {@link StrictPathError});
 * - JSON_VALUE returns a scalar's SQL value (a string without its JSON quotes, a number's text, `true` / `false`);
 *   an object, array or JSON null gives NULL, as do a missing target and a value the RETURNING type cannot take (the
 *   defaults NULL ON EMPTY and NULL ON ERROR);
 * - JSON_QUERY returns JSON text; without a wrapper a single object or array (23ai also a scalar: "JSON Scalar Allowed
 *   at Top Level (RFC 8259 Support)", compatible >= 20), else NULL; WITH [UNCONDITIONAL] WRAPPER an array of every
 *   match, WITH CONDITIONAL WRAPPER wraps unless the match is one object or array ("Wrapper Clause for SQL/JSON Query
 *   Functions JSON_QUERY and JSON_TABLE");
 * - IS JSON tests well-formedness; 19c requires an object or array, 23ai also takes a scalar (same RFC 8259 feature),
 *   DISALLOW SCALARS / ALLOW SCALARS override; WITH UNIQUE KEYS refuses duplicate member names.
 */
import { BLOB, BOOLEAN, DuckDBBlobValue, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBScalarFunction, DuckDBValue } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { decimalOf, fitToPrecision } from "./decimal.ts"
import { OraError } from "./errors.ts"
import { fromExtendedJson, toExtendedJson } from "./extended-json.ts"
import type { JsonNode } from "./oson.ts"
import { applyItemMethod, ITEM_METHODS } from "./json-item-methods.ts"
import { laxJsonToStandard } from "./json-lax-syntax.ts"
import { closingParen, evalFilter, type Filter, parseFilter, type Variables } from "./json-path-filters.ts"

/** One step of a parsed SQL/JSON path ({@link parsePath}). */
export type JsonPathStep = Step
/**
 * One step of a path: a member (or every member), a descendant member (`..name`), array positions (or every element),
 * a filter (json-path-filters.ts) or an item method (json-item-methods.ts).
 */
type Step =
  | { readonly kind: "filter"; readonly filter: Filter }
  | { readonly kind: "member"; readonly name: string }
  | { readonly kind: "descendant"; readonly name: string }
  | { readonly kind: "method"; readonly name: string }
  | { readonly kind: "anyMember" }
  | { readonly kind: "elements"; readonly ranges: ReadonlyArray<readonly [Position, Position]> }
  | { readonly kind: "anyElement" }
/** An array position: from the start, or from `last` back. */
type Position = { readonly last: boolean; readonly offset: number }

const pathError = (path: string) => new OraError(40597, `JSON path expression syntax error ('${path}')`)

const pathCache = new Map<string, ReadonlyArray<Step>>()

/** True when `path` starts with the mode keyword `strict` (JSON Developer's Guide, "SQL/JSON Path Expression Syntax"). */
export const isStrictPath = (path: string): boolean => /^\s*strict\s/i.test(path)

/**
 * A strict-mode path that cannot navigate the document (a missing field, a position past an array's end, a member
 * step on a non-object, an array step on a non-array): an error of the calling function, handled by its ON ERROR
 * clause (not ON EMPTY). Raised under ERROR ON ERROR as ORA-40462, as a field the path misses is in lax mode
 * (**unconfirmed**: Oracle's documentation names no code of its own for a strict-mode navigation error).
 */
export class StrictPathError extends OraError {
  constructor() {
    super(40462, "JSON_VALUE evaluated to no value")
  }
}

/**
 * Parses an Oracle SQL/JSON path expression (`$`, `.name`, `."name"`, `.*`, `..name`, `[n]`, `[n to m]`, `[a, b]`,
 * `[*]`, `last`, `?(filter)`, item methods `.number()` ...; JSON Developer's Guide, "SQL/JSON Path Expression Syntax",
 * "SQL/JSON Path Expression Item Methods").
 */
export const parsePath = (path: string): ReadonlyArray<Step> => {
  const cached = pathCache.get(path)
  if (cached !== undefined) return cached
  const text = path.trim().replace(/^(?:lax|strict)\s+/i, "")
  if (!text.startsWith("$")) throw pathError(path)
  const steps: Array<Step> = []
  let i = 1
  while (i < text.length) {
    const c = text[i]!
    if (/\s/.test(c)) {
      i++
    } else if (c === "?" && text[i + 1] === "(") {
      const end = closingParen(text, i + 1)
      if (end < 0) throw pathError(path)
      steps.push({ kind: "filter", filter: parseFilter(text.slice(i + 2, end - 1), path) })
      i = end
    } else if (c === ".") {
      i++
      const descendant = text[i] === "."
      if (descendant) {
        // `..name`: the field at any depth ("descendant step")
        i++
        const m = text[i] === '"' ? /^"([^"]*)"/.exec(text.slice(i)) : /^([A-Za-z_$][\w$]*)/.exec(text.slice(i))
        if (m === null) throw pathError(path)
        steps.push({ kind: "descendant", name: m[1]! })
        i += m[0].length
      } else if (text[i] === "*") {
        steps.push({ kind: "anyMember" })
        i++
      } else if (text[i] === '"') {
        const end = text.indexOf('"', i + 1)
        if (end < 0) throw pathError(path)
        steps.push({ kind: "member", name: text.slice(i + 1, end) })
        i = end + 1
      } else {
        const m = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))
        if (m === null) throw pathError(path)
        const call = /^\s*\(\s*\)/.exec(text.slice(i + m[0].length))
        if (call !== null) {
          if (!ITEM_METHODS.has(m[0])) throw pathError(path)
          steps.push({ kind: "method", name: m[0] })
          i += m[0].length + call[0].length
        } else {
          steps.push({ kind: "member", name: m[0] })
          i += m[0].length
        }
      }
    } else if (c === "[") {
      const end = text.indexOf("]", i)
      if (end < 0) throw pathError(path)
      const body = text.slice(i + 1, end).trim()
      if (body === "*") steps.push({ kind: "anyElement" })
      else {
        const position = (p: string): Position => {
          const m = /^(?:(last)\s*(?:-\s*(\d+))?|(\d+))$/i.exec(p.trim())
          if (m === null) throw pathError(path)
          return m[1] !== undefined ? { last: true, offset: Number(m[2] ?? 0) } : { last: false, offset: Number(m[3]) }
        }
        steps.push({
          kind: "elements",
          ranges: body.split(",").map((part) => {
            const [a, b] = part.split(/\s+to\s+/i)
            const from = position(a ?? "")
            return [from, b === undefined ? from : position(b)] as const
          })
        })
      }
      i = end + 1
    } else throw pathError(path)
  }
  pathCache.set(path, steps)
  return steps
}

/** Every value of a field named `name` at any depth below `node`, in document order. */
const descendants = (node: JsonNode, name: string, out: Array<JsonNode>): void => {
  if (node.kind === "array") for (const item of node.items) descendants(item, name, out)
  else if (node.kind === "object")
    for (const [k, v] of node.fields) {
      if (k === name) out.push(v)
      descendants(v, name, out)
    }
}

const NO_VARIABLES: Variables = new Map()

/**
 * The values `steps` select in `root`, in lax mode, or in strict mode when `strict` (then a step that cannot navigate
 * throws {@link StrictPathError}); `doc`: the document a filter's `$` names; `vars`: the SQL/JSON variables of a
 * PASSING clause, `$name` in filters. Relative paths inside a filter are lax.
 */
export const selectPath = (root: JsonNode, steps: ReadonlyArray<Step>, doc: JsonNode = root, vars: Variables = NO_VARIABLES, strict = false): Array<JsonNode> => {
  let current: Array<JsonNode> = [root]
  for (const step of steps) {
    if (step.kind === "method") {
      current = applyItemMethod(step.name, current)
      continue
    }
    const next: Array<JsonNode> = []
    for (const node of current) {
      if (step.kind === "filter") {
        // lax: a filter tests each element of an array; strict: the value itself
        const select = (from: JsonNode, relative: string) => selectPath(from, parsePath(`$${relative}`), doc, vars)
        for (const item of node.kind === "array" && !strict ? node.items : [node]) if (evalFilter(step.filter, item, doc, select, vars) === true) next.push(item)
      } else if (step.kind === "descendant") {
        descendants(node, step.name, next)
      } else if (step.kind === "member" || step.kind === "anyMember") {
        // lax: a member step on an array applies to its elements; strict: it needs an object, and the field in it
        if (strict && (node.kind !== "object" || (step.kind === "member" && !node.fields.some(([k]) => k === step.name)))) throw new StrictPathError()
        const targets = node.kind === "array" ? node.items : [node]
        for (const t of targets) {
          if (t.kind !== "object") continue
          for (const [k, v] of t.fields) if (step.kind === "anyMember" || k === step.name) next.push(v)
        }
      } else {
        // lax: an array step on a non-array treats it as a one-element array; strict: it needs an array, and the positions in it
        if (strict && node.kind !== "array") throw new StrictPathError()
        const items = node.kind === "array" ? node.items : [node]
        if (step.kind === "anyElement") next.push(...items)
        else
          for (const [a, b] of step.ranges) {
            const at = (p: Position) => (p.last ? items.length - 1 - p.offset : p.offset)
            if (strict && (at(a) < 0 || at(b) >= items.length)) throw new StrictPathError()
            for (let k = Math.max(0, at(a)); k <= Math.min(items.length - 1, at(b)); k++) next.push(items[k]!)
          }
      }
    }
    current = next
  }
  return current
}

const parseStandard = (text: string): JsonNode | undefined => {
  try {
    return fromExtendedJson(text)
  } catch {
    return undefined
  }
}

/**
 * A document's JSON, read in Oracle's lax syntax, the syntax "All other SQL/JSON functions and conditions use ... for
 * interpreting input" (JSON Developer's Guide, "Specifying Strict or Lax JSON Syntax"; json-lax-syntax.ts).
 */
export const parseDocument = (text: string): JsonNode | undefined => {
  const standard = parseStandard(text)
  if (standard !== undefined) return standard
  const lax = laxJsonToStandard(text)
  return lax === undefined ? undefined : parseStandard(lax)
}

const isScalar = (n: JsonNode) => n.kind !== "object" && n.kind !== "array"

/** The text an Oracle extended scalar shows as plain JSON (its ISO text, its hex digits, a double's number). */
const extendedText = (n: JsonNode): string => {
  const text = toExtendedJson(n)
  const m = /^\{"\$\w+":(.*)\}$/.exec(text)
  const inner = m === null ? text : m[1]!
  return inner.startsWith('"') ? (JSON.parse(inner) as string) : inner
}

/** A JSON value as standard JSON text: Oracle's extended scalars (dates, doubles, RAW) as strings or numbers. */
export const plainJson = (n: JsonNode): string => {
  switch (n.kind) {
    case "null":
    case "boolean":
    case "number":
    case "string":
      return toExtendedJson(n)
    case "double":
    case "float":
      return Number.isFinite(n.value) ? String(n.value) : JSON.stringify(extendedText(n))
    case "array":
      return `[${n.items.map(plainJson).join(",")}]`
    case "object":
      return `{${n.fields.map(([k, v]) => `${JSON.stringify(k)}:${plainJson(v)}`).join(",")}}`
    default:
      return JSON.stringify(extendedText(n))
  }
}

/** A scalar's SQL text as JSON_VALUE returns it; undefined for JSON null. */
export const scalarText = (n: JsonNode): string | undefined => {
  switch (n.kind) {
    case "null":
      return undefined
    case "string":
      return n.value
    case "number":
      return n.text
    case "boolean":
      return n.value ? "true" : "false"
    case "double":
    case "float":
      return Number.isFinite(n.value) ? String(n.value) : extendedText(n)
    default:
      return extendedText(n)
  }
}

/** Text that reads as a JSON / SQL number (blanks around it allowed). */
export const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/
const DATE_TEXT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2}(?:\.\d+)?))?(Z|[+-]\d{2}:?\d{2})?$/

/**
 * A query function's ON ERROR and ON EMPTY clauses (JSON Developer's Guide, "Error Clause for SQL Functions and
 * Conditions", "Empty-Field Clause for SQL/JSON Query Functions"): `onError` NULL (the default), ERROR, DEFAULT,
 * EMPTYARRAY, EMPTYOBJECT, TRUE or FALSE; `onEmpty` the same, or `-` when the call has none (then ON ERROR also
 * handles a missing value); the DEFAULT values as text.
 */
export interface Handling {
  readonly onError: string
  readonly onEmpty: string
  readonly errorDefault: string
  readonly emptyDefault: string
  /** The session is a 23ai one, whose error texts name the path (see jsonValue). */
  readonly texts23ai?: boolean
}

/** The defaults: NULL ON ERROR, no ON EMPTY clause. */
export const NULL_HANDLING: Handling = { onError: "NULL", onEmpty: "-", errorDefault: "", emptyDefault: "" }

/** Handling from the words json-sql.ts passes (`"ERROR -"`, `"NULL ERROR 23ai"`, ...) and the DEFAULT values. */
const handlingOf = (words: string, errorDefault: string, emptyDefault: string): Handling => {
  const [onError = "NULL", onEmpty = "-", release] = words.split(" ")
  return { onError, onEmpty, errorDefault, emptyDefault, texts23ai: release === "23ai" }
}

/** The result of a failure `error` by the handling: raised, or the value its clause gives (`empty`: no value matched). */
const handled = (h: Handling, error: OraError, empty: boolean): string | null => {
  const byEmpty = empty && h.onEmpty !== "-"
  switch (byEmpty ? h.onEmpty : h.onError) {
    case "ERROR":
      throw error
    case "DEFAULT":
      return byEmpty ? h.emptyDefault : h.errorDefault
    case "EMPTYARRAY":
      return "[]"
    case "EMPTYOBJECT":
      return "{}"
    default:
      return null
  }
}

/** The SQL/JSON variables of a PASSING clause, given as one JSON object text (json-sql.ts builds it as JSON_OBJECT does). */
const variablesOf = (text: string): Variables => {
  if (text === "{}") return new Map()
  const node = parseDocument(text)
  return new Map(node?.kind === "object" ? node.fields : [])
}

/** The values `path` (parsed as `steps`) selects in `root`, or the strict-mode error (lax paths never give one). */
const strictSelect = (root: JsonNode, steps: ReadonlyArray<Step>, path: string, vars: Variables): Array<JsonNode> | StrictPathError => {
  try {
    return selectPath(root, steps, root, vars, isStrictPath(path))
  } catch (e) {
    if (e instanceof StrictPathError) return e
    throw e
  }
}

const NOT_JSON = () => new OraError(40441, "JSON syntax error")
const NO_VALUE = () => new OraError(40462, "JSON_VALUE evaluated to no value")

/**
 * JSON_VALUE: the scalar the path selects as text the RETURNING type takes (`returning`: VARCHAR2, NUMBER, DATE,
 * TIMESTAMP). A document that is no JSON (ORA-40441), nothing selected (ORA-40462), several values (ORA-40470), an
 * object or array (ORA-40456), a value of another type (ORA-01722 / ORA-01861: **unconfirmed** codes) and text longer
 * than a `RETURNING VARCHAR2(n)` size (ORA-40478 "output value too large (maximum: n)", the code and text René
 * Nyffenegger's notes show for a JSON_TABLE column, renenyffenegger.ch/notes/development/databases/Oracle/SQL/functions/json/error-clause;
 * `RETURNING VARCHAR2(n) TRUNCATE` cuts it instead) are handled by
 * the ON ERROR / ON EMPTY clauses (error texts as the Database Error Messages list gives them: ORA-40462 "JSON_VALUE
 * evaluated to no value", ORA-40470 "JSON_VALUE evaluated to multiple values" (23ai: "JSON query '$.a' evaluated to
 * multiple values.", as its Reference's JSON_BEHAVIOR example shows), ORA-40456 "JSON_VALUE evaluated to
 * non-scalar value" (23ai: "JSON path '$.o' evaluated to non-scalar value."; https://docs.oracle.com/en/error-help/db/
 * ora-40470 and ora-40456 list both texts); JSON null is NULL.
 */
export const jsonValue = (doc: string, path: string, returning: string, h: Handling = NULL_HANDLING, vars: Variables = new Map()): string | null => {
  const steps = parsePath(path)
  const root = parseDocument(doc)
  if (root === undefined) return handled(h, NOT_JSON(), false)
  const found = strictSelect(root, steps, path, vars)
  if (found instanceof StrictPathError) return handled(h, found, false)
  if (found.length === 0) return handled(h, NO_VALUE(), true)
  if (found.length > 1) return handled(h, new OraError(40470, h.texts23ai === true ? `JSON query '${path}' evaluated to multiple values.` : "JSON_VALUE evaluated to multiple values"), false)
  if (!isScalar(found[0]!)) return handled(h, new OraError(40456, h.texts23ai === true ? `JSON path '${path}' evaluated to non-scalar value.` : "JSON_VALUE evaluated to non-scalar value"), false)
  const text = scalarText(found[0]!)
  if (text === undefined) return null
  const sized = /^NUMBER\((\d+)(?:,(-?\d+))?\)$/.exec(returning)
  switch (sized === null ? returning : "NUMBER") {
    case "NUMBER": {
      const numeric = found[0]!.kind === "number" || found[0]!.kind === "double" || found[0]!.kind === "float" || NUMBER_TEXT.test(text)
      if (!numeric) return handled(h, new OraError(1722, "invalid number"), false)
      if (sized === null) return text.trim()
      // a value too large for RETURNING NUMBER(p,s) is an error of the function, so NULL ON ERROR (the default) makes
      // it NULL (SQL Language Reference, JSON_VALUE, "JSON_value_on_error_clause"); ERROR ON ERROR raises ORA-01438
      // as a NUMBER(p,s) column does (the code there is unconfirmed)
      try {
        fitToPrecision(decimalOf(text.trim()), Number(sized[1]), Number(sized[2] ?? 0))
      } catch (e) {
        return handled(h, e as OraError, false)
      }
      return text.trim()
    }
    case "DATE":
    case "TIMESTAMP": {
      const m = DATE_TEXT.exec(text)
      if (m === null) return handled(h, new OraError(1861, "literal does not match format string"), false)
      return returning === "DATE" ? `${m[1]} 00:00:00` : `${m[1]} ${m[2] ?? "00:00:00"}`
    }
    default: {
      const m = /^VARCHAR2\((\d+)( CHAR)?( TRUNCATE)?\)$/.exec(returning)
      const size = Number(m?.[1] ?? Infinity)
      const chars = m?.[2] !== undefined
      if ((chars ? [...text].length : Buffer.byteLength(text)) <= size) return text
      if (m?.[3] !== undefined) return chars ? [...text].slice(0, size).join("") : Buffer.from(text).subarray(0, size).toString("utf8").replace(/\ufffd$/, "")
      return handled(h, new OraError(40478, `output value too large (maximum: ${size})`), false)
    }
  }
}

/**
 * JSON_QUERY: the selected JSON as text by the wrapper rule (`wrapper`: WITHOUT, WITH, CONDITIONAL, or DOT for simple
 * dot notation). A document that is no JSON (ORA-40441), nothing selected (ORA-40462) and a result that needs an array
 * wrapper (several values, or a scalar where scalars are not JSON: ORA-40480 "result cannot be returned without array
 * wrapper") are handled by the ON ERROR / ON EMPTY clauses (NULL, ERROR, EMPTY ARRAY, EMPTY OBJECT).
 */
export const jsonQuery = (doc: string, path: string, wrapper: string, scalarsAllowed: boolean, omitQuotes: boolean, h: Handling = NULL_HANDLING, vars: Variables = new Map()): string | null => {
  const steps = parsePath(path)
  const root = parseDocument(doc)
  if (root === undefined) return handled(h, NOT_JSON(), false)
  const found = strictSelect(root, steps, path, vars)
  if (found instanceof StrictPathError) return handled(h, found, false)
  if (found.length === 0) return handled(h, NO_VALUE(), true)
  const one = found.length === 1 ? found[0]! : undefined
  // simple dot notation (json-sql.ts): one value as it is, several in an array; on a textual column (DOTTEXT) a string
  // as its text, "similar to that of function json_value for a scalar value" (JSON Developer's Guide 19c, "Simple
  // Dot-Notation Access to JSON Data")
  if (wrapper === "DOT" || wrapper === "DOTTEXT") {
    if (one === undefined) return `[${found.map(plainJson).join(",")}]`
    return wrapper === "DOTTEXT" && one.kind === "string" ? one.value : plainJson(one)
  }
  if (wrapper === "WITH" || (wrapper === "CONDITIONAL" && (one === undefined || isScalar(one)))) return `[${found.map(plainJson).join(",")}]`
  if (one === undefined || (isScalar(one) && !scalarsAllowed)) return handled(h, new OraError(40480, "result cannot be returned without array wrapper"), false)
  return omitQuotes && one.kind === "string" ? one.value : plainJson(one)
}

/**
 * JSON_EXISTS: true when the path selects at least one value; a document that is no JSON is false (FALSE ON ERROR, the
 * default), true (TRUE ON ERROR) or ORA-40441 (ERROR ON ERROR).
 */
export const jsonExists = (doc: string, path: string, onError = "FALSE", vars: Variables = new Map()): boolean => {
  const steps = parsePath(path)
  const root = parseDocument(doc)
  if (root === undefined) {
    if (onError === "ERROR") throw NOT_JSON()
    return onError === "TRUE"
  }
  const found = strictSelect(root, steps, path, vars)
  if (found instanceof StrictPathError) {
    if (onError === "ERROR") throw found
    return onError === "TRUE"
  }
  return found.length > 0
}

/** Member names of every object in `text`, in order (JSON.parse keeps only the last of duplicated names). */
const objectsHaveDuplicates = (text: string): boolean => {
  const stack: Array<Set<string>> = []
  const tokens = text.matchAll(/"(?:[^"\\]|\\.)*"\s*:?|[{}[\]]/g)
  for (const [t] of tokens) {
    if (t === "{") stack.push(new Set())
    else if (t === "[") stack.push(new Set(["[array]"]))
    else if (t === "}" || t === "]") stack.pop()
    else if (t.endsWith(":")) {
      const top = stack[stack.length - 1]
      const key = JSON.parse(t.slice(0, -1).trim()) as string
      if (top === undefined) continue
      if (top.has(key)) return true
      top.add(key)
    }
  }
  return false
}

/**
 * IS JSON: `flags` holds the condition's keywords (STRICT for the standard syntax only, else Oracle's lax syntax as
 * well; SCALARS for allowed scalars, UNIQUE for WITH UNIQUE KEYS).
 */
export const isJson = (text: string, flags: string): boolean => {
  // standard JSON (the usual case) is read once; only text it refuses is rewritten from the lax syntax and read again
  const asGiven = parseStandard(text)
  const standard = asGiven !== undefined ? text : flags.includes("STRICT") ? undefined : laxJsonToStandard(text)
  const node = asGiven ?? (standard === undefined ? undefined : parseStandard(standard))
  if (node === undefined || standard === undefined) return false
  if (isScalar(node) && !flags.includes("SCALARS")) return false
  if (flags.includes("UNIQUE") && objectsHaveDuplicates(standard)) return false
  return true
}

/** A JSON number's text from decimal text (`.5` → `0.5`, `-.5` → `-0.5`, `1.50` → `1.5`, `1E+125` kept). */
export const jsonNumberText = (text: string): string => {
  const t = text.trim()
  const trimmed = /^[-+]?\d*\.\d*$/.test(t) ? t.replace(/\.?0+$/, "") : t
  return (trimmed === "" || trimmed === "-" ? "0" : trimmed).replace(/^(-?)\./, "$10.")
}

/** Text given with FORMAT JSON, or known to be JSON: checked, then in standard JSON form. */
export const formatJson = (text: string): string => {
  const node = parseDocument(text)
  if (node === undefined) throw new OraError(40441, "JSON syntax error")
  return plainJson(node)
}

/** A document argument's text: VARCHAR2 / CLOB / JSON text, or a BLOB's bytes as UTF-8 (AL32UTF8, as Oracle reads JSON in BLOBs). */
export const documentText = (v: DuckDBValue | undefined): string => (v instanceof DuckDBBlobValue ? Buffer.from(v.bytes).toString("utf8") : String(v))

/**
 * A TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) value kept as text (`2024-01-02 10:11:12.500000000+01:00 Europe/Berlin`)
 * in SQL/JSON generation: an ISO 8601 string, `2024-01-02T10:11:12.5+01:00` (the date-with-time syntax of JSON
 * Developer's Guide, "ISO 8601 Date, Time, and Duration Support": the offset, never the region; the fraction's
 * trailing zeros left out as for a TIMESTAMP here). Whether real Oracle writes `Z` for a zero offset is unconfirmed.
 * Text of another shape (years BC) stays as it is.
 */
export const isoDatetimeText = (text: string): string => {
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?\s*(?:([+-])(\d\d?)(?::?(\d\d))?)?(?:\s+\S+)?$/.exec(text.trim())
  if (m === null) return text
  const fraction = (m[3] ?? "").replace(/0+$/, "")
  const offset = m[4] === undefined ? "" : `${m[4]}${m[5]!.padStart(2, "0")}:${m[6] ?? "00"}`
  return `${m[1]}T${m[2]}${fraction === "" ? "" : `.${fraction}`}${offset}`
}

/** The functions, by the names json-sql.ts uses; the document functions also over BLOB documents. */
const functions = (): Array<DuckDBScalarFunction> => [
  ...[VARCHAR, BLOB].flatMap((doc) => [
    fn("ora_json_value", [doc, VARCHAR, VARCHAR], VARCHAR, ([d, p, r]) => jsonValue(documentText(d), String(p), String(r))),
    // with ON ERROR / ON EMPTY handling (words, DEFAULT values) and PASSING variables (a JSON object's text)
    fn("ora_json_value", [doc, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR], VARCHAR, ([d, p, r, h, e, m, v]) =>
      jsonValue(documentText(d), String(p), String(r), handlingOf(String(h), String(e), String(m)), variablesOf(String(v)))
    ),
    fn("ora_json_query", [doc, VARCHAR, VARCHAR, BOOLEAN, BOOLEAN], VARCHAR, ([d, p, w, s, o]) => jsonQuery(documentText(d), String(p), String(w), s === true, o === true)),
    fn("ora_json_query", [doc, VARCHAR, VARCHAR, BOOLEAN, BOOLEAN, VARCHAR, VARCHAR], VARCHAR, ([d, p, w, s, o, h, v]) =>
      jsonQuery(documentText(d), String(p), String(w), s === true, o === true, handlingOf(String(h), "", ""), variablesOf(String(v)))
    ),
    fn("ora_json_exists", [doc, VARCHAR], BOOLEAN, ([d, p]) => jsonExists(documentText(d), String(p))),
    fn("ora_json_exists", [doc, VARCHAR, VARCHAR, VARCHAR], BOOLEAN, ([d, p, e, v]) => jsonExists(documentText(d), String(p), String(e), variablesOf(String(v)))),
    fn("ora_is_json", [doc, VARCHAR], BOOLEAN, ([t, f]) => isJson(documentText(t), String(f)))
  ]),
  fn("ora_json_number", [VARCHAR], VARCHAR, ([t]) => jsonNumberText(String(t))),
  fn("ora_json_datetime_text", [VARCHAR], VARCHAR, ([t]) => JSON.stringify(isoDatetimeText(String(t)))),
  fn("ora_json_format", [VARCHAR], VARCHAR, ([t]) => formatJson(String(t))),
  // a member `"key":value` of JSON_OBJECT (NULL when the value is NULL: ABSENT ON NULL leaves it out)
  fn("ora_json_member", [VARCHAR, VARCHAR], VARCHAR, ([k, v]) => `${JSON.stringify(String(k))}:${String(v)}`),
  fn("ora_json_wrap", [VARCHAR, VARCHAR], VARCHAR, ([body, kind]) => (kind === "object" ? `{${String(body).trim()}}` : `[${String(body).trim()}]`))
]

/**
 * The SQL/JSON value of any SQL value `x` (a macro, so that it sees `x`'s DuckDB type): JSON columns in standard
 * form, numbers as JSON numbers, booleans as JSON booleans, DATE / TIMESTAMP as ISO 8601 strings ("The date and
 * timestamp data types are printed ... as JSON Strings following the ISO 8601 date format", SQL Language Reference,
 * JSON_ARRAY; an Oracle DATE has a time of day, so a DATE literal shows its midnight as a DATE column does), a
 * LOCAL TIME ZONE instant and an interval expression's engine INTERVAL as ISO 8601 too (isoDatetimeText,
 * ora_json_duck_interval), other values as JSON strings.
 */
export const JSON_VALUE_MACRO = `ora_json_of(x) AS CASE
  WHEN typeof(x) = 'JSON' THEN ora_json_format(CAST(x AS VARCHAR))
  WHEN typeof(x) LIKE 'DECIMAL%' OR typeof(x) IN ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT') THEN ora_json_number(CAST(x AS VARCHAR))
  WHEN typeof(x) IN ('TIMESTAMP_S', 'TIMESTAMP', 'TIMESTAMP_NS', 'TIMESTAMP_MS') THEN replace(CAST(to_json(x) AS VARCHAR), ' ', 'T')
  WHEN typeof(x) = 'TIMESTAMP WITH TIME ZONE' THEN ora_json_datetime_text(CAST(x AS VARCHAR))
  WHEN typeof(x) = 'INTERVAL' THEN ora_json_duck_interval(CAST(x AS VARCHAR))
  WHEN typeof(x) = 'DATE' THEN replace(CAST(to_json(CAST(x AS TIMESTAMP_S)) AS VARCHAR), ' ', 'T')
  ELSE CAST(to_json(x) AS VARCHAR) END`

/** Registers the functions in the database `connection` belongs to. */
export const registerJsonFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
}
