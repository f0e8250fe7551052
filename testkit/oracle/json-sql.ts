/**
 * Oracle's SQL/JSON syntax rewritten, before translation, into calls of json-functions.ts and json-serialize.ts: JSON_VALUE, JSON_QUERY,
 * JSON_EXISTS (with their RETURNING, wrapper, quotes and ON ERROR / ON EMPTY clauses), the conditions `IS [NOT]
 * JSON`, and the generation functions JSON_OBJECT (`[KEY] 'k' VALUE v`, `'k' IS v`, `'k' : v`, FORMAT JSON,
 * NULL / ABSENT ON NULL), JSON_ARRAY, the aggregates JSON_ARRAYAGG / JSON_OBJECTAGG and JSON_SERIALIZE. Their clauses are keywords inside the call's parentheses, which the
 * translator would otherwise render as arguments (DuckDB has functions of the same names with other semantics:
 * DuckDB's json_value keeps a string's quotes).
 *
 * References: SQL Language Reference, JSON_VALUE, JSON_QUERY, JSON_EXISTS Condition, IS JSON Condition, JSON_OBJECT,
 * JSON_ARRAY; JSON Developer's Guide 23ai, "Handling of Input Values For SQL/JSON Generation Functions" (the default
 * return type is VARCHAR2(4000); an input known to be JSON, such as a json_query or generation function result, is
 * used as is).
 */
import { OraError } from "./errors.ts"
import type { OracleVersion } from "./errors.ts"
import { isKw, isName, isOp, matchParen, sqlString, type Tok, tokenize } from "./lexer.ts"
import { ITEM_METHODS } from "./json-item-methods.ts"
import { type OnClause, queryClauses } from "./json-query-clauses.ts"
import type { TransformOperation } from "./json-transform.ts"
import { headingOf } from "./translate.ts"

const CALLS = new Set(["JSON_VALUE", "JSON_QUERY", "JSON_EXISTS", "JSON_OBJECT", "JSON_ARRAY", "JSON_SERIALIZE", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "JSON_MERGEPATCH", "JSON_TRANSFORM"])
const NUMBER_RETURNS = new Set(["NUMBER", "INTEGER", "INT", "FLOAT", "DECIMAL", "NUMERIC", "SMALLINT", "REAL"])

/**
 * JSON_VALUE's text kind for `RETURNING [N]VARCHAR2(n [BYTE | CHAR]) [TRUNCATE]` (SQL Language Reference,
 * JSON_value_return_type): `VARCHAR2(n)` (bytes) or `VARCHAR2(n CHAR)`, with ` TRUNCATE` inside; else `VARCHAR2`.
 */
const sizedText = (words: string): string => {
  const m = /\bRETURNING N?VARCHAR2 \( (\d+)(?: (BYTE|CHAR))?( TRUNCATE)? \)( TRUNCATE)?/.exec(words)
  return m === null ? "VARCHAR2" : `VARCHAR2(${m[1]}${m[2] === "CHAR" ? " CHAR" : ""}${m[3] ?? m[4] ?? ""})`
}

/** Tokens of `sql` (generated text) at position `pos`, with no heading of their own. */
const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))

/** Indices of the non-blank tokens of `toks`. */
const significantAt = (toks: ReadonlyArray<Tok>): Array<number> => toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))

/** The arguments of the call whose `(` is at `open`: token slices between top-level commas, and the `)` index. */
const argumentsOf = (toks: ReadonlyArray<Tok>, open: number): { args: Array<Array<Tok>>; close: number } => {
  const close = matchParen(toks, open)
  if (close < 0) throw new OraError(907, "missing right parenthesis")
  const args: Array<Array<Tok>> = []
  let depth = 0
  let start = open + 1
  for (let k = open + 1; k < close; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isOp(toks[k], ",")) {
      args.push(toks.slice(start, k))
      start = k + 1
    }
  }
  if (significantAt(toks.slice(open + 1, close)).length > 0) args.push(toks.slice(start, close))
  return { args, close }
}

/** The significant tokens of `toks` at depth 0, with their indices. */
const topLevel = (toks: ReadonlyArray<Tok>): Array<[Tok, number]> => {
  const out: Array<[Tok, number]> = []
  let depth = 0
  toks.forEach((t, k) => {
    if (t.kind === "ws") return
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0) out.push([t, k])
  })
  return out
}

/** Where the clauses start in the last argument (`words` recognised at depth 0), or its length when none does. */
const clauseStart = (toks: ReadonlyArray<Tok>, starts: (t: Tok, next: Tok | undefined, after: Tok | undefined) => boolean): number => {
  const top = topLevel(toks)
  for (let k = 0; k < top.length; k++) if (starts(top[k]![0], top[k + 1]?.[0], top[k + 2]?.[0])) return top[k]![1]
  return toks.length
}

/** The upper-cased words of a clause list (identifiers and numbers), for matching. */
const wordsOf = (toks: ReadonlyArray<Tok>): string => toks.filter((t) => t.kind !== "ws").map((t) => (t.kind === "str" ? `'${t.value}'` : t.value)).join(" ")

/** True when `toks` are one call of a function whose result Oracle knows is JSON (used as is, as with FORMAT JSON). */
const isJsonResult = (toks: ReadonlyArray<Tok>): boolean => {
  const sig = toks.filter((t) => t.kind !== "ws")
  return sig.length >= 3 && isKw(sig[0], "JSON_OBJECT", "JSON_ARRAY", "JSON_QUERY", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "JSON") && isOp(sig[1], "(") && matchParen(sig, 1) === sig.length - 1
}

