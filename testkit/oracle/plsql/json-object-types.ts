/**
 * The PL/SQL JSON object types JSON_ELEMENT_T, JSON_OBJECT_T, JSON_ARRAY_T and JSON_SCALAR_T (PL/SQL Packages and
 * Types Reference, "JSON Data Structures"; their in-memory JSON: json-dom.ts): in an expression `T.parse(text)`,
 * the constructors `JSON_OBJECT_T([text])` / `JSON_ARRAY_T([text])`, `TREAT(e AS T)` and a variable, each followed
 * by member function calls (`o.get_object('a').get_string('b')`); as a statement the member procedures `put`,
 * `put_null`, `remove`, `rename_key`, `append`, `append_null` of a variable.
 *
 * A member function meeting a value of the wrong kind (get_number of a string, a missing key or index) returns NULL:
 * "By default, if an error occurs when you call a member method for your JSON array (or object), NULL is returned"
 * (Steven Feuerstein, "Working With JSON Arrays in PL/SQL", stevenfeuersteinonplsql.blogspot.com, 2019). A method
 * of a NULL instance is ORA-30625 "method dispatch on NULL SELF argument is disallowed", as for any object type.
 */
import { DuckDBDateValue, DuckDBTimestampValue, type DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { isKw, isName, isOp, splitTopLevel, type Tok } from "../lexer.ts"
import { jsonNumberText, NUMBER_TEXT, scalarText } from "../json-functions.ts"
import { namedTypesOf } from "../named-types.ts"
import type { JsonNode } from "../oson.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import type { Frame, Slot, Value } from "./context.ts"
import { PlsCompileError } from "./errors.ts"
import { cloneDom, domOf, isJsonTypeName, type JsonDom, type JsonTypeName, jsonTypeOf, parseJsonDom, PlsqlJson, serializeDom } from "./json-dom.ts"
import { closingParen } from "./names.ts"
import { PlsqlCollection } from "./collections.ts"
import { collectionTypeOfNamed } from "./schema-collections.ts"
import { lookup } from "./scope.ts"
import { kindOfType, numberOfText } from "./value-kinds.ts"

/** The JSON object type a variable is declared with (`v JSON_OBJECT_T`, `v SYS.JSON_OBJECT_T`); undefined for any other. */
const declaredJsonType = (ctx: Frame, name: string): JsonTypeName | undefined => {
  const slot = lookup(ctx, name)
  return slot?.k === "var" ? jsonTypeOf(slot.type) : undefined
}

/** A member function call of a chain: its name token and its arguments. */
interface Step {
  readonly name: Tok
  readonly args: ReadonlyArray<Expr>
}

/** How a chain starts: a static `parse`, a constructor, a TREAT, or a variable; its JSON object type. */
type Primary =
  | { readonly k: "parse" | "construct"; readonly type: JsonTypeName; readonly args: ReadonlyArray<Expr> }
  | { readonly k: "treat"; readonly type: JsonTypeName; readonly operand: Expr }
  | { readonly k: "var"; readonly type: JsonTypeName; readonly name: Tok }
  | { readonly k: "call"; readonly type: JsonTypeName; readonly slot: Extract<Slot, { k: "subprogram" }>; readonly args: ReadonlyArray<Expr> }

const argsOf = (expr: Expr, open: number, close: number): ReadonlyArray<Expr> => (close > open + 1 ? splitTopLevel(expr.slice(open + 1, close)) : [])

/** The primary of a chain starting at `k` and the index of its last token; undefined when none starts there. */
const primaryAt = (ctx: Frame, expr: Expr, k: number): { primary: Primary; last: number; nameEnd: number } | undefined => {
  const t = expr[k]
  if (!isName(t) || isOp(expr[k - 1], ".")) return undefined
  const name = oracleName(t)
  if (isJsonTypeName(name) && lookup(ctx, name) === undefined) {
    const type = name
    if (isOp(expr[k + 1], ".") && isName(expr[k + 2]) && oracleName(expr[k + 2]!) === "PARSE" && isOp(expr[k + 3], "(")) {
      const close = closingParen(expr, k + 3)
      return { primary: { k: "parse", type, args: argsOf(expr, k + 3, close) }, last: close, nameEnd: k + 2 }
    }
    if (isOp(expr[k + 1], "(") && (type === "JSON_OBJECT_T" || type === "JSON_ARRAY_T")) {
      const close = closingParen(expr, k + 1)
      return { primary: { k: "construct", type, args: argsOf(expr, k + 1, close) }, last: close, nameEnd: k }
    }
    return undefined
  }
  if (isKw(t, "TREAT") && isOp(expr[k + 1], "(")) {
    const close = closingParen(expr, k + 1)
    const target = expr[close - 1]
    if (!isKw(expr[close - 2], "AS") || !isName(target) || !isJsonTypeName(oracleName(target))) return undefined
    return { primary: { k: "treat", type: oracleName(target) as JsonTypeName, operand: expr.slice(k + 2, close - 2) }, last: close, nameEnd: k }
  }
  // `f(args).m`: a local function returning an instance
  const slot = isOp(expr[k + 1], "(") ? lookup(ctx, name) : undefined
  const returns = slot?.k === "subprogram" && typeof slot.sub.returns === "object" ? jsonTypeOf(slot.sub.returns) : undefined
  if (slot?.k === "subprogram" && returns !== undefined) {
    const close = closingParen(expr, k + 1)
    return isOp(expr[close + 1], ".") ? { primary: { k: "call", type: returns, slot, args: argsOf(expr, k + 1, close) }, last: close, nameEnd: k } : undefined
  }
  const declared = isOp(expr[k + 1], ".") ? declaredJsonType(ctx, name) : undefined
  return declared === undefined ? undefined : { primary: { k: "var", type: declared, name: t }, last: k, nameEnd: k }
}

/**
 * A call of the JSON object types at `k` of a PL/SQL expression (see the module comment): the index of the token the
 * name of its last call ends at (its arguments follow in parentheses) and how to run it; undefined for anything else.
 */
export function jsonTypeCall(ctx: Frame, expr: Expr, k: number): { readonly end: number; readonly run: () => Promise<Value> } | undefined {
  const start = primaryAt(ctx, expr, k)
  if (start === undefined) return undefined
  const steps: Array<Step> = []
  let at = start.last
  while (isOp(expr[at + 1], ".") && isName(expr[at + 2])) {
    const name = expr[at + 2]!
    const close = isOp(expr[at + 3], "(") ? closingParen(expr, at + 3) : at + 2
    steps.push({ name, args: close > at + 2 ? argsOf(expr, at + 3, close) : [] })
    at = close
  }
  if (start.primary.k === "var" && steps.length === 0) return undefined
  const last = steps[steps.length - 1]
  const end = last === undefined ? start.nameEnd : expr.indexOf(last.name, start.last)
  return {
    end,
    run: async () => {
      let value: Value = await primaryValue(ctx, start.primary)
      let type: JsonTypeName | undefined = start.primary.type
      for (const step of steps) {
        if (type === undefined) throw new PlsCompileError(ctx.source, step.name.pos, 302, `component '${oracleName(step.name)}' must be declared`)
        const result = await memberFunction(ctx, type, value, step)
        value = result.value
        type = result.type
      }
      return value
    }
  }
}

/** The value a chain's primary stands for. */
async function primaryValue(ctx: Frame, p: Primary): Promise<Value> {
  switch (p.k) {
    case "var":
      return ctx.evaluateValue([p.name])
    case "call":
      return ctx.callLocal(p.slot, p.args)
    case "treat": {
      const v = await ctx.evaluateValue(p.operand)
      // TREAT of an instance of another type is NULL (SQL Language Reference, "TREAT")
      return v instanceof PlsqlJson && (p.type === "JSON_ELEMENT_T" || v.typeName === p.type) ? v : null
    }
    case "parse":
    case "construct": {
      if (p.k === "construct" && p.args.length === 0) return new PlsqlJson(p.type === "JSON_OBJECT_T" ? { kind: "object", fields: [] } : { kind: "array", items: [] })
      const v = await ctx.evaluateValue(p.args[0]!)
      if (v === null) return null
      // JSON_OBJECT_T(e JSON_ELEMENT_T): the same instance, of the subtype
      if (v instanceof PlsqlJson) return v.typeName === p.type ? v : raise(40587, "invalid JSON type")
      return new PlsqlJson(parseJsonDom(String(v), p.type))
    }
  }
}

const raise = (code: number, text: string): never => {
  throw new OraError(code, text)
}

/** The JSON scalar of a node, when it is one. */
const scalarOf = (d: JsonDom | undefined): JsonNode | undefined => (d?.kind === "scalar" ? d.node : undefined)

/** A scalar node as VARCHAR2 (get_string): a string's text, a number's digits, true / false; NULL for JSON null and containers. */
const stringOf = (d: JsonDom | undefined): DuckDBValue => {
  const n = scalarOf(d)
  return n === undefined ? null : (scalarText(n) ?? null)
}

/** A scalar node as NUMBER (get_number): a number, or a string of a number; NULL otherwise. */
const numberOf = (d: JsonDom | undefined): DuckDBValue => {
  const n = scalarOf(d)
  if (n?.kind === "number") return numberOfText(n.text)
  if (n?.kind === "double" || n?.kind === "float") return n.value
  if (n?.kind === "string" && NUMBER_TEXT.test(n.value)) return numberOfText(n.value.trim())
  return null
}

/** A scalar node as BOOLEAN (get_boolean): true / false, or the strings "true" / "false"; NULL otherwise. */
const booleanOf = (d: JsonDom | undefined): DuckDBValue => {
  const n = scalarOf(d)
  if (n?.kind === "boolean") return n.value
  if (n?.kind === "string" && (n.value === "true" || n.value === "false")) return n.value === "true"
  return null
}

/**
 * A scalar node as DATE (get_date, its time cut off: "The time component in the DATE value of the get_Date function
 * is truncated", PL/SQL Packages and Types Reference 23, "JSON Data Structures") or TIMESTAMP (get_timestamp): a
 * string of an ISO 8601 date and time; NULL otherwise.
 */
const datetimeOf = (d: JsonDom | undefined, dateOnly: boolean): DuckDBValue => {
  const n = scalarOf(d)
  const m = n?.kind === "string" ? /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?))?Z?$/.exec(n.value) : null
  if (m === null) return null
  const at = Date.parse(`${m[1]}T${dateOnly ? "00:00:00" : (m[2] ?? "00:00:00")}Z`)
  const fraction = dateOnly ? "" : (/\.(\d+)/.exec(m[2] ?? "")?.[1] ?? "")
  return Number.isNaN(at) ? null : new DuckDBTimestampValue(BigInt(Math.floor(at / 1000)) * 1_000_000n + BigInt(fraction.padEnd(6, "0") || "0"))
}

