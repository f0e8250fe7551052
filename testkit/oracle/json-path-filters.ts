/**
 * Filter expressions of SQL/JSON paths, `?( condition )` after a step (JSON Developer's Guide 23ai, "Basic SQL/JSON
 * Path Expression Syntax"; SQL Language Reference, "JSON_EXISTS Condition"): `@` is the current filter item (each
 * element of an array the step before selected: lax mode unwraps it, e.g. `$.LineItems?(@.Part.UPCCode ==
 * 85391628927)` tests each line item), `$` the whole document. Conditions: `&&`, `||`, `!( ... )`, parentheses,
 * `exists( relative path )`, comparisons `==`, `!=`, `<>`, `<`, `<=`, `>`, `>=` between paths and JSON scalars
 * (numbers, "strings", true, false, null), `starts with`, `has substring`, `like`, `like_regex` [`flag "i"`] and
 * `eq_regex`. A comparison holds when some pair of values of its two sides does (a path side is every value it
 * selects, arrays unwrapped); values compare by type, and in the default lax type mode a string compared with a number
 * is read as a number when it is one ("'$.PONumber?(@ > 20)' implicitly interprets a PONumber value of "314" as the
 * number 314", JSON Developer's Guide 23ai, "TYPE Clause for SQL Functions and Conditions"); other mixed types, objects
 * and arrays never compare. A SQL/JSON variable, `$name`, is the value its PASSING clause binds to `name` (SQL Language
 * Reference, "JSON_EXISTS Condition": "JSON_passing_clause ... The name of each variable is used in the path
 * expression, preceded by a dollar sign"); a relative path may end with an item method (`@.name.upper() == "X"`).
 */
import { compare as compareDecimals, parseDecimal } from "./decimal.ts"
import { OraError } from "./errors.ts"
import { toExtendedJson } from "./extended-json.ts"
import type { JsonNode } from "./oson.ts"

/** A filter condition, parsed. */
export type Filter =
  | { readonly kind: "and" | "or"; readonly left: Filter; readonly right: Filter }
  | { readonly kind: "not"; readonly operand: Filter }
  | { readonly kind: "exists"; readonly path: Operand }
  | { readonly kind: "compare"; readonly op: string; readonly left: Operand; readonly right: Operand; readonly flags?: string }

/** A comparison operand: a path from the current item (`@`), the document (`$`) or a SQL/JSON variable (`$name`), or a literal JSON scalar. */
type Operand = { readonly kind: "path"; readonly from: "@" | "$" | `$${string}`; readonly steps: string } | { readonly kind: "literal"; readonly node: JsonNode }

/** The SQL/JSON variables of a PASSING clause, by name (as written after AS). */
export type Variables = ReadonlyMap<string, JsonNode>

/** How a filter reads a path: `steps` (path text after `$`) selected from a node. */
export type SelectSteps = (from: JsonNode, steps: string) => Array<JsonNode>

const syntaxError = (path: string) => new OraError(40597, `JSON path expression syntax error ('${path}')`)

/** The end (exclusive) of the parenthesised text opening at `open` in `text`, skipping double-quoted strings; -1 when unclosed. */
export const closingParen = (text: string, open: number): number => {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++
    } else if (c === "(") depth++
    else if (c === ")" && --depth === 0) return i + 1
  }
  return -1
}

/** The end (exclusive) of the relative steps (`.a`, `."b"`, `.*`, `[..]`, `?(..)`) starting at `at`. */
const stepsEnd = (text: string, at: number): number => {
  let i = at
  for (;;) {
    while (text[i] === " ") i++
    const c = text[i]
    if (c === ".") {
      i++
      if (text[i] === '"') i = text.indexOf('"', i + 1) + 1
      else if (text[i] === "*") i++
      else i += /^[A-Za-z_$][\w$]*/.exec(text.slice(i))?.[0].length ?? 0
      // an item method (`.number()`) ends the step; the path parser checks its name
      if (text[i] === "(") i = closingParen(text, i)
    } else if (c === "[") i = text.indexOf("]", i) + 1
    else if (c === "?" && text[i + 1] === "(") i = closingParen(text, i + 1)
    else return i
    if (i <= 0) return -1
  }
}

