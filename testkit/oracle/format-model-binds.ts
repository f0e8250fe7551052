/**
 * Bound format models: `TO_CHAR(x, :fmt)`, `TO_DATE(:d, :fmt)`, `TO_NUMBER(:t, :fmt, :nls)` and the like take their
 * format model (and NLS parameter) from a bind as readily as from a literal (SQL Language Reference, "TO_CHAR
 * (number)": "fmt ... can be a character expression"). The translator compiles a format model into engine SQL, so a
 * bound one is written into the statement as the literal it is, and its bind leaves the bind rows.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { isOp, matchParen, sqlString, tokenize, type Tok } from "./lexer.ts"
import type { BindSpec } from "./statement.ts"

/** The conversion functions whose second and third arguments are a format model and an NLS parameter string. */
const FORMAT_FUNCTIONS = new Set(["TO_CHAR", "TO_NCHAR", "TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ", "TO_NUMBER", "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT"])

/** A statement with its bound format models written in as literals. */
export interface InlinedFormatBinds {
  readonly sql: string
  readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  readonly specs: ReadonlyArray<BindSpec>
}

/**
 * Writes each bind that is the whole format model or NLS parameter argument of a conversion function into `sql` as
 * a string literal and removes it from every bind row. Only when every row binds the same text there (an
 * executeMany with differing models is left as it is) and no bind name occurs twice (binds are positional).
 */
export const inlineFormatBinds = (sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>): InlinedFormatBinds | undefined => {
  // RETURNING ... INTO binds are written back by position: such a statement keeps its binds
  if (rows.length === 0 || !/\bTO_[A-Z_]+\s*\([^]*:/i.test(sql) || /\bRETURN(?:ING)?\b[^]*\bINTO\b/i.test(sql)) return undefined
  const toks = tokenize(sql)
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const binds = toks.flatMap((t, k) => (t.kind === "bind" ? [k] : []))
  if (new Set(binds.map((k) => toks[k]!.value.toUpperCase())).size !== binds.length) return undefined
  const inlined = new Map<number, string>()
  for (let s = 0; s + 1 < sig.length; s++) {
    const name = toks[sig[s]!]!
    if (name.kind !== "ident" || !FORMAT_FUNCTIONS.has(name.value.toUpperCase()) || !isOp(toks[sig[s + 1]!], "(")) continue
    const close = matchParen(toks, sig[s + 1]!)
    // the argument list's top-level commas, and each argument that is one bind alone
    let depth = 0
    let argument = 0
    let start = sig[s + 1]! + 1
    for (let k = start; k <= close; k++) {
      const t = toks[k]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")") && depth > 0) depth--
      else if (k === close || (depth === 0 && isOp(t, ","))) {
        const inside = toks.slice(start, k).map((x, i) => ({ x, k: start + i })).filter(({ x }) => x.kind !== "ws")
        const only = inside.length === 1 && inside[0]!.x.kind === "bind" ? inside[0]!.k : undefined
        const position = only === undefined ? -1 : binds.indexOf(only)
        const value = position < 0 ? undefined : rows[0]![position]
        if (argument >= 1 && argument <= 2 && typeof value === "string" && rows.every((r) => r[position] === value)) inlined.set(only!, value)
        argument++
        start = k + 1
      }
    }
  }
  if (inlined.size === 0) return undefined
  const dropped = new Set(binds.flatMap((k, position) => (inlined.has(k) ? [position] : [])))
  const keep = <T>(xs: ReadonlyArray<T>) => xs.filter((_, position) => !dropped.has(position))
  return {
    sql: toks.map((t: Tok, k) => (inlined.has(k) ? sqlString(inlined.get(k)!) : t.text)).join(""),
    rows: rows.map(keep),
    specs: keep(specs)
  }
}