/** The child of an object by key or of an array by 0-based position. */
const childOf = (d: JsonDom, key: DuckDBValue): JsonDom | undefined => {
  if (key === null) return undefined
  if (d.kind === "object") return d.fields.find(([k]) => k === String(key))?.[1]
  if (d.kind === "array") return d.items[Number(key)]
  return undefined
}

const element = (d: JsonDom | undefined, as?: JsonTypeName): Value => (d === undefined || (as !== undefined && new PlsqlJson(d).typeName !== as) ? null : new PlsqlJson(d))

/** What `JSON_KEY_LIST` holds: the keys of an object, in order (SYS.JSON_KEY_LIST, VARRAY(32767) OF VARCHAR2(4000)). */
const keyList = (ctx: Frame, d: JsonDom): Value => {
  const named = namedTypesOf(ctx.host.db).lookup(ctx.host.schema, "SYS", "JSON_KEY_LIST")
  const type = named === undefined ? undefined : collectionTypeOfNamed(named)
  if (type === undefined) return null
  const list = new PlsqlCollection<DuckDBValue>(type)
  if (d.kind === "object") for (const [k] of d.fields) list.push(k)
  return list as Value
}

/** The member functions without arguments every JSON object type has (JSON_ELEMENT_T's), by name. */
const ELEMENT_FUNCTIONS: Record<string, (d: JsonDom) => Value> = {
  TO_STRING: (d) => serializeDom(d),
  STRINGIFY: (d) => serializeDom(d),
  TO_CLOB: (d) => serializeDom(d),
  TO_NUMBER: (d) => numberOf(d),
  TO_BOOLEAN: (d) => booleanOf(d),
  IS_OBJECT: (d) => d.kind === "object",
  IS_ARRAY: (d) => d.kind === "array",
  IS_SCALAR: (d) => d.kind === "scalar",
  IS_STRING: (d) => scalarOf(d)?.kind === "string",
  IS_NUMBER: (d) => ["number", "double", "float"].includes(scalarOf(d)?.kind ?? ""),
  IS_BOOLEAN: (d) => scalarOf(d)?.kind === "boolean",
  IS_NULL: (d) => scalarOf(d)?.kind === "null",
  GET_SIZE: (d) => (d.kind === "object" ? d.fields.length : d.kind === "array" ? d.items.length : 1)
}