/** Parses the condition inside `?( ... )` (`text`), for the path `path` (named by errors). */
export const parseFilter = (text: string, path: string): Filter => {
  let i = 0
  const skip = () => {
    while (/\s/.test(text[i] ?? "")) i++
  }
  const peek = (s: string) => {
    skip()
    return text.startsWith(s, i)
  }
  const word = (w: string) => {
    skip()
    const m = new RegExp(`^${w.replace(/ /g, "\\s+")}(?![\\w$])`, "i").exec(text.slice(i))
    if (m === null) return false
    i += m[0].length
    return true
  }
  const expect = (s: string) => {
    if (!peek(s)) throw syntaxError(path)
    i += s.length
  }
  const operand = (): Operand => {
    skip()
    const c = text[i]
    if (c === "@" || c === "$") {
      const variable = c === "$" ? /^\$([A-Za-z_][\w$]*)/.exec(text.slice(i)) : null
      const start = i + (variable === null ? 1 : variable[0].length)
      const end = stepsEnd(text, start)
      if (end < 0) throw syntaxError(path)
      const steps = text.slice(start, end)
      i = end
      return { kind: "path", from: variable === null ? c : `$${variable[1]!}`, steps }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i))
      if (m === null) throw syntaxError(path)
      i += m[0].length
      return { kind: "literal", node: { kind: "string", value: JSON.parse(m[0]) as string } }
    }
    const number = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(text.slice(i))
    if (number !== null) {
      i += number[0].length
      return { kind: "literal", node: { kind: "number", text: number[0] } }
    }
    if (word("true")) return { kind: "literal", node: { kind: "boolean", value: true } }
    if (word("false")) return { kind: "literal", node: { kind: "boolean", value: false } }
    if (word("null")) return { kind: "literal", node: { kind: "null" } }
    throw syntaxError(path)
  }
  const primary = (): Filter => {
    skip()
    if (text[i] === "!") {
      i++
      expect("(")
      const inner = or()
      expect(")")
      return { kind: "not", operand: inner }
    }
    if (text[i] === "(") {
      i++
      const inner = or()
      expect(")")
      return inner
    }
    if (word("exists")) {
      expect("(")
      const target = operand()
      expect(")")
      if (target.kind !== "path") throw syntaxError(path)
      return { kind: "exists", path: target }
    }
    const left = operand()
    skip()
    const op = ["==", "!=", "<>", "<=", ">=", "<", ">"].find((o) => text.startsWith(o, i))
    if (op !== undefined) {
      i += op.length
      return { kind: "compare", op: op === "<>" ? "!=" : op, left, right: operand() }
    }
    for (const w of ["starts with", "has substring", "like_regex", "eq_regex", "like"]) {
      if (!word(w)) continue
      const right = operand()
      const flags = (w === "like_regex" || w === "eq_regex") && word("flag") ? operand() : undefined
      const flagText = flags?.kind === "literal" && flags.node.kind === "string" ? flags.node.value : undefined
      return { kind: "compare", op: w, left, right, ...(flagText !== undefined ? { flags: flagText } : {}) }
    }
    throw syntaxError(path)
  }
  const and = (): Filter => {
    let left = primary()
    while (peek("&&")) {
      i += 2
      left = { kind: "and", left, right: primary() }
    }
    return left
  }
  const or = (): Filter => {
    let left = and()
    while (peek("||")) {
      i += 2
      left = { kind: "or", left, right: and() }
    }
    return left
  }
  const filter = or()
  skip()
  if (i !== text.length) throw syntaxError(path)
  return filter
}

/** A value's number, for numbers and (lax) numeric strings; undefined for anything else. */
const numberOf = (n: JsonNode, lax: boolean) => {
  if (n.kind === "number") return parseDecimal(n.text)
  if (n.kind === "double" || n.kind === "float") return Number.isFinite(n.value) ? parseDecimal(String(n.value)) : undefined
  return lax && n.kind === "string" ? parseDecimal(n.value.trim()) : undefined
}

/** A value's text for string comparisons (a datetime or binary scalar as its ISO / hex text); undefined for others. */
const textOf = (n: JsonNode): string | undefined => {
  if (n.kind === "string") return n.value
  if (n.kind === "date" || n.kind === "timestamp" || n.kind === "timestamptz") return /"([^"]*)"\}$/.exec(toExtendedJson(n))?.[1]
  return undefined
}