/** The rewrite of nested tokens (rewriteCalls with the statement's server version). */
type Rewrite = (toks: ReadonlyArray<Tok>) => Array<Tok>

/** A generation function's value: its JSON text, or NULL (which NULL ON NULL makes JSON null). */
const valueOf = (expr: Array<Tok>, formatJson: boolean, pos: number, rw: Rewrite): Array<Tok> =>
  formatJson || isJsonResult(expr)
    ? [...generated("ora_json_format(", pos), ...rw(expr), ...generated(")", pos)]
    : [...generated("ora_json_of(", pos), ...rw(expr), ...generated(")", pos)]

/** `expr [FORMAT JSON]` split. */
const formatted = (toks: Array<Tok>): { expr: Array<Tok>; formatJson: boolean } => {
  const sig = significantAt(toks)
  const last = sig[sig.length - 1]
  if (sig.length >= 3 && isKw(toks[last!], "JSON") && isKw(toks[sig[sig.length - 2]!], "FORMAT")) return { expr: toks.slice(0, sig[sig.length - 2]), formatJson: true }
  return { expr: toks, formatJson: false }
}

const GENERATION_CLAUSE = (t: Tok, next: Tok | undefined, after: Tok | undefined) =>
  (isKw(t, "NULL", "ABSENT") && isKw(next, "ON") && isKw(after, "NULL")) || isKw(t, "RETURNING", "STRICT") || (isKw(t, "WITH") && isKw(next, "UNIQUE"))

/** The items of a generation call and its ON NULL choice (`absentDefault` for JSON_ARRAY). */
const generationItems = (args: Array<Array<Tok>>, absentDefault: boolean): { items: Array<Array<Tok>>; absent: boolean } => {
  const last = args[args.length - 1]
  if (last === undefined) return { items: [], absent: absentDefault }
  const at = clauseStart(last, GENERATION_CLAUSE)
  const words = wordsOf(last.slice(at))
  const absent = /\bABSENT ON NULL\b/.test(words) ? true : /\bNULL ON NULL\b/.test(words) ? false : absentDefault
  const items = [...args.slice(0, -1), last.slice(0, at)].filter((a) => a.some((t) => t.kind !== "ws"))
  return { items, absent }
}

/** JSON_OBJECT's members: `ora_json_member(key, value)`, each NULL for a NULL value unless NULL ON NULL. */
const objectSql = (args: Array<Array<Tok>>, pos: number, rw: Rewrite): Array<Tok> => {
  const { items, absent } = generationItems(args, false)
  const members = items.map((item) => {
    const top = topLevel(item)
    const start = isKw(top[0]?.[0], "KEY") ? 1 : 0
    const sep = top.findIndex(([t], k) => k > start && (isKw(t, "VALUE", "IS") || isOp(t, ":")))
    if (sep < 0) throw new OraError(3001, "unimplemented feature: JSON_OBJECT entries other than [KEY] 'name' VALUE | IS | : expression")
    const key = rw(item.slice(top[start]![1], top[sep]![1]))
    const { expr, formatJson } = formatted(item.slice(top[sep]![1] + 1))
    const value = valueOf(expr, formatJson, pos, rw)
    const nullable = absent ? value : [...generated("coalesce(", pos), ...value, ...generated(", 'null')", pos)]
    return [...generated("ora_json_member(CAST(", pos), ...key, ...generated(" AS VARCHAR2(4000)), ", pos), ...nullable, ...generated(")", pos)]
  })
  return wrapped(members, "object", pos)
}

/** JSON_ARRAY's elements (ABSENT ON NULL by default: concat_ws leaves NULL elements out). */
const arraySql = (args: Array<Array<Tok>>, pos: number, rw: Rewrite): Array<Tok> => {
  const { items, absent } = generationItems(args, true)
  const elements = items.map((item) => {
    const { expr, formatJson } = formatted(item)
    const value = valueOf(expr, formatJson, pos, rw)
    return absent ? value : [...generated("coalesce(", pos), ...value, ...generated(", 'null')", pos)]
  })
  return wrapped(elements, "array", pos)
}

const wrapped = (pieces: ReadonlyArray<Array<Tok>>, kind: "object" | "array", pos: number): Array<Tok> => {
  if (pieces.length === 0) return generated(`ora_json_wrap(' ', '${kind}')`, pos)
  const joined = pieces.flatMap((p, k) => (k === 0 ? p : [...generated(", ", pos), ...p]))
  return [...generated("ora_json_wrap(concat_ws(',', ", pos), ...joined, ...generated(`), '${kind}')`, pos)]
}

/** `RETURNING VARCHAR2[(n)] | CLOB | BLOB | JSON` of a clause list (words as wordsOf gives them), VARCHAR2(4000) by default. */
const returningOf = (words: string): { readonly type: "VARCHAR2" | "CLOB" | "BLOB" | "JSON"; readonly size: number } => {
  const m = /\bRETURNING (VARCHAR2|VARCHAR|CLOB|BLOB|JSON)(?: \( (\d+)(?: BYTE| CHAR)? \))?/.exec(words)
  if (m === null) {
    if (/\bRETURNING\b/.test(words)) throw new OraError(3001, `unimplemented feature: ${/\bRETURNING \S+/.exec(words)?.[0] ?? "RETURNING"} (VARCHAR2, CLOB, BLOB or JSON)`)
    return { type: "VARCHAR2", size: 4000 }
  }
  return { type: m[1] === "VARCHAR" ? "VARCHAR2" : (m[1] as "VARCHAR2" | "CLOB" | "BLOB" | "JSON"), size: m[2] === undefined ? 4000 : Number(m[2]) }
}