/** The member functions with a key (JSON_OBJECT_T) or position (JSON_ARRAY_T) argument, by name. */
const CHILD_FUNCTIONS: Record<string, (child: JsonDom | undefined) => Value> = {
  GET: (c) => element(c),
  GET_STRING: stringOf,
  GET_CLOB: stringOf,
  GET_NUMBER: numberOf,
  GET_BOOLEAN: booleanOf,
  GET_DATE: (c) => datetimeOf(c, true),
  GET_TIMESTAMP: (c) => datetimeOf(c, false)
}

/** The JSON object type of the result of a member function that returns one. */
const RESULT_TYPES: Record<string, JsonTypeName> = { GET: "JSON_ELEMENT_T", GET_OBJECT: "JSON_OBJECT_T", GET_ARRAY: "JSON_ARRAY_T" }

/** Runs member function `step` of an instance of `type`: its value and, when it is an instance, its JSON object type. */
async function memberFunction(ctx: Frame, type: JsonTypeName, self: Value, step: Step): Promise<{ value: Value; type: JsonTypeName | undefined }> {
  const method = oracleName(step.name)
  const onChild = type === "JSON_OBJECT_T" || type === "JSON_ARRAY_T" ? CHILD_FUNCTIONS[method] : undefined
  const objectOnly = type === "JSON_OBJECT_T" && ["GET_OBJECT", "GET_ARRAY", "HAS", "GET_KEYS"].includes(method)
  const known = ELEMENT_FUNCTIONS[method] !== undefined || onChild !== undefined || objectOnly || method === "CLONE"
  if (!known) throw new PlsCompileError(ctx.source, step.name.pos, 302, `component '${method}' must be declared`)
  if (!(self instanceof PlsqlJson)) throw new OraError(30625, "method dispatch on NULL SELF argument is disallowed")
  const d = self.dom
  const resultType = RESULT_TYPES[method]
  // clone returns an instance of the type it is called on
  if (method === "CLONE") return { value: new PlsqlJson(cloneDom(d)), type }
  if (method === "GET_KEYS") return { value: keyList(ctx, d), type: undefined }
  const fn = ELEMENT_FUNCTIONS[method]
  if (fn !== undefined && step.args.length === 0) return { value: fn(d), type: undefined }
  if (step.args.length !== 1) throw new PlsCompileError(ctx.source, step.name.pos, 306, `wrong number or types of arguments in call to '${method}'`)
  const child = childOf(d, await ctx.evaluate(step.args[0]!))
  if (method === "HAS") return { value: child !== undefined, type: undefined }
  if (method === "GET_OBJECT") return { value: element(child, "JSON_OBJECT_T"), type: resultType }
  if (method === "GET_ARRAY") return { value: element(child, "JSON_ARRAY_T"), type: resultType }
  return { value: onChild!(child), type: resultType }
}

