/**
 * The clauses after the document of JSON_VALUE, JSON_QUERY and JSON_EXISTS, read from their tokens: the path literal,
 * `PASSING expr AS name [, ...]` (SQL/JSON variables), the ON ERROR / ON EMPTY clauses (`ERROR`, `NULL`, `TRUE`,
 * `FALSE`, `EMPTY [ARRAY | OBJECT]`, `DEFAULT expr`) and the other clause words (RETURNING, wrapper, quotes) for
 * json-sql.ts (SQL Language Reference, "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS Condition"; JSON Developer's Guide,
 * "Error Clause for SQL Functions and Conditions", "Empty-Field Clause for SQL/JSON Query Functions").
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"

/** One ON ERROR or ON EMPTY clause: its handling word and, for DEFAULT, the value's tokens. */
export interface OnClause {
  readonly handling: "NULL" | "ERROR" | "TRUE" | "FALSE" | "EMPTYARRAY" | "EMPTYOBJECT" | "DEFAULT"
  readonly value: ReadonlyArray<Tok>
}

/** A query function's clauses after its document argument. */
export interface QueryClauses {
  readonly path: Tok
  readonly passing: ReadonlyArray<{ readonly name: string; readonly value: ReadonlyArray<Tok> }>
  readonly onError: OnClause | undefined
  readonly onEmpty: OnClause | undefined
  /** The remaining clause words, upper-cased and blank-separated (`RETURNING NUMBER`, `WITH WRAPPER`, ...). */
  readonly words: string
}

/**
 * The handlings each function's grammar takes in its ON ERROR and ON EMPTY clauses (SQL Language Reference,
 * JSON_value_on_error_clause / JSON_query_on_error_clause / JSON_exists_on_error_clause and their ON EMPTY forms;
 * JSON Developer's Guide, "Error Clause for SQL Functions and Conditions": NULL ON ERROR "Not available for
 * json_exists", EMPTY [ARRAY | OBJECT] "Available only for json_query", DEFAULT not "for json_exists" nor "for
 * json_query or a json_table column value clause that has json_query behavior"; TRUE / FALSE only for json_exists).
 */
const HANDLINGS: Readonly<Record<string, ReadonlySet<OnClause["handling"]>>> = {
  JSON_VALUE: new Set(["NULL", "ERROR", "DEFAULT"]),
  JSON_QUERY: new Set(["NULL", "ERROR", "EMPTYARRAY", "EMPTYOBJECT"]),
  JSON_EXISTS: new Set(["ERROR", "TRUE", "FALSE"])
}

/** True when `sig[k]` starts `ON ERROR | EMPTY | MISMATCH`. */
const onAt = (sig: ReadonlyArray<Tok>, k: number): boolean => isKw(sig[k], "ON") && isKw(sig[k + 1], "ERROR", "EMPTY", "MISMATCH")

/**
 * The clauses of `tail`: the tokens after the document argument's comma (`'$.a' PASSING 5 AS "q" RETURNING NUMBER
 * DEFAULT 0 ON EMPTY ERROR ON ERROR`). `name` names the function in errors.
 */
export const queryClauses = (name: string, tail: ReadonlyArray<Tok>): QueryClauses => {
  const sig = tail.filter((t) => t.kind !== "ws")
  const at = tail.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  // significant tokens start..end (exclusive) with the blanks between them
  const span = (start: number, end: number): Array<Tok> => tail.slice(at[start], at[end - 1]! + 1)
  const path = sig[0]
  if (path === undefined || path.kind !== "str") throw new OraError(40454, `path expression not a literal (${name})`)
  const passing: Array<{ name: string; value: Array<Tok> }> = []
  const words: Array<string> = []
  let onError: OnClause | undefined
  let onEmpty: OnClause | undefined
  let k = 1
  if (isKw(sig[k], "PASSING")) {
    k++
    for (;;) {
      // expr AS name: the expression runs to the top-level AS
      const start = k
      let depth = 0
      while (k < sig.length && !(depth === 0 && isKw(sig[k], "AS"))) {
        if (isOp(sig[k], "(")) depth++
        else if (isOp(sig[k], ")")) depth--
        k++
      }
      const variable = sig[k + 1]
      if (k >= sig.length || variable === undefined || (variable.kind !== "ident" && variable.kind !== "qident")) throw new OraError(905, "missing keyword")
      // an unquoted name is upper-cased as any SQL identifier (`AS q` binds `$Q`)
      passing.push({ name: variable.value, value: span(start, k) })
      k += 2
      if (!isOp(sig[k], ",")) break
      k++
    }
  }
  const set = (target: Tok | undefined, clause: OnClause) => {
    // a handling the function's grammar lacks is a syntax error where the call's `)` may come (ORA-00907: the code
    // Oracle's parser gives here is **unconfirmed**)
    if (HANDLINGS[name]?.has(clause.handling) === false) throw new OraError(907, "missing right parenthesis")
    if (isKw(target, "ERROR")) onError = clause
    else if (isKw(target, "EMPTY")) onEmpty = clause
    else throw new OraError(3001, `unimplemented feature: ${name} ... ON ${target?.value ?? ""}`)
  }
  while (k < sig.length) {
    const t = sig[k]!
    if (isKw(t, "ERROR", "NULL", "TRUE", "FALSE") && onAt(sig, k + 1)) {
      set(sig[k + 2], { handling: t.value.toUpperCase() as OnClause["handling"], value: [] })
      k += 3
    } else if (isKw(t, "EMPTY") && (onAt(sig, k + 1) || (isKw(sig[k + 1], "ARRAY", "OBJECT") && onAt(sig, k + 2)))) {
      const object = isKw(sig[k + 1], "OBJECT")
      const skip = isKw(sig[k + 1], "ARRAY", "OBJECT") ? 1 : 0
      set(sig[k + 2 + skip], { handling: object ? "EMPTYOBJECT" : "EMPTYARRAY", value: [] })
      k += 3 + skip
    } else if (isKw(t, "TYPE") && isOp(sig[k + 1], "(")) {
      // TYPE (LAX) is the default; strict type checking is not implemented
      if (!isKw(sig[k + 2], "LAX")) throw new OraError(3001, `unimplemented feature: ${name} ... TYPE (${sig[k + 2]?.value ?? ""})`)
      k += 4
    } else if (isKw(t, "DEFAULT")) {
      // DEFAULT expr ON ERROR | EMPTY: the value runs to the top-level ON of its clause
      let end = k + 1
      let depth = 0
      while (end < sig.length && !(depth === 0 && onAt(sig, end))) {
        if (isOp(sig[end], "(")) depth++
        else if (isOp(sig[end], ")")) depth--
        end++
      }
      if (end >= sig.length || end === k + 1) throw new OraError(905, "missing keyword")
      set(sig[end + 1], { handling: "DEFAULT", value: span(k + 1, end) })
      k = end + 2
    } else {
      words.push(t.kind === "str" ? `'${t.value}'` : t.value)
      k++
    }
  }
  return { path, passing, onError, onEmpty, words: words.join(" ") }
}
