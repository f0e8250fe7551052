/**
 * SQLScript procedure definitions of the HANA test server: `CREATE [OR REPLACE] PROCEDURE`, `DROP PROCEDURE` and
 * `CALL` statements parsed into what the interpreter (procedures/run.ts) executes.
 *
 * Syntax: SAP HANA SQLScript Reference, "CREATE PROCEDURE" and "Procedure Calls"
 * (https://help.sap.com/docs/HANA_SERVICE_CF/7c78579ce9b14a669c1f3295b0d8ca16/20d467407519101484f7902a34d55acb.html):
 * `CREATE [OR REPLACE] PROCEDURE [schema.]name [(param, …)] [LANGUAGE SQLSCRIPT] [SQL SECURITY …] [DEFAULT SCHEMA s]
 * [READS SQL DATA] AS BEGIN … END`, a parameter being `[IN|OUT|INOUT] name type` where type is a scalar SQL type
 * or `TABLE (col type, …)`. The body is parsed by procedures/body.ts.
 */
import { HanaError } from "../errors.ts"
import { identOf, matching, sig, splitTopLevel, tokenize, upper } from "../lexer.ts"
import type { Token } from "../lexer.ts"
import { hanaType } from "../types.ts"
import { VECTOR_TYPES } from "../vector-types.ts"
import type { HanaType } from "../types.ts"
import { parseBody, scalarTypeAt, textOf } from "./body.ts"
import type { BodyStatement } from "./body.ts"

export type { BodyStatement, StatementText } from "./body.ts"

/** A column of a `TABLE (…)` parameter type. */
export interface TableColumn {
  readonly name: string
  readonly type: HanaType
}

/** One procedure parameter. */
export interface ProcedureParameter {
  readonly name: string
  readonly mode: "IN" | "OUT" | "INOUT"
  /** A scalar type, or the columns of a table type. */
  readonly type: HanaType | { readonly table: readonly TableColumn[] }
}

/** A stored procedure. */
export interface ProcedureDefinition {
  readonly schema: string
  readonly name: string
  readonly parameters: readonly ProcedureParameter[]
  readonly body: readonly BodyStatement[]
}

/** A procedure statement recognised in a request. */
export type ProcedureStatement =
  | { readonly kind: "create"; readonly replace: boolean; readonly definition: ProcedureDefinition }
  | { readonly kind: "drop"; readonly schema: string; readonly name: string }
  | { readonly kind: "call"; readonly schema: string; readonly name: string; readonly args: readonly CallArgument[] }

/** One argument of CALL: a `?` (bound at EXECUTE, or an output) or an expression (IN only). */
export type CallArgument = { readonly kind: "param" } | { readonly kind: "expression"; readonly text: string }

/** True for a parameter of a table type. */
export const isTableParameter = (p: ProcedureParameter): p is ProcedureParameter & { type: { table: readonly TableColumn[] } } =>
  "table" in p.type

const isOp = (t: Token | undefined, v: string): boolean => t !== undefined && t.t === "op" && t.v === v

/** `[schema.]name` at tokens[i]: [schema, name, tokens used]. */
const nameAt = (tokens: readonly Token[], i: number, schema: string): [string, string, number] => {
  const first = identOf(tokens[i])
  if (first === undefined) throw HanaError.syntax(`procedure name expected near ${tokens[i]?.v ?? "<end>"}`, tokens[i]?.pos ?? 0)
  if (isOp(tokens[i + 1], ".")) {
    const second = identOf(tokens[i + 2])
    if (second === undefined) throw HanaError.syntax("procedure name expected after '.'", tokens[i + 1]?.pos ?? 0)
    return [first, second, 3]
  }
  return [schema, first, 1]
}

const parameterOf = (item: readonly Token[]): ProcedureParameter => {
  let i = 0
  let mode: ProcedureParameter["mode"] = "IN"
  const head = upper(item[0])
  if (head === "IN" || head === "OUT" || head === "INOUT") {
    mode = head
    i = 1
  }
  const name = identOf(item[i])
  if (name === undefined) throw HanaError.syntax(`parameter name expected near ${item[i]?.v ?? "<end>"}`, item[i]?.pos ?? 0)
  if (upper(item[i + 1]) === "TABLE" && isOp(item[i + 2], "(")) {
    const close = matching(item, i + 2)
    const table = splitTopLevel(item.slice(i + 3, close)).map((col) => {
      const colName = identOf(col[0])
      if (colName === undefined) throw HanaError.syntax("column name expected in TABLE type", col[0]?.pos ?? 0)
      return { name: colName, type: scalarTypeAt(col, 1)[0] }
    })
    return { name, mode, type: { table } }
  }
  if (item[i + 1] === undefined) throw HanaError.syntax(`type of parameter ${name} expected`, 0)
  if (upper(item[i + 1]) !== "" && hanaType(upper(item[i + 1])) === undefined && !VECTOR_TYPES.has(upper(item[i + 1])) && item.length === i + 2) {
    // A table type created with CREATE TYPE … AS TABLE is not kept by the test server.
    throw HanaError.unsupported(`parameter ${name} of table type ${item[i + 1]!.v} (write TABLE (col type, …) inline)`)
  }
  const [type] = scalarTypeAt(item, i + 1)
  return { name, mode, type }
}