/**
 * A VARCHAR2 result as the RETURNING type: a CLOB by TO_CLOB and a BLOB by TO_BLOB (builtin-functions.ts, which run
 * after this rewrite, type them so that they are described as CLOB / BLOB), JSON by a cast.
 */
const returned = (text: Array<Tok>, returning: ReturnType<typeof returningOf>, pos: number): Array<Tok> =>
  returning.type === "JSON"
    ? [...generated("CAST(", pos), ...text, ...generated(" AS JSON)", pos)]
    : returning.type === "CLOB" || returning.type === "BLOB"
      ? [...generated(`TO_${returning.type}(`, pos), ...text, ...generated(")", pos)]
      : text

/** The keywords of `names` that the clause words `words` contain (`PRETTY`, `ASCII`, ...). */
const flagsIn = (words: string, names: ReadonlyArray<string>): Array<string> => names.filter((f) => new RegExp(`\\b${f}\\b`).test(words))

const SERIALIZE_CLAUSE = (t: Tok, next: Tok | undefined) => isKw(t, "RETURNING", "PRETTY", "ASCII", "ORDERED", "TRUNCATE") || (isKw(t, "ERROR", "NULL") && isKw(next, "ON"))

/**
 * JSON_SERIALIZE(expr [RETURNING VARCHAR2(n) | CLOB | BLOB] [PRETTY] [ASCII] [ORDERED] [TRUNCATE] [ERROR | NULL ON
 * ERROR]): the document as text (json-serialize.ts), VARCHAR2(4000) by default, a BLOB as its UTF-8 bytes (SQL
 * Language Reference, "JSON_SERIALIZE").
 */
const serializeSql = (args: Array<Array<Tok>>, pos: number, rw: Rewrite): Array<Tok> => {
  const arg = args[0] ?? []
  const at = clauseStart(arg, SERIALIZE_CLAUSE)
  const words = wordsOf(arg.slice(at))
  const returning = returningOf(words)
  if (returning.type === "JSON") throw new OraError(3001, "unimplemented feature: JSON_SERIALIZE ... RETURNING JSON")
  const flags = flagsIn(words, ["PRETTY", "ASCII", "ORDERED", "TRUNCATE"])
  const limit = returning.type === "VARCHAR2" ? returning.size : 0
  // the flags text starts with `-`: an empty literal would be NULL to the translator, as '' is on Oracle
  const fn = returning.type === "BLOB" ? "ora_json_serialize_blob" : "ora_json_serialize"
  const call = [...generated(`${fn}(`, pos), ...rw(arg.slice(0, at)), ...generated(`, '${["-", ...flags].join(" ")}', ${limit})`, pos)]
  if (/\bNULL ON ERROR\b/.test(words)) return [...generated("TRY(", pos), ...call, ...generated(")", pos)]
  return returned(call, returning, pos)
}

const MERGEPATCH_CLAUSE = (t: Tok, next: Tok | undefined) => isKw(t, "RETURNING", "PRETTY", "ASCII", "TRUNCATE") || (isKw(t, "ERROR", "NULL") && isKw(next, "ON"))

/**
 * JSON_MERGEPATCH(target, patch [RETURNING VARCHAR2(n) | CLOB | BLOB | JSON] [PRETTY] [ASCII] [TRUNCATE] [NULL | ERROR
 * ON ERROR]) as `ora_json_mergepatch` (json-mergepatch.ts): "The default return type depends on the input data type.
 * If the input type is JSON, then JSON is also the default return type. Otherwise, VARCHAR2" (4000); NULL ON ERROR
 * is the default (SQL Language Reference 21c, "JSON_MERGEPATCH").
 */
const mergePatchSql = (args: Array<Array<Tok>>, pos: number, rw: Rewrite, version: OracleVersion, jsonColumns: ReadonlySet<string>): Array<Tok> => {
  if (args.length !== 2) throw new OraError(909, "invalid number of arguments")
  const patchArg = args[1]!
  const at = clauseStart(patchArg, MERGEPATCH_CLAUSE)
  const words = wordsOf(patchArg.slice(at))
  const fromJson = version !== "19c" && isJsonColumn(args[0]!, jsonColumns)
  const returning = /\bRETURNING\b/.test(words) || !fromJson ? returningOf(words) : ({ type: "JSON", size: 0 } as const)
  const asJson = returning.type === "JSON"
  const merged = [...generated("ora_json_mergepatch(", pos), ...rw(args[0]!), ...generated(", ", pos), ...rw(patchArg.slice(0, at)), ...generated(`, ${asJson ? "TRUE" : "FALSE"})`, pos)]
  const flags = flagsIn(words, ["PRETTY", "ASCII", "TRUNCATE"])
  const fn = returning.type === "BLOB" ? "ora_json_serialize_blob" : "ora_json_serialize"
  const text = asJson ? merged : [...generated(`${fn}(`, pos), ...merged, ...generated(`, '${["-", ...flags].join(" ")}', ${returning.type === "VARCHAR2" ? returning.size : 0})`, pos)]
  const call = /\bERROR ON ERROR\b/.test(words) ? text : [...generated("TRY(", pos), ...text, ...generated(")", pos)]
  return returned(call, returning, pos)
}