/** A value typed by its variable: a NUMBER held as exact decimal text, a DATE / TIMESTAMP held as text. */
class Typed {
  constructor(
    readonly kind: "number" | "datetime",
    readonly text: string
  ) {}
}

/**
 * An argument's value, a variable's NUMBER held as exact decimal text and DATE / TIMESTAMP held as text marked as
 * such (put stores them as a JSON number and as ISO 8601 text, not as strings like a VARCHAR2's).
 */
const typedValue = (ctx: Frame, arg: Expr, v: Value): unknown => {
  if (typeof v !== "string" || arg.length !== 1 || !isName(arg[0])) return v
  const slot = lookup(ctx, oracleName(arg[0]))
  const kind = slot?.k === "var" ? kindOfType(slot.type) : undefined
  return kind === "number" || kind === "datetime" ? new Typed(kind, v) : v
}

/** A PL/SQL value as a JSON node to put into an object or array: an instance's JSON as a copy, a scalar as itself. */
const domOfValue = (v: unknown): JsonDom => {
  if (v instanceof PlsqlJson) return cloneDom(v.dom)
  if (v instanceof Typed && v.kind === "number") return { kind: "scalar", node: { kind: "number", text: jsonNumberText(v.text) } }
  if (v instanceof Typed) return { kind: "scalar", node: { kind: "string", value: /^\d{4}-\d{2}-\d{2}$/.test(v.text) ? `${v.text}T00:00:00` : v.text.replace(" ", "T") } }
  if (v === null || v === undefined) return { kind: "scalar", node: { kind: "null" } }
  if (typeof v === "boolean") return { kind: "scalar", node: { kind: "boolean", value: v } }
  if (typeof v === "number" || typeof v === "bigint") return { kind: "scalar", node: { kind: "number", text: String(v) } }
  // a DATE / TIMESTAMP as its ISO 8601 text, as to_string shows it
  if (v instanceof DuckDBTimestampValue) return { kind: "scalar", node: { kind: "string", value: isoText(v.micros) } }
  if (v instanceof DuckDBDateValue) return { kind: "scalar", node: { kind: "string", value: isoText(BigInt(v.days) * 86_400_000_000n) } }
  return domOf({ kind: "string", value: String(v) })
}

