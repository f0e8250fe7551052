/**
 * Object-typed PL/SQL variables (`v point_t := point_t(1, 'a')`): a schema OBJECT type (CREATE TYPE ... AS OBJECT,
 * named-types.ts) as a variable's type. The value is held as the server stores an object everywhere, the extended
 * JSON text of its attribute values (named-types.ts), NULL when atomically null; `v.attr` reads an attribute and
 * `v.attr := x` writes one, ORA-06530 ACCESS_INTO_NULL on an atomically null object ("ACCESS_INTO_NULL: a program
 * attempts to assign values to the attributes of an uninitialized object", PL/SQL Language Reference,
 * "Predefined Exceptions"; the error's text "Reference to uninitialized composite" and cause "An object ... referenced
 * as a left hand side without having been initialized": https://docs.oracle.com/error-help/db/ora-06530).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { fromExtendedJson, toExtendedJson } from "../extended-json.ts"
import { namedTypesOf } from "../named-types.ts"
import type { JsonNode } from "../oson.ts"
import { isOp, type Tok } from "../lexer.ts"
import type { Member, NamedType } from "../pickle.ts"
import { oracleName } from "../translate.ts"
import { Dty } from "../types.ts"
import type { TypeSpec } from "./ast.ts"
import type { Frame } from "./context.ts"
import { PlsCompileError, valueError } from "./errors.ts"
import { numberOfText } from "./value-kinds.ts"

/** The schema OBJECT type a declared PL/SQL type names; undefined for any other type. */
export function objectTypeOf(ctx: Frame, t: TypeSpec | undefined): NamedType | undefined {
  if (t?.kind !== "named" || t.name.includes(" ")) return undefined
  const named = namedTypesOf(ctx.host.db).lookup(ctx.host.schema, undefined, t.name)
  return named?.kind === "object" ? named : undefined
}

/** The attribute values of a stored object's text, by position. */
const items = (text: string): Array<JsonNode> => {
  const node = fromExtendedJson(text)
  return node.kind === "array" ? [...node.items] : []
}

/** The position of attribute `attr` (PLS-00302 when the type has none of that name). */
const attributeIndex = (ctx: Frame, type: NamedType, attr: string, pos: number): number => {
  const k = type.attributes.findIndex((a) => a.name === attr)
  if (k < 0) throw new PlsCompileError(ctx.source, pos, 302, `component '${attr}' must be declared`)
  return k
}

/** `v.attr` of an object value: NULL when the object is atomically null, as Oracle reads it. */
export function readAttribute(ctx: Frame, type: NamedType, value: unknown, attr: string, pos: number): DuckDBValue {
  const k = attributeIndex(ctx, type, attr, pos)
  if (typeof value !== "string") return null
  const node = items(value)[k]
  if (node === undefined || node.kind === "null") return null
  if (node.kind === "number") return numberOfText(node.text)
  // a NUMBER attribute's exact decimal text (how a constructor stores an unconstrained NUMBER) is a number
  const member = type.attributes[k]!.member
  if (node.kind === "string") return "scalar" in member && member.scalar.kind === "number" && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(node.value) ? numberOfText(node.value) : node.value
  if (node.kind === "boolean") return node.value
  // dates, raw values, nested objects and collections stay in their stored text
  return toExtendedJson(node)
}

/**
 * `v.a`, `v.a.b`, ... starting at the variable's token `at`: an attribute, through nested object attributes (a nested
 * object atomically null reads its attributes as NULL); width counts the tokens read.
 */
export function readAttributes(ctx: Frame, type: NamedType, value: unknown, toks: ReadonlyArray<Tok>, at: number): { value: DuckDBValue; width: number } {
  let t: NamedType | undefined = type
  let v: DuckDBValue = value as DuckDBValue
  let k = at
  while (t !== undefined && isOp(toks[k + 1], ".") && toks[k + 2] !== undefined) {
    const name = oracleName(toks[k + 2]!)
    const member: Member = t.attributes[attributeIndex(ctx, t, name, toks[k + 2]!.pos)]!.member
    v = readAttribute(ctx, t, v, name, toks[k + 2]!.pos)
    t = "named" in member && member.named.kind === "object" ? member.named : undefined
    k += 2
  }
  return { value: v, width: k - at + 1 }
}

/** The object text after `v.attr := x`; ORA-06530 when the object is atomically null. */
export function writeAttribute(ctx: Frame, type: NamedType, value: unknown, attr: string, x: DuckDBValue, pos: number): string {
  const k = attributeIndex(ctx, type, attr, pos)
  if (typeof value !== "string") throw new OraError(6530, "Reference to uninitialized composite")
  const all = items(value)
  while (all.length < type.attributes.length) all.push({ kind: "null" })
  all[k] = nodeOf(attributeValue(type.attributes[k]!.member, x))
  return toExtendedJson({ kind: "array", items: all })
}

/**
 * `x` as an attribute of declared type `member` holds it, as a PL/SQL variable of that type would: a NUMBER(p,s)
 * attribute rounds to its scale and refuses more than p - s integer digits, a VARCHAR2 / CHAR attribute refuses text
 * longer than its size (bytes, characters when national), text that is no number refused by a NUMBER attribute; each
 * refusal ORA-06502 VALUE_ERROR, "an arithmetic, conversion, truncation, or size-constraint error" (PL/SQL Language
 * Reference, "Predefined Exceptions"), as conversion.ts raises it for variables. Attributes are declared like
 * variables: "the attributes ... can be of any Oracle data type" with the data type's constraints (Object-Relational
 * Developer's Guide, "Object Types: Attributes").
 */
const attributeValue = (member: Member, x: DuckDBValue): DuckDBValue => {
  const scalar = "scalar" in member ? member.scalar : undefined
  if (scalar === undefined || x === null) return x
  if (scalar.kind === "number") {
    let n: DuckDBValue = x
    if (typeof x === "string") {
      const text = x.trim()
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw valueError("character to number conversion error")
      n = numberOfText(text)
    }
    // NUMBER(p,-s) rounds to 10^s, more than p + s integer digits refused
    if (scalar.dictName !== "NUMBER" || scalar.precision <= 0 || !Number.isFinite(scalar.scale)) return n
    const v = Number(n)
    const scale = scalar.scale
    const rounded = scale >= 0 ? Number(v.toFixed(Math.min(scale, 100))) : Math.round(v / 10 ** -scale) * 10 ** -scale
    if (Math.abs(rounded) >= 10 ** (scalar.precision - scale)) throw valueError("number precision too large")
    return rounded
  }
  if (TEXT_KINDS.has(scalar.kind) && scalar.charSize > 0) {
    const text = String(x)
    const national = scalar.kind === "nvarchar"
    const length = national ? [...text].length : Buffer.byteLength(text)
    if (length > scalar.charSize) throw valueError("character string buffer too small")
    // a CHAR(n) / NCHAR(n) attribute holds its text blank-padded to n, as a CHAR variable does
    if (scalar.dty === Dty.CHAR) return text + " ".repeat(scalar.charSize - length)
  }
  return x
}

const TEXT_KINDS: ReadonlySet<string> = new Set(["varchar", "nvarchar", "char"])

/** A scalar PL/SQL value as an attribute's JSON node (numbers and text; other values as text). */
const nodeOf = (x: DuckDBValue): JsonNode => {
  if (x === null) return { kind: "null" }
  if (typeof x === "number" || typeof x === "bigint") return { kind: "number", text: String(x) }
  if (typeof x === "boolean") return { kind: "boolean", value: x }
  return { kind: "string", value: String(x) }
}