const TRANSFORM_OPS = new Set(["REMOVE", "INSERT", "REPLACE", "SET", "APPEND", "RENAME", "KEEP"])
const HANDLERS = new Set(["ERROR", "IGNORE", "REPLACE", "CREATE", "NULL", "REMOVE"])
const HANDLED = new Set(["MISSING", "EXISTING", "NULL", "EMPTY", "ERROR"])

/**
 * JSON_TRANSFORM(doc, operation [, operation]... [RETURNING type]) as `ora_json_transform(doc, operations, [values],
 * asJson)` (json-transform.ts): each operation `OP 'path' [= expr [FORMAT JSON]] [handler ON event]...` becomes a
 * record of the operations' JSON text, its right-hand side a JSON value in the list (as a generation function's
 * value: text a JSON string, FORMAT JSON text as JSON). The default return type is the input's: JSON for a JSON
 * column, else VARCHAR2(4000) (JSON Developer's Guide, "Oracle SQL Function JSON_TRANSFORM"). Errors are raised.
 */
const transformSql = (args: Array<Array<Tok>>, pos: number, rw: Rewrite, jsonColumns: ReadonlySet<string>): Array<Tok> => {
  if (args.length < 2) throw new OraError(938, "not enough arguments for function")
  const operations: Array<TransformOperation> = []
  const values: Array<Array<Tok>> = []
  let words = ""
  args.slice(1).forEach((whole, n) => {
    const at = n === args.length - 2 ? clauseStart(whole, (t) => isKw(t, "RETURNING", "PASSING")) : whole.length
    if (at < whole.length) words = wordsOf(whole.slice(at))
    const arg = whole.slice(0, at)
    const sig = significantAt(arg)
    const tok = (k: number) => arg[sig[k]!]
    const head = tok(0)
    const previous = operations[operations.length - 1]
    if (head?.kind === "str" && previous?.op === "KEEP" && sig.length === 1) {
      operations[operations.length - 1] = { ...previous, paths: [...previous.paths, head.value] }
      return
    }
    if (head?.kind !== "ident" || !TRANSFORM_OPS.has(head.value)) throw new OraError(3001, `unimplemented feature: JSON_TRANSFORM operation ${head?.text ?? "(none)"} (REMOVE, INSERT, REPLACE, SET, APPEND, RENAME, KEEP)`)
    const op = head.value as TransformOperation["op"]
    const path = tok(1)
    if (path?.kind !== "str") throw new OraError(40454, "path expression not a literal (JSON_TRANSFORM)")
    const on: Record<string, string> = {}
    let end = sig.length
    while (end >= 5 && isKw(tok(end - 2), "ON") && HANDLED.has(tok(end - 1)!.value) && HANDLERS.has(tok(end - 3)!.value)) {
      on[tok(end - 1)!.value] = tok(end - 3)!.value
      end -= 3
    }
    if (op === "REMOVE" || op === "KEEP") {
      if (end !== 2) throw new OraError(907, "missing right parenthesis")
      operations.push({ op, paths: [path.value], on })
      return
    }
    if (!isOp(tok(2), "=") || end <= 3) throw new OraError(3001, `unimplemented feature: JSON_TRANSFORM ${op} without '= expression'`)
    if (isKw(tok(3), "PATH")) throw new OraError(3001, `unimplemented feature: JSON_TRANSFORM ${op} ... = PATH (a path on the right-hand side)`)
    const formatJson = end >= 6 && isKw(tok(end - 1), "JSON") && isKw(tok(end - 2), "FORMAT")
    const expr = arg.slice(sig[3], sig[formatJson ? end - 3 : end - 1]! + 1)
    values.push(valueOf(expr, formatJson, pos, rw))
    operations.push({ op, paths: [path.value], value: values.length - 1, on })
  })
  const fromJson = isJsonColumn(args[0]!, jsonColumns)
  const returning = /\bRETURNING\b/.test(words) || !fromJson ? returningOf(words) : ({ type: "JSON", size: 0 } as const)
  const asJson = returning.type === "JSON"
  const list = values.length === 0 ? generated("CAST([] AS VARCHAR[])", pos) : [...generated("list_value(", pos), ...values.flatMap((v, k) => (k === 0 ? v : [...generated(", ", pos), ...v])), ...generated(")", pos)]
  const call = [...generated("ora_json_transform(", pos), ...rw(args[0]!), ...generated(`, ${sqlString(JSON.stringify(operations))}, `, pos), ...list, ...generated(`, ${asJson ? "TRUE" : "FALSE"})`, pos)]
  const fn = returning.type === "BLOB" ? "ora_json_serialize_blob" : "ora_json_serialize"
  return returned(asJson ? call : [...generated(`${fn}(`, pos), ...call, ...generated(`, '-', ${returning.type === "VARCHAR2" ? returning.size : 0})`, pos)], returning, pos)
}

const AGGREGATE_CLAUSE = (t: Tok, next: Tok | undefined, after: Tok | undefined) => (isKw(t, "ORDER") && isKw(next, "BY")) || GENERATION_CLAUSE(t, next, after)

/**
 * JSON_ARRAYAGG(expr [FORMAT JSON] [ORDER BY ...] [NULL | ABSENT ON NULL] [RETURNING ...]) and JSON_OBJECTAGG([KEY]
 * k VALUE v [FORMAT JSON] [NULL | ABSENT ON NULL] [RETURNING ...]) as a LISTAGG of the elements or members, which the
 * translator renders as DuckDB's string_agg (NULLs left out, so ABSENT ON NULL drops them and NULL ON NULL writes
 * `null`). Defaults as the SQL Language Reference gives them ("JSON_ARRAYAGG", "JSON_OBJECTAGG"): ABSENT ON NULL for
 * JSON_ARRAYAGG, NULL ON NULL for JSON_OBJECTAGG; VARCHAR2(4000) results. Over rows whose values are all left out
 * (ABSENT ON NULL) the result is an empty array, over no rows SQL NULL, as Oracle answers (h2database/h2database issue
 * #2928, "JSON_ARRAYAGG and all NULL values", compares H2 with Oracle); JSON_OBJECTAGG is taken to give `{}` alike
 * (**unconfirmed**).
 */