/**
 * `v.p(args)` as a statement, `v` a variable of a JSON object type and `p` one of its member procedures: changes the
 * instance in place; false for any other call.
 */
export async function jsonProcedureCall(ctx: Frame, parts: ReadonlyArray<string>, args: ReadonlyArray<Expr>, at: Tok): Promise<boolean> {
  if (parts.length !== 2) return false
  const type = declaredJsonType(ctx, parts[0]!)
  if (type === undefined) return false
  const self = await ctx.evaluateValue([{ kind: "ident", text: parts[0]!, value: parts[0]!, pos: at.pos }])
  await memberProcedure(ctx, type, self, parts[1]!, args, at)
  return true
}

/**
 * `e.p(args);` with `e` a chain of calls returning an instance (`o.get_object('a').put('b', 1);`): member procedure
 * `p` of the instance, changed in place (and with it the tree it belongs to); PLS-00302 when `e` returns none.
 */
export async function chainedProcedureCall(ctx: Frame, self: Expr, method: string, args: ReadonlyArray<Expr>, at: Tok): Promise<void> {
  const call = jsonTypeCall(ctx, self, 0)
  const ends = call === undefined ? -1 : isOp(self[call.end + 1], "(") ? closingParen(self, call.end + 1) : call.end
  if (call === undefined || ends !== self.length - 1) {
    throw new PlsCompileError(ctx.source, at.pos, 302, `component '${method}' must be declared`)
  }
  const value = await call.run()
  const type = value instanceof PlsqlJson ? value.typeName : "JSON_ELEMENT_T"
  await memberProcedure(ctx, type, value, method, args, at)
}