const parseCreate = (sql: string, all: readonly Token[], schema: string): ProcedureStatement => {
  let i = 1
  let replace = false
  if (upper(all[1]) === "OR" && upper(all[2]) === "REPLACE") {
    replace = true
    i = 3
  }
  i++ // PROCEDURE
  const [procSchema, name, used] = nameAt(all, i, schema)
  i += used
  let parameters: ProcedureParameter[] = []
  if (isOp(all[i], "(")) {
    const close = matching(all, i)
    const items = splitTopLevel(all.slice(i + 1, close)).filter((it) => it.length > 0)
    parameters = items.map(parameterOf)
    i = close + 1
  }
  const seen = new Set<string>()
  for (const p of parameters) {
    if (seen.has(p.name)) throw HanaError.syntax(`duplicate parameter name: ${p.name}`, 0)
    seen.add(p.name)
  }
  while (i < all.length && upper(all[i]) !== "AS") i++
  if (upper(all[i + 1]) !== "BEGIN" || upper(all[all.length - 1]) !== "END") {
    throw HanaError.syntax("AS BEGIN … END expected", all[i]?.pos ?? 0)
  }
  const body = parseBody(sql, all.slice(i + 2, all.length - 1))
  return { kind: "create", replace, definition: { schema: procSchema, name, parameters, body } }
}

const parseCall = (sql: string, all: readonly Token[], schema: string): ProcedureStatement => {
  const [procSchema, name, used] = nameAt(all, 1, schema)
  const open = 1 + used
  const args: CallArgument[] = []
  if (isOp(all[open], "(")) {
    const close = matching(all, open)
    if (close !== all.length - 1 && !(upper(all[close + 1]) === "WITH" && upper(all[close + 2]) === "OVERVIEW")) {
      throw HanaError.syntax(`incorrect syntax near "${all[close + 1]!.v}"`, all[close + 1]!.pos ?? 0)
    }
    if (close !== all.length - 1) throw HanaError.unsupported("CALL … WITH OVERVIEW")
    for (const item of splitTopLevel(all.slice(open + 1, close))) {
      if (item.length === 0) continue
      if (item.length === 1 && item[0]!.t === "param" && item[0]!.name === undefined) args.push({ kind: "param" })
      else if (item.some((t) => t.t === "param")) throw HanaError.unsupported("CALL arguments other than ?, literals and expressions")
      else args.push({ kind: "expression", text: textOf(sql, item).sql })
    }
  } else if (open !== all.length) throw HanaError.syntax(`incorrect syntax near "${all[open]!.v}"`, all[open]!.pos ?? 0)
  return { kind: "call", schema: procSchema, name, args }
}

/**
 * Recognises `CREATE [OR REPLACE] PROCEDURE`, `DROP PROCEDURE` and `CALL`; undefined for any other statement (which
 * then goes to the SQL translator). `schema` is the session's current schema.
 */
export const procedureStatement = (sql: string, schema: string): ProcedureStatement | undefined => {
  // Most statements are none of these: spare them a second tokenization.
  if (!/\b(?:CALL|PROCEDURE)\b/i.test(sql)) return undefined
  const all = sig(tokenize(sql))
  while (all.length > 0 && isOp(all[all.length - 1], ";")) all.pop()
  const w0 = upper(all[0])
  if (w0 === "CALL") return parseCall(sql, all, schema)
  if (w0 === "DROP" && upper(all[1]) === "PROCEDURE") {
    const [procSchema, name, used] = nameAt(all, 2, schema)
    const tail = all.slice(2 + used).map(upper)
    if (tail.length > 1 || (tail.length === 1 && tail[0] !== "CASCADE" && tail[0] !== "RESTRICT")) {
      throw HanaError.syntax(`incorrect syntax near "${all[2 + used]!.v}"`, all[2 + used]!.pos ?? 0)
    }
    return { kind: "drop", schema: procSchema, name }
  }
  if (w0 === "CREATE") {
    const at = upper(all[1]) === "OR" && upper(all[2]) === "REPLACE" ? 3 : 1
    if (upper(all[at]) === "PROCEDURE") return parseCreate(sql, all, schema)
  }
  return undefined
}