const aggregateSql = (name: "JSON_ARRAYAGG" | "JSON_OBJECTAGG", inner: Array<Tok>, pos: number, rw: Rewrite): Array<Tok> => {
  const top = topLevel(inner)
  const firstClause = top.findIndex(([t], k) => AGGREGATE_CLAUSE(t, top[k + 1]?.[0], top[k + 2]?.[0]))
  const at = firstClause < 0 ? inner.length : top[firstClause]![1]
  const orderAt = top.findIndex(([t], k) => isKw(t, "ORDER") && isKw(top[k + 1]?.[0], "BY"))
  const afterOrder = orderAt < 0 ? -1 : top.findIndex(([t], k) => k > orderAt + 1 && GENERATION_CLAUSE(t, top[k + 1]?.[0], top[k + 2]?.[0]))
  const order = orderAt < 0 ? [] : inner.slice(top[orderAt]![1], afterOrder < 0 ? inner.length : top[afterOrder]![1])
  const words = wordsOf(inner.slice(afterOrder >= 0 ? top[afterOrder]![1] : orderAt >= 0 ? inner.length : at))
  const absent = /\bABSENT ON NULL\b/.test(words) ? true : /\bNULL ON NULL\b/.test(words) ? false : name === "JSON_ARRAYAGG"
  const returning = returningOf(words)
  if (returning.type === "BLOB") throw new OraError(3001, `unimplemented feature: ${name} ... RETURNING BLOB`)
  const item = inner.slice(0, at)
  let element: Array<Tok>
  if (name === "JSON_ARRAYAGG") {
    const { expr, formatJson } = formatted(item)
    const value = valueOf(expr, formatJson, pos, rw)
    element = absent ? value : [...generated("coalesce(", pos), ...value, ...generated(", 'null')", pos)]
  } else {
    const parts = topLevel(item)
    const start = isKw(parts[0]?.[0], "KEY") ? 1 : 0
    const sep = parts.findIndex(([t], k) => k > start && isKw(t, "VALUE", "IS"))
    if (sep < 0) throw new OraError(3001, "unimplemented feature: JSON_OBJECTAGG entries other than [KEY] name VALUE expression")
    const key = rw(item.slice(parts[start]![1], parts[sep]![1]))
    const { expr, formatJson } = formatted(item.slice(parts[sep]![1] + 1))
    const value = valueOf(expr, formatJson, pos, rw)
    const nullable = absent ? value : [...generated("coalesce(", pos), ...value, ...generated(", 'null')", pos)]
    element = [...generated("ora_json_member(CAST(", pos), ...key, ...generated(" AS VARCHAR2(4000)), ", pos), ...nullable, ...generated(")", pos)]
  }
  const within = order.length === 0 ? [] : [...generated(" WITHIN GROUP (", pos), ...rw(order), ...generated(")", pos)]
  const list = [...generated("LISTAGG(", pos), ...element, ...generated(", ',')", pos), ...within]
  const kind = name === "JSON_ARRAYAGG" ? "array" : "object"
  // rows whose values are all left out give `[]` / `{}`, no rows SQL NULL (see the JSDoc)
  const wrapped = [...generated("CASE WHEN COUNT(*) > 0 THEN ora_json_wrap(coalesce(", pos), ...list, ...generated(`, ' '), '${kind}') END`, pos)]
  return returned(wrapped, returning, pos)
}