/** Runs member procedure `method` of an instance of `type`. */
async function memberProcedure(ctx: Frame, type: JsonTypeName, self: Value, method: string, args: ReadonlyArray<Expr>, at: Tok): Promise<void> {
  const object = type === "JSON_OBJECT_T" ? OBJECT_PROCEDURES[method] : undefined
  const array = type === "JSON_ARRAY_T" ? ARRAY_PROCEDURES[method] : undefined
  const arity = object?.arity ?? array?.arity
  if (arity === undefined) throw new PlsCompileError(ctx.source, at.pos, 302, `component '${method}' must be declared`)
  if (args.length < arity[0] || args.length > arity[1]) throw new PlsCompileError(ctx.source, at.pos, 306, `wrong number or types of arguments in call to '${method}'`)
  if (!(self instanceof PlsqlJson)) throw new OraError(30625, "method dispatch on NULL SELF argument is disallowed")
  const values: Array<unknown> = []
  for (const a of args) values.push(typedValue(ctx, a, await ctx.evaluateValue(a)))
  if (self.dom.kind === "object" && object !== undefined) object.run(self.dom, values)
  else if (self.dom.kind === "array" && array !== undefined) array.run(self.dom, values)
}

type ObjectDom = Extract<JsonDom, { kind: "object" }>
type ArrayDom = Extract<JsonDom, { kind: "array" }>

/** `put(key, value)` of an object: replaces the key's value where it stands, or adds the key at the end. */
const putField = (d: ObjectDom, key: unknown, value: JsonDom): void => {
  if (key === null || key === undefined) return
  const at = d.fields.findIndex(([k]) => k === String(key))
  if (at < 0) d.fields.push([String(key), value])
  else d.fields[at] = [String(key), value]
}

/** JSON_OBJECT_T's member procedures: their least and most arguments and what they do. */
const OBJECT_PROCEDURES: Record<string, { readonly arity: readonly [number, number]; readonly run: (d: ObjectDom, args: ReadonlyArray<unknown>) => void }> = {
  PUT: { arity: [2, 2], run: (d, [k, v]) => putField(d, k, domOfValue(v)) },
  PUT_NULL: { arity: [1, 1], run: (d, [k]) => putField(d, k, domOfValue(null)) },
  REMOVE: {
    arity: [1, 1],
    run: (d, [k]) => {
      const at = d.fields.findIndex(([key]) => key === String(k))
      if (at >= 0) d.fields.splice(at, 1)
    }
  },
  RENAME_KEY: {
    arity: [2, 2],
    run: (d, [from, to]) => {
      const at = d.fields.findIndex(([key]) => key === String(from))
      if (at >= 0 && to !== null) d.fields[at] = [String(to), d.fields[at]![1]]
    }
  }
}

/** JSON_ARRAY_T's member procedures: positions from 0; `put(i, v[, overwrite])` inserts before i unless it overwrites. */
const ARRAY_PROCEDURES: Record<string, { readonly arity: readonly [number, number]; readonly run: (d: ArrayDom, args: ReadonlyArray<unknown>) => void }> = {
  APPEND: { arity: [1, 1], run: (d, [v]) => void d.items.push(domOfValue(v)) },
  APPEND_NULL: { arity: [0, 0], run: (d) => void d.items.push(domOfValue(null)) },
  PUT: { arity: [2, 3], run: (d, [i, v, overwrite]) => putItem(d, i, domOfValue(v), overwrite === true) },
  PUT_NULL: { arity: [1, 2], run: (d, [i, overwrite]) => putItem(d, i, domOfValue(null), overwrite === true) },
  REMOVE: {
    arity: [1, 1],
    run: (d, [i]) => {
      const at = Number(i)
      if (i !== null && at >= 0 && at < d.items.length) d.items.splice(at, 1)
    }
  }
}

/** A timestamp's microseconds since 1970 as ISO 8601 text (`2020-01-02T10:11:12`, a fraction when it has one). */
const isoText = (micros: bigint): string => {
  const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n)
  const fraction = micros - seconds * 1_000_000n
  const text = new Date(Number(seconds) * 1000).toISOString().slice(0, 19)
  return fraction === 0n ? text : `${text}.${String(fraction).padStart(6, "0").replace(/0+$/, "")}`
}

const putItem = (d: ArrayDom, i: unknown, value: JsonDom, overwrite: boolean): void => {
  if (i === null) return
  const at = Math.max(0, Number(i))
  if (at >= d.items.length) d.items.push(value)
  else d.items.splice(at, overwrite ? 1 : 0, value)
}
