/**
 * The simple cases of HANA's full-text predicate `CONTAINS` (SAP HANA SQL Reference, "CONTAINS Predicate"):
 * `CONTAINS(column, 'terms')` and `CONTAINS(column, 'terms', EXACT)` match a value holding every term (whole words,
 * case-insensitive); `CONTAINS(column, 'terms', FUZZY(t [, 'options']))` matches a value whose fuzzy score reaches
 * t: the mean, over the search terms, of each term's best similarity to a word of the value (1 − Levenshtein
 * distance / longer length). That reproduces SAP/node-hdb's acceptance test against a real HANA
 * (test/acceptance/db.DataType.js, testFuzzySearch: 'xSAP Corp Walldorf' at 0.7 finds only 'SAP in Walldorf Corp'
 * among 'SAP Corp', 'ASAP', 'ASAP Corp', 'BSAP orp', 'IBM Corp'). HANA's own scoring (and the FUZZY options string,
 * SCORE(), LINGUISTIC, several columns, search operators such as OR and quotes) is not modelled: options are ignored,
 * the rest fails with error 7.
 */
import { BOOLEAN, DOUBLE, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBScalarFunction } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { HanaError } from "./errors.ts"
import { matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0)

const levenshtein = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.length]!
}

const similarity = (a: string, b: string): number => 1 - levenshtein(a, b) / Math.max(a.length, b.length, 1)

/** The fuzzy score of `value` for `search` (0..1). */
export const fuzzyScore = (value: string, search: string): number => {
  const terms = words(search)
  const candidates = words(value)
  if (terms.length === 0 || candidates.length === 0) return 0
  const best = terms.map((t) => Math.max(...candidates.map((c) => similarity(t, c))))
  return best.reduce((a, b) => a + b, 0) / best.length
}

const exactMatch = (value: string, search: string): boolean => {
  const present = new Set(words(value))
  const terms = words(search)
  return terms.length > 0 && terms.every((t) => present.has(t))
}

/** Registers `hana_contains(value, search)` and `hana_fuzzy_score(value, search)`. */
export const registerTextSearchFunctions = (connection: DuckDBConnection): void => {
  const functions: DuckDBScalarFunction[] = [
    fn("hana_contains", [VARCHAR, VARCHAR], BOOLEAN, ([v, s]) => exactMatch(String(v), String(s))),
    fn("hana_fuzzy_score", [VARCHAR, VARCHAR], DOUBLE, ([v, s]) => fuzzyScore(String(v), String(s)))
  ]
  for (const f of functions) connection.registerScalarFunction(f)
}

const isOp = (t: Token | undefined, v: string): boolean => t !== undefined && t.t === "op" && t.v === v

const textOf = (sql: string, tokens: readonly Token[]): string =>
  tokens.length === 0 ? "" : sql.slice(tokens[0]!.pos!, tokens[tokens.length - 1]!.end!)

/**
 * Rewrites each `CONTAINS(column, search [, EXACT | FUZZY(t [, options])])` into a call of the functions above;
 * SQL without CONTAINS is returned as it is.
 */
export const rewriteContains = (sql: string): string => {
  if (!/CONTAINS/i.test(sql)) return sql
  const tokens = sig(tokenize(sql))
  let out = ""
  let at = 0
  for (let i = 0; i < tokens.length; i++) {
    if (upper(tokens[i]) !== "CONTAINS" || !isOp(tokens[i + 1], "(") || isOp(tokens[i - 1], ".")) continue
    const close = matching(tokens, i + 1)
    const args = splitTopLevel(tokens.slice(i + 2, close))
    const column = args[0] ?? []
    const search = args[1] ?? []
    if (args.length < 2 || column.length === 0 || search.length === 0) throw HanaError.syntax("CONTAINS(column, search [, mode]) expected", tokens[i]!.pos ?? 0)
    if (isOp(column[0], "(") || isOp(column[0], "*")) throw HanaError.unsupported("CONTAINS over several columns on the test server")
    const mode = args[2] ?? []
    let call: string
    const value = `CAST(${textOf(sql, column)} AS NVARCHAR(5000))`
    if (mode.length === 0 || (mode.length === 1 && upper(mode[0]) === "EXACT")) {
      call = `hana_contains(${value}, ${textOf(sql, search)})`
    } else if (upper(mode[0]) === "FUZZY" && isOp(mode[1], "(")) {
      const fuzzyArgs = splitTopLevel(mode.slice(2, matching(mode, 1)))
      const threshold = fuzzyArgs[0] ?? []
      call = `(hana_fuzzy_score(${value}, ${textOf(sql, search)}) >= ${threshold.length === 0 ? "0.8" : textOf(sql, threshold)})`
    } else throw HanaError.unsupported(`CONTAINS search mode ${textOf(sql, mode)} on the test server (EXACT and FUZZY are supported)`)
    out += sql.slice(at, tokens[i]!.pos!) + call
    at = tokens[close]!.end!
    i = close
  }
  return out + sql.slice(at)
}