const ordered = (op: string, c: number): boolean => (op === "==" ? c === 0 : op === "!=" ? c !== 0 : op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : c >= 0)

/** One pair of values under a comparison; undefined when their types do not compare. */
const comparePair = (op: string, l: JsonNode, r: JsonNode, flags: string | undefined): boolean | undefined => {
  if (op === "starts with" || op === "has substring" || op === "like" || op === "like_regex" || op === "eq_regex") {
    const a = textOf(l)
    const b = r.kind === "string" ? r.value : undefined
    if (a === undefined || b === undefined) return undefined
    if (op === "starts with") return a.startsWith(b)
    if (op === "has substring") return a.includes(b)
    if (op === "like") return new RegExp(`^${b.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, "[\\s\\S]*").replace(/_/g, "[\\s\\S]")}$`).test(a)
    const re = new RegExp(op === "eq_regex" ? `^(?:${b})$` : b, flags?.includes("i") === true ? "i" : "")
    return re.test(a)
  }
  if (l.kind === "null" || r.kind === "null") return op === "==" ? l.kind === r.kind : op === "!=" ? l.kind !== r.kind : undefined
  if (l.kind === "boolean" || r.kind === "boolean") return l.kind === "boolean" && r.kind === "boolean" && (op === "==" || op === "!=") ? ordered(op, l.value === r.value ? 0 : 1) : undefined
  const numeric = l.kind === "number" || l.kind === "double" || l.kind === "float" || r.kind === "number" || r.kind === "double" || r.kind === "float"
  if (numeric) {
    const a = numberOf(l, true)
    const b = numberOf(r, true)
    return a === undefined || b === undefined ? undefined : ordered(op, compareDecimals(a, b))
  }
  const a = textOf(l)
  const b = textOf(r)
  return a === undefined || b === undefined ? undefined : ordered(op, a < b ? -1 : a > b ? 1 : 0)
}

/**
 * The node a path operand starts from: the current item, the document, or a SQL/JSON variable's value. A variable
 * without a PASSING value is ORA-40656 "Variable in JSON path expression has no value in PASSING clause." (Database
 * Error Messages, https://docs.oracle.com/en/error-help/db/ora-40656, 19c / 21c text; 23ai names the variable);
 * 19c / 21c also list ORA-40463 "JSON path expression contained an invalid variable name" for a variable "not used in
 * the PASSING clause", so which of the two those releases raise is **unconfirmed**.
 */
const originOf = (from: string, item: JsonNode, root: JsonNode, vars: Variables): JsonNode => {
  if (from === "@") return item
  if (from === "$") return root
  const value = vars.get(from.slice(1))
  if (value === undefined) throw new OraError(40656, "Variable in JSON path expression has no value in PASSING clause.")
  return value
}

/** Three-valued truth of `filter` for the current item `item` of document `root` (undefined: unknown; `vars`: PASSING values). */
export const evalFilter = (filter: Filter, item: JsonNode, root: JsonNode, select: SelectSteps, vars: Variables = new Map()): boolean | undefined => {
  const values = (o: Operand): Array<JsonNode> => {
    if (o.kind === "literal") return [o.node]
    return select(originOf(o.from, item, root, vars), o.steps).flatMap((n) => (n.kind === "array" ? n.items : [n]))
  }
  switch (filter.kind) {
    case "and": {
      const a = evalFilter(filter.left, item, root, select, vars)
      if (a === false) return false
      const b = evalFilter(filter.right, item, root, select, vars)
      return b === false ? false : a === true && b === true ? true : undefined
    }
    case "or": {
      const a = evalFilter(filter.left, item, root, select, vars)
      if (a === true) return true
      const b = evalFilter(filter.right, item, root, select, vars)
      return b === true ? true : a === false && b === false ? false : undefined
    }
    case "not": {
      const a = evalFilter(filter.operand, item, root, select, vars)
      return a === undefined ? undefined : !a
    }
    case "exists":
      return filter.path.kind === "path" && select(originOf(filter.path.from, item, root, vars), filter.path.steps).length > 0
    case "compare": {
      let unknown = false
      for (const l of values(filter.left))
        for (const r of values(filter.right)) {
          const c = comparePair(filter.op, l, r, filter.flags)
          if (c === true) return true
          if (c === undefined) unknown = true
        }
      return unknown ? undefined : false
    }
  }
}
