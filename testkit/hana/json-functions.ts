/**
 * HANA's JSON_VALUE and JSON_QUERY with their clauses, as the SAP HANA SQL Reference describes them ("JSON_VALUE
 * Function (JSON)", "JSON_QUERY Function (JSON)"; SAP-docs/sap-hana-cloud-hana-database, docs/sql-ref):
 *
 * - `JSON_VALUE(json, path [RETURNING INTEGER | BIGINT | DECIMAL | NVARCHAR(n)] [ERROR | NULL | DEFAULT v ON EMPTY]
 *   [ERROR | NULL | DEFAULT v ON ERROR])` is the one scalar the path selects (a JSON null is NULL); no match is the
 *   EMPTY case, an object, an array, several matches, text that is no JSON or a value RETURNING cannot take the
 *   ERROR case; both default to NULL.
 * - `JSON_QUERY(json, path [RETURNING NVARCHAR(n)] [WITHOUT [ARRAY] WRAPPER | WITH [CONDITIONAL | UNCONDITIONAL]
 *   [ARRAY] WRAPPER] [ERROR | NULL | EMPTY ARRAY | EMPTY OBJECT ON EMPTY] [… ON ERROR])` is the JSON text of the
 *   object or array the path selects; WITH (UNCONDITIONAL) WRAPPER wraps every result in an array, CONDITIONAL only
 *   what is not already one object or array; without a wrapper a scalar or several matches are the ERROR case.
 *
 * Paths: `[lax | strict] $`, then `.name`, `."name"`, `.*`, `[n]`, `[n, m]`, `[a to b]`, `[a:b]` (end excluded,
 * negative counts from the end), `[*]`, `["name"]`; indexes start at 0. In lax mode (the default) a member step on
 * an array applies to its elements and an index step on a non-array to the value itself; in strict mode either is
 * the ERROR case. `ERROR ON …` fails with 8 "invalid argument" (**unconfirmed** HANA's code).
 *
 * The calls are rewritten on the statement text into `hana_json_path` (below) and the `hana_json_pick` macro, the
 * arguments in their written order so that `?` parameters keep theirs.
 */
import { VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { columnName, unaliasedItem } from "./call-rewrites.ts"
import { HanaError, INVALID_ARGUMENT } from "./errors.ts"
import { matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

/** The macro that turns `hana_json_path`'s coded result into the value or the ON EMPTY / ON ERROR one. */
export const JSON_FUNCTION_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_json_pick(r, on_empty, on_error) AS CASE substr(r, 1, 1) WHEN 'V' THEN substr(r, 2) WHEN 'N' THEN NULL " +
    "WHEN 'E' THEN CAST(on_empty AS VARCHAR) ELSE CAST(on_error AS VARCHAR) END"
]

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
type Step = { member: string | "*" } | { indexes: Array<number | [number, number, boolean]> | "*" }

class PathError extends Error {}

const parsePath = (path: string): { strict: boolean; steps: Step[] } => {
  let s = path.trim()
  let strict = false
  const mode = /^(lax|strict)\s+/i.exec(s)
  if (mode !== null) {
    strict = mode[1]!.toLowerCase() === "strict"
    s = s.slice(mode[0].length)
  }
  if (s[0] !== "$") throw new Error(`${INVALID_ARGUMENT}JSON path must start with $: ${path}`)
  const steps: Step[] = []
  let i = 1
  const bad = () => new Error(`${INVALID_ARGUMENT}invalid JSON path: ${path}`)
  while (i < s.length) {
    if (/\s/.test(s[i]!)) i++
    else if (s[i] === ".") {
      i++
      if (s[i] === "*") {
        steps.push({ member: "*" })
        i++
      } else if (s[i] === '"') {
        const end = s.indexOf('"', i + 1)
        if (end < 0) throw bad()
        steps.push({ member: s.slice(i + 1, end) })
        i = end + 1
      } else {
        const m = /^[A-Za-z_$][\w$]*/.exec(s.slice(i))
        if (m === null) throw bad()
        steps.push({ member: m[0] })
        i += m[0].length
      }
    } else if (s[i] === "[") {
      const end = s.indexOf("]", i)
      if (end < 0) throw bad()
      const body = s.slice(i + 1, end).trim()
      i = end + 1
      const name = /^(["'])(.*)\1$/.exec(body)
      if (name !== null) steps.push({ member: name[2]! })
      else if (body === "*") steps.push({ indexes: "*" })
      else {
        steps.push({
          indexes: body.split(",").map((part) => {
            const range = /^\s*(-?\d+)\s*(to|:)\s*(-?\d+)\s*$/.exec(part)
            if (range !== null) return [Number(range[1]), Number(range[3]), range[2] === "to"] as [number, number, boolean]
            if (!/^\s*-?\d+\s*$/.test(part)) throw bad()
            return Number(part)
          })
        })
      }
    } else throw bad()
  }
  return { strict, steps }
}

const isObject = (v: Json): v is { [k: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v)

/** The values `steps` select in `root`. */
const select = (root: Json, steps: readonly Step[], strict: boolean): Json[] => {
  let current: Json[] = [root]
  for (const step of steps) {
    const next: Json[] = []
    for (const v of current) {
      if ("member" in step) {
        const targets = Array.isArray(v) && !strict ? v : [v]
        for (const t of targets) {
          if (!isObject(t)) {
            if (strict) throw new PathError()
            continue
          }
          if (step.member === "*") next.push(...Object.values(t))
          else if (step.member in t) next.push(t[step.member]!)
          else if (strict) throw new PathError()
        }
      } else {
        const array = Array.isArray(v) ? v : strict ? undefined : [v]
        if (array === undefined) throw new PathError()
        if (step.indexes === "*") next.push(...array)
        else {
          for (const ix of step.indexes) {
            if (typeof ix === "number") {
              const k = ix < 0 ? array.length + ix : ix
              if (k >= 0 && k < array.length) next.push(array[k]!)
              else if (strict) throw new PathError()
            } else {
              const from = ix[0] < 0 ? array.length + ix[0] : ix[0]
              const to = (ix[1] < 0 ? array.length + ix[1] : ix[1]) + (ix[2] ? 1 : 0)
              next.push(...array.slice(Math.max(from, 0), Math.max(to, 0)))
            }
          }
        }
      }
    }
    current = next
  }
  return current
}

/**
 * The coded result of `kind` ('VALUE' or 'VALUE:<returning>' or 'QUERY:<wrapper>') at `path` in `json`: 'V' and the
 * text, 'N' (a JSON null), 'E' (nothing selected) or 'X' (an error).
 */
const jsonPath = (json: string, path: string, kind: string): string => {
  const { strict, steps } = parsePath(path)
  let root: Json
  try {
    root = JSON.parse(json) as Json
  } catch {
    return "X"
  }
  let found: Json[]
  try {
    found = select(root, steps, strict)
  } catch (e) {
    if (e instanceof PathError) return "X"
    throw e
  }
  if (found.length === 0) return "E"
  const [what, option] = kind.split(":")
  if (what === "QUERY") {
    const single = found.length === 1 && typeof found[0] === "object" && found[0] !== null
    if (option === "WITHOUT") return single ? "V" + JSON.stringify(found[0]) : "X"
    if (option === "CONDITIONAL" && single) return "V" + JSON.stringify(found[0])
    return "V" + JSON.stringify(found)
  }
  if (found.length > 1) return "X"
  const v = found[0]!
  if (v === null) return "N"
  if (typeof v === "object") return "X"
  const text = typeof v === "string" ? v : JSON.stringify(v)
  if (option === "INTEGER" || option === "BIGINT") return /^\s*[+-]?\d+\s*$/.test(text) ? "V" + text.trim() : "X"
  if (option === "DECIMAL") return text.trim() !== "" && Number.isFinite(Number(text)) ? "V" + text.trim() : "X"
  return "V" + text
}

/** Registers `hana_json_path(json, path, kind)`. */
export const registerJsonFunctions = (connection: DuckDBConnection): void => {
  connection.registerScalarFunction(fn("hana_json_path", [VARCHAR, VARCHAR, VARCHAR], VARCHAR, ([j, p, k]) => jsonPath(String(j), String(p), String(k))))
}

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v
const CLAUSE_STARTS = new Set(["RETURNING", "WITH", "WITHOUT", "ERROR", "NULL", "DEFAULT", "EMPTY"])

/** The ON EMPTY / ON ERROR behaviour `words` (without ON …) as an SQL expression. */
const behaviour = (name: string, words: readonly Token[], sql: string, text: (t: readonly Token[]) => string, what: string): string => {
  const w = words.map(upper).join(" ")
  if (w === "NULL") return "NULL"
  if (w === "ERROR") return `error('${INVALID_ARGUMENT}${name} found ${what}')`
  if (w === "EMPTY ARRAY" && name === "JSON_QUERY") return "'[]'"
  if (w === "EMPTY OBJECT" && name === "JSON_QUERY") return "'{}'"
  if (upper(words[0]) === "DEFAULT" && words.length > 1 && name === "JSON_VALUE") return text(words.slice(1))
  throw HanaError.syntax(`${name}: ${sql.slice(words[0]?.pos ?? 0, words[words.length - 1]?.end ?? 0)} ON … is not a behaviour`, words[0]?.pos ?? 0)
}

/** The call `name(inner)` as SQL over `hana_json_path` and `hana_json_pick`. */
const callOf = (name: "JSON_VALUE" | "JSON_QUERY", inner: readonly Token[], sql: string): string => {
  const text = (t: readonly Token[]): string => rewriteJsonCalls(sql.slice(t[0]!.pos!, t[t.length - 1]!.end!))
  const args = splitTopLevel(inner)
  const rest = args.slice(1).flat()
  if (args.length < 2 || args[0]!.length === 0 || rest.length === 0 || (args.length > 2 && !CLAUSE_STARTS.has(upper(args[2]![0])))) {
    throw HanaError.syntax(`${name}(<json>, <path> …) expected`, inner[0]?.pos ?? 0)
  }
  // the path is the operand before the first clause word at depth 0
  let depth = 0
  let k = 0
  for (; k < rest.length; k++) {
    if (isOp(rest[k], "(")) depth++
    else if (isOp(rest[k], ")")) depth--
    else if (depth === 0 && k > 0 && CLAUSE_STARTS.has(upper(rest[k]))) break
  }
  const path = rest.slice(0, k)
  let returning: string | undefined
  let wrapper = "WITHOUT"
  let onEmpty = "NULL"
  let onError = "NULL"
  let i = k
  while (i < rest.length) {
    const w = upper(rest[i])
    if (w === "RETURNING") {
      const type = upper(rest[i + 1])
      if (!["INTEGER", "BIGINT", "DECIMAL", "NVARCHAR", "VARCHAR"].includes(type)) throw HanaError.syntax(`${name} RETURNING ${type} is not supported`, rest[i]!.pos ?? 0)
      returning = type
      i += 2
      if (isOp(rest[i], "(")) i = matching(rest, i) + 1
      continue
    }
    if (w === "WITH" || w === "WITHOUT") {
      let j = i + 1
      wrapper = w === "WITHOUT" ? "WITHOUT" : "UNCONDITIONAL"
      if (w === "WITH" && ["CONDITIONAL", "UNCONDITIONAL"].includes(upper(rest[j]))) wrapper = upper(rest[j++])
      if (upper(rest[j]) === "ARRAY") j++
      if (upper(rest[j]) !== "WRAPPER" || name !== "JSON_QUERY") throw HanaError.syntax(`${name}: WRAPPER expected`, rest[i]!.pos ?? 0)
      i = j + 1
      continue
    }
    // <behaviour> ON EMPTY | ON ERROR
    let j = i
    depth = 0
    while (j < rest.length && !(depth === 0 && upper(rest[j]) === "ON" && ["EMPTY", "ERROR"].includes(upper(rest[j + 1])))) {
      if (isOp(rest[j], "(")) depth++
      else if (isOp(rest[j], ")")) depth--
      j++
    }
    if (j >= rest.length || j === i) throw HanaError.syntax(`${name}: … ON EMPTY or … ON ERROR expected`, rest[i]!.pos ?? 0)
    const on = upper(rest[j + 1])
    const expr = behaviour(name, rest.slice(i, j), sql, text, on === "EMPTY" ? "no value at the path" : "no single value of the requested type")
    if (on === "EMPTY") onEmpty = expr
    else onError = expr
    i = j + 2
  }
  const kind = name === "JSON_QUERY" ? `QUERY:${wrapper}` : `VALUE:${returning ?? "NVARCHAR"}`
  const picked = `hana_json_pick(hana_json_path(CAST(${text(args[0]!)} AS NVARCHAR(5000)), CAST(${text(path)} AS NVARCHAR(5000)), '${kind}'), ${onEmpty}, ${onError})`
  if (returning === "INTEGER" || returning === "BIGINT") return `CAST(${picked} AS ${returning})`
  if (returning === "DECIMAL") return `CAST(${picked} AS DOUBLE)`
  return picked
}

/** Rewrites each JSON_VALUE / JSON_QUERY call; text without them is returned as it is. */
export const rewriteJsonCalls = (sql: string): string => {
  if (!/JSON_(VALUE|QUERY)/i.test(sql)) return sql
  const tokens = sig(tokenize(sql))
  let out = ""
  let at = 0
  for (let i = 0; i < tokens.length; i++) {
    const U = upper(tokens[i])
    if ((U !== "JSON_VALUE" && U !== "JSON_QUERY") || !isOp(tokens[i + 1], "(") || isOp(tokens[i - 1], ".")) continue
    const close = matching(tokens, i + 1)
    let call = callOf(U, tokens.slice(i + 2, close), sql)
    if (unaliasedItem(tokens, i, close)) call += ` AS ${columnName(sql.slice(tokens[i]!.pos!, tokens[close]!.end!))}`
    out += sql.slice(at, tokens[i]!.pos!) + call
    at = tokens[close]!.end!
    i = close
  }
  return out + sql.slice(at)
}