/** The DuckDB calls for one SQL/JSON call `name(args)` (`inner`: the tokens between its parentheses). */
const callSql = (name: string, args: Array<Array<Tok>>, inner: Array<Tok>, pos: number, version: OracleVersion, jsonColumns: ReadonlySet<string>): Array<Tok> => {
  const rw: Rewrite = (toks) => rewriteCalls(toks, version, jsonColumns)
  if (name === "JSON_OBJECT") return objectSql(args, pos, rw)
  if (name === "JSON_ARRAY") return arraySql(args, pos, rw)
  if (name === "JSON_SERIALIZE") return serializeSql(args, pos, rw)
  if (name === "JSON_ARRAYAGG" || name === "JSON_OBJECTAGG") return aggregateSql(name, inner, pos, rw)
  if (name === "JSON_MERGEPATCH") return mergePatchSql(args, pos, rw, version, jsonColumns)
  if (name === "JSON_TRANSFORM") return transformSql(args, pos, rw, jsonColumns)
  const doc = rw(args[0] ?? [])
  const top = topLevel(inner)
  const comma = top.find(([t]) => isOp(t, ","))
  const { path, passing, onError, onEmpty, words } = queryClauses(name, comma === undefined ? [] : inner.slice(comma[1] + 1))
  // the PASSING values as one JSON object, each value as JSON_OBJECT writes it (numbers as numbers, dates as ISO strings)
  const vars =
    passing.length === 0
      ? generated("'{}'", pos)
      : wrapped(
          passing.map((p) => [...generated(`ora_json_member(${sqlString(p.name)}, coalesce(`, pos), ...valueOf([...p.value], false, pos, rw), ...generated(", 'null'))", pos)]),
          "object",
          pos
        )
  const plain = onError === undefined && onEmpty === undefined && passing.length === 0
  const call = (fn: string, extra: Array<Tok>) => [...generated(`${fn}(`, pos), ...doc, ...generated(`, ${sqlString(path.value)}`, pos), ...extra, ...generated(")", pos)]
  const handling = `'${onError?.handling ?? "NULL"} ${onEmpty?.handling ?? "-"}${version === "23ai" ? " 23ai" : ""}'`
  if (name === "JSON_EXISTS") {
    // FALSE ON ERROR is the default (SQL Language Reference, "JSON_EXISTS Condition")
    return plain ? call("ora_json_exists", []) : call("ora_json_exists", [...generated(`, '${onError?.handling ?? "FALSE"}', `, pos), ...vars])
  }
  if (name === "JSON_QUERY") {
    const wrapper = /\bWITH CONDITIONAL\b/.test(words) ? "CONDITIONAL" : /\bWITH (?:UNCONDITIONAL )?(?:ARRAY )?WRAPPER\b/.test(words) ? "WITH" : "WITHOUT"
    const omit = /\bOMIT QUOTES\b/.test(words)
    const flags = `, '${wrapper}', ${version === "23ai" ? "TRUE" : "FALSE"}, ${omit ? "TRUE" : "FALSE"}`
    const query = call("ora_json_query", plain ? generated(flags, pos) : [...generated(`${flags}, ${handling}, `, pos), ...vars])
    // the result is JSON, not VARCHAR2, when asked for or when the input is a JSON column ("If the input type is JSON
    // then JSON is also the default return type", JSON Developer's Guide 21c/23ai, "SQL/JSON Function JSON_QUERY")
    const returning = /\bRETURNING (\w+)/.exec(words)?.[1]
    const fromJson = returning === undefined && version !== "19c" && isJsonColumn(args[0] ?? [], jsonColumns)
    if (returning === "JSON" || fromJson) return [...generated("CAST(", pos), ...query, ...generated(" AS JSON)", pos)]
    // PRETTY / ASCII lay the text out as JSON_SERIALIZE does (M. Bach's 19c JSON_QUERY(..., '$' PRETTY) output,
    // martincarstenbach.wordpress.com/2019/06/14/json_table-and-date-time-columns-in-oracle-19c, has that layout)
    const layout = flagsIn(words, ["PRETTY", "ASCII"])
    return layout.length === 0 ? query : [...generated("ora_json_serialize(", pos), ...query, ...generated(`, '${layout.join(" ")}', 0)`, pos)]
  }
  // JSON_VALUE [RETURNING type]
  const returning = /\bRETURNING (\w+)/.exec(words)?.[1]
  const kind = returning === undefined ? "VARCHAR2" : NUMBER_RETURNS.has(returning) ? "NUMBER" : returning === "DATE" || returning === "TIMESTAMP" ? returning : returning === "BINARY_DOUBLE" || returning === "BINARY_FLOAT" ? "NUMBER" : sizedText(words)
  const defaultOf = (clause: OnClause | undefined) =>
    clause?.handling === "DEFAULT" ? [...generated("CAST(", pos), ...rw([...clause.value]), ...generated(" AS VARCHAR)", pos)] : generated("'-'", pos)
  // RETURNING NUMBER(p[,s]): the function checks the value fits (its ON ERROR clause handles one that does not)
  const sized = returning === "NUMBER" ? /\bRETURNING (NUMBER \( \d+(?: , \d+)? \))/.exec(words)?.[1]?.replace(/ /g, "") : undefined
  const checked = sized ?? kind
  const value = plain
    ? call("ora_json_value", generated(`, '${checked}'`, pos))
    : call("ora_json_value", [...generated(`, '${checked}', ${handling}, `, pos), ...defaultOf(onError), ...generated(", ", pos), ...defaultOf(onEmpty), ...generated(", ", pos), ...vars])
  if (returning === undefined || kind.startsWith("VARCHAR2")) return value
  const target = /\bRETURNING (\w+(?: \( \d+(?: , \d+)? \))?)/.exec(words)?.[1]?.replace(/ /g, "") ?? returning
  return [...generated("CAST(", pos), ...value, ...generated(` AS ${target})`, pos)]
}

/** `replacement` headed as the `original` tokens it stands for (Oracle's heading of the unaliased expression). */
const headed = (replacement: ReadonlyArray<Tok>, original: ReadonlyArray<Tok>): Array<Tok> =>
  replacement.map((r, n) => ({ ...r, heading: n === 0 ? headingOf(original.filter((x) => x.kind !== "ws")) : "" }))

/** True when `arg` is a (qualified) column name of a JSON column. */
const isJsonColumn = (arg: ReadonlyArray<Tok>, jsonColumns: ReadonlySet<string>): boolean => {
  const sig = arg.filter((t) => t.kind !== "ws")
  const last = sig[sig.length - 1]
  const named = sig.every((t, k) => (k % 2 === 0 ? t.kind === "ident" || t.kind === "qident" : isOp(t, ".")))
  return named && last !== undefined && sig.length % 2 === 1 && jsonColumns.has(last.value)
}

/** `toks` with every SQL/JSON call rewritten (nested ones too). */
const rewriteCalls = (toks: ReadonlyArray<Tok>, version: OracleVersion, jsonColumns: ReadonlySet<string>): Array<Tok> => {
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const open = k + 1
    if (t.kind === "ident" && CALLS.has(t.value) && isOp(toks[open], "(") && !isOp(toks[k - 1], ".")) {
      const { args, close } = argumentsOf(toks, open)
      const replacement = callSql(t.value, args, toks.slice(open + 1, close), t.pos, version, jsonColumns)
      out.push(...headed(replacement, toks.slice(k, close + 1)))
      k = close
    } else out.push(t)
  }
  return out
}

const BOUNDARY_WORDS = ["AND", "OR", "NOT", "WHERE", "WHEN", "THEN", "ELSE", "SELECT", "ON", "HAVING", "CHECK", "RETURN", "SET", "BY", "DISTINCT", "LIKE", "BETWEEN", "IN", "IS", "END"]
const BOUNDARY_OPS = new Set([",", "=", "<", ">", "<=", ">=", "<>", "!=", ";", ":="])

/**
 * The first token index of a condition's operand that ends right before index `end`: back to the condition's
 * boundary at its depth (AND, OR, NOT, WHERE, WHEN, a comparison, a comma, an opening parenthesis), so that an
 * arithmetic operand is whole (`d / 0 IS INFINITE`).
 */
export const operandStart = (toks: ReadonlyArray<Tok>, end: number): number => {
  let depth = 0
  let start = end
  for (let k = end - 1; k >= 0; k--) {
    const t = toks[k]!
    if (t.kind === "ws") continue
    if (isOp(t, ")")) depth++
    else if (isOp(t, "(")) {
      if (depth === 0) break
      depth--
    } else if (depth === 0 && ((t.kind === "ident" && BOUNDARY_WORDS.includes(t.value)) || (t.kind === "op" && BOUNDARY_OPS.has(t.value)))) break
    start = k
  }
  return start
}

/**
 * True when index `at` lies in a `CHECK (...)` constraint: DDL records such conditions with their text (ddl.ts), as
 * Oracle's dictionary shows them.
 */
const insideCheck = (toks: ReadonlyArray<Tok>, at: number): boolean => {
  let depth = 0
  for (let k = at - 1; k >= 0; k--) {
    if (isOp(toks[k], ")")) depth++
    else if (isOp(toks[k], "(") && depth-- === 0) {
      let p = k - 1
      while (p >= 0 && toks[p]!.kind === "ws") p--
      if (isKw(toks[p], "CHECK")) return true
      depth = 0
    }
  }
  return false
}

/** The flags ora_is_json takes for the modifiers of an IS JSON condition (`ALLOW SCALARS`, `WITH UNIQUE KEYS`, ...). */
export const isJsonFlags = (words: ReadonlyArray<string>, version: OracleVersion): string => {
  const scalars = words.includes("ALLOW SCALARS") || (version === "23ai" && !words.includes("DISALLOW SCALARS"))
  return [words.includes("STRICT") ? "STRICT" : "", scalars ? "SCALARS" : "", words.includes("WITH UNIQUE KEYS") ? "UNIQUE" : ""].join(" ").trim()
}

/** `operand IS [NOT] JSON [modifiers]` as `[NOT] ora_is_json(operand, flags)`. */
const rewriteIsJson = (toks: ReadonlyArray<Tok>, version: OracleVersion): Array<Tok> => {
  const out = [...toks]
  const sig = significantAt(out)
  for (let n = sig.length - 1; n >= 0; n--) {
    if (!isKw(out[sig[n]!], "IS")) continue
    const negated = isKw(out[sig[n + 1]!], "NOT")
    const jsonAt = n + (negated ? 2 : 1)
    if (!isKw(out[sig[jsonAt]!], "JSON") || isOp(out[sig[jsonAt + 1]!], "(") || insideCheck(out, sig[n]!)) continue
    // modifiers: STRICT | LAX, ALLOW | DISALLOW SCALARS, WITH | WITHOUT UNIQUE KEYS
    let m = jsonAt + 1
    const words: Array<string> = []
    const take = (...seq: Array<string>) => {
      if (!seq.every((w, d) => isKw(out[sig[m + d]!], w))) return false
      words.push(seq.join(" "))
      m += seq.length
      return true
    }
    while (take("STRICT") || take("LAX") || take("ALLOW", "SCALARS") || take("DISALLOW", "SCALARS") || take("WITH", "UNIQUE", "KEYS") || take("WITHOUT", "UNIQUE", "KEYS")) {}
    const flags = isJsonFlags(words, version)
    const isAt = sig[n]!
    const start = operandStart(out, isAt)
    const pos = out[isAt]!.pos
    const end = m < sig.length ? sig[m]! : out.length
    const replacement = [
      ...generated(`${negated ? "NOT " : ""}ora_is_json(`, pos),
      ...out.slice(start, isAt),
      ...generated(`, ${sqlString(flags)})`, pos)
    ]
    out.splice(start, end - start, ...headed(replacement, out.slice(start, end)), ...generated(" ", pos))
    n = significantAt(out.slice(0, start)).length
  }
  return out
}


/** The JSON_VALUE return kind and SQL type of simple dot notation ending in an item method (json_value semantics). */
const METHOD_RETURNS: ReadonlyMap<string, readonly [string, string]> = new Map<string, readonly [string, string]>([
  ...["number", "numberOnly", "size", "count", "length", "abs", "ceiling", "floor", "sum", "avg", "minNumber", "maxNumber", "double", "float"].map((m): [string, readonly [string, string]] => [m, ["NUMBER", "NUMBER"]]),
  ["date", ["DATE", "DATE"]],
  ["timestamp", ["TIMESTAMP", "TIMESTAMP"]]
])

/**
 * Simple dot notation, `alias.col.a.b[0].c`, on a JSON column or on a VARCHAR2 / CLOB / BLOB column with an IS JSON
 * check constraint (JSON Developer's Guide, "Simple Dot-Notation Access to JSON Data"): the field names are matched
 * as written (case-sensitive), array steps as in a path, one targeted value is returned as it is (a string of a
 * textual column as its text, as json_value gives it: the guide calls the behaviour "similar to that of function
 * json_value for a scalar value", and M. D'Souza's talkapex.com post "Dot Notation for JSON in Oracle SQL" shows
 * `Martin` for `d.json_data.name` on a VARCHAR2 IS JSON column), several wrapped in an array, none as NULL; an item
 * ending in a field is headed by that field's name (NAME in the same post); the result of a JSON column is JSON
 * (21c+), of a textual one VARCHAR2(4000). Written as
 * JSON_QUERY's call with the `DOT` wrapper rule (json-functions.ts). A trailing item method (`.number()`) makes it a
 * JSON_VALUE, returning NUMBER for the numeric methods, DATE / TIMESTAMP for date() / timestamp(), else VARCHAR2
 * ("SQL/JSON Path Expression Item Methods": a dot-notation query with an item method applies json_value with a
 * RETURNING clause).
 */
const rewriteDotNotation = (toks: ReadonlyArray<Tok>, jsonColumns: ReadonlySet<string>, textColumns: ReadonlySet<string>): Array<Tok> => {
  const out: Array<Tok> = []
  const sig = significantAt(toks)
  const at = (n: number) => toks[sig[n] ?? -1]
  let copied = 0
  for (let n = 0; n < sig.length; n++) {
    const column = at(n + 2)
    const columnName = column === undefined ? "" : column.kind === "qident" ? column.value : column.value.toUpperCase()
    const startsChain = !isOp(at(n - 1), ".") && isName(at(n)) && isOp(at(n + 1), ".") && isName(column)
    if (!startsChain || !(jsonColumns.has(columnName) || textColumns.has(columnName))) continue
    // the steps after `alias.col`: `.name`, `[...]`, and a final `.method()`
    let m = n + 2
    let path = "$"
    let method: string | undefined
    // the name of a last step that is a field: the item's heading (`d.json_data.name` is headed NAME)
    let lastField: string | undefined
    for (;;) {
      if (isOp(at(m + 1), ".") && isName(at(m + 2)) && isOp(at(m + 3), "(") && isOp(at(m + 4), ")") && ITEM_METHODS.has(at(m + 2)!.text)) {
        method = at(m + 2)!.text
        path += `.${method}()`
        m += 4
        break
      }
      if (isOp(at(m + 1), ".") && isName(at(m + 2)) && !isOp(at(m + 3), "(")) {
        const t = at(m + 2)!
        path += `.${JSON.stringify(t.kind === "qident" ? t.value : t.text)}`
        lastField = t.kind === "qident" ? t.value : t.text.toUpperCase()
        m += 2
      } else if (isOp(at(m + 1), "[")) {
        lastField = undefined
        let close = m + 2
        while (close < sig.length && !isOp(at(close), "]")) close++
        if (close >= sig.length) break
        path += `[${sig.slice(m + 2, close).map((k) => toks[k]!.text).join(" ")}]`
        m = close
      } else break
    }
    if (m === n + 2) continue
    const first = sig[n]!
    out.push(...toks.slice(copied, first))
    const pos = toks[first]!.pos
    const target = toks.slice(first, sig[n + 2]! + 1)
    let call: Array<Tok>
    if (method !== undefined) {
      const [kind, type] = METHOD_RETURNS.get(method) ?? ["VARCHAR2", ""]
      const value = [...generated("ora_json_value(", pos), ...target, ...generated(`, ${sqlString(path)}, '${kind}')`, pos)]
      call = type === "" ? value : [...generated("CAST(", pos), ...value, ...generated(` AS ${type})`, pos)]
    } else {
      const wrapper = jsonColumns.has(columnName) ? "DOT" : "DOTTEXT"
      const query = [...generated("ora_json_query(", pos), ...target, ...generated(`, ${sqlString(path)}, '${wrapper}', TRUE, FALSE)`, pos)]
      call = jsonColumns.has(columnName) ? [...generated("CAST(", pos), ...query, ...generated(" AS JSON)", pos)] : query
    }
    const item = headed(call, toks.slice(first, sig[m]! + 1))
    out.push(...(method === undefined && lastField !== undefined ? item.map((t, k) => ({ ...t, heading: k === 0 ? lastField! : "" })) : item))
    copied = sig[m]! + 1
    n = m
  }
  out.push(...toks.slice(copied))
  return out
}

/** Rewrites the SQL/JSON functions and conditions of a statement's tokens (the tokens themselves when it has none). */
export const rewriteJsonSql = (toks: ReadonlyArray<Tok>, version: OracleVersion, jsonColumns: ReadonlySet<string> = new Set(), textJsonColumns: ReadonlySet<string> = new Set()): ReadonlyArray<Tok> => {
  // JSON columns exist from 21c; textual columns with an IS JSON check take dot notation on 19c too
  const json = version === "19c" ? new Set<string>() : jsonColumns
  const dotted = json.size > 0 || textJsonColumns.size > 0 ? rewriteDotNotation(toks, json, textJsonColumns) : toks
  if (!dotted.some((t) => t.kind === "ident" && (CALLS.has(t.value) || t.value === "JSON"))) return dotted
  return rewriteCalls(rewriteIsJson(dotted, version), version, jsonColumns)
}
